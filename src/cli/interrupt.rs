//! Ctrl-C: the first press asks the running job to stop and report what it has (a
//! search prints its best line, a match its partial summary and how to resume); a
//! second press ends the program at once.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

/// Exit status of a program ended by Ctrl-C (128 + SIGINT).
pub const INTERRUPTED_EXIT: i32 = 130;

static REQUESTED: AtomicBool = AtomicBool::new(false);
static INSTALLED: OnceLock<bool> = OnceLock::new();

/// The flag the first Ctrl-C sets, with the handler installed on first use.
pub fn flag() -> &'static AtomicBool {
    INSTALLED.get_or_init(|| {
        ctrlc::set_handler(|| {
            if REQUESTED.swap(true, Ordering::SeqCst) {
                std::process::exit(INTERRUPTED_EXIT);
            }
            eprintln!("\ninterrupted: finishing up (Ctrl-C again to quit at once)");
        })
        .is_ok()
    });
    &REQUESTED
}

/// Whether Ctrl-C has asked the running job to stop.
pub fn requested() -> bool {
    flag().load(Ordering::Relaxed)
}

/// Ends a job that Ctrl-C stopped, after its partial result was printed: `next` says on
/// stderr what was kept and how to go on.
pub fn exit(next: &str) -> ! {
    eprintln!("interrupted: {next}");
    std::process::exit(INTERRUPTED_EXIT)
}
