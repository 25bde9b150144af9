//! Moves searched one choice at a time (optional captures): each take or pass, lap
//! direction and the opponent's answer a ply-like node of its own, stored in the table by
//! its choice point's key where its whole subtree was seen.

use super::*;

impl Worker<'_> {
    /// The best value of the moves of `pit`, walked a choice at a time
    /// (`-INFINITY` if it has none); the line goes to `pv[turn.ply]`.
    pub(super) fn walk_pit(
        &mut self,
        board: &Board,
        pit: u8,
        mut turn: Turn,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let walk = &mut self.walks[turn.ply];
        let step = self.shared.variant.begin_move(board, pit, walk);
        self.step_value(step, &mut turn, alpha, beta).value
    }

    /// The value of where a walk stands: a result is searched (PVS: the turn's first
    /// with the full window), a choice point is `choice_value`, a dead sequence has none.
    pub(super) fn step_value(
        &mut self,
        step: MoveStep,
        turn: &mut Turn,
        alpha: i32,
        beta: i32,
    ) -> Walked {
        match step {
            MoveStep::Dead { repeated } => Walked {
                value: -INFINITY,
                taint: repeated.map_or(0, |at| at + 1),
            },
            MoveStep::Choice(point) | MoveStep::Answer(point)
                if turn.choices >= self.shared.most_walked_choices =>
            {
                self.cut_walk(&point, turn, alpha, beta)
            }
            MoveStep::Choice(point) => {
                turn.choices += 1;
                let walked = self.choice_value(&point, turn, alpha, beta);
                turn.choices -= 1;
                walked
            }
            MoveStep::Answer(point) => {
                turn.choices += 1;
                let walked = self.answer_value(&point, turn, alpha, beta);
                turn.choices -= 1;
                walked
            }
            MoveStep::End { child, laps, .. } => {
                let value = self.walk_result(&child, turn, (alpha, beta), &[]);
                let taint = if laps > self.shared.storable_laps {
                    0
                } else {
                    UNTAINTED
                };
                Walked { value, taint }
            }
        }
    }

    /// The value of a walk's result `child` (PVS: the turn's first with the full
    /// window); at the root, where it passes alpha, the walk's choices and then `rest`
    /// become the best move.
    pub(super) fn walk_result(
        &mut self,
        child: &Board,
        turn: &mut Turn,
        (alpha, beta): (i32, i32),
        rest: &[Choice],
    ) -> i32 {
        let later = std::mem::replace(&mut turn.searched, true);
        let value = self.search_result(child, turn.depth, (alpha, beta), turn.ply, later);
        if value > alpha && !self.stopped() && turn.ply == 0 {
            let mut line = self.root_choices.clone();
            line.extend_from_slice(rest);
            self.root_best = Some(line);
        }
        value
    }

    /// A walk `MOST_WALKED_CHOICES` deep goes on by the point's first completion,
    /// searched as a result; where none is found within `MOST_WALKED_STEPS` choices it
    /// is valued by the evaluation of the position as sown so far. Never proven, and not
    /// stored: the first completion takes both sides' later decisions as they come, not
    /// at their best, so its value bounds the point's in neither direction.
    pub(super) fn cut_walk(
        &mut self,
        point: &ChoicePoint,
        turn: &mut Turn,
        alpha: i32,
        beta: i32,
    ) -> Walked {
        let walk = &mut self.walks[turn.ply];
        let completion = self
            .shared
            .variant
            .first_completion(point, walk, MOST_WALKED_STEPS);
        let value = match completion {
            Completion::Found(choices, child) => {
                self.walk_result(&child, turn, (alpha, beta), &choices)
            }
            Completion::None => {
                return Walked {
                    value: -INFINITY,
                    taint: 0,
                }
            }
            Completion::Unknown => self.shared.eval.evaluate(&point.board()),
        };
        Walked {
            value: value.clamp(-EVAL_LIMIT, EVAL_LIMIT),
            taint: 0,
        }
    }

    /// A choice of the mover (take or pass, or a lap's direction) as a ply of its own
    /// (the same side moves again): the better branch, with its own table entry, stored
    /// only when its value does not depend on the path that led to it (see
    /// `Walked::taint`).
    pub(super) fn choice_value(
        &mut self,
        point: &ChoicePoint,
        turn: &mut Turn,
        mut alpha: i32,
        beta: i32,
    ) -> Walked {
        self.count_node();
        let storable = point.laps() <= self.shared.storable_laps;
        let key = point.key();
        let mut take_first = true;
        if storable {
            if let Some(entry) = self.shared.tt.probe(key) {
                take_first = entry.best != PASS;
                // At the root the move itself must be found, not only its value.
                if entry.depth as u32 >= turn.depth && turn.ply > 0 {
                    let value = from_table(entry.value, turn.ply);
                    let cut = match entry.bound {
                        Bound::Exact => true,
                        Bound::Lower => value >= beta,
                        Bound::Upper => value <= alpha,
                    };
                    if cut {
                        if value > alpha {
                            // The line through here is not known: cut it short.
                            self.pv[turn.ply].clear();
                        }
                        return Walked {
                            value,
                            taint: UNTAINTED,
                        };
                    }
                }
            }
        }
        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_choice = TAKE;
        let mut taint = UNTAINTED;
        for take in [take_first, !take_first] {
            if turn.ply == 0 {
                self.root_choices.push(point.option(take));
            }
            let next = self
                .shared
                .variant
                .choose(point, take, &mut self.walks[turn.ply]);
            let walked = self.step_value(next, turn, alpha, beta);
            if turn.ply == 0 {
                self.root_choices.pop();
            }
            taint = taint.min(walked.taint);
            if self.stopped() {
                return Walked {
                    value: best,
                    taint: 0,
                };
            }
            if walked.value > best {
                best = walked.value;
                best_choice = if take { TAKE } else { PASS };
                if best > alpha {
                    alpha = best;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        if storable && taint > point.index() && best > -INFINITY {
            let window = (original_alpha, beta);
            self.store(key, best, best_choice, turn.depth, window, turn.ply);
        }
        Walked { value: best, taint }
    }

    /// The opponent's answer to a passed capture (`retreat`) as a ply of its own, where
    /// the other side decides: the worse branch for the mover, among those that lead to
    /// a legal move. Not stored: the choice points below it are. The line and, at the
    /// root, the move found are those of that branch.
    pub(super) fn answer_value(
        &mut self,
        point: &ChoicePoint,
        turn: &mut Turn,
        alpha: i32,
        mut beta: i32,
    ) -> Walked {
        self.count_node();
        let at_root = turn.ply == 0;
        let entry_best = self.root_best.clone();
        let entry_pv = self.pv[turn.ply].clone();
        let mut worst = INFINITY;
        let mut worst_line = None;
        let mut taint = UNTAINTED;
        for retreat in [true, false] {
            if at_root {
                self.root_best = entry_best.clone();
                self.root_choices.push(Choice::answer(retreat));
            }
            self.pv[turn.ply] = entry_pv.clone();
            let next = self
                .shared
                .variant
                .answer_pass(point, retreat, &mut self.walks[turn.ply]);
            let walked = self.step_value(next, turn, alpha, beta);
            if at_root {
                self.root_choices.pop();
            }
            taint = taint.min(walked.taint);
            if self.stopped() {
                return Walked {
                    value: -INFINITY,
                    taint: 0,
                };
            }
            // An answer after which the move cannot end is not one the opponent has.
            if walked.value == -INFINITY || walked.value >= worst {
                continue;
            }
            worst = walked.value;
            worst_line = Some((self.root_best.clone(), self.pv[turn.ply].clone()));
            beta = beta.min(worst);
            if worst <= alpha {
                break;
            }
        }
        let Some((best, line)) = worst_line else {
            self.root_best = entry_best;
            self.pv[turn.ply] = entry_pv;
            return Walked {
                value: -INFINITY,
                taint,
            };
        };
        if worst > alpha {
            self.root_best = best;
            self.pv[turn.ply] = line;
        } else {
            self.root_best = entry_best;
            self.pv[turn.ply] = entry_pv;
        }
        Walked {
            value: worst,
            taint,
        }
    }
}
