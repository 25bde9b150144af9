//! Clocks: time controls (`10+0.1`: ten seconds, a tenth of a second added after each
//! move), and the time management every built-in engine on a clock uses (matches,
//! `play`, `analyze --tc`, `ugi`): how much of what is left one move may spend.
//!
//! A move gets a *target* (its share of the time left plus most of the increment) and a
//! *hard limit* (a few targets, never more than a fraction of the time left). The
//! searchers stop near the target when their best move is settled, run on towards the
//! hard limit while it is not, and stop at once on a proven result.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use crate::search::Limits;

/// The moves a clock is expected to last from any point: the time left is shared out
/// as if this many moves remained.
const MOVES_TO_GO: u32 = 25;
/// The share of the increment a move may spend on top of its share of the clock.
const INCREMENT_SHARE: f64 = 0.75;
/// How many targets the hard limit allows when the best move keeps changing.
const MAX_STRETCH: u32 = 4;
/// The most of the time left one move may ever use.
const MAX_SHARE_OF_CLOCK: f64 = 0.3;
/// Kept back on every move for what the search does not control (starting threads,
/// answering, a manager reading the reply).
const MOVE_OVERHEAD: Duration = Duration::from_millis(15);
/// The least time a move is given, even on an almost empty clock.
const MIN_MOVE_TIME: Duration = Duration::from_millis(1);

/// A time control: `base` to start with, `increment` added after each move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// The clock at the start of the game.
    pub base: Duration,
    /// Added to the clock after each move.
    pub increment: Duration,
}

/// A time control that does not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("time control '{text}': {problem} (expected SECONDS or SECONDS+INCREMENT, e.g. 10+0.1)")]
pub struct TimeControlError {
    /// The text given.
    pub text: String,
    /// What is wrong.
    pub problem: String,
}

/// The longest clock accepted: a day.
const MAX_CLOCK_SECONDS: f64 = 86_400.0;

/// The base's range in words: it may not be 0, which no move could be made on.
const BASE_RANGE: &str = "more than 0 and at most 86400 seconds";
/// The increment's.
const INCREMENT_RANGE: &str = "0 to 86400 seconds";

/// `text` as a number of seconds that `accepts`, or a refusal naming `what` and `range`.
fn seconds(
    text: &str,
    what: &str,
    range: &str,
    accepts: impl Fn(f64) -> bool,
) -> Result<Duration, String> {
    let text = text.trim();
    match text.parse::<f64>() {
        Ok(s) if s.is_finite() && s <= MAX_CLOCK_SECONDS && accepts(s) => {
            Ok(Duration::from_secs_f64(s))
        }
        Ok(_) => Err(format!(
            "the {what} must be {range}, found {}",
            isolo_rules::quote(text)
        )),
        Err(_) => Err(format!(
            "the {what}: '{}' is not a number of seconds",
            isolo_rules::quote(text)
        )),
    }
}

impl FromStr for TimeControl {
    type Err = TimeControlError;

    fn from_str(text: &str) -> Result<TimeControl, TimeControlError> {
        let error = |problem: String| TimeControlError {
            text: isolo_rules::quote(text),
            problem,
        };
        let (base, increment) = match text.split_once('+') {
            Some((b, i)) => (b, Some(i)),
            None => (text, None),
        };
        let base = seconds(base, "base", BASE_RANGE, |s| s > 0.0).map_err(error)?;
        let increment = match increment {
            Some(i) => seconds(i, "increment", INCREMENT_RANGE, |s| s >= 0.0).map_err(error)?,
            None => Duration::ZERO,
        };
        if base.is_zero() {
            // (A base so small that it rounds to no time at all.)
            return Err(error(format!("the base must be {BASE_RANGE}")));
        }
        Ok(TimeControl { base, increment })
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (base, increment) = (self.base.as_secs_f64(), self.increment.as_secs_f64());
        if increment > 0.0 {
            write!(f, "{base}+{increment}")
        } else {
            write!(f, "{base}")
        }
    }
}

/// One side's clock as a move starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Time left.
    pub left: Duration,
    /// Added after the move.
    pub increment: Duration,
}

impl Clock {
    /// A full clock under `control`.
    pub fn start(control: &TimeControl) -> Clock {
        Clock {
            left: control.base,
            increment: control.increment,
        }
    }

    /// Takes a move's time off the clock (never below zero) and adds the increment.
    pub fn spend(&mut self, spent: Duration) {
        self.left = self.left.saturating_sub(spent) + self.increment;
    }

    /// The target and hard limit of one move on this clock.
    pub fn budget(&self) -> Budget {
        let usable = self.left.saturating_sub(MOVE_OVERHEAD.min(self.left / 2));
        let share = usable / MOVES_TO_GO + self.increment.mul_f64(INCREMENT_SHARE);
        let hard = (share * MAX_STRETCH)
            .min(usable.mul_f64(MAX_SHARE_OF_CLOCK))
            .max(MIN_MOVE_TIME);
        Budget {
            target: share.min(hard).max(MIN_MOVE_TIME),
            hard,
        }
    }

    /// Search limits for one move on this clock; `cap` (a spec's depth or node limit)
    /// still applies.
    pub fn limits(&self, cap: Limits) -> Limits {
        let budget = self.budget();
        Limits {
            time: Some(cap.time.map_or(budget.hard, |t| t.min(budget.hard))),
            soft_time: Some(budget.target),
            ..cap
        }
    }
}

/// The time one move may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Where a search with a settled best move stops.
    pub target: Duration,
    /// Never passed.
    pub hard: Duration,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn time_controls_parse_and_print() {
        let tc: TimeControl = "10+0.1".parse().unwrap();
        assert_eq!((tc.base, tc.increment), (ms(10_000), ms(100)));
        assert_eq!(tc.to_string(), "10+0.1");
        assert_eq!("0.5".parse::<TimeControl>().unwrap().increment, ms(0));
        for bad in [
            "", "0", "x+1", "1+y", "-1", "1+-1", "inf", "NaN", "1e9", "1+2+3",
        ] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
    }

    #[test]
    fn a_refused_clock_says_the_range_it_must_lie_in() {
        let problem = |text: &str| text.parse::<TimeControl>().unwrap_err().problem;
        assert_eq!(
            problem("1e308+0"),
            "the base must be more than 0 and at most 86400 seconds, found 1e308"
        );
        assert_eq!(
            problem("0+5"),
            "the base must be more than 0 and at most 86400 seconds, found 0"
        );
        assert_eq!(
            problem("10+-1"),
            "the increment must be 0 to 86400 seconds, found -1"
        );
        let long = format!("{}+0", "9".repeat(10_000));
        assert!(long.parse::<TimeControl>().unwrap_err().to_string().len() < 300);
    }

    #[test]
    fn budgets_share_the_clock_and_never_exceed_it() {
        let b = Clock {
            left: ms(10_000),
            increment: ms(100),
        }
        .budget();
        assert_eq!(b.target, ms(9_985) / 25 + ms(75));
        assert!(b.hard >= b.target && b.hard <= ms(3_000));
        for left in [0, 1, 5, 20, 50, 100, 1000, 60_000] {
            for inc in [0, 10, 1000] {
                let b = Clock {
                    left: ms(left),
                    increment: ms(inc),
                }
                .budget();
                assert!(b.target <= b.hard, "{left}+{inc}");
                assert!(
                    b.hard <= ms(left).mul_f64(MAX_SHARE_OF_CLOCK).max(MIN_MOVE_TIME),
                    "{left}+{inc}: {b:?}"
                );
            }
        }
    }
}
