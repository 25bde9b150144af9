//! The documented range of every numeric flag (docs/commands.md, "Ranges"): clap parses
//! and checks each value, so one outside its range is refused before any work, in the
//! flag's own words ("--depth: must be 1..=100 plies, found -1"). The ranges the engine
//! also enforces (engine spec keys, the provers' plies) are its constants, named here.

use std::ffi::OsStr;
use std::fmt;
use std::str::FromStr;

use clap::builder::TypedValueParser;
use clap::error::ErrorKind;

use isolo_engine::eval::net::MAX_HIDDEN;
use isolo_engine::matches::engine::{
    MAX_CONTEMPT_SEEDS, MAX_MOVE_TIME_MS, MAX_QUIESCENCE_PLIES, MAX_THREADS,
};
use isolo_engine::prove::pipeline::DFPN_MAX_PLIES;
use isolo_engine::search::alphabeta::MAX_DEPTH;
use isolo_engine::search::level::{LOWEST_LEVEL, TOP_LEVEL};
use isolo_rules::perft::MAX_PERFT_DEPTH;

/// A number type a flag can hold.
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

/// A flag's range, `least..=most` in `unit`, as clap's value parser.
#[derive(Clone, Copy, Debug)]
pub struct Bounded<T> {
    least: T,
    most: T,
    unit: &'static str,
    /// Bounded above only by the type: written "at least".
    open: bool,
}

impl<T: Number> Bounded<T> {
    /// From `least` to `most`.
    pub const fn new(least: T, most: T, unit: &'static str) -> Self {
        Bounded {
            least,
            most,
            unit,
            open: false,
        }
    }

    /// From `least` up to the type's largest value (written "at least `least`").
    pub const fn at_least(least: T, unit: &'static str) -> Self {
        Bounded {
            open: true,
            ..Bounded::new(least, T::TOP, unit)
        }
    }

    /// `text` as a number in range, or what is wrong with it.
    pub fn check(&self, text: &str) -> Result<T, String> {
        let found = text.trim();
        match found.parse::<T>() {
            // NaN compares false: it is refused with the range.
            Ok(n) if n >= self.least && n <= self.most => Ok(n),
            // A whole number that the type cannot hold (-1, 2^64) is out of range too.
            Ok(_) => Err(format!("must be {self}, found {found}")),
            Err(_) if found.parse::<i128>().is_ok() => {
                Err(format!("must be {self}, found {found}"))
            }
            Err(_) if T::FRACTIONAL => Err(format!("'{found}' is not a number ({self})")),
            Err(_) => Err(format!("'{found}' is not a whole number ({self})")),
        }
    }
}

impl<T: Number> fmt::Display for Bounded<T> {
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

impl<T: Number> TypedValueParser for Bounded<T> {
    type Value = T;

    fn parse_ref(
        &self,
        _cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<T, clap::Error> {
        let flag = arg
            .and_then(clap::Arg::get_long)
            .map_or_else(|| "value".to_string(), |long| format!("--{long}"));
        let problem = match value.to_str() {
            Some(text) => match self.check(text) {
                Ok(n) => return Ok(n),
                Err(problem) => problem,
            },
            None => format!("not UTF-8 text ({self})"),
        };
        Err(clap::Error::raw(
            ErrorKind::ValueValidation,
            format!("{flag}: {problem}\n"),
        ))
    }
}

pub use isolo_engine::matches::{MAX_CONCURRENCY, MAX_GAMES, MAX_GAME_PLIES};
/// The largest transposition table asked for, in MB (then checked against memory).
pub const MAX_HASH_MB: usize = 1 << 20;
/// The longest wait a flag sets, in milliseconds: a day.
pub const MAX_WAIT_MS: u64 = 86_400_000;

/// `--seed`: any 64-bit number.
pub const SEED: Bounded<u64> = Bounded::at_least(0, "");
/// `--level` (`play`).
pub const LEVEL: Bounded<u8> = Bounded::new(LOWEST_LEVEL, TOP_LEVEL, "");
/// `--threads` of a search.
pub const THREADS: Bounded<usize> = Bounded::new(1, MAX_THREADS, "threads");
/// `--hash`.
pub const HASH_MB: Bounded<usize> = Bounded::new(1, MAX_HASH_MB, "MB");
/// A search's `--depth`.
pub const DEPTH: Bounded<u32> = Bounded::new(1, MAX_DEPTH, "plies");
/// `perft --depth`.
pub const PERFT_DEPTH: Bounded<u32> = Bounded::new(0, MAX_PERFT_DEPTH, "plies");
/// A node or iteration limit.
pub const NODES: Bounded<u64> = Bounded::at_least(1, "");
/// A time limit per search, in milliseconds.
pub const TIME_MS: Bounded<u64> = Bounded::new(1, MAX_MOVE_TIME_MS, "ms");
/// A wait of 0 ms or more (a clock's margin).
pub const MARGIN_MS: Bounded<u64> = Bounded::new(0, MAX_WAIT_MS, "ms");
/// A wait of at least 1 ms (a handshake).
pub const WAIT_MS: Bounded<u64> = Bounded::new(1, MAX_WAIT_MS, "ms");
/// `--quiescence`.
pub const QUIESCENCE: Bounded<u32> = Bounded::new(0, MAX_QUIESCENCE_PLIES, "plies");
/// `--contempt`.
pub const CONTEMPT: Bounded<i32> = Bounded::new(0, MAX_CONTEMPT_SEEDS, "seeds");
/// `--games` of a match, tournament or comparison.
pub const GAMES: Bounded<u64> = Bounded::new(1, MAX_GAMES, "games");
/// `--concurrency`.
pub const CONCURRENCY: Bounded<usize> = Bounded::new(1, MAX_CONCURRENCY, "games at once");
/// `--max-plies` of a game.
pub const GAME_PLIES: Bounded<usize> = Bounded::new(1, MAX_GAME_PLIES, "plies");
/// `--max-plies` of a proof (the alpha-beta prover takes at most `MAX_DEPTH`).
pub const PROOF_PLIES: Bounded<u32> = Bounded::new(1, DFPN_MAX_PLIES, "plies");
/// `--max-plies` of a random playout.
pub const PLAYOUT_PLIES: Bounded<u32> = Bounded::new(1, MAX_GAME_PLIES as u32, "plies");
/// Random plies played from the start (openings, tuning).
pub const RANDOM_PLIES: Bounded<u32> = Bounded::new(0, 1000, "plies");
/// A game number in a records file: its `game` field, counted from 0.
pub const GAME_NUMBER: Bounded<u64> = Bounded::at_least(0, "");
/// `openings --count`: positions in a suite.
pub const SUITE_SIZE: Bounded<usize> = Bounded::new(1, 1_000_000, "positions");
/// `openings --max-eval`: how far from level a suite's position may be.
pub const BALANCE_SEEDS: Bounded<f64> = Bounded::new(0.0, 10_000.0, "seeds");
/// `serve --max-searches`: analyses running at once.
pub const SEARCHES: Bounded<usize> = Bounded::new(1, 64, "searches");
/// Every N-th game held out by `fit-wdl`.
pub const HOLDOUT: Bounded<usize> = Bounded::new(2, 1000, "games");
/// `tune --games`: self-play games.
pub const TUNE_GAMES: Bounded<usize> = Bounded::new(1, 1_000_000, "games");
/// `tune --epochs` and `--net-epochs`: passes over the positions.
pub const EPOCHS: Bounded<usize> = Bounded::new(1, 1_000_000, "epochs");
/// `tune --net`: hidden units of the network (0: the linear evaluation alone).
pub const HIDDEN_UNITS: Bounded<usize> = Bounded::new(0, MAX_HIDDEN, "hidden units");
/// `serve --max-connections`: connections open at once.
pub const CONNECTIONS: Bounded<usize> = Bounded::new(1, 4096, "connections");
/// `serve --request-timeout-ms`: how long a request's header, or its body, or a write
/// to the client, may take.
pub const REQUEST_TIMEOUT_MS: Bounded<u64> = Bounded::new(100, 600_000, "ms");
/// A TCP port (0: any free one).
pub const PORT: Bounded<u16> = Bounded::new(0, u16::MAX, "");

pub use isolo_engine::matches::cores;

/// How many threads to start for `requested` (given as `flag`) with `work` items of
/// `what` to share: never more than the items, nor than this machine's cores. A note on
/// stderr says when the number is clamped.
pub fn workers(flag: &str, requested: usize, work: u64, what: &str) -> usize {
    let cores = cores();
    let chosen = isolo_engine::matches::workers(requested, work);
    let work = usize::try_from(work).unwrap_or(usize::MAX).max(1);
    if chosen < requested {
        let limit = if chosen == work && work < cores {
            format!("{work} {what}")
        } else {
            format!("{cores} cores")
        };
        eprintln!("note: {flag} {requested} is more than the {limit} here: using {chosen}");
    }
    chosen
}

/// Search threads for `requested` (given as `flag`): at most this machine's cores.
pub fn search_threads(flag: &str, requested: usize) -> usize {
    workers(flag, requested, u64::MAX, "")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_name_the_range_in_the_domain_words() {
        assert_eq!(
            DEPTH.check("-1").unwrap_err(),
            "must be 1..=100 plies, found -1"
        );
        assert_eq!(
            DEPTH.check("0").unwrap_err(),
            "must be 1..=100 plies, found 0"
        );
        assert_eq!(DEPTH.check("100"), Ok(100));
        assert_eq!(
            NODES.check("99999999999999999999999").unwrap_err(),
            "must be at least 1, found 99999999999999999999999"
        );
        assert_eq!(
            DEPTH.check("deep").unwrap_err(),
            "'deep' is not a whole number (1..=100 plies)"
        );
        let eval = Bounded::new(0.0, 1000.0, "seeds");
        assert_eq!(eval.check("2.5"), Ok(2.5));
        assert!(eval.check("NaN").is_err());
        assert!(eval.check("-0.5").is_err());
        assert_eq!(SEED.check("18446744073709551615"), Ok(u64::MAX));
    }
}
