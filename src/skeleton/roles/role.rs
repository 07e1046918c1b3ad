//! The canonical humanoid roles and their sides.

use std::fmt;

/// Left or right, from the character's point of view (its left hand is on +X when it faces +Z, Y up).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// The character's left.
    Left,
    /// The character's right.
    Right,
}

impl Side {
    /// The other side.
    pub fn other(self) -> Side {
        match self {
            Side::Left => Side::Right,
            Side::Right => Side::Left,
        }
    }

    /// `left` or `right`.
    pub fn name(self) -> &'static str {
        match self {
            Side::Left => "left",
            Side::Right => "right",
        }
    }
}

/// What a limb bone is, without its side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Limb {
    /// Clavicle (collar bone): from the chest to the shoulder joint.
    Shoulder,
    /// Humerus: shoulder joint to elbow.
    UpperArm,
    /// Radius/ulna: elbow to wrist.
    Forearm,
    /// Wrist and palm.
    Hand,
    /// Femur: hip joint to knee.
    Thigh,
    /// Tibia: knee to ankle.
    Shin,
    /// Ankle to the ball of the foot.
    Foot,
    /// The toes.
    Toe,
}

impl Limb {
    /// The arm, root to tip.
    pub const ARM: [Limb; 4] = [Limb::Shoulder, Limb::UpperArm, Limb::Forearm, Limb::Hand];
    /// The leg, root to tip.
    pub const LEG: [Limb; 4] = [Limb::Thigh, Limb::Shin, Limb::Foot, Limb::Toe];

    fn name(self) -> &'static str {
        match self {
            Limb::Shoulder => "shoulder",
            Limb::UpperArm => "upper_arm",
            Limb::Forearm => "forearm",
            Limb::Hand => "hand",
            Limb::Thigh => "thigh",
            Limb::Shin => "shin",
            Limb::Foot => "foot",
            Limb::Toe => "toe",
        }
    }
}

/// A canonical humanoid role: what a bone does, whatever the rig calls it.
///
/// The bone of a role is the joint at the segment's proximal end (the forearm's joint is the elbow, the hand's the
/// wrist), as rigs name them. `Spine`, `Chest` and `UpperChest` are the trunk joints between the hips and the neck,
/// bottom to top.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// The pelvis: the joint from which both legs and the spine descend.
    Hips,
    /// The lowest trunk joint above the hips.
    Spine,
    /// The middle trunk joint (when the trunk has two or more).
    Chest,
    /// The top trunk joint, below the neck (when the trunk has three or more).
    UpperChest,
    /// The first neck joint.
    Neck,
    /// The head (skull base).
    Head,
    /// A sided limb bone.
    Limb(Side, Limb),
}

/// The number of roles in [`Role::ALL`].
pub const ROLE_COUNT: usize = 6 + 2 * 8;

impl Role {
    /// Every role, trunk first, then left and right arms and legs.
    pub const ALL: [Role; ROLE_COUNT] = {
        use Limb::*;
        use Side::*;
        [
            Role::Hips,
            Role::Spine,
            Role::Chest,
            Role::UpperChest,
            Role::Neck,
            Role::Head,
            Role::Limb(Left, Shoulder),
            Role::Limb(Left, UpperArm),
            Role::Limb(Left, Forearm),
            Role::Limb(Left, Hand),
            Role::Limb(Right, Shoulder),
            Role::Limb(Right, UpperArm),
            Role::Limb(Right, Forearm),
            Role::Limb(Right, Hand),
            Role::Limb(Left, Thigh),
            Role::Limb(Left, Shin),
            Role::Limb(Left, Foot),
            Role::Limb(Left, Toe),
            Role::Limb(Right, Thigh),
            Role::Limb(Right, Shin),
            Role::Limb(Right, Foot),
            Role::Limb(Right, Toe),
        ]
    };

    /// The roles a skeleton must map to count as a humanoid: hips, spine, head, and both upper arms, forearms,
    /// hands, thighs, shins and feet.
    pub const REQUIRED: [Role; 15] = {
        use Limb::*;
        use Side::*;
        [
            Role::Hips,
            Role::Spine,
            Role::Head,
            Role::Limb(Left, UpperArm),
            Role::Limb(Right, UpperArm),
            Role::Limb(Left, Forearm),
            Role::Limb(Right, Forearm),
            Role::Limb(Left, Hand),
            Role::Limb(Right, Hand),
            Role::Limb(Left, Thigh),
            Role::Limb(Right, Thigh),
            Role::Limb(Left, Shin),
            Role::Limb(Right, Shin),
            Role::Limb(Left, Foot),
            Role::Limb(Right, Foot),
        ]
    };

    /// Position in [`Role::ALL`].
    pub fn index(self) -> usize {
        match self {
            Role::Hips => 0,
            Role::Spine => 1,
            Role::Chest => 2,
            Role::UpperChest => 3,
            Role::Neck => 4,
            Role::Head => 5,
            Role::Limb(side, limb) => {
                let base = match (side, limb) {
                    (Side::Left, l) if Limb::ARM.contains(&l) => 6,
                    (Side::Right, l) if Limb::ARM.contains(&l) => 10,
                    (Side::Left, _) => 14,
                    (Side::Right, _) => 18,
                };
                let k = match limb {
                    Limb::Shoulder | Limb::Thigh => 0,
                    Limb::UpperArm | Limb::Shin => 1,
                    Limb::Forearm | Limb::Foot => 2,
                    Limb::Hand | Limb::Toe => 3,
                };
                base + k
            }
        }
    }

    /// Whether a humanoid must have this role (see [`Role::REQUIRED`]).
    pub fn is_required(self) -> bool {
        Role::REQUIRED.contains(&self)
    }

    /// The side of a limb role; `None` for the trunk.
    pub fn side(self) -> Option<Side> {
        match self {
            Role::Limb(s, _) => Some(s),
            _ => None,
        }
    }

    /// The same role on the other side (trunk roles are their own mirror).
    pub fn mirror(self) -> Role {
        match self {
            Role::Limb(s, l) => Role::Limb(s.other(), l),
            r => r,
        }
    }

    /// The snake_case name used in files and in `role:NAME` bone references: `hips`, `upper_chest`,
    /// `right_forearm`, `left_toe`.
    pub fn name(self) -> String {
        match self {
            Role::Hips => "hips".into(),
            Role::Spine => "spine".into(),
            Role::Chest => "chest".into(),
            Role::UpperChest => "upper_chest".into(),
            Role::Neck => "neck".into(),
            Role::Head => "head".into(),
            Role::Limb(s, l) => format!("{}_{}", s.name(), l.name()),
        }
    }

    /// The role with this snake_case [`Role::name`], or any spelling the name recogniser reads as exactly one
    /// role (`RightForeArm`, `rightLowerArm`, `lowerarm_r`).
    pub fn parse(text: &str) -> Option<Role> {
        let t = text.trim();
        Role::ALL
            .into_iter()
            .find(|r| r.name() == t)
            .or_else(|| super::names::role_of_name(t))
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_follow_all() {
        for (i, r) in Role::ALL.iter().enumerate() {
            assert_eq!(r.index(), i, "{r}");
            assert_eq!(Role::parse(&r.name()), Some(*r));
            assert_eq!(r.mirror().mirror(), *r);
        }
        assert_eq!(Role::REQUIRED.len(), 15);
        assert!(Role::REQUIRED.iter().all(|r| r.is_required()));
        assert!(!Role::Neck.is_required());
    }
}
