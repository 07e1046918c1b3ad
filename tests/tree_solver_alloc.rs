//! The tree solver allocates nothing in `factor` + `solve` + `inverse_blocks` + `solve_response` once it has
//! seen a structure. Its own test binary, because the counting allocator is global.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use flinch::dynamics::{BlockSystem, ConstraintBlock, Coupling, SaddlePointSolver, TreeSolver};
use nalgebra::{Matrix6, Vector6};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::SeqCst);
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System.alloc` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::SeqCst);
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// A 20-body tree (body k's parent is (k − 1) / 2), ball joints, drive couplings, the root on the world.
fn tree(step: f64) -> BlockSystem {
    let mut sys = BlockSystem::default();
    for k in 0..20 {
        sys.diag
            .push(Matrix6::identity() * (2.0 + k as f64 * 0.1 + step));
        let mut ja = Matrix6::zeros();
        let mut jb = Matrix6::zeros();
        for r in 0..3 {
            ja[(r, 3 + r)] = 1.0;
            ja[(r, (r + 1) % 3)] = 0.2;
            jb[(r, 3 + r)] = -1.0;
            jb[(r, (r + 2) % 3)] = -0.1;
        }
        let parent = (k > 0).then(|| (k - 1) / 2);
        sys.constraints.push(ConstraintBlock {
            rows: 3,
            body_a: k,
            body_b: parent,
            ja,
            jb,
        });
        if let Some(p) = parent {
            let d = Matrix6::identity() * (0.1 + step);
            sys.couplings.push(Coupling {
                i: k,
                j: p,
                a_ij: -d,
                a_ji: -d * 0.5,
            });
        }
    }
    sys
}

#[test]
fn factor_and_solve_allocate_nothing_after_the_first_call() {
    let mut solver = TreeSolver::new();
    let mut sys = tree(0.0);
    let a = vec![Vector6::repeat(1.0); 20];
    let b = vec![0.01; sys.constraint_rows()];
    let mut x = vec![Vector6::zeros(); 20];
    let mut lambda = vec![0.0; b.len()];
    let contact_bodies = [19, 12, 3];
    let mut w = vec![Matrix6::zeros(); contact_bodies.len() * contact_bodies.len()];
    // A wrench on the contact bodies only, as `solve_response` expects.
    let mut wrench = vec![Vector6::zeros(); 20];
    for &c in &contact_bodies {
        wrench[c] = Vector6::repeat(1.0);
    }
    solver.factor(&sys).expect("first factor");
    solver.solve(&a, &b, &mut x, &mut lambda);

    // New values, same structure: as a step would do.
    let before = ALLOCATIONS.load(Ordering::SeqCst);
    for step in 1..=10 {
        let values = tree(step as f64 * 0.01);
        for (d, v) in sys.diag.iter_mut().zip(&values.diag) {
            *d = *v;
        }
        for (c, v) in sys.couplings.iter_mut().zip(&values.couplings) {
            c.a_ij = v.a_ij;
        }
        let start = ALLOCATIONS.load(Ordering::SeqCst);
        solver.factor(&sys).expect("factor");
        solver.solve(&a, &b, &mut x, &mut lambda);
        // The contact blocks of W (two leaves and an inner body, the Delassus pass of a contact step).
        assert!(solver.inverse_blocks(&contact_bodies, &mut w));
        // The response to the contact impulses (the final solve of a contact step, and the pushes).
        solver.solve_response(&wrench, &contact_bodies, &mut x, &mut lambda);
        let used = ALLOCATIONS.load(Ordering::SeqCst) - start;
        assert_eq!(
            used, 0,
            "step {step}: {used} allocations in factor + solve + inverse_blocks + solve_response"
        );
    }
    let total = ALLOCATIONS.load(Ordering::SeqCst) - before;
    println!(
        "figure tree_solver_allocations_per_step 0 count (allocations incl. rebuilding values: {total})"
    );
    assert!(x.iter().all(|v| v.iter().all(|e| e.is_finite())));
}
