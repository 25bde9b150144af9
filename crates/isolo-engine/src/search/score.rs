//! Search values and the score type: wins and losses in exactly N plies above and below
//! every evaluation, draws at zero, and the conversions the searchers need (one ply
//! further from the end, to and from the table's node-relative form). Every threshold
//! between proven and estimated values is written here once.

use std::fmt;

use serde_json::Value;

use crate::eval::EVAL_LIMIT;

/// A won position's value: `WIN - plies` (`plies` to the move after which the loser has
/// no legal move); a lost one's is `-(WIN - plies)`.
pub const WIN: i32 = 1_000_000;
/// Values beyond `WIN - MAX_MATE_PLIES` are proven results.
pub const MAX_MATE_PLIES: i32 = 100_000;
/// Above every value.
pub const INFINITY: i32 = WIN + 1;
/// A drawn position (repetition); evaluations never return exactly this.
pub const DRAW: i32 = 0;

/// The value of a win in `plies`.
pub(crate) const fn win_in(plies: i32) -> i32 {
    WIN - plies
}

/// The value of a loss in `plies`.
pub(crate) const fn loss_in(plies: i32) -> i32 {
    -(WIN - plies)
}

/// Values beyond this are proven results.
const PROVEN: i32 = WIN - MAX_MATE_PLIES;

// No evaluation, whatever its weights, reaches a proven value.
const _: () = assert!(EVAL_LIMIT < PROVEN);

/// Whether a value is a proven win.
pub(crate) fn is_win(value: i32) -> bool {
    value > PROVEN
}

/// Whether a value is a proven loss.
pub(crate) fn is_loss(value: i32) -> bool {
    value < -PROVEN
}

/// Whether a value is a proven win or loss.
pub fn is_proven(value: i32) -> bool {
    is_win(value) || is_loss(value)
}

/// A score from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Score {
    /// A forced win: `plies` counts both players' moves up to the move after which the
    /// loser has no legal move.
    Win(u32),
    /// A forced loss in `plies` against best play (the longest defence).
    Loss(u32),
    /// A draw by repetition.
    Draw,
    /// An estimate in hundredths of a seed.
    Eval(i32),
}

impl Score {
    /// The score of a finished game's last position for its mover: its result in 0 plies.
    pub(crate) fn at_end(result: isolo_rules::SideResult) -> Score {
        match result {
            isolo_rules::SideResult::Win => Score::Win(0),
            isolo_rules::SideResult::Draw => Score::Draw,
            isolo_rules::SideResult::Loss => Score::Loss(0),
        }
    }

    /// The score of a search value.
    pub(crate) fn from_value(value: i32) -> Score {
        if is_win(value) {
            Score::Win((WIN - value) as u32)
        } else if is_loss(value) {
            Score::Loss((WIN + value) as u32)
        } else if value == DRAW {
            Score::Draw
        } else {
            Score::Eval(value)
        }
    }

    /// The search value of a score (wins above evaluations above losses).
    pub fn value(&self) -> i32 {
        match *self {
            Score::Win(p) => win_in(p as i32),
            Score::Loss(p) => loss_in(p as i32),
            Score::Draw => DRAW,
            Score::Eval(v) => v,
        }
    }

    /// Whether this is a proven win or loss.
    pub fn is_proven(&self) -> bool {
        matches!(self, Score::Win(_) | Score::Loss(_))
    }

    /// `{"type": "win"|"loss"|"draw"|"eval", "plies": N, "value": x, "text": "win in 5"}`:
    /// `text` is the score in the engine's words (as `analyze` prints it), so that no
    /// front end writes them again.
    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).expect("scores serialise")
    }
}

impl serde::Serialize for Score {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(None)?;
        match *self {
            Score::Win(p) => {
                map.serialize_entry("type", "win")?;
                map.serialize_entry("plies", &p)?;
            }
            Score::Loss(p) => {
                map.serialize_entry("type", "loss")?;
                map.serialize_entry("plies", &p)?;
            }
            Score::Draw => map.serialize_entry("type", "draw")?,
            Score::Eval(v) => {
                map.serialize_entry("type", "eval")?;
                map.serialize_entry("value", &(v as f64 / 100.0))?;
            }
        }
        map.serialize_entry("text", &self.to_string())?;
        map.end()
    }
}

/// "1 ply", "7 plies".
pub fn plies_text(n: u32) -> String {
    format!("{n} {}", if n == 1 { "ply" } else { "plies" })
}

impl Score {
    /// The score as a player reads it, on a board of `seeds_in_play` seeds: "12.5 seeds
    /// ahead", "even", "a win in 7 plies", "a draw". An evaluation worth more seeds
    /// than there are (its terms beyond the seeds held) is not given as seeds: "far
    /// ahead (evaluated at +111.2, more than the 64 seeds in play)".
    pub fn in_words(&self, seeds_in_play: u32) -> String {
        match *self {
            Score::Win(p) => format!("a win in {}", plies_text(p)),
            Score::Loss(p) => format!("a loss in {}", plies_text(p)),
            Score::Draw => "a draw".to_string(),
            // (What rounds to 0.0 seeds is even: "0.0 seeds behind" says nothing.)
            Score::Eval(v) if v.abs() < 5 => "even".to_string(),
            Score::Eval(v) => {
                let way = if v > 0 { "ahead" } else { "behind" };
                let seeds = v.unsigned_abs() as f64 / 100.0;
                if seeds > f64::from(seeds_in_play) {
                    format!(
                        "far {way} (evaluated at {:+.1}, more than the {seeds_in_play} seeds in play)",
                        v as f64 / 100.0
                    )
                } else {
                    format!("{seeds:.1} seeds {way}")
                }
            }
        }
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Score::Win(p) => write!(f, "win in {p}"),
            Score::Loss(p) => write!(f, "loss in {p}"),
            Score::Draw => f.write_str("draw"),
            Score::Eval(v) => write!(f, "{:+.2}", v as f64 / 100.0),
        }
    }
}

/// The value of a child as seen from its parent, one ply further from the end (a win in
/// N plies for the child's mover is a loss in N + 1 for the parent's, and so on); the
/// infinities swap.
pub(crate) fn from_child(value: i32) -> i32 {
    match value {
        INFINITY => -INFINITY,
        v if v == -INFINITY => INFINITY,
        v if is_win(v) => loss_in(WIN - v + 1),
        v if is_loss(v) => win_in(WIN + v + 1),
        v => -v,
    }
}

/// A value as the table stores it: proven values counted from the stored node, not the
/// root (`ply` plies below it).
pub(crate) fn to_table(value: i32, ply: usize) -> i32 {
    if is_win(value) {
        value + ply as i32
    } else if is_loss(value) {
        value - ply as i32
    } else {
        value
    }
}

/// A table value back as a value at `ply` plies below the root.
pub(crate) fn from_table(value: i32, ply: usize) -> i32 {
    if is_win(value) {
        value - ply as i32
    } else if is_loss(value) {
        value + ply as i32
    } else {
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_score_reads_as_words() {
        assert_eq!(Score::Eval(1250).in_words(64), "12.5 seeds ahead");
        assert_eq!(Score::Eval(-40).in_words(64), "0.4 seeds behind");
        assert_eq!(Score::Eval(0).in_words(64), "even");
        assert_eq!(Score::Eval(-4).in_words(64), "even");
        assert_eq!(Score::Eval(5).in_words(64), "0.1 seeds ahead");
        assert_eq!(Score::Win(1).in_words(64), "a win in 1 ply");
        assert_eq!(Score::Loss(8).in_words(64), "a loss in 8 plies");
        assert_eq!(Score::Draw.in_words(64), "a draw");
        assert_eq!(
            Score::Eval(11120).in_words(64),
            "far ahead (evaluated at +111.2, more than the 64 seeds in play)"
        );
        assert_eq!(Score::Eval(-6400).in_words(64), "64.0 seeds behind");
        let chances = crate::search::wdl::Wdl::per_mille(41, 955, 4);
        assert_eq!(chances.chances_text(), "win 4%, draw 96%, loss 0%");
        assert_eq!(chances.percent_text(), "W/D/L 4/96/0%");
    }

    #[test]
    fn conversions_round_trip_and_move_a_ply() {
        for v in [win_in(3), loss_in(4), 250, -17, DRAW] {
            assert_eq!(from_table(to_table(v, 5), 5), v);
            assert_eq!(
                Score::from_value(Score::from_value(v).value()),
                Score::from_value(v)
            );
        }
        assert_eq!(from_child(loss_in(2)), win_in(3));
        assert_eq!(from_child(win_in(1)), loss_in(2));
        assert_eq!(from_child(INFINITY), -INFINITY);
        assert_eq!(Score::from_value(-PROVEN), Score::Eval(-PROVEN));
    }
}
