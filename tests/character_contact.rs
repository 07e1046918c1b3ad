//! Character–character contact in one scene (issue 13, item 4): two walkers whose arms meet as they pass.

#[path = "../examples/common/two_walkers.rs"]
mod two_walkers;

#[test]
fn two_walkers_touch_without_interpenetrating_and_keep_tracking() {
    let r = two_walkers::run(0.6);
    println!("{r:?}");
    assert!(r.contacts > 0, "the arms must meet");
    let (a, b) = r.first_bones.clone().expect("a first contact");
    assert!(!a.is_empty() && !b.is_empty(), "events name both bodies");
    assert!(
        r.max_interpenetration_mm <= 2.0,
        "{} mm",
        r.max_interpenetration_mm
    );
    // The contact pushed the arms (a visible reaction) and both characters track outside the contact window.
    assert!(
        r.window_max_deg[0] > 1.0 && r.window_max_deg[1] > 1.0,
        "{:?}",
        r.window_max_deg
    );
    for rms in r.track_rms_deg {
        assert!(rms <= 0.5, "track rms {rms} deg");
    }
    // Equal and opposite impulses: the sum over both characters is zero.
    assert!((r.impulse_sum[0] + r.impulse_sum[1]).norm() < 1e-12);
    assert!(r.impulse_sum[0].norm() > 0.01);
}
