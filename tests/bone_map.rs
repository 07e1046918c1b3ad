//! The semantic humanoid bone map on the real corpus: every humanoid clip maps every required role, the map is
//! right on known bones, the structural fallback alone (names scrambled) reproduces the name-based map, and
//! non-humanoids get an error naming the roles they lack.
//!
//! Prints `figure bone_map_coverage <clip> <count>` (roles mapped out of 22) per clip.

mod common;

use std::path::{Path, PathBuf};

use flinch::io::{ImportOptions, load_file};
use flinch::skeleton::Skeleton;
use flinch::skeleton::roles::{
    BoneLookupError, BoneMap, BoneMapError, Found, Limb, Role, RoleOverrides, Side, resolve_bone,
};

/// The humanoid clips of the corpus (all 10 BVH files and the RobotExpressive glTF), and DeepMimic's URDF.
const HUMANOIDS: [&str; 12] = [
    "bvh/assimp_Boxing_Toes.bvh",
    "bvh/cmu_01_01_jump.bvh",
    "bvh/cmu_02_01_walk.bvh",
    "bvh/cmu_12_01_walk_mixed_eol.bvh",
    "bvh/fairmotion_pfnn_hierarchy.bvh",
    "bvh/makehuman_tpose.bvh",
    "bvh/makehuman_walk1.bvh",
    "bvh/pybvh_bvh_test1.bvh",
    "bvh/pybvh_bvh_test2.bvh",
    "bvh/sfu_0005_Walking001.bvh",
    "gltf/RobotExpressive_threejs_reexport.glb",
    "urdf/deepmimic_humanoid.urdf",
];

/// Not humanoids: a quadruped, three tiny test rigs, and MuJoCo's humanoid as URDF, whose head is a shape of the
/// torso link (no head joint) and whose tree hangs the hips below the chest.
const OTHERS: [&str; 6] = [
    "gltf/Fox.glb",
    "gltf/Fox_2017_sample_models_version.glb",
    "gltf/RiggedSimple.gltf",
    "gltf/simple_skin.gltf",
    "gltf/assimp_quad_skin.glb",
    "urdf/mjcf_humanoid.urdf",
];

fn skeleton(dir: &Path, rel: &str) -> Skeleton {
    let path: PathBuf = dir.join(rel);
    load_file(&path, &ImportOptions::default())
        .unwrap_or_else(|e| panic!("{rel}: {e}"))
        .skeleton
}

fn bone<'a>(sk: &'a Skeleton, map: &BoneMap, role: Role) -> &'a str {
    map.get(role)
        .map(|j| sk.joints[j].name.as_str())
        .unwrap_or("<none>")
}

fn role(name: &str) -> Role {
    Role::parse(name).unwrap_or_else(|| panic!("no role {name}"))
}

#[test]
fn bone_map_coverage() {
    let Some(dir) = common::corpus_dir() else {
        return;
    };
    for rel in HUMANOIDS {
        let sk = skeleton(&dir, rel);
        let map = BoneMap::humanoid(&sk).unwrap_or_else(|e| panic!("{rel}: {e}"));
        let clip = rel.rsplit('/').next().unwrap_or(rel);
        println!("figure bone_map_coverage {clip} {}", map.len());
        assert!(map.missing_required().is_empty(), "{rel}");
        // Left is left: with "forward" from the feet to the toes and Y up, the left hand and thigh are on the
        // character's left of the hips (clips without toes are skipped).
        let world = flinch::skeleton::Pose::rest(&sk).world_transforms(&sk);
        let at = |r: Role| world[map.get(r).unwrap()].translation.vector;
        let toes = [Side::Left, Side::Right].map(|s| {
            map.get(Role::Limb(s, Limb::Toe))
                .map(|_| at(Role::Limb(s, Limb::Toe)) - at(Role::Limb(s, Limb::Foot)))
        });
        if let [Some(a), Some(b)] = toes {
            let mut forward = a + b;
            forward.y = 0.0;
            let left = nalgebra::Vector3::y().cross(&forward);
            let lateral = |r: Role| (at(r) - at(Role::Hips)).dot(&left);
            for limb in [Limb::Hand, Limb::Thigh] {
                assert!(
                    lateral(Role::Limb(Side::Left, limb)) > 0.0
                        && lateral(Role::Limb(Side::Right, limb)) < 0.0,
                    "{rel}: {limb:?} sides"
                );
            }
        }
    }
}

#[test]
fn known_bones_per_clip() {
    let Some(dir) = common::corpus_dir() else {
        return;
    };
    let expect: &[(&str, &[(&str, &str)])] = &[
        (
            "bvh/cmu_02_01_walk.bvh",
            &[
                ("hips", "Hips"),
                ("spine", "LowerBack"),
                ("upper_chest", "Spine1"),
                ("neck", "Neck"),
                ("head", "Head"),
                ("right_shoulder", "RightShoulder"),
                ("right_upper_arm", "RightArm"),
                ("right_forearm", "RightForeArm"),
                ("right_hand", "RightHand"),
                ("left_thigh", "LeftUpLeg"),
                ("left_shin", "LeftLeg"),
                ("left_foot", "LeftFoot"),
                ("left_toe", "LeftToeBase"),
            ],
        ),
        (
            "bvh/sfu_0005_Walking001.bvh",
            &[
                ("spine", "Spine"),
                ("chest", "Spine1"),
                ("right_forearm", "RightForeArm"),
                ("left_hand", "LeftHand"),
                ("right_shin", "RightLeg"),
            ],
        ),
        (
            "bvh/assimp_Boxing_Toes.bvh",
            &[
                ("spine", "Ab"),
                ("chest", "Chest"),
                ("left_shoulder", "LeftCollar"),
                ("left_upper_arm", "LeftShoulder"),
                ("right_forearm", "RightElbow"),
                ("right_hand", "RightWrist"),
                ("left_thigh", "LeftHip"),
                ("left_shin", "LeftKnee"),
                ("right_foot", "RightAnkle"),
                ("right_toe", "RightToes"),
            ],
        ),
        (
            "bvh/pybvh_bvh_test2.bvh",
            &[
                ("spine", "Chest"),
                ("upper_chest", "Chest4"),
                ("right_shoulder", "RightCollar"),
                ("right_upper_arm", "RightShoulder"),
                ("right_forearm", "RightElbow"),
                ("left_thigh", "LeftHip"),
                ("left_foot", "LeftAnkle"),
            ],
        ),
        (
            "bvh/pybvh_bvh_test1.bvh",
            &[
                ("spine", "Spine"),
                ("upper_chest", "Spine3"),
                ("right_forearm", "RightForeArm"),
                ("left_toe", "LeftToeBase"),
            ],
        ),
        (
            "bvh/makehuman_tpose.bvh",
            &[
                ("hips", "root"),
                ("spine", "spine05"),
                ("upper_chest", "spine01"),
                ("neck", "neck01"),
                ("head", "head"),
                ("left_shoulder", "clavicle.L"),
                ("left_upper_arm", "upperarm01.L"),
                ("right_forearm", "lowerarm01.R"),
                ("right_hand", "wrist.R"),
                ("left_thigh", "upperleg01.L"),
                ("left_shin", "lowerleg01.L"),
                ("right_foot", "foot.R"),
            ],
        ),
        (
            "bvh/makehuman_walk1.bvh",
            &[
                ("hips", "Root"),
                ("spine", "Spine1"),
                ("upper_chest", "Spine3"),
                ("left_shoulder", "Clavicle_L"),
                ("left_upper_arm", "UpArm_L"),
                ("right_forearm", "LoArm_R"),
                ("right_hand", "Hand_R"),
                ("left_thigh", "UpLeg_L"),
                ("left_shin", "LoLeg_L"),
                ("right_toe", "Toe_R"),
            ],
        ),
        (
            "gltf/RobotExpressive_threejs_reexport.glb",
            &[
                ("hips", "Body"),
                ("spine", "Abdomen"),
                ("chest", "Torso_1"),
                ("head", "Head"),
                ("left_shoulder", "ShoulderL"),
                ("left_upper_arm", "UpperArmL"),
                ("right_forearm", "LowerArmR"),
                ("right_hand", "Palm2R"),
                ("left_thigh", "UpperLegL"),
                ("right_shin", "LowerLegR"),
                ("left_foot", "FootL"),
            ],
        ),
        (
            "urdf/deepmimic_humanoid.urdf",
            &[
                ("hips", "root"),
                ("spine", "chest"),
                ("head", "neck"),
                ("right_upper_arm", "right_shoulder"),
                ("right_forearm", "right_elbow"),
                ("left_thigh", "left_hip"),
                ("left_foot", "left_ankle"),
            ],
        ),
    ];
    for (rel, pairs) in expect {
        let sk = skeleton(&dir, rel);
        let map = BoneMap::new(&sk);
        for (r, want) in *pairs {
            assert_eq!(bone(&sk, &map, role(r)), *want, "{rel}: {r}");
        }
    }
}

/// The skeleton with every joint renamed `joint7` etc.: names say nothing.
fn scrambled(sk: &Skeleton) -> Skeleton {
    let mut out = sk.clone();
    for (i, j) in out.joints.iter_mut().enumerate() {
        j.name = format!("joint{}", (i * 7919) % 10007);
    }
    out
}

#[test]
fn structure_alone_reproduces_the_name_map() {
    let Some(dir) = common::corpus_dir() else {
        return;
    };
    for rel in [
        "bvh/cmu_01_01_jump.bvh",
        "bvh/cmu_02_01_walk.bvh",
        "bvh/cmu_12_01_walk_mixed_eol.bvh",
        "bvh/fairmotion_pfnn_hierarchy.bvh",
        "bvh/sfu_0005_Walking001.bvh",
        "bvh/makehuman_tpose.bvh",
        "bvh/makehuman_walk1.bvh",
    ] {
        let sk = skeleton(&dir, rel);
        let named = BoneMap::new(&sk);
        let blind = scrambled(&sk);
        let structural = BoneMap::new(&blind);
        assert!(
            structural.iter().all(|(_, b)| b.found == Found::Structure),
            "{rel}: scrambled names must not be read"
        );
        structural
            .require_humanoid()
            .unwrap_or_else(|e| panic!("{rel} (names scrambled): {e}"));
        let mut compared = 0;
        for r in Role::ALL {
            // MakeHuman's feet end in five toes: the names pick the big toe, the structure none (no single toe).
            if matches!(r, Role::Limb(_, Limb::Toe)) && structural.get(r).is_none() {
                continue;
            }
            assert_eq!(
                structural.get(r).map(|j| sk.joints[j].name.as_str()),
                named.get(r).map(|j| sk.joints[j].name.as_str()),
                "{rel}: {r} by structure vs by name"
            );
            compared += 1;
        }
        println!("{rel}: structure = names on {compared} roles");
        assert!(compared >= 20, "{rel}");
    }
}

#[test]
fn non_humanoids_get_an_error_naming_missing_roles() {
    let Some(dir) = common::corpus_dir() else {
        return;
    };
    for rel in OTHERS {
        let sk = skeleton(&dir, rel);
        let err = BoneMap::humanoid(&sk).expect_err(rel);
        let text = err.to_string();
        println!("{rel}: {text}");
        let BoneMapError::NotHumanoid { missing, .. } = &err else {
            panic!("{rel}: {err:?}");
        };
        assert!(!missing.is_empty());
        for r in missing {
            assert!(text.contains(&r.name()), "{rel}: {text}");
        }
        let map = BoneMap::new(&sk);
        println!(
            "figure bone_map_coverage {} {}",
            rel.rsplit('/').next().unwrap_or(rel),
            map.len()
        );
    }
    // The Fox: its front legs carry arm names, but its paws stand on the floor; its hind legs have no thigh.
    let fox = skeleton(&dir, "gltf/Fox.glb");
    let BoneMapError::NotHumanoid { missing, notes } = BoneMap::humanoid(&fox).unwrap_err() else {
        panic!("Fox: wrong error");
    };
    for r in ["left_hand", "right_forearm", "left_upper_arm", "left_thigh"] {
        assert!(
            missing.contains(&role(r)),
            "Fox: {r} not reported missing: {missing:?}"
        );
    }
    assert!(
        notes
            .iter()
            .any(|n| n.contains("b_LeftHand_011") && n.contains("floor")),
        "{notes:?}"
    );
}

#[test]
fn overrides_make_the_fox_mappable() {
    let Some(dir) = common::corpus_dir() else {
        return;
    };
    let fox = skeleton(&dir, "gltf/Fox.glb");
    let toml = r#"
        left_thigh = "b_LeftLeg01_015"
        right_thigh = "b_RightLeg01_019"
        left_shin = "b_LeftLeg02_016"
        right_shin = "b_RightLeg02_020"
        left_foot = "b_LeftFoot01_017"
        right_foot = "b_RightFoot01_021"
        left_upper_arm = "b_LeftUpperArm_09"
        right_upper_arm = "b_RightUpperArm_06"
        left_forearm = "b_LeftForeArm_010"
        right_forearm = "b_RightForeArm_07"
        left_hand = "b_LeftHand_011"
        right_hand = "b_RightHand_08"
    "#;
    let o = RoleOverrides::from_toml(toml).unwrap();
    let map = BoneMap::new(&fox).with_overrides(&fox, &o).unwrap();
    map.require_humanoid().unwrap();
    assert_eq!(map.bone(role("left_thigh")).unwrap().found, Found::Override);
    assert_eq!(bone(&fox, &map, role("left_shin")), "b_LeftLeg02_016");
    // JSON works the same; bad roles and bones are named.
    let j = RoleOverrides::from_json(r#"{"left_thigh": "b_LeftLeg01_015"}"#).unwrap();
    assert_eq!(j.iter().count(), 1);
    let e = RoleOverrides::from_json(r#"{"left_wing": "b_LeftLeg01_015"}"#).unwrap_err();
    assert!(e.to_string().contains("left_wing"), "{e}");
    let o = RoleOverrides::from_json(r#"{"left_thigh": "Wing"}"#).unwrap();
    let e = BoneMap::new(&fox).with_overrides(&fox, &o).unwrap_err();
    assert!(
        e.to_string().contains("Wing") && e.to_string().contains("left_thigh"),
        "{e}"
    );
}

#[test]
fn bone_references_resolve_by_one_rule() {
    let Some(dir) = common::corpus_dir() else {
        return;
    };
    let cmu = skeleton(&dir, "bvh/cmu_02_01_walk.bvh");
    let mh = skeleton(&dir, "bvh/makehuman_walk1.bvh");
    let boxing = skeleton(&dir, "bvh/assimp_Boxing_Toes.bvh");
    let name = |sk: &Skeleton, r: &str| resolve_bone(sk, r).map(|j| sk.joints[j].name.clone());
    // Exact names first, then role references, then names read as roles.
    assert_eq!(name(&cmu, "RightForeArm").unwrap(), "RightForeArm");
    assert_eq!(name(&cmu, "role:right_forearm").unwrap(), "RightForeArm");
    assert_eq!(name(&mh, "RightForeArm").unwrap(), "LoArm_R");
    assert_eq!(name(&mh, "role:left_thigh").unwrap(), "UpLeg_L");
    assert_eq!(name(&boxing, "RightForeArm").unwrap(), "RightElbow");
    assert_eq!(
        name(&boxing, "mixamorig:RightForeArm").unwrap(),
        "RightElbow"
    );
    // Boxing's own `RightShoulder` (its upper arm) wins over the name's usual reading (a clavicle).
    assert_eq!(name(&boxing, "RightShoulder").unwrap(), "RightShoulder");
    assert!(matches!(
        resolve_bone(&cmu, "role:left_wing"),
        Err(BoneLookupError::UnknownRole(_))
    ));
    assert!(matches!(
        resolve_bone(&cmu, "LeftWing"),
        Err(BoneLookupError::NoBone(_))
    ));
    let fox = skeleton(&dir, "gltf/Fox.glb");
    let e = resolve_bone(&fox, "role:right_hand").unwrap_err();
    assert!(matches!(e, BoneLookupError::RoleNotMapped { .. }), "{e}");
    assert!(e.to_string().contains("floor"), "{e}");
    // The Fox's own bone names still work exactly.
    assert_eq!(name(&fox, "b_RightHand_08").unwrap(), "b_RightHand_08");
}

#[test]
fn odd_skeletons_never_panic() {
    use flinch::skeleton::Joint;
    use nalgebra::Vector3;
    let j = |name: &str, parent: Option<usize>, o: [f64; 3]| {
        Joint::new(name, parent, Vector3::new(o[0], o[1], o[2]), vec![])
    };
    let cases = [
        vec![j("Hips", None, [0.0; 3])],
        vec![
            j("a", None, [0.0; 3]),
            j("b", Some(0), [0.0; 3]),
            j("c", Some(1), [0.0; 3]),
        ],
        vec![
            j("Hips", None, [0.0, 1.0, 0.0]),
            j("LeftUpLeg", Some(0), [f64::NAN, -0.5, 0.0]),
            j("RightUpLeg", Some(0), [f64::INFINITY, -0.5, 0.0]),
            j("Head", Some(0), [0.0, 0.7, 0.0]),
        ],
        // Two legs and a head, no arms.
        vec![
            j("r", None, [0.0, 1.0, 0.0]),
            j("a", Some(0), [0.1, -0.5, 0.0]),
            j("b", Some(1), [0.0, -0.5, 0.0]),
            j("c", Some(0), [-0.1, -0.5, 0.0]),
            j("d", Some(3), [0.0, -0.5, 0.0]),
            j("e", Some(0), [0.0, 0.7, 0.0]),
        ],
    ];
    for joints in cases {
        let sk = Skeleton::new(joints).unwrap();
        let map = BoneMap::new(&sk);
        let err = map.require_humanoid().unwrap_err();
        assert!(err.to_string().contains("not a humanoid"), "{err}");
        let _ = BoneMap::from_structure(&sk);
        let _ = map.spine_chain(&sk);
        assert!(resolve_bone(&sk, "role:left_hand").is_err());
    }
}

/// A VR full-body tracking recording (`tests/data/vr_tracking_hmd_root.bvh`: written for this test, hierarchy in
/// the order such rigs use, `HMD → Head → Neck → Chest → Waist → Hip → legs`, no arms, a generated knee-bend
/// sway): the hips are where the legs branch, the trunk runs up the tree to the neck and head, and the skeleton
/// is a partial humanoid that bakes with a hit on a shin (its root, the headset, is the kinematic root the clip
/// carries) and refuses a hit on an arm with a clear message.
#[test]
fn a_skeleton_rooted_at_the_headset_is_a_partial_humanoid() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/vr_tracking_hmd_root.bvh");
    let imported = load_file(&path, &ImportOptions::default()).unwrap();
    let sk = &imported.skeleton;
    let map = BoneMap::new(sk);
    println!("{}", map.to_text(sk));
    for (r, name) in [
        (Role::Hips, "Hip"),
        (Role::Spine, "Waist"),
        (Role::Chest, "Chest"),
        (Role::Neck, "Neck"),
        (Role::Head, "Head"),
        (Role::Limb(Side::Left, Limb::Thigh), "LeftUpperLeg"),
        (Role::Limb(Side::Right, Limb::Shin), "RightLowerLeg"),
        (Role::Limb(Side::Left, Limb::Foot), "LeftFoot"),
        (Role::Limb(Side::Right, Limb::Toe), "RightToes"),
    ] {
        assert_eq!(bone(sk, &map, r), name, "{r}");
    }
    assert!(map.get(Role::Limb(Side::Right, Limb::Forearm)).is_none());
    let partial = map.partial_humanoid().expect("a partial humanoid");
    assert!(partial.contains("without arms"), "{partial}");
    // Hits on the bones it has; a hit on a missing arm is refused, saying why.
    assert_eq!(
        resolve_bone(sk, "role:head").map(|j| sk.joints[j].name.as_str()),
        Ok("Head")
    );
    let e = resolve_bone(sk, "role:right_forearm")
        .unwrap_err()
        .to_string();
    assert!(e.contains("partial humanoid without arms"), "{e}");
    use flinch::bake::{BakeMode, HitScript, bake};
    use flinch::control::{Character, CharacterConfig};
    let character =
        Character::from_imported(imported.clone(), &CharacterConfig::default()).unwrap();
    let script = HitScript::impulse(
        "role:left_shin",
        0.5,
        nalgebra::Vector3::new(0.0, 0.0, 10.0),
    );
    let baked = bake(character, &script, BakeMode::Layered, |_| {}).unwrap();
    let hit = baked.evaluation.hit.expect("the shin hit");
    println!(
        "figure vr_shin_hit_peak_deg {:.2} deg at {}",
        hit.peak_deg, hit.peak_joint
    );
    assert!(hit.peak_deg > 2.0, "{hit:?}");
    assert_eq!(baked.clip.frames.len(), imported.clip.frames.len());
    let character = Character::from_imported(imported, &CharacterConfig::default()).unwrap();
    let script = HitScript::impulse(
        "role:right_forearm",
        0.5,
        nalgebra::Vector3::new(3.0, 0.0, 0.0),
    );
    let e = bake(character, &script, BakeMode::Layered, |_| {})
        .unwrap_err()
        .to_string();
    assert!(e.contains("partial humanoid without arms"), "{e}");
}
