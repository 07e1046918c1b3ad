//! The name normaliser and the synonym table: what a bone's name says about its role.
//!
//! A name is taken apart into lowercase words (namespaces such as `mixamorig:` dropped, camelCase, separators
//! and digits split, rig prefixes such as `DEF-`, `Bip01`, `J_Bip_`, `b_` dropped, numbers dropped), its side is
//! read from a `L`/`R`/`Left`/`Right` word at the start or the end (or glued in front, `lhumerus`), and the
//! remaining words, joined, are looked up in the synonym table.

use super::role::{Limb, Role, Side};

/// A bone name taken apart by the normaliser.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NormalisedName {
    /// The side the name states, if any.
    pub side: Option<Side>,
    /// The remaining lowercase words, in order (prefixes, side and numbers removed).
    pub words: Vec<String>,
    /// A MakeHuman helper joint (name starting with `__`): never given a role.
    pub helper: bool,
}

impl NormalisedName {
    /// The words joined without separators: the synonym table's key (`upperarm`, `toebase`).
    pub fn key(&self) -> String {
        self.words.concat()
    }
}

/// What a name says, before the skeleton's structure settles the ambiguous cases.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NameClass {
    /// `Hips`, `Pelvis` (unsided).
    Hips,
    /// A trunk joint (`Spine`, `Chest`, `Abdomen`, `LowerBack`, ...); which trunk role it gets depends on its place.
    Trunk(TrunkWord),
    /// `Neck`.
    Neck,
    /// `Head`.
    Head,
    /// An unambiguous limb word (`UpperArm`, `ForeArm`, `Thigh`, `Calf`, ...). `weak` for `Palm` (a hand word only
    /// when nothing better exists).
    Limb { limb: Limb, weak: bool },
    /// `Shoulder`: the clavicle in CMU, Mixamo, Unity and Rigify; the upper arm in Biovision-style files
    /// (`LeftCollar` → `LeftShoulder` → `LeftElbow`).
    Shoulder,
    /// A sided `Hip`: the thigh in Biovision-style files (`LeftHip` → `LeftKnee`).
    SidedHip,
    /// A bare `Arm`: the upper arm (CMU `LeftArm`).
    Arm,
    /// A bare `Leg`: the shin when a thigh word is above it (CMU `LeftUpLeg` → `LeftLeg`).
    Leg,
}

/// Which trunk word a name used (for a name read alone, see [`role_of_name`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TrunkWord {
    /// Spine, abdomen, lower back, waist...
    Lower,
    /// Chest, torso, thorax, upper back.
    Chest,
    /// Upper chest.
    UpperChest,
}

/// Rig prefixes dropped from the front of a name (with any numbers among them).
const PREFIXES: &[&str] = &[
    "def",
    "org",
    "mch",
    "mixamorig",
    "bip",
    "b",
    "j",
    "c",
    "cc",
    "base",
    "valvebiped",
    "armature",
    "rig",
    "jnt",
    "bn",
    "sk",
    "bone",
];

/// Words that make a name none of the roles: fingers, end effectors, helpers and controls.
const EXCLUDED: &[&str] = &[
    "finger",
    "fingers",
    "thumb",
    "index",
    "middle",
    "ring",
    "pinky",
    "little",
    "metacarpal",
    "carpal",
    "digit",
    "end",
    "tip",
    "nub",
    "top",
    "effector",
    "site",
    "twist",
    "roll",
    "ik",
    "fk",
    "pole",
    "target",
    "ctrl",
    "control",
    "helper",
    "aux",
    "corrective",
    "null",
    "dummy",
];

/// The synonym table: normalised key → class. Sided limb words need a side; trunk words must have none.
fn lookup(key: &str, sided: bool) -> Option<NameClass> {
    use Limb::*;
    let limb = |limb| Some(NameClass::Limb { limb, weak: false });
    match key {
        "hips" | "pelvis" if !sided => Some(NameClass::Hips),
        "hip" if !sided => Some(NameClass::Hips),
        "spine" | "abdomen" | "ab" | "abs" | "lowerback" | "waist" | "belly" | "lumbar"
        | "spinelower" | "lowerspine"
            if !sided =>
        {
            Some(NameClass::Trunk(TrunkWord::Lower))
        }
        "chest" | "torso" | "thorax" | "upperback" | "ribcage" | "spineupper" | "upperspine"
        | "spinemid" | "midspine"
            if !sided =>
        {
            Some(NameClass::Trunk(TrunkWord::Chest))
        }
        "upperchest" | "chestupper" if !sided => Some(NameClass::Trunk(TrunkWord::UpperChest)),
        "neck" | "lowerneck" | "upperneck" | "neckupper" | "necklower" if !sided => {
            Some(NameClass::Neck)
        }
        "head" | "skull" if !sided => Some(NameClass::Head),
        _ if !sided => None,
        "clavicle" | "collar" | "collarbone" | "clav" => limb(Shoulder),
        "shoulder" => Some(NameClass::Shoulder),
        "upperarm" | "uparm" | "armupper" | "humerus" => limb(UpperArm),
        "arm" => Some(NameClass::Arm),
        "forearm" | "lowerarm" | "loarm" | "armlower" | "elbow" | "radius" | "ulna" => {
            limb(Forearm)
        }
        "hand" | "wrist" => limb(Hand),
        "palm" => Some(NameClass::Limb {
            limb: Hand,
            weak: true,
        }),
        "thigh" | "upleg" | "upperleg" | "legupper" | "femur" => limb(Thigh),
        "hip" => Some(NameClass::SidedHip),
        "shin" | "calf" | "lowerleg" | "loleg" | "leglower" | "knee" | "tibia" | "crus" => {
            limb(Shin)
        }
        "leg" => Some(NameClass::Leg),
        "foot" | "ankle" => limb(Foot),
        "toe" | "toes" | "toebase" | "ball" => limb(Toe),
        _ => None,
    }
}

/// Splits a name into lowercase words: at separators, lower→upper case changes (`ForeArm`), an upper-case letter
/// before an upper+lower pair (`LHip` → `L`, `Hip`), and letter↔digit changes.
fn words(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut out: Vec<String> = Vec::new();
    let mut cur = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_alphanumeric() {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            continue;
        }
        if let Some(&p) = cur.chars().last().as_ref() {
            let next_lower = chars.get(i + 1).is_some_and(|n| n.is_lowercase());
            let split = (p.is_lowercase() && c.is_uppercase())
                || (p.is_uppercase() && c.is_uppercase() && next_lower)
                || (p.is_ascii_digit() != c.is_ascii_digit());
            if split {
                out.push(std::mem::take(&mut cur));
            }
        }
        cur.push(c);
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out.into_iter().map(|w| w.to_lowercase()).collect()
}

fn side_word(w: &str) -> Option<Side> {
    match w {
        "l" | "left" | "lf" | "lft" => Some(Side::Left),
        "r" | "right" | "rt" | "rgt" => Some(Side::Right),
        _ => None,
    }
}

fn is_number(w: &str) -> bool {
    w.chars().all(|c| c.is_ascii_digit())
}

/// Takes a bone name apart (see the module documentation).
pub fn normalise(name: &str) -> NormalisedName {
    // Namespaces: `mixamorig:Hips`, `Armature|Hips`.
    let local = name.rsplit([':', '|']).next().unwrap_or(name).trim();
    let helper = local.starts_with("__");
    let mut ws = words(local);
    // Rig prefixes and the numbers among them (`Bip01 L Forearm`), as long as a word is left.
    while ws.len() > 1 && (PREFIXES.contains(&ws[0].as_str()) || is_number(&ws[0])) {
        ws.remove(0);
    }
    ws.retain(|w| !is_number(w));
    let mut side = None;
    if ws.len() > 1 {
        if let Some(s) = side_word(&ws[0]) {
            side = Some(s);
            ws.remove(0);
        } else if let Some(s) = ws.last().and_then(|w| side_word(w)) {
            side = Some(s);
            ws.pop();
        }
    }
    NormalisedName {
        side,
        words: ws,
        helper,
    }
}

/// What a name says (class and side), or `None` for names of no role (fingers, face, helpers, end sites, tails).
pub(crate) fn classify(name: &str) -> Option<(NameClass, Option<Side>)> {
    let n = normalise(name);
    if n.helper || n.words.is_empty() || n.words.iter().any(|w| EXCLUDED.contains(&w.as_str())) {
        return None;
    }
    let key = n.key();
    if let Some(c) = lookup(&key, n.side.is_some()) {
        return Some((c, n.side));
    }
    if n.side.is_none() {
        // A side glued in front of the word: `lhumerus`, `rfoot`, `leftarm`.
        for (prefix, side) in [
            ("left", Side::Left),
            ("right", Side::Right),
            ("l", Side::Left),
            ("r", Side::Right),
        ] {
            if let Some(rest) = key.strip_prefix(prefix)
                && let Some(c) = lookup(rest, true)
            {
                return Some((c, Some(side)));
            }
        }
    }
    None
}

/// The role a name reads as on its own, without a skeleton: `RightForeArm` → right_forearm, `lowerarm_r` →
/// right_forearm, `mixamorig:LeftUpLeg` → left_thigh, `Spine1` → spine. Ambiguous words take their most common
/// reading: a sided `Shoulder` is the clavicle, a sided `Hip` the thigh, a bare `Arm` the upper arm, a bare `Leg`
/// the shin. `None` when the name names no role.
pub fn role_of_name(name: &str) -> Option<Role> {
    let (class, side) = classify(name)?;
    let limb = match class {
        NameClass::Hips => return Some(Role::Hips),
        NameClass::Trunk(TrunkWord::Lower) => return Some(Role::Spine),
        NameClass::Trunk(TrunkWord::Chest) => return Some(Role::Chest),
        NameClass::Trunk(TrunkWord::UpperChest) => return Some(Role::UpperChest),
        NameClass::Neck => return Some(Role::Neck),
        NameClass::Head => return Some(Role::Head),
        NameClass::Limb { limb, .. } => limb,
        NameClass::Shoulder => Limb::Shoulder,
        NameClass::SidedHip => Limb::Thigh,
        NameClass::Arm => Limb::UpperArm,
        NameClass::Leg => Limb::Shin,
    };
    side.map(|s| Role::Limb(s, limb))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(name: &str) -> Option<String> {
        role_of_name(name).map(|r| r.name())
    }

    #[test]
    fn words_split_case_digits_separators() {
        assert_eq!(words("LHipJoint"), ["l", "hip", "joint"]);
        assert_eq!(
            words("mixamorig_LeftForeArm"),
            ["mixamorig", "left", "fore", "arm"]
        );
        assert_eq!(words("toe1-1.R"), ["toe", "1", "1", "r"]);
        assert_eq!(words("Bip01 L Forearm"), ["bip", "01", "l", "forearm"]);
        assert_eq!(words("UpperArmL"), ["upper", "arm", "l"]);
    }

    #[test]
    fn common_rigs() {
        let cases = [
            ("RightForeArm", "right_forearm"),
            ("mixamorig:RightForeArm", "right_forearm"),
            ("mixamorig:LeftUpLeg", "left_thigh"),
            ("mixamorig:Hips", "hips"),
            ("upper_arm.L", "left_upper_arm"),
            ("DEF-forearm.R", "right_forearm"),
            ("ORG-thigh.L", "left_thigh"),
            ("shin.R", "right_shin"),
            ("upperarm_l", "left_upper_arm"),
            ("lowerarm_r", "right_forearm"),
            ("calf_l", "left_shin"),
            ("ball_r", "right_toe"),
            ("clavicle_l", "left_shoulder"),
            ("spine_01", "spine"),
            ("leftUpperArm", "left_upper_arm"),
            ("rightLowerLeg", "right_shin"),
            ("leftToes", "left_toe"),
            ("upperChest", "upper_chest"),
            ("LeftLowerArm", "left_forearm"),
            ("lhumerus", "left_upper_arm"),
            ("rradius", "right_forearm"),
            ("lfemur", "left_thigh"),
            ("rtibia", "right_shin"),
            ("Bip01 L Forearm", "left_forearm"),
            ("Bip01 R Calf", "right_shin"),
            ("Bip01 Pelvis", "hips"),
            ("J_Bip_L_UpperArm", "left_upper_arm"),
            ("J_Bip_C_Hips", "hips"),
            ("CC_Base_R_Upperarm", "right_upper_arm"),
            ("UpArm_L", "left_upper_arm"),
            ("LoLeg_R", "right_shin"),
            ("upperleg01.L", "left_thigh"),
            ("lowerarm01.R", "right_forearm"),
            ("LeftElbow", "left_forearm"),
            ("RightWrist", "right_hand"),
            ("LeftKnee", "left_shin"),
            ("RightAnkle", "right_foot"),
            ("LeftCollar", "left_shoulder"),
            ("LowerBack", "spine"),
            ("Ab", "spine"),
            ("b_RightUpperArm_06", "right_upper_arm"),
            ("UpperArmR", "right_upper_arm"),
        ];
        for (name, role) in cases {
            assert_eq!(r(name).as_deref(), Some(role), "{name}");
        }
    }

    #[test]
    fn non_roles() {
        for name in [
            "LeftHandIndex1",
            "LThumb",
            "LFingers",
            "LeftFingerBase",
            "L_Wrist_End",
            "HeadTop_End",
            "mixamorig:LeftToe_End",
            "__Clavicle_L",
            "LHipJoint",
            "Root",
            "Bone",
            "PoleTargetL",
            "upperarm_twist_01_l",
            "metatarsal1.L",
            "b_Tail01_012",
            "jaw",
            "Hand",
            "pelvis.L",
        ] {
            assert_eq!(r(name), None, "{name}");
        }
    }
}
