//! Game review: each move of a game set against the engine's best move, in win chance
//! and in seeds, with a class, the proven turning points, and each side's accuracy.
//!
//! Every position of the game is searched once, with the history before it (so
//! repetitions count), by the same searcher and the same budget. A move's value is the
//! next position's score seen from the mover (one ply further from the end for a proven
//! result); its loss is what it gives up against the best score of the position it was
//! played from:
//!
//! - `loss` in win chance: the drop of the expected result (a win 1, a draw 1/2) under
//!   the variant's win/draw/loss model (`crate::search::wdl`), from 0 to 1, never below 0;
//! - `loss_seeds`: the drop of the score in seeds, where both scores are estimates.
//!
//! The engine's own best move loses nothing. A move's class and accuracy count its
//! `counted_loss`, measured in one of three ways ([`Measure`], reported with the move):
//! the win chance lost, where the chances move; where both positions are mostly drawn
//! (a draw chance of at least [`DRAWN`] after the best move and after the move played,
//! as in Igisoro, where win chances do not separate the moves), the seeds lost instead
//! if more, [`SEED_LOSS`] of win chance a seed, and only past [`SEED_NOISE`], the seeds
//! two searches of the same budget disagree by on the engine's own best move; and at
//! least [`MISTAKE`] for a move that threw away a proven win or walked into a proven
//! loss. Classes: `best` (the best move, or a move scored at least as well), `good`
//! (under [`INACCURACY`]), `inaccuracy`, `mistake` (from [`MISTAKE`]), `blunder` (from
//! [`BLUNDER`]); `forced` for the only legal move. So in a drawn position up to 7 seeds
//! lost are good, 7 to 10 an inaccuracy, 10 to 20 a mistake and 20 or more a blunder.
//! A side's accuracy is the mean over its moves that were not forced of
//! `100 * exp(-lost / ACCURACY_DECAY)`, `lost` the counted loss in percentage points:
//! 100 for best play, about 80 for a move losing 5 points, 63 for 10, 40 for 20.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::Value;

use crate::search::score::from_child;
use crate::search::wdl::{Wdl, WdlModel};
use crate::search::{chances_why, score_in_plain_words};
use crate::search::{searched_moves, Limits, Score, SearchRequest, Searcher};
use isolo_rules::{Board, Game, Move, Side};

/// Win chance lost from which a move is an inaccuracy.
pub const INACCURACY: f64 = 0.05;
/// Win chance lost from which a move is a mistake.
pub const MISTAKE: f64 = 0.10;
/// Win chance lost from which a move is a blunder.
pub const BLUNDER: f64 = 0.20;
/// Percentage points of win chance lost that cut a move's accuracy by a factor e.
pub const ACCURACY_DECAY: f64 = 22.0;
/// The draw chance from which a position counts as mostly drawn, so that its moves are
/// told apart by the seeds they lose.
pub const DRAWN: f64 = 0.5;
/// Win chance a seed lost counts for in a mostly drawn position.
pub const SEED_LOSS: f64 = 0.01;
/// Seeds lost that count for nothing: the evaluation's noise. Searched one after the
/// other as a review searches them, a position and the position after the engine's own
/// best move disagree by up to this many seeds in 95% of the moves of Igisoro's three
/// games, where the seeds set the classes (6.35 to 6.65 seeds; `cargo test --release -p
/// isolo-engine seeds_lost_by_best_moves -- --ignored --nocapture`).
pub const SEED_NOISE: f64 = 7.0;

/// What set a move's counted loss.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Measure {
    /// The win chance lost.
    WinChance,
    /// The seeds lost, both positions mostly drawn.
    Seeds,
    /// A proven result the move changed.
    Proven,
}

impl Measure {
    /// Its name in JSON: `win chance`, `seeds`, `proven result`.
    pub fn name(self) -> &'static str {
        match self {
            Measure::WinChance => "win chance",
            Measure::Seeds => "seeds",
            Measure::Proven => "proven result",
        }
    }
}

/// What kind of move a move was, against the engine's best.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveClass {
    /// The only legal move.
    Forced,
    /// The engine's best, or scored at least as well.
    Best,
    /// Losing less than [`INACCURACY`] of win chance.
    Good,
    /// Losing from [`INACCURACY`] to [`MISTAKE`].
    Inaccuracy,
    /// Losing from [`MISTAKE`] to [`BLUNDER`].
    Mistake,
    /// Losing [`BLUNDER`] or more.
    Blunder,
}

impl MoveClass {
    /// Every class, best to worst.
    pub const ALL: [MoveClass; 6] = [
        MoveClass::Forced,
        MoveClass::Best,
        MoveClass::Good,
        MoveClass::Inaccuracy,
        MoveClass::Mistake,
        MoveClass::Blunder,
    ];

    /// Its name in text and JSON.
    pub fn name(self) -> &'static str {
        match self {
            MoveClass::Forced => "forced",
            MoveClass::Best => "best",
            MoveClass::Good => "good",
            MoveClass::Inaccuracy => "inaccuracy",
            MoveClass::Mistake => "mistake",
            MoveClass::Blunder => "blunder",
        }
    }

    /// Whether a review marks the move: an inaccuracy, a mistake or a blunder.
    pub fn is_marked(self) -> bool {
        matches!(
            self,
            MoveClass::Inaccuracy | MoveClass::Mistake | MoveClass::Blunder
        )
    }

    /// The class of a move that is not forced nor the best, by the win chance it lost.
    pub(crate) fn of_loss(loss: f64) -> MoveClass {
        if loss >= BLUNDER {
            MoveClass::Blunder
        } else if loss >= MISTAKE {
            MoveClass::Mistake
        } else if loss >= INACCURACY {
            MoveClass::Inaccuracy
        } else {
            MoveClass::Good
        }
    }
}

/// A move that changed a proven result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TurningPoint {
    /// The mover had a win in `plies` and the move gave it up.
    ThrewAwayWin {
        /// Plies of the win given up.
        plies: u32,
    },
    /// The mover was not lost and the move loses, in `plies` against best play.
    WalkedIntoLoss {
        /// Plies to the loss after the move, counted from the move's position.
        plies: u32,
    },
}

impl TurningPoint {
    /// "threw away a win in 9", "walked into a loss in 8".
    pub fn text(self) -> String {
        match self {
            TurningPoint::ThrewAwayWin { plies } => format!("threw away a win in {plies}"),
            TurningPoint::WalkedIntoLoss { plies } => format!("walked into a loss in {plies}"),
        }
    }
}

/// One move of the game, reviewed.
#[derive(Clone, Debug, PartialEq)]
pub struct ReviewedMove {
    /// Its number in the game, from 1.
    pub ply: usize,
    /// The side that played it.
    pub side: Side,
    /// The move played.
    pub mv: Move,
    /// The engine's best move there.
    pub best: Move,
    /// The engine's line from the best move.
    pub best_line: Vec<Move>,
    /// The best score there, from the mover's view.
    pub best_score: Score,
    /// The score of the move played, from the mover's view.
    pub score: Score,
    /// The chances after the best move and after the move played, the mover's view.
    pub best_wdl: Wdl,
    /// See `best_wdl`.
    pub wdl: Wdl,
    /// Win chance lost, from 0 to 1.
    pub loss: f64,
    /// Seeds lost, where both scores are estimates.
    pub loss_seeds: Option<f64>,
    /// The loss its class and accuracy count (see the module's notes).
    pub counted_loss: f64,
    /// What set `counted_loss`; `None` where nothing was lost.
    pub measure: Option<Measure>,
    /// Its class.
    pub class: MoveClass,
    /// The proven result it changed, if any.
    pub turning_point: Option<TurningPoint>,
    /// Why the chances of the position it was played from stand apart from its seeds
    /// (`search::chances_why`), which its reason gives where it lost seeds while the
    /// chances stayed flat.
    pub chances_why: Option<String>,
    /// The engine's best move's score and chances in a player's words: "5.2 seeds
    /// ahead (win 74%, draw 0%, loss 26%)".
    pub best_in_words: String,
}

/// A position's score and chances, from its mover's view.
#[derive(Clone, Debug, PartialEq)]
pub struct PositionScore {
    /// The side to move there.
    pub side: Side,
    /// Its score.
    pub score: Score,
    /// The chances of its score.
    pub wdl: Wdl,
    /// Why those chances stand apart from the seeds, where they do
    /// (`search::chances_why`).
    pub chances_why: Option<String>,
}

/// What a review may spend: each position's search, and the whole review's time.
#[derive(Clone, Copy, Debug, Default)]
pub struct ReviewBudget {
    /// Each position's search.
    pub position: Limits,
    /// The whole review's time (none: the positions' limits alone): when it is spent
    /// the review ends with the moves reviewed so far, so a long game cannot hold a
    /// searcher (or a server's search slot) for as long as its positions add up to.
    pub total: Option<Duration>,
}

impl ReviewBudget {
    /// `position` a position, without a total.
    #[cfg(test)]
    pub(crate) fn per_position(position: Limits) -> ReviewBudget {
        ReviewBudget {
            position,
            total: None,
        }
    }

    /// The limits of the next position's search, `elapsed` into the review; `None` once
    /// the total is spent.
    fn next(&self, elapsed: Duration) -> Option<Limits> {
        let Some(total) = self.total else {
            return Some(self.position);
        };
        let left = total.checked_sub(elapsed).filter(|left| !left.is_zero())?;
        let time = self.position.time.map_or(left, |t| t.min(left));
        Some(Limits {
            time: Some(time),
            ..self.position
        })
    }
}

/// The review of a game.
#[derive(Clone, Debug)]
pub struct Review {
    /// The moves reviewed, in order (fewer than the game's when stopped).
    pub moves: Vec<ReviewedMove>,
    /// Every position reviewed, from the start.
    pub positions: Vec<PositionScore>,
    /// Nodes searched, all positions together.
    pub nodes: u64,
    /// Time spent.
    pub time: Duration,
    /// Whether the stop flag cut the review short.
    pub interrupted: bool,
    /// Whether the budget's total time cut the review short.
    pub out_of_time: bool,
}

/// Reviews the game's moves with `searcher` within `budget`; `progress` is called with
/// the positions searched and their number. A raised `stop`, or the budget's total
/// spent, ends the review after the moves whose both positions were searched.
pub fn review(
    game: &Game,
    searcher: &mut dyn Searcher,
    budget: ReviewBudget,
    progress: &mut dyn FnMut(usize, usize),
    stop: Option<&AtomicBool>,
) -> Review {
    let started = Instant::now();
    let variant = game.variant();
    let (_, model) = WdlModel::for_variant(variant);
    let mut replay = Game::new(variant, *game.start());
    let total = game.plies() + 1;
    let mut scored: Vec<Searched> = Vec::with_capacity(total);
    let mut nodes = 0;
    let (mut interrupted, mut out_of_time) = (false, false);
    for ply in 0..total {
        let searched = match end_score(&replay) {
            Some(score) => Searched::ended(score),
            None => {
                let Some(limits) = budget.next(started.elapsed()) else {
                    out_of_time = true;
                    break;
                };
                let request = SearchRequest {
                    variant,
                    board: *replay.board(),
                    history: replay.history(),
                    quiet_plies: replay.quiet_plies(),
                    limits,
                    multipv: 1,
                    pv_lines: usize::MAX,
                    stop,
                };
                let result = searcher.search(&request, &mut |_| {});
                nodes += result.nodes;
                if crate::raised(stop) {
                    interrupted = true;
                    break;
                }
                let Some(best) = result.best() else { break };
                Searched {
                    score: best.score,
                    best: Some(best.mv.clone()),
                    line: best.pv.clone(),
                }
            }
        };
        scored.push(searched);
        progress(ply + 1, total);
        if let Some(mv) = game.moves().get(ply) {
            replay.play_move(mv).expect("the game's own moves replay");
        }
    }
    let boards = game.positions();
    // (Each position's fortresses found once: its chances' reason and its best move's
    // words read them.)
    let holders: Vec<Vec<Side>> = (boards.iter().take(scored.len()))
        .map(|board| isolo_rules::fortress_holders(variant, board))
        .collect();
    let positions: Vec<PositionScore> = (scored.iter().zip(boards).zip(&holders))
        .map(|((s, board), holders)| PositionScore {
            side: board.to_move(),
            score: s.score,
            wdl: model.wdl(s.score),
            chances_why: chances_why(variant, board, holders, s.score),
        })
        .collect();
    let moves = (0..scored.len().saturating_sub(1))
        .map(|i| {
            let before = (&scored[i], &positions[i], !holders[i].is_empty());
            review_move(&model, game, &boards[i], i, before, &scored[i + 1])
        })
        .collect();
    Review {
        moves,
        positions,
        nodes,
        time: started.elapsed(),
        interrupted,
        out_of_time,
    }
}

/// A position's score and the engine's best move and line from it.
struct Searched {
    score: Score,
    best: Option<Move>,
    line: Vec<Move>,
}

impl Searched {
    fn ended(score: Score) -> Searched {
        Searched {
            score,
            best: None,
            line: Vec::new(),
        }
    }
}

/// The score of a finished game's last position, for its mover: lost when it has no
/// move, drawn by a repetition.
fn end_score(game: &Game) -> Option<Score> {
    let outcome = game.outcome()?;
    Some(Score::at_end(outcome.for_side(game.board().to_move())))
}

/// The review of move `index`, played from `board`: `before` the position's search,
/// its score as reviewed and whether a side holds a fortress there; `after` the next
/// position's search.
fn review_move(
    model: &WdlModel,
    game: &Game,
    board: &Board,
    index: usize,
    (before, position, held): (&Searched, &PositionScore, bool),
    after: &Searched,
) -> ReviewedMove {
    let variant = game.variant();
    let mv = game.moves()[index].clone();
    let best = before
        .best
        .clone()
        .expect("a position a move was played from was searched");
    let (moves, cut) = searched_moves(variant, board);
    let child = game.positions()[index + 1];
    let is_best = variant
        .play_move(board, &best)
        .is_some_and(|m| m.child == child);
    let best_score = before.score;
    let score = if is_best {
        best_score
    } else {
        Score::from_value(from_child(after.score.value()))
    };
    let (best_wdl, wdl) = (model.wdl(best_score), model.wdl(score));
    let loss = (best_wdl.expected() - wdl.expected()).max(0.0);
    let loss_seeds = match (best_score, score) {
        (Score::Eval(b), Score::Eval(p)) => Some(f64::from((b - p).max(0)) / 100.0),
        _ => None,
    };
    let turning_point = match (best_score, score) {
        (Score::Win(plies), s) if !matches!(s, Score::Win(_)) => {
            Some(TurningPoint::ThrewAwayWin { plies })
        }
        (b, Score::Loss(plies)) if !matches!(b, Score::Loss(_)) => {
            Some(TurningPoint::WalkedIntoLoss { plies })
        }
        _ => None,
    };
    let best_move = is_best || score.value() >= best_score.value();
    let (counted_loss, measure) = if best_move {
        (0.0, None)
    } else {
        counted(loss, loss_seeds, best_wdl, wdl, turning_point.is_some())
    };
    let class = if moves.len() == 1 && !cut {
        MoveClass::Forced
    } else if best_move {
        MoveClass::Best
    } else {
        MoveClass::of_loss(counted_loss)
    };
    let best_in_words = format!(
        "{} ({})",
        score_in_plain_words(best_score, board, held),
        best_wdl.chances_text()
    );
    ReviewedMove {
        ply: index + 1,
        side: board.to_move(),
        mv,
        best,
        best_line: before.line.clone(),
        best_score,
        score,
        best_wdl,
        wdl,
        loss,
        loss_seeds,
        counted_loss,
        measure,
        class,
        turning_point,
        chances_why: position.chances_why.clone(),
        best_in_words,
    }
}

impl ReviewedMove {
    /// Why the move has its class, in words, by what it changed: "the chances fell from
    /// win 60%, draw 10%, loss 30% to win 35%, draw 10%, loss 55% (3.0 seeds behind the
    /// engine's best)"; "26.8 seeds behind the engine's best while the chances barely
    /// move (win 1%, draw 99%, loss 0%): REASON"; "threw away a win in 9"; "the engine's
    /// best"; "4.1 seeds behind the engine's best, within the evaluation's noise".
    pub fn reason(&self) -> String {
        let behind = |s: f64| format!("{} behind the engine's best", seeds_text(s));
        match (self.class, self.measure) {
            (MoveClass::Forced, _) => "the only legal move".to_string(),
            (MoveClass::Best, _) => "the engine's best".to_string(),
            (_, Some(Measure::Proven)) => self
                .turning_point
                .map(TurningPoint::text)
                .unwrap_or_default(),
            (_, Some(Measure::Seeds)) => {
                let flat = format!(
                    "{} while the chances barely move ({})",
                    behind(self.loss_seeds.unwrap_or(0.0)),
                    self.wdl.chances_text()
                );
                match &self.chances_why {
                    Some(why) => format!("{flat}: {why}"),
                    None => flat,
                }
            }
            (_, Some(Measure::WinChance)) => {
                let also = self.loss_seeds.map(|s| format!(" ({})", behind(s)));
                format!(
                    "the chances fell from {} to {}{}",
                    self.best_wdl.chances_text(),
                    self.wdl.chances_text(),
                    also.unwrap_or_default()
                )
            }
            (_, None) => match self.loss_seeds {
                Some(s) if s > 0.0 => {
                    format!("{}, within the evaluation's noise", behind(s))
                }
                _ => "nothing lost that the engine can measure".to_string(),
            },
        }
    }

    /// The move's line in a review: "ply 14, North 4: blunder, the chances fell from
    /// ... to ...; better 7".
    pub fn note(&self) -> String {
        format!(
            "ply {}, {} {}: {}, {}; better {}",
            self.ply,
            self.side,
            self.mv,
            self.class.name(),
            self.reason(),
            self.best
        )
    }
}

/// Seeds to one decimal: "26.8 seeds", "1 seed".
pub fn seeds_text(seeds: f64) -> String {
    let tenths = (seeds * 10.0).round() / 10.0;
    if tenths == 1.0 {
        "1 seed".to_string()
    } else if tenths.fract() == 0.0 {
        format!("{tenths:.0} seeds")
    } else {
        format!("{tenths:.1} seeds")
    }
}

/// The loss a move's class and accuracy count, and what set it: the win chance lost
/// `loss`; in a mostly drawn position the seeds lost past the noise if they weigh more;
/// at least a mistake's at a proven turning point.
fn counted(
    loss: f64,
    seeds: Option<f64>,
    best: Wdl,
    played: Wdl,
    turning: bool,
) -> (f64, Option<Measure>) {
    let drawn = |w: Wdl| f64::from(w.draw) / 1000.0 >= DRAWN;
    let by_seeds = match seeds {
        Some(seeds) if drawn(best) && drawn(played) && seeds > SEED_NOISE => seeds * SEED_LOSS,
        _ => 0.0,
    };
    let (counted, measure) = if by_seeds > loss {
        (by_seeds.min(1.0), Measure::Seeds)
    } else {
        (loss, Measure::WinChance)
    };
    if turning {
        (counted.max(MISTAKE), Some(Measure::Proven))
    } else {
        (counted, (counted > 0.0).then_some(measure))
    }
}

/// The accuracy of one move that was not forced, from 0 to 100.
pub(crate) fn move_accuracy(loss: f64) -> f64 {
    100.0 * (-(loss * 100.0) / ACCURACY_DECAY).exp()
}

impl Review {
    /// A side's accuracy: the mean of `move_accuracy` over its moves that were not
    /// forced; `None` without such a move.
    pub fn accuracy(&self, side: Side) -> Option<f64> {
        let own: Vec<f64> = self
            .moves
            .iter()
            .filter(|m| m.side == side && m.class != MoveClass::Forced)
            .map(|m| move_accuracy(m.counted_loss))
            .collect();
        (!own.is_empty()).then(|| own.iter().sum::<f64>() / own.len() as f64)
    }

    /// How many of a side's moves fell in each class, in the order of `MoveClass::ALL`.
    pub fn class_counts(&self, side: Side) -> [usize; 6] {
        MoveClass::ALL.map(|class| {
            self.moves
                .iter()
                .filter(|m| m.side == side && m.class == class)
                .count()
        })
    }

    /// The fields of `review --json`, as a value ([`Review::report`] serialised).
    pub fn to_json(&self) -> Value {
        serde_json::to_value(self.report()).expect("reviews serialise")
    }

    /// The review as `review --json` writes it: `moves` (each `ply`, `move`, `side`,
    /// `best`, `best_line`, `best_score`, `score`, `best_wdl`, `wdl`, `loss`,
    /// `loss_seeds`, `counted_loss`, `measure`, `class`, `turning_point`, `reason`,
    /// `note`, `best_in_words`), `accuracy` (`S`, `N`), `classes` (per side, each
    /// class's count), `positions` (each position's `side` to move, `score`, `wdl` and
    /// `chances_why`), `nodes`, `time_ms`, `interrupted`, `out_of_time`. Serialised
    /// straight from the review, so writing it takes no more memory than its text.
    pub fn report(&self) -> ReviewReport<'_> {
        let round = |a: Option<f64>| a.map(|a| (a * 10.0).round() / 10.0);
        let classes = |side| {
            let names = MoveClass::ALL.iter().map(|class| class.name());
            ClassCounts(names.zip(self.class_counts(side)).collect())
        };
        ReviewReport {
            moves: MovesReport(&self.moves),
            accuracy: PerSide {
                south: round(self.accuracy(Side::South)),
                north: round(self.accuracy(Side::North)),
            },
            classes: PerSide {
                south: classes(Side::South),
                north: classes(Side::North),
            },
            positions: &self.positions,
            nodes: self.nodes,
            time_ms: self.time.as_millis() as u64,
            interrupted: self.interrupted,
            out_of_time: self.out_of_time,
        }
    }
}

/// A review as every front end reports it (see [`Review::report`]).
#[derive(Serialize)]
pub struct ReviewReport<'a> {
    moves: MovesReport<'a>,
    accuracy: PerSide<Option<f64>>,
    classes: PerSide<ClassCounts>,
    #[serde(serialize_with = "positions_report")]
    positions: &'a [PositionScore],
    nodes: u64,
    time_ms: u64,
    interrupted: bool,
    out_of_time: bool,
}

/// South's and North's values, as `{"S": .., "N": ..}`.
#[derive(Serialize)]
struct PerSide<T> {
    #[serde(rename = "S")]
    south: T,
    #[serde(rename = "N")]
    north: T,
}

/// Each class's count, as `{"best": 12, ...}`.
struct ClassCounts(Vec<(&'static str, usize)>);

impl Serialize for ClassCounts {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.0.iter().copied())
    }
}

fn positions_report<S: serde::Serializer>(
    positions: &&[PositionScore],
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.collect_seq(positions.iter().map(|p| PositionReport {
        side: p.side.letter(),
        score: p.score,
        wdl: p.wdl,
        chances_why: p.chances_why.as_deref(),
    }))
}

#[derive(Serialize)]
struct PositionReport<'a> {
    side: char,
    score: Score,
    wdl: Wdl,
    chances_why: Option<&'a str>,
}

/// The moves, serialised one at a time.
struct MovesReport<'a>(&'a [ReviewedMove]);

impl Serialize for MovesReport<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(MoveReport::of))
    }
}

#[derive(Serialize)]
struct MoveReport {
    ply: usize,
    #[serde(rename = "move")]
    mv: String,
    side: char,
    best: String,
    best_line: Vec<String>,
    best_score: Score,
    score: Score,
    best_wdl: Wdl,
    wdl: Wdl,
    loss: f64,
    loss_seeds: Option<f64>,
    counted_loss: f64,
    measure: Option<&'static str>,
    class: &'static str,
    turning_point: Option<String>,
    reason: String,
    note: String,
    best_in_words: String,
}

impl MoveReport {
    fn of(m: &ReviewedMove) -> MoveReport {
        MoveReport {
            ply: m.ply,
            mv: m.mv.to_string(),
            side: m.side.letter(),
            best: m.best.to_string(),
            best_line: m.best_line.iter().map(|mv| mv.to_string()).collect(),
            best_score: m.best_score,
            score: m.score,
            best_wdl: m.best_wdl,
            wdl: m.wdl,
            loss: (m.loss * 1000.0).round() / 1000.0,
            loss_seeds: m.loss_seeds,
            counted_loss: (m.counted_loss * 1000.0).round() / 1000.0,
            measure: m.measure.map(Measure::name),
            class: m.class.name(),
            turning_point: m.turning_point.map(TurningPoint::text),
            reason: m.reason(),
            note: m.note(),
            best_in_words: m.best_in_words.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::alphabeta::{AlphaBeta, AlphaBetaConfig};
    use isolo_rules::Variant;

    fn reviewed(variant: &Variant, moves: &str, depth: u32) -> Review {
        let mut game = Game::new(variant, variant.start());
        game.play_list(moves).unwrap();
        let mut searcher = AlphaBeta::new(AlphaBetaConfig {
            hash_mb: 4,
            ..AlphaBetaConfig::default()
        })
        .unwrap();
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let budget = ReviewBudget::per_position(limits);
        review(&game, &mut searcher, budget, &mut |_, _| {}, None)
    }

    #[test]
    fn drawn_positions_count_seeds_past_the_noise_and_turning_points_are_mistakes() {
        let drawn = Wdl::per_mille(0, 990, 10);
        let open = Wdl::per_mille(400, 200, 400);
        let class = |counted: (f64, Option<Measure>)| MoveClass::of_loss(counted.0);
        // Igisoro's drawn game: 45.55 seeds lost is a blunder, by the seeds.
        let lost = counted(0.001, Some(45.55), drawn, drawn, false);
        assert_eq!(
            (class(lost), lost.1),
            (MoveClass::Blunder, Some(Measure::Seeds))
        );
        // Within the evaluation's noise the seeds count for nothing.
        let noise = counted(0.0, Some(SEED_NOISE), drawn, drawn, false);
        assert_eq!(noise, (0.0, None));
        assert_eq!(
            class(counted(0.0, Some(SEED_NOISE + 0.5), drawn, drawn, false)),
            MoveClass::Inaccuracy
        );
        assert_eq!(
            class(counted(0.001, Some(12.0), drawn, drawn, false)),
            MoveClass::Mistake
        );
        // Where the chances tell the moves apart, they alone count.
        let open_loss = counted(0.02, Some(45.0), open, open, false);
        assert_eq!(open_loss, (0.02, Some(Measure::WinChance)));
        // A proven win thrown away is at least a mistake, whatever the chances say.
        let thrown = counted(0.0, None, open, open, true);
        assert_eq!(
            (class(thrown), thrown.1),
            (MoveClass::Mistake, Some(Measure::Proven))
        );
        assert_eq!(
            class(counted(0.5, None, open, open, true)),
            MoveClass::Blunder
        );
    }

    /// No move is marked where the win chance lost rounds to nothing and the seeds lost
    /// are within the noise; each marked move says what marked it.
    #[test]
    fn a_class_agrees_with_the_reason_it_gives() {
        let igisoro = Variant::load("igisoro").unwrap();
        let review = reviewed(&igisoro, "6 6 9 9 4 4", 3);
        for m in &review.moves {
            let marked = m.class.is_marked();
            let note = m.note();
            assert!(note.starts_with(&format!("ply {}, {} {}: ", m.ply, m.side, m.mv)));
            match m.measure {
                Some(Measure::Seeds) => {
                    assert!(m.loss_seeds.unwrap() > SEED_NOISE);
                    assert!(note.contains("while the chances barely move"), "{note}");
                    // The flat chances say why, where the engine has a reason.
                    if let Some(why) = &m.chances_why {
                        assert!(note.contains(why.as_str()), "{note}");
                    }
                }
                Some(Measure::WinChance) => {
                    assert!(note.contains("the chances fell from win "), "{note}")
                }
                Some(Measure::Proven) => assert!(m.turning_point.is_some()),
                None => assert!(!marked, "{note}"),
            }
        }
    }

    #[test]
    fn a_total_budget_ends_a_long_review_early() {
        // Igisoro's long games: forty plies that no search proves within the total.
        let igisoro = Variant::load("igisoro").unwrap();
        let mut game = Game::new(&igisoro, igisoro.start());
        while game.plies() < 40 && game.outcome().is_none() {
            let first = igisoro.legal_moves(game.board())[0].mv.clone();
            game.play_move(&first).unwrap();
        }
        assert_eq!(game.plies(), 40);
        let mut searcher = AlphaBeta::new(AlphaBetaConfig {
            hash_mb: 4,
            ..AlphaBetaConfig::default()
        })
        .unwrap();
        let budget = ReviewBudget {
            position: Limits {
                nodes: Some(50_000_000),
                ..Limits::default()
            },
            total: Some(Duration::from_millis(300)),
        };
        let started = Instant::now();
        let cut = review(&game, &mut searcher, budget, &mut |_, _| {}, None);
        assert!(cut.out_of_time && !cut.interrupted);
        assert!(cut.moves.len() < game.plies(), "{} moves", cut.moves.len());
        // (Each search ends at the total's deadline; generous for a loaded machine.)
        assert!(started.elapsed() < Duration::from_secs(20));
        assert!(cut.report().out_of_time);
        let json = cut.to_json();
        assert_eq!(json["out_of_time"], true);
        assert_eq!(json["moves"].as_array().unwrap().len(), cut.moves.len());
    }

    #[test]
    fn seeds_are_told_to_a_tenth_or_whole() {
        assert_eq!(seeds_text(26.8049), "26.8 seeds");
        assert_eq!(seeds_text(5.0), "5 seeds");
        assert_eq!(seeds_text(0.96), "1 seed");
        assert_eq!(seeds_text(0.04), "0 seeds");
    }

    #[test]
    fn classes_follow_the_thresholds() {
        assert_eq!(MoveClass::of_loss(0.0), MoveClass::Good);
        assert_eq!(MoveClass::of_loss(INACCURACY), MoveClass::Inaccuracy);
        assert_eq!(MoveClass::of_loss(MISTAKE - 1e-9), MoveClass::Inaccuracy);
        assert_eq!(MoveClass::of_loss(MISTAKE), MoveClass::Mistake);
        assert_eq!(MoveClass::of_loss(0.9), MoveClass::Blunder);
        assert_eq!(move_accuracy(0.0), 100.0);
        assert!((move_accuracy(0.10) - 63.5).abs() < 0.1);
    }

    #[test]
    fn the_engines_own_moves_are_best_and_a_thrown_win_is_found() {
        let women = Variant::load("isolo-women").unwrap();
        // South wins the women's game from the start; the engine's line keeps the win.
        let start = reviewed(&women, "", 12);
        let best_line: Vec<String> = {
            let mut game = Game::new(&women, women.start());
            let mut searcher = AlphaBeta::new(AlphaBetaConfig::default()).unwrap();
            let mut line = Vec::new();
            while game.outcome().is_none() {
                let request = SearchRequest {
                    variant: &women,
                    board: *game.board(),
                    history: game.history(),
                    quiet_plies: game.quiet_plies(),
                    limits: Limits {
                        depth: Some(12),
                        ..Limits::default()
                    },
                    multipv: 1,
                    pv_lines: usize::MAX,
                    stop: None,
                };
                let mv = searcher
                    .search(&request, &mut |_| {})
                    .best()
                    .unwrap()
                    .mv
                    .clone();
                line.push(mv.to_string());
                game.play_move(&mv).unwrap();
            }
            line
        };
        assert!(matches!(start.positions[0].score, Score::Win(_)));
        let review = reviewed(&women, &best_line.join(" "), 12);
        assert_eq!(review.moves.len(), best_line.len());
        assert!(review
            .moves
            .iter()
            .all(|m| matches!(m.class, MoveClass::Best | MoveClass::Forced)));
        assert_eq!(review.accuracy(Side::South), Some(100.0));
        assert_eq!(
            review.positions.last().map(|p| p.score),
            Some(Score::Loss(0))
        );
        // Some first move other than the winning ones gives the win away.
        let thrown = women
            .legal_moves(&women.start())
            .into_iter()
            .map(|m| reviewed(&women, &m.mv.to_string(), 12))
            .find(|r| r.moves[0].turning_point.is_some());
        let thrown = thrown.expect("a first move that throws the win away");
        let first = &thrown.moves[0];
        assert!(matches!(
            first.turning_point,
            Some(TurningPoint::ThrewAwayWin { .. })
        ));
        assert!(first.loss > 0.0 && first.class != MoveClass::Best);
        assert!(thrown.accuracy(Side::South).unwrap() < 100.0);
    }

    #[test]
    fn a_review_is_reproducible_and_its_json_has_the_fields() {
        let boys = Variant::load("isolo-boys-capture-ends").unwrap();
        let mut board = boys.start();
        let mut moves = Vec::new();
        for _ in 0..4 {
            let first = boys.legal_moves(&board).remove(0);
            moves.push(first.mv.to_string());
            board = first.child;
        }
        let a = reviewed(&boys, &moves.join(" "), 4);
        let b = reviewed(&boys, &moves.join(" "), 4);
        assert_eq!(a.moves, b.moves);
        assert_eq!(a.moves.len(), 4);
        assert_eq!(a.positions.len(), 5);
        let json = a.to_json();
        for field in ["ply", "move", "side", "best", "loss", "class"] {
            assert!(json["moves"][0].get(field).is_some(), "{field}");
        }
        assert!(json["accuracy"]["S"].is_number());
        assert_eq!(json["moves"][1]["side"], "N");
    }
}

/// How far the review's seeds lost stray with no move lost at all: the measurement
/// behind [`SEED_NOISE`] (docs/measurements.md, "The review's seeds").
#[cfg(test)]
mod noise {
    use super::*;
    use crate::search::alphabeta::{AlphaBeta, AlphaBetaConfig};
    use crate::search::score::from_child;
    use isolo_rules::Variant;

    /// The seeds the review would call lost by the engine's own best move: the
    /// position's score against its best child's, searched as the review searches them,
    /// one after the other with the same searcher and budget.
    fn best_move_strays(variant: &Variant, start: Board, plies: usize) -> Vec<f64> {
        let mut searcher = AlphaBeta::new(AlphaBetaConfig {
            threads: 1,
            hash_mb: 16,
            ..AlphaBetaConfig::default()
        })
        .unwrap();
        let limits = Limits {
            nodes: Some(crate::ranges::DEFAULT_REVIEW_NODES),
            ..Limits::default()
        };
        let mut game = Game::new(variant, start);
        let mut strays = Vec::new();
        let mut previous: Option<Score> = None;
        while game.plies() < plies && game.outcome().is_none() {
            let request = SearchRequest {
                variant,
                board: *game.board(),
                history: game.history(),
                quiet_plies: game.quiet_plies(),
                limits,
                multipv: 1,
                pv_lines: 1,
                stop: None,
            };
            let result = searcher.search(&request, &mut |_| {});
            let best = result.best().unwrap().clone();
            if let (Some(Score::Eval(parent)), Score::Eval(child)) = (previous, best.score) {
                strays.push(f64::from((parent - from_child(child)).abs()) / 100.0);
            }
            previous = Some(best.score);
            game.play_move(&best.mv).unwrap();
        }
        strays
    }

    /// `cargo test --release -p isolo-engine seeds_lost_by_best_moves -- --ignored
    /// --nocapture`: per preset and reading, the strays' median, 90th and 95th
    /// percentiles and largest, over 40 plies of best play from each of the first
    /// 10 openings of its suite.
    #[test]
    #[ignore = "a measurement: minutes"]
    fn seeds_lost_by_best_moves() {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../openings");
        for name in isolo_rules::PRESETS.iter().chain(&isolo_rules::READINGS) {
            let variant = Variant::load(name).unwrap();
            let suite = std::fs::read_to_string(format!("{root}/{name}.txt")).unwrap();
            let mut strays: Vec<f64> = suite
                .lines()
                .filter_map(|l| l.split('#').next().map(str::trim).filter(|l| !l.is_empty()))
                .take(10)
                .flat_map(|p| best_move_strays(&variant, variant.parse_position(p).unwrap(), 40))
                .collect();
            strays.sort_by(f64::total_cmp);
            if strays.is_empty() {
                println!("{name:26} no two estimates in a row");
                continue;
            }
            let at = |q: f64| strays[((strays.len() - 1) as f64 * q) as usize];
            println!(
                "{name:26} {:5} moves: median {:6.2}  90% {:6.2}  95% {:6.2}  largest {:6.2}",
                strays.len(),
                at(0.5),
                at(0.9),
                at(0.95),
                at(1.0)
            );
        }
    }
}
