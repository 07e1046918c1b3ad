//! The retarget tree: key joints (pelvis, chest and the mapped roles) on both skeletons, and between a key and
//! its parent key the chain of joints on each side, which may differ in length (a 3-bone spine onto a 2-bone
//! one). Structural keys: the **chest** is the lowest common ancestor of the upper arms and the head, the
//! **pelvis** that of the thighs and the chest, on each skeleton.

use super::RetargetError;
use super::map::Correspondence;
use crate::skeleton::Skeleton;

/// One key of the retarget tree.
#[derive(Debug, Clone, PartialEq)]
pub struct Key {
    /// Role name (`pelvis`, `chest`, or a mapped role).
    pub role: String,
    /// Index of the parent key in [`Tree::keys`] (`None` for the pelvis).
    pub parent: Option<usize>,
    /// Key joint on the source skeleton.
    pub source: usize,
    /// Key joint on the target skeleton.
    pub target: usize,
    /// Source joints after the parent key's joint down to this key's (inclusive), root side first.
    pub source_chain: Vec<usize>,
    /// Target joints likewise.
    pub target_chain: Vec<usize>,
    /// The target key joint is not a descendant of the parent key's (an IK-rig foot parented to the root): its
    /// position is carried rigidly by the parent key's joint, as in the rest pose.
    pub target_attached: bool,
}

/// Key roles and their parent key roles, parents first (the pelvis and chest are structural).
const TREE: [(&str, &str); 16] = [
    ("chest", "pelvis"),
    ("head", "chest"),
    ("left_upper_arm", "chest"),
    ("left_forearm", "left_upper_arm"),
    ("left_hand", "left_forearm"),
    ("right_upper_arm", "chest"),
    ("right_forearm", "right_upper_arm"),
    ("right_hand", "right_forearm"),
    ("left_thigh", "pelvis"),
    ("left_shin", "left_thigh"),
    ("left_foot", "left_shin"),
    ("left_toe", "left_foot"),
    ("right_thigh", "pelvis"),
    ("right_shin", "right_thigh"),
    ("right_foot", "right_shin"),
    ("right_toe", "right_foot"),
];

/// The retarget tree of a correspondence.
#[derive(Debug, Clone, PartialEq)]
pub struct Tree {
    /// Keys, parents first; `keys[0]` is the pelvis.
    pub keys: Vec<Key>,
}

impl Tree {
    /// The key playing `role`.
    pub fn key(&self, role: &str) -> Option<&Key> {
        self.keys.iter().find(|k| k.role == role)
    }

    /// Builds the tree. Fails when the structural pelvis or chest cannot be found (a role below another one's
    /// side, e.g. a head mapped inside an arm).
    pub fn build(
        source: &Skeleton,
        target: &Skeleton,
        map: &Correspondence,
    ) -> Result<Tree, RetargetError> {
        let role = |r: &str| map.joints(r);
        let need = |r: &str| {
            role(r).ok_or_else(|| RetargetError::MissingRoles {
                side: "source and target".into(),
                roles: vec![r.to_string()],
                notes: Vec::new(),
            })
        };
        let (sl_arm, tl_arm) = need("left_upper_arm")?;
        let (sr_arm, tr_arm) = need("right_upper_arm")?;
        let (s_head, t_head) = need("head")?;
        let (sl_leg, tl_leg) = need("left_thigh")?;
        let (sr_leg, tr_leg) = need("right_thigh")?;
        let s_chest = lca(source, &[sl_arm, sr_arm, s_head]);
        let t_chest = lca(target, &[tl_arm, tr_arm, t_head]);
        let s_pelvis = lca(source, &[sl_leg, sr_leg, s_chest]);
        let t_pelvis = lca(target, &[tl_leg, tr_leg, t_chest]);
        let mut keys = vec![Key {
            role: "pelvis".into(),
            parent: None,
            source: s_pelvis,
            target: t_pelvis,
            source_chain: vec![s_pelvis],
            target_chain: vec![t_pelvis],
            target_attached: false,
        }];
        // A chest that is the pelvis itself (no spine) is no key of its own: its children hang off the pelvis.
        let chest_is_pelvis = s_chest == s_pelvis || t_chest == t_pelvis;
        for (r, parent_role) in TREE.iter() {
            let parent_role = if *parent_role == "chest" && chest_is_pelvis {
                "pelvis"
            } else {
                parent_role
            };
            let joints = match *r {
                "chest" if chest_is_pelvis => None,
                "chest" => Some((s_chest, t_chest)),
                other => role(other),
            };
            let Some((s, t)) = joints else { continue };
            let Some(parent) = keys.iter().position(|k| k.role == parent_role) else {
                continue;
            };
            let (ps, pt) = (keys[parent].source, keys[parent].target);
            let source_chain = path_below(source, ps, s).unwrap_or_else(|| vec![s]);
            let (target_chain, target_attached) = match path_below(target, pt, t) {
                Some(c) => (c, false),
                None => (vec![t], true),
            };
            keys.push(Key {
                role: r.to_string(),
                parent: Some(parent),
                source: s,
                target: t,
                source_chain,
                target_chain,
                target_attached,
            });
        }
        Ok(Tree { keys })
    }
}

/// Joint `j` and its ancestors, `j` first.
fn ancestors(sk: &Skeleton, j: usize) -> Vec<usize> {
    let mut out = vec![j];
    let mut k = j;
    while let Some(p) = sk.joints.get(k).and_then(|x| x.parent) {
        out.push(p);
        k = p;
    }
    out
}

/// Lowest common ancestor of the joints (a joint counts as its own ancestor).
pub fn lca(sk: &Skeleton, joints: &[usize]) -> usize {
    let Some((&first, rest)) = joints.split_first() else {
        return 0;
    };
    let mut common = ancestors(sk, first);
    for &j in rest {
        let a = ancestors(sk, j);
        common.retain(|x| a.contains(x));
    }
    common.first().copied().unwrap_or(0)
}

/// The joints strictly below `top` down to `bottom` (inclusive), top side first; `None` when `bottom` is not a
/// proper descendant of `top`.
pub fn path_below(sk: &Skeleton, top: usize, bottom: usize) -> Option<Vec<usize>> {
    let a = ancestors(sk, bottom);
    let at = a.iter().position(|&x| x == top)?;
    if at == 0 {
        return None;
    }
    let mut path: Vec<usize> = a[..at].to_vec();
    path.reverse();
    Some(path)
}
