//! Position and move text (RULES.md sections 6 and 7). Every malformed input gets a
//! one-line error that names the problem.

use std::fmt;

use super::board::Pits;
use super::ring::{self, Ring};
use crate::side::Side;

/// Most seeds a position may hold in all, so that no pit can pass 255 whatever captures
/// move where.
pub(crate) const MAX_SEEDS: u32 = 255;

/// Position or move text that was refused, by what was wrong; each carries the message
/// shown to the user.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    /// The rows of a position: their count, widths, seed counts or totals.
    #[error("{0}")]
    Rows(String),
    /// The side to move.
    #[error("{0}")]
    Side(String),
    /// The overture field.
    #[error("{0}")]
    Overture(String),
    /// A position the rules cannot reach (fields, out-of-play seeds).
    #[error("{0}")]
    Position(String),
    /// Malformed move text.
    #[error("{0}")]
    MoveText(String),
    /// A well-formed move that is not legal in the position (or that stops short of
    /// the capture choices it meets).
    #[error("{0}")]
    Illegal(String),
}

impl NotationError {
    /// The message shown to the user.
    pub fn message(&self) -> &str {
        match self {
            NotationError::Rows(m)
            | NotationError::Side(m)
            | NotationError::Overture(m)
            | NotationError::Position(m)
            | NotationError::MoveText(m)
            | NotationError::Illegal(m) => m,
        }
    }
}

fn err<T>(kind: fn(String) -> NotationError, msg: impl Into<String>) -> Result<T, NotationError> {
    Err(kind(msg.into()))
}

/// The side and lane shown at `row` (0..4, top to bottom as South sees the board) and
/// `col` (0..W, left to right as South sees it).
pub fn pit_at(row: usize, col: usize, columns: usize) -> (Side, usize) {
    let w = columns;
    match row {
        0 => (Side::North, w - 1 - col),
        1 => (Side::North, w + col),
        2 => (Side::South, 2 * w - 1 - col),
        _ => (Side::South, col),
    }
}

const ROW_NAMES: [&str; 4] = ["North back", "North front", "South front", "South back"];

/// Parses the four rows of a position (`ROWS` of RULES.md 6) into `[south, north]`.
pub fn parse_rows(text: &str, columns: u8) -> Result<[Pits; 2], NotationError> {
    let w = columns as usize;
    let rows: Vec<&str> = text.split('/').collect();
    if rows.len() != 4 {
        return err(
            NotationError::Rows,
            format!("expected 4 rows separated by '/', found {}", rows.len()),
        );
    }
    let mut rings = [0 as Ring; 2];
    let mut total = [0u32; 2];
    for (r, row) in rows.iter().enumerate() {
        let cells: Vec<&str> = row.split(',').collect();
        if cells.len() != w {
            return err(
                NotationError::Rows,
                format!(
                    "row {} ({}) has {} pits, expected {w}",
                    r + 1,
                    ROW_NAMES[r],
                    cells.len()
                ),
            );
        }
        for (c, cell) in cells.iter().enumerate() {
            let seeds: u8 = match cell.trim().parse::<u32>() {
                Ok(n) if n <= MAX_SEEDS => n as u8,
                Ok(n) => {
                    return err(
                        NotationError::Rows,
                        format!("row {}, pit {}: {n} seeds is more than 255", r + 1, c + 1),
                    )
                }
                Err(_) => {
                    return err(
                        NotationError::Rows,
                        format!("row {}, pit {}: '{cell}' is not a seed count", r + 1, c + 1),
                    )
                }
            };
            let (side, lane) = pit_at(r, c, w);
            rings[side as usize] = ring::set_lane(rings[side as usize], lane, seeds);
            total[side as usize] += seeds as u32;
        }
    }
    for side in Side::BOTH {
        if total[side as usize] > MAX_SEEDS {
            return err(
                NotationError::Rows,
                format!(
                    "{side} has {} seeds, more than 255 on one side",
                    total[side as usize]
                ),
            );
        }
    }
    if total[0] + total[1] > MAX_SEEDS {
        return err(
            NotationError::Rows,
            format!(
                "{} seeds in all: more than 255 (a capture could put them on one side)",
                total[0] + total[1]
            ),
        );
    }
    Ok(rings.map(Pits))
}

/// Formats `[south, north]` as the four rows of a position.
pub fn format_rows(pits: &[Pits; 2], columns: u8) -> String {
    let w = columns as usize;
    (0..4)
        .map(|r| {
            (0..w)
                .map(|c| {
                    let (side, lane) = pit_at(r, c, w);
                    pits[side as usize].seeds(lane).to_string()
                })
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// Parses `S` or `N`.
pub fn parse_side(text: &str) -> Result<Side, NotationError> {
    match text {
        "S" => Ok(Side::South),
        "N" => Ok(Side::North),
        _ => err(
            NotationError::Side,
            format!(
                "side to move must be S or N, found '{}'",
                crate::text::quote(text)
            ),
        ),
    }
}

/// Parses the overture field: `-`, `S`, `N` or `SN` into a bit set (bit 0 South).
pub(crate) fn parse_overture(text: &str) -> Result<u8, NotationError> {
    match text {
        "-" => Ok(0),
        "S" => Ok(1),
        "N" => Ok(2),
        "SN" => Ok(3),
        _ => err(
            NotationError::Overture,
            format!(
                "overture must be '-', 'S', 'N' or 'SN', found '{}'",
                crate::text::quote(text)
            ),
        ),
    }
}

/// Parses the first-move field (RULES.md 6): `-`, `S`, `N` or `SN`, the players whose
/// first move, still to come, may not capture, into a bit set (bit 0 South).
pub(crate) fn parse_first_moves(text: &str) -> Result<u8, NotationError> {
    parse_overture(text).map_err(|_| {
        NotationError::Position(format!(
            "first moves to come must be '-', 'S', 'N' or 'SN', found '{}'",
            crate::text::quote(text)
        ))
    })
}

/// Formats an overture bit set.
pub fn format_overture(flags: u8) -> &'static str {
    ["-", "S", "N", "SN"][(flags & 3) as usize]
}

/// One decision a move makes on its way (RULES.md 7): a capture taken or passed where
/// captures are optional, a lap sown anticlockwise or clockwise where both are open, and
/// where the rules have `retreat` the opponent's answer to each pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Choice {
    /// The capture is taken (`x`).
    Take,
    /// The capture is passed (`p`): the lap relays instead.
    Pass,
    /// The lap is sown anticlockwise, the usual way (`a`).
    Anticlockwise,
    /// The lap is sown clockwise (`c`).
    Clockwise,
    /// The opponent answers a pass by retreating: its front pit's seeds go to the pit
    /// behind it (`r`).
    Retreat,
    /// The opponent answers a pass by leaving its seeds where they are (`s`, stay).
    Stay,
    /// After a clockwise capture that could be left (`clockwise_leave`), the captured
    /// seeds are sown on as usual (`o`).
    SowOn,
    /// The captured seeds are left in the pit the lap came from, and the other
    /// clockwise pit is sown clockwise (`l`, leave).
    Leave,
}

impl Choice {
    /// The letter the notation writes.
    pub fn letter(self) -> char {
        match self {
            Choice::Take => 'x',
            Choice::Pass => 'p',
            Choice::Anticlockwise => 'a',
            Choice::Clockwise => 'c',
            Choice::Retreat => 'r',
            Choice::Stay => 's',
            Choice::SowOn => 'o',
            Choice::Leave => 'l',
        }
    }

    /// The opponent's answer to a pass: `Retreat` if `retreat`, else `Stay`.
    pub fn answer(retreat: bool) -> Choice {
        if retreat {
            Choice::Retreat
        } else {
            Choice::Stay
        }
    }

    /// Whether this is the opponent's answer to a pass (retreat or stay).
    pub fn is_answer(self) -> bool {
        matches!(self, Choice::Retreat | Choice::Stay)
    }

    /// Whether this is the choice after a capture that could be left (sow on or leave).
    pub fn is_leave_choice(self) -> bool {
        matches!(self, Choice::SowOn | Choice::Leave)
    }

    /// The capture choice: `Take` if `take`, else `Pass`.
    pub fn capture(take: bool) -> Choice {
        if take {
            Choice::Take
        } else {
            Choice::Pass
        }
    }

    /// Whether this is a capture choice (take or pass), not a direction.
    pub fn is_capture(self) -> bool {
        matches!(self, Choice::Take | Choice::Pass)
    }
}

/// Which decision letters a variant's moves carry (RULES.md 7).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveLetters {
    /// `x`/`p`: captures are optional.
    pub captures: bool,
    /// `a`/`c`: some laps may be sown clockwise.
    pub directions: bool,
    /// `r`/`s`: the opponent answers each pass (`retreat`).
    pub answers: bool,
    /// `o`/`l`: a clockwise capture's seeds may be left (`clockwise_leave`).
    pub leaves: bool,
}

/// A move: the chosen pit (1..=2W, the mover's numbering) and one choice per decision
/// met on the way, in order: take or pass where captures are optional, the direction
/// where a lap may be sown clockwise.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// The pit, 1..=2W in the mover's numbering.
    pub pit: u8,
    /// One choice per decision met, in order.
    pub choices: Vec<Choice>,
}

impl Move {
    /// The opponent's answers inside this move (RULES.md 3.4, the retreat), in order:
    /// each with the move up to it, the point at which the opponent is asked.
    pub fn answers(&self) -> Vec<(Move, Choice)> {
        let mut answers = Vec::new();
        for (at, &choice) in self.choices.iter().enumerate() {
            if choice.is_answer() {
                let before = Move {
                    pit: self.pit,
                    choices: self.choices[..at].to_vec(),
                };
                answers.push((before, choice));
            }
        }
        answers
    }

    /// A move with no choices.
    pub fn pit(pit: u8) -> Move {
        Move {
            pit,
            choices: Vec::new(),
        }
    }

    /// Whether this move goes on from `partial`: the same pit, and `partial`'s choices
    /// followed by at least one more (a move half made, completed or carried further).
    pub fn goes_on_from(&self, partial: &Move) -> bool {
        self.pit == partial.pit
            && self.choices.len() > partial.choices.len()
            && self.choices.starts_with(&partial.choices)
    }

    /// Parses move text against a board of `columns` columns; each kind of letter only
    /// where `letters` makes it meaningful.
    pub fn parse(text: &str, columns: u8, letters: MoveLetters) -> Result<Move, NotationError> {
        let digits_end = text
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(text.len());
        let (digits, tail) = text.split_at(digits_end);
        if digits.is_empty() {
            return err(
                NotationError::MoveText,
                format!(
                    "move '{}' must start with a pit number",
                    crate::text::quote(text)
                ),
            );
        }
        let pits = 2 * columns as u32;
        let pit = match digits.parse::<u32>() {
            Ok(p) if (1..=pits).contains(&p) => p as u8,
            _ => {
                return err(
                    NotationError::MoveText,
                    format!(
                        "move '{}': pit {} is not 1..{pits}",
                        crate::text::quote(text),
                        crate::text::quote(digits)
                    ),
                )
            }
        };
        let mut choices = Vec::with_capacity(tail.len());
        for ch in tail.chars() {
            let refuse = |why: String| {
                err(
                    NotationError::MoveText,
                    format!("move '{}': {why}", crate::text::quote(text)),
                )
            };
            let choice = match ch {
                'x' => Choice::Take,
                'p' => Choice::Pass,
                'a' => Choice::Anticlockwise,
                'c' => Choice::Clockwise,
                'r' => Choice::Retreat,
                's' => Choice::Stay,
                'o' => Choice::SowOn,
                'l' => Choice::Leave,
                _ => {
                    let known = match (letters.captures, letters.directions) {
                        (true, true) => {
                            "neither 'x' (take), 'p' (pass), 'a' (anticlockwise) nor 'c' (clockwise)"
                        }
                        (false, true) if letters.leaves => {
                            "neither 'a' (anticlockwise), 'c' (clockwise), 'o' (sow on) nor 'l' (leave)"
                        }
                        (true, false) if letters.answers => {
                            "neither 'x' (take), 'p' (pass), 'r' (retreat) nor 's' (stay)"
                        }
                        (true, false) => "neither 'x' (take) nor 'p' (pass)",
                        (false, true) => "neither 'a' (anticlockwise) nor 'c' (clockwise)",
                        (false, false) => "not a choice: this variant's moves are pit numbers alone",
                    };
                    return refuse(format!("'{ch}' is {known}"));
                }
            };
            // Each kind of letter belongs to a rule the variant may not have.
            let (allowed, why) = if choice.is_capture() {
                (
                    letters.captures,
                    "marks a capture choice, but captures are forced in this variant",
                )
            } else if choice.is_answer() {
                (
                    letters.answers,
                    "marks an answer to a pass, but this variant has no retreat",
                )
            } else if choice.is_leave_choice() {
                (
                    letters.leaves,
                    "marks leaving a clockwise capture, but this variant has no clockwise_leave",
                )
            } else {
                (
                    letters.directions,
                    "marks a lap's direction, but every lap is sown anticlockwise in this variant",
                )
            };
            if !allowed {
                return refuse(format!("'{ch}' {why}"));
            }
            choices.push(choice);
        }
        Ok(Move { pit, choices })
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.pit)?;
        for choice in &self.choices {
            write!(f, "{}", choice.letter())?;
        }
        Ok(())
    }
}

/// Splits a move list at spaces and commas.
pub fn split_moves(text: &str) -> Vec<&str> {
    text.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|s| !s.is_empty())
        .collect()
}
