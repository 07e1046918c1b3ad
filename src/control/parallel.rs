//! Splitting the preprocessing's per-sample passes over threads. Every sample (frame, step) is computed by the
//! same code whichever thread runs it, so the results are bit-identical for any thread count.

use std::mem::MaybeUninit;
use std::ops::Range;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

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

/// A table of `len` entries written once by the preprocessing's jobs, each filling its piece in order: no
/// zero-fill before, which wrote every byte twice (and the zero-fill was where the pages were first touched).
/// [`Table::pieces`] hands out the pieces, [`Table::finish`] returns the table once every entry is written.
pub(crate) struct Table<T> {
    data: Vec<T>,
    len: usize,
    /// Entries written, summed over the pieces as they are dropped.
    written: AtomicUsize,
    split: bool,
}

impl<T: Copy + Send> Table<T> {
    /// A table of `len` entries, none written yet (a large one is advised onto huge pages before its first touch).
    pub(crate) fn new(len: usize) -> Table<T> {
        let data = Vec::with_capacity(len);
        if len >= 1 << 16 {
            advise_huge_pages(&data);
        }
        Table {
            data,
            len,
            written: AtomicUsize::new(0),
            split: false,
        }
    }

    /// The table cut at the ends of `ranges` (consecutive from row 0, covering the table, rows of `per` entries):
    /// one [`Fill`] per range. Called once.
    pub(crate) fn pieces(&mut self, ranges: &[Range<usize>], per: usize) -> Vec<Fill<'_, T>> {
        assert!(!self.split, "a table is cut into pieces once");
        self.split = true;
        assert_eq!(
            ranges.iter().map(|r| r.len() * per).sum::<usize>(),
            self.len,
            "the pieces cover the table"
        );
        let written = &self.written;
        let mut rest = &mut self.data.spare_capacity_mut()[..self.len];
        ranges
            .iter()
            .map(|r| {
                let (head, tail) = std::mem::take(&mut rest).split_at_mut(r.len() * per);
                rest = tail;
                Fill {
                    slots: head,
                    len: 0,
                    written,
                }
            })
            .collect()
    }

    /// The written table. Panics if a piece was left short (a bug in the pass, not in its input).
    pub(crate) fn finish(mut self) -> Vec<T> {
        assert!(
            self.split && *self.written.get_mut() == self.len,
            "every entry of a table is written"
        );
        // SAFETY: the pieces were disjoint slices of the first `len` slots covering all of them (checked in
        // `pieces`, called once), each piece initialised a prefix of its slots (`Fill::push` writes the next slot
        // and counts it, and cannot write past the end), and the prefixes' lengths sum to `len`: every prefix is
        // its whole piece, so all `len` entries are initialised.
        unsafe { self.data.set_len(self.len) };
        self.data
    }
}

/// One piece of a [`Table`], written in order from its first entry.
pub(crate) struct Fill<'a, T> {
    slots: &'a mut [MaybeUninit<T>],
    len: usize,
    written: &'a AtomicUsize,
}

impl<T: Copy> Fill<'_, T> {
    /// Writes the next entry (panics past the end of the piece).
    pub(crate) fn push(&mut self, value: T) {
        if self.len == 0 {
            prefault(self.slots);
        }
        self.slots[self.len].write(value);
        self.len += 1;
    }

    /// Writes the next `values.len()` entries.
    pub(crate) fn extend_from_slice(&mut self, values: &[T]) {
        if self.len == 0 {
            prefault(self.slots);
        }
        for (slot, v) in self.slots[self.len..self.len + values.len()]
            .iter_mut()
            .zip(values)
        {
            slot.write(*v);
        }
        self.len += values.len();
    }
}

impl<T> Drop for Fill<'_, T> {
    fn drop(&mut self) {
        self.written.fetch_add(self.len, Ordering::Relaxed);
    }
}

/// Maps the pages lying wholly inside `slots` (fresh, not yet written) in one call, on the calling thread,
/// instead of one page fault per page as they are first written. Linux only; a no-op elsewhere.
fn prefault<T>(slots: &mut [MaybeUninit<T>]) {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: sysconf only reads a system value.
        let page = match unsafe { libc::sysconf(libc::_SC_PAGESIZE) } {
            p if p > 0 => p as usize,
            _ => return,
        };
        let start = slots.as_mut_ptr() as usize;
        // MADV_POPULATE_WRITE maps the missing pages as a write would (zeroed), writing nothing itself, and
        // leaves mapped ones alone (on a kernel without it, it fails and the pages fault in as before). `slots`
        // is this thread's alone and nothing has read it.
        advise_inside(
            start,
            std::mem::size_of_val(slots),
            page,
            libc::MADV_POPULATE_WRITE,
        );
    }
    #[cfg(not(target_os = "linux"))]
    let _ = slots;
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
        // MADV_HUGEPAGE changes only how the kernel backs the pages, never their contents (a failure, e.g. THP
        // compiled out, leaves small pages). Nothing has been written to the allocation or read from it yet.
        let bytes = v.capacity() * std::mem::size_of::<T>();
        advise_inside(v.as_ptr() as usize, bytes, HUGE, libc::MADV_HUGEPAGE);
    }
    #[cfg(not(target_os = "linux"))]
    let _ = v;
}

/// `madvise(advice)` on the `align`-aligned stretch lying wholly inside the `bytes` bytes at `start` (nothing when
/// there is none). The advice's result is not needed: both callers' advice is a hint whose failure leaves the
/// memory as it was.
#[cfg(target_os = "linux")]
fn advise_inside(start: usize, bytes: usize, align: usize, advice: libc::c_int) {
    let (a, e) = (
        start.next_multiple_of(align),
        (start + bytes) / align * align,
    );
    if e > a {
        // SAFETY: `[a, e)` is page-aligned and lies inside memory the caller owns and has neither written nor
        // read; the two advices used (MADV_HUGEPAGE, MADV_POPULATE_WRITE) never change what that memory holds as
        // seen by the program (populated pages read as the zeros a first touch would give).
        unsafe {
            libc::madvise(a as *mut libc::c_void, e - a, advice);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_written_in_pieces_on_threads_holds_every_entry_in_order() {
        // Large enough for the huge-page advice; 3 entries per row, pieces of uneven length.
        let rows = 30_000;
        let mut table = Table::new(3 * rows);
        let parts = ranges(rows, 7);
        let pieces = table.pieces(&parts, 3);
        run(
            3,
            parts.into_iter().zip(pieces).collect(),
            |(r, mut out)| {
                for k in r {
                    out.push(k as u64);
                    out.extend_from_slice(&[2 * k as u64, 3 * k as u64]);
                }
            },
        );
        let v = table.finish();
        assert_eq!(v.len(), 3 * rows);
        assert!((0..rows).all(|k| v[3 * k..3 * k + 3] == [k as u64, 2 * k as u64, 3 * k as u64]));
    }

    #[test]
    #[should_panic(expected = "every entry of a table is written")]
    fn a_table_with_a_short_piece_is_refused() {
        let mut table = Table::<f64>::new(10);
        let mut pieces = table.pieces(&ranges(10, 2), 1);
        pieces[0].push(1.0);
        drop(pieces);
        let _ = table.finish();
    }
}
