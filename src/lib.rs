#![warn(missing_docs)]
//! isolo-ai: rules, analysis and play for Isolo (Sukuma, Tanzania) and Igisoro (Rwanda,
//! Burundi), four-row mancala games.
//!
//! The library is the engine without its command line (which lives in the binary):
//!
//! - [`rules`]: the game alone: a bit-packed board, exact move generation for every
//!   preset and rules file, the notation of `RULES.md`, and [`rules::Game`], the one game
//!   model (history, repetition, ply cap, outcome).
//! - [`eval`] and [`search`]: a bounded evaluation, alpha-beta and MCTS with exact proven
//!   scores; [`solve`], the exact prover.
//! - [`engine`]: engine specs (one option parser) and bots; [`game`], [`schedule`],
//!   [`runner`] and [`records`]: matches, their schedule and their self-contained records.
//! - [`stats`], [`compare`], [`openings`], [`perft`], [`playout`] (random games).
//!
//! ```
//! use isolo_ai::rules::{Game, Variant};
//! let women = Variant::load("isolo-women").unwrap();
//! let mut game = Game::new(&women, women.start());
//! assert_eq!(women.legal_moves(game.board()).len(), 16);
//! game.play_list("2 4").unwrap();
//! assert_eq!(game.plies(), 2);
//! assert!(game.outcome().is_none());
//! ```
//!
//! `examples/analyse.rs` searches a position; `examples/play_match.rs` plays a match.

pub mod certificate;
pub mod clock;
pub mod compare;
pub mod dfpn;
pub mod engine;
pub mod eval;
pub mod external;
pub mod game;
pub mod openings;
pub mod perft;
pub mod playout;
pub mod records;
pub mod retrograde;
pub mod rules;
pub mod runner;
pub mod schedule;
pub mod search;
pub mod solve;
pub mod stats;
pub mod svg;
pub mod tune;
pub mod ugi;
