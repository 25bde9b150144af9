//! Matches: the [`player`] seam, engine specs and the bots they make ([`engine`]),
//! external engines ([`external`]), one game ([`game_loop`]), the games of a match
//! ([`schedule`]), running them ([`runner`]), their records ([`records`]) and opening
//! suites ([`openings`]).

pub mod engine;
pub mod external;
pub mod game_loop;
pub mod openings;
pub mod player;
pub mod records;
pub mod runner;
pub mod schedule;
pub mod settings;
pub mod tally;
pub(crate) mod words;

pub use crate::ranges::{MAX_CONCURRENCY, MAX_GAMES, MAX_GAME_PLIES};

/// This machine's cores (1 when it cannot say).
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Threads for `requested` games (or searches) at once with `work` of them to share:
/// never more than the work, nor than this machine's cores, and at least one.
pub fn workers(requested: usize, work: u64) -> usize {
    let work = usize::try_from(work).unwrap_or(usize::MAX).max(1);
    requested.min(work).min(cores()).max(1)
}
