//! A legal move retold step by step, as a player would make it with seeds in hand: each
//! lift, each lap's pits, each capture and each passed capture. For showing moves (the
//! web page animates these steps).
//!
//! The retelling is an observer of the move machine (`machine.rs`): it drives the
//! machine through the move's letters as every other walk does, and tells each lap it
//! sows and each offer it takes, in the pits' numbers (`1..=2W` in each side's
//! numbering); it sows nothing of its own.

use super::lap::{LapState, Taken};
use super::machine::{LapEvent, MoveMachine, Offer, Turning};
use super::rule_set::{with_move_rules, MoveRules};
use super::{Decision, DecisionKind, Variant};
use crate::board::Board;
use crate::notation::{Choice, Move};
use crate::ring::{self, LoopTable, Ring};
use crate::rules_file::SowOrigin;
use crate::side::Side;

/// Seeds sown in one retelling before it stops (a move of thousands of laps is shown as
/// its start and its result).
pub(super) const MAX_TRACED_SEEDS: usize = 20_000;

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
    variant.retell(board, mv, None)
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
    let decision = variant.decision_at(board, half)?;
    let trace = variant.retell(board, half, Some(decision.kind))?;
    (!trace.truncated).then_some(TracedDecision { decision, trace })
}

/// The steps told so far, and the letters still to follow.
struct Teller<'a, I: Iterator<Item = &'a Choice>> {
    steps: Vec<TraceStep>,
    sown: usize,
    letters: std::iter::Peekable<I>,
    /// The kind of decision to stop at once the letters are used up, or `None` to tell
    /// a whole move.
    stop_at: Option<DecisionKind>,
}

impl<'a, I: Iterator<Item = &'a Choice>> Teller<'a, I> {
    /// Whether the retelling stops here, at a decision of `kind` with the letters used up.
    fn stops(&mut self, kind: DecisionKind) -> bool {
        self.stop_at == Some(kind) && self.letters.peek().is_none()
    }

    /// Whether the next letter is `choice`, using it up if it is one of `options`.
    fn chose(&mut self, choice: Choice, options: [Choice; 2]) -> bool {
        match self.letters.peek() {
            Some(&&next) if options.contains(&next) => {
                self.letters.next();
                next == choice
            }
            _ => false,
        }
    }

    fn lift(&mut self, lane: usize, seeds: u32) {
        self.steps.push(TraceStep::Lift {
            pit: lane as u8 + 1,
            seeds,
        });
    }

    /// Tells the lap `before` stands before, sown over `table`; false past
    /// `MAX_TRACED_SEEDS`, when nothing is told.
    fn sow(&mut self, table: &LoopTable, before: &LapState) -> bool {
        if self.sown + before.seeds as usize > MAX_TRACED_SEEDS {
            return false;
        }
        self.sown += before.seeds as usize;
        let pits = (1..=before.seeds)
            .map(|k| table.lane_after(before.from, k) as u8 + 1)
            .collect();
        self.steps.push(TraceStep::Sow { pits });
        true
    }

    /// The pit the last lap told ended in.
    fn last_sown(&self) -> u8 {
        match self.steps.last() {
            Some(TraceStep::Sow { pits }) => *pits.last().expect("a lap sows seeds"),
            _ => unreachable!("told after a lap"),
        }
    }
}

/// Where a retelling stopped.
enum Stop {
    End,
    Limit,
    Decision,
}

impl Variant {
    /// `mv` (a whole move, or with `stop_at` a move begun) retold from `board` by the
    /// move machine, up to its end, a decision of `stop_at`'s kind once its letters are
    /// used up, or `MAX_TRACED_SEEDS`; `None` where its pit starts no move.
    fn retell(&self, board: &Board, mv: &Move, stop_at: Option<DecisionKind>) -> Option<Trace> {
        let lane = self.starting_lane(board, mv.pit)?;
        with_move_rules!(self.kernel, k => self.retell_with(k, board, (lane, mv), stop_at))
    }

    /// `retell` with the move rules `k`, the move's pit at `lane`.
    fn retell_with<K: MoveRules>(
        &self,
        k: K,
        board: &Board,
        (lane, mv): (usize, &Move),
        stop_at: Option<DecisionKind>,
    ) -> Option<Trace> {
        let me = board.to_move();
        let (full_loop, _) = self.loop_of_move(board, me, lane);
        let tables = (self.capture_table(board, me), self.facing_table(board, me));
        let m = self.machine(k, lane, full_loop, tables);
        let mut teller = Teller {
            steps: Vec::new(),
            sown: 0,
            letters: mv.choices.iter().peekable(),
            stop_at,
        };
        let mut state = LapState::first(lane, (board.ring(me), board.ring(me.opponent())));
        let stop = self.tell(&m, &mut state, &mut teller)?;
        let (mine, theirs) = (state.mine, state.theirs);
        let pits = |ring: Ring| {
            (0..self.pits())
                .map(|l| ring::lane(ring, l) as u32)
                .collect()
        };
        let (south, north) = match me {
            Side::South => (mine, theirs),
            Side::North => (theirs, mine),
        };
        Some(Trace {
            mover: me,
            steps: teller.steps,
            truncated: matches!(stop, Stop::Limit),
            pits: [pits(south), pits(north)],
        })
    }

    /// Drives `m` from `state` through the teller's letters, telling each step; leaves
    /// `state` as the seeds stand where it stops. `None` for a move too long.
    fn tell<'a, K: MoveRules>(
        &self,
        m: &MoveMachine<K>,
        state: &mut LapState,
        teller: &mut Teller<'a, impl Iterator<Item = &'a Choice>>,
    ) -> Option<Stop> {
        teller.lift(state.from, state.seeds);
        // The lap after a capture left is sown clockwise, decided with the leave.
        let mut left = false;
        loop {
            let may_turn = !left && m.may_turn(state);
            if may_turn && teller.stops(DecisionKind::Direction) {
                // Shown with the lap's seeds back in its pit, as it stands undecided.
                if let Some(&TraceStep::Lift { pit, seeds }) = teller.steps.last() {
                    if pit as usize == state.from + 1 {
                        let held = ring::lane(state.mine, state.from) as u32 + seeds;
                        state.mine = ring::set_lane(state.mine, state.from, held as u8);
                        teller.steps.pop();
                    }
                }
                return Some(Stop::Decision);
            }
            let clockwise = left
                || may_turn
                    && teller.chose(
                        Choice::Clockwise,
                        [Choice::Anticlockwise, Choice::Clockwise],
                    );
            left = false;
            let table = match m.turns {
                Some((table, _)) if clockwise => table,
                _ => m.frame.table,
            };
            if !teller.sow(table, state) {
                return Some(Stop::Limit);
            }
            let at = match m.sow(state, clockwise) {
                LapEvent::TooLong => return None,
                LapEvent::Ended => {
                    let at = teller.last_sown();
                    teller.steps.push(TraceStep::End { at });
                    return Some(Stop::End);
                }
                LapEvent::Turning(at) => at,
            };
            let take = match at.offer {
                Offer::Relay => false,
                Offer::Take => true,
                Offer::TakeOrPass => {
                    if teller.stops(DecisionKind::Capture) {
                        return Some(Stop::Decision);
                    }
                    teller.chose(Choice::Take, [Choice::Take, Choice::Pass])
                }
                Offer::SowOnOrLeave(leave) => {
                    // (Asked with the seeds at stake still on the board.)
                    if teller.stops(DecisionKind::Leave) {
                        return Some(Stop::Decision);
                    }
                    if teller.chose(Choice::Leave, [Choice::SowOn, Choice::Leave]) {
                        self.tell_take(m, state, &at, teller);
                        teller.steps.push(TraceStep::Leave {
                            pit: state.from as u8 + 1,
                            seeds: at.take,
                        });
                        *state = leave;
                        teller.lift(state.from, state.seeds);
                        left = true;
                        continue;
                    }
                    true
                }
            };
            if take {
                match self.take_told(m, state, &at, teller) {
                    None => return Some(Stop::Limit),
                    Some(Taken::SowOn) => continue,
                    Some(Taken::Ended) => return Some(Stop::End),
                    Some(Taken::TooLong) => return None,
                }
            }
            if at.take > 0 {
                teller.steps.push(TraceStep::Pass {
                    at: at.end as u8 + 1,
                });
                if let (_, Some(retreated)) = m.pass(state, at.end) {
                    if teller.stops(DecisionKind::Answer) {
                        return Some(Stop::Decision);
                    }
                    if teller.chose(Choice::Retreat, [Choice::Retreat, Choice::Stay]) {
                        self.tell_retreat(at.end, state.theirs, teller);
                        state.theirs = retreated.theirs;
                    }
                }
            }
            *state = state.relay(at.end);
            teller.lift(state.from, state.seeds);
        }
    }

    /// Tells the capture at `at`: the opponent's pits emptied, front pit first.
    fn tell_take<'a, K: MoveRules>(
        &self,
        m: &MoveMachine<K>,
        state: &LapState,
        at: &Turning,
        teller: &mut Teller<'a, impl Iterator<Item = &'a Choice>>,
    ) {
        let pits = self
            .capture_lanes(&m.frame.spots[at.end], at.end)
            .filter(|&lane| ring::lane(state.theirs, lane) > 0)
            .map(|lane| lane as u8 + 1)
            .collect();
        teller.steps.push(TraceStep::Capture {
            at: at.end as u8 + 1,
            pits,
            seeds: at.take,
            from: at.origin as u8 + 1,
        });
    }

    /// Takes the capture at `at` through the machine, telling it: the capture, the
    /// origin pit's seeds lifted with it (`lap-start-pit`), and under
    /// `capture_ends_move` the captured seeds' lap and the end. `None` where that lap
    /// would pass `MAX_TRACED_SEEDS`: nothing is told or taken then.
    fn take_told<'a, K: MoveRules>(
        &self,
        m: &MoveMachine<K>,
        state: &mut LapState,
        at: &Turning,
        teller: &mut Teller<'a, impl Iterator<Item = &'a Choice>>,
    ) -> Option<Taken> {
        let held = match m.k.sow_from() {
            SowOrigin::LapStartPit => ring::lane(state.mine, at.origin) as u32,
            _ => 0,
        };
        if m.k.capture_ends_move() && teller.sown + (at.take + held) as usize > MAX_TRACED_SEEDS {
            return None;
        }
        self.tell_take(m, state, at, teller);
        if held > 0 {
            teller.lift(at.origin, held);
        }
        let before = LapState {
            from: at.origin,
            seeds: at.take + held,
            ..*state
        };
        let taken = m.take(state, at.capture());
        if taken == Taken::Ended {
            teller.sow(m.frame.table, &before);
            let end = teller.last_sown();
            teller.steps.push(TraceStep::End { at: end });
        }
        Some(taken)
    }

    /// Tells the opponent's retreat from the front pit facing the mover's lane `end`.
    fn tell_retreat<'a>(
        &self,
        end: usize,
        theirs: Ring,
        teller: &mut Teller<'a, impl Iterator<Item = &'a Choice>>,
    ) {
        let (front, back) = self
            .facing_lanes(end)
            .expect("a retreat faces the front row");
        teller.steps.push(TraceStep::Retreat {
            from: front as u8 + 1,
            to: back as u8 + 1,
            seeds: ring::lane(theirs, front) as u32,
        });
    }
}
