//! Unit tests of Lemke's private parts: the acceptance bound and the buffers' room.

use super::*;

/// `accept` keeps a solution with round-off residual and refuses the blown-up kind met on collinear contacts.
#[test]
fn accept_refuses_blown_up_solutions_only() {
    let m = DMatrix::from_row_slice(2, 2, &[1.0, 1.0, 1.0, 1.0]);
    let q = DVector::from_vec(vec![-1.0, -1.0]);
    let mut lemke = Lemke::default();
    let mut w = DVector::zeros(2);
    // An exact solution of the singular problem, with round-off added.
    let good = DVector::from_vec(vec![0.25 + 1e-15, 0.75]);
    lemke.report.residual = complementarity_residual_in(&m, &q, &good, &mut w);
    assert!(lemke.accept(&m, &q, &good).is_ok());
    // A huge impulse whose slack is 10⁻³ of its scale, not zero: z·w = 10¹³ against a bound of 10¹⁰.
    let m = DMatrix::from_row_slice(2, 2, &[1e-3, 1.0, 1.0, 1.0]);
    let blown = DVector::from_vec(vec![1e8, 0.0]);
    lemke.report.residual = complementarity_residual_in(&m, &q, &blown, &mut w);
    assert!(matches!(
        lemke.accept(&m, &q, &blown),
        Err(LcpError::Inaccurate { .. })
    ));
}

/// The buffers get room for a problem size once, and a clone (whose buffers keep only their contents) gets it
/// again at its first solve, so that neither allocates in a later solve of that size.
#[test]
fn room_is_reserved_once_per_size_and_again_after_a_clone() {
    let n = 6;
    let m = DMatrix::from_fn(n, n, |i, j| if i == j { 4.0 } else { 0.5 });
    let q = DVector::from_fn(n, |i, _| if i % 2 == 0 { -1.0 } else { 0.5 });
    let has_room =
        |l: &Lemke| l.tied.capacity() >= n && l.start.capacity() >= n && l.reserved.0 == n;
    let mut lemke = Lemke::default();
    let mut z = DVector::zeros(n);
    lemke.solve(&m, &q, &mut z).unwrap();
    assert!(has_room(&lemke));
    let mut copy = lemke.clone();
    let mut z2 = DVector::zeros(n);
    copy.solve(&m, &q, &mut z2).unwrap();
    assert!(has_room(&copy), "a clone must reserve again");
    assert_eq!(z, z2);
}
