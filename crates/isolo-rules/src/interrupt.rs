//! Stopping move generation that runs long.
//!
//! One move can take millions of laps and one position can have millions of moves (a
//! rules file with `max_laps = 1000000` and captures on any seeds makes both), so a
//! caller with a clock or a stop button cannot wait for a listing or a walk to end by
//! itself. An [`Interrupt`] is a flag that anyone holding it may raise, with a deadline
//! that raises it; the generators ([`crate::MoveGen`], [`crate::MoveWalk`]) check it
//! every [`POLL_LAPS`] laps and stop where they are once it is up, their work then
//! incomplete (each says so: `interrupted`).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// Laps sown between two checks of an interrupt: a check reads the clock, which costs
/// about as much as a few laps, and 4,096 laps take tens of microseconds.
pub(crate) const POLL_LAPS: u32 = 4096;

/// A stop request shared between a generator and whoever may stop it.
#[derive(Clone, Debug, Default)]
pub struct Interrupt {
    /// `None`: nothing ever stops the work.
    flag: Option<Flag>,
    deadline: Option<Instant>,
}

/// The flag an interrupt reads.
#[derive(Clone, Debug)]
enum Flag {
    Shared(Arc<AtomicBool>),
    /// A process-wide flag, such as the one a signal handler raises.
    Static(&'static AtomicBool),
}

impl Flag {
    fn get(&self) -> &AtomicBool {
        match self {
            Flag::Shared(flag) => flag,
            Flag::Static(flag) => flag,
        }
    }
}

impl Interrupt {
    /// An interrupt raised by `flag`, or once `deadline` has passed (which then raises
    /// `flag`, so that everyone sharing it sees the stop).
    pub fn new(flag: Arc<AtomicBool>, deadline: Option<Instant>) -> Interrupt {
        Interrupt {
            flag: Some(Flag::Shared(flag)),
            deadline,
        }
    }

    /// An interrupt raised by a process-wide `flag` (a signal handler's), no deadline.
    pub fn on_static(flag: &'static AtomicBool) -> Interrupt {
        Interrupt {
            flag: Some(Flag::Static(flag)),
            deadline: None,
        }
    }

    /// An interrupt that never stops anything.
    pub fn never() -> Interrupt {
        Interrupt::default()
    }

    /// Whether the work should stop now.
    pub fn raised(&self) -> bool {
        let Some(flag) = self.flag.as_ref().map(Flag::get) else {
            return false;
        };
        if flag.load(Ordering::Relaxed) {
            return true;
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            flag.store(true, Ordering::Relaxed);
            return true;
        }
        false
    }
}

/// An interrupt checked every `POLL_LAPS` laps, and whether it stopped the work.
#[derive(Clone, Debug)]
pub(crate) struct LapPoll {
    interrupt: Interrupt,
    left: u32,
    stopped: bool,
}

impl Default for LapPoll {
    fn default() -> Self {
        LapPoll {
            interrupt: Interrupt::never(),
            left: POLL_LAPS,
            stopped: false,
        }
    }
}

impl LapPoll {
    pub(crate) fn new(interrupt: Interrupt) -> LapPoll {
        LapPoll {
            interrupt,
            ..LapPoll::default()
        }
    }

    /// Counts a lap; false when the work must stop (and from then on, until `reset`).
    /// A lap between looks costs one count and one test: once stopped, every lap looks.
    #[inline(always)]
    pub(crate) fn lap(&mut self) -> bool {
        self.left -= 1;
        self.left != 0 || self.look()
    }

    /// The look at the interrupt every `POLL_LAPS` laps: whether the work goes on.
    #[cold]
    #[inline(never)]
    fn look(&mut self) -> bool {
        self.stopped = self.stopped || self.interrupt.raised();
        self.left = if self.stopped { 1 } else { POLL_LAPS };
        !self.stopped
    }

    /// Whether the interrupt stopped the work since the last `reset`.
    pub(crate) fn stopped(&self) -> bool {
        self.stopped
    }

    /// Forgets a stop: for work started anew (a new listing).
    pub(crate) fn reset(&mut self) {
        if self.stopped {
            self.stopped = false;
            self.left = POLL_LAPS;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_passed_deadline_raises_the_shared_flag() {
        let flag = Arc::new(AtomicBool::new(false));
        let interrupt = Interrupt::new(flag.clone(), Some(Instant::now()));
        assert!(interrupt.raised());
        assert!(flag.load(Ordering::Relaxed));
    }

    #[test]
    fn a_poll_stops_within_its_laps_and_stays_stopped() {
        let flag = Arc::new(AtomicBool::new(false));
        let later = Instant::now() + Duration::from_secs(3600);
        let mut poll = LapPoll::new(Interrupt::new(flag.clone(), Some(later)));
        assert!((0..2 * POLL_LAPS).all(|_| poll.lap()));
        flag.store(true, Ordering::Relaxed);
        let laps = (1..=POLL_LAPS + 1).find(|_| !poll.lap());
        assert!(laps.is_some_and(|n| n <= POLL_LAPS));
        assert!(!poll.lap() && poll.stopped());
        assert!(!LapPoll::default().stopped());
    }
}
