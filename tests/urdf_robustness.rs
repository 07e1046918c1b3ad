//! The URDF importer never panics: corpus files truncated and byte-flipped give `Ok` or `Err`, and bad
//! hand-written files give errors that say what and where.

mod common;

use flinch::io::ImportOptions;
use flinch::io::urdf::{self, UrdfError};

use common::Lcg;

/// Imports `bytes`; a panic anywhere fails the test. Returns a short outcome tag for the tally.
///
/// Every parse error must carry a line and column (flinch locates the ones `urdf_rs` reports without).
fn outcome(bytes: &[u8]) -> &'static str {
    match urdf::import(bytes, &ImportOptions::default()) {
        Ok(_) => "ok",
        Err(UrdfError::ParserPanic { .. }) => "parser-panic",
        Err(e @ UrdfError::Parse { line: None, .. }) => {
            panic!("parse error without a position: {e}")
        }
        Err(_) => "err",
    }
}

#[test]
fn truncated_and_flipped_corpus_files_never_panic() {
    // `FLINCH_FUZZ_ROUNDS` raises the per-file case count for a longer local run (default 20 of each kind).
    let rounds: usize = std::env::var("FLINCH_FUZZ_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20);
    let mut rng = Lcg(0x5eed_u64);
    let (mut ok, mut err, mut caught) = (0, 0, 0);
    for f in common::corpus_files("urdf", "urdf") {
        let bytes = std::fs::read(&f).unwrap();
        let mut tally = |tag: &str| match tag {
            "ok" => ok += 1,
            "parser-panic" => caught += 1,
            _ => err += 1,
        };
        for k in 0..rounds {
            // Evenly spread cut points plus a random jitter, so both early and late cuts are covered.
            let cut =
                (bytes.len() * k / rounds + rng.below(bytes.len() / rounds + 1)).min(bytes.len());
            tally(outcome(&bytes[..cut]));
        }
        for _ in 0..rounds {
            let mut b = bytes.clone();
            let pos = rng.below(b.len());
            b[pos] ^= 1 + rng.below(255) as u8;
            tally(outcome(&b));
        }
        for _ in 0..rounds {
            // Several flips at once, to reach deeper into the structure than one corrupted byte does.
            let mut b = bytes.clone();
            for _ in 0..8 {
                let pos = rng.below(b.len());
                const ALPHABET: &[u8] = b"<>/=\" 0123456789.-eE\0x";
                b[pos] = ALPHABET[rng.below(ALPHABET.len())];
            }
            tally(outcome(&b));
        }
    }
    println!("figure urdf_fuzz_ok {ok} cases");
    println!("figure urdf_fuzz_err {err} cases");
    println!("figure urdf_fuzz_parser_panics_caught {caught} cases");
    if common::corpus_dir().is_some() {
        assert_eq!(ok + err + caught, 3 * 3 * rounds);
        assert!(err > 0, "corruption must produce some errors");
    }
}

const GOOD_LINK: &str = r#"<inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>"#;

/// A two-link robot with `pelvis` customised by `pelvis_body` and the joint by `joint_extra`.
fn robot(pelvis_body: &str, joint_type: &str, joint_extra: &str) -> String {
    format!(
        r#"<robot name="t"><link name="torso">{GOOD_LINK}</link><link name="pelvis">{pelvis_body}</link>
<joint name="waist" type="{joint_type}"><parent link="torso"/><child link="pelvis"/>{joint_extra}</joint></robot>"#
    )
}

fn error_of(text: &str) -> String {
    match urdf::import(text.as_bytes(), &ImportOptions::default()) {
        Ok(_) => panic!("accepted: {text}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn bad_links_and_joints_are_named_in_errors() {
    let cases: Vec<(String, &str)> = vec![
        (
            robot(
                r#"<inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="-2" iyz="0" izz="1"/></inertial>"#,
                "fixed",
                "",
            ),
            "link 'pelvis': inertia tensor is not positive semi-definite",
        ),
        (
            robot(
                r#"<inertial><mass value="-1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>"#,
                "fixed",
                "",
            ),
            "link 'pelvis': mass -1 kg is not a finite non-negative number",
        ),
        (
            robot(
                r#"<inertial><origin xyz="0 nan 0"/><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>"#,
                "fixed",
                "",
            ),
            "link 'pelvis': inertial origin xyz has a non-finite value",
        ),
        (
            robot(
                r#"<collision><geometry><sphere radius="-0.1"/></geometry></collision>"#,
                "fixed",
                "",
            ),
            "link 'pelvis': collision #0: geometry dimensions [-0.1] must be finite and non-negative",
        ),
        (
            robot(
                "",
                "revolute",
                r#"<axis xyz="0 0 0"/><limit lower="-1" upper="1" velocity="1"/>"#,
            ),
            "joint 'waist': revolute joint has a zero axis",
        ),
        (
            robot(
                "",
                "revolute",
                r#"<limit lower="1" upper="-1" velocity="1"/>"#,
            ),
            "joint 'waist': limit lower 1 is above upper -1",
        ),
        (
            robot("", "continuous", r#"<origin xyz="0 0 inf"/>"#),
            "joint 'waist': origin xyz has a non-finite value",
        ),
        (
            robot("", "fixed", "")
                .replace(r#"<parent link="torso"/>"#, r#"<parent link="chest"/>"#),
            "joint 'waist': parent link 'chest' does not exist",
        ),
        (
            robot("", "fixed", "").replace(r#"<link name="pelvis">"#, r#"<link name="torso">"#),
            "link 'torso': duplicate link name",
        ),
        (
            r#"<robot name="t"><link name="a"/><link name="b"/></robot>"#.to_string(),
            "robot structure: 2 root links ('a', 'b')",
        ),
        (
            r#"<robot name="t"></robot>"#.to_string(),
            "robot structure: the robot has no <link>",
        ),
        (
            r#"<robot name="t"><link name="a">"#.to_string(),
            "URDF parse error",
        ),
        (robot("", "hinge", ""), "URDF parse error"),
    ];
    for (text, want) in cases {
        let got = error_of(&text);
        assert!(got.contains(want), "want '{want}', got '{got}'");
    }
}

#[test]
fn non_utf8_and_file_errors_say_where() {
    let e = urdf::import(b"<robot name=\"\xff\"/>", &ImportOptions::default()).unwrap_err();
    assert!(e.to_string().starts_with("byte 13: not UTF-8"), "{e}");
    let e = urdf::import_file("/nonexistent/x.urdf", &ImportOptions::default()).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("/nonexistent/x.urdf: cannot read"),
        "{e}"
    );
}

#[test]
fn bad_unit_factor_is_an_error() {
    let opts = ImportOptions {
        unit: Some(flinch::io::LengthUnit::Custom(-1.0)),
        ..ImportOptions::default()
    };
    let e = urdf::import(robot("", "fixed", "").as_bytes(), &opts).unwrap_err();
    assert!(e.to_string().contains("unit factor -1"), "{e}");
}

#[test]
fn missing_limit_mesh_and_planar_are_handled() {
    let text = robot(
        r#"<collision><geometry><mesh filename="pelvis.stl"/></geometry></collision>"#,
        "prismatic",
        r#"<axis xyz="0 0 2"/>"#,
    );
    let imp = urdf::import(text.as_bytes(), &ImportOptions::default()).unwrap();
    let w = &imp.imported.report.warnings;
    assert!(
        w.iter()
            .any(|s| s.contains("joint 'waist': prismatic joint without <limit>")),
        "{w:?}"
    );
    assert!(
        w.iter().any(|s| s.contains("mesh 'pelvis.stl' skipped")),
        "{w:?}"
    );
    assert!(imp.model.links[1].shapes.is_empty());
    let j = imp.model.links[1].joint.as_ref().unwrap();
    assert!(j.limits.is_none());
    assert!((j.axis.into_inner() - nalgebra::Vector3::z()).norm() < 1e-15);

    let planar = robot("", "planar", r#"<axis xyz="0 1 0"/>"#);
    let imp = urdf::import(planar.as_bytes(), &ImportOptions::default()).unwrap();
    let names: Vec<String> = imp.imported.skeleton.joints[1]
        .channels
        .iter()
        .map(|c| c.bvh_name())
        .collect();
    assert_eq!(names, ["Xposition", "Zposition", "Yrotation"]);
}
