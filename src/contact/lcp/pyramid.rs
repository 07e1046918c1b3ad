//! Assembly of the contact LCPs from Jacobians (Cline §2.7.3, eq. 2.49 after Anitescu–Potra, reduced to a pure
//! LCP by eliminating the velocities, eq. 2.43).
//!
//! With W = M̃⁻¹ (k×k, k = 6·bodies) and the free velocity v* (the velocity without contact impulses), the
//! post-impulse velocity is v = v* + W (J_nᵀ λ_n + J_dᵀ λ_d). For nc contacts with m friction directions each
//! (the set must contain each direction's negative, Cline §2.7), the unknowns z = (λ_n, λ_d, γ) and
//!
//! ```text
//!     [ J_n W J_nᵀ   J_n W J_dᵀ   0 ]        [ J_n v* ]
//! M = [ J_d W J_nᵀ   J_d W J_dᵀ   E ]    q = [ J_d v* ]
//!     [ μ            −Eᵀ          0 ]        [ 0      ]
//! ```
//!
//! E = blockdiag(1_m) (nc·m × nc), μ = diag(μ_i). w = (normal velocity, γ + tangential velocity, μλ_n − Σλ_d):
//! γ is the sliding speed, the λ (max-friction) rows keep Σλ_d ≤ μλ_n. M is not symmetric but copositive
//! (zᵀMz = ‖W^½ Jᵀλ‖² + γᵀμλ_n ≥ 0 for z ≥ 0), and Lemke solves it (Stewart–Trinkle 1996, Anitescu–Potra 1997).

use nalgebra::{DMatrix, DVector};

use super::LcpError;

/// The frictionless LCP M = J_n W J_nᵀ, q = b_n (b_n = J_n v*, plus any restitution or stabilization term).
/// `Err(InvalidOption)` on mismatched shapes.
pub fn normal_lcp(
    w: &DMatrix<f64>,
    jn: &DMatrix<f64>,
    bn: &DVector<f64>,
) -> Result<(DMatrix<f64>, DVector<f64>), LcpError> {
    if !w.is_square() || jn.ncols() != w.nrows() || bn.len() != jn.nrows() {
        return Err(LcpError::InvalidOption {
            what: "normal LCP: W must be k×k, J_n nc×k and b_n of length nc",
        });
    }
    Ok((jn * w * jn.transpose(), bn.clone()))
}

/// The friction-pyramid LCP of the module documentation. `jd` has `m` rows per contact, contact-major (rows
/// i·m … i·m + m − 1 belong to contact i); `bd = J_d v*`. `Err(InvalidOption)` on mismatched shapes, m = 0 or a
/// μ that is not finite ≥ 0.
pub fn pyramid_lcp(
    w: &DMatrix<f64>,
    jn: &DMatrix<f64>,
    jd: &DMatrix<f64>,
    mu: &[f64],
    bn: &DVector<f64>,
    bd: &DVector<f64>,
) -> Result<(DMatrix<f64>, DVector<f64>), LcpError> {
    let (nc, k) = jn.shape();
    let ok_shapes = w.is_square()
        && w.nrows() == k
        && jd.ncols() == k
        && nc > 0
        && jd.nrows() % nc == 0
        && jd.nrows() > 0
        && mu.len() == nc
        && bn.len() == nc
        && bd.len() == jd.nrows();
    if !ok_shapes || mu.iter().any(|v| !(v.is_finite() && *v >= 0.0)) {
        return Err(LcpError::InvalidOption {
            what: "pyramid LCP: W k×k, J_n nc×k, J_d (nc·m)×k, μ finite ≥ 0 per contact, b_n and b_d matching",
        });
    }
    let m = jd.nrows() / nc;
    let j = {
        let mut j = DMatrix::zeros(nc + m * nc, k);
        j.rows_mut(0, nc).copy_from(jn);
        j.rows_mut(nc, m * nc).copy_from(jd);
        j
    };
    pyramid_from_delassus(&(&j * w * j.transpose()), mu, m, bn, bd)
}

/// The friction-pyramid LCP from the Delassus matrix `a = J W Jᵀ` of the stacked rows `J = (J_n; J_d)` (normals
/// first, then `m` directions per contact, contact-major), when the caller has it without a dense `W` (the step
/// builds it from per-body blocks of `W`). `Err(InvalidOption)` on mismatched shapes, m = 0 or a bad μ.
pub fn pyramid_from_delassus(
    a: &DMatrix<f64>,
    mu: &[f64],
    m: usize,
    bn: &DVector<f64>,
    bd: &DVector<f64>,
) -> Result<(DMatrix<f64>, DVector<f64>), LcpError> {
    let rows = m.checked_add(1).and_then(|r| r.checked_mul(mu.len()));
    if rows.is_none_or(|rows| a.shape() != (rows, rows)) {
        return Err(LcpError::InvalidOption {
            what: "pyramid LCP: Delassus (nc + nc·m)², μ finite ≥ 0 per contact, b_n and b_d matching",
        });
    }
    // Every row formed, none mirrored: the step's assembly with the identity map.
    let mirror: Vec<(usize, f64)> = (0..a.nrows()).map(|r| (r, 1.0)).collect();
    let (mut mat, mut q) = (DMatrix::zeros(0, 0), DVector::zeros(0));
    let delassus = Mirrored {
        formed: a,
        mirror: &mirror,
    };
    pyramid_from_formed_into(delassus, mu, m, bn, bd, &mut mat, &mut q)?;
    Ok((mat, q))
}

/// A Delassus matrix in mirrored form: the entries of the rows that were formed, and each row's formed row and
/// sign (±1), so that entry (s, c) is `formed[(ρ_s, ρ_c)]·σ_s·σ_c`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Mirrored<'a> {
    /// The formed rows' Delassus matrix.
    pub formed: &'a DMatrix<f64>,
    /// Each row's formed row and sign.
    pub mirror: &'a [(usize, f64)],
}

/// The friction-pyramid LCP (as [`pyramid_from_delassus`]) into the caller's `mat` and `q`, which are resized only
/// when their shape differs (reallocating only beyond their largest earlier size), so the step builds its LCP
/// without allocating, from the Delassus matrix in its mirrored form: `formed` holds the entries
/// of the rows that were formed, and `mirror` gives each of the `nc + nc·m` rows its formed row and its sign
/// (±1), so entry (s, c) is `formed[(ρ_s, ρ_c)]·σ_s·σ_c` (the step forms the normals and the first half of each
/// contact's directions; the second half negates the first). `Err(InvalidOption)` on mismatched shapes, m = 0 or a
/// bad μ; `mat` and `q` are then unchanged.
pub(crate) fn pyramid_from_formed_into(
    delassus: Mirrored<'_>,
    mu: &[f64],
    m: usize,
    bn: &DVector<f64>,
    bd: &DVector<f64>,
    mat: &mut DMatrix<f64>,
    q: &mut DVector<f64>,
) -> Result<(), LcpError> {
    let Mirrored { formed, mirror } = delassus;
    let nc = mu.len();
    // Checked: an absurd m must be refused, not overflow.
    let Some(nd) = nc
        .checked_mul(m)
        .filter(|nd| nd.checked_add(2 * nc).is_some())
    else {
        return Err(LcpError::InvalidOption {
            what: "pyramid LCP: nc·(m + 2) rows overflow",
        });
    };
    let nr = formed.nrows();
    let ok = formed.is_square()
        && mirror.len() == nc + nd
        && mirror
            .iter()
            .all(|&(r, s)| r < nr && (s == 1.0 || s == -1.0))
        && m > 0
        && nc > 0
        && bn.len() == nc
        && bd.len() == nd
        && mu.iter().all(|v| v.is_finite() && *v >= 0.0);
    if !ok {
        return Err(LcpError::InvalidOption {
            what: "pyramid LCP: formed Delassus rows, a formed row and a sign ±1 per row, μ finite ≥ 0 per contact, b_n and b_d matching",
        });
    }
    let size = nc + nd + nc;
    if mat.shape() != (size, size) {
        super::zeroed_matrix(mat, size, size);
    }
    let k = nc + nd;
    let src = formed.as_slice();
    let four_directions = m == 4 && is_step_mirror(mirror, nc, m);
    for (col, &(rc, sc)) in mat.as_mut_slice().chunks_exact_mut(size).zip(mirror) {
        let from = &src[rc * nr..(rc + 1) * nr];
        if four_directions {
            fill_four_direction_column(from, sc, nc, &mut col[..k]);
        } else {
            for (v, &(rs, ss)) in col[..k].iter_mut().zip(mirror) {
                *v = from[rs] * (sc * ss);
            }
        }
        col[k..].fill(0.0);
    }
    mat.as_mut_slice()[k * size..].fill(0.0);
    for i in 0..nc {
        mat[(k + i, i)] = mu[i];
        for r in 0..m {
            let row = nc + i * m + r;
            mat[(row, k + i)] = 1.0;
            mat[(k + i, row)] = -1.0;
        }
    }
    super::zeroed_vector(q, size);
    let qs = q.as_mut_slice();
    qs[..nc].copy_from_slice(bn.as_slice());
    qs[nc..k].copy_from_slice(bd.as_slice());
    Ok(())
}

/// Writes into `mirror` the step's layout of a pyramid's rows (`fill_pyramid_delassus` in `contact::dynamics`):
/// the `nc` normals formed in order, then per contact its first `m/2` directions formed (rows `nc + k·m/2 + r`,
/// sign +1) and the other `m/2` their negations, in the same order.
pub(crate) fn step_mirror_into(mirror: &mut Vec<(usize, f64)>, nc: usize, m: usize) {
    let half = m / 2;
    mirror.clear();
    mirror.extend((0..nc).map(|i| (i, 1.0)));
    for k in 0..nc {
        let first = nc + k * half;
        for sign in [1.0, -1.0] {
            mirror.extend((0..half).map(|r| (first + r, sign)));
        }
    }
}

/// Whether `mirror` is the layout [`step_mirror_into`] writes (m even). One pass over the map, without
/// divisions.
fn is_step_mirror(mirror: &[(usize, f64)], nc: usize, m: usize) -> bool {
    let half = m / 2;
    if m != 2 * half || mirror.len() != nc * (1 + m) {
        return false;
    }
    let (normals, directions) = mirror.split_at(nc);
    normals.iter().enumerate().all(|(i, &e)| e == (i, 1.0))
        && directions.chunks_exact(m).enumerate().all(|(c, rows)| {
            let first = nc + c * half;
            let (pos, neg) = rows.split_at(half);
            pos.iter().enumerate().all(|(r, &e)| e == (first + r, 1.0))
                && neg.iter().enumerate().all(|(r, &e)| e == (first + r, -1.0))
        })
}

/// One column of the pyramid's Delassus part in the step's layout ([`is_step_mirror`]) with the default four
/// directions (two formed per contact): `from` is the formed column, `sc` the column's sign. The entries are
/// `from[ρ]·(sc·σ)` as in the general map (the same numbers: `sc·(±1)` is exactly `±sc`), written four per contact
/// from two loads, where the general map gathers entry by entry (≈ 11 instructions each).
fn fill_four_direction_column(from: &[f64], sc: f64, nc: usize, col: &mut [f64]) {
    let (normals, directions) = col.split_at_mut(nc);
    for (v, &f) in normals.iter_mut().zip(&from[..nc]) {
        *v = f * sc;
    }
    for (rows, formed) in directions
        .chunks_exact_mut(4)
        .zip(from[nc..nc + 2 * nc].chunks_exact(2))
    {
        let (f0, f1) = (formed[0], formed[1]);
        rows.copy_from_slice(&[f0 * sc, f1 * sc, f0 * -sc, f1 * -sc]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_of_one_contact_with_four_directions() {
        let w = DMatrix::<f64>::identity(2, 2);
        let jn = DMatrix::from_row_slice(1, 2, &[0.0, 1.0]);
        let jd = DMatrix::from_row_slice(4, 2, &[1.0, 0.0, -1.0, 0.0, 1.0, 0.0, -1.0, 0.0]);
        let (m, q) = pyramid_lcp(
            &w,
            &jn,
            &jd,
            &[0.5],
            &DVector::from_vec(vec![-1.0]),
            &DVector::zeros(4),
        )
        .unwrap();
        assert_eq!(m.shape(), (6, 6));
        assert_eq!(q[0], -1.0);
        assert_eq!(m[(5, 0)], 0.5);
        assert_eq!(m[(1, 5)], 1.0);
        assert_eq!(m[(5, 1)], -1.0);
        assert_eq!(m[(1, 2)], -1.0);
        assert!(
            pyramid_lcp(
                &w,
                &jn,
                &jd,
                &[f64::NAN],
                &DVector::zeros(1),
                &DVector::zeros(4)
            )
            .is_err()
        );
        assert!(normal_lcp(&w, &jd, &DVector::zeros(1)).is_err());
        // An absurd direction count is refused, not an overflow panic.
        let a = DMatrix::<f64>::identity(5, 5);
        for m in [usize::MAX, usize::MAX / 2] {
            assert!(
                pyramid_from_delassus(&a, &[0.5], m, &DVector::zeros(1), &DVector::zeros(4))
                    .is_err()
            );
        }
    }

    /// The step's four-direction layout (two formed directions per contact, the other two their negations)
    /// assembles the same bits through the run copies as through the general map, and a map that departs from
    /// the layout anywhere takes the general path.
    #[test]
    fn four_direction_layout_matches_the_general_map() {
        let (nc, m, half) = (3, 4, 2);
        let nf = nc * (1 + half);
        let formed = DMatrix::from_fn(nf, nf, |i, j| {
            ((i * 7 + j * 3) % 11) as f64 * 0.37 - 1.3 + if i == j { 5.0 } else { 0.0 }
        });
        let mut mirror = Vec::new();
        step_mirror_into(&mut mirror, nc, m);
        // The normals, then per contact two formed directions and their negations.
        assert_eq!(mirror[..nc], [(0, 1.0), (1, 1.0), (2, 1.0)]);
        assert_eq!(
            mirror[nc + m..nc + 2 * m],
            [(5, 1.0), (6, 1.0), (5, -1.0), (6, -1.0)]
        );
        assert!(is_step_mirror(&mirror, nc, m));
        // The whole Delassus matrix the map stands for, assembled through the general (identity) map.
        let n = nc * (1 + m);
        let whole = DMatrix::from_fn(n, n, |s, c| {
            let ((rs, ss), (rc, sc)) = (mirror[s], mirror[c]);
            formed[(rs, rc)] * (sc * ss)
        });
        let mu = [0.3, 0.8, 1.1];
        let bn = DVector::from_fn(nc, |i, _| i as f64 - 1.0);
        let bd = DVector::from_fn(nc * m, |i, _| 0.5 - i as f64 * 0.1);
        let (general, qg) = pyramid_from_delassus(&whole, &mu, m, &bn, &bd).unwrap();
        let (mut mat, mut q) = (DMatrix::zeros(0, 0), DVector::zeros(0));
        let delassus = Mirrored {
            formed: &formed,
            mirror: &mirror,
        };
        pyramid_from_formed_into(delassus, &mu, m, &bn, &bd, &mut mat, &mut q).unwrap();
        let bits = |a: &DMatrix<f64>| a.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&mat), bits(&general));
        assert_eq!(q, qg);
        // One sign off the layout: the general path, still the map's entries.
        let mut odd = mirror.clone();
        odd[nc + 2].1 = 1.0;
        assert!(!is_step_mirror(&odd, nc, m));
        let delassus = Mirrored {
            formed: &formed,
            mirror: &odd,
        };
        pyramid_from_formed_into(delassus, &mu, m, &bn, &bd, &mut mat, &mut q).unwrap();
        assert_eq!(mat[(nc + 2, 0)], formed[(nc, 0)]);
        assert_eq!(mat[(nc + 3, 0)], -formed[(nc + 1, 0)]);
    }
}
