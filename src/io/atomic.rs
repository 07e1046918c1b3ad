//! Atomic file writes: every file flinch writes goes to a temporary file in the same directory, which is then
//! renamed over the destination, so a reader never sees a half-written file and a failure leaves the old file
//! (or nothing) in place.
//!
//! What a crash or Ctrl-C can leave behind is handled too: the temporary files being written are registered, so
//! an interrupt handler (the CLI's SIGINT/SIGTERM handler) can remove them with [`abandon_all`] before exiting;
//! and a temporary file left by a killed process (SIGKILL, power loss) is recognised by its name, which holds
//! the writer's process id, and removed by [`remove_stale_temporaries`] at the next run once that process is
//! gone.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Distinguishes temporary files of concurrent writers in one process (parallel bakes into one folder).
static NEXT_TMP: AtomicU64 = AtomicU64::new(0);

/// The temporary files being written now.
static IN_FLIGHT: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Set by [`abandon_all`]: no atomic write may complete any more.
static ABANDONED: AtomicBool = AtomicBool::new(false);

fn in_flight() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    IN_FLIGHT
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Removes every temporary file being written and makes every atomic write still running fail (none of their
/// destinations is created or changed). For an interrupt handler about to exit the process; returns how many
/// temporary files were removed.
pub fn abandon_all() -> usize {
    let list = in_flight();
    ABANDONED.store(true, Ordering::SeqCst);
    list.iter()
        .filter(|tmp| std::fs::remove_file(tmp).is_ok())
        .count()
}

/// Whether `name` is one of our temporary file names, `.{name}.{pid}.{k}.tmp`; gives the pid.
fn temporary_pid(name: &str) -> Option<u32> {
    let inner = name.strip_prefix('.')?.strip_suffix(".tmp")?;
    let mut parts = inner.rsplitn(3, '.');
    let _k: u64 = parts.next()?.parse().ok()?;
    let pid: u32 = parts.next()?.parse().ok()?;
    parts.next().filter(|n| !n.is_empty())?;
    Some(pid)
}

/// Whether process `pid` is running (Linux: `/proc/<pid>` exists). Elsewhere only this process is known to run.
fn process_alive(pid: u32) -> bool {
    if pid == std::process::id() {
        return true;
    }
    let proc = Path::new("/proc");
    !proc.join("self").exists() || proc.join(pid.to_string()).exists()
}

/// Removes the temporary files in `dir` left by writers that no longer run (a bake killed while writing) and
/// returns how many. Files of running processes, and every other file, are left alone.
pub fn remove_stale_temporaries(dir: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    entries
        .flatten()
        .filter(|e| {
            let name = e.file_name();
            name.to_str()
                .and_then(temporary_pid)
                .is_some_and(|pid| !process_alive(pid))
        })
        .filter(|e| std::fs::remove_file(e.path()).is_ok())
        .count()
}

/// Whether `a` and `b` name the same existing file (same path after resolving links, or on Unix the same
/// device and inode: a hard link).
pub fn same_file(a: &Path, b: &Path) -> bool {
    let (Ok(ma), Ok(mb)) = (std::fs::metadata(a), std::fs::metadata(b)) else {
        return false;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if ma.dev() == mb.dev() && ma.ino() == mb.ino() {
            return true;
        }
    }
    let _ = (ma, mb);
    matches!(
        (std::fs::canonicalize(a), std::fs::canonicalize(b)),
        (Ok(x), Ok(y)) if x == y
    )
}

/// The temporary file next to `path` a write goes through.
fn temporary_path(path: &Path) -> PathBuf {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or_else(|| Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".to_string());
    let k = NEXT_TMP.fetch_add(1, Ordering::Relaxed);
    dir.join(format!(".{name}.{}.{k}.tmp", std::process::id()))
}

/// Writes `path` atomically with `fill`, which writes the contents into a buffered temporary file; on success
/// the file is synced and renamed over `path`, on any failure the temporary file is removed.
pub fn write_atomic_with<E: From<std::io::Error>>(
    path: &Path,
    fill: impl FnOnce(&mut BufWriter<File>) -> Result<(), E>,
) -> Result<(), E> {
    let tmp = temporary_path(path);
    let interrupted = || std::io::Error::new(std::io::ErrorKind::Interrupted, "interrupted");
    {
        let mut list = in_flight();
        if ABANDONED.load(Ordering::SeqCst) {
            return Err(interrupted().into());
        }
        list.push(tmp.clone());
    }
    let result = (|| {
        let mut w = BufWriter::new(File::create(&tmp)?);
        fill(&mut w)?;
        let file = w.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        drop(file);
        // Under the lock: an interrupt either comes first (the temporary is gone, nothing is renamed) or after
        // the rename (the destination is complete).
        let list = in_flight();
        if ABANDONED.load(Ordering::SeqCst) {
            return Err(interrupted().into());
        }
        std::fs::rename(&tmp, path)?;
        drop(list);
        Ok(())
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    in_flight().retain(|p| *p != tmp);
    result
}

/// Writes `bytes` to `path` atomically (see [`write_atomic_with`]).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_atomic_with(path, |w| w.write_all(bytes))
}

#[cfg(test)]
mod tests;
