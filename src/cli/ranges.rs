//! The documented range of every numeric flag (docs/commands.md, "Ranges"): clap parses
//! and checks each value, so one outside its range is refused before any work, in the
//! flag's own words ("--depth: must be 1..=100 plies, found -1"). The ranges the engine
//! shares with UGI, the web API and Python are its own ([`isolo_engine::ranges`]); the
//! rest belong to the command line alone.

use std::ffi::OsStr;

use clap::builder::TypedValueParser;
use clap::error::ErrorKind;

use isolo_engine::ranges::{self, Number, Range, MAX_WAIT_MS};

/// A range as clap's value parser: the refusal names the flag.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Flag<T>(pub Range<T>);

impl<T: Number> TypedValueParser for Flag<T> {
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
            Some(text) => match self.0.parse(text) {
                Ok(n) => return Ok(n),
                Err(problem) => problem.to_string(),
            },
            None => format!("not UTF-8 text ({})", self.0),
        };
        Err(clap::Error::raw(
            ErrorKind::ValueValidation,
            format!("{flag}: {problem}\n"),
        ))
    }
}

/// `--seed`: any 64-bit number.
pub(crate) const SEED: Flag<u64> = Flag(ranges::SEED);
/// `--level` (`play`).
pub(crate) const LEVEL: Flag<u8> = Flag(ranges::LEVEL);
/// `--threads` of a search.
pub(crate) const THREADS: Flag<usize> = Flag(ranges::THREADS);
/// `--hash`.
pub(crate) const HASH_MB: Flag<usize> = Flag(ranges::HASH_MB);
/// A search's `--depth`.
pub(crate) const DEPTH: Flag<u32> = Flag(ranges::DEPTH);
/// `perft --depth`.
pub(crate) const PERFT_DEPTH: Flag<u32> = Flag(ranges::PERFT_DEPTH);
/// A node or iteration limit.
pub(crate) const NODES: Flag<u64> = Flag(ranges::NODES);
/// A time limit per search, in milliseconds.
pub(crate) const TIME_MS: Flag<u64> = Flag(ranges::TIME_MS);
/// `solve --time-ms`: 0 for no limit.
pub(crate) const SOLVE_TIME_MS: Flag<u64> = Flag(ranges::SOLVE_TIME_MS);
/// `review --nodes`: nodes a position.
pub(crate) const REVIEW_NODES: Flag<u64> = Flag(ranges::REVIEW_NODES);
pub(crate) const REVIEW_TOTAL_MS: Flag<u64> = Flag(ranges::REVIEW_TOTAL_MS);
/// A wait of 0 ms or more (a clock's margin).
pub(crate) const MARGIN_MS: Flag<u64> = Flag(Range::new("margin", 0, MAX_WAIT_MS, "ms"));
/// A wait of at least 1 ms (a handshake).
pub(crate) const WAIT_MS: Flag<u64> = Flag(Range::new("wait", 1, MAX_WAIT_MS, "ms"));
/// `--quiescence`.
pub(crate) const QUIESCENCE: Flag<u32> = Flag(ranges::QUIESCENCE);
/// `--contempt`.
pub(crate) const CONTEMPT: Flag<i32> = Flag(ranges::CONTEMPT);
/// `--games` of a match, tournament or comparison.
pub(crate) const GAMES: Flag<u64> = Flag(ranges::GAMES);
/// `--concurrency`.
pub(crate) const CONCURRENCY: Flag<usize> = Flag(ranges::CONCURRENCY);
/// `--max-plies` of a game.
pub(crate) const GAME_PLIES: Flag<usize> = Flag(ranges::GAME_PLIES);
/// `--max-plies` of a proof (the alpha-beta prover takes at most `MAX_DEPTH`).
pub(crate) const PROOF_PLIES: Flag<u32> = Flag(ranges::PROOF_PLIES);
/// `--max-plies` of a random playout.
pub(crate) const PLAYOUT_PLIES: Flag<u32> = Flag(ranges::PLAYOUT_PLIES);
/// Random plies played from the start (openings, tuning).
pub(crate) const RANDOM_PLIES: Flag<u32> = Flag(Range::new("random plies", 0, 1000, "plies"));
/// A game number in a records file: its `game` field, counted from 0.
pub(crate) const GAME_NUMBER: Flag<u64> = Flag(Range::at_least("game", 0, ""));
/// `openings --count`: positions in a suite.
pub(crate) const SUITE_SIZE: Flag<usize> = Flag(Range::new("count", 1, 1_000_000, "positions"));
/// `openings --max-eval`: how far from level a suite's position may be.
pub(crate) const BALANCE_SEEDS: Flag<f64> = Flag(Range::new("max-eval", 0.0, 10_000.0, "seeds"));
#[cfg(feature = "server")]
/// `serve --max-searches`: analyses running at once.
pub(crate) const SEARCHES: Flag<usize> = Flag(Range::new("max-searches", 1, 64, "searches"));
/// Every N-th game held out by `fit-wdl`.
pub(crate) const HOLDOUT: Flag<usize> = Flag(Range::new("holdout", 2, 1000, "games"));
/// `tune --games`: self-play games.
pub(crate) const TUNE_GAMES: Flag<usize> = Flag(ranges::TUNE_GAMES);
/// `tune --random-plies`.
pub(crate) const TUNE_RANDOM_PLIES: Flag<u32> = Flag(ranges::TUNE_RANDOM_PLIES);
/// `tune --epochs`: gradient steps of the fit (0 keeps the starting weights).
pub(crate) const EPOCHS: Flag<usize> = Flag(ranges::TUNE_EPOCHS);
/// `tune --net`: hidden units of the network (0: the linear evaluation alone).
pub(crate) const HIDDEN_UNITS: Flag<usize> = Flag(ranges::NET_HIDDEN);
/// `tune --net-epochs`: passes over the positions.
pub(crate) const NET_EPOCHS: Flag<usize> = Flag(ranges::NET_EPOCHS);
#[cfg(feature = "server")]
/// `serve --max-connections`: connections open at once.
pub(crate) const CONNECTIONS: Flag<usize> =
    Flag(Range::new("max-connections", 1, 4096, "connections"));
#[cfg(feature = "server")]
/// `serve --request-timeout-ms`: how long a request's header, or its body, or a write
/// to the client, may take.
pub(crate) const REQUEST_TIMEOUT_MS: Flag<u64> =
    Flag(Range::new("request-timeout-ms", 100, 600_000, "ms"));
#[cfg(feature = "server")]
/// A TCP port (0: any free one).
pub(crate) const PORT: Flag<u16> = Flag(Range::new("port", 0, u16::MAX, ""));

pub(crate) use isolo_engine::matches::cores;

/// How many threads to start for `requested` (given as `flag`) with `work` items of
/// `what` to share: never more than the items, nor than this machine's cores. A note on
/// stderr says when the number is clamped.
pub(crate) fn workers(flag: &str, requested: usize, work: u64, what: &str) -> usize {
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
pub(crate) fn search_threads(flag: &str, requested: usize) -> usize {
    workers(flag, requested, u64::MAX, "")
}
