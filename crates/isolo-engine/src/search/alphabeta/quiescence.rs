//! Quiescence: captures searched past the horizon, a stand-pat value from the
//! evaluation.

use super::*;

/// A quiescence node's best value so far and its window, as its moves are tried.
struct Standing {
    best: i32,
    alpha: i32,
    beta: i32,
}

impl Standing {
    /// Takes `value` into the best (raising alpha with it); whether the node cuts off.
    fn raise(&mut self, value: i32) -> bool {
        if value > self.best {
            self.best = value;
            self.alpha = self.alpha.max(value);
        }
        self.alpha >= self.beta
    }
}

impl Worker<'_> {
    /// `value` drawn toward a draw as the long-game rule's draw nears (RULES.md 3.6):
    /// past half its plies without a capture, in proportion to the plies left, so that
    /// the side ahead seeks a capture while there is time (and the side behind runs).
    fn toward_long_game_draw(&self, value: i32, ply: usize) -> i32 {
        let Some((limit, LongGameEnding::Draw)) = self.shared.long_game else {
            return value;
        };
        let (quiet, half) = (self.quiet[ply].0, limit / 2);
        if quiet <= half {
            return value;
        }
        let left = i64::from(limit.saturating_sub(quiet));
        (i64::from(value) * left / i64::from(limit - half)) as i32
    }

    /// The evaluation once captures are played out, up to `plies` deep: the side to move
    /// may stand on the evaluation or take a capture (a capture changes the material the
    /// evaluation counts most, so an evaluation just before one misleads). Values stay
    /// within the evaluation's range: a side left without moves here counts as
    /// `-EVAL_LIMIT`, never as a proven loss, since the line to it is not a full search.
    pub(super) fn quiescence(
        &mut self,
        board: &Board,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        plies: u32,
    ) -> i32 {
        let mut laps = None;
        let stand = self.shared.eval.evaluate_keeping_laps(board, &mut laps);
        // (At the horizon's node, whose count of plies without a capture is known; past
        // it only captures are searched, which start the count again.)
        let stand = match plies == self.shared.quiescence {
            true => self.toward_long_game_draw(stand, ply),
            false => stand,
        };
        if plies == 0 || stand >= beta || ply + 1 >= self.pv.len() {
            return stand;
        }
        alpha = alpha.max(stand);
        let laps = laps.unwrap_or_else(|| self.shared.variant.first_laps(board, board.to_move()));
        let pits = match self.shared.quiescence_moves {
            QuiescenceMoves::AllCaptures => self.shared.variant.candidate_pits(board),
            QuiescenceMoves::FirstLap => laps.capturing,
        };
        if pits == 0 {
            return stand;
        }
        // A pit at a time, the likeliest first: a capture good enough ends the search
        // before the other pits are listed.
        let (lanes, count) = self.pit_order(board, pits, &laps.takes);
        let mut node = Standing {
            best: stand,
            alpha,
            beta,
        };
        let mut moved = false;
        let walked = self.shared.variant.has_retreat();
        for &lane in &lanes[..count] {
            if walked {
                let step = self
                    .shared
                    .variant
                    .begin_move(board, lane + 1, &mut self.walks[ply]);
                let window = (node.alpha, beta);
                let Some(value) = self.quiescence_walk(step, stand, window, ply, plies) else {
                    continue;
                };
                moved = true;
                if self.stopped() || node.raise(value) {
                    break;
                }
                continue;
            }
            let (children, _) = self.children_from(board, ply, NO_MOVE, 1 << lane, None);
            moved |= !children.is_empty();
            let mut done = false;
            for child in children.iter().filter(|c| c.order >= CAPTURE_ORDER) {
                self.count_node();
                let value = -self.quiescence(&child.board, -beta, -node.alpha, ply + 1, plies - 1);
                if self.stopped() || node.raise(value) {
                    done = true;
                    break;
                }
            }
            self.give_back(ply, children);
            if done {
                break;
            }
        }
        let best = node.best;
        match self.shared.quiescence_moves {
            QuiescenceMoves::AllCaptures if !moved => -EVAL_LIMIT,
            // (Under `FirstLap` other pits may still move.)
            _ => best,
        }
    }

    /// Under the retreat, where a list of a pit's results would let the mover pick the
    /// opponent's answers, the quiescence value of where a walk of the pit stands: at a
    /// choice of the mover's the better branch, at an answer the worse for the mover (the
    /// answerer's choice), a move that captures nothing worth `stand` (the mover may
    /// stand instead; an answer that leaves it so holds the mover to that), a dead
    /// sequence none. Values are the mover's.
    pub(super) fn quiescence_walk(
        &mut self,
        step: MoveStep,
        stand: i32,
        (mut alpha, mut beta): (i32, i32),
        ply: usize,
        plies: u32,
    ) -> Option<i32> {
        let (point, mover_decides) = match step {
            MoveStep::Dead { .. } => return None,
            MoveStep::End { captured: 0, .. } => return Some(stand),
            MoveStep::End { child, .. } => {
                self.count_node();
                return Some(-self.quiescence(&child, -beta, -alpha, ply + 1, plies - 1));
            }
            MoveStep::Choice(point) => (point, true),
            MoveStep::Answer(point) => (point, false),
        };
        let mut found: Option<i32> = None;
        for first in [true, false] {
            let next = self
                .shared
                .variant
                .choose(&point, first, &mut self.walks[ply]);
            let Some(value) = self.quiescence_walk(next, stand, (alpha, beta), ply, plies) else {
                continue;
            };
            if mover_decides {
                found = Some(found.map_or(value, |f| f.max(value)));
                alpha = alpha.max(value);
            } else {
                found = Some(found.map_or(value, |f| f.min(value)));
                beta = beta.min(value);
            }
            if alpha >= beta || self.stopped() {
                break;
            }
        }
        found
    }
}
