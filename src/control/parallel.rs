//! Splitting the preprocessing's per-sample passes over threads. Every sample (frame, step) is computed by the
//! same code whichever thread runs it, so the results are bit-identical for any thread count.

use std::ops::Range;
use std::sync::Mutex;

use rayon::prelude::*;

/// Threads for a pass over `n` samples: one for short clips (spawning would cost more than it saves), else
/// `threads` (clamped to 1..=64) or, for `None`, one per core up to 8.
pub(crate) fn thread_count(n: usize, threads: Option<usize>) -> usize {
    match threads {
        _ if n < 1024 => 1,
        Some(t) => t.clamp(1, 64),
        None => std::thread::available_parallelism().map_or(1, |t| t.get().min(8)),
    }
}

/// `0..n` cut into at most `parts` consecutive, non-empty ranges of nearly equal length.
pub(crate) fn ranges(n: usize, parts: usize) -> Vec<Range<usize>> {
    let chunk = n.div_ceil(parts.max(1)).max(1);
    (0..n)
        .step_by(chunk)
        .map(|k0| k0..(k0 + chunk).min(n))
        .collect()
}

/// `data` (rows of `per` elements) split at the ends of `ranges` (consecutive, from row 0): one slice per range.
pub(crate) fn split_rows<'a, T>(
    mut data: &'a mut [T],
    ranges: &[Range<usize>],
    per: usize,
) -> Vec<&'a mut [T]> {
    ranges
        .iter()
        .map(|r| {
            let (head, tail) = std::mem::take(&mut data).split_at_mut(r.len() * per);
            data = tail;
            head
        })
        .collect()
}

/// Pieces to cut a pass into for `threads` threads: several per thread, so that when a thread is held up (a
/// shared machine) the others take over its remaining pieces instead of waiting for it. A piece boundary costs
/// a sample or two of recomputation.
pub(crate) fn pieces(threads: usize) -> usize {
    if threads <= 1 { 1 } else { 8 * threads }
}

/// Runs `f` on every job on up to `threads` scoped threads (the caller's among them), each taking the next job
/// in order when it is done with one.
pub(crate) fn run<J: Send>(threads: usize, jobs: Vec<J>, f: impl Fn(J) + Sync) {
    let workers = threads.clamp(1, jobs.len().max(1));
    let queue = Mutex::new(jobs.into_iter());
    let work = || {
        loop {
            // The lock is held only for this statement, to take a job (a poisoned queue still hands out the rest).
            let job = queue.lock().unwrap_or_else(|e| e.into_inner()).next();
            let Some(job) = job else { break };
            f(job);
        }
    };
    std::thread::scope(|scope| {
        for _ in 1..workers {
            scope.spawn(work);
        }
        work();
    });
}

/// `len` copies of `value`. A large table is written by rayon's threads, so the page faults of its first touch
/// (a fresh allocation is mapped page by page) are shared out instead of taken one by one on this thread.
pub(crate) fn filled<T: Clone + Send + Sync>(len: usize, value: T) -> Vec<T> {
    let mut v = Vec::with_capacity(len);
    if len < 1 << 16 {
        v.resize(len, value);
    } else {
        advise_huge_pages(&v);
        v.par_extend(rayon::iter::repeat_n(value, len));
    }
    v
}

/// Asks the kernel to back the untouched allocation of `v` with transparent huge pages where it can: the
/// 2 MiB-aligned stretches lying wholly inside it. A fresh table is otherwise mapped one 4 KiB page per fault,
/// and on a 60 s clip those faults (not the zeroing) were a quarter of the preprocessing time; a huge page is
/// one fault for 512 pages. Only a hint: the contents and the results are unchanged, and where THP is off
/// (`never`) or the kernel has no huge page at hand it falls back to small pages. Linux only; a no-op elsewhere.
fn advise_huge_pages<T>(v: &Vec<T>) {
    #[cfg(target_os = "linux")]
    {
        // The PMD size of x86-64 and of 4 KiB-page arm64; on other sizes the advice covers fewer or no pages.
        const HUGE: usize = 2 << 20;
        let start = v.as_ptr() as usize;
        let end = start + v.capacity() * std::mem::size_of::<T>();
        let (a, e) = (start.next_multiple_of(HUGE), end / HUGE * HUGE);
        if e > a {
            // SAFETY: `[a, e)` lies inside the vector's own allocation, page-aligned, and nothing has been written
            // to it or read from it yet; MADV_HUGEPAGE changes only how the kernel backs the pages, never their
            // contents (a failure, e.g. THP compiled out, leaves small pages: the return value is not needed).
            unsafe {
                libc::madvise(a as *mut libc::c_void, e - a, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = v;
}
