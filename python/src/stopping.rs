//! Stopping the package's calls: each running call has a stop flag of its own, raised
//! by Ctrl-C (every call, in any thread), by a [`Cancel`] it was given (that call alone)
//! or by `Engine.stop()`.
//!
//! The engine takes `&'static` flags (its provers hand them to threads of their own), so
//! the flags are a fixed table of slots, one taken per running call; past
//! [`PRIVATE_SLOTS`] calls at once the rest share the last, which a `Cancel` then stops
//! together.

use std::ffi::{c_int, c_void};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, Once, OnceLock};
use std::time::{Duration, Instant};

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

/// Python's SIGINT action when the hook was installed, which the hook hands the signal
/// on to.
static PREVIOUS: OnceLock<libc::sigaction> = OnceLock::new();

/// The hook: every running call's flag raised, then the signal handed to Python's own
/// handler as before.
extern "C" fn on_sigint(signal: c_int, info: *mut libc::siginfo_t, context: *mut c_void) {
    stop_all();
    let Some(previous) = PREVIOUS.get() else {
        return;
    };
    let handler = previous.sa_sigaction;
    if handler == libc::SIG_DFL || handler == libc::SIG_IGN {
        return;
    }
    if previous.sa_flags & libc::SA_SIGINFO != 0 {
        // SAFETY: a handler installed with SA_SIGINFO takes these three arguments.
        let chained: extern "C" fn(c_int, *mut libc::siginfo_t, *mut c_void) =
            unsafe { std::mem::transmute(handler) };
        chained(signal, info, context);
    } else {
        // SAFETY: a handler installed without SA_SIGINFO takes the signal alone.
        let chained: extern "C" fn(c_int) = unsafe { std::mem::transmute(handler) };
        chained(signal);
    }
}

/// Lets Ctrl-C stop the calls running in every thread, not only a call in the main
/// thread (which alone sees Python's `KeyboardInterrupt`): a SIGINT handler that raises
/// every flag, then runs Python's own handler as before. It keeps Python's flags (no
/// SA_RESTART where Python had none, so that a blocking call returns EINTR and Python's
/// handler raises `KeyboardInterrupt` there), and leaves an ignored SIGINT ignored (a
/// job started so) and a default one as it is (Ctrl-C then ends the process, its calls
/// with it).
pub(crate) fn hook_ctrl_c() {
    static HOOKED: Once = Once::new();
    HOOKED.call_once(|| {
        // SAFETY: reading the current action into a zeroed struct of the right type.
        let mut previous: libc::sigaction = unsafe { std::mem::zeroed() };
        // SAFETY: `previous` is a valid out-pointer; no action is set.
        if unsafe { libc::sigaction(libc::SIGINT, std::ptr::null(), &mut previous) } != 0 {
            return;
        }
        if previous.sa_sigaction == libc::SIG_IGN || previous.sa_sigaction == libc::SIG_DFL {
            return;
        }
        let previous = *PREVIOUS.get_or_init(|| previous);
        // SAFETY: a zeroed action, filled in below.
        let mut action: libc::sigaction = unsafe { std::mem::zeroed() };
        action.sa_sigaction = on_sigint as *const () as usize;
        action.sa_mask = previous.sa_mask;
        action.sa_flags = (previous.sa_flags & !libc::SA_RESETHAND) | libc::SA_SIGINFO;
        // SAFETY: the handler only stores to atomics and calls the handler that was
        // installed before it, as the kernel would have (async-signal-safe as that one
        // is); `action` is fully initialised.
        unsafe { libc::sigaction(libc::SIGINT, &action, std::ptr::null_mut()) };
    });
}

/// Whether the interpreter is exiting (`stop_for_exit` ran): a call ending now in
/// another thread than the exiting one does not take the GIL back.
static EXITING: AtomicBool = AtomicBool::new(false);
/// The thread that runs the interpreter's exit (its `atexit` hooks), whose calls (an
/// `atexit` hook of the program's own may make one) go on as ever.
static EXIT_THREAD: OnceLock<std::thread::ThreadId> = OnceLock::new();
/// Calls whose thread may still take the GIL back: the interpreter's exit waits for
/// them.
static ACTIVE: AtomicUsize = AtomicUsize::new(0);

/// How long the interpreter's exit waits for running calls to stop.
const EXIT_WAIT: Duration = Duration::from_secs(10);

/// A running call, counted in `ACTIVE` while it lasts.
pub(crate) struct Active;

impl Active {
    pub(crate) fn begin() -> Active {
        ACTIVE.fetch_add(1, Ordering::SeqCst);
        Active
    }

    /// Where the call would take the GIL back (its work answered, or a look for
    /// signals due), without the GIL: once the interpreter is exiting the thread never
    /// does, but waits here for the process to end (a daemon thread taking the GIL
    /// during finalization would abort the process).
    pub(crate) fn before_python(&self) {
        let exiting_here = EXIT_THREAD.get() == Some(&std::thread::current().id());
        if EXITING.load(Ordering::SeqCst) && !exiting_here {
            ACTIVE.fetch_sub(1, Ordering::SeqCst);
            loop {
                std::thread::park();
            }
        }
    }
}

impl Drop for Active {
    fn drop(&mut self) {
        ACTIVE.fetch_sub(1, Ordering::SeqCst);
    }
}

/// At the interpreter's exit (an `atexit` hook): every running call stopped, and the
/// threads that run them (daemon threads) held off the GIL, waited for up to
/// `EXIT_WAIT` with the GIL released; then the interpreter finalizes without them.
#[pyfunction]
pub(crate) fn stop_for_exit(py: Python<'_>) {
    let _ = EXIT_THREAD.set(std::thread::current().id());
    EXITING.store(true, Ordering::SeqCst);
    stop_all();
    py.detach(|| {
        let started = Instant::now();
        while ACTIVE.load(Ordering::SeqCst) > 0 && started.elapsed() < EXIT_WAIT {
            std::thread::sleep(Duration::from_millis(5));
        }
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
