//! A dynamics [`World`] with collision detection in its loop: before each step the colliders are placed on the
//! bodies, contacts within the tolerance ε are detected (persistent manifolds), turned into contact points with
//! one friction and restitution coefficient, and handed to the step.

use nalgebra::Isometry3;

use super::collision::{Collider, CollisionError, CollisionWorld, Contact, PairFilter};
use crate::dynamics::{ContactError, ContactPoint, StepError, StepReport, World};

/// Why a [`ContactWorld`] step failed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ContactStepError {
    /// Collision detection refused its input.
    #[error("collision detection: {0}")]
    Collision(#[from] CollisionError),
    /// The detected contacts were refused (a collider on a body the world does not have).
    #[error("contacts: {0}")]
    Contact(#[from] ContactError),
    /// The dynamics step failed.
    #[error(transparent)]
    Step(#[from] StepError),
}

/// A world, its colliders and the contact parameters.
pub struct ContactWorld {
    /// The bodies, joints and forces (contacts are set by [`ContactWorld::step`]).
    pub world: World,
    /// Shapes on the world's bodies (body indices are world body indices) and static shapes.
    pub colliders: Vec<Collider>,
    /// Body pairs that never touch.
    pub filter: PairFilter,
    /// Contact tolerance ε (m): points closer than this count as contacts.
    pub tolerance: f64,
    /// Coulomb friction coefficient of every contact.
    pub friction: f64,
    /// Newton restitution coefficient of every contact.
    pub restitution: f64,
    detector: CollisionWorld,
    frames: Vec<Isometry3<f64>>,
    found: Vec<Contact>,
    points: Vec<ContactPoint>,
}

impl ContactWorld {
    /// `world` with `colliders`, ε = 1 mm, μ = 0.5, e = 0 and no pair filtered.
    pub fn new(world: World, colliders: Vec<Collider>) -> ContactWorld {
        ContactWorld {
            world,
            colliders,
            filter: PairFilter::new(),
            tolerance: 1e-3,
            friction: 0.5,
            restitution: 0.0,
            detector: CollisionWorld::new(),
            frames: Vec::new(),
            found: Vec::new(),
            points: Vec::new(),
        }
    }

    /// The contacts found before the last step.
    pub fn contacts(&self) -> &[ContactPoint] {
        &self.points
    }

    /// Detects contacts at the current poses, then steps the world by `h`.
    pub fn step(&mut self, h: f64) -> Result<StepReport, ContactStepError> {
        self.frames.clear();
        self.frames.extend(
            self.world
                .bodies()
                .iter()
                .map(|b| Isometry3::from_parts(b.position.into(), b.orientation)),
        );
        self.detector.detect_into(
            &self.frames,
            &self.colliders,
            &self.filter,
            self.tolerance,
            &mut self.found,
        )?;
        self.points.clear();
        self.points.extend(
            self.found
                .iter()
                .filter_map(|c| ContactPoint::from_detection(c, self.friction, self.restitution)),
        );
        self.world.set_contacts(&self.points, &[])?;
        Ok(self.world.step(h)?)
    }
}
