//! bvh_anim 0.4 as a test oracle (dev-dependency only). On every corpus file it reads correctly, names,
//! parents, offsets, end sites, channel layouts, frame counts, frame times and every channel value agree with
//! ours (raw file values, before unit conversion). Where it is wrong, the test pins down how, so the findings
//! listed in docs/bvh.md stay true.

mod common;

use std::panic::{AssertUnwindSafe, catch_unwind};

use flinch::io::bvh::{self, BvhDocument};
use flinch::math::Axis;
use flinch::skeleton::Channel;

/// What bvh_anim does with a corpus file.
#[derive(Debug, PartialEq)]
enum Verdict {
    /// Reads it, and agrees with us on everything compared.
    Agrees,
    /// Returns an error whose message contains this text.
    Rejects(&'static str),
    /// Reads it, but gets the hierarchy wrong (this many joints instead of ours).
    WrongHierarchy(usize),
}

const CORPUS: [(&str, Verdict); 10] = [
    // Frame-count mismatch (3069 declared, 3070 lines): bvh_anim refuses the file; we use 3070 and warn.
    (
        "assimp_Boxing_Toes.bvh",
        Verdict::Rejects("expected to find 202554 motion values, found 202620"),
    ),
    ("cmu_01_01_jump.bvh", Verdict::Agrees),
    ("cmu_02_01_walk.bvh", Verdict::Agrees),
    ("cmu_12_01_walk_mixed_eol.bvh", Verdict::Agrees),
    ("fairmotion_pfnn_hierarchy.bvh", Verdict::Agrees),
    ("makehuman_tpose.bvh", Verdict::Agrees),
    ("makehuman_walk1.bvh", Verdict::Agrees),
    ("pybvh_bvh_test1.bvh", Verdict::Agrees),
    ("pybvh_bvh_test2.bvh", Verdict::Agrees),
    // L_Wrist_End / R_Wrist_End are leaf JOINTs without an End Site: bvh_anim loses one joint and attaches the
    // following joints to the wrong parents.
    ("sfu_0005_Walking001.bvh", Verdict::WrongHierarchy(24)),
];

fn channel_of(t: bvh_anim::ChannelType) -> Channel {
    use bvh_anim::ChannelType as C;
    match t {
        C::PositionX => Channel::Position(Axis::X),
        C::PositionY => Channel::Position(Axis::Y),
        C::PositionZ => Channel::Position(Axis::Z),
        C::RotationX => Channel::Rotation(Axis::X),
        C::RotationY => Channel::Rotation(Axis::Y),
        C::RotationZ => Channel::Rotation(Axis::Z),
    }
}

/// f32 values from bvh_anim against our f64: equal to f32 rounding (relative 1e-6, absolute 1e-6).
fn close(theirs: f32, ours: f64) -> bool {
    (f64::from(theirs) - ours).abs() <= 1e-6 * (1.0 + ours.abs())
}

fn run_anim(bytes: &[u8]) -> Result<Result<bvh_anim::Bvh, String>, ()> {
    catch_unwind(AssertUnwindSafe(|| {
        bvh_anim::from_bytes(bytes).map_err(|e| e.to_string())
    }))
    .map_err(|_| ())
}

/// Compares everything; returns the list of disagreements (empty = agreement). Counts compared values.
fn compare(theirs: &bvh_anim::Bvh, ours: &BvhDocument, values: &mut usize) -> Vec<String> {
    let mut issues = Vec::new();
    let joints: Vec<_> = theirs.joints().collect();
    if joints.len() != ours.joints.len() {
        issues.push(format!(
            "joint count {} vs ours {}",
            joints.len(),
            ours.joints.len()
        ));
    }
    for (t, o) in joints.iter().zip(&ours.joints) {
        let d = t.data();
        if *d.name() != o.name.as_bytes() {
            issues.push(format!("name '{}' vs ours '{}'", d.name(), o.name));
        }
        if d.parent_index() != o.parent {
            issues.push(format!(
                "parent of '{}': {:?} vs ours {:?}",
                o.name,
                d.parent_index(),
                o.parent
            ));
        }
        let off = d.offset();
        if !(close(off.x, o.offset.x) && close(off.y, o.offset.y) && close(off.z, o.offset.z)) {
            issues.push(format!("offset of '{}'", o.name));
        }
        let site = d.end_site().map(|e| [e.x, e.y, e.z]);
        let our_site = o.end_sites.first();
        let sites_agree = match (site, our_site) {
            (None, None) => o.end_sites.is_empty(),
            (Some(s), Some(v)) => o.end_sites.len() == 1 && (0..3).all(|k| close(s[k], v[k])),
            _ => false,
        };
        if !sites_agree {
            issues.push(format!("end site of '{}'", o.name));
        }
        let chans: Vec<Channel> = d
            .channels()
            .iter()
            .map(|c| channel_of(c.channel_type()))
            .collect();
        if chans != o.channels {
            issues.push(format!("channels of '{}'", o.name));
        }
    }
    if theirs.num_frames() != ours.frame_count() {
        issues.push(format!(
            "frames {} vs ours {}",
            theirs.num_frames(),
            ours.frame_count()
        ));
    }
    let ft = theirs.frame_time().as_secs_f64();
    let our_ft = ours.motion.as_ref().map_or(0.0, |m| m.frame_time);
    if (ft - our_ft).abs() > 1e-9 {
        issues.push(format!("frame time {ft} vs ours {our_ft}"));
    }
    let mut bad = 0usize;
    for (i, f) in theirs.frames().enumerate() {
        let Some(of) = ours.frame(i) else { break };
        if f.as_slice().len() != of.len() {
            bad += 1;
            continue;
        }
        for (x, y) in f.as_slice().iter().zip(of) {
            *values += 1;
            if !close(*x, *y) {
                bad += 1;
            }
        }
    }
    if bad > 0 {
        issues.push(format!("{bad} channel values differ"));
    }
    issues
}

#[test]
fn bvh_anim_agrees_on_every_file_it_reads_correctly() {
    let files = common::corpus_files("bvh", "bvh");
    let mut values = 0usize;
    let mut agreeing = 0usize;
    for path in &files {
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("")
            .to_string();
        let expected = &CORPUS
            .iter()
            .find(|(f, _)| *f == name)
            .unwrap_or_else(|| panic!("no oracle verdict recorded for {name}"))
            .1;
        let bytes = std::fs::read(path).expect("read corpus file");
        let ours = bvh::parse_document(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        let theirs = run_anim(&bytes);
        let verdict = match theirs {
            Err(()) => panic!("{name}: bvh_anim panicked (no corpus file is expected to do that)"),
            Ok(Err(msg)) => match expected {
                Verdict::Rejects(text) if msg.contains(text) => Verdict::Rejects(text),
                _ => panic!("{name}: bvh_anim rejected it unexpectedly: {msg}"),
            },
            Ok(Ok(b)) => {
                let issues = compare(&b, &ours, &mut values);
                if issues.is_empty() {
                    agreeing += 1;
                    Verdict::Agrees
                } else {
                    println!("{name}: {issues:?}");
                    Verdict::WrongHierarchy(b.joints().count())
                }
            }
        };
        assert_eq!(&verdict, expected, "{name}");
    }
    println!("figure bvh_oracle_files_agreeing {agreeing} files");
    println!("figure bvh_oracle_values_compared {values} values");
    if !files.is_empty() {
        assert_eq!(agreeing, 8);
        assert!(values > 380_000, "{values}");
    }
}

/// A two-joint file; `arm` is the second joint's name.
fn tiny(arm: &str) -> String {
    format!(
        "HIERARCHY\nROOT Hips\n{{\n\tOFFSET 0 0 0\n\tCHANNELS 3 Xrotation Yrotation Zrotation\n\tJOINT {arm}\n\t{{\n\t\tOFFSET 1 0 0\n\t\tCHANNELS 3 Xrotation Yrotation Zrotation\n\t\tEnd Site\n\t\t{{\n\t\t\tOFFSET 1 0 0\n\t\t}}\n\t}}\n}}\nMOTION\nFrames: 1\nFrame Time: 0.1\n1 2 3 4 5 6\n"
    )
}

/// bvh_anim's behaviour on the quirks the issue lists; ours handles each (asserted alongside).
#[test]
fn bvh_anim_findings_on_synthetic_quirks() {
    let base = tiny("LeftArm");
    let ours_ok = |bytes: &[u8]| bvh::parse_document(bytes).expect("ours reads it");
    // Sanity: the plain file agrees.
    let mut n = 0;
    let plain = run_anim(base.as_bytes())
        .expect("no panic")
        .expect("reads the plain file");
    assert!(compare(&plain, &ours_ok(base.as_bytes()), &mut n).is_empty());

    // A UTF-8 byte-order mark makes bvh_anim panic ("Unexpected root").
    let mut bom = vec![0xEF, 0xBB, 0xBF];
    bom.extend_from_slice(base.as_bytes());
    assert!(
        run_anim(&bom).is_err(),
        "bvh_anim no longer panics on a BOM"
    );
    assert_eq!(ours_ok(&bom).joints.len(), 2);

    // Names are cut at the first ':' or space: `mixamorig:LeftArm` → `mixamorig`, `Left Arm` → `Left`.
    for (name, cut) in [("mixamorig:LeftArm", "mixamorig"), ("Left Arm", "Left")] {
        let text = tiny(name);
        let b = run_anim(text.as_bytes())
            .expect("no panic")
            .expect("reads it");
        let names: Vec<String> = b.joints().map(|j| j.data().name().to_string()).collect();
        assert_eq!(names, ["Hips", cut]);
        assert_eq!(ours_ok(text.as_bytes()).joints[1].name, name);
    }

    // A leaf JOINT without End Site vanishes.
    let leaf = base.replace("\t\tEnd Site\n\t\t{\n\t\t\tOFFSET 1 0 0\n\t\t}\n", "");
    let b = run_anim(leaf.as_bytes())
        .expect("no panic")
        .expect("reads it");
    assert_eq!(b.joints().count(), 1);
    assert_eq!(ours_ok(leaf.as_bytes()).joints.len(), 2);

    // Rejected outright: `End Site {` on one line, lower-case channel names, a trailing NUL, a truncated last
    // frame (ours keeps the complete frames with a warning).
    let rejected = [
        base.replace("End Site\n\t\t{", "End Site {"),
        base.replace("Xrotation", "xrotation"),
        format!("{base}\0"),
        base.trim_end().trim_end_matches(" 6").to_string(),
    ];
    for text in &rejected {
        assert!(
            matches!(run_anim(text.as_bytes()), Ok(Err(_))),
            "bvh_anim accepted:\n{text}"
        );
        assert_eq!(ours_ok(text.as_bytes()).joints.len(), 2);
    }
}
