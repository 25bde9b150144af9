//! Ctrl-C, SIGTERM and SIGHUP: the first asks the running job to stop and report what
//! it has (a search prints its best line, a match its partial summary and how to
//! resume); a second ends the program at once. The exit status names the signal.

use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::OnceLock;

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::iterator::Signals;

static REQUESTED: AtomicBool = AtomicBool::new(false);
static SIGNAL: AtomicI32 = AtomicI32::new(SIGINT);
static INSTALLED: OnceLock<bool> = OnceLock::new();

/// The flag the first Ctrl-C (or SIGTERM, as Slurm and `kill` send, or SIGHUP, as a
/// closed terminal sends) sets, with the handler installed on first use.
pub(crate) fn flag() -> &'static AtomicBool {
    INSTALLED.get_or_init(|| {
        let Ok(mut signals) = Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
            return false;
        };
        std::thread::Builder::new()
            .name("signals".into())
            .spawn(move || {
                for signal in signals.forever() {
                    if REQUESTED.swap(true, Ordering::SeqCst) {
                        std::process::exit(128 + signal);
                    }
                    SIGNAL.store(signal, Ordering::SeqCst);
                    // (stderr may be gone: a closed terminal's SIGHUP.)
                    let _ = writeln!(std::io::stderr(), "\n{}", first_words(signal));
                }
            })
            .is_ok()
    });
    &REQUESTED
}

/// What the first signal prints.
fn first_words(signal: i32) -> &'static str {
    match signal {
        SIGTERM => "terminated (SIGTERM): finishing up (a second signal quits at once)",
        SIGHUP => "hung up (SIGHUP): finishing up (a second signal quits at once)",
        _ => "interrupted: finishing up (Ctrl-C again to quit at once)",
    }
}

/// The exit status of a job that a signal stopped: 128 + the signal's number (130 for
/// Ctrl-C, 143 for SIGTERM, 129 for SIGHUP).
pub(crate) fn exit_status() -> i32 {
    128 + SIGNAL.load(Ordering::SeqCst)
}

/// Whether Ctrl-C has asked the running job to stop.
pub(crate) fn requested() -> bool {
    flag().load(Ordering::Relaxed)
}

/// Ends a job that Ctrl-C stopped, after its partial result was printed: `next` says on
/// stderr what was kept and how to go on.
pub(crate) fn exit(next: &str) -> ! {
    eprintln!("interrupted: {next}");
    std::process::exit(exit_status())
}
