//! Contacts in the step (Cline §2.7, §4.4.2, §4.8.2; eq. 3.7 for post-stabilization).
//!
//! The caller detects contacts (e.g. with [`crate::contact::collision`]) and hands them to
//! [`crate::dynamics::World::set_contacts`] before a step; they hold for that step only. In the step:
//!
//! 1. the joint system `[M̃ −Jᵀ; J 0]` is factored and solved as without contacts, giving the free velocity `v*`;
//! 2. the effective inverse mass `W` (joints included) is formed only where contacts need it: the 6×6 blocks
//!    `W_ij` between contact bodies, one sparse solve per unit wrench on a contact body with the same
//!    factorisation (Cline §4.8.2). `J_c W J_cᵀ` is then assembled from those blocks;
//! 3. the contact LCP (normal rows, an m-direction friction pyramid, Newton restitution eq. 4.16) is solved by
//!    Lemke's method (or projected Gauss–Seidel on a boxed friction model);
//! 4. `v(t+h)` is `v*` plus the response to the contact impulses (a solve with `b = 0` that only substitutes the
//!    tree fronts the impulses reach): by linearity the solve with the impulses added to the momentum, so the
//!    stiff drives and the contacts share one implicit effective mass.
//!
//! Post-stabilization solves the position-level LCP of eq. 3.7 in each projection: contacts are pushed apart (to
//! the position skin), never pulled together, while the joints hold. See `docs/contact.md`.

mod delassus;
pub(crate) mod penalty;
pub(crate) mod position;
mod rows;
mod split;
pub(crate) mod velocity;

use nalgebra::{DMatrix, DVector, Matrix6, Vector3, Vector6};

use crate::contact::collision::Contact;
use crate::contact::lcp::{Lemke, LemkeOptions, Pgs};
use crate::dynamics::body::Body;
use rows::JRow;

pub use penalty::{PenaltyContact, PenaltyOptions};

/// The other side of a contact.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ContactOther {
    /// Static geometry (the ground, a wall): infinite mass, at rest.
    Static,
    /// Kinematic geometry moved by the game (a swung bat, a moving platform): infinite mass, its material point
    /// at the contact moving at `velocity` (m/s, world) through the step. The contact drives the body's relative
    /// velocity, not its absolute one, toward the LCP's conditions.
    Moving {
        /// The other side's point velocity (m/s, world).
        velocity: Vector3<f64>,
    },
    /// Another body of the world.
    Body(usize),
    /// A free body outside the world (a projectile), by index in the `free` slice of
    /// [`crate::dynamics::World::set_contacts`]: it takes part in the contact impulse with its own mass, and its
    /// velocity after the step is read back from [`crate::dynamics::World::free_bodies`].
    Free(usize),
}

/// One contact point for the next step.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ContactPoint {
    /// The body the contact pushes along `+normal` (a world body index).
    pub body: usize,
    /// What it touches (pushed along `−normal`).
    pub other: ContactOther,
    /// Witness point on `body`'s surface (world, m).
    pub point: Vector3<f64>,
    /// Witness point on the other side's surface (world, m).
    pub other_point: Vector3<f64>,
    /// Unit contact normal (world), from the other side toward `body`.
    pub normal: Vector3<f64>,
    /// Coulomb friction coefficient μ ≥ 0.
    pub friction: f64,
    /// Newton restitution coefficient e ∈ [0, 1] (Cline eq. 4.16).
    pub restitution: f64,
}

impl ContactOther {
    /// The velocity of a moving surface (zero for every other side: a body's velocity is in the step).
    pub fn surface_velocity(&self) -> Vector3<f64> {
        match self {
            ContactOther::Moving { velocity } => *velocity,
            _ => Vector3::zeros(),
        }
    }
}

impl ContactPoint {
    /// Signed gap along the normal (m): negative when the shapes overlap.
    pub fn separation(&self) -> f64 {
        self.normal.dot(&(self.point - self.other_point))
    }

    /// A detected contact as a contact point: `body` is the detection's side b when it is a body (side a then
    /// becomes the other side), else side a against static geometry. `None` when both sides are static.
    pub fn from_detection(c: &Contact, friction: f64, restitution: f64) -> Option<ContactPoint> {
        let (body, other, point, other_point, normal) = match (c.a, c.b) {
            (a, Some(b)) => (
                b,
                a.map_or(ContactOther::Static, ContactOther::Body),
                c.point_b.coords,
                c.point_a.coords,
                c.normal,
            ),
            (Some(a), None) => (
                a,
                ContactOther::Static,
                c.point_a.coords,
                c.point_b.coords,
                -c.normal,
            ),
            (None, None) => return None,
        };
        Some(ContactPoint {
            body,
            other,
            point,
            other_point,
            normal,
            friction,
            restitution,
        })
    }
}

/// The impulse a contact applied over the last step (on its `body`; the other side received the opposite).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct ContactImpulse {
    /// Normal impulse λ_n ≥ 0 (N·s).
    pub normal: f64,
    /// Friction impulse (world, N·s), tangent to the contact.
    pub friction: Vector3<f64>,
    /// Total impulse `λ_n·n + friction` (world, N·s).
    pub impulse: Vector3<f64>,
}

/// Which LCP solver the contacts use.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ContactSolver {
    /// Lemke's method on the friction-pyramid LCP (exact; the default).
    Lemke,
    /// Projected Gauss–Seidel on two tangent rows per contact boxed by ±μλ_n (approximate, a game's choice).
    Pgs {
        /// Sweep limit.
        max_sweeps: usize,
        /// Stop when no row changes by more than this (N·s).
        tolerance: f64,
    },
    /// No LCP: each contact is a spring–damper force (Hasegawa et al.'s penalty contact) whose gradients enter
    /// the linearly implicit step like a drive's; post-stabilization then corrects the joints only (see
    /// `docs/contact.md`, "Penalty contact"). Takes `Static` and `Body` others; `Free` is refused.
    Penalty(PenaltyOptions),
}

/// Contact settings of a world.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ContactOptions {
    /// The LCP solver. Lemke falls back to PGS for a step if it fails (reported in the step's report).
    pub solver: ContactSolver,
    /// Friction directions m of the pyramid (even, ≥ 4): the first one is aligned with the contact's sliding
    /// direction, so sliding friction has the Coulomb magnitude μλ_n exactly.
    pub friction_directions: usize,
    /// Approach speeds (m/s) below this get no restitution, so resting contacts do not bounce.
    pub restitution_threshold: f64,
    /// Gap (m) to which post-stabilization pushes a penetrating contact (the position LCP's target is `+skin`
    /// instead of 0). What a push moves besides its linearisation (its rotations, through the placement on the
    /// joint anchors: up to ≈ 1e-6 m on a pressed foot) then ends outside the floor instead of just inside it,
    /// where it took another projection; the velocity LCP lets a step close a gap down to the skin, not below. 0
    /// pushes to contact exactly (the model before the seventeenth pass); the default 1e-6 m (a thousandth of a
    /// millimetre) leaves a second projection to 4 % of a pressed foot's steps, against 30 % at 1e-7
    /// (`docs/contact.md`, "Skin").
    pub position_skin: f64,
}

impl Default for ContactOptions {
    fn default() -> Self {
        ContactOptions {
            solver: ContactSolver::Lemke,
            friction_directions: 4,
            restitution_threshold: 0.1,
            position_skin: 1e-6,
        }
    }
}

/// Invalid contact input (never a panic).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ContactError {
    /// A contact names a body the world does not have.
    #[error("contact {contact}: body {body} out of range ({bodies} bodies)")]
    Body {
        /// Index of the contact.
        contact: usize,
        /// The offending body index.
        body: usize,
        /// Bodies in the world.
        bodies: usize,
    },
    /// A contact names a free body that was not given.
    #[error("contact {contact}: free body {free} out of range ({given} given)")]
    Free {
        /// Index of the contact.
        contact: usize,
        /// The offending free body index.
        free: usize,
        /// Free bodies given.
        given: usize,
    },
    /// Non-finite numbers, a normal that is not unit length, μ < 0 or e outside [0, 1], a contact of a body
    /// with itself, or a free body without positive mass.
    #[error("contact {contact}: {what}")]
    Invalid {
        /// Index of the contact (or free body, for free-body errors).
        contact: usize,
        /// What is wrong.
        what: &'static str,
    },
    /// Unusable options.
    #[error("contact options: {0}")]
    Options(&'static str),
}

/// What the contacts did in a step.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct ContactReport {
    /// Contact points in the step.
    pub contacts: usize,
    /// Size of the velocity LCP.
    pub lcp_size: usize,
    /// Lemke pivots of the velocity LCP.
    pub pivots: usize,
    /// PGS sweeps of the velocity LCP.
    pub sweeps: usize,
    /// Complementarity residual of the velocity LCP (for PGS, its boxed residual).
    pub residual: f64,
    /// Lemke failed and PGS solved the step instead.
    pub fell_back: bool,
    /// Position-level LCPs solved by post-stabilization.
    pub projections: usize,
    /// Deepest penetration after the step and its stabilization (m, ≥ 0).
    pub max_penetration: f64,
}

/// The contact part of a world: the contacts of the next step, their buffers and solvers.
#[derive(Debug, Default)]
pub(crate) struct ContactState {
    pub options: ContactOptions,
    pub points: Vec<ContactPoint>,
    pub free: Vec<Body>,
    pub impulses: Vec<ContactImpulse>,
    /// The body of each entry of `impulses` (the PGS warm start matches contacts by index and body).
    impulse_bodies: Vec<usize>,
    /// Witness points in their body's frame (the other side's for a world body, else the world point), so the
    /// gaps follow the bodies through post-stabilization.
    local: Vec<(Vector3<f64>, Vector3<f64>)>,
    /// Inverse mass matrices of the free bodies.
    free_inv: Vec<Matrix6<f64>>,
    /// Distinct world bodies touched by contacts, and each world body's index among them.
    bodies: Vec<usize>,
    slot: Vec<usize>,
    /// Blocks `W_ij` between contact bodies, row-major over `bodies`.
    w: Vec<Matrix6<f64>>,
    rows: Vec<JRow>,
    /// Friction direction vectors of the velocity rows after the normals (world).
    directions: Vec<Vector3<f64>>,
    /// (cos, sin) of the pyramid's first m/2 direction angles (libm's sincos was 1 % of an 8-contact step).
    direction_angles: Vec<(f64, f64)>,
    block_solves: delassus::BlockSolves,
    /// Buffers of the LCPs, sized by the largest contact set seen so that a warm step allocates nothing: the
    /// Delassus matrix `J_c W J_cᵀ`, its `W J_rᵀ` columns (stored transposed per body) and one row's entries
    /// (`delassus.rs`), the velocities before the step, the sliding
    /// velocities, the normal and friction right-hand sides, the friction coefficients, the LCP (the pyramid's
    /// matrix, the right-hand side) and its solution, the momentum or wrench of the final solve, and the contacts
    /// a projection takes part in.
    delassus: DMatrix<f64>,
    /// The position LCP's Delassus matrix, swapped into `delassus` while a projection runs: one shared buffer
    /// changed shape (and was zeroed) twice a step.
    position_delassus: DMatrix<f64>,
    delassus_y: Vec<f64>,
    /// The pyramid's formed rows, their Delassus matrix, and each row's formed row and sign
    /// (`fill_pyramid_delassus`).
    delassus_formed: Vec<usize>,
    pub(super) delassus_half: DMatrix<f64>,
    pub(super) delassus_mirror: Vec<(usize, f64)>,
    delassus_line: Vec<f64>,
    before: Vec<Vector6<f64>>,
    slides: Vec<Vector3<f64>>,
    qn: DVector<f64>,
    qd: DVector<f64>,
    mu: Vec<f64>,
    lcp_m: DMatrix<f64>,
    lcp_q: DVector<f64>,
    z: DVector<f64>,
    wrench: Vec<Vector6<f64>>,
    projected: Vec<usize>,
    lemke: Lemke,
    /// A second Lemke for the position LCPs, so each keeps its own warm-start basis.
    lemke_position: Lemke,
    pgs: Pgs,
    /// The velocity LCP's independent parts, solved one by one when there are several (`split.rs`). Boxed and
    /// optional so that a solve takes it out and puts it back by moving a pointer: a `mem::take` of the struct
    /// (which holds a `Lemke`) wrote a default one and ran its drop glue (≈ 100 simulated instruction-cache misses
    /// of an 8-contact step). `None` only in a `ContactState::default()`, which then solves unsplit.
    parts: Option<Box<split::Parts>>,
    /// Buffers of penalty contact.
    penalty: penalty::PenaltyState,
}

impl ContactState {
    pub fn new() -> Self {
        let warm = || {
            Lemke::new(LemkeOptions {
                warm_start: true,
                ..LemkeOptions::default()
            })
        };
        ContactState {
            lemke: warm(),
            lemke_position: warm(),
            parts: Some(Box::new(split::Parts::new(warm()))),
            ..ContactState::default()
        }
    }

    /// Checks and stores the contacts of the next step.
    pub fn set(
        &mut self,
        world_bodies: &[Body],
        points: &[ContactPoint],
        free: &[Body],
    ) -> Result<(), ContactError> {
        validate(world_bodies.len(), points, free)?;
        if self.penalty() {
            refuse_free(points)?;
        }
        self.points.clear();
        self.points.extend_from_slice(points);
        self.free.clear();
        self.free.extend_from_slice(free);
        self.free_inv.clear();
        for (k, f) in free.iter().enumerate() {
            let inv = f
                .mass_matrix()
                .try_inverse()
                .filter(|m| m.iter().all(|v| v.is_finite()))
                .ok_or(ContactError::Invalid {
                    contact: k,
                    what: "free body mass matrix is singular",
                })?;
            self.free_inv.push(inv);
        }
        self.local.clear();
        for p in points {
            let on_body = world_bodies[p.body].point_local(&p.point);
            let on_other = match p.other {
                ContactOther::Body(o) => world_bodies[o].point_local(&p.other_point),
                _ => p.other_point,
            };
            self.local.push((on_body, on_other));
        }
        self.bodies.clear();
        self.slot.clear();
        self.slot.resize(world_bodies.len(), usize::MAX);
        for p in points {
            let touched = [
                Some(p.body),
                match p.other {
                    ContactOther::Body(o) => Some(o),
                    _ => None,
                },
            ];
            for b in touched.into_iter().flatten() {
                if self.slot[b] == usize::MAX {
                    self.slot[b] = self.bodies.len();
                    self.bodies.push(b);
                }
            }
        }
        Ok(())
    }

    /// Whether the next step has contacts.
    pub fn active(&self) -> bool {
        !self.points.is_empty()
    }

    /// Forgets the step's contacts (their impulses and free bodies stay readable until the next step).
    pub fn clear(&mut self) {
        self.points.clear();
    }

    /// The warm-start bases of the velocity and position Lemke solvers (for state snapshots).
    pub fn warm_bases(&self) -> [Vec<usize>; 2] {
        [
            self.lemke.warm_basis().to_vec(),
            self.lemke_position.warm_basis().to_vec(),
        ]
    }

    /// The last step's impulses with their bodies: the PGS warm start of the next step (for state snapshots).
    pub fn warm_impulses(&self) -> Vec<(usize, ContactImpulse)> {
        self.impulse_bodies
            .iter()
            .copied()
            .zip(self.impulses.iter().copied())
            .collect()
    }

    /// Restores [`ContactState::warm_impulses`] (after [`ContactState::clear_points`], which forgets them).
    pub fn set_warm_impulses(&mut self, warm: &[(usize, ContactImpulse)]) {
        self.impulse_bodies.clear();
        self.impulses.clear();
        for &(body, impulse) in warm {
            self.impulse_bodies.push(body);
            self.impulses.push(impulse);
        }
    }

    /// Restores [`ContactState::warm_bases`].
    pub fn set_warm_bases(&mut self, bases: &[Vec<usize>; 2]) {
        self.lemke.set_warm_basis(&bases[0]);
        self.lemke_position.set_warm_basis(&bases[1]);
    }

    /// Forgets the contacts set for the next step and the results of the last one.
    pub fn clear_points(&mut self) {
        self.clear();
        self.clear_results();
    }

    /// Forgets the results of the previous step (called by a step without contacts).
    pub fn clear_results(&mut self) {
        self.impulses.clear();
        self.free.clear();
    }

    /// The gap of contact `k` (m) at the bodies' current poses (free bodies and static points do not move).
    pub fn gap(&self, k: usize, world_bodies: &[Body]) -> f64 {
        let p = &self.points[k];
        let (on_body, on_other) = &self.local[k];
        let a = world_bodies[p.body].point_world(on_body);
        let b = match p.other {
            ContactOther::Body(o) => world_bodies[o].point_world(on_other),
            _ => *on_other,
        };
        p.normal.dot(&(a - b))
    }

    /// Whether contact `k` takes part in post-stabilization (not with a free body: see `position.rs`).
    pub fn positional(&self, k: usize) -> bool {
        !matches!(self.points[k].other, ContactOther::Free(_))
    }

    /// Deepest penetration (m, ≥ 0) at the current poses, over the contacts post-stabilization corrects.
    pub fn max_penetration(&self, world_bodies: &[Body]) -> f64 {
        (0..self.points.len())
            .filter(|&k| self.positional(k))
            .map(|k| -self.gap(k, world_bodies))
            .fold(0.0, f64::max)
    }
}

/// Checks a contact set and its free bodies.
fn validate(bodies: usize, points: &[ContactPoint], free: &[Body]) -> Result<(), ContactError> {
    for (k, f) in free.iter().enumerate() {
        let finite = f
            .position
            .iter()
            .chain(f.velocity.iter())
            .all(|v| v.is_finite())
            && f.inertia_body.iter().all(|v| v.is_finite())
            && f.orientation.coords.iter().all(|v| v.is_finite());
        if !(finite && f.mass.is_finite() && f.mass > 0.0) {
            return Err(ContactError::Invalid {
                contact: k,
                what: "free body with non-finite state or without positive mass",
            });
        }
    }
    for (k, p) in points.iter().enumerate() {
        let invalid = |what| Err(ContactError::Invalid { contact: k, what });
        if p.body >= bodies {
            return Err(ContactError::Body {
                contact: k,
                body: p.body,
                bodies,
            });
        }
        match p.other {
            ContactOther::Body(o) if o >= bodies => {
                return Err(ContactError::Body {
                    contact: k,
                    body: o,
                    bodies,
                });
            }
            ContactOther::Body(o) if o == p.body => {
                return invalid("a body in contact with itself");
            }
            ContactOther::Free(f) if f >= free.len() => {
                return Err(ContactError::Free {
                    contact: k,
                    free: f,
                    given: free.len(),
                });
            }
            _ => {}
        }
        let finite = p
            .point
            .iter()
            .chain(p.other_point.iter())
            .chain(p.normal.iter())
            .all(|v| v.is_finite());
        if !finite {
            return invalid("non-finite point or normal");
        }
        if (p.normal.norm() - 1.0).abs() > 1e-6 {
            return invalid("normal is not unit length");
        }
        if !(p.friction.is_finite() && p.friction >= 0.0) {
            return invalid("friction must be finite and ≥ 0");
        }
        if !(0.0..=1.0).contains(&p.restitution) {
            return invalid("restitution must lie in [0, 1]");
        }
    }
    Ok(())
}

/// Penalty contact takes static and world-body others only: a free body is outside the world's implicit system,
/// so its spring could not be integrated implicitly with it.
pub(crate) fn refuse_free(points: &[ContactPoint]) -> Result<(), ContactError> {
    match points
        .iter()
        .position(|p| matches!(p.other, ContactOther::Free(_)))
    {
        Some(contact) => Err(ContactError::Invalid {
            contact,
            what: "penalty contact takes Static and Body others only, not a free body (use Lemke or PGS)",
        }),
        None => Ok(()),
    }
}

/// Checks contact options.
pub(crate) fn validate_options(o: &ContactOptions) -> Result<(), ContactError> {
    if let ContactSolver::Penalty(p) = o.solver {
        if !p.valid() {
            return Err(ContactError::Options(
                "penalty contact needs a finite period_steps > 0 and finite damping_ratio, friction_damping ≥ 0",
            ));
        }
    }
    if o.friction_directions < 4 || o.friction_directions % 2 != 0 {
        return Err(ContactError::Options(
            "friction_directions must be even and at least 4 (each direction's negative is in the set)",
        ));
    }
    if !(o.restitution_threshold.is_finite() && o.restitution_threshold >= 0.0) {
        return Err(ContactError::Options(
            "restitution_threshold must be finite and ≥ 0",
        ));
    }
    if !(o.position_skin.is_finite() && o.position_skin >= 0.0) {
        return Err(ContactError::Options(
            "position_skin must be finite and ≥ 0",
        ));
    }
    if let ContactSolver::Pgs {
        max_sweeps,
        tolerance,
    } = o.solver
    {
        if max_sweeps == 0 || !(tolerance.is_finite() && tolerance >= 0.0) {
            return Err(ContactError::Options(
                "PGS needs at least one sweep and a finite tolerance ≥ 0",
            ));
        }
    }
    Ok(())
}
