//! Every numeric setting that more than one front end takes, once: its name, range,
//! unit and default. The command line, UGI, the web API, engine specs and Python read a
//! value through the same [`Range`] and put their own spelling of the setting before the
//! refusal (`--depth: `, `go: depth: `, `engine key `depth`: `), so they accept the same
//! values and refuse the others in the same words: "must be 1..=100 plies, found 0".

use std::fmt;
use std::str::FromStr;

use serde_json::Value;

use crate::eval::net::MAX_HIDDEN;
use crate::search::alphabeta::MAX_DEPTH;
use crate::search::level::{LEVEL_MULTIPV, LOWEST_LEVEL, TOP_LEVEL};
use isolo_rules::MAX_PERFT_DEPTH;

// The limits below are defined here, where the ranges read them, rather than in the
// modules that use them (which re-export them), so that this module imports nothing
// above the searchers: the front ends' ranges stand below matches and provers alike.

/// The most threads one search may use.
pub const MAX_THREADS: usize = 256;
/// The longest time an engine spec's `time-ms=` or `stall-ms=` may give, in ms (a day).
pub const MAX_MOVE_TIME_MS: u64 = 86_400_000;
/// The most plies of captures an alpha-beta spec's `quiescence=` may ask for.
pub const MAX_QUIESCENCE_PLIES: u32 = 16;
/// The most seeds an alpha-beta spec's `contempt=` may ask for.
pub const MAX_CONTEMPT_SEEDS: i32 = 100;
/// `contempt=`'s default, in seeds (`alphabeta::DEFAULT_CONTEMPT`).
pub const DEFAULT_CONTEMPT_SEEDS: i32 = crate::search::alphabeta::DEFAULT_CONTEMPT / 100;
/// The default ply limit, after which a game is a draw.
pub const DEFAULT_GAME_PLIES: usize = 1000;
/// The most games one match, tournament, comparison or tuning run may schedule.
pub const MAX_GAMES: u64 = 100_000_000;
/// The most games played at once (then clamped to the games and the cores).
pub const MAX_CONCURRENCY: usize = 1024;
/// The longest game a match, comparison or tuning run plays before adjudicating.
pub const MAX_GAME_PLIES: usize = 1_000_000;
/// The longest result a proof looks for unless told otherwise, in plies.
pub const DEFAULT_PROOF_PLIES: u32 = 30;
/// The deepest line df-pn and retrograde analysis follow (`max_plies` for them).
pub const DFPN_MAX_PLIES: u32 = 10_000;

/// A number type a setting can hold.
pub trait Number: Copy + PartialOrd + fmt::Display + FromStr + Send + Sync + 'static {
    /// The type's largest value.
    const TOP: Self;
    /// Whether the type holds fractions (its refusal then says "a number").
    const FRACTIONAL: bool = false;
}

macro_rules! whole_numbers {
    ($($t:ty),*) => { $(impl Number for $t { const TOP: Self = <$t>::MAX; })* };
}
whole_numbers!(u8, u16, u32, u64, usize, i32);

impl Number for f64 {
    const TOP: Self = f64::MAX;
    const FRACTIONAL: bool = true;
}

pub use isolo_rules::{quote, QUOTE_CHARS};

/// Why a value was refused; each front end puts its own name of the setting before it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RangeError {
    /// A number outside the range.
    #[error("must be {range}, found {found}")]
    Outside {
        /// The range, as [`Range`] displays it.
        range: String,
        /// The value given, quoted short.
        found: String,
    },
    /// Something that is not a number of the setting's kind.
    #[error("'{found}' is not a {kind} ({range})")]
    NotANumber {
        /// "whole number" or "number".
        kind: &'static str,
        /// The range.
        range: String,
        /// The value given, quoted short.
        found: String,
    },
    /// No value where one was needed.
    #[error("needs a value ({range})")]
    Missing {
        /// The range.
        range: String,
    },
}

/// A setting's name, range `least..=most` in `unit`, and default.
#[derive(Clone, Copy, Debug)]
pub struct Range<T> {
    /// The setting's name in the engine's own words (an engine-spec key, a request
    /// field); front ends spell it their way.
    pub name: &'static str,
    /// The least value accepted.
    pub least: T,
    /// The most.
    pub most: T,
    /// The unit the range is written in ("plies", "ms"), or "".
    pub unit: &'static str,
    /// The value taken when none is given, where there is one.
    pub default: Option<T>,
    /// Bounded above only by the type: written "at least".
    open: bool,
}

impl<T: Number> Range<T> {
    /// From `least` to `most`, no default.
    pub const fn new(name: &'static str, least: T, most: T, unit: &'static str) -> Self {
        Range {
            name,
            least,
            most,
            unit,
            default: None,
            open: false,
        }
    }

    /// From `least` up to the type's largest value (written "at least `least`").
    pub const fn at_least(name: &'static str, least: T, unit: &'static str) -> Self {
        Range {
            name,
            least,
            most: T::TOP,
            unit,
            default: None,
            open: true,
        }
    }

    /// From `least` to `most`, `default` when not given.
    const fn defaulting(
        name: &'static str,
        least: T,
        most: T,
        unit: &'static str,
        default: T,
    ) -> Self {
        Range {
            name,
            least,
            most,
            unit,
            default: Some(default),
            open: false,
        }
    }

    /// The default, for settings that have one.
    pub fn or_default(&self, given: Option<T>) -> Option<T> {
        given.or(self.default)
    }

    /// `value` if it is in range.
    pub fn check(&self, value: T) -> Result<T, RangeError> {
        // NaN compares false: it is refused with the range.
        if value >= self.least && value <= self.most {
            Ok(value)
        } else {
            Err(self.outside(&value.to_string()))
        }
    }

    /// `text` as a number in range.
    pub fn parse(&self, text: &str) -> Result<T, RangeError> {
        let found = text.trim();
        if found.is_empty() {
            return Err(RangeError::Missing {
                range: self.to_string(),
            });
        }
        match found.parse::<T>() {
            Ok(n) => self.check(n),
            // A whole number that the type cannot hold (-1, 2^64, 10^40) is out of range
            // too.
            Err(_) if is_whole_number(found) => Err(self.unheld(found)),
            Err(_) => Err(self.not_a_number(found)),
        }
    }

    /// A request's value, taken as any JSON value so that a negative, fractional or
    /// textual one is refused in the setting's words; `None` when not given.
    pub fn from_json(&self, value: Option<&Value>) -> Result<Option<T>, RangeError> {
        match value {
            None | Some(Value::Null) => Ok(None),
            // JSON reads a whole number past 64 bits as a float (2^64 as 1.8e19).
            Some(Value::Number(n))
                if !T::FRACTIONAL
                    && n.is_f64()
                    && n.as_f64()
                        .is_some_and(|f| f.fract() == 0.0 && f.abs() >= 1e19) =>
            {
                Err(self.unheld(&n.to_string()))
            }
            Some(Value::Number(n)) => self.parse(&n.to_string()).map(Some),
            Some(other) => Err(self.not_a_number(&other.to_string())),
        }
    }

    fn not_a_number(&self, found: &str) -> RangeError {
        RangeError::NotANumber {
            kind: if T::FRACTIONAL {
                "number"
            } else {
                "whole number"
            },
            range: self.to_string(),
            found: quote(found),
        }
    }

    fn outside(&self, found: &str) -> RangeError {
        RangeError::Outside {
            range: self.to_string(),
            found: quote(found),
        }
    }

    /// A whole number the type cannot hold: below it, or (for a range open above, which
    /// does not say its top) past the type's largest value, named.
    fn unheld(&self, found: &str) -> RangeError {
        if !self.open || found.starts_with('-') {
            return self.outside(found);
        }
        RangeError::Outside {
            range: format!("{self} and at most {}", T::TOP),
            found: quote(found),
        }
    }
}

/// Whether `text` is a whole number in decimal digits, of any size, with or without a
/// sign.
fn is_whole_number(text: &str) -> bool {
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

impl<T: Number> fmt::Display for Range<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.open {
            write!(f, "at least {}", self.least)?;
        } else {
            write!(f, "{}..={}", self.least, self.most)?;
        }
        if !self.unit.is_empty() {
            write!(f, " {}", self.unit)?;
        }
        Ok(())
    }
}

/// The largest transposition table asked for, in MB (then checked against the memory:
/// [`crate::search::tt::check_table_mb`]).
pub const MAX_HASH_MB: usize = 1 << 20;
/// The longest wait a setting gives, in milliseconds: a day.
pub const MAX_WAIT_MS: u64 = 86_400_000;
/// The most alpha-beta nodes a review may spend on one position.
pub const MAX_REVIEW_NODES: u64 = 5_000_000;
/// Alpha-beta nodes a review spends on a position when given no budget.
pub const DEFAULT_REVIEW_NODES: u64 = 200_000;
/// Table size of an analysis that names none, in MB.
pub const DEFAULT_HASH_MB: usize = 64;

/// A seed: any 64-bit number.
pub const SEED: Range<u64> = Range::at_least("seed", 0, "");
/// A strength level.
pub const LEVEL: Range<u8> = Range::defaulting("level", LOWEST_LEVEL, TOP_LEVEL, "", TOP_LEVEL);
/// Threads of one search.
pub const THREADS: Range<usize> = Range::defaulting("threads", 1, MAX_THREADS, "threads", 1);
/// A transposition table's size.
pub const HASH_MB: Range<usize> = Range::defaulting("hash", 1, MAX_HASH_MB, "MB", DEFAULT_HASH_MB);
/// A search's depth.
pub const DEPTH: Range<u32> = Range::new("depth", 1, MAX_DEPTH, "plies");
/// Perft's depth.
pub const PERFT_DEPTH: Range<u32> = Range::new("depth", 0, MAX_PERFT_DEPTH, "plies");
/// A node (alpha-beta) or iteration (MCTS) limit.
pub const NODES: Range<u64> = Range::at_least("nodes", 1, "");
/// A time limit per search, in milliseconds.
pub const TIME_MS: Range<u64> = Range::new("time-ms", 1, MAX_MOVE_TIME_MS, "ms");
/// `solve`'s time limit, in milliseconds: 0 for none
/// ([`crate::prove::pipeline::time_limit`]).
pub const SOLVE_TIME_MS: Range<u64> = Range::new("time-ms", 0, MAX_WAIT_MS, "ms");
/// Time left on a clock, or its increment, in milliseconds.
pub const CLOCK_MS: Range<u64> = Range::new("clock", 0, MAX_WAIT_MS, "ms");
/// Principal variations an analysis shows: at most every root move a level scores.
pub const MULTIPV: Range<usize> = Range::defaulting("multipv", 1, LEVEL_MULTIPV, "lines", 1);
/// Alpha-beta's quiescence depth.
pub const QUIESCENCE: Range<u32> = Range::new("quiescence", 0, MAX_QUIESCENCE_PLIES, "plies");
/// Alpha-beta's contempt for a draw, in seeds.
pub const CONTEMPT: Range<i32> = Range::defaulting(
    "contempt",
    0,
    MAX_CONTEMPT_SEEDS,
    "seeds",
    DEFAULT_CONTEMPT_SEEDS,
);
/// Games of a match, tournament or comparison.
pub const GAMES: Range<u64> = Range::new("games", 1, MAX_GAMES, "games");
/// Games played at once.
pub const CONCURRENCY: Range<usize> =
    Range::defaulting("concurrency", 1, MAX_CONCURRENCY, "games at once", 1);
/// Plies after which a game of a match or comparison is adjudicated a draw.
pub const GAME_PLIES: Range<usize> =
    Range::defaulting("max-plies", 1, MAX_GAME_PLIES, "plies", DEFAULT_GAME_PLIES);
/// The longest result a prover looks for (the alpha-beta prover takes at most
/// [`MAX_DEPTH`]: `Method::most_plies`).
pub const PROOF_PLIES: Range<u32> =
    Range::defaulting("max-plies", 1, DFPN_MAX_PLIES, "plies", DEFAULT_PROOF_PLIES);
/// Plies of a random playout.
pub const PLAYOUT_PLIES: Range<u32> = Range::new("max-plies", 1, MAX_GAME_PLIES as u32, "plies");
/// Choice sequences a list of every legal move holds at most (memory: about 100 bytes
/// each); past it the list is refused with the bound.
pub const LISTED_SEQUENCES: Range<usize> = Range::defaulting(
    "limit",
    1,
    100_000_000,
    "moves",
    isolo_rules::SEQUENCES_LISTED,
);
/// Random games of one `playouts` call.
pub const PLAYOUTS: Range<u64> = Range::new("games", 1, 100_000_000, "games");
/// The time a whole review may take, in milliseconds.
pub const REVIEW_TOTAL_MS: Range<u64> = Range::new("total-ms", 1, MAX_WAIT_MS, "ms");
/// Alpha-beta nodes a review spends on each position.
pub const REVIEW_NODES: Range<u64> = Range::defaulting(
    "nodes",
    1,
    MAX_REVIEW_NODES,
    "nodes a position",
    DEFAULT_REVIEW_NODES,
);
/// Self-play games of a tuning run.
pub const TUNE_GAMES: Range<usize> = Range::defaulting("games", 1, 1_000_000, "games", 2000);
/// Random plies a tuning game plays after its opening, for variety.
pub const TUNE_RANDOM_PLIES: Range<u32> = Range::defaulting("random-plies", 0, 1000, "plies", 6);
/// Alpha-beta nodes a self-play move of a tuning run.
pub const TUNE_NODES: Range<u64> = Range {
    default: Some(1500),
    ..NODES
};
/// Plies after which a tuning game is drawn.
pub const TUNE_GAME_PLIES: Range<usize> =
    Range::defaulting("max-plies", 1, MAX_GAME_PLIES, "plies", 400);
/// Capture plies a tuning position is resolved over to count as quiet.
pub const TUNE_QUIET_PLIES: Range<u32> =
    Range::defaulting("quiet-plies", 0, MAX_QUIESCENCE_PLIES, "plies", 2);
/// Gradient steps of the weights' fit (0 keeps the starting weights).
pub const TUNE_EPOCHS: Range<usize> = Range::defaulting("epochs", 0, 1_000_000, "epochs", 600);
/// Hidden units of the net trained over the weights (0: none).
pub const NET_HIDDEN: Range<usize> = Range::defaulting("net", 0, MAX_HIDDEN, "hidden units", 0);
/// Passes over the samples when training the net.
pub const NET_EPOCHS: Range<usize> = Range::defaulting("net-epochs", 1, 1_000_000, "epochs", 20);

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn refusals_name_the_range_in_the_domain_words() {
        let refusal = |r: Result<u32, RangeError>| r.unwrap_err().to_string();
        assert_eq!(
            refusal(DEPTH.parse("-1")),
            "must be 1..=100 plies, found -1"
        );
        assert_eq!(refusal(DEPTH.parse("0")), "must be 1..=100 plies, found 0");
        assert_eq!(DEPTH.parse(" 100 "), Ok(100));
        assert_eq!(
            NODES
                .parse("99999999999999999999999")
                .unwrap_err()
                .to_string(),
            "must be at least 1 and at most 18446744073709551615, found 99999999999999999999999"
        );
        // Beyond every integer type: still a number out of range, not "not a number".
        assert!(
            refusal(DEPTH.parse(&"9".repeat(45))).starts_with("must be 1..=100 plies, found 999")
        );
        assert_eq!(
            refusal(DEPTH.parse("deep")),
            "'deep' is not a whole number (1..=100 plies)"
        );
        assert_eq!(refusal(DEPTH.parse("")), "needs a value (1..=100 plies)");
        let eval = Range::new("eval", 0.0, 1000.0, "seeds");
        assert_eq!(eval.parse("2.5"), Ok(2.5));
        assert!(eval.parse("NaN").is_err());
        assert!(eval.parse("-0.5").is_err());
        assert_eq!(SEED.parse("18446744073709551615"), Ok(u64::MAX));
        assert_eq!(
            SEED.parse("-1").unwrap_err().to_string(),
            "must be at least 0, found -1"
        );
    }

    #[test]
    fn json_values_are_refused_in_the_same_words_as_text() {
        let depth = |v: Value| DEPTH.from_json(Some(&v)).map_err(|e| e.to_string());
        assert_eq!(depth(json!(7)), Ok(Some(7)));
        assert_eq!(DEPTH.from_json(None), Ok(None));
        assert_eq!(depth(json!(null)), Ok(None));
        assert_eq!(
            depth(json!(-1)),
            Err("must be 1..=100 plies, found -1".into())
        );
        assert_eq!(
            depth(json!(2.5)),
            Err("'2.5' is not a whole number (1..=100 plies)".into())
        );
        assert_eq!(
            depth(json!("7")),
            Err("'\"7\"' is not a whole number (1..=100 plies)".into())
        );
        // Past 64 bits JSON holds a float: refused as too large, not as a fraction.
        let seed = |text: &str| {
            let value: Value = serde_json::from_str(text).unwrap();
            SEED.from_json(Some(&value)).map_err(|e| e.to_string())
        };
        assert_eq!(seed("18446744073709551615"), Ok(Some(u64::MAX)));
        let refusal = seed("18446744073709551616").unwrap_err();
        assert!(
            refusal.starts_with("must be at least 0 and at most 18446744073709551615, found 1.8"),
            "{refusal}"
        );
    }

    #[test]
    fn long_input_is_quoted_short() {
        let long = "9".repeat(250_000);
        let message = DEPTH.parse(&long).unwrap_err().to_string();
        assert!(message.len() < 120, "{message}");
        assert!(message.contains("... (250000 bytes)"), "{message}");
        assert_eq!(quote("short"), "short");
        // Cut on a character boundary.
        assert!(quote(&"é".repeat(100)).starts_with(&"é".repeat(QUOTE_CHARS)));
    }

    #[test]
    fn defaults_lie_in_their_ranges() {
        assert_eq!(LEVEL.check(LEVEL.default.unwrap()), Ok(TOP_LEVEL));
        assert!(THREADS.check(THREADS.default.unwrap()).is_ok());
        assert!(HASH_MB.check(HASH_MB.default.unwrap()).is_ok());
        assert!(MULTIPV.check(MULTIPV.default.unwrap()).is_ok());
        assert!(CONTEMPT.check(CONTEMPT.default.unwrap()).is_ok());
        assert!(CONCURRENCY.check(CONCURRENCY.default.unwrap()).is_ok());
        assert!(GAME_PLIES.check(GAME_PLIES.default.unwrap()).is_ok());
        assert!(PROOF_PLIES.check(PROOF_PLIES.default.unwrap()).is_ok());
        assert!(REVIEW_NODES.check(REVIEW_NODES.default.unwrap()).is_ok());
        for range in [
            TUNE_GAMES,
            TUNE_GAME_PLIES,
            TUNE_EPOCHS,
            NET_HIDDEN,
            NET_EPOCHS,
        ] {
            assert!(
                range.check(range.default.unwrap()).is_ok(),
                "{}",
                range.name
            );
        }
        assert!(TUNE_NODES.check(TUNE_NODES.default.unwrap()).is_ok());
        assert!(TUNE_RANDOM_PLIES
            .check(TUNE_RANDOM_PLIES.default.unwrap())
            .is_ok());
        assert!(TUNE_QUIET_PLIES
            .check(TUNE_QUIET_PLIES.default.unwrap())
            .is_ok());
        assert_eq!(MULTIPV.or_default(None), Some(1));
        assert_eq!(MULTIPV.or_default(Some(3)), Some(3));
    }
}
