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
pub mod tally;
