//! The checker: a certificate confirmed with nothing but the rules.

use super::*;
use crate::prove::certificate::answers;
use isolo_rules::{Listing, LongGameEnding};

/// What a certificate that checks proves.
#[derive(Clone, Debug)]
pub struct Checked {
    /// The proven position.
    pub root: Board,
    /// Its text.
    pub root_text: String,
    /// The side that wins from it.
    pub winner: Side,
    /// Whether the side to move at the root is the winner (a win, else a loss).
    pub win_for_side_to_move: bool,
    /// Distinct positions on the proof's lines, root and final positions included.
    pub positions: usize,
    /// Of those, the positions where the winner is to move.
    pub winner_positions: usize,
    /// The longest line of the proof: the winner wins within this many plies.
    pub depth: u32,
    /// The exact length the certificate states, if any (never more than `depth`).
    pub plies: Option<u32>,
    /// Position lines the proof never reaches (at most [`MOST_UNUSED_LINES`] more than
    /// it uses).
    pub unused: usize,
    /// The rules proven under, against the presets.
    pub rules: PresetComparison,
}

/// Position lines a certificate may carry beyond those its proof reaches, on top of as
/// many as it reaches: a certificate is a proof, not a store of positions.
pub const MOST_UNUSED_LINES: usize = 1024;

/// A node of the walk: on the current line, or done with the longest line below it.
#[derive(Clone, Copy)]
enum Mark {
    OnLine,
    Done(u32),
}

/// A position being walked: the positions it leads to and how far the walk got.
struct Frame {
    board: Board,
    children: Vec<Board>,
    next: usize,
    deepest: u32,
}

impl Frame {
    /// A position of the proof with no child to walk.
    fn leaf(board: &Board) -> Frame {
        Frame {
            board: *board,
            children: Vec::new(),
            next: 0,
            deepest: 0,
        }
    }
}

/// The game of a certificate's rules from its start after its moves; an illegal move
/// is refused by its number.
fn replayed<'v>(variant: &'v Variant, start: Board, moves: &[Move]) -> Result<Game<'v>, String> {
    let mut game = Game::new(variant, start);
    for (i, mv) in moves.iter().enumerate() {
        game.play_move(mv)
            .map_err(|e| format!("moves: move {} ({mv}): {e}", i + 1))?;
    }
    Ok(game)
}

/// Checks a certificate with the rules alone; the error names the position where the
/// proof fails and why.
pub fn check(certificate: &Certificate) -> Result<Checked, CertificateError> {
    check_win_text(certificate).map_err(CertificateError::Refused)
}

fn check_win_text(certificate: &Certificate) -> Result<Checked, String> {
    let variant = Variant::new(certificate.rules.clone()).map_err(|e| format!("rules: {e}"))?;
    let game = replayed(&variant, certificate.start, &certificate.moves)?;
    if game.outcome().is_some_and(|o| o.winner.is_none()) {
        return Err("the game is drawn by repetition at the proven position".into());
    }
    let root = *game.board();
    let mut earlier: HashMap<Board, usize> = HashMap::new();
    for board in &game.positions()[..game.positions().len() - 1] {
        *earlier.entry(*board).or_default() += 1;
    }
    // (Under the retreat a position may have several lines: `answers`.)
    let retreat = variant.has_retreat();
    let mut strategy: HashMap<Board, Vec<&Move>> = HashMap::new();
    for (board, mv) in &certificate.strategy {
        let lines = strategy.entry(*board).or_default();
        if !lines.is_empty() && !retreat {
            return Err(format!(
                "position {} is given twice",
                variant.format_position(board)
            ));
        }
        lines.push(mv);
    }
    let walker = Walker {
        variant: &variant,
        winner: certificate.winner,
        strategy: &strategy,
    };
    let (marks, depth) = walker.walk(&root, &earlier)?;
    let winner_positions = marks
        .keys()
        .filter(|b| b.to_move() == certificate.winner && strategy.contains_key(*b))
        .count();
    // (Under the retreat the loser's positions have lines too: the winner's answers.)
    let used = marks
        .keys()
        .filter(|b| strategy.contains_key(*b) && (retreat || b.to_move() == certificate.winner))
        .count();
    if let Some(plies) = certificate.plies.filter(|&p| p > depth) {
        return Err(format!(
            "the certificate states a result in {plies} plies, but its proof wins within {depth}"
        ));
    }
    // The walk plays the game without the long-game rule (RULES.md 3.6); a win within
    // the plies left before it holds under it too, since no streak of plies without a
    // capture can reach the rule sooner (and at the last ply the rules' result comes
    // first).
    if let Some(left) = game.long_game_plies_left().filter(|&left| depth > left) {
        return Err(format!(
            "its lines run up to {depth} plies, but the long-game rule ends a game after {} \
             plies without a capture ({left} left at the proven position): this proof is of \
             the game without it (long_game_plies = 0)",
            variant.rules().long_game_plies()
        ));
    }
    let unused = strategy.len() - used;
    if unused > used + MOST_UNUSED_LINES {
        return Err(format!(
            "{unused} position lines are never reached by the proof, which reaches {used}: at most {MOST_UNUSED_LINES} more than it reaches are allowed"
        ));
    }
    Ok(Checked {
        root,
        root_text: variant.format_position(&root),
        winner: certificate.winner,
        win_for_side_to_move: root.to_move() == certificate.winner,
        positions: marks.len(),
        winner_positions,
        depth,
        plies: certificate.plies,
        unused,
        rules: certificate.rules.against_presets(),
    })
}

struct Walker<'a> {
    variant: &'a Variant,
    winner: Side,
    strategy: &'a HashMap<Board, Vec<&'a Move>>,
}

impl Walker<'_> {
    /// Walks every line from `root` (depth first, without recursion: proofs run to
    /// thousands of plies) and returns each position's mark and the longest line.
    fn walk(
        &self,
        root: &Board,
        earlier: &HashMap<Board, usize>,
    ) -> Result<(HashMap<Board, Mark>, u32), String> {
        let mut marks: HashMap<Board, Mark> = HashMap::new();
        let mut stack = vec![self.frame(root)?];
        marks.insert(*root, Mark::OnLine);
        while let Some(top) = stack.last_mut() {
            let Some(&child) = top.children.get(top.next) else {
                let done = stack.pop().expect("a frame is on the stack");
                let depth = done.deepest + u32::from(!done.children.is_empty());
                marks.insert(done.board, Mark::Done(depth));
                if let Some(parent) = stack.last_mut() {
                    parent.deepest = parent.deepest.max(depth);
                }
                continue;
            };
            top.next += 1;
            match marks.get(&child) {
                Some(Mark::Done(depth)) => top.deepest = top.deepest.max(*depth),
                Some(Mark::OnLine) => {
                    return Err(format!(
                        "the proof returns to {} on one of its lines: the loser can repeat",
                        self.variant.format_position(&child)
                    ))
                }
                None => {
                    if earlier.get(&child).copied().unwrap_or(0) + 1 >= DRAW_REPETITIONS {
                        return Err(format!(
                            "the proof reaches {}, a draw by repetition with the game before it",
                            self.variant.format_position(&child)
                        ));
                    }
                    marks.insert(child, Mark::OnLine);
                    let frame = self.frame(&child)?;
                    stack.push(frame);
                }
            }
        }
        let depth = match marks.get(root) {
            Some(Mark::Done(depth)) => *depth,
            _ => unreachable!("the walk ends at the root"),
        };
        Ok((marks, depth))
    }

    /// A dead position the rules end (`dead_position`): a leaf of the proof if the
    /// count gives the winner the game, else a refusal.
    fn dead_leaf(&self, board: &Board, outcome: isolo_rules::Outcome) -> Result<(), String> {
        if outcome.winner != Some(self.winner) {
            return Err(format!(
                "the proof reaches {}, a dead position, which the rules end without a win for {}",
                self.variant.format_position(board),
                self.winner
            ));
        }
        Ok(())
    }

    /// The positions `board` leads to in the proof: the winner's one move, every
    /// distinct result of the loser's moves, none where the loser has no move.
    fn frame(&self, board: &Board) -> Result<Frame, String> {
        let text = || self.variant.format_position(board);
        let dead = isolo_rules::dead_position_outcome(self.variant, board);
        let children = if board.to_move() == self.winner {
            if !self.variant.has_legal_move(board, &mut MoveGen::new()) {
                return Err(format!(
                    "the winner has no move at {}, so it loses there",
                    text()
                ));
            }
            if let Some(outcome) = dead {
                self.dead_leaf(board, outcome)?;
                return Ok(Frame::leaf(board));
            }
            if self.variant.has_retreat() {
                self.results_under_retreat(board)?
            } else {
                let Some(&[mv]) = self.strategy.get(board).map(Vec::as_slice) else {
                    return Err(format!(
                        "no move is given at {}, where the winner is to move",
                        text()
                    ));
                };
                match self.variant.play_move(board, mv) {
                    Some(played) => vec![played.child],
                    None => {
                        return Err(format!(
                            "the move {mv} given at {} is not legal there",
                            text()
                        ))
                    }
                }
            }
        } else {
            let children = if self.variant.has_retreat() {
                self.results_under_retreat(board)?
            } else {
                let mut seen = HashSet::new();
                let mut children = Vec::new();
                self.variant.visit_moves(
                    board,
                    Variant::ALL_PITS,
                    Listing::Results,
                    &mut MoveGen::new(),
                    |m| {
                        if seen.insert(m.child) {
                            children.push(m.child);
                        }
                    },
                );
                children
            };
            // (A loser without a move has lost before any dead position is counted.)
            if let (Some(outcome), false) = (dead, children.is_empty()) {
                self.dead_leaf(board, outcome)?;
                return Ok(Frame::leaf(board));
            }
            children
        };
        Ok(Frame {
            children,
            ..Frame::leaf(board)
        })
    }

    /// Under the retreat, the distinct positions `board`'s moves end in with the winner
    /// deciding as its lines say (`answers`).
    fn results_under_retreat(&self, board: &Board) -> Result<Vec<Board>, String> {
        let lines = self.strategy.get(board).map_or(&[][..], Vec::as_slice);
        let mut ends = answers::results_under(self.variant, board, self.winner, lines)?;
        let mut seen = HashSet::new();
        ends.retain(|child| seen.insert(*child));
        Ok(ends)
    }
}

/// What a draw's certificate that checks proves.
#[derive(Clone, Debug)]
pub struct CheckedDraw {
    /// The proven position.
    pub root: Board,
    /// Its text.
    pub root_text: String,
    /// The size of each side's set, South's first.
    pub positions: [usize; 2],
    /// The rules proven under, against the presets.
    pub rules: PresetComparison,
}

/// Checks a draw's certificate with the rules alone; the error names the position where
/// a side's set fails and why.
pub fn check_draw(certificate: &DrawCertificate) -> Result<CheckedDraw, CertificateError> {
    check_draw_text(certificate).map_err(CertificateError::Refused)
}

fn check_draw_text(certificate: &DrawCertificate) -> Result<CheckedDraw, String> {
    let variant = Variant::new(certificate.rules.clone()).map_err(|e| format!("rules: {e}"))?;
    let game = replayed(&variant, certificate.start, &certificate.moves)?;
    let root = *game.board();
    // Each side's set holds without the long-game rule (RULES.md 3.6); the rule's draw
    // takes neither side below a draw, but its count could decide the game.
    let rules = variant.rules();
    if rules.long_game_plies() > 0 && rules.long_game_ending() == LongGameEnding::Count {
        return Err(
            "a draw is not proven under long_game_ending = \"count\", where the count at the \
             long-game rule could decide it: this proof is of the game without the rule \
             (long_game_plies = 0)"
                .into(),
        );
    }
    for side in Side::BOTH {
        check_holds(&variant, &root, side, &certificate.holds[side as usize])?;
    }
    Ok(CheckedDraw {
        root,
        root_text: variant.format_position(&root),
        // (Positions, not lines: under the retreat a position may have several.)
        positions: certificate
            .holds
            .each_ref()
            .map(|holding| holding.iter().map(|(b, _)| b).collect::<HashSet<_>>().len()),
        rules: certificate.rules.against_presets(),
    })
}

/// The rules' end of `board` if it is a dead position (the rules' own order: a mover
/// without a move has lost before any dead position is counted).
fn game_end(variant: &Variant, board: &Board) -> Option<isolo_rules::Outcome> {
    isolo_rules::rules_outcome(variant, board, [])
        .filter(|end| end.reason == isolo_rules::EndReason::DeadPosition)
}

/// Checks that `side` can stay in its set from `root` forever, never without a move,
/// or reaches a dead position the rules end in a draw or its win (given without a move).
/// Under the retreat a position may have several lines, `side`'s decisions in the moves
/// played there (`answers`), and `*` where it has none.
fn check_holds(
    variant: &Variant,
    root: &Board,
    side: Side,
    holds: &[(Board, Option<Move>)],
) -> Result<(), String> {
    let text = |b: &Board| variant.format_position(b);
    let retreat = variant.has_retreat();
    let mut set: HashMap<Board, Vec<&Move>> = HashMap::with_capacity(holds.len());
    for (board, mv) in holds {
        if !retreat && set.contains_key(board) {
            return Err(format!("{side}'s set gives {} twice", text(board)));
        }
        set.entry(*board).or_default().extend(mv.as_ref());
    }
    if !set.contains_key(root) {
        return Err(format!(
            "{side}'s set does not hold the root {}",
            text(root)
        ));
    }
    for (board, lines) in &set {
        if let Some(end) = game_end(variant, board) {
            if end.winner == Some(side.opponent()) {
                return Err(format!(
                    "{side}'s set holds {}, a dead position the rules end in its loss",
                    text(board)
                ));
            }
            continue;
        }
        if retreat {
            holds_walked(variant, board, side, lines, &set)?;
        } else {
            holds_listed(variant, board, side, lines.first().copied(), &set)?;
        }
    }
    Ok(())
}

/// A position of `side`'s set, without the retreat: its move stays in the set, or
/// (where the other side moves) every result of the other side's moves is in it.
fn holds_listed<V>(
    variant: &Variant,
    board: &Board,
    side: Side,
    mv: Option<&Move>,
    set: &HashMap<Board, V>,
) -> Result<(), String> {
    let text = |b: &Board| variant.format_position(b);
    match (board.to_move() == side, mv) {
        (true, Some(mv)) => {
            let Some(played) = variant.play_move(board, mv) else {
                return Err(format!(
                    "{side}'s move {mv} at {} is not legal",
                    text(board)
                ));
            };
            if !set.contains_key(&played.child) {
                return Err(format!(
                    "{side}'s move {mv} at {} leaves its set (to {})",
                    text(board),
                    text(&played.child)
                ));
            }
        }
        (true, None) => {
            return Err(format!(
                "{side}'s set gives no move at {}, where {side} is to move",
                text(board)
            ))
        }
        (false, Some(mv)) => {
            return Err(format!(
                "{side}'s set gives the move {mv} at {}, where the other side is to move",
                text(board)
            ))
        }
        (false, None) => {
            let mut outside = None;
            variant.visit_moves(
                board,
                Variant::ALL_PITS,
                Listing::Results,
                &mut MoveGen::new(),
                |m| {
                    if outside.is_none() && !set.contains_key(&m.child) {
                        outside = Some((m.mv(), m.child));
                    }
                },
            );
            if let Some((mv, child)) = outside {
                return Err(format!(
                    "the move {mv} at {} leaves {side}'s set (to {})",
                    text(board),
                    text(&child)
                ));
            }
        }
    }
    Ok(())
}

/// A position of `side`'s set under the retreat: every position its moves end in,
/// `side` deciding as its lines say and the other side every way it may, is in the set.
fn holds_walked<V>(
    variant: &Variant,
    board: &Board,
    side: Side,
    lines: &[&Move],
    set: &HashMap<Board, V>,
) -> Result<(), String> {
    let text = |b: &Board| variant.format_position(b);
    if board.to_move() == side && !variant.has_legal_move(board, &mut MoveGen::new()) {
        return Err(format!("{side} has no move at {}, in its set", text(board)));
    }
    let ends = super::answers::results_under(variant, board, side, lines)
        .map_err(|e| format!("{side}'s set: {e}"))?;
    match ends.iter().find(|child| !set.contains_key(child)) {
        Some(child) => Err(format!(
            "a move at {} leaves {side}'s set (to {})",
            text(board),
            text(child)
        )),
        None => Ok(()),
    }
}

/// What a certificate of either kind proves.
#[derive(Clone, Debug)]
pub enum CheckedProof {
    /// A win or loss.
    Win(Checked),
    /// A draw.
    Draw(CheckedDraw),
}

/// Checks a certificate of either kind.
pub fn check_proof(proof: &Proof) -> Result<CheckedProof, CertificateError> {
    match proof {
        Proof::Win(c) => check(c).map(CheckedProof::Win),
        Proof::Draw(c) => check_draw(c).map(CheckedProof::Draw),
    }
}

impl CheckedProof {
    /// The rules proven under, against the presets.
    pub fn rules(&self) -> &PresetComparison {
        match self {
            CheckedProof::Win(c) => &c.rules,
            CheckedProof::Draw(c) => &c.rules,
        }
    }

    /// What the check established, as `check-proof --json` prints it: `plies_shown`
    /// says whether the proof bears the stated length out (its longest line is no
    /// longer), `rules` what the proof is of.
    pub fn to_json(&self) -> serde_json::Value {
        let mut json = match self {
            CheckedProof::Win(c) => serde_json::json!({
                "valid": true,
                "position": c.root_text,
                "result": if c.win_for_side_to_move { "win" } else { "loss" },
                "winner": c.winner.letter().to_string(),
                "depth": c.depth,
                "plies": c.plies,
                "plies_shown": c.plies.map(|p| p >= c.depth),
                "positions": c.positions,
                "winner_positions": c.winner_positions,
                "unused_lines": c.unused,
            }),
            CheckedProof::Draw(c) => serde_json::json!({
                "valid": true,
                "position": c.root_text,
                "result": "draw",
                "winner": null,
                "positions": c.positions[0] + c.positions[1],
                "holds": {"S": c.positions[0], "N": c.positions[1]},
            }),
        };
        json["rules"] = rules_json(self.rules());
        json
    }
}

/// The rules against the presets, as JSON.
fn rules_json(rules: &PresetComparison) -> serde_json::Value {
    let differences: serde_json::Map<String, serde_json::Value> = rules
        .differences
        .iter()
        .map(|d| {
            let pair = serde_json::json!({"value": d.value, "preset": d.preset_value});
            (d.key.clone(), pair)
        })
        .collect();
    serde_json::json!({
        "name": rules.name,
        "preset": rules.preset,
        "is_preset": rules.differences.is_empty() && rules.name == rules.preset,
        "misnamed": rules.misnamed,
        "differences": differences,
        "summary": rules.describe(),
    })
}
