//! Preprocessing (Cline 2002 §5.1, p. 80): the clip becomes the reference motion the controller tracks, in the
//! model's generalized coordinates at the **simulation** rate, with its inverse-dynamics feedforward.
//!
//! 1. Forward kinematics of every clip frame → the root pose and each joint's relative rotation (the clip is
//!    projected onto the model: merged bones ride with their body, anchors are the model's).
//! 2. Zero-phase low-pass (2nd-order Butterworth forwards and backwards, `cutoff_hz`) of the root position and the
//!    hemisphere-continuous quaternion components; Catmull–Rom resampling at the simulation rate; normalisation;
//!    projection onto hinge and universal joints.
//! 3. Velocities and accelerations by finite differences **of the resampled poses** (MuJoCo's discrete inverse
//!    idea): `u_k = log(q_{k−1}⁻¹·q_k)/h`, `u̇_k = (u_{k+1} − u_k)/h`, so one semi-implicit Euler step from state k
//!    with acceleration `u̇_k` lands exactly on pose k+1. The root's are stored; the joints' are computed where
//!    read ([`ReferenceMotion::velocity`], [`ReferenceMotion::acceleration`]): nothing in a step reads them (the
//!    discrete inverse dynamics works on poses and chord twists), and storing them cost 6.6 MB and about a sixth
//!    of the build's time per minute of clip.
//! 4. The discrete-step inverse dynamics at every step ([`super::discrete`]): the feedforward the character's
//!    drives apply, stored in each joint's frame, fixed in the parent body (Cline's "body coordinates", eq. 5.6).
//!    The continuous one (recursive Newton–Euler, [`super::inverse`]) is an analysis, computed on request:
//!    [`ReferenceMotion::continuous_inverse_dynamics`].

use nalgebra::{Matrix3, Rotation3, Unit, UnitQuaternion, Vector3};
use serde::{Deserialize, Serialize};

use super::filter::Butterworth2;
use super::kinematics::{BodyKinematics, BodyPose, GeneralizedState, Topology};
use super::parallel::{Table, pieces, ranges, run, thread_count};
use super::pose_coords::PoseCoords;
use crate::math::rotation::{EulerOrder, log_rotation, same_hemisphere};
use crate::model::{JointKind, Model};
use crate::skeleton::{Clip, Skeleton};
use resampling::{catmull_rom, differentiate};

mod resampling;

/// The acceleration of gravity of the reference and the simulation (m/s², Y up).
pub const GRAVITY: Vector3<f64> = Vector3::new(0.0, -9.81, 0.0);

/// How a clip becomes a reference motion.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PreprocessConfig {
    /// Simulation rate (Hz): the reference is sampled at `h = 1/rate_hz`. Default 120.
    pub rate_hz: f64,
    /// Cut-off (Hz, −6 dB point of the zero-phase filter) of the low-pass applied to the clip's generalized
    /// coordinates before differentiation; `None` (or at or above the clip's Nyquist frequency): no filtering.
    /// Default 10 Hz: mocap noise doubles with each derivative, while human motion (walks, jumps, punches) has
    /// little content above 10 Hz.
    pub cutoff_hz: Option<f64>,
    /// Threads for the inverse-dynamics pass over long clips; `None` (default): one per core, up to 8. Set 1
    /// when several clips are preprocessed at once (a batch bake), so threads do not oversubscribe the cores.
    pub threads: Option<usize>,
}

impl Default for PreprocessConfig {
    fn default() -> Self {
        PreprocessConfig {
            rate_hz: 120.0,
            cutoff_hz: Some(10.0),
            threads: None,
        }
    }
}

/// Most body samples (steps × bodies) a reference may hold: 37 minutes of a 19-body character at 120 Hz. Each
/// sample costs about 400 bytes over the preprocessing tables.
pub const MAX_REFERENCE_SAMPLES: usize = 5_000_000;

/// Highest simulation rate (Hz) a reference is preprocessed for: steps of 0.1 ms, far finer than a mocap
/// character needs (120 Hz is the default); higher rates only multiply the preprocessing time.
pub const MAX_RATE_HZ: f64 = 10_000.0;

/// Why a reference could not be built.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ReferenceError {
    /// The clip has no frame or a bad frame time.
    #[error("clip: {0}")]
    Clip(String),
    /// The configuration is out of range.
    #[error("preprocess config: {0}")]
    Config(String),
}

/// The degrees of freedom of each joint, in its joint frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dofs {
    /// All three axes.
    Ball,
    /// Joint-frame x only.
    Hinge,
    /// Joint-frame x (fixed in the parent) and y (fixed in the child).
    Universal,
}

impl Dofs {
    /// Whether joint-frame axis `i` is a degree of freedom.
    pub fn is_free(self, i: usize) -> bool {
        match self {
            Dofs::Ball => true,
            Dofs::Hinge => i == 0,
            Dofs::Universal => i < 2,
        }
    }

    /// The components of a joint-frame vector along the DOFs (the others zeroed).
    pub fn free_part(self, local: &Vector3<f64>) -> Vector3<f64> {
        Vector3::from_fn(|i, _| if self.is_free(i) { local[i] } else { 0.0 })
    }
}

/// The reference motion: generalized coordinates, velocities, accelerations and inverse-dynamics torques at every
/// simulation step. Arrays are step-major: entry `(k, b)` is at `k·bodies + b`.
#[derive(Debug, Clone, PartialEq)]
pub struct ReferenceMotion {
    /// Simulation step (s).
    pub h: f64,
    /// Number of samples (the clip spans `steps − 1` simulation steps).
    pub steps: usize,
    /// Gravity used by the inverse dynamics (m/s²).
    pub gravity: Vector3<f64>,
    /// Bodies, anchors and mass properties of the model.
    pub topology: Topology,
    /// Joint frame of each body (`F`, relative to the parent body; identity for the root): the drive axes and the
    /// frame of the stored torques. Ball: the rest rotation; hinge: x along the axis; universal: x, y the axes.
    pub joint_frame: Vec<UnitQuaternion<f64>>,
    /// Axes basis `A` of each joint in the child's rest frame (`F = rest·A`; identity for ball joints): the hinge
    /// axis is `A·x`, a universal joint's child-fixed axis `A·y`.
    pub joint_axes: Vec<UnitQuaternion<f64>>,
    /// Degrees of freedom of each body's joint (the root's is [`Dofs::Ball`]; it is prescribed).
    pub dofs: Vec<Dofs>,
    /// Root frame origin per step (m, world).
    pub root_pos: Vec<Vector3<f64>>,
    /// Root origin velocity per step (m/s, world).
    pub root_vel: Vec<Vector3<f64>>,
    /// Root origin acceleration per step (m/s², world).
    pub root_acc: Vec<Vector3<f64>>,
    /// Root world rotation and joint relative rotations, per step and body.
    pub rot: Vec<UnitQuaternion<f64>>,
    /// Feedforward for the step from sample `k` to `k + 1`, per body (N·m, joint frame, free axes): the
    /// discrete-step inverse dynamics ([`super::discrete`]). The last sample repeats the one before.
    pub feedforward: Vec<Vector3<f64>>,
    /// Drive target velocity for the step from `k` to `k + 1`, per body (rad/s, parent frame).
    pub target_velocity: Vec<Vector3<f64>>,
    /// Anchor-row velocity bias for the step from `k` to `k + 1`, per body (m/s, world).
    pub anchor_bias: Vec<Vector3<f64>>,
    /// Body twists `(ω, v)` (world) per sample and body: those the step from `k − 1` lands with at sample `k`
    /// (chords), the continuous ones at sample 0. A character starts from sample 0's.
    pub twists: Vec<(Vector3<f64>, Vector3<f64>)>,
}

impl ReferenceMotion {
    /// Preprocesses `clip` (already without a leading T-pose frame) for `model`, built from `skeleton`.
    pub fn build(
        model: &Model,
        skeleton: &Skeleton,
        clip: &Clip,
        config: &PreprocessConfig,
    ) -> Result<ReferenceMotion, ReferenceError> {
        if !(config.rate_hz.is_finite() && config.rate_hz > 0.0 && config.rate_hz <= MAX_RATE_HZ) {
            return Err(ReferenceError::Config(format!(
                "rate_hz must be positive and at most {MAX_RATE_HZ}, got {}",
                config.rate_hz
            )));
        }
        let frames = clip.frames.len();
        if frames == 0 {
            return Err(ReferenceError::Clip("no frames".into()));
        }
        if !(clip.frame_time.is_finite() && clip.frame_time > 0.0) {
            return Err(ReferenceError::Clip(format!(
                "frame time must be positive, got {}",
                clip.frame_time
            )));
        }
        if let Some(f) = clip.frames.iter().position(|p| {
            p.rotations.len() != skeleton.len() || p.translations.len() != skeleton.len()
        }) {
            return Err(ReferenceError::Clip(format!(
                "frame {f} has {} rotations and {} translations for {} skeleton joints",
                clip.frames[f].rotations.len(),
                clip.frames[f].translations.len(),
                skeleton.len()
            )));
        }
        let nb = model.bodies.len();
        // Every per-step table holds steps × bodies entries (the largest 48 bytes each): bound them before the
        // resampling allocates, so an absurd rate (a fuzzed 1e9 Hz) is an error, not an out-of-memory kill.
        let steps = ((frames - 1) as f64 * clip.frame_time * config.rate_hz).floor() + 1.0;
        let samples = steps * nb.max(1) as f64;
        if samples.is_nan() || samples > MAX_REFERENCE_SAMPLES as f64 {
            return Err(ReferenceError::Config(format!(
                "{} s at rate_hz {} is {steps} steps × {nb} bodies, more than {MAX_REFERENCE_SAMPLES} samples \
                 (lower the rate or split the clip)",
                (frames - 1) as f64 * clip.frame_time,
                config.rate_hz
            )));
        }
        let topology = Topology::new(model);
        let frames_of: Vec<JointAxes> = (0..nb)
            .map(|b| joint_frame_of(model, &topology, b))
            .collect();
        let joint_frame: Vec<_> = frames_of.iter().map(|j| j.frame).collect();
        let joint_axes: Vec<_> = frames_of.iter().map(|j| j.axes).collect();
        let dofs: Vec<_> = frames_of.iter().map(|j| j.dofs).collect();

        // 1. Generalized coordinates of every clip frame, as channels: 3 root position + 4 per body, `(i, j, k, w)`.
        // Each frame is projected on its own; the channels are stored in groups of whole bodies (the root
        // position with the first), each group frame-major (`block[f·width + c]`), so that the hemisphere
        // continuity and the low-pass, which run along the frames, run on one thread per group. Per channel the
        // operations are the same whichever group holds it: the grouping does not change a bit.
        let channels = 3 + 4 * nb;
        let threads = thread_count(frames, config.threads);
        let mut bodies_of = ranges(nb, threads.min(nb));
        if bodies_of.is_empty() {
            // No body: one group, the root position.
            bodies_of.push(0..0);
        }
        // The channels `start..end` of each group.
        let cuts: Vec<_> = bodies_of
            .iter()
            .map(|r| {
                (
                    if r.start == 0 { 0 } else { 3 + 4 * r.start },
                    3 + 4 * r.end,
                )
            })
            .collect();
        let mut blocks: Vec<Table<f64>> = cuts
            .iter()
            .map(|&(start, end)| Table::new((end - start) * frames))
            .collect();
        {
            let parts = ranges(frames, pieces(threads));
            let mut pieces_of: Vec<_> = blocks
                .iter_mut()
                .zip(&cuts)
                .map(|(block, &(start, end))| block.pieces(&parts, end - start).into_iter())
                .collect();
            // Job `i`: frames `parts[i]`, with the `i`-th piece of every group.
            let jobs: Vec<_> = parts
                .iter()
                .map(|r| {
                    let fills: Vec<_> = pieces_of.iter_mut().filter_map(Iterator::next).collect();
                    (r.clone(), fills)
                })
                .collect();
            let coords = PoseCoords::new(model, skeleton);
            let cuts = &cuts;
            run(threads, jobs, |(r, mut fills)| {
                let mut coords = coords.clone();
                let mut q = vec![UnitQuaternion::identity(); nb];
                let mut row = vec![0.0; channels];
                for pose in &clip.frames[r] {
                    let root = coords.project(model, skeleton, &topology, pose, None, &mut q);
                    row[..3].copy_from_slice(root.as_slice());
                    for (b, q) in q.iter().enumerate() {
                        row[3 + 4 * b..7 + 4 * b].copy_from_slice(q.coords.as_slice());
                    }
                    for (fill, &(start, end)) in fills.iter_mut().zip(cuts) {
                        fill.extend_from_slice(&row[start..end]);
                    }
                }
            });
        }
        let mut blocks: Vec<Vec<f64>> = blocks.into_iter().map(Table::finish).collect();
        // 2. Hemisphere continuity (for filtering and differencing): each quaternion on the side of the one before,
        // in frame order; then the zero-phase low-pass at the clip rate.
        let filter = config
            .cutoff_hz
            .and_then(|fc| Butterworth2::new(fc, 1.0 / clip.frame_time));
        run(
            threads,
            blocks.iter_mut().zip(bodies_of.iter().zip(&cuts)).collect(),
            |(block, (bodies, &(start, end)))| {
                let width = end - start;
                for f in 1..frames {
                    let (before, row) = block[(f - 1) * width..(f + 1) * width].split_at_mut(width);
                    for b in bodies.clone() {
                        let o = 3 + 4 * b - start;
                        let prev = UnitQuaternion::new_unchecked(quaternion_at(before, o));
                        let q = UnitQuaternion::new_unchecked(quaternion_at(row, o));
                        let q = same_hemisphere(q, &prev);
                        row[o..o + 4].copy_from_slice(q.coords.as_slice());
                    }
                }
                if let Some(filter) = &filter {
                    filter.filtfilt_interleaved(block, width, &mut Vec::new());
                }
            },
        );

        // Catmull–Rom resampling at the simulation rate, each step on its own.
        let h = 1.0 / config.rate_hz;
        let duration = (frames - 1) as f64 * clip.frame_time;
        let steps = (duration / h + 1e-9).floor() as usize + 1;
        let mut root_pos = Table::new(steps);
        let mut rot = Table::new(steps * nb);
        {
            let threads = thread_count(steps, config.threads);
            let parts = ranges(steps, pieces(threads));
            let pos_parts = root_pos.pieces(&parts, 1);
            let rot_parts = rot.pieces(&parts, nb);
            let jobs: Vec<_> = parts
                .into_iter()
                .zip(pos_parts.into_iter().zip(rot_parts))
                .collect();
            let (blocks, cuts, joint_frame, joint_axes, dofs) =
                (&blocks, &cuts, &joint_frame, &joint_axes, &dofs);
            run(threads, jobs, |(r, (mut pos, mut rot))| {
                let mut buf = vec![0.0; channels];
                for k in r {
                    let u = (k as f64 * h / clip.frame_time).min((frames - 1) as f64);
                    for (block, &(start, end)) in blocks.iter().zip(cuts) {
                        catmull_rom(block, end - start, u, &mut buf[start..end]);
                    }
                    pos.push(Vector3::new(buf[0], buf[1], buf[2]));
                    for b in 0..nb {
                        let q = UnitQuaternion::from_quaternion(quaternion_at(&buf, 3 + 4 * b));
                        rot.push(project(&q, &joint_frame[b], &joint_axes[b], dofs[b]));
                    }
                }
            });
        }
        let (root_pos, rot) = (root_pos.finish(), rot.finish());
        // The filtered channels are dead from here: their memory goes back before the larger tables below are
        // taken (a lower peak, and an allocator that kept it can hand it out again).
        drop(blocks);

        // 3. The root's finite-difference velocities and accelerations (the joints' are computed where read).
        let (root_vel, root_acc) = differentiate(&root_pos, h);

        let mut reference = ReferenceMotion {
            h,
            steps,
            gravity: GRAVITY,
            topology,
            joint_frame,
            joint_axes,
            dofs,
            root_pos,
            root_vel,
            root_acc,
            rot,
            feedforward: Vec::new(),
            target_velocity: Vec::new(),
            anchor_bias: Vec::new(),
            twists: Vec::new(),
        };
        // 4. The discrete-step inverse dynamics (the feedforward).
        reference.compute_inverse_dynamics(config.threads);
        Ok(reference)
    }

    /// Number of bodies.
    pub fn bodies(&self) -> usize {
        self.topology.len()
    }

    /// Duration of the reference (s).
    pub fn duration(&self) -> f64 {
        (self.steps - 1) as f64 * self.h
    }

    /// The generalized state at sample `k`, its joints' velocities and accelerations computed into `vel` and
    /// `acc` (see [`ReferenceMotion::velocity`]).
    pub fn state<'a>(
        &'a self,
        k: usize,
        vel: &'a mut Vec<Vector3<f64>>,
        acc: &'a mut Vec<Vector3<f64>>,
    ) -> GeneralizedState<'a> {
        let nb = self.bodies();
        vel.clear();
        acc.clear();
        for (u, a) in (0..nb).map(|b| self.motion(k, b)) {
            vel.push(u);
            acc.push(a);
        }
        GeneralizedState {
            root_pos: self.root_pos[k],
            root_vel: self.root_vel[k],
            root_acc: self.root_acc[k],
            rot: &self.rot[k * nb..(k + 1) * nb],
            vel,
            acc,
        }
    }

    /// The angular velocity of body `b` relative to its parent at sample `k` (rad/s, body frame; the root: its
    /// world angular velocity in its frame): the backward difference `log(q_{k−1}⁻¹·q_k)/h`, extrapolated
    /// linearly at sample 0. Two rotation logarithms at most.
    pub fn velocity(&self, k: usize, b: usize) -> Vector3<f64> {
        match (k, self.steps) {
            (_, 0 | 1) => Vector3::zeros(),
            (0, 2) => self.difference(1, b),
            (0, _) => 2.0 * self.difference(1, b) - self.difference(2, b),
            _ => self.difference(k, b),
        }
    }

    /// The angular acceleration of body `b` relative to its parent at sample `k` (rad/s², body frame): the
    /// forward difference of [`ReferenceMotion::velocity`]; the last sample repeats the one before.
    pub fn acceleration(&self, k: usize, b: usize) -> Vector3<f64> {
        self.motion(k, b).1
    }

    /// [`ReferenceMotion::velocity`] and [`ReferenceMotion::acceleration`] together, the velocity computed once.
    pub fn motion(&self, k: usize, b: usize) -> (Vector3<f64>, Vector3<f64>) {
        let u = self.velocity(k, b);
        if self.steps < 2 {
            return (u, Vector3::zeros());
        }
        // The difference of samples `j` and `j + 1`, `j = min(k, steps − 2)`: one of the two is `u`.
        let acc = if k + 1 < self.steps {
            (self.velocity(k + 1, b) - u) / self.h
        } else {
            (u - self.velocity(k - 1, b)) / self.h
        };
        (u, acc)
    }

    /// `log(q_{k−1}⁻¹·q_k)/h` of body `b` (`k ≥ 1`).
    fn difference(&self, k: usize, b: usize) -> Vector3<f64> {
        let nb = self.bodies();
        let (a, c) = (self.rot[(k - 1) * nb + b], self.rot[k * nb + b]);
        log_rotation(&(a.inverse() * c)) / self.h
    }

    /// Every body's pose, twist and acceleration at sample `k` (velocities and accelerations from
    /// [`ReferenceMotion::velocity`] and [`ReferenceMotion::acceleration`]; for poses alone,
    /// [`ReferenceMotion::poses`] is cheaper).
    pub fn kinematics(&self, k: usize, out: &mut Vec<BodyKinematics>) {
        let nb = self.bodies();
        self.topology.forward_by(
            (self.root_pos[k], self.root_vel[k], self.root_acc[k]),
            &self.rot[k * nb..(k + 1) * nb],
            |b| self.motion(k, b),
            out,
        );
    }

    /// Every body's pose alone at sample `k` (the same bits as [`ReferenceMotion::kinematics`]' poses).
    pub fn poses(&self, k: usize, out: &mut Vec<BodyPose>) {
        let nb = self.bodies();
        self.topology
            .poses(&self.root_pos[k], &self.rot[k * nb..(k + 1) * nb], out);
    }

    /// The joint rotation of body `b` at sample `k` (root: world rotation).
    pub fn rotation(&self, k: usize, b: usize) -> UnitQuaternion<f64> {
        self.rot[k * self.bodies() + b]
    }

    /// The joint rotation of body `b` at fraction `s` from sample `k` towards `k + 1` (slerp).
    pub fn rotation_between(&self, k: usize, s: f64, b: usize) -> UnitQuaternion<f64> {
        let q = self.rotation(k, b);
        if s == 0.0 || k + 1 >= self.steps {
            q
        } else {
            q.slerp(&self.rotation(k + 1, b), s)
        }
    }

    /// The body twist `(ω; v)` of body `b` at sample `k` (see [`ReferenceMotion::twists`]).
    pub fn twist(&self, k: usize, b: usize) -> nalgebra::Vector6<f64> {
        let (w, v) = self.twists[k * self.bodies() + b];
        crate::math::spatial::twist(&w, &v)
    }
}

/// The joint frame and DOFs of body `b` (see [`ReferenceMotion::joint_frame`]).
fn joint_frame_of(model: &Model, topo: &Topology, b: usize) -> JointAxes {
    let id = UnitQuaternion::identity();
    if topo.joint[b] == usize::MAX {
        return JointAxes {
            frame: id,
            axes: id,
            dofs: Dofs::Ball,
        };
    }
    let joint = &model.joints[topo.joint[b]];
    let rest = joint.parent_from_child.rotation;
    let (axes, dofs) = match &joint.kind {
        JointKind::Ball => (id, Dofs::Ball),
        JointKind::Hinge { axis } => (frame_with_axes(axis, None), Dofs::Hinge),
        JointKind::Universal { axes } => {
            (frame_with_axes(&axes[0], Some(&axes[1])), Dofs::Universal)
        }
    };
    JointAxes {
        frame: rest * axes,
        axes,
        dofs,
    }
}

/// A joint's frame `F = rest·A`, its axes basis `A` (child rest frame) and DOFs.
struct JointAxes {
    frame: UnitQuaternion<f64>,
    axes: UnitQuaternion<f64>,
    dofs: Dofs,
}

/// A rotation whose x axis is `x` and whose y axis is `y` made orthogonal to it (any perpendicular when `None`
/// or parallel).
fn frame_with_axes(x: &Unit<Vector3<f64>>, y: Option<&Unit<Vector3<f64>>>) -> UnitQuaternion<f64> {
    let guess = y.map(|y| y.into_inner()).unwrap_or_else(|| {
        if x.x.abs() < 0.9 {
            Vector3::x()
        } else {
            Vector3::y()
        }
    });
    let mut yv = guess - x.into_inner() * x.dot(&guess);
    if yv.norm() < 1e-9 {
        yv = if x.x.abs() < 0.9 {
            Vector3::x()
        } else {
            Vector3::y()
        };
        yv -= x.into_inner() * x.dot(&yv);
    }
    let yv = yv.normalize();
    let zv = x.cross(&yv);
    UnitQuaternion::from_rotation_matrix(&Rotation3::from_matrix_unchecked(Matrix3::from_columns(
        &[x.into_inner(), yv, zv],
    )))
}

/// Projects a joint rotation onto the joint's DOFs. With the joint frame `F = rest·A` (`A` maps x, y to the
/// joint axes in the child's rest frame), a hinge is `q = F·R_x(θ)·A⁻¹` and a universal joint
/// `q = F·R_x(θ₁)·R_y(θ₂)·A⁻¹`; `m = F⁻¹·q·A` is reduced to its twist about x (hinge) or to the first two angles of
/// its x-y-z decomposition (universal). Ball joints are returned unchanged.
pub(super) fn project(
    q: &UnitQuaternion<f64>,
    frame: &UnitQuaternion<f64>,
    axes: &UnitQuaternion<f64>,
    dofs: Dofs,
) -> UnitQuaternion<f64> {
    if dofs == Dofs::Ball {
        return *q;
    }
    let m = frame.inverse() * q * axes;
    let m = match dofs {
        Dofs::Ball => m,
        Dofs::Hinge => {
            let c = m.quaternion();
            let twist = nalgebra::Quaternion::new(c.w, c.i, 0.0, 0.0);
            if twist.norm() < 1e-12 {
                UnitQuaternion::identity()
            } else {
                UnitQuaternion::from_quaternion(twist)
            }
        }
        Dofs::Universal => {
            let [a, b, _] = EulerOrder::XYZ.to_angles(&m);
            EulerOrder::XYZ.to_quaternion([a, b, 0.0])
        }
    };
    frame * m * axes.inverse()
}

/// The quaternion stored as `(i, j, k, w)` at `row[o..o + 4]`.
fn quaternion_at(row: &[f64], o: usize) -> nalgebra::Quaternion<f64> {
    nalgebra::Quaternion::new(row[o + 3], row[o], row[o + 1], row[o + 2])
}
