#![warn(missing_docs)]
//! isolo-engine: evaluation, search, provers, matches and research for Isolo (Sukuma,
//! Tanzania) and Igisoro (Rwanda, Burundi), four-row mancala games, over the rules crate
//! [`isolo_rules`] (which knows nothing of this one).
//!
//! - [`eval`] and [`search`]: a bounded evaluation, alpha-beta and MCTS with exact proven
//!   scores; [`solve`], the exact prover, with [`dfpn`], [`retrograde`] and
//!   [`certificate`].
//! - [`engine`]: engine specs (one option parser) and bots; [`game`], [`schedule`],
//!   [`runner`] and [`records`]: matches, their schedule and their self-contained records;
//!   [`external`] and [`ugi`]: the protocol, both sides.
//! - [`stats`], [`compare`], [`tune`], [`openings`].
//!
//! ```
//! use isolo_engine::search::{alphabeta::AlphaBeta, Limits, SearchRequest, Searcher};
//! use isolo_rules::{Game, Variant};
//! let boys = Variant::load("isolo-boys").unwrap();
//! let game = Game::new(&boys, boys.start());
//! # let _ = (&game, std::any::type_name::<AlphaBeta>());
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
pub mod records;
pub mod retrograde;
pub mod runner;
pub mod schedule;
pub mod search;
pub mod solve;
pub mod stats;
pub mod tune;
pub mod ugi;
