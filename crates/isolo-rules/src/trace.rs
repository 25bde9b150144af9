//! A legal move retold step by step, as a player would make it with seeds in hand: each
//! lift, each lap's pits, each capture and each passed capture. For showing moves (the
//! web page animates these steps); the fast generator stays the authority on what is
//! legal, and tests check that the steps end on the position it gives.
//!
//! Written plainly over arrays (RULES.md 3): pits `1..=2W` in each side's numbering.

use super::board::Board;
use super::notation::Choice;
use super::rules_file::{CaptureChoice, ClockwiseAt, ClockwiseWhen, SowOrigin};
use super::variant::{lap, Decision, DecisionKind, Turned, Variant};
use crate::notation::Move;
use crate::side::Side;

/// Seeds sown in one retelling before it stops (a move of thousands of laps is shown as
/// its start and its result).
pub const MAX_TRACED_SEEDS: usize = 20_000;

/// One step of a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TraceStep {
    /// The mover lifts every seed of their pit `pit` to sow them (right after a
    /// `Capture`, with the captured seeds, under `capture_sow_from = "lap-start-pit"`).
    Lift {
        /// The mover's pit.
        pit: u8,
        /// Seeds lifted.
        seeds: u32,
    },
    /// One seed into each of these pits of the mover, in order (a clockwise lap's go
    /// the other way round).
    Sow {
        /// The mover's pits.
        pits: Vec<u8>,
    },
    /// The last seed landed in the mover's occupied front-row pit `at`, and the seeds of
    /// the opponent's `pits` facing it are taken, to be sown after the mover's pit `from`.
    Capture {
        /// The mover's pit where the capturing seed landed.
        at: u8,
        /// The opponent's emptied pits (their numbering).
        pits: Vec<u8>,
        /// Seeds taken.
        seeds: u32,
        /// The mover's pit after which the taken seeds are sown.
        from: u8,
    },
    /// The mover passes a capture at their pit `at` (optional captures).
    Pass {
        /// The mover's pit where the capturing seed landed.
        at: u8,
    },
    /// The opponent answers the pass by retreating (`retreat`): the seeds of its front
    /// pit `from` go to its back pit `to` behind it (the opponent's numbering).
    Retreat {
        /// The opponent's emptied front pit.
        from: u8,
        /// The opponent's back pit that receives them.
        to: u8,
        /// Seeds moved.
        seeds: u32,
    },
    /// The captured seeds are left in the mover's pit `pit`, the lap's, and the other
    /// clockwise pit is lifted and sown clockwise next (`clockwise_leave`).
    Leave {
        /// The mover's pit that keeps them.
        pit: u8,
        /// Seeds left there.
        seeds: u32,
    },
    /// The move ends with the last seed in the mover's pit `at`.
    End {
        /// The mover's pit.
        at: u8,
    },
}

/// A move retold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    /// Who moved.
    pub mover: Side,
    /// The steps, in order.
    pub steps: Vec<TraceStep>,
    /// Whether the retelling stopped at `MAX_TRACED_SEEDS` before the move's end.
    pub truncated: bool,
    /// Seeds of `[South, North]` in pit order (index `n - 1` is pit `n`) after the last
    /// step (the result's, unless truncated).
    pub pits: [Vec<u32>; 2],
}

/// The steps of `mv` from `board`, or `None` if it is not a legal move there.
pub fn trace_move(variant: &Variant, board: &Board, mv: &Move) -> Option<Trace> {
    variant.play_move(board, mv)?;
    Some(Tracer::new(variant, board, None).run(mv).0)
}

/// A move begun retold up to the decision it stops at next, so that a player sees the
/// move played that far before deciding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TracedDecision {
    /// The decision (`Variant::decision_at`).
    pub decision: Decision,
    /// The steps up to it (`pits`: the seeds as they stand there, those in hand on no
    /// pit).
    pub trace: Trace,
}

/// The steps of `half`, a move begun, from `board` up to its next decision; `None`
/// where it stops at none (`Variant::decision_at`), or past `MAX_TRACED_SEEDS`.
pub fn trace_to_decision(variant: &Variant, board: &Board, half: &Move) -> Option<TracedDecision> {
    let mut decision = variant.decision_without_lap_ends(board, half)?;
    let (trace, lap_ends) = Tracer::new(variant, board, Some(decision.kind)).run(half);
    // (One retelling gives both: `decision_at` would retell a direction's lap again.)
    decision.lap_ends = lap_ends;
    (!trace.truncated).then_some(TracedDecision { decision, trace })
}

/// Where the last seed of the lap about to turn at `half`'s next decision, a direction,
/// falls sown anticlockwise and sown clockwise (the mover's pits).
pub(crate) fn lap_ends(variant: &Variant, board: &Board, half: &Move) -> Option<[u8; 2]> {
    Tracer::new(variant, board, Some(DecisionKind::Direction))
        .run(half)
        .1
}

/// Where a retelling stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stop {
    /// At the move's end.
    End,
    /// At `MAX_TRACED_SEEDS`.
    Limit,
    /// At the decision asked for; at a direction, with the lap's two ends.
    Decision(Option<[u8; 2]>),
}

struct Tracer<'v> {
    variant: &'v Variant,
    mover: usize,
    pits: [Vec<u32>; 2],
    sow_loop: Vec<u8>,
    protected: Vec<u8>,
    steps: Vec<TraceStep>,
    sown: usize,
    /// Who is in overture, `[South, North]`.
    overture: [bool; 2],
    /// Whether the mover's first move may not capture (`first_move_captures`).
    barred: bool,
    /// The kind of decision to stop at once the move's letters are used up (a move
    /// begun), or `None` to retell a whole move.
    stop_at: Option<DecisionKind>,
}

impl<'v> Tracer<'v> {
    fn new(variant: &'v Variant, board: &Board, stop_at: Option<DecisionKind>) -> Tracer<'v> {
        let n = variant.pits();
        let side_pits = |side| (1..=n).map(|p| board.seeds(side, p) as u32).collect();
        Tracer {
            variant,
            mover: board.to_move() as usize,
            pits: [side_pits(Side::South), side_pits(Side::North)],
            sow_loop: Vec::new(),
            protected: Vec::new(),
            steps: Vec::new(),
            sown: 0,
            overture: [
                board.in_overture(Side::South),
                board.in_overture(Side::North),
            ],
            barred: board.first_move_pending(board.to_move()),
            stop_at,
        }
    }

    /// The retelling, and at a direction decision the lap's two ends.
    fn run(mut self, mv: &Move) -> (Trace, Option<[u8; 2]>) {
        let mover = if self.mover == 0 {
            Side::South
        } else {
            Side::North
        };
        let rules = self.variant.rules();
        let w = self.variant.columns();
        // RULES.md 3.6: in overture, moves other than the ng'hana's skip the last column.
        let in_overture = rules.overture && self.board_in_overture(mover);
        self.sow_loop = (1..=2 * w)
            .filter(|&p| !(in_overture && mv.pit != w && (p == w || p == w + 1)))
            .collect();
        let opponent_in_overture = rules.overture && self.board_in_overture(mover.opponent());
        if rules.overture_protects && opponent_in_overture {
            self.protected = vec![w, w + 1];
        }
        let stop = self.follow(mv);
        let trace = Trace {
            mover,
            steps: self.steps,
            truncated: stop == Stop::Limit,
            pits: self.pits,
        };
        let lap_ends = match stop {
            Stop::Decision(ends) => ends,
            Stop::End | Stop::Limit => None,
        };
        (trace, lap_ends)
    }

    /// Whether the retelling stops here, at a decision of `kind` with the move's
    /// letters used up.
    fn decides<'c>(
        &self,
        kind: DecisionKind,
        choices: &mut std::iter::Peekable<impl Iterator<Item = &'c Choice>>,
    ) -> bool {
        self.stop_at == Some(kind) && choices.peek().is_none()
    }

    /// Walks the move.
    fn follow(&mut self, mv: &Move) -> Stop {
        let rules = self.variant.rules();
        let mut choices = mv.choices.iter().peekable();
        let mut from = mv.pit;
        let mut seeds = self.lift(from);
        let (mut laps, mut turned) = (0, Turned::Not);
        // A lap lifted from the other clockwise pit after a capture was left.
        let mut left = false;
        loop {
            // RULES.md 3.7: a lap that could capture clockwise is sown as the move says.
            let forced = std::mem::take(&mut left);
            let may_turn =
                !forced && self.may_sow_clockwise(laps, turned == Turned::Once, from, seeds);
            if may_turn && self.decides(DecisionKind::Direction, &mut choices) {
                return Stop::Decision(self.unlift(from, seeds));
            }
            let clockwise = forced || (may_turn && choices.next() == Some(&Choice::Clockwise));
            if clockwise {
                turned = turned.after_clockwise(laps == 0);
            }
            laps += 1;
            let Some(end) = self.sow(from, seeds, clockwise) else {
                return Stop::Limit;
            };
            let here = self.mine(end);
            if here == 1 {
                self.steps.push(TraceStep::End { at: end });
                return Stop::End;
            }
            let origin = lap::capture_origin(rules.capture_sow_from, from, end, mv.pit);
            let targets = self.capture_targets(end);
            let optional = rules.capture_choice != CaptureChoice::Forced;
            if !targets.is_empty() && optional && self.decides(DecisionKind::Capture, &mut choices)
            {
                return Stop::Decision(None);
            }
            let take = !targets.is_empty()
                && (rules.capture_choice == CaptureChoice::Forced
                    || choices.next() == Some(&Choice::Take));
            if take {
                let leave_open = clockwise && self.variant.has_leave();
                // (Asked with the seeds at stake still on the board.)
                if leave_open && self.decides(DecisionKind::Leave, &mut choices) {
                    return Stop::Decision(None);
                }
                let mut taken = self.take(end, &targets, origin);
                // A legal move's letter says whether a clockwise capture was left; it is
                // used up either way (`o` sows on, below).
                let lettered = leave_open && choices.peek().is_some_and(|c| c.is_leave_choice());
                if lettered && choices.next() == Some(&Choice::Leave) {
                    self.pits[self.mover][origin as usize - 1] += taken;
                    self.steps.push(TraceStep::Leave {
                        pit: origin,
                        seeds: taken,
                    });
                    let other = rules.clockwise_from.iter().find(|&&p| p != origin);
                    from = *other.expect("two clockwise pits");
                    seeds = self.lift(from);
                    left = true;
                    continue;
                }
                if rules.capture_sow_from == SowOrigin::LapStartPit && self.mine(origin) > 0 {
                    taken += self.lift(origin);
                }
                if rules.capture_ends_move {
                    let Some(_) = self.sow(origin, taken, false) else {
                        return Stop::Limit;
                    };
                    self.steps.push(TraceStep::End { at: origin });
                    return Stop::End;
                }
                (from, seeds) = (origin, taken);
                continue;
            }
            if !targets.is_empty() {
                self.steps.push(TraceStep::Pass { at: end });
                if self.answer_open(end, &targets)
                    && self.decides(DecisionKind::Answer, &mut choices)
                {
                    return Stop::Decision(None);
                }
                self.answer_pass(end, &targets, &mut choices);
            }
            seeds = self.lift(end);
            from = end;
        }
    }

    /// Whether the move's lap after `laps` laps (0: its first lap), `seeds` from the
    /// mover's pit `from`, may be sown clockwise (`spent`: its one clockwise lap under
    /// `clockwise_laps = "first-sowing"` was sown): from a pit of `clockwise_from`, a lap
    /// that may turn, and ending clockwise on seeds in a front pit whose facing pits it
    /// captures (or, under `clockwise_when = "faces-seeds"`, in a front pit whose facing
    /// pits a move free to capture would take).
    fn may_sow_clockwise(&self, laps: u32, spent: bool, from: u8, seeds: u32) -> bool {
        let rules = self.variant.rules();
        let from_a_pit = rules.clockwise_from.contains(&from);
        if !(from_a_pit || rules.clockwise_at == ClockwiseAt::StartOrEnd)
            || !rules.clockwise_laps.lap_may_turn(laps, spent)
        {
            return false;
        }
        let Some(order) = self.loop_from(from, true) else {
            return false;
        };
        let last = order[(seeds as usize - 1) % order.len()];
        if !from_a_pit && !rules.clockwise_from.contains(&last) {
            return false;
        }
        // The last seed's pit gets one seed each time round.
        let passes = ((seeds as usize - 1) / order.len() + 1) as u32;
        if rules.clockwise_when == ClockwiseWhen::FacesSeeds {
            return !self.facing_targets(last).is_empty();
        }
        self.mine(last) + passes > 1 && !self.capture_targets(last).is_empty()
    }

    /// Takes back the lift of the lap about to turn, `seeds` from the mover's pit `from`
    /// (the pit holds them at the decision, as it is shown), and gives the pits where
    /// its last seed would fall anticlockwise and clockwise.
    fn unlift(&mut self, from: u8, seeds: u32) -> Option<[u8; 2]> {
        if let Some(TraceStep::Lift { pit, seeds: lifted }) = self.steps.last() {
            if *pit == from {
                self.pits[self.mover][from as usize - 1] += lifted;
                self.steps.pop();
            }
        }
        let end = |clockwise| {
            let order = self.loop_from(from, clockwise)?;
            Some(order[(seeds as usize - 1) % order.len()])
        };
        Some([end(false)?, end(true)?])
    }

    /// The pits of the mover's loop after `from`, in sowing order (clockwise: the other
    /// way round), `from` last; `None` if `from` is not in the loop.
    fn loop_from(&self, from: u8, clockwise: bool) -> Option<Vec<u8>> {
        let start = self.sow_loop.iter().position(|&p| p == from)?;
        let len = self.sow_loop.len();
        let order = (1..=len).map(|k| {
            let at = if clockwise {
                (start + len - k % len) % len
            } else {
                (start + k) % len
            };
            self.sow_loop[at]
        });
        Some(order.collect())
    }

    fn board_in_overture(&self, side: Side) -> bool {
        self.overture[side as usize]
    }

    fn mine(&self, pit: u8) -> u32 {
        self.pits[self.mover][pit as usize - 1]
    }

    fn lift(&mut self, pit: u8) -> u32 {
        let seeds = std::mem::take(&mut self.pits[self.mover][pit as usize - 1]);
        self.steps.push(TraceStep::Lift { pit, seeds });
        seeds
    }

    /// Sows `seeds` after `from` (anticlockwise, or `clockwise`); the pit of the last
    /// seed, or `None` past the limit.
    fn sow(&mut self, from: u8, seeds: u32, clockwise: bool) -> Option<u8> {
        if self.sown + seeds as usize > MAX_TRACED_SEEDS {
            return None;
        }
        let order = self.loop_from(from, clockwise)?;
        self.sown += seeds as usize;
        let pits: Vec<u8> = (0..seeds as usize)
            .map(|k| order[k % order.len()])
            .collect();
        for &p in &pits {
            self.pits[self.mover][p as usize - 1] += 1;
        }
        let last = *pits.last().unwrap_or(&from);
        self.steps.push(TraceStep::Sow { pits });
        Some(last)
    }

    /// The opponent's pits a capture at the mover's pit `end` would take (none: empty).
    fn capture_targets(&self, end: u8) -> Vec<u8> {
        if self.barred {
            return Vec::new();
        }
        self.facing_targets(end)
    }

    /// The opponent's pits a capture at the mover's pit `end` would take were the move
    /// free to capture (none: empty).
    fn facing_targets(&self, end: u8) -> Vec<u8> {
        let w = self.variant.columns();
        if end <= w {
            return Vec::new();
        }
        let facing: Vec<u8> = [3 * w + 1 - end, end - w]
            .into_iter()
            .filter(|p| !self.protected.contains(p))
            .collect();
        let theirs = &self.pits[1 - self.mover];
        let occupied = |p: &u8| theirs[*p as usize - 1] > 0;
        let held = || facing.iter().copied().filter(occupied).collect::<Vec<u8>>();
        let any = facing.iter().any(occupied);
        let possible = lap::capture_met(self.variant.rules().capture, any, held, facing.clone());
        if possible {
            facing.into_iter().filter(occupied).collect()
        } else {
            Vec::new()
        }
    }

    /// Whether the opponent answers a pass at the mover's pit `end` (`retreat`): its
    /// facing front pit is among the capture's `targets`.
    fn answer_open(&self, end: u8, targets: &[u8]) -> bool {
        let front = 3 * self.variant.columns() + 1 - end;
        self.variant.has_retreat() && targets.contains(&front)
    }

    /// RULES.md 3.8: under `retreat`, a pass at the mover's pit `end` whose facing
    /// front pit is among the capture's `targets` is answered by the opponent's next
    /// letter; a retreat empties that pit into the back pit behind it.
    fn answer_pass<'c>(
        &mut self,
        end: u8,
        targets: &[u8],
        choices: &mut impl Iterator<Item = &'c Choice>,
    ) {
        let w = self.variant.columns();
        let (front, back) = (3 * w + 1 - end, end - w);
        if !(self.answer_open(end, targets) && choices.next() == Some(&Choice::Retreat)) {
            return;
        }
        let theirs = &mut self.pits[1 - self.mover];
        let seeds = std::mem::take(&mut theirs[front as usize - 1]);
        theirs[back as usize - 1] += seeds;
        self.steps.push(TraceStep::Retreat {
            from: front,
            to: back,
            seeds,
        });
    }

    fn take(&mut self, at: u8, pits: &[u8], from: u8) -> u32 {
        let seeds = pits
            .iter()
            .map(|&p| std::mem::take(&mut self.pits[1 - self.mover][p as usize - 1]))
            .sum();
        self.steps.push(TraceStep::Capture {
            at,
            pits: pits.to_vec(),
            seeds,
            from,
        });
        seeds
    }
}
