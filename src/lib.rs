//! isolo-ai: rules, analysis and play for Isolo (Sukuma, Tanzania) and Igisoro (Rwanda,
//! Burundi), four-row mancala games.
//!
//! The [`rules`] layer holds the game alone: a bit-packed board, exact move generation
//! for every preset and rules file, and the notation of `RULES.md`.
//!
//! ```
//! use isolo_ai::rules::Variant;
//! let women = Variant::load("isolo-women").unwrap();
//! let start = women.start();
//! assert_eq!(women.legal_moves(&start).len(), 16);
//! ```

pub mod cli;
pub mod compare;
pub mod engine;
pub mod eval;
pub mod game;
pub mod openings;
pub mod perft;
pub mod plot;
pub mod records;
pub mod rules;
pub mod runner;
pub mod schedule;
pub mod search;
pub mod solve;
pub mod stats;
