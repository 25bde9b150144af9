#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![warn(unreachable_pub)]
//! isolo-rules: the rules of Isolo (Sukuma, Tanzania) and Igisoro (Rwanda, Burundi),
//! four-row mancala games, and nothing else: a bit-packed board, exact move generation
//! for every preset and rules file, the notation of `docs/RULES.md`, [`Game`] (history,
//! repetition, ply cap, outcome), [`perft`] and random games ([`random_game`]).
//! Nothing here knows about search, evaluation or the command line: this crate depends
//! on none of them. Its modules are private: what other crates use is re-exported here,
//! and the board's layout is read through [`Pits`].
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

mod board;
mod fortress;
mod game;
mod geometry;
mod interrupt;
mod keys;
mod moves;
mod notation;
mod patterns;
mod perft;
mod plain;
mod playout;
mod ring;
mod rules_file;
mod setup;
mod side;
mod text;
mod variant;

pub use board::{Board, Pits};
pub use fortress::{Fortresses, MAX_FORTRESS_SEEDS};
pub use game::{
    dead_position_outcome, describe, flag_fall_in_words, flag_fall_winner, fortress_holders,
    fortress_in_words, in_words, long_game_outcome, material_in_words, quiet_plies_after,
    resignation_in_words, rules_outcome, sealed_in_words, EndReason, Game, GameError, Outcome,
    SideResult, DRAW_REPETITIONS, LONG_GAME_WARNING_PLIES, RESERVED_PLIES,
};
pub use interrupt::Interrupt;
pub use keys::{KeyMap, KeySet};
pub use moves::{
    dedup_by_position, dedups_across_pits, listed_move, move_generator, move_sequences,
    searched_moves, TooManyMoves, NAMING_POINTS_PER_PIT, POINTS_PER_PIT, SEQUENCES_LISTED,
};
pub use notation::{
    format_overture, format_rows, parse_rows, parse_side, pit_at, split_moves, Choice, Move,
    MoveLetters, NotationError,
};
pub use patterns::{pattern_clockwise, pattern_start};
pub use perft::{divide, divide_until, perft, perft_until, Divided, MAX_PERFT_DEPTH};
pub use playout::{random_game, RandomGame, RandomMove, RandomMover};
pub use rules_file::{
    game_title, preset_family, preset_names, CaptureChoice, CaptureCondition, CaptureWin,
    ClockwiseAt, ClockwiseLaps, ClockwiseLeave, ClockwiseWhen, DeadPosition, FirstMoveCaptures,
    KeyDifference, LongGameEnding, PresetComparison, Retreat, Rules, RulesBuilder, RulesError,
    SowOrigin, PRESETS, READINGS,
};
pub use setup::{Setup, SetupError, SetupField};
pub use side::Side;
pub use text::{
    escape_controls, open_regular_file, quote, read_text_file, toml_error_text, write_bytes_whole,
    write_file_whole, TextFileError, WholeFile, QUOTE_CHARS,
};
pub use variant::{trace_move, trace_to_decision, Trace, TraceStep, TracedDecision};
pub use variant::{
    ChoicePoint, Completion, Decision, DecisionKind, FirstLaps, GoOn, InvalidBoard, LapEnd,
    LegalMove, Listing, MoveGen, MoveOutcome, MoveStep, MoveWalk, Position, Variant,
};
