//! How a search stops where its work is: the caller's stop request and the clock reach
//! the move generators inside a node, not only the node counter between nodes.
//!
//! A searcher owns one flag, shared with its generators through an
//! [`isolo_rules::Interrupt`] whose deadline is the search's hard stop. The caller's
//! stop request (`SearchRequest::stop`, a borrowed flag) is forwarded to it by a
//! watcher thread while the search runs, so that a `stop`, a Ctrl-C or a client that
//! left ends even a listing of millions of moves within milliseconds.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use isolo_rules::Interrupt;

/// How often the watcher looks at the caller's flag.
const WATCH_INTERVAL: Duration = Duration::from_millis(5);

/// Time past a search's time limit at which its generators stop whatever they are doing.
/// Between nodes the limit itself applies once the first iteration is complete; the
/// margin lets a first iteration that is a little slow still complete, and bounds one
/// that never would (a vast move).
pub const HARD_STOP_MARGIN: Duration = Duration::from_millis(250);

/// A search's own stop flag and the interrupt its generators check.
#[derive(Clone, Debug)]
pub struct StopFlag {
    flag: Arc<AtomicBool>,
    interrupt: Interrupt,
}

impl StopFlag {
    /// A lowered flag; with a `deadline`, its generators stop `HARD_STOP_MARGIN` past it.
    pub fn new(deadline: Option<Instant>) -> StopFlag {
        let flag = Arc::new(AtomicBool::new(false));
        let hard = deadline.map(|d| d + HARD_STOP_MARGIN);
        StopFlag {
            interrupt: Interrupt::new(flag.clone(), hard),
            flag,
        }
    }

    /// Whether the search must stop.
    pub fn raised(&self) -> bool {
        self.flag.load(Ordering::Relaxed)
    }

    /// Stops the search.
    pub fn raise(&self) {
        self.flag.store(true, Ordering::Relaxed)
    }

    /// The interrupt for the search's generators.
    pub fn interrupt(&self) -> Interrupt {
        self.interrupt.clone()
    }

    /// Runs `work` with the caller's `outer` flag forwarded to this one as soon as it is
    /// raised (no watcher where there is no outer flag).
    pub(crate) fn forwarding<R>(&self, outer: Option<&AtomicBool>, work: impl FnOnce() -> R) -> R {
        match outer {
            Some(outer) => watching(|| outer.load(Ordering::Relaxed), || self.raise(), work),
            None => work(),
        }
    }
}

/// Runs `work` while a watcher thread looks at `happened` every few milliseconds and,
/// the first time it is true, calls `then`: for stops that no flag carries (a client
/// that left a web search, a caller's flag that the search's generators cannot read).
pub fn watching<R>(
    happened: impl Fn() -> bool + Sync,
    then: impl Fn() + Sync,
    work: impl FnOnce() -> R,
) -> R {
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let watcher = scope.spawn(|| {
            while !done.load(Ordering::Relaxed) {
                if happened() {
                    then();
                    return;
                }
                std::thread::park_timeout(WATCH_INTERVAL);
            }
        });
        // Ends the watcher when `work` returns or unwinds.
        let _finished = Finished {
            done: &done,
            watcher: watcher.thread(),
        };
        work()
    })
}

/// Tells the watcher to end, when dropped.
struct Finished<'a> {
    done: &'a AtomicBool,
    watcher: &'a std::thread::Thread,
}

impl Drop for Finished<'_> {
    fn drop(&mut self) {
        self.done.store(true, Ordering::Relaxed);
        self.watcher.unpark();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_callers_flag_reaches_the_search_while_it_runs() {
        let outer = AtomicBool::new(false);
        let stop = StopFlag::new(None);
        let seen = stop.forwarding(Some(&outer), || {
            outer.store(true, Ordering::Relaxed);
            let start = Instant::now();
            while !stop.interrupt().raised() && start.elapsed() < Duration::from_secs(5) {
                std::thread::sleep(Duration::from_millis(1));
            }
            stop.raised()
        });
        assert!(seen);
    }

    #[test]
    fn the_hard_stop_comes_a_margin_past_the_deadline() {
        let now = Instant::now();
        let Some(long_ago) = now.checked_sub(HARD_STOP_MARGIN * 2) else {
            return;
        };
        let late = StopFlag::new(Some(long_ago));
        assert_eq!(late.forwarding(None, || 7), 7);
        assert!(!late.raised() && late.interrupt().raised() && late.raised());
        let later = StopFlag::new(Some(now + Duration::from_secs(3600)));
        assert!(!later.interrupt().raised() && !later.raised());
    }
}
