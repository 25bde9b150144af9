//! A game as the front ends name it: a start position and the moves played from it,
//! as text, read under a variant field by field. The command line (`--position`,
//! `--moves`), the web API (`start`, `moves`), Python (`position`, `moves`) and review
//! all read a game this one way, and a problem names its field, which each front end
//! spells its own way.

use std::fmt;

use crate::board::Board;
use crate::game::Game;
use crate::variant::Variant;

/// The field of a setup a problem lies in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetupField {
    /// The start position.
    Start,
    /// The moves played from it.
    Moves,
}

impl fmt::Display for SetupField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SetupField::Start => "start",
            SetupField::Moves => "moves",
        })
    }
}

/// What is wrong with a setup, and in which field. Displays as the problem alone: the
/// front end puts its own name of the field first.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{problem}")]
pub struct SetupError {
    /// The field at fault.
    pub field: SetupField,
    /// What is wrong with it.
    pub problem: String,
}

/// A start position and moves, as text, not yet read under a variant.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Setup<'a> {
    /// The start position in the project's notation (none: the variant's start).
    pub start: Option<&'a str>,
    /// Moves played from it, separated by spaces or commas (none: no move).
    pub moves: Option<&'a str>,
    /// Plies after which the game is a draw (none: no cap).
    pub max_plies: Option<usize>,
}

impl<'a> Setup<'a> {
    /// A setup from `start` with `moves`.
    pub fn new(start: Option<&'a str>, moves: Option<&'a str>) -> Setup<'a> {
        Setup {
            start,
            moves,
            max_plies: None,
        }
    }

    /// The start position under `variant`.
    pub fn start(&self, variant: &Variant) -> Result<Board, SetupError> {
        match self.start {
            Some(text) => variant.parse_position(text).map_err(|e| SetupError {
                field: SetupField::Start,
                problem: e.to_string(),
            }),
            None => Ok(variant.start()),
        }
    }

    /// The game after the moves: an illegal move names itself, its index and the legal
    /// moves there, and no move is played once the game is over.
    pub fn game<'v>(&self, variant: &'v Variant) -> Result<Game<'v>, SetupError> {
        let game = Game::new(variant, self.start(variant)?);
        let mut game = match self.max_plies {
            Some(cap) => game.with_max_plies(cap),
            None => game,
        };
        if let Some(moves) = self.moves {
            game.play_list(moves).map_err(|e| SetupError {
                field: SetupField::Moves,
                problem: e.to_string(),
            })?;
        }
        Ok(game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_field_is_read_and_blamed_on_its_own() {
        let boys = Variant::load("isolo-boys").unwrap();
        let game = Setup::new(None, Some("7 8")).game(&boys).unwrap();
        assert_eq!((game.plies(), *game.start()), (2, boys.start()));
        let bad_start = Setup::new(Some("nonsense"), Some("7")).game(&boys);
        assert_eq!(bad_start.unwrap_err().field, SetupField::Start);
        let bad_move = Setup::new(None, Some("7 99")).game(&boys).unwrap_err();
        assert_eq!(bad_move.field, SetupField::Moves);
        assert!(bad_move.problem.contains("move 2 of 2"), "{bad_move}");
        let capped = Setup {
            max_plies: Some(1),
            ..Setup::new(None, Some("7"))
        };
        assert!(capped.game(&boys).unwrap().outcome().is_some());
    }
}
