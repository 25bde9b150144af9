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
pub mod ring;
pub mod rules_file;
pub mod setup;
pub mod trace;
pub mod variant;

use std::fmt;

pub use board::Board;
pub use game::{EndReason, Game, GameError, Outcome, SideResult, DRAW_REPETITIONS, RESERVED_PLIES};
pub use interrupt::Interrupt;
pub use notation::{Choice, Move, MoveLetters, NotationError};
pub use rules_file::{
    pattern_clockwise, preset_names, CaptureChoice, CaptureCondition, CaptureWin, ClockwiseAt,
    ClockwiseLaps, ClockwiseLeave, ClockwiseWhen, DeadPosition, FirstMoveCaptures, Retreat, Rules,
    RulesError, SowOrigin, PRESETS, READINGS,
};
pub use setup::{Setup, SetupError, SetupField};
pub use variant::{
    ChoicePoint, Completion, FirstLaps, InvalidBoard, LegalMove, MoveGen, MoveOutcome, MoveStep,
    MoveWalk, Position, Variant,
};

/// A player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// The player who moves first from the presets' starts, seated at the bottom.
    South = 0,
    /// The other player, seated at the top.
    North = 1,
}

impl Side {
    /// Both players, South first.
    pub const BOTH: [Side; 2] = [Side::South, Side::North];

    /// The other player.
    #[inline(always)]
    pub fn opponent(self) -> Side {
        match self {
            Side::South => Side::North,
            Side::North => Side::South,
        }
    }

    /// `S` or `N`, as in position notation.
    pub fn letter(self) -> char {
        match self {
            Side::South => 'S',
            Side::North => 'N',
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::South => "South",
            Side::North => "North",
        })
    }
}

/// Why a text file could not be read (the file's name is the caller's to add).
#[derive(Debug, thiserror::Error)]
pub enum TextFileError {
    /// Opening or reading it failed.
    #[error("cannot read: {0}")]
    Unreadable(#[from] std::io::Error),
    /// It is larger than the kind of file asked for may be.
    #[error("larger than {0} bytes: not a file of this kind")]
    TooLarge(u64),
    /// Its bytes are not UTF-8.
    #[error("not UTF-8 text")]
    NotText,
}

/// The longest piece of bad input an error message quotes, in characters: a message
/// names the problem, it does not echo a flood back.
pub const QUOTE_CHARS: usize = 40;

/// `text` as an error message quotes it: cut to [`QUOTE_CHARS`] characters, with how
/// long it was.
pub fn quote(text: &str) -> String {
    match text.char_indices().nth(QUOTE_CHARS) {
        None => text.to_string(),
        Some((cut, _)) => format!("{}... ({} bytes)", &text[..cut], text.len()),
    }
}

/// Opens a file for reading once it is known to be a regular file: a folder, a named
/// pipe (which would wait for a writer for ever) or a device is refused, never opened.
pub fn open_regular_file(path: &std::path::Path) -> std::io::Result<std::fs::File> {
    if !std::fs::metadata(path)?.is_file() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a regular file (a folder, a pipe or a device)",
        ));
    }
    std::fs::File::open(path)
}

/// Reads a regular text file ([`open_regular_file`]) of at most `max_bytes` bytes: a
/// larger file is an error naming the limit.
pub fn read_text_file(path: &std::path::Path, max_bytes: u64) -> Result<String, TextFileError> {
    use std::io::Read;
    let file = open_regular_file(path)?;
    let mut bytes = Vec::new();
    file.take(max_bytes + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max_bytes {
        return Err(TextFileError::TooLarge(max_bytes));
    }
    String::from_utf8(bytes).map_err(|_| TextFileError::NotText)
}

/// A TOML error's first line, with the line and column where it was found.
pub fn toml_error_text(e: &toml::de::Error, text: &str) -> String {
    let message = e.message().lines().next().unwrap_or("").to_string();
    match e.span() {
        Some(span) => {
            let before = text.get(..span.start).unwrap_or(text);
            let line = before.matches('\n').count() + 1;
            let column = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
            format!("line {line}, column {column}: {message}")
        }
        None => message,
    }
}
