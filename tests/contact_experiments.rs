//! Issue 6's contact experiments, asserted (the examples `box_on_slope`, `box_stack` and `stiff_contact` print
//! the same runs' figures).

#[path = "../examples/common/mod.rs"]
mod excommon;

use excommon::contact_runs::{box_on_slope, box_stack, stiff_contact};

/// Below atan μ the box stays within 0.1 mm over 10 s; above it slides with Coulomb's acceleration within 2 %;
/// post-stabilization leaves at most 0.1 mm of penetration.
#[test]
fn box_on_slope_sticks_below_atan_mu_and_slides_with_coulomb_above() {
    let mu: f64 = 0.5;
    let critical = mu.atan();
    for deg in [15.0f64, 26.0] {
        let run = box_on_slope(deg.to_radians(), mu, 10.0);
        assert!(deg.to_radians() < critical);
        println!("{deg}°: travel {:.3e} mm", run.travel * 1e3);
        assert!(
            run.travel.abs() * 1e3 < 0.1,
            "{deg}°: drift {} mm",
            run.travel * 1e3
        );
        assert!(run.max_penetration * 1e3 <= 0.1);
        assert_eq!(run.max_contacts, 4, "a box face on a plane has 4 corners");
    }
    for deg in [27.0f64, 35.0] {
        let run = box_on_slope(deg.to_radians(), mu, 3.0);
        let err = (run.accel - run.analytic_accel).abs() / run.analytic_accel;
        println!(
            "{deg}°: accel {} vs Coulomb {} ({:.3e} %)",
            run.accel,
            run.analytic_accel,
            100.0 * err
        );
        assert!(
            err < 0.02,
            "{deg}°: sliding acceleration off by {:.2} %",
            100.0 * err
        );
        assert!(run.max_penetration * 1e3 <= 0.1);
        assert!(run.max_residual < 1e-9);
    }
}

/// Five stacked boxes stand for 10 s at h = 1/60 s within 1 mm.
#[test]
fn box_stack_stands() {
    let run = box_stack(5, 10.0);
    println!(
        "stack: drift {:.3e} mm, penetration {:.3e} mm, {} contacts",
        run.max_drift * 1e3,
        run.max_penetration * 1e3,
        run.max_contacts
    );
    assert!(
        run.max_drift * 1e3 < 1.0,
        "stack drift {} mm",
        run.max_drift * 1e3
    );
    assert!(run.max_penetration * 1e3 <= 0.1);
    assert!(run.max_contacts >= 20, "4 box interfaces and the ground");
}

/// An arm with drives 100× stiffer than the default swings onto a static box and stays pressed on it: bounded
/// speeds, no penetration, at rest once pressed.
#[test]
fn stiff_arm_on_a_box_stays_bounded() {
    let run = stiff_contact(100.0, 3.0);
    println!(
        "stiff contact: max speed {} m/s, pressed {} m/s, penetration {} mm",
        run.max_speed,
        run.pressed_max_speed,
        run.max_penetration * 1e3
    );
    // The swing itself: 1 rad of a 0.6 m arm in well under a second.
    assert!(run.max_speed.is_finite() && run.max_speed < 20.0);
    assert!(
        run.pressed_max_speed < 1e-6,
        "pressed arm moves at {} m/s",
        run.pressed_max_speed
    );
    assert!(run.max_penetration * 1e3 <= 0.1);
    assert!(run.contact_steps > 150);
}
