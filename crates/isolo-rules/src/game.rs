//! A game: its start, its moves, every position reached, and how it ends (RULES.md 3.6:
//! the side to move without a legal move loses; a dead position ends it as the rules'
//! `dead_position` says; a position occurring for the third time with the same side to
//! move draws; an optional ply cap adjudicates a draw). Matches,
//! `play`, `replay`, `apply` and the searchers' history all use this one model.

use std::fmt;

use super::board::Board;
use super::keys::KeyMap;
use super::notation::{self, Move, NotationError};
use super::rules_file::{DeadPosition, LongGameEnding};
use super::variant::{LegalMove, MoveGen, Variant};
use crate::side::Side;

/// Plies a game with a ply cap makes room for when it starts (at most its cap).
pub const RESERVED_PLIES: usize = 128;

/// Occurrences of a position, same side to move, that draw the game (RULES.md 3.6).
pub const DRAW_REPETITIONS: usize = 3;

/// Plies before the long-game rule ends a game from which players are told it nears
/// (`Game::long_game_warning`): ten moves each.
pub const LONG_GAME_WARNING_PLIES: u32 = 20;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EndReason {
    /// The side to move had no legal move and lost.
    NoMoves,
    /// A position occurred for the third time.
    Repetition,
    /// The ply cap was reached.
    PlyLimit,
    /// A dead position: one side's seeds can never be captured and can never capture,
    /// so no seed can change hands again (drawn, or counted under `dead_position =
    /// "count"`).
    DeadPosition,
    /// The side to move lost both its front row's end pits to the last turn's captures
    /// (`capture_win`).
    EndsCaptured,
    /// `long_game_plies` plies in a row without a capture (drawn, or counted under
    /// `long_game_ending = "count"`).
    LongGame,
}

impl EndReason {
    /// The name used in records and JSON.
    pub fn name(&self) -> &'static str {
        match self {
            EndReason::NoMoves => "no-moves",
            EndReason::Repetition => "repetition",
            EndReason::PlyLimit => "ply-limit",
            EndReason::DeadPosition => "dead-position",
            EndReason::EndsCaptured => "ends-captured",
            EndReason::LongGame => "long-game",
        }
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A finished game's result and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The winner, or `None` for a draw.
    pub winner: Option<Side>,
    /// Why.
    pub reason: EndReason,
}

/// A game's result for one side: the one definition of "won, drawn or lost for S or N".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SideResult {
    /// The side won.
    Win,
    /// The game was drawn.
    Draw,
    /// The side lost.
    Loss,
}

impl SideResult {
    /// The result for `side` of a game won by `winner` (`None`: a draw).
    pub fn of(winner: Option<Side>, side: Side) -> SideResult {
        match winner {
            Some(w) if w == side => SideResult::Win,
            Some(_) => SideResult::Loss,
            None => SideResult::Draw,
        }
    }

    /// 1, 1/2 or 0.
    pub fn points(self) -> f64 {
        match self {
            SideResult::Win => 1.0,
            SideResult::Draw => 0.5,
            SideResult::Loss => 0.0,
        }
    }
}

impl Outcome {
    /// The result for `side`.
    pub fn for_side(&self, side: Side) -> SideResult {
        SideResult::of(self.winner, side)
    }
}

/// A game in progress or finished.
#[derive(Clone, Debug)]
pub struct Game<'v> {
    variant: &'v Variant,
    /// Every position from the start, the current one last.
    positions: Vec<Board>,
    /// Their hashes, kept beside them: repetitions are looked up every ply.
    hashes: Vec<u64>,
    /// How often each hash occurs in `hashes`.
    occurrences: KeyMap<u32>,
    /// Plies in a row without a capture up to each position (`quiet_plies`).
    quiet: Vec<u32>,
    /// How often the current position has occurred, this time included.
    seen_now: u32,
    moves: Vec<Move>,
    max_plies: Option<usize>,
}

impl<'v> Game<'v> {
    /// A game from `start`, without a ply cap.
    pub fn new(variant: &'v Variant, start: Board) -> Game<'v> {
        Game {
            variant,
            positions: vec![start],
            hashes: vec![start.hash()],
            occurrences: [(start.hash(), 1)].into_iter().collect(),
            quiet: vec![0],
            seen_now: 1,
            moves: Vec::new(),
            max_plies: None,
        }
    }

    /// The same game, drawn once it has `max_plies` moves.
    pub fn with_max_plies(mut self, max_plies: usize) -> Game<'v> {
        self.max_plies = Some(max_plies);
        // Room for the whole game up front, or for a long one, instead of growing.
        let room = max_plies.min(RESERVED_PLIES);
        self.positions.reserve(room);
        self.hashes.reserve(room);
        self.quiet.reserve(room);
        self.moves.reserve(room);
        self.occurrences.reserve(room);
        self
    }

    /// The same game over another borrow of the same variant: an owner that keeps the
    /// variant behind a shared pointer (the Python binding) copies its game with it.
    pub fn rebound<'w>(&self, variant: &'w Variant) -> Game<'w> {
        debug_assert_eq!(self.variant.rules(), variant.rules());
        Game {
            variant,
            positions: self.positions.clone(),
            hashes: self.hashes.clone(),
            occurrences: self.occurrences.clone(),
            quiet: self.quiet.clone(),
            seen_now: self.seen_now,
            moves: self.moves.clone(),
            max_plies: self.max_plies,
        }
    }

    /// Moves after which the game is drawn, if capped.
    pub fn max_plies(&self) -> Option<usize> {
        self.max_plies
    }

    /// The game's variant.
    pub fn variant(&self) -> &'v Variant {
        self.variant
    }

    /// The starting position.
    pub fn start(&self) -> &Board {
        &self.positions[0]
    }

    /// The current position.
    pub fn board(&self) -> &Board {
        self.positions.last().expect("a game has a position")
    }

    /// The moves played, in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The moves played, taken out of the finished game.
    pub fn into_moves(self) -> Vec<Move> {
        self.moves
    }

    /// Every position so far, the start first.
    pub fn positions(&self) -> &[Board] {
        &self.positions
    }

    /// Moves played so far.
    pub fn plies(&self) -> usize {
        self.moves.len()
    }

    /// Hashes of the positions before the current one, oldest first: what a search needs
    /// to see repetitions.
    pub fn history(&self) -> Vec<u64> {
        self.earlier_hashes().to_vec()
    }

    /// The same hashes, borrowed.
    pub fn earlier_hashes(&self) -> &[u64] {
        &self.hashes[..self.hashes.len() - 1]
    }

    /// How often the current position has occurred, this time included.
    pub fn repetitions(&self) -> usize {
        self.seen_now as usize
    }

    /// Plies in a row without a capture up to now (the game's start counts as a
    /// capture): the long-game rule ends the game when they reach `long_game_plies`.
    pub fn quiet_plies(&self) -> u32 {
        self.quiet[self.quiet.len() - 1]
    }

    /// Plies left before the long-game rule ends the game, if the rules have it.
    pub fn long_game_plies_left(&self) -> Option<u32> {
        let limit = self.variant.rules().long_game_plies;
        (limit > 0).then(|| limit.saturating_sub(self.quiet_plies()))
    }

    /// Where the long-game rule nears (`LONG_GAME_WARNING_PLIES` plies or fewer left,
    /// the game going on), what players are told: "12 more moves without a capture,
    /// either player's, end the game: a draw".
    pub fn long_game_warning(&self) -> Option<String> {
        let left = self.long_game_plies_left()?;
        if left == 0 || left > LONG_GAME_WARNING_PLIES || self.outcome().is_some() {
            return None;
        }
        let end = match self.variant.rules().long_game_ending {
            LongGameEnding::Draw => "a draw",
            LongGameEnding::Count => "the seeds on each side are counted",
        };
        let moves = if left == 1 { "move" } else { "moves" };
        Some(format!(
            "{left} more {moves} without a capture, either player's, end the game: {end}"
        ))
    }

    /// How the game has ended, or `None` while it goes on. A side without a legal move
    /// has lost even on the ply cap: the rules' result comes before adjudication.
    pub fn outcome(&self) -> Option<Outcome> {
        outcome_after(self.variant, self.board(), self.repetitions())
            .or_else(|| self.long_game_or_cap())
    }

    /// The long-game rule's end, else the ply cap's, where either has come.
    fn long_game_or_cap(&self) -> Option<Outcome> {
        long_game_outcome(self.variant, self.board(), self.quiet_plies()).or_else(|| {
            self.max_plies
                .filter(|&cap| self.plies() >= cap)
                .map(|_| Outcome {
                    winner: None,
                    reason: EndReason::PlyLimit,
                })
        })
    }

    /// What the last move sealed for good (`sealed_in_words` of the positions before
    /// and after it), unless the game ended there in a dead position, whose words say it.
    pub fn sealed_by_last_move(&self) -> Option<String> {
        let dead = self
            .outcome()
            .is_some_and(|o| o.reason == EndReason::DeadPosition);
        let before = self.positions().iter().rev().nth(1).filter(|_| !dead)?;
        sealed_in_words(self.variant, before, self.board())
    }

    /// How the game has ended if the side to move has a legal move: a dead position, a
    /// third repetition, the long-game rule or the ply cap; `None` while it goes on.
    /// (`outcome` also looks for a legal move.)
    pub fn outcome_if_moves(&self) -> Option<Outcome> {
        if let Some(outcome) = dead_position_outcome(self.variant, self.board()) {
            return Some(outcome);
        }
        if self.repetitions() >= DRAW_REPETITIONS {
            return Some(Outcome {
                winner: None,
                reason: EndReason::Repetition,
            });
        }
        self.long_game_or_cap()
    }

    /// Plays `mv` if it is legal here and the game goes on.
    pub fn play_move(&mut self, mv: &Move) -> Result<LegalMove, GameError> {
        if let Some(outcome) = self.outcome() {
            return Err(GameError::Over(outcome));
        }
        let played = self
            .variant
            .play_move(self.board(), mv)
            .ok_or_else(|| GameError::Illegal(mv.clone()))?;
        self.play_generated(&played);
        Ok(played)
    }

    /// Parses and plays one move; the error says why it was refused.
    pub fn play_text(&mut self, text: &str) -> Result<LegalMove, GameError> {
        if let Some(outcome) = self.outcome() {
            return Err(GameError::Over(outcome));
        }
        let played = self
            .variant
            .play_text(self.board(), text)
            .map_err(GameError::Notation)?;
        self.play_generated(&played);
        Ok(played)
    }

    /// Plays a list of moves (spaces or commas between them); the error names the move.
    pub fn play_list(&mut self, moves: &str) -> Result<(), GameError> {
        let list = notation::split_moves(moves);
        for (index, text) in list.iter().enumerate() {
            self.play_text(text).map_err(|e| GameError::InList {
                index: index + 1,
                count: list.len(),
                error: Box::new(e),
            })?;
        }
        Ok(())
    }

    /// Plays a move the variant generated at the current position (a searcher's or a
    /// bot's choice, one of `variant.legal_moves(game.board())`), without generating it
    /// again: a match's game loop saves the replay. Debug builds check that it is what the
    /// rules make of the move; [`Game::play_move`] checks any move.
    pub fn play_generated(&mut self, played: &LegalMove) {
        debug_assert_eq!(
            self.variant
                .play_move(self.board(), &played.mv)
                .map(|m| m.child),
            Some(played.child)
        );
        let quiet = quiet_plies_after(self.board(), &played.child, self.quiet_plies());
        self.quiet.push(quiet);
        self.moves.push(played.mv.clone());
        self.positions.push(played.child);
        let hash = played.child.hash();
        self.hashes.push(hash);
        let count = self.occurrences.entry(hash).or_insert(0);
        *count += 1;
        self.seen_now = *count;
    }

    /// Takes back the last move; `None` at the start.
    pub fn undo(&mut self) -> Option<Move> {
        let mv = self.moves.pop()?;
        self.positions.pop();
        self.quiet.pop();
        let hash = self.hashes.pop().expect("a hash a position");
        if let Some(count) = self.occurrences.get_mut(&hash) {
            *count -= 1;
            if *count == 0 {
                self.occurrences.remove(&hash);
            }
        }
        let now = self.hashes[self.hashes.len() - 1];
        self.seen_now = self.occurrences.get(&now).copied().unwrap_or(1);
        Some(mv)
    }
}

/// How a game at `board` has ended by the rules alone (RULES.md 3.6), given the hashes of
/// the positions before it: the side to move without a legal move has lost; a position
/// occurring for the third time is a draw. `None` while the game goes on.
pub fn rules_outcome(
    variant: &Variant,
    board: &Board,
    earlier: impl IntoIterator<Item = u64>,
) -> Option<Outcome> {
    let now = board.hash();
    let seen = 1 + earlier.into_iter().filter(|&h| h == now).count();
    outcome_after(variant, board, seen)
}

/// The rules' outcome at `board`, a position that has occurred `seen` times.
fn outcome_after(variant: &Variant, board: &Board, seen: usize) -> Option<Outcome> {
    if board.ends_captured() {
        return Some(Outcome {
            winner: Some(board.to_move().opponent()),
            reason: EndReason::EndsCaptured,
        });
    }
    if !variant.has_legal_move(board, &mut MoveGen::new()) {
        return Some(Outcome {
            winner: Some(board.to_move().opponent()),
            reason: EndReason::NoMoves,
        });
    }
    if let Some(outcome) = dead_position_outcome(variant, board) {
        return Some(outcome);
    }
    (seen >= DRAW_REPETITIONS).then_some(Outcome {
        winner: None,
        reason: EndReason::Repetition,
    })
}

/// Plies in a row without a capture after the ply from `before` to `after`, `quiet`
/// before it: a ply captures when it changes the seeds on each side (RULES.md 3.6; the
/// seeds in all never change, so one side's count tells).
pub fn quiet_plies_after(before: &Board, after: &Board, quiet: u32) -> u32 {
    if after.side_total(Side::South) == before.side_total(Side::South) {
        quiet + 1
    } else {
        0
    }
}

/// The long-game rule's end at `board`, reached after `quiet` plies in a row without a
/// capture (RULES.md 3.6): a draw, or the side holding more seeds wins; `None` before
/// `long_game_plies` or where the rules have no such rule.
pub fn long_game_outcome(variant: &Variant, board: &Board, quiet: u32) -> Option<Outcome> {
    let rules = variant.rules();
    if rules.long_game_plies == 0 || quiet < rules.long_game_plies {
        return None;
    }
    let winner = match rules.long_game_ending {
        LongGameEnding::Draw => None,
        LongGameEnding::Count => counted_winner(board),
    };
    Some(Outcome {
        winner,
        reason: EndReason::LongGame,
    })
}

/// The side holding more seeds at `board`; `None` where they hold as many.
fn counted_winner(board: &Board) -> Option<Side> {
    let [south, north] = Side::BOTH.map(|side| board.side_total(side));
    (south != north).then_some(if south > north {
        Side::South
    } else {
        Side::North
    })
}

/// The end of a dead position (`Variant::dead_side`) under the rules' `dead_position`:
/// a draw, or the side holding more seeds wins; `None` where the position is not dead
/// or the rules play on.
pub fn dead_position_outcome(variant: &Variant, board: &Board) -> Option<Outcome> {
    let ending = variant.rules().dead_position;
    if ending == DeadPosition::PlayOn {
        return None;
    }
    variant.dead_side(board)?;
    let winner = match ending {
        DeadPosition::Count => counted_winner(board),
        _ => None,
    };
    Some(Outcome {
        winner,
        reason: EndReason::DeadPosition,
    })
}

/// Why a move was not played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    #[error("the game is over ({})", describe(.0))]
    /// The game had already ended.
    Over(Outcome),
    #[error("move '{0}' is not legal here")]
    /// The move is not legal in the position.
    Illegal(Move),
    #[error("{0}")]
    /// The move text was refused.
    Notation(NotationError),
    #[error("move {index} of {count}: {error}")]
    /// A move of a list was refused.
    InList {
        /// Its place in the list, from 1.
        index: usize,
        /// Moves in the list.
        count: usize,
        /// Why it was refused.
        error: Box<GameError>,
    },
}

/// The winner when `flagged`'s clock runs out at `board`: its opponent, unless that
/// side can never win there, and then `None`, a draw (as chess draws a flag fall
/// against a side that cannot mate): where `flagged`'s seeds can never be captured (a
/// fortress, `fortress_holders`) and no count the rules may end the game with would
/// give the opponent the game.
pub fn flag_fall_winner(variant: &Variant, board: &Board, flagged: Side) -> Option<Side> {
    let opponent = flagged.opponent();
    let rules = variant.rules();
    let counted = rules.dead_position == DeadPosition::Count
        || (rules.long_game_plies > 0 && rules.long_game_ending == LongGameEnding::Count);
    let count_wins = counted && board.side_total(opponent) > board.side_total(flagged);
    let safe = fortress_holders(variant, board).contains(&flagged);
    (count_wins || !safe).then_some(opponent)
}

/// A flag fall in words: "South's clock ran out: North wins on time", or where North
/// can never win, "South's clock ran out, but South's 2 seeds can never be captured:
/// North cannot win, a draw".
pub fn flag_fall_in_words(variant: &Variant, board: &Board, flagged: Side) -> String {
    match flag_fall_winner(variant, board, flagged) {
        Some(winner) => format!("{flagged}'s clock ran out: {winner} wins on time"),
        None => {
            let fortress = fortress_in_words(board, &[flagged]).unwrap_or_default();
            format!("{flagged}'s clock ran out, but {fortress}, a draw")
        }
    }
}

/// A resignation in words: "North resigns: South wins".
pub fn resignation_in_words(side: Side) -> String {
    format!("{side} resigns: {} wins", side.opponent())
}

/// How the game ended, said in words for a player: `North has no legal move: South
/// wins`; `board` is the last position.
pub fn in_words(outcome: &Outcome, variant: &Variant, board: &Board) -> String {
    let to_move = board.to_move();
    match (outcome.reason, outcome.winner) {
        (EndReason::NoMoves, Some(winner)) => format!("{to_move} has no legal move: {winner} wins"),
        (EndReason::Repetition, _) => "The same position came up a third time: a draw".to_string(),
        (EndReason::PlyLimit, _) => "The game reached its move limit: a draw".to_string(),
        (EndReason::DeadPosition, winner) => dead_in_words(variant, board, winner),
        (EndReason::LongGame, winner) => long_game_in_words(variant, board, winner),
        (EndReason::EndsCaptured, Some(winner)) => {
            format!(
                "{winner} took both end pits of {to_move}'s front row in one turn: {winner} wins"
            )
        }
        (EndReason::EndsCaptured, None) => describe(outcome),
        (EndReason::NoMoves, None) => describe(outcome),
    }
}

/// "South counts 60 seeds to North's 1: South wins": `winner`'s win by a count.
fn counted_win_in_words(board: &Board, winner: Side) -> String {
    let loser = winner.opponent();
    format!(
        "{winner} counts {} seeds to {loser}'s {}: {winner} wins",
        board.side_total(winner),
        board.side_total(loser)
    )
}

/// "100 plies without a capture: a draw"; counted, "...; South counts 40 seeds to
/// North's 24: South wins".
fn long_game_in_words(variant: &Variant, board: &Board, winner: Option<Side>) -> String {
    let quiet = format!(
        "{} plies without a capture",
        variant.rules().long_game_plies
    );
    match (winner, variant.rules().long_game_ending) {
        (Some(w), _) => format!("{quiet}; {}", counted_win_in_words(board, w)),
        (None, LongGameEnding::Count) => format!("{quiet}; the seeds count even: a draw"),
        (None, LongGameEnding::Draw) => format!("{quiet}: a draw"),
    }
}

/// "North's last seed can never be captured, nor capture: no seed can change hands
/// again, a draw"; counted, "...; South counts 60 seeds to North's 1: South wins".
fn dead_in_words(variant: &Variant, board: &Board, winner: Option<Side>) -> String {
    let counts = Side::BOTH.map(|side| board.side_total(side));
    let sealed = variant.dead_side(board).unwrap_or(board.to_move());
    let dead = format!(
        "{} can never be captured, nor capture: no seed can change hands again",
        seeds_of(board, sealed)
    );
    match winner {
        // The other reading of the rules key, offered where it would decide.
        None if counts[0] != counts[1] => {
            let more = if counts[0] > counts[1] {
                Side::South
            } else {
                Side::North
            };
            format!(
                "{dead}, a draw (had the seeds been counted, as some players end such games, \
                 {more} would have won, {} seeds to {})",
                counts[more as usize],
                counts[more.opponent() as usize]
            )
        }
        None => format!("{dead}, a draw"),
        Some(w) => format!("{dead}; {}", counted_win_in_words(board, w)),
    }
}

/// The sides holding a fortress on `board` (`fortress::Fortresses::holds`: seeds that
/// can never be captured, whatever either side plays), South first.
pub fn fortress_holders(variant: &Variant, board: &Board) -> Vec<Side> {
    let Some(fortresses) = variant.fortresses() else {
        return Vec::new();
    };
    Side::BOTH
        .into_iter()
        .filter(|&side| fortresses.holds(board, side))
        .collect()
}

/// What the fortresses of `holders` (`fortress_holders` of `board`) decide, in words:
/// "North's 2 seeds can never be captured: South cannot win"; `None` where no side
/// holds one.
pub fn fortress_in_words(board: &Board, holders: &[Side]) -> Option<String> {
    uncapturable_in_words(board, holders, ["can never", "cannot win"])
}

/// "North's last seed" or "South's 2 seeds": `side`'s seeds on `board`.
fn seeds_of(board: &Board, side: Side) -> String {
    match board.side_total(side) {
        1 => format!("{side}'s last seed"),
        n => format!("{side}'s {n} seeds"),
    }
}

/// The seeds of `holders` that cannot be captured, and who cannot win for it, in the
/// words `[when, result]`: "North's 2 seeds {can never} be captured: South {cannot
/// win}"; `None` where `holders` is empty.
fn uncapturable_in_words(
    board: &Board,
    holders: &[Side],
    [when, result]: [&str; 2],
) -> Option<String> {
    match holders {
        [] => None,
        [side] => Some(format!(
            "{} {when} be captured: {} {result}",
            seeds_of(board, *side),
            side.opponent()
        )),
        _ => Some(format!(
            "{} and {} {when} be captured: neither side can win",
            seeds_of(board, Side::South),
            seeds_of(board, Side::North)
        )),
    }
}

/// What the last move sealed, in words, where it left a side's seeds where they can
/// never be captured and they could be before: "North's last seed can no longer be
/// captured: South can no longer win"; `None` otherwise.
pub fn sealed_in_words(variant: &Variant, before: &Board, after: &Board) -> Option<String> {
    let earlier = fortress_holders(variant, before);
    let sealed: Vec<Side> = fortress_holders(variant, after)
        .into_iter()
        .filter(|side| !earlier.contains(side))
        .collect();
    uncapturable_in_words(after, &sealed, ["can no longer", "can no longer win"])
}

/// The seeds on each side in words: "South leads by 54 seeds (59 to 5)", "level, 32
/// seeds each".
pub fn material_in_words(board: &Board) -> String {
    let [south, north] = Side::BOTH.map(|side| board.side_total(side));
    if south == north {
        return format!("level, {south} seeds each");
    }
    let (leader, ahead, behind) = if south > north {
        (Side::South, south, north)
    } else {
        (Side::North, north, south)
    };
    let lead = ahead - behind;
    let seeds = if lead == 1 { "seed" } else { "seeds" };
    format!("{leader} leads by {lead} {seeds} ({ahead} to {behind})")
}

/// "South wins, no-moves" or "draw, repetition".
pub fn describe(outcome: &Outcome) -> String {
    match outcome.winner {
        Some(side) => format!("{side} wins, {}", outcome.reason),
        None => format!("draw, {}", outcome.reason),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A flag fall loses, except against a side that can never win: North's lone seed
    /// can never be captured, so South cannot win, and North's flag falling draws.
    #[test]
    fn a_flag_fall_against_a_side_that_cannot_win_draws() {
        let lone = "0,0,0,0,1,0,0,0/0,0,0,0,0,0,0,0/7,18,0,10,4,1,2,5/2,2,3,0,3,1,4,1 N";
        let mut rules = crate::Rules::preset("igisoro").unwrap();
        rules.dead_position = DeadPosition::PlayOn;
        let v = Variant::new(rules.clone()).unwrap();
        let board = v.parse_position(lone).unwrap();
        assert_eq!(flag_fall_winner(&v, &board, Side::North), None);
        assert_eq!(flag_fall_winner(&v, &board, Side::South), Some(Side::North));
        let words = flag_fall_in_words(&v, &board, Side::North);
        assert_eq!(
            words,
            "North's clock ran out, but North's last seed can never be captured: South \
             cannot win, a draw"
        );
        // Under a count South, far ahead, still wins on time.
        rules.long_game_ending = LongGameEnding::Count;
        let counted = Variant::new(rules).unwrap();
        assert_eq!(
            flag_fall_winner(&counted, &board, Side::North),
            Some(Side::South)
        );
        let women = Variant::load("isolo-women").unwrap();
        let words = flag_fall_in_words(&women, &women.start(), Side::South);
        assert_eq!(words, "South's clock ran out: North wins on time");
    }

    /// North's lone seed can never be captured nor capture, so no ply captures: the
    /// long-game rule ends the game after its plies, drawn or counted; a capture, or
    /// taking a ply back, resets the count.
    #[test]
    fn the_long_game_rule_ends_a_game_without_captures() {
        let lone = "0,0,0,0,1,0,0,0/0,0,0,0,0,0,0,0/7,18,0,10,4,1,2,5/2,2,3,0,3,1,4,1 S";
        let mut rules = crate::Rules::preset("igisoro").unwrap();
        rules.dead_position = DeadPosition::PlayOn;
        rules.long_game_plies = 6;
        for (ending, winner) in [
            (LongGameEnding::Draw, None),
            (LongGameEnding::Count, Some(Side::South)),
        ] {
            rules.long_game_ending = ending;
            let v = Variant::new(rules.clone()).unwrap();
            let mut game = Game::new(&v, v.parse_position(lone).unwrap());
            assert_eq!(game.long_game_plies_left(), Some(6));
            while game.outcome().is_none() {
                let first = v.legal_moves(game.board())[0].clone();
                game.play_generated(&first);
                assert_eq!(game.quiet_plies() as usize, game.plies());
            }
            let outcome = game.outcome().unwrap();
            assert_eq!(
                (outcome.reason, outcome.winner),
                (EndReason::LongGame, winner)
            );
            assert_eq!((game.plies(), game.long_game_plies_left()), (6, Some(0)));
            let words = in_words(&outcome, &v, game.board());
            assert!(words.starts_with("6 plies without a capture"), "{words}");
            assert_eq!(game.long_game_warning(), None, "over: no warning");
            game.undo();
            assert_eq!((game.quiet_plies(), game.outcome()), (5, None));
            let warning = game.long_game_warning().unwrap();
            assert!(
                warning.starts_with("1 more move without a capture"),
                "{warning}"
            );
        }
        // From the start, Igisoro's first capture resets the count.
        let igisoro = Variant::load("igisoro").unwrap();
        let mut game = Game::new(&igisoro, igisoro.start());
        while game.quiet_plies() as usize == game.plies() && game.plies() < 40 {
            let first = igisoro.legal_moves(game.board())[0].clone();
            game.play_generated(&first);
        }
        assert_eq!(game.quiet_plies(), 0, "a capture came within 40 plies");
        assert_eq!(game.long_game_plies_left(), Some(100));
    }

    #[test]
    fn a_dead_position_ends_the_game_as_its_rules_say() {
        let lone = "0,0,0,0,1,0,0,0/0,0,0,0,0,0,0,0/7,18,0,10,4,1,2,5/2,2,3,0,3,1,4,1 S";
        let mut rules = crate::Rules::preset("igisoro").unwrap();
        for (ending, winner) in [
            (DeadPosition::Draw, Some(None)),
            (DeadPosition::Count, Some(Some(Side::South))),
            (DeadPosition::PlayOn, None),
        ] {
            rules.dead_position = ending;
            let v = Variant::new(rules.clone()).unwrap();
            let board = v.parse_position(lone).unwrap();
            let game = Game::new(&v, board);
            let outcome = game.outcome();
            assert_eq!(outcome.map(|o| o.winner), winner, "{ending:?}");
            if let Some(outcome) = outcome {
                assert_eq!(outcome.reason, EndReason::DeadPosition);
                let words = in_words(&outcome, &v, &board);
                assert!(
                    words.starts_with("North's last seed can never be captured, nor capture"),
                    "{words}"
                );
                if ending == DeadPosition::Count {
                    assert!(words.ends_with("South counts 63 seeds to North's 1: South wins"));
                } else {
                    // The drawn reading offers the counted one where it would decide.
                    assert!(words.ends_with(
                        "a draw (had the seeds been counted, as some players end such games, \
                         South would have won, 63 seeds to 1)"
                    ));
                }
            }
        }
        // The rules file's key, and its default.
        let text = "base = \"igisoro\"\ndead_position = \"count\"\n";
        let counted = crate::Rules::from_toml(text, "x").unwrap();
        assert_eq!(counted.dead_position, DeadPosition::Count);
        assert!(counted.to_toml().contains("dead_position = \"count\"\n"));
        let bad = crate::Rules::from_toml("base = \"igisoro\"\ndead_position = \"x\"\n", "x");
        assert!(bad
            .unwrap_err()
            .to_string()
            .contains("\"draw\" or \"count\" or \"play-on\""));
    }

    #[test]
    fn a_move_that_seals_seeds_for_good_is_named() {
        let igisoro = Variant::load("igisoro").unwrap();
        let sealed = "8,8,8,8,8,8,8,6/0,0,0,0,0,0,0,0/1,1,0,0,0,0,0,0/0,0,0,0,0,0,0,0 S";
        let sealed = igisoro.parse_position(sealed).unwrap();
        let start = igisoro.start();
        assert_eq!(
            sealed_in_words(&igisoro, &start, &sealed).as_deref(),
            Some("South's 2 seeds can no longer be captured: North can no longer win")
        );
        // Sealed before the move too: nothing new to say.
        assert_eq!(sealed_in_words(&igisoro, &sealed, &sealed), None);
        assert_eq!(sealed_in_words(&igisoro, &start, &start), None);
    }

    #[test]
    fn a_game_records_positions_and_undoes() {
        let women = Variant::load("isolo-women").unwrap();
        let mut game = Game::new(&women, women.start());
        game.play_list("2 4").unwrap();
        assert_eq!(game.plies(), 2);
        assert_eq!(game.history().len(), 2);
        assert_eq!(game.undo(), Some(Move::pit(4)));
        assert_eq!(game.plies(), 1);
        let err = game.play_list("4 99").unwrap_err().to_string();
        assert!(err.starts_with("move 2 of 2: move '99'"), "{err}");
    }

    #[test]
    fn a_rebound_game_is_the_same_game_and_goes_on_alike() {
        let women = Variant::load("isolo-women").unwrap();
        let again = Variant::load("isolo-women").unwrap();
        let mut game = Game::new(&women, women.start()).with_max_plies(5);
        game.play_list("2 4 5").unwrap();
        let mut copy = game.rebound(&again);
        assert_eq!(copy.positions(), game.positions());
        assert_eq!(copy.moves(), game.moves());
        assert_eq!(copy.repetitions(), game.repetitions());
        let next = women.legal_moves(game.board())[0].mv.clone();
        copy.play_move(&next).unwrap();
        game.play_move(&next).unwrap();
        assert_eq!(copy.outcome(), game.outcome());
        assert_eq!(copy.undo(), game.undo());
        assert_eq!(copy.repetitions(), game.repetitions());
    }

    #[test]
    fn the_ply_cap_draws_but_a_loss_by_the_rules_comes_first() {
        let women = Variant::load("isolo-women").unwrap();
        let mut game = Game::new(&women, women.start()).with_max_plies(1);
        assert_eq!(game.outcome(), None);
        game.play_list("2").unwrap();
        assert_eq!(game.outcome().map(|o| o.reason), Some(EndReason::PlyLimit));
        assert!(matches!(game.play_text("3"), Err(GameError::Over(_))));
        let lost = women
            .parse_position("0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,1/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0 S")
            .unwrap();
        let game = Game::new(&women, lost).with_max_plies(0);
        assert_eq!(
            game.outcome(),
            Some(Outcome {
                winner: Some(Side::North),
                reason: EndReason::NoMoves
            })
        );
    }
}
