//! URDF importer on the real corpus (Bullet's three URDFs, see the corpus README) and on hand-written files
//! with analytic answers.

mod common;

use std::collections::BTreeMap;

use nalgebra::{Matrix3, Point3, Vector3};

use flinch::io::urdf::{self, JointKind, ShapeKind, UrdfImport};
use flinch::io::{ImportOptions, LengthUnit, UpAxis};
use flinch::math::Axis;
use flinch::skeleton::Channel;

fn load(name: &str, opts: &ImportOptions) -> Option<UrdfImport> {
    let path = common::corpus_dir()?.join("urdf").join(name);
    Some(urdf::import_file(&path, opts).unwrap_or_else(|e| panic!("{e}")))
}

fn joint_kinds(imp: &UrdfImport) -> BTreeMap<&'static str, usize> {
    let mut m = BTreeMap::new();
    for j in imp.model.links.iter().filter_map(|l| l.joint.as_ref()) {
        *m.entry(j.kind.name()).or_insert(0) += 1;
    }
    m
}

fn shape_kinds(imp: &UrdfImport) -> BTreeMap<&'static str, usize> {
    let mut m = BTreeMap::new();
    for s in imp.model.links.iter().flat_map(|l| &l.shapes) {
        *m.entry(s.kind.name()).or_insert(0) += 1;
    }
    m
}

fn counts(pairs: &[(&'static str, usize)]) -> BTreeMap<&'static str, usize> {
    pairs.iter().copied().collect()
}

/// World-frame (Y-up) rest position of a point given in link `name`'s frame, by the skeleton's FK.
fn world_point(imp: &UrdfImport, name: &str, local: Vector3<f64>) -> Vector3<f64> {
    let sk = &imp.imported.skeleton;
    let i = sk.find(name).unwrap_or_else(|| panic!("no joint {name}"));
    let w = imp.imported.clip.frames[0].world_transforms(sk);
    (w[i] * Point3::from(local)).coords
}

#[test]
fn corpus_summary_figures() {
    for f in common::corpus_files("urdf", "urdf") {
        let imp =
            urdf::import_file(&f, &ImportOptions::default()).unwrap_or_else(|e| panic!("{e}"));
        let ext = urdf::rest_extent(&imp.model);
        let name = f.file_stem().and_then(|s| s.to_str()).unwrap_or("?");
        println!(
            "{name}: links {} joints {:?} shapes {:?} up {} extent {:.3}/{:.3}/{:.3} m, {} warnings",
            imp.model.links.len(),
            joint_kinds(&imp),
            shape_kinds(&imp),
            imp.imported.report.up_axis,
            ext.x,
            ext.y,
            ext.z,
            imp.imported.report.warnings.len()
        );
        for w in &imp.imported.report.warnings {
            println!("  warning: {w}");
        }
        println!(
            "figure urdf_{name}_total_mass {:.4} kg",
            imp.model.total_mass()
        );
        assert_eq!(imp.imported.report.format, "urdf");
        assert_eq!(imp.imported.clip.frame_count(), 1);
        assert_eq!(imp.imported.skeleton.len(), imp.model.links.len());
    }
}

#[test]
fn deepmimic_humanoid() {
    let Some(imp) = load("deepmimic_humanoid.urdf", &ImportOptions::default()) else {
        return;
    };
    let m = &imp.model;
    assert_eq!(m.name, "dumpUrdf");
    assert_eq!(m.links.len(), 16);
    assert_eq!(
        joint_kinds(&imp),
        counts(&[("fixed", 3), ("revolute", 4), ("spherical", 8)])
    );
    assert_eq!(
        shape_kinds(&imp),
        counts(&[("box", 2), ("capsule", 8), ("sphere", 5)])
    );
    assert!(
        (m.total_mass() - 45.0001).abs() < 1e-9,
        "{}",
        m.total_mass()
    );
    assert_eq!(m.links[0].name, "base");

    let report = &imp.imported.report;
    assert_eq!(report.up_axis, UpAxis::Y);
    assert!(report.up_inferred);
    assert!(
        report.warnings.iter().any(|w| w.contains("trailing NUL")),
        "{:?}",
        report.warnings
    );
    assert!(
        report.warnings.iter().any(|w| w.contains("tall along Y")),
        "{:?}",
        report.warnings
    );

    // Knees: revolute about z with the file's limits, one Zrotation channel.
    let knee = m.find("right_knee").unwrap();
    let j = m.links[knee].joint.as_ref().unwrap();
    assert_eq!(j.kind, JointKind::Revolute);
    assert!((j.axis.into_inner() - Vector3::z()).norm() < 1e-12);
    let lim = j.limits.unwrap();
    // The file writes -3.14 (not π): compare with the parsed literal.
    assert_eq!(
        (lim.lower, lim.upper, lim.effort),
        ("-3.14".parse().unwrap(), 0.0, 1000.0)
    );
    assert_eq!(
        imp.imported.skeleton.joints[knee].channels,
        vec![Channel::Rotation(Axis::Z)]
    );
    // Channel count: root 6 + 8 spherical × 3 + 4 revolute × 1.
    assert_eq!(imp.imported.skeleton.channel_count(), 6 + 24 + 4);

    // Capsule dimensions as in the file, and the chest's CoM offset kept.
    let chest = &m.links[m.find("chest").unwrap()];
    assert!((chest.com - Vector3::new(0.0, 0.48, 0.0)).norm() < 1e-12);
    let caps = m
        .links
        .iter()
        .flat_map(|l| &l.shapes)
        .find_map(|s| match s.kind {
            ShapeKind::Capsule { radius, length } => Some((radius, length)),
            _ => None,
        });
    assert!(caps.is_some_and(|(r, l)| r > 0.0 && l > 0.0));
}

#[test]
fn deepmimic_custom_unit_rescales_to_human_height() {
    let opts = ImportOptions {
        unit: Some(LengthUnit::Custom(0.25)),
        ..ImportOptions::default()
    };
    let (Some(big), Some(small)) = (
        load("deepmimic_humanoid.urdf", &ImportOptions::default()),
        load("deepmimic_humanoid.urdf", &opts),
    ) else {
        return;
    };
    let h_big = urdf::rest_extent(&big.model).y;
    let h = urdf::rest_extent(&small.model).y;
    println!("figure urdf_deepmimic_height_native {h_big:.3} m");
    println!("figure urdf_deepmimic_height_x0.25 {h:.3} m");
    assert!((h - 0.25 * h_big).abs() < 1e-12);
    assert!((1.2..1.9).contains(&h), "scaled height {h}");
    assert!(
        !small
            .imported
            .report
            .warnings
            .iter()
            .any(|w| w.contains("tall along"))
    );
    // Masses kept, inertias scale with length².
    assert_eq!(small.model.total_mass(), big.model.total_mass());
    let (a, b) = (&small.model.links[1], &big.model.links[1]);
    assert!((a.inertia - b.inertia * 0.0625).norm() < 1e-15);
    // Plausible FK: head above the hips, ankles below, in the scaled Y-up world.
    let neck = world_point(&small, "neck", Vector3::zeros()).y;
    let ankle = world_point(&small, "left_ankle", Vector3::zeros()).y;
    let root = world_point(&small, "root", Vector3::zeros()).y;
    println!(
        "figure urdf_deepmimic_neck_minus_ankle_x0.25 {:.3} m",
        neck - ankle
    );
    assert!(neck > root && root > ankle);
    assert!((1.0..1.6).contains(&(neck - ankle)), "{}", neck - ankle);
}

#[test]
fn mjcf_humanoid() {
    let Some(imp) = load("mjcf_humanoid.urdf", &ImportOptions::default()) else {
        return;
    };
    let m = &imp.model;
    assert_eq!(m.name, "");
    assert_eq!(m.links.len(), 34);
    assert_eq!(
        joint_kinds(&imp),
        counts(&[("continuous", 21), ("fixed", 12)])
    );
    assert_eq!(shape_kinds(&imp), counts(&[("capsule", 16), ("sphere", 3)]));
    assert!((m.total_mass() - 40.844).abs() < 1e-4, "{}", m.total_mass());
    assert_eq!(m.links.iter().filter(|l| l.mass == 0.0).count(), 21);
    // 6 root channels + 21 hinges = MuJoCo's 27 DOF for this humanoid.
    assert_eq!(imp.imported.skeleton.channel_count(), 27);
    assert!(
        m.links
            .iter()
            .filter_map(|l| l.joint.as_ref())
            .all(|j| j.limits.is_none())
    );

    let report = &imp.imported.report;
    assert_eq!(report.up_axis, UpAxis::Z);
    // The shoulder axis (2, 1, 1) is kept exactly (normalised) in the model.
    let s = m
        .links
        .iter()
        .filter_map(|l| l.joint.as_ref())
        .find(|j| j.name == "right_shoulder1")
        .unwrap();
    assert!((s.axis.into_inner() - Vector3::new(2.0, 1.0, 1.0).normalize()).norm() < 1e-12);
    assert!(
        report
            .warnings
            .iter()
            .any(|w| w.contains("'right_shoulder1'"))
    );

    // After Z→Y: the head sphere (torso collision at z = 0.19) above the torso origin, feet about 1.3 m
    // below it, right leg on +z (x forward, y up, right-handed).
    let head = world_point(&imp, "torso", Vector3::new(0.0, 0.0, 0.19));
    let foot = world_point(&imp, "right_foot", Vector3::zeros());
    let pelvis = world_point(&imp, "pelvis", Vector3::zeros());
    println!("figure urdf_mjcf_head_minus_foot {:.3} m", head.y - foot.y);
    assert!((head.y - 0.19).abs() < 1e-9);
    assert!(head.y > pelvis.y && pelvis.y > foot.y);
    assert!(
        (1.3..1.7).contains(&(head.y - foot.y)),
        "{}",
        head.y - foot.y
    );
    assert!(foot.z > 0.05, "right foot at z {}", foot.z);
}

#[test]
fn cartpole() {
    let Some(imp) = load("cartpole.urdf", &ImportOptions::default()) else {
        return;
    };
    let m = &imp.model;
    assert_eq!(m.name, "physics");
    assert_eq!(m.links.len(), 3);
    assert_eq!(
        joint_kinds(&imp),
        counts(&[("continuous", 1), ("prismatic", 1)])
    );
    assert_eq!(m.links[0].name, "slideBar");
    assert_eq!(m.links[0].mass, 0.0);
    let slider = m.links[1].joint.as_ref().unwrap();
    assert_eq!(slider.kind, JointKind::Prismatic);
    let lim = slider.limits.unwrap();
    assert_eq!((lim.lower, lim.upper, lim.velocity), (-15.0, 15.0, 5.0));
    assert_eq!(
        imp.imported.skeleton.joints[1].channels,
        vec![Channel::Position(Axis::X)]
    );
    assert_eq!(
        imp.imported.skeleton.joints[2].channels,
        vec![Channel::Rotation(Axis::Y)]
    );
    // The pole's CoM (z = 0.5 in the file) ends up 0.5 m above the hinge in the Y-up world.
    assert_eq!(imp.imported.report.up_axis, UpAxis::Z);
    let com = world_point(&imp, "pole", m.links[2].com);
    assert!((com - Vector3::new(0.0, 0.5, 0.0)).norm() < 1e-12, "{com}");
}

/// One link with a box inertia given in a rotated inertial frame, hung from a parent by a joint with a rotated
/// origin.
fn rotated_box_urdf(inertial_rpy: [f64; 3], joint_rpy: [f64; 3], com: [f64; 3]) -> String {
    let [ixx, iyy, izz] = box_inertia();
    format!(
        r#"<robot name="box">
  <link name="base"/>
  <link name="box">
    <inertial>
      <origin xyz="{} {} {}" rpy="{} {} {}"/>
      <mass value="{MASS}"/>
      <inertia ixx="{ixx}" ixy="0" ixz="0" iyy="{iyy}" iyz="0" izz="{izz}"/>
    </inertial>
  </link>
  <joint name="hinge" type="revolute">
    <origin xyz="0 1 0" rpy="{} {} {}"/>
    <parent link="base"/><child link="box"/>
    <axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="10" velocity="2"/>
  </joint>
</robot>"#,
        com[0],
        com[1],
        com[2],
        inertial_rpy[0],
        inertial_rpy[1],
        inertial_rpy[2],
        joint_rpy[0],
        joint_rpy[1],
        joint_rpy[2]
    )
}

const MASS: f64 = 3.0;
const SIZE: [f64; 3] = [0.2, 0.4, 1.0];

/// Analytic inertia of a solid box about its centre: m/12·(b² + c², a² + c², a² + b²).
fn box_inertia() -> [f64; 3] {
    let [a, b, c] = SIZE;
    [
        MASS / 12.0 * (b * b + c * c),
        MASS / 12.0 * (a * a + c * c),
        MASS / 12.0 * (a * a + b * b),
    ]
}

/// R = Rz(y)·Ry(p)·Rx(r) from elementary matrices (independent of nalgebra's Euler helpers).
fn rpy_matrix([r, p, y]: [f64; 3]) -> Matrix3<f64> {
    let (sr, cr) = r.sin_cos();
    let (sp, cp) = p.sin_cos();
    let (sy, cy) = y.sin_cos();
    let rx = Matrix3::new(1.0, 0.0, 0.0, 0.0, cr, -sr, 0.0, sr, cr);
    let ry = Matrix3::new(cp, 0.0, sp, 0.0, 1.0, 0.0, -sp, 0.0, cp);
    let rz = Matrix3::new(cy, -sy, 0.0, sy, cy, 0.0, 0.0, 0.0, 1.0);
    rz * ry * rx
}

fn world_inertia(imp: &UrdfImport, link: usize) -> Matrix3<f64> {
    let w = imp.imported.clip.frames[0].world_transforms(&imp.imported.skeleton);
    let r = w[link].rotation.to_rotation_matrix().into_inner();
    r * imp.model.links[link].inertia * r.transpose()
}

#[test]
fn rotated_inertial_frame_gives_analytic_world_inertia() {
    let [ixx, iyy, izz] = box_inertia();
    let opts = ImportOptions {
        up_axis: Some(UpAxis::Y),
        ..ImportOptions::default()
    };
    let half_pi = std::f64::consts::FRAC_PI_2;

    // 90° about z in the inertial frame swaps Ixx and Iyy in the link frame (rapier3d-urdf would not).
    let imp = urdf::import(
        rotated_box_urdf([0.0, 0.0, half_pi], [0.0; 3], [0.0; 3]).as_bytes(),
        &opts,
    )
    .unwrap();
    let link = imp.model.find("box").unwrap();
    let expect = Matrix3::from_diagonal(&Vector3::new(iyy, ixx, izz));
    let err = (imp.model.links[link].inertia - expect).norm();
    println!("figure urdf_rotated_inertia_error {err:.2e} kg·m²");
    assert!(err < 1e-12, "{}", imp.model.links[link].inertia);

    // Plus a joint origin 90° about x: world y is the link's z, world z the link's −y → diag(Iyy, Izz, Ixx).
    let imp = urdf::import(
        rotated_box_urdf([0.0, 0.0, half_pi], [half_pi, 0.0, 0.0], [0.0; 3]).as_bytes(),
        &opts,
    )
    .unwrap();
    let expect = Matrix3::from_diagonal(&Vector3::new(iyy, izz, ixx));
    assert!((world_inertia(&imp, link) - expect).norm() < 1e-12);

    // Arbitrary angles: world inertia = R_joint·R_inertial·diag·(…)ᵀ from independent matrices, and the CoM
    // lands at the joint origin plus R_joint·com.
    let (ri, rj, com) = ([0.3, -0.7, 1.1], [-0.4, 0.25, 2.0], [0.1, -0.2, 0.3]);
    let imp = urdf::import(rotated_box_urdf(ri, rj, com).as_bytes(), &opts).unwrap();
    let r = rpy_matrix(rj) * rpy_matrix(ri);
    let expect = r * Matrix3::from_diagonal(&Vector3::new(ixx, iyy, izz)) * r.transpose();
    let err = (world_inertia(&imp, link) - expect).norm();
    println!("figure urdf_world_inertia_error_oblique {err:.2e} kg·m²");
    assert!(err < 1e-12);
    let com_world = world_point(&imp, "box", imp.model.links[link].com);
    let expect_com = Vector3::new(0.0, 1.0, 0.0) + rpy_matrix(rj) * Vector3::from(com);
    assert!((com_world - expect_com).norm() < 1e-12);
    // The principal moments are invariant under any rotation.
    let mut e: Vec<f64> = imp.model.links[link]
        .inertia
        .symmetric_eigenvalues()
        .iter()
        .copied()
        .collect();
    e.sort_by(f64::total_cmp);
    let mut want = vec![ixx, iyy, izz];
    want.sort_by(f64::total_cmp);
    assert!(e.iter().zip(&want).all(|(a, b)| (a - b).abs() < 1e-12));
}
