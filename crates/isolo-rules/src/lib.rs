#![forbid(unsafe_code)]
#![warn(missing_docs)]
//! isolo-rules: the rules of Isolo (Sukuma, Tanzania) and Igisoro (Rwanda, Burundi),
//! four-row mancala games, and nothing else: a bit-packed board, exact move generation
//! for every preset and rules file, the notation of `docs/RULES.md`, [`Game`] (history,
//! repetition, ply cap, outcome), [`perft`] and random [`playout`]s. Nothing here knows
//! about search, evaluation or the command line: this crate depends on none of them.
//!
//! ```
//! use isolo_rules::{Game, Variant};
//! let women = Variant::load("isolo-women").unwrap();
//! let mut game = Game::new(&women, women.start());
//! assert_eq!(women.legal_moves(game.board()).len(), 16);
//! game.play_list("2 4").unwrap();
//! assert_eq!(game.plies(), 2);
//! assert!(game.outcome().is_none());
//! ```

pub mod board;
pub mod fortress;
pub mod game;
pub mod interrupt;
pub mod keys;
pub mod moves;
pub mod notation;
pub mod perft;
mod plain;
pub mod playout;
mod ring;
pub mod rules_file;
pub mod setup;
mod side;
mod text;
pub mod trace;
pub mod variant;

pub use board::{Board, Pits};
pub use game::{EndReason, Game, GameError, Outcome, SideResult, DRAW_REPETITIONS, RESERVED_PLIES};
pub use interrupt::Interrupt;
pub use notation::{Choice, Move, MoveLetters, NotationError};
pub use rules_file::{
    pattern_clockwise, preset_names, CaptureChoice, CaptureCondition, CaptureWin, ClockwiseAt,
    ClockwiseLaps, ClockwiseLeave, ClockwiseWhen, DeadPosition, FirstMoveCaptures, Retreat, Rules,
    RulesError, SowOrigin, PRESETS, READINGS,
};
pub use setup::{Setup, SetupError, SetupField};
pub use side::Side;
pub use text::{
    open_regular_file, quote, read_text_file, toml_error_text, TextFileError, QUOTE_CHARS,
};
pub use variant::{
    ChoicePoint, Completion, FirstLaps, GoOn, InvalidBoard, LegalMove, Listing, MoveGen,
    MoveOutcome, MoveStep, MoveWalk, Position, Variant,
};
