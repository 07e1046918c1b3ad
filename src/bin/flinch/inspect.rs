//! `flinch inspect`: what a file holds and what the importer inferred.

use std::path::Path;

use flinch::io::Imported;
use flinch::model::{BuildConfig, Model};
use flinch::skeleton::roles::BoneMap;
use flinch::skeleton::{Channel, Skeleton, rest_height};
use serde_json::json;

use crate::{CliError, ImportArgs};

/// Loads `file` (or the embedded walk) and prints its summary as text or JSON; with `with_model`, also the
/// physical model built from it (default config, or `config`).
pub fn run(
    file: Option<&Path>,
    as_json: bool,
    with_model: bool,
    config: Option<&Path>,
    args: &ImportArgs,
    rate: Option<f64>,
) -> Result<(), CliError> {
    let build_config = match config {
        Some(path) => BuildConfig::from_file(path).map_err(|e| CliError::Input(e.to_string()))?,
        None => BuildConfig::default(),
    };
    let (name, imported) = args.load(file, rate)?;
    let model = if with_model {
        let m = Model::from_skeleton(&imported.skeleton, &build_config)
            .map_err(|e| CliError::Input(format!("{name}: {e}")))?;
        Some(m)
    } else {
        None
    };
    let unknown = Model::unknown_bones(&imported.skeleton, &build_config);
    let bone_map = BoneMap::new(&imported.skeleton);
    if as_json {
        let mut value = summary_json(&name, &imported);
        value["bone_map"] = bone_map.to_json(&imported.skeleton);
        if let Some(m) = &model {
            value["model"] = model_json(&imported.skeleton, m, &unknown);
        }
        let text = serde_json::to_string_pretty(&value)
            .map_err(|e| CliError::Other(format!("cannot format JSON: {e}")))?;
        println!("{text}");
    } else {
        print!("{}", summary_text(&name, &imported));
        print!("bone map\n{}", bone_map.to_text(&imported.skeleton));
        if let Some(m) = &model {
            print!("{}", model_text(&imported.skeleton, m, &unknown));
        }
    }
    Ok(())
}

/// The bodies of a physical model: mass, capsules, merged joints, and the total.
fn model_text(sk: &Skeleton, model: &Model, unknown: &[&str]) -> String {
    let mut out = format!(
        "model     {} bodies, {} joints\n",
        model.bodies.len(),
        model.joints.len()
    );
    for b in &model.bodies {
        let merged: Vec<&str> = b
            .merged
            .iter()
            .map(|&j| sk.joints[j].name.as_str())
            .collect();
        let merged = if merged.is_empty() {
            String::new()
        } else {
            format!("  merged: {}", merged.join(", "))
        };
        out += &format!(
            "  {:20} {:7.3} kg  {} capsule(s){}\n",
            b.name,
            b.mass.mass,
            b.capsules.len(),
            merged
        );
    }
    out += &format!("total     {:.2} kg\n", model.total_mass());
    for name in unknown {
        out += &format!("warning   config names bone '{name}', which the skeleton does not have\n");
    }
    out
}

/// The model as JSON.
fn model_json(sk: &Skeleton, model: &Model, unknown: &[&str]) -> serde_json::Value {
    let bodies: Vec<serde_json::Value> = model
        .bodies
        .iter()
        .map(|b| {
            json!({
                "name": b.name,
                "parent": b.parent,
                "mass_kg": b.mass.mass,
                "com_m": [b.mass.com.x, b.mass.com.y, b.mass.com.z],
                "capsules": b.capsules.len(),
                "merged": b.merged.iter().map(|&j| sk.joints[j].name.clone()).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({
        "body_count": model.bodies.len(),
        "total_mass_kg": model.total_mass(),
        "bodies": bodies,
        "unknown_config_bones": unknown,
    })
}

fn channel_names(channels: &[Channel]) -> Vec<String> {
    channels.iter().map(|c| c.bvh_name()).collect()
}

fn dof(channels: &[Channel]) -> usize {
    channels.len()
}

/// The human-readable summary.
fn summary_text(name: &str, imp: &Imported) -> String {
    let sk = &imp.skeleton;
    let clip = &imp.clip;
    let r = &imp.report;
    let end_sites: usize = sk.joints.iter().map(|j| j.end_sites.len()).sum();
    let inferred = |b: bool| if b { "inferred" } else { "given" };
    let mut out = String::new();
    out += &format!("file      {name} ({})\n", r.format);
    out += &format!(
        "joints    {} ({} end sites), {} channels\n",
        sk.len(),
        end_sites,
        sk.channel_count()
    );
    out += &format!(
        "frames    {} at {:.3} fps, {:.3} s\n",
        clip.frame_count(),
        clip.frame_rate(),
        clip.duration()
    );
    if r.leading_tpose {
        let what = if r.leading_tpose_dropped {
            "dropped"
        } else {
            "kept; --drop-tpose drops it"
        };
        out += &format!("          first frame is a T-pose reference frame ({what})\n");
    }
    out += &format!(
        "unit      {} ({}, x{} -> m)\n",
        r.unit.name(),
        inferred(r.unit_inferred),
        r.unit.to_metres()
    );
    out += &format!(
        "up axis   {} ({}, converted to Y up)\n",
        r.up_axis,
        inferred(r.up_inferred)
    );
    out += &format!(
        "height    {:.3} m (rest pose, end sites included)\n",
        rest_height(sk)
    );
    if r.warnings.is_empty() {
        out += "warnings  none\n";
    } else {
        for w in &r.warnings {
            out += &format!("warning   {w}\n");
        }
    }
    out += "hierarchy\n";
    out += &tree_text(sk);
    out
}

/// The joint tree, indented by depth, with channels and DOF.
fn tree_text(sk: &Skeleton) -> String {
    let mut out = String::new();
    // Depth-first order, so children print under their parent even when the file lists them elsewhere.
    let mut stack = vec![0usize];
    while let Some(i) = stack.pop() {
        let j = &sk.joints[i];
        let indent = "  ".repeat(sk.depth(i) + 1);
        out += &format!(
            "{indent}{}  [{}] {} DOF\n",
            j.name,
            channel_names(&j.channels).join(" "),
            dof(&j.channels)
        );
        for _ in &j.end_sites {
            out += &format!("{indent}  End Site\n");
        }
        let children: Vec<usize> = sk.children(i).collect();
        stack.extend(children.into_iter().rev());
    }
    out
}

/// The machine-readable summary.
fn summary_json(name: &str, imp: &Imported) -> serde_json::Value {
    let sk = &imp.skeleton;
    let r = &imp.report;
    let joints: Vec<serde_json::Value> = sk
        .joints
        .iter()
        .enumerate()
        .map(|(i, j)| {
            json!({
                "name": j.name,
                "parent": j.parent,
                "depth": sk.depth(i),
                "offset_m": [j.offset.x, j.offset.y, j.offset.z],
                "channels": channel_names(&j.channels),
                "dof": dof(&j.channels),
                "end_sites_m": j.end_sites.iter().map(|e| [e.x, e.y, e.z]).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({
        "file": name,
        "format": r.format,
        "joint_count": sk.len(),
        "channel_count": sk.channel_count(),
        "frame_count": imp.clip.frame_count(),
        "frame_time_s": imp.clip.frame_time,
        "frame_rate_hz": imp.clip.frame_rate(),
        "duration_s": imp.clip.duration(),
        "unit": r.unit.name(),
        "unit_to_metres": r.unit.to_metres(),
        "unit_inferred": r.unit_inferred,
        "up_axis": r.up_axis.to_string(),
        "up_inferred": r.up_inferred,
        "height_m": rest_height(sk),
        "leading_tpose": r.leading_tpose,
        "leading_tpose_dropped": r.leading_tpose_dropped,
        "warnings": r.warnings,
        "joints": joints,
    })
}
