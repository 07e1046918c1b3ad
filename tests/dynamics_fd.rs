//! Finite-difference checks of every constraint Jacobian and every force gradient (central differences in
//! twist coordinates, `q' = exp(δθ)·q`, several random states; relative error ≤ 1e-6).

mod common;

use common::Lcg;
use flinch::dynamics::{
    BallJoint, Body, Constraint, Damping, FixedJoint, Force, ForceFrame, Gravity, HingeJoint,
    JointDrive, PenaltyContact, PositionSpring, Prescribed, UniversalJoint, UserForce,
};
use nalgebra::{Matrix3, Matrix6, UnitQuaternion, Vector3, Vector6};

const EPS: f64 = 1e-6;
const TOL: f64 = 1e-6;

fn rvec(rng: &mut Lcg, s: f64) -> Vector3<f64> {
    Vector3::new(
        rng.next_f64() - 0.5,
        rng.next_f64() - 0.5,
        rng.next_f64() - 0.5,
    ) * (2.0 * s)
}

fn rquat(rng: &mut Lcg, s: f64) -> UnitQuaternion<f64> {
    UnitQuaternion::from_scaled_axis(rvec(rng, s))
}

fn random_body(rng: &mut Lcg) -> Body {
    let r = rquat(rng, 3.0).to_rotation_matrix().into_inner();
    let d = Vector3::new(
        0.5 + rng.next_f64(),
        0.5 + rng.next_f64(),
        0.5 + rng.next_f64(),
    );
    let inertia: Matrix3<f64> = r * Matrix3::from_diagonal(&d) * r.transpose();
    let mut b = Body::new(
        1.0 + rng.next_f64(),
        inertia,
        rvec(rng, 1.0),
        rquat(rng, 3.0),
    );
    b.velocity = Vector6::from_iterator((0..6).map(|_| 4.0 * (rng.next_f64() - 0.5)));
    b
}

/// Moves all bodies a little (so g ≠ 0 where the constraint was built at the original state).
fn jiggle(bodies: &mut [Body], rng: &mut Lcg) {
    for b in bodies {
        let d = Vector6::from_iterator((0..6).map(|_| 0.6 * (rng.next_f64() - 0.5)));
        b.displace(&d);
    }
}

fn unit(j: usize, s: f64) -> Vector6<f64> {
    let mut d = Vector6::zeros();
    d[j] = s;
    d
}

fn rel_err(fd: &Matrix6<f64>, an: &Matrix6<f64>) -> f64 {
    (fd - an).norm() / an.norm().max(1.0)
}

fn check_constraint(c: &dyn Constraint, bodies: &[Body], t: f64, name: &str) {
    let rows = c.rows();
    let mut g = [0.0; 6];
    let mut ja = Matrix6::zeros();
    let mut jb = Matrix6::zeros();
    c.evaluate(bodies, t, &mut g, &mut ja, &mut jb);
    let (a, b) = c.bodies();
    for (body, jac) in [(Some(a), ja), (b, jb)] {
        let Some(k) = body else { continue };
        let mut fd = Matrix6::zeros();
        for j in 0..6 {
            let mut gp = [0.0; 6];
            let mut gm = [0.0; 6];
            let (mut s1, mut s2) = (Matrix6::zeros(), Matrix6::zeros());
            let mut bp = bodies.to_vec();
            bp[k].displace(&unit(j, EPS));
            c.evaluate(&bp, t, &mut gp, &mut s1, &mut s2);
            let mut bm = bodies.to_vec();
            bm[k].displace(&unit(j, -EPS));
            c.evaluate(&bm, t, &mut gm, &mut s1, &mut s2);
            for r in 0..rows {
                fd[(r, j)] = (gp[r] - gm[r]) / (2.0 * EPS);
            }
        }
        let e = rel_err(&fd, &jac);
        assert!(
            e < TOL,
            "{name}: J of body {k} off by {e:e}\nfd {fd}\nJ {jac}"
        );
    }
}

fn check_force(f: &dyn Force, bodies: &[Body], name: &str) {
    let e0 = f.eval(bodies);
    let (a, b) = f.bodies();
    let idx: Vec<usize> = std::iter::once(a).chain(b).collect();
    for (kk, &k) in idx.iter().enumerate() {
        let mut fdp = [Matrix6::zeros(), Matrix6::zeros()];
        let mut fdv = [Matrix6::zeros(), Matrix6::zeros()];
        for j in 0..6 {
            let mut bp = bodies.to_vec();
            bp[k].displace(&unit(j, EPS));
            let mut bm = bodies.to_vec();
            bm[k].displace(&unit(j, -EPS));
            let (ep, em) = (f.eval(&bp), f.eval(&bm));
            let mut vp = bodies.to_vec();
            vp[k].velocity[j] += EPS;
            let mut vm = bodies.to_vec();
            vm[k].velocity[j] -= EPS;
            let (evp, evm) = (f.eval(&vp), f.eval(&vm));
            for i in 0..idx.len() {
                fdp[i].set_column(j, &((ep.wrench[i] - em.wrench[i]) / (2.0 * EPS)));
                fdv[i].set_column(j, &((evp.wrench[i] - evm.wrench[i]) / (2.0 * EPS)));
            }
        }
        for i in 0..idx.len() {
            let ep = rel_err(&fdp[i], &e0.dp[i][kk]);
            let ev = rel_err(&fdv[i], &e0.dv[i][kk]);
            assert!(
                ep < TOL,
                "{name}: df{i}/dp{kk} off by {ep:e}\nfd {}\nan {}",
                fdp[i],
                e0.dp[i][kk]
            );
            assert!(
                ev < TOL,
                "{name}: df{i}/dv{kk} off by {ev:e}\nfd {}\nan {}",
                fdv[i],
                e0.dv[i][kk]
            );
        }
    }
}

#[test]
fn constraint_jacobians_match_finite_differences() {
    let mut rng = Lcg(7);
    for trial in 0..6 {
        let mut bodies = vec![random_body(&mut rng), random_body(&mut rng)];
        let anchor = rvec(&mut rng, 1.0);
        let axis = rvec(&mut rng, 1.0);
        let axis2 = axis.cross(&rvec(&mut rng, 1.0));
        for b in [Some(1), None] {
            let cs: Vec<(Box<dyn Constraint>, &str)> = vec![
                (Box::new(BallJoint::new(&bodies, 0, b, anchor)), "ball"),
                (
                    Box::new(HingeJoint::new(&bodies, 0, b, anchor, axis)),
                    "hinge",
                ),
                (
                    Box::new(UniversalJoint::new(&bodies, 0, b, anchor, axis, axis2)),
                    "universal",
                ),
                (Box::new(FixedJoint::new(&bodies, 0, b, anchor)), "fixed"),
            ];
            let mut moved = bodies.clone();
            jiggle(&mut moved, &mut rng);
            for (c, name) in &cs {
                check_constraint(
                    c.as_ref(),
                    &moved,
                    0.0,
                    &format!("{name} trial {trial} b={b:?}"),
                );
            }
        }
        let traj = |t: f64| {
            (
                Vector3::new(t.sin(), 0.3 * t, 1.0),
                UnitQuaternion::from_scaled_axis(Vector3::new(0.2 * t, -t, 0.5)),
            )
        };
        let p = Prescribed::new(1, Box::new(traj));
        jiggle(&mut bodies, &mut rng);
        check_constraint(&p, &bodies, 0.37 * trial as f64, "prescribed");
    }
}

#[test]
fn force_gradients_match_finite_differences() {
    let mut rng = Lcg(11);
    for trial in 0..6 {
        let bodies = vec![random_body(&mut rng), random_body(&mut rng)];
        let mut drive = JointDrive::new(
            &bodies,
            0,
            Some(1),
            Vector3::new(30.0, 50.0, 80.0),
            Vector3::new(2.0, 3.0, 5.0),
        );
        drive.frame = rquat(&mut rng, 2.0);
        drive.set_target(
            rquat(&mut rng, 2.0),
            rvec(&mut rng, 2.0),
            rvec(&mut rng, 4.0),
        );
        let mut world_drive = drive.clone();
        world_drive.parent = None;
        let forces: Vec<(Box<dyn Force>, &str)> = vec![
            (Box::new(drive), "drive"),
            (Box::new(world_drive), "drive to world"),
            (
                Box::new(Gravity {
                    body: 1,
                    g: Vector3::new(0.0, -9.81, 0.0),
                }),
                "gravity",
            ),
            (
                Box::new(Damping {
                    body: 0,
                    angular: 0.7,
                    linear: 2.0,
                }),
                "damping",
            ),
            (
                Box::new(UserForce {
                    body: 0,
                    point: rvec(&mut rng, 0.5),
                    force: rvec(&mut rng, 10.0),
                    torque: rvec(&mut rng, 3.0),
                    frame: ForceFrame::World,
                }),
                "user force (world)",
            ),
            (
                Box::new(UserForce {
                    body: 1,
                    point: rvec(&mut rng, 0.5),
                    force: rvec(&mut rng, 10.0),
                    torque: rvec(&mut rng, 3.0),
                    frame: ForceFrame::Body,
                }),
                "user force (body)",
            ),
            (
                Box::new(PositionSpring {
                    body: 1,
                    stiffness: 4000.0,
                    damping: 120.0,
                    target: rvec(&mut rng, 1.0),
                    target_velocity: rvec(&mut rng, 2.0),
                    force: rvec(&mut rng, 10.0),
                    torque: rvec(&mut rng, 3.0),
                }),
                "position spring (root assist)",
            ),
        ];
        for (f, name) in &forces {
            check_force(f.as_ref(), &bodies, &format!("{name} trial {trial}"));
        }
    }
}

/// Penalty contacts (docs/contact.md, "Penalty contact"): against static geometry and between two bodies, in
/// the sticking (viscous) and the sliding (capped at μ f_n) friction regime, at random poses and velocities.
/// States near a kink of the model (δ = 0, f_n = 0, c|u_t| = μ f_n) are skipped: there the force has no gradient.
#[test]
fn penalty_contact_gradients_match_finite_differences() {
    let mut rng = Lcg(17);
    let mut checked = [0usize; 4];
    for trial in 0..40 {
        let bodies = vec![random_body(&mut rng), random_body(&mut rng)];
        let n = rvec(&mut rng, 1.0).normalize();
        let pa = bodies[0].position + rvec(&mut rng, 0.5);
        let pb = pa + n * (0.01 + 0.05 * rng.next_f64());
        let with_body = trial % 2 == 1;
        let friction = if trial % 4 < 2 { 50.0 } else { 0.3 };
        let c = PenaltyContact {
            body: 0,
            other: with_body.then_some(1),
            local: bodies[0].point_local(&pa),
            other_local: if with_body {
                bodies[1].point_local(&pb)
            } else {
                pb
            },
            normal: n,
            stiffness: 2000.0,
            damping: 5.0,
            friction_damping: 20.0,
            friction,
        };
        // The model's switching quantities at this state, to stay away from its kinks.
        let point_velocity = |b: &Body, p: Vector3<f64>| {
            b.velocity.fixed_rows::<3>(3).into_owned() + b.omega().cross(&(p - b.position))
        };
        let u = point_velocity(&bodies[0], pa)
            - if with_body {
                point_velocity(&bodies[1], pb)
            } else {
                Vector3::zeros()
            };
        let f_n = 2000.0 * c.depth(&bodies) - 5.0 * n.dot(&u);
        let slip = (u - n * n.dot(&u)).norm();
        let ratio = 20.0 * slip / (friction * f_n);
        if f_n < 1.0 || (0.7..1.4).contains(&ratio) {
            continue;
        }
        let regime = usize::from(ratio > 1.0);
        checked[2 * usize::from(with_body) + regime] += 1;
        check_force(&c, &bodies, &format!("penalty contact trial {trial}"));
    }
    println!("checked (static stick, static slide, body stick, body slide): {checked:?}");
    assert!(checked.iter().all(|&k| k >= 2), "{checked:?}");
}

#[test]
fn gyroscopic_gradients_match_finite_differences() {
    let mut rng = Lcg(13);
    for _ in 0..6 {
        let body = random_body(&mut rng);
        let (_, dp, dv) = body.gyroscopic();
        let mut fdp = Matrix6::zeros();
        let mut fdv = Matrix6::zeros();
        for j in 0..6 {
            let (mut p, mut m) = (body.clone(), body.clone());
            p.displace(&unit(j, EPS));
            m.displace(&unit(j, -EPS));
            fdp.set_column(j, &((p.gyroscopic().0 - m.gyroscopic().0) / (2.0 * EPS)));
            let (mut p, mut m) = (body.clone(), body.clone());
            p.velocity[j] += EPS;
            m.velocity[j] -= EPS;
            fdv.set_column(j, &((p.gyroscopic().0 - m.gyroscopic().0) / (2.0 * EPS)));
        }
        assert!(rel_err(&fdp, &dp) < TOL, "gyro dp\n{fdp}\n{dp}");
        assert!(rel_err(&fdv, &dv) < TOL, "gyro dv\n{fdv}\n{dv}");
    }
}
