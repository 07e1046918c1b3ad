//! Ctrl-C (SIGINT) and SIGTERM during a bake: the output files being written are removed and the process exits
//! with status 130, so an interrupted bake leaves neither a partial output nor a temporary file (outputs already
//! renamed into place are complete). The signal handler only sets a flag (all a handler may safely do); a
//! watcher thread does the clean-up.

#[cfg(unix)]
use std::sync::atomic::{AtomicBool, Ordering};

#[cfg(unix)]
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

#[cfg(unix)]
extern "C" fn on_signal(_: libc::c_int) {
    INTERRUPTED.store(true, Ordering::SeqCst);
}

/// Installs the handler and starts the watcher thread (once per process; elsewhere than Unix, a no-op).
pub fn install() {
    #[cfg(unix)]
    {
        let handler = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
        // SAFETY: the handler only stores to an atomic, which is async-signal-safe.
        unsafe {
            libc::signal(libc::SIGINT, handler);
            libc::signal(libc::SIGTERM, handler);
        }
        let _ = std::thread::Builder::new()
            .name("interrupt".into())
            .spawn(|| {
                loop {
                    std::thread::sleep(std::time::Duration::from_millis(20));
                    if INTERRUPTED.load(Ordering::SeqCst) {
                        let removed = flinch::io::atomic::abandon_all();
                        eprintln!(
                            "\ninterrupted: stopped; {removed} partial output file(s) removed, completed outputs kept"
                        );
                        std::process::exit(130);
                    }
                }
            });
    }
}
