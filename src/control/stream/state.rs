//! The ring of generalized poses a streamed character steps through, and the pending target.

use nalgebra::{Matrix3, UnitQuaternion, Vector3};

use super::PoseVelocities;
use super::online::{place_step, poses_with_matrices};
use super::root::RootTrack;
use crate::control::discrete::Twists;
use crate::control::inverse::JointWrenches;
use crate::control::kinematics::{BodyPose, Topology};
use crate::control::pose_coords::PoseCoords;
use crate::math::rotation::{exp_rotation, log_rotation};
use crate::model::Model;
use crate::skeleton::{Pose, Skeleton};

/// A pose in generalized coordinates at a time.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct GenPose {
    /// Root frame origin (m, world).
    pub root: Vector3<f64>,
    /// Root world rotation, then each body's joint rotation.
    pub rot: Vec<UnitQuaternion<f64>>,
    /// Time (s).
    pub time: f64,
}

impl GenPose {
    /// The pose a fraction `s` of the way from `a` to `b`.
    fn between(a: &GenPose, b: &GenPose, s: f64) -> GenPose {
        GenPose {
            root: a.root.lerp(&b.root, s),
            rot: a
                .rot
                .iter()
                .zip(&b.rot)
                .map(|(x, y)| crate::skeleton::slerp_short(x, y, s))
                .collect(),
            time: a.time + s * (b.time - a.time),
        }
    }
}

/// The streamed state of a character: poses `k − 1`, `k` (reached) and the target `k + 1` of the coming step,
/// their kinematics and chord twists, and the skeleton poses (for bones merged into a body).
#[derive(Debug)]
pub(crate) struct Stream {
    coords: PoseCoords,
    prev: GenPose,
    cur: GenPose,
    next: GenPose,
    kin_cur: Vec<BodyPose>,
    kin_next: Vec<BodyPose>,
    /// The rotation matrices of `kin_cur`'s bodies, made once with their poses: the step's inertias and frame
    /// changes use them (see `online`).
    mats_cur: Vec<Matrix3<f64>>,
    /// The rotation matrices of `kin_next`'s bodies (the next step's `mats_cur`).
    mats_next: Vec<Matrix3<f64>>,
    /// The joint frames `F` (parent frame → joint axes) as matrices, one per body (constant).
    frames: Vec<Matrix3<f64>>,
    /// Chord twists of the step into `cur` (what the character has at `k` on the target path).
    v: Twists,
    /// Chord twists of the coming step.
    v1: Twists,
    /// A target pushed and not reached yet: when it should be reached (`None`: at the end of the next step, or
    /// scene frame); the target itself is in `pending_coords` and `pending_pose`.
    pending: Option<Option<f64>>,
    /// The pending target in generalized coordinates (a buffer reused from push to push: no allocation).
    pending_coords: GenPose,
    /// The pending target's skeleton pose (buffer, as `pending_coords`).
    pending_pose: Pose,
    pose_cur: Pose,
    pose_next: Pose,
    velocities: Option<PoseVelocities>,
    /// Joint wrenches of the step's inverse dynamics (workspace).
    pub(crate) wrenches: JointWrenches,
    /// The root's path, read by the world's prescribed-body constraint.
    pub(crate) root: RootTrack,
    /// The gains' low-pass of the feedforward.
    pub(crate) gain_filter: GainFilter,
}

/// The first-order low-pass through which the gains follow the feedforward (see
/// [`super::GAIN_TIME_CONSTANT_S`]).
#[derive(Debug, Clone, Default)]
pub(crate) struct GainFilter {
    /// Time constant (s).
    pub(crate) time_constant: f64,
    /// The low-passed feedforward per body (joint frame); empty before the first step.
    state: Vec<Option<Vector3<f64>>>,
}

impl GainFilter {
    /// The torque body `b`'s gains follow this step: `tau` through the low-pass (step `h`), started at the
    /// first value.
    pub(crate) fn filter(&mut self, b: usize, tau: Vector3<f64>, h: f64) -> Vector3<f64> {
        if self.state.len() <= b {
            self.state.resize(b + 1, None);
        }
        let a = h / (self.time_constant + h);
        let s = self.state[b].map_or(tau, |s| s + (tau - s) * a);
        self.state[b] = Some(s);
        s
    }
}

/// `q` renormalized: an animation system's rotations are unit to a few ulps (slerps, products), where one
/// Newton step `q·(3 − |q|²)/2` is exact to round-off (its error is `O((|q|² − 1)²)`) without the square root and
/// four divisions of `new_normalize`, which any other quaternion takes.
#[inline]
fn renormalized(q: &UnitQuaternion<f64>) -> UnitQuaternion<f64> {
    let c = q.coords;
    let n2 = c.norm_squared();
    if (n2 - 1.0).abs() <= 1e-8 {
        UnitQuaternion::new_unchecked(nalgebra::Quaternion::from(c * (1.5 - 0.5 * n2)))
    } else {
        UnitQuaternion::new_normalize(q.into_inner())
    }
}

impl Stream {
    /// A stream that has reached `cur` (skeleton pose `pose`) coming from `prev` (equal poses: at rest), for a
    /// character whose joint frames are `joint_frame` (one per body).
    pub(crate) fn new(
        coords: PoseCoords,
        topo: &Topology,
        joint_frame: &[UnitQuaternion<f64>],
        prev: GenPose,
        cur: GenPose,
        pose: Pose,
        root: RootTrack,
    ) -> Stream {
        let nb = cur.rot.len();
        let mut s = Stream {
            coords,
            next: cur.clone(),
            pending_coords: cur.clone(),
            pending_pose: pose.clone(),
            prev,
            cur,
            kin_cur: Vec::with_capacity(nb),
            kin_next: Vec::with_capacity(nb),
            mats_cur: Vec::with_capacity(nb),
            mats_next: Vec::with_capacity(nb),
            frames: joint_frame
                .iter()
                .map(|f| f.to_rotation_matrix().into_inner())
                .collect(),
            v: Vec::with_capacity(nb),
            v1: Vec::with_capacity(nb),
            pending: None,
            pose_next: pose.clone(),
            pose_cur: pose,
            velocities: None,
            wrenches: JointWrenches::default(),
            root,
            gain_filter: GainFilter {
                time_constant: super::GAIN_TIME_CONSTANT_S,
                state: Vec::new(),
            },
        };
        let mut kin_prev = Vec::with_capacity(nb);
        // The step's own placement (matrices), so that the chord starts where the steps' chords will.
        poses_with_matrices(
            topo,
            &s.prev.root,
            &s.prev.rot,
            &mut kin_prev,
            &mut s.mats_next,
        );
        let dt = s.cur.time - s.prev.time;
        if dt > 0.0 {
            let (root, rot) = (&s.cur.root, &s.cur.rot);
            place_step(
                topo,
                root,
                rot,
                &kin_prev,
                dt,
                &mut s.kin_cur,
                &mut s.mats_cur,
                &mut s.v,
            );
        } else {
            poses_with_matrices(
                topo,
                &s.cur.root,
                &s.cur.rot,
                &mut s.kin_cur,
                &mut s.mats_cur,
            );
            s.v.resize(nb, (Vector3::zeros(), Vector3::zeros()));
        }
        s
    }

    /// Generalized coordinates of a skeleton pose, in the hemisphere of the pose reached.
    fn project(
        &mut self,
        model: &Model,
        skeleton: &Skeleton,
        topo: &Topology,
        pose: &Pose,
        time: f64,
    ) -> GenPose {
        let mut rot = vec![UnitQuaternion::identity(); self.cur.rot.len()];
        let root =
            self.coords
                .project_local(model, skeleton, topo, pose, Some(&self.cur.rot), &mut rot);
        GenPose { root, rot, time }
    }

    /// Queues the target `pose` (checked by the caller: one finite entry per joint; replacing any pending one), its rotations
    /// renormalized and projected to generalized coordinates in the hemisphere of the pose reached; `time`
    /// `None`: the end of the next step. Copies into the stream's buffers: no allocation once they are sized.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn push(
        &mut self,
        model: &Model,
        skeleton: &Skeleton,
        topo: &Topology,
        pose: &Pose,
        velocities: Option<&PoseVelocities>,
        time: Option<f64>,
    ) {
        match (velocities, &mut self.velocities) {
            (Some(v), Some(kept)) => kept.clone_from(v),
            (v, kept) => *kept = v.cloned(),
        }
        let target = &mut self.pending_pose;
        target.translations.clone_from(&pose.translations);
        target
            .rotations
            .resize(pose.rotations.len(), UnitQuaternion::identity());
        for (t, q) in target.rotations.iter_mut().zip(&pose.rotations) {
            *t = renormalized(q);
        }
        let coords = &mut self.pending_coords;
        coords
            .rot
            .resize(self.cur.rot.len(), UnitQuaternion::identity());
        coords.root = self.coords.project_local(
            model,
            skeleton,
            topo,
            target,
            Some(&self.cur.rot),
            &mut coords.rot,
        );
        coords.time = time.unwrap_or(f64::NAN);
        self.pending = Some(time);
    }

    /// Gives a target pushed for "the end of the next step" the time `t` (the end of a scene frame that is
    /// stepped in several substeps).
    pub(crate) fn anchor_pending(&mut self, t: f64) {
        if let Some(time) = &mut self.pending
            && time.is_none()
        {
            *time = Some(t);
        }
    }

    /// Whether a target is waiting for a step.
    pub(crate) fn has_pending(&self) -> bool {
        self.pending.is_some()
    }

    /// Chooses the target of the step from `t` to `t + h` (the pending target, a point on the way to it, or an
    /// extrapolation of the last ones), and computes its kinematics and the step's chord twists.
    pub(crate) fn prepare(
        &mut self,
        model: &Model,
        skeleton: &Skeleton,
        topo: &Topology,
        t: f64,
        h: f64,
    ) {
        let t1 = t + h;
        match self.pending {
            Some(time) if time.is_none_or(|tp| tp <= t1 + 1e-9) => {
                // The target is due: its buffers become the step's (the step's old ones take the next push).
                self.pending = None;
                std::mem::swap(&mut self.next, &mut self.pending_coords);
                std::mem::swap(&mut self.pose_next, &mut self.pending_pose);
                self.next.time = t1;
            }
            Some(time) => {
                let tp = time.unwrap_or(t1);
                let s = (t1 - self.cur.time) / (tp - self.cur.time);
                self.next = GenPose::between(&self.cur, &self.pending_coords, s);
                self.pose_next = Pose::interpolate(&self.pose_cur, &self.pending_pose, s);
            }
            None => {
                let (next, pose) = self.extrapolate(model, skeleton, topo, t1);
                self.next = next;
                self.pose_next = pose;
            }
        }
        // Only where the bodies are (and their matrices, for the next step): the twists are the chords.
        place_step(
            topo,
            &self.next.root,
            &self.next.rot,
            &self.kin_cur,
            h,
            &mut self.kin_next,
            &mut self.mats_next,
            &mut self.v1,
        );
    }

    /// The target after `t1` when no new one came: along the last pose's velocities when they were given, else
    /// at the constant velocity of the last step.
    fn extrapolate(
        &mut self,
        model: &Model,
        skeleton: &Skeleton,
        topo: &Topology,
        t1: f64,
    ) -> (GenPose, Pose) {
        let dt = t1 - self.cur.time;
        if let Some(v) = self.velocities.clone() {
            let mut pose = self.pose_cur.clone();
            for (q, w) in pose.rotations.iter_mut().zip(&v.angular) {
                *q *= exp_rotation(&(w * dt));
            }
            if let Some(r) = skeleton.joints.iter().position(|j| j.parent.is_none()) {
                pose.translations[r] += v.root_linear * dt;
            }
            let coords_pose = self.project(model, skeleton, topo, &pose, t1);
            return (coords_pose, pose);
        }
        let span = self.cur.time - self.prev.time;
        let ratio = if span > 0.0 { dt / span } else { 0.0 };
        let coords_pose = GenPose {
            root: self.cur.root + (self.cur.root - self.prev.root) * ratio,
            rot: self
                .prev
                .rot
                .iter()
                .zip(&self.cur.rot)
                .map(|(a, b)| b * exp_rotation(&(log_rotation(&(a.inverse() * b)) * ratio)))
                .collect(),
            time: t1,
        };
        (coords_pose, self.pose_cur.clone())
    }

    /// Moves the ring on after the step: the target became the pose reached.
    pub(crate) fn advance(&mut self) {
        std::mem::swap(&mut self.prev, &mut self.cur);
        std::mem::swap(&mut self.cur, &mut self.next);
        std::mem::swap(&mut self.kin_cur, &mut self.kin_next);
        std::mem::swap(&mut self.mats_cur, &mut self.mats_next);
        std::mem::swap(&mut self.v, &mut self.v1);
        std::mem::swap(&mut self.pose_cur, &mut self.pose_next);
    }

    /// Poses reached (`k`) and targeted (`k + 1`) with the twists at `k` and of the step.
    pub(crate) fn step_path(&self) -> (&[BodyPose], &[BodyPose], &Twists, &Twists) {
        (&self.kin_cur, &self.kin_next, &self.v, &self.v1)
    }

    /// The rotation matrices of the bodies in the pose reached (`step_path`'s first poses), and the joint frames'.
    pub(crate) fn step_matrices(&self) -> (&[Matrix3<f64>], &[Matrix3<f64>]) {
        (&self.mats_cur, &self.frames)
    }

    /// Body `b`'s joint rotation reached times the inverse of the one targeted (the drive's rotation error at the
    /// start of the step, parent frame), from the generalized rotations themselves.
    pub(crate) fn rotation_error(&self, b: usize) -> UnitQuaternion<f64> {
        self.cur.rot[b] * self.next.rot[b].inverse()
    }

    /// The joint rotation of body `b` targeted by the coming step.
    pub(crate) fn target_rotation(&self, b: usize) -> UnitQuaternion<f64> {
        self.next.rot[b]
    }

    /// The joint rotation of body `b` in the pose reached (the last target).
    pub(crate) fn reached_rotation(&self, b: usize) -> UnitQuaternion<f64> {
        self.cur.rot[b]
    }

    /// The skeleton pose reached (the last target; merged bones follow it).
    pub(crate) fn reached_pose(&self) -> &Pose {
        &self.pose_cur
    }
}
