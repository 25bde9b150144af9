#![deny(unsafe_code)]
#![warn(missing_docs)]
#![warn(unreachable_pub)]
//! isolo-engine: evaluation, search, provers, matches and research for Isolo (Sukuma,
//! Tanzania) and Igisoro (Rwanda, Burundi), four-row mancala games, over the rules crate
//! [`isolo_rules`] (which knows nothing of this one).
//!
//! - [`eval`]: a bounded evaluation (features, tuned weights, a small net).
//! - [`search`]: alpha-beta and MCTS with exact proven scores, the transposition table,
//!   clocks and time management.
//! - [`prove`]: the exact provers (alpha-beta, df-pn, retrograde, indexed retrograde)
//!   and the certificates that let the rules alone check a result.
//! - [`matches`](mod@matches): the player seam, engine specs and bots, external engines, the game
//!   loop, schedules, the runner, records files and opening suites.
//! - [`ugi`]: the engine side of the protocol; [`stats`]: Elo, SPRT, ratings;
//!   [`research`]: variant comparison, tuning and the win/draw/loss fit; [`review`]: a
//!   game's moves set against the engine's.
//!
//! The main types are re-exported here. Alpha-beta to depth 4 on the boys' game:
//!
//! ```
//! use isolo_engine::{AlphaBeta, AlphaBetaConfig, Limits, SearchRequest, Searcher};
//! use isolo_rules::{Game, Variant};
//!
//! let boys = Variant::load("isolo-boys").unwrap();
//! let mut game = Game::new(&boys, boys.start());
//! game.play_list("7 13").unwrap();
//! let mut searcher = AlphaBeta::new(AlphaBetaConfig::default()).unwrap();
//! let request = SearchRequest {
//!     variant: &boys,
//!     board: *game.board(),
//!     history: game.history(),
//!     quiet_plies: game.quiet_plies(),
//!     limits: Limits { depth: Some(4), ..Limits::default() },
//!     multipv: 1,
//!     pv_lines: usize::MAX,
//!     stop: None,
//! };
//! let result = searcher.search(&request, &mut |_| {});
//! let best = result.best().unwrap();
//! assert!(boys.legal_moves(game.board()).iter().any(|m| m.mv == best.mv));
//! ```
//!
//! `examples/analyse.rs` searches a position; `examples/play_match.rs` plays a match.

/// Declares an error that is one message naming the problem, for checks whose problems
/// are many and only ever shown: a type of its own, so a caller matches on the type and
/// never parses the text.
macro_rules! message_error {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
        #[error("{0}")]
        pub struct $name(pub(crate) String);

        impl $name {
            /// What is wrong, as shown to the user.
            pub fn message(&self) -> &str {
                &self.0
            }
        }
    };
}

pub mod channel;
pub(crate) mod digest;
pub mod eval;
pub mod matches;
pub mod merge;
pub mod prove;
pub mod ranges;
pub mod research;
pub mod review;
pub mod search;
pub mod stats;
pub mod ugi;

pub use eval::Weights;
pub use matches::engine::{Bot, EngineSpec};
pub use matches::game_loop::{play_game, GameRecord};
pub use matches::player::{Forfeit, Player, Reply, Termination, Turn};
pub use matches::schedule::Schedule;
pub use prove::certificate::{check_proof, Certificate, CheckedProof, Proof};
pub use search::alphabeta::{AlphaBeta, AlphaBetaConfig};
pub use search::clock::{Clock, TimeControl};
pub use search::mcts::{Mcts, MctsConfig};
pub use search::score::Score;
pub use search::{Limits, Progress, SearchRequest, SearchResult, Searcher};
pub use stats::{elo_estimate, EloEstimate, Pentanomial};

/// Whether an optional stop flag (Ctrl-C's, a caller's `stop`) has been raised: the one
/// check that every long loop makes.
#[inline]
pub fn raised(flag: Option<&std::sync::atomic::AtomicBool>) -> bool {
    flag.is_some_and(|f| f.load(std::sync::atomic::Ordering::Relaxed))
}
