//! Grammar variants, transform semantics and writer edge cases on small hand-written files.

use nalgebra::{UnitQuaternion, Vector3};

use super::{WriteOptions, parse, parse_document, write};
use crate::io::{ImportOptions, LengthUnit, UpAxis};
use crate::math::{Axis, EulerOrder, axis_rotation, rotation_distance};
use crate::skeleton::{Channel, Clip, Joint, Pose, Skeleton};

/// Metres, Y up, fixed: no inference in the way of the semantics being tested.
fn raw_opts() -> ImportOptions {
    ImportOptions {
        unit: Some(LengthUnit::Metre),
        up_axis: Some(UpAxis::Y),
        ..ImportOptions::default()
    }
}

/// Every grammar variant the issue lists, in one file: BOM, mixed CR/LF/CRLF, tabs, lower-case keywords and
/// channel names, `{` on the name line, `End Site {` on one line, names with `:` `.` `-`, leaves without End
/// Site, 0/3/6-channel joints at depth, mixed rotation orders, `Frames:\t2`, `Frame Time: .5`, a whitespace-only
/// last line and trailing NULs.
const VARIANTS: &str = "\u{feff}hierarchy\r\nroot mixamorig:Hips {\r\n\toffset 0 0 0\n\tchannels 6 xposition YPOSITION Zposition zrotation xrotation yrotation\r\
\tJOINT toe1-1.R\n\t{ OFFSET 1 0 0 CHANNELS 0\n\t\tJOINT Left Fore Arm\n\t\t{\n\t\t\tOFFSET 0 2 0\n\t\t\tCHANNELS 6 Xposition Yposition Zposition Yrotation Zrotation Xrotation\n\t\t\tEnd Site {\n\t\t\t\tOFFSET 0 0 3\n\t\t\t}\n\t\t}\n\t}\n\
\tJOINT leaf.L\n\t{\n\t\tOFFSET -1 0 0\n\t\tCHANNELS 3 Xrotation Yrotation Zrotation\n\t}\n}\n\
MOTION\nFrames:\t2\nframe time: .5\n\
0 0 0 0 0 0  0 0 0 90 0 0  0 0 0\r\n1 2 3 10 20 30  0.5 0 0 0 90 0  0 0 45 \n \n\0\0";

#[test]
fn accepts_every_grammar_variant() {
    let doc = parse_document(VARIANTS.as_bytes()).expect("variants parse");
    let names: Vec<&str> = doc.joints.iter().map(|j| j.name.as_str()).collect();
    assert_eq!(
        names,
        ["mixamorig:Hips", "toe1-1.R", "Left Fore Arm", "leaf.L"]
    );
    let parents: Vec<Option<usize>> = doc.joints.iter().map(|j| j.parent).collect();
    assert_eq!(parents, [None, Some(0), Some(1), Some(0)]);
    let counts: Vec<usize> = doc.joints.iter().map(|j| j.channels.len()).collect();
    assert_eq!(counts, [6, 0, 6, 3]);
    assert_eq!(doc.joints[2].end_sites, vec![Vector3::new(0.0, 0.0, 3.0)]);
    assert!(doc.joints[3].end_sites.is_empty());
    assert_eq!(doc.joints[0].channels[3], Channel::Rotation(Axis::Z));
    assert_eq!(doc.frame_count(), 2);
    assert_eq!(doc.motion.as_ref().map(|m| m.frame_time), Some(0.5));
    assert_eq!(
        doc.frame(1).map(|f| f[0..3].to_vec()),
        Some(vec![1.0, 2.0, 3.0])
    );
    assert!(doc.warnings.is_empty(), "{:?}", doc.warnings);
    let imp = parse(VARIANTS.as_bytes(), &raw_opts()).expect("import");
    let orders: Vec<Option<EulerOrder>> = imp
        .skeleton
        .joints
        .iter()
        .map(Joint::rotation_order)
        .collect();
    assert_eq!(
        orders,
        [
            Some(EulerOrder::ZXY),
            None,
            Some(EulerOrder::YZX),
            Some(EulerOrder::XYZ)
        ]
    );
}

#[test]
fn local_transform_is_offset_plus_positions_then_listed_euler_product() {
    let imp = parse(VARIANTS.as_bytes(), &raw_opts()).expect("import");
    let f1 = &imp.clip.frames[1];
    // Root: translation = offset (0) + (1, 2, 3); rotation = Rz(10°)·Rx(20°)·Ry(30°).
    assert!((f1.translations[0] - Vector3::new(1.0, 2.0, 3.0)).norm() < 1e-15);
    let expected = axis_rotation(Axis::Z, 10f64.to_radians())
        * axis_rotation(Axis::X, 20f64.to_radians())
        * axis_rotation(Axis::Y, 30f64.to_radians());
    assert!(rotation_distance(&f1.rotations[0], &expected) < 1e-14);
    // Depth-2 six-channel joint: offset (0, 2, 0) + (0.5, 0, 0); rotation Y0 Z90 X0.
    assert!((f1.translations[2] - Vector3::new(0.5, 2.0, 0.0)).norm() < 1e-15);
    assert!(
        rotation_distance(
            &f1.rotations[2],
            &axis_rotation(Axis::Z, std::f64::consts::FRAC_PI_2)
        ) < 1e-14
    );
    // Zero-channel joint: rest offset, identity.
    assert_eq!(f1.translations[1], Vector3::new(1.0, 0.0, 0.0));
    assert_eq!(f1.rotations[1], UnitQuaternion::identity());
}

#[test]
fn z_up_files_are_rotated_to_y_up() {
    let text = "HIERARCHY\nROOT r\n{\n OFFSET 0 0 9\n CHANNELS 6 Xposition Yposition Zposition Xrotation Yrotation Zrotation\n JOINT head\n {\n  OFFSET 0 0.5 8\n  CHANNELS 3 Xrotation Yrotation Zrotation\n }\n}\nMOTION\nFrames: 1\nFrame Time: 0.04\n1 2 3 0 0 90 0 0 0\n";
    let imp = parse(text.as_bytes(), &ImportOptions::default()).expect("import");
    assert_eq!(imp.report.up_axis, UpAxis::Z);
    assert_eq!(imp.report.unit, LengthUnit::Decimetre);
    // (x, y, z) → (x, z, −y), decimetres → metres.
    assert!((imp.skeleton.joints[1].offset - Vector3::new(0.0, 0.8, -0.05)).norm() < 1e-12);
    let root = imp.clip.frames[0].translations[0];
    assert!((root - Vector3::new(0.1, 1.2, -0.2)).norm() < 1e-12);
    // A turn about the file's up axis (Z) is a turn about Y.
    let q = imp.clip.frames[0].rotations[0];
    assert!(rotation_distance(&q, &axis_rotation(Axis::Y, std::f64::consts::FRAC_PI_2)) < 1e-12);
}

#[test]
fn hierarchy_without_motion_is_one_rest_frame() {
    let text =
        "HIERARCHY\nROOT r\n{\n OFFSET 0 0 0\n CHANNELS 3 Xrotation Yrotation Zrotation\n}\n";
    let imp = parse(text.as_bytes(), &raw_opts()).expect("import");
    assert_eq!(imp.clip.frame_count(), 1);
    assert_eq!(imp.report.warnings.len(), 1);
}

/// A skeleton exercising the writer's unusual layouts: no rotation channels, one rotation channel, two
/// position channels only, and a six-channel non-root joint.
fn odd_skeleton() -> Skeleton {
    let rot = |axes: &[Axis]| {
        axes.iter()
            .map(|a| Channel::Rotation(*a))
            .collect::<Vec<_>>()
    };
    let mut root_ch = vec![
        Channel::Position(Axis::X),
        Channel::Position(Axis::Y),
        Channel::Position(Axis::Z),
    ];
    root_ch.extend(rot(&[Axis::Y, Axis::X, Axis::Z]));
    let mut six = vec![Channel::Rotation(Axis::Z), Channel::Position(Axis::X)];
    six.extend([
        Channel::Rotation(Axis::X),
        Channel::Position(Axis::Y),
        Channel::Position(Axis::Z),
    ]);
    six.push(Channel::Rotation(Axis::Y));
    let mut j = vec![
        Joint::new("root", None, Vector3::new(0.0, 1.0, 0.0), root_ch),
        Joint::new("fixed", Some(0), Vector3::new(0.1, 0.0, 0.0), vec![]),
        Joint::new(
            "hinge",
            Some(1),
            Vector3::new(0.0, 0.3, 0.0),
            rot(&[Axis::X]),
        ),
        Joint::new(
            "slider",
            Some(0),
            Vector3::new(-0.1, 0.0, 0.0),
            vec![Channel::Position(Axis::Y), Channel::Position(Axis::Z)],
        ),
        Joint::new("six", Some(3), Vector3::new(0.0, -0.4, 0.0), six),
    ];
    j[2].end_sites.push(Vector3::new(0.0, 0.2, 0.0));
    Skeleton::new(j).expect("valid skeleton")
}

#[test]
fn writer_round_trips_unusual_channel_layouts() {
    let sk = odd_skeleton();
    let frames: Vec<Pose> = (0..40)
        .map(|k| {
            let t = k as f64 * 0.2;
            let mut p = Pose::rest(&sk);
            p.translations[0] += Vector3::new(t.sin(), 0.1 * t, -t);
            p.rotations[0] = EulerOrder::YXZ.to_quaternion([3.0 * t, 0.5 * t.sin(), -t]);
            p.rotations[2] = axis_rotation(Axis::X, 2.5 * t); // expressible: the hinge's own axis
            p.translations[3] += Vector3::new(0.0, 0.01 * t, -0.02 * t);
            p.translations[4] += Vector3::new(0.3, t.cos(), 0.0);
            p.rotations[4] = EulerOrder::ZXY.to_quaternion([t, -0.7 * t, 0.2]);
            p
        })
        .collect();
    let clip = Clip {
        frame_time: 1.0 / 60.0,
        frames,
    };
    for up in [UpAxis::Y, UpAxis::Z] {
        let opts = WriteOptions {
            unit: LengthUnit::Centimetre,
            up_axis: up,
            decimals: 9,
        };
        let text = write(&sk, &clip, &opts);
        let back = parse(
            text.as_bytes(),
            &ImportOptions {
                unit: Some(LengthUnit::Centimetre),
                up_axis: Some(up),
                ..ImportOptions::default()
            },
        )
        .expect("written file parses");
        assert_eq!(
            back.skeleton
                .joints
                .iter()
                .map(|j| &j.channels)
                .collect::<Vec<_>>(),
            sk.joints.iter().map(|j| &j.channels).collect::<Vec<_>>()
        );
        assert_eq!(back.skeleton.joints[2].end_sites.len(), 1);
        for (a, b) in clip.frames.iter().zip(&back.clip.frames) {
            for j in 0..sk.len() {
                assert!(
                    (a.translations[j] - b.translations[j]).norm() < 1e-9,
                    "{up} joint {j}"
                );
                assert!(
                    rotation_distance(&a.rotations[j], &b.rotations[j]) < 1e-9,
                    "{up} joint {j}"
                );
            }
        }
        // Euler curves are continuous: the root's Y angle winds past ±180° without jumps.
        let doc = parse_document(text.as_bytes()).expect("doc");
        let ys: Vec<f64> = (0..doc.frame_count())
            .filter_map(|i| doc.frame(i).map(|f| f[3]))
            .collect();
        assert!(
            ys.windows(2).all(|w| (w[1] - w[0]).abs() < 60.0),
            "{up}: {ys:?}"
        );
        if up == UpAxis::Y {
            assert!(ys.last().copied().unwrap_or(0.0) > 360.0, "{ys:?}");
        }
    }
}

#[test]
fn writer_drops_what_the_layout_cannot_express() {
    let sk = odd_skeleton();
    let mut p = Pose::rest(&sk);
    p.rotations[1] = axis_rotation(Axis::Z, 0.5); // "fixed" has no rotation channel
    p.translations[2] += Vector3::new(0.0, 0.1, 0.0); // "hinge" has no position channel
    let clip = Clip {
        frame_time: 0.1,
        frames: vec![p],
    };
    let text = write(&sk, &clip, &WriteOptions::default());
    let back = parse(text.as_bytes(), &raw_opts()).expect("parses");
    assert_eq!(back.clip.frames[0].rotations[1], UnitQuaternion::identity());
    assert_eq!(back.clip.frames[0].translations[2], sk.joints[2].offset);
}

#[test]
fn writer_sanitises_names_and_never_writes_negative_zero() {
    let j = vec![
        Joint::new("left arm\n{", None, Vector3::new(-1e-12, 0.0, 0.0), vec![]),
        Joint::new("", Some(0), Vector3::new(0.0, 1.0, 0.0), vec![]),
    ];
    let sk = Skeleton::new(j).expect("valid");
    let clip = Clip {
        frame_time: 0.1,
        frames: vec![Pose::rest(&sk)],
    };
    let text = write(&sk, &clip, &WriteOptions::default());
    assert!(!text.contains("-0.0"), "{text}");
    let back = parse_document(text.as_bytes()).expect("parses");
    assert_eq!(back.joints[0].name, "left_arm__");
    assert_eq!(back.joints[1].name, "joint1");
}

#[test]
fn channel_less_files_count_their_empty_frame_lines() {
    let head = "HIERARCHY\nROOT r\n{\n OFFSET 0 0 0\n CHANNELS 0\n}\nMOTION\n";
    let doc = parse_document(format!("{head}Frames: 3\nFrame Time: 0.1\n\n\n\n").as_bytes())
        .expect("parses");
    assert_eq!(doc.frame_count(), 3);
    assert!(doc.warnings.is_empty());
    let huge = format!("{head}Frames: 18446744073709551615\nFrame Time: 0.1\n\n");
    // Past Limits::max_frames the declared count is an error; without limits only the lines present count.
    let e = parse(huge.as_bytes(), &raw_opts()).unwrap_err();
    assert!(e.to_string().contains("Limits::max_frames"), "{e}");
    let unlimited = ImportOptions {
        limits: crate::io::Limits::UNLIMITED,
        ..raw_opts()
    };
    let imp = parse(huge.as_bytes(), &unlimited).expect("parses");
    assert_eq!(imp.clip.frame_count(), 1);
    assert_eq!(imp.report.warnings.len(), 1, "{:?}", imp.report.warnings);
}
