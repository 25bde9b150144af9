//! A variant's positions and moves as text (RULES.md 6 and 7): parsing, formatting and
//! validating positions, reading moves (played by `play.rs`) with errors that list
//! what was legal.

use super::{LegalMove, MoveGen, Variant};
use crate::board::{Board, Pits, ENDS_CAPTURED};
use crate::notation::{self, format_overture, format_rows, Move, NotationError};
use crate::ring;
use crate::side::Side;

/// A flags field of the position notation (RULES.md 6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FlagField {
    Overture,
    FirstMoves,
    Won,
}

impl FlagField {
    /// The field in the notation's form, with its leading space.
    fn placeholder(self) -> &'static str {
        match self {
            FlagField::Overture => " [OVERTURE]",
            FlagField::FirstMoves => " [FIRST]",
            FlagField::Won => " [WON]",
        }
    }
}

/// A board that breaks an invariant of its variant ([`Variant::validate`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum InvalidBoard {
    /// The incremental hash differs from the one recomputed from the pits.
    #[error("hash differs from the recomputed hash")]
    Hash,
    /// Seeds in lanes beyond the variant's pits.
    #[error("{side} has seeds past pit {pits}")]
    SeedsPastBoard {
        /// The side.
        side: Side,
        /// The variant's pits a side.
        pits: usize,
    },
    /// Overture flags in a variant without an overture.
    #[error("overture flags set in a variant without overture")]
    Overture,
    /// First-move flags in a variant whose every move may capture.
    #[error("first-move flags set in a variant whose every move may capture")]
    FirstMove,
    /// The lost flag in a variant where no capture wins.
    #[error("a game won by capture_win in a variant where no capture wins")]
    EndsCaptured,
    /// More seeds than the notation can hold.
    #[error("more than 255 seeds")]
    TooManySeeds,
    /// Seeds in a pit out of play.
    #[error("{0}")]
    OutOfPlay(String),
}

impl Variant {
    /// The flags fields this variant's positions carry after `SIDE`, in order (RULES.md
    /// 6): the overture's, the first moves', the lost flag's, each where the rules have
    /// them.
    fn flag_fields(&self) -> Vec<FlagField> {
        let mut fields = Vec::new();
        if self.rules.overture {
            fields.push(FlagField::Overture);
        }
        if self.has_first_move_flags() {
            fields.push(FlagField::FirstMoves);
        }
        if self.has_capture_win() {
            fields.push(FlagField::Won);
        }
        fields
    }

    /// Parses `ROWS SIDE [OVERTURE] [FIRST] [WON]` (RULES.md 6): a flags field for each
    /// kind of flags the variant has (`flag_fields`), each optional (read as `-`); a
    /// variant with none takes a third field only as `-`.
    pub fn parse_position(&self, text: &str) -> Result<Board, NotationError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        let kinds = self.flag_fields();
        if !(2..=2 + kinds.len().max(1)).contains(&fields.len()) {
            // A variant without flags still takes an overture field of `-`.
            let shown = if kinds.is_empty() {
                &[FlagField::Overture][..]
            } else {
                &kinds[..]
            };
            let form: String = shown.iter().map(|kind| kind.placeholder()).collect();
            let form = format!("ROWS SIDE{form}");
            // (The flags fields are the variant's own: RULES.md 6 lists them all.)
            return Err(NotationError::Position(format!(
                "position must be '{form}' in variant '{}', found {} field(s) in '{}'",
                crate::text::quote(&self.rules.name),
                fields.len(),
                crate::text::quote(text)
            )));
        }
        let rings = notation::parse_rows(fields[0], self.rules.columns)?;
        let side = notation::parse_side(fields[1])?;
        let mut flags = 0;
        if kinds.is_empty() {
            if let Some(field) = fields.get(2) {
                if notation::parse_overture(field)? != 0 {
                    return Err(NotationError::Overture(format!(
                        "overture flags '{field}' given, but variant '{}' has no overture",
                        self.rules.name
                    )));
                }
            }
        }
        for (kind, field) in kinds.iter().zip(&fields[2..]) {
            flags |= match kind {
                FlagField::Overture => notation::parse_overture(field)?,
                FlagField::FirstMoves => notation::parse_first_moves(field)? << 2,
                FlagField::Won => self.parse_won(field, side)?,
            };
        }
        let board = Board::from_pits(rings, side, flags);
        self.check_out_of_play(&board)?;
        Ok(board)
    }

    /// The `WON` field: `-`, or the player who won by `capture_win` with the last turn
    /// (so not the side to move).
    fn parse_won(&self, field: &str, side: Side) -> Result<u8, NotationError> {
        match notation::parse_overture(field) {
            Ok(0) => Ok(0),
            Ok(bits) if bits == 1 << side.opponent() as u8 => Ok(ENDS_CAPTURED),
            _ => Err(NotationError::Position(format!(
                "won field '{}' must be '-' or the player who just moved ('{}'): a capture \
                 of both front-row end pits wins for the player who made it",
                crate::text::quote(field),
                side.opponent().letter()
            ))),
        }
    }

    /// Seeds in the front pit of the rightmost column while its owner is in overture are
    /// out of play: no lap reaches that pit and no move may start there.
    fn check_out_of_play(&self, board: &Board) -> Result<(), NotationError> {
        for side in Side::BOTH {
            let seeds = ring::lane(board.ring(side), self.geo.front_right);
            if board.in_overture(side) && seeds != 0 {
                return Err(NotationError::Position(format!(
                    "{side} has {seeds} seed(s) in pit {}, which is out of play during its overture",
                    self.geo.front_right + 1
                )));
            }
        }
        Ok(())
    }

    /// Canonical text of a position: the overture field is written exactly when the
    /// variant has an overture, the first-move field exactly when it has first-move
    /// flags.
    pub fn format_position(&self, board: &Board) -> String {
        let rows = format_rows(&board.rings.map(Pits), self.rules.columns);
        let mut text = format!("{rows} {}", board.to_move.letter());
        if self.rules.overture {
            text.push(' ');
            text.push_str(format_overture(board.overture_flags()));
        }
        if self.has_first_move_flags() {
            text.push(' ');
            text.push_str(format_overture(board.first_move_flags()));
        }
        if self.has_capture_win() {
            let winner = board.to_move.opponent();
            let won = if board.ends_captured() {
                1 << winner as u8
            } else {
                0
            };
            text.push(' ');
            text.push_str(format_overture(won));
        }
        text
    }

    /// Checks a board's invariants: hash, lanes past the board, out-of-play pits,
    /// overture flags, seed total.
    pub fn validate(&self, board: &Board) -> Result<(), InvalidBoard> {
        if board.hash != board.compute_hash() {
            return Err(InvalidBoard::Hash);
        }
        let pits = self.pits();
        for side in Side::BOTH {
            if pits < ring::MAX_LANES && board.ring(side) >> (8 * pits) != 0 {
                return Err(InvalidBoard::SeedsPastBoard { side, pits });
            }
        }
        if !self.rules.overture && board.overture_flags() != 0 {
            return Err(InvalidBoard::Overture);
        }
        if board.first_move_flags() != 0 && !self.has_first_move_flags() {
            return Err(InvalidBoard::FirstMove);
        }
        if board.ends_captured() && !self.has_capture_win() {
            return Err(InvalidBoard::EndsCaptured);
        }
        if board.side_total(Side::South) + board.side_total(Side::North) > notation::MAX_SEEDS {
            return Err(InvalidBoard::TooManySeeds);
        }
        self.check_out_of_play(board)
            .map_err(|e| InvalidBoard::OutOfPlay(e.message().to_string()))
    }

    /// Reads a move in these rules' notation (take/pass letters where captures are
    /// optional, direction letters where laps may turn), without checking that it is
    /// legal anywhere.
    pub fn parse_move(&self, text: &str) -> Result<Move, NotationError> {
        Move::parse(text, self.rules.columns, self.move_letters())
    }

    /// Parses and plays one move; the error lists the legal moves (one for each distinct
    /// result where capture choices make many).
    pub fn play_text(&self, board: &Board, text: &str) -> Result<LegalMove, NotationError> {
        let mv = self.parse_move(text)?;
        if let Some(found) = self.play_move(board, &mv) {
            return Ok(found);
        }
        let mut gen = MoveGen::with_point_limit(ERROR_LISTING_POINTS);
        let moves = self.distinct_moves_with(board, &mut gen);
        if let Some(hint) = missing_choices(&mv, &moves) {
            return Err(NotationError::Illegal(format!(
                "move '{}': {hint}",
                crate::text::quote(text)
            )));
        }
        let mut legal: Vec<String> = moves
            .iter()
            .take(MOVES_LISTED_IN_ERRORS)
            .map(|m| m.mv.to_string())
            .collect();
        if moves.len() > MOVES_LISTED_IN_ERRORS || gen.truncated() {
            legal.push("and more".into());
        }
        let legal = if legal.is_empty() {
            "none, the game is over".to_string()
        } else {
            legal.join(" ")
        };
        let label = if moves.iter().any(|m| !m.mv.choices.is_empty()) {
            "legal moves, one for each resulting position"
        } else {
            "legal moves"
        };
        Err(NotationError::Illegal(format!(
            "move '{}' is not legal here ({label}: {legal})",
            crate::text::quote(text)
        )))
    }
}

/// When `mv` is the start of legal moves that make more capture choices, what to type:
/// "pit 3 needs a choice: 3x or 3p".
fn missing_choices(mv: &Move, legal: &[LegalMove]) -> Option<String> {
    let mut longer: Vec<String> = legal
        .iter()
        .filter(|m| m.mv.pit == mv.pit && m.mv.choices.starts_with(&mv.choices))
        .filter(|m| m.mv.choices.len() > mv.choices.len())
        .map(|m| m.mv.to_string())
        .collect();
    if longer.is_empty() {
        return None;
    }
    longer.truncate(MOVES_LISTED_IN_ERRORS);
    let listed = match longer.as_slice() {
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
        [] => unreachable!("checked above"),
    };
    let what = if mv.choices.is_empty() {
        "a choice"
    } else {
        "more choices"
    };
    Some(format!("pit {} needs {what}: {listed}", mv.pit))
}

/// Most legal moves an illegal-move error lists.
const MOVES_LISTED_IN_ERRORS: usize = 60;
/// Turning points explored from each pit to list them (an exact list can take seconds).
const ERROR_LISTING_POINTS: usize = 4096;
