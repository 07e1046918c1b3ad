//! The physical model built from real skeletons: body counts after merging, masses at water density.

mod common;

use flinch::io::{ImportOptions, bvh};
use flinch::model::{BuildConfig, Model};

fn model_of(file: &str) -> Option<(flinch::skeleton::Skeleton, Model)> {
    let dir = common::corpus_dir()?;
    let bytes = std::fs::read(dir.join("bvh").join(file)).expect("read corpus file");
    let imported = bvh::parse(&bytes, &ImportOptions::default()).expect("parse");
    let model = Model::from_skeleton(&imported.skeleton, &BuildConfig::default()).expect("model");
    Some((imported.skeleton, model))
}

#[test]
fn cmu_subject_weighs_60_to_90_kg_in_about_20_bodies() {
    let Some((sk, model)) = model_of("cmu_02_01_walk.bvh") else {
        return;
    };
    for b in &model.bodies {
        println!(
            "{:16} {:6.2} kg  merged {:?}",
            b.name,
            b.mass.mass,
            b.merged
                .iter()
                .map(|&j| &sk.joints[j].name)
                .collect::<Vec<_>>()
        );
    }
    let total = model.total_mass();
    println!(
        "total {total:.1} kg, {} bodies, height {:.3} m",
        model.bodies.len(),
        model.standing_height
    );
    assert!(
        (60.0..=90.0).contains(&total),
        "CMU subject mass {total} kg"
    );
    assert_eq!(model.bodies.len(), 19);
    // The zero-length helpers are merged where the issue says: CMU's hip joints into the pelvis.
    let hips = &model.bodies[0];
    assert_eq!(hips.name, "Hips");
    for helper in ["LHipJoint", "RHipJoint", "LowerBack"] {
        let j = sk.find(helper).unwrap();
        assert_eq!(model.body_of_joint[j], 0, "{helper} merged into Hips");
    }
    assert_eq!(model.joints.len(), model.bodies.len() - 1);
}

#[test]
fn every_corpus_skeleton_gives_a_positive_definite_model() {
    for f in common::corpus_files("bvh", "bvh") {
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(&f).unwrap();
        let imported = bvh::parse(&bytes, &ImportOptions::default()).expect("parse");
        let model =
            Model::from_skeleton(&imported.skeleton, &BuildConfig::default()).expect("model");
        let total = model.total_mass();
        println!(
            "{name:40} {:3} bodies {total:6.1} kg height {:.2} m",
            model.bodies.len(),
            model.standing_height
        );
        // Plausible for an adult of the skeleton's height (the name-based radius rules are tuned on CMU; see
        // docs/model.md for the per-file table).
        assert!((40.0..=170.0).contains(&total), "{name}: {total} kg");
        assert_eq!(model.joints.len(), model.bodies.len() - 1, "{name}");
        for b in &model.bodies {
            let eig = b.mass.inertia.symmetric_eigenvalues();
            assert!(
                b.mass.mass > 0.0 && eig.min() > 0.0,
                "{name}: body {} mass {} inertia {eig}",
                b.name,
                b.mass.mass
            );
        }
    }
}
