//! Stopping the package's calls: each running call has a stop flag of its own, raised
//! by Ctrl-C (every call, in any thread), by a [`Cancel`] it was given (that call alone)
//! or by `Engine.stop()`.
//!
//! The engine takes `&'static` flags (its provers hand them to threads of their own), so
//! the flags are a fixed table of slots, one taken per running call; past
//! [`PRIVATE_SLOTS`] calls at once the rest share the last, which a `Cancel` then stops
//! together.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, Once};

use pyo3::prelude::*;

/// Calls at once that each get a flag of their own.
const PRIVATE_SLOTS: usize = 256;

const SLOTS: usize = PRIVATE_SLOTS + 1;
static FLAGS: [AtomicBool; SLOTS] = [const { AtomicBool::new(false) }; SLOTS];
static TAKEN: [AtomicBool; SLOTS] = [const { AtomicBool::new(false) }; SLOTS];
/// Calls sharing the last slot now: its flag is lowered when the first of them starts.
static SHARING: AtomicUsize = AtomicUsize::new(0);

/// A running call's stop flag, given back when it ends.
pub(crate) struct Slot(usize);

impl Slot {
    pub(crate) fn take() -> Slot {
        for (i, taken) in TAKEN.iter().enumerate().take(PRIVATE_SLOTS) {
            if taken
                .compare_exchange(false, true, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
            {
                FLAGS[i].store(false, Ordering::SeqCst);
                return Slot(i);
            }
        }
        if SHARING.fetch_add(1, Ordering::SeqCst) == 0 {
            FLAGS[PRIVATE_SLOTS].store(false, Ordering::SeqCst);
        }
        Slot(PRIVATE_SLOTS)
    }

    pub(crate) fn flag(&self) -> &'static AtomicBool {
        &FLAGS[self.0]
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        if self.0 == PRIVATE_SLOTS {
            SHARING.fetch_sub(1, Ordering::SeqCst);
        } else {
            TAKEN[self.0].store(false, Ordering::SeqCst);
        }
    }
}

/// Raises every running call's flag (Ctrl-C). Only atomic stores: safe in a signal
/// handler.
pub(crate) fn stop_all() {
    for flag in &FLAGS {
        flag.store(true, Ordering::SeqCst);
    }
}

/// Lets Ctrl-C stop the calls running in every thread, not only a call in the main
/// thread (which alone sees Python's `KeyboardInterrupt`): a SIGINT handler that raises
/// every flag, before Python's own handler runs as before.
pub(crate) fn hook_ctrl_c() {
    static HOOKED: Once = Once::new();
    HOOKED.call_once(|| {
        // SAFETY: the action only stores to atomics (async-signal-safe); signal-hook
        // calls the handler installed before it (Python's) afterwards.
        let hooked =
            unsafe { signal_hook::low_level::register(signal_hook::consts::SIGINT, stop_all) };
        // (Without the hook only a call in the main thread stops on Ctrl-C.)
        drop(hooked);
    });
}

/// What a `Cancel` shares with the calls it was given to.
#[derive(Default)]
pub(crate) struct Token {
    cancelled: AtomicBool,
    /// The slots of the calls running with it.
    running: Mutex<Vec<usize>>,
}

impl Token {
    /// Raises the flags of the calls running with it, and of those that start later.
    pub(crate) fn cancel(&self) {
        self.cancelled.store(true, Ordering::SeqCst);
        for &slot in self
            .running
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
        {
            FLAGS[slot].store(true, Ordering::SeqCst);
        }
    }

    /// Whether `cancel` was called (and not `reset` since).
    pub(crate) fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::SeqCst)
    }

    /// Lowers it, for the next call (an `Engine`'s own token, at each move).
    pub(crate) fn reset(&self) {
        self.cancelled.store(false, Ordering::SeqCst);
    }

    /// Ties `slot`'s call to it until the guard is dropped.
    pub(crate) fn watch(self: &Arc<Token>, slot: &Slot) -> Watch {
        let mut running = self.running.lock().unwrap_or_else(|e| e.into_inner());
        running.push(slot.0);
        if self.cancelled.load(Ordering::SeqCst) {
            slot.flag().store(true, Ordering::SeqCst);
        }
        Watch {
            token: self.clone(),
            slot: slot.0,
        }
    }
}

/// A call tied to a token.
pub(crate) struct Watch {
    token: Arc<Token>,
    slot: usize,
}

impl Drop for Watch {
    fn drop(&mut self) {
        let mut running = self.token.running.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(at) = running.iter().position(|&s| s == self.slot) {
            running.swap_remove(at);
        }
    }
}

/// A way to stop searches and runs from another thread: pass it as `cancel=` to
/// `analyze`, `review`, `solve`, `match`, `tournament` or `tune`, then call `cancel()`
/// from any thread. Each call given it stops
/// within milliseconds and returns what it found, with `"interrupted": true`
/// (`compare`, `perft` and `playouts`, whose results cannot say so, raise
/// `Cancelled`). Once
/// cancelled it stays so: later calls given it return at once. Like
/// `threading.Event`, one object serves any number of calls.
#[pyclass(module = "isolo_ai", frozen)]
pub struct Cancel {
    pub(crate) token: Arc<Token>,
}

#[pymethods]
impl Cancel {
    #[new]
    fn new() -> Cancel {
        Cancel {
            token: Arc::default(),
        }
    }

    /// Stops the calls given it, now and later.
    fn cancel(&self) {
        self.token.cancel();
    }

    /// Whether `cancel()` was called.
    #[getter]
    fn cancelled(&self) -> bool {
        self.token.is_cancelled()
    }

    fn __repr__(&self) -> String {
        let cancelled = if self.cancelled() { "True" } else { "False" };
        format!("Cancel(cancelled={cancelled})")
    }
}
