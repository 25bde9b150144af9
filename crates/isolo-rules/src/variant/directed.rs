//! Moves whose laps may be sown clockwise (RULES.md 3.7): a lap lifted from a pit of
//! `clockwise_from` may go the other way round when that lap captures, so a move is a
//! pit and a sequence of direction choices, anticlockwise (`a`) or clockwise (`c`), one
//! at each lap that could turn.
//!
//! Under optional captures each capture met is a choice too, take (`x`) or pass (`p`).
//! Under `clockwise_leave` a capture made by a lap sown clockwise from one of two
//! clockwise pits may be left there while the other is sown clockwise: sow on (`o`) or
//! leave (`l`), where leaving is open.
//! The turning point where a lap ends fixes everything that follows it, choices
//! included: a sequence that comes back to a turning point is not a move (the same
//! choices were open the first time), and the sequences are explored depth first,
//! anticlockwise before clockwise and take before pass, keeping the path's points.

use super::lap::{LapEnd, LapRules, LapState, Taken};
use super::{MoveFrame, MoveGen, Turned, TurningPoint, Variant};
use crate::geometry::CaptureSpot;
use crate::notation::Choice;
use crate::ring::{self, LoopTable, Ring};
use crate::rules_file::{CaptureChoice, ClockwiseAt, ClockwiseLaps, ClockwiseLeave, ClockwiseWhen};

/// A lap about to be sown, in a move whose laps may turn.
#[derive(Clone, Copy, Debug)]
pub(super) struct DirectedLap {
    state: LapState,
    /// Whether this lap goes clockwise (chosen already).
    clockwise: bool,
}

/// The other side of a choice not yet explored (a clockwise lap, or the relay of a
/// passed capture), with the path and choices before it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Branch {
    lap: DirectedLap,
    /// The choice that leads to `lap`.
    choice: Choice,
    /// The opponent's answer after it, for a pass answered under `retreat`.
    answer: Option<Choice>,
    path_len: usize,
    choices_len: usize,
}

impl Variant {
    /// Whether `lap` may be sown clockwise: it is lifted from a pit of `clockwise_from`,
    /// it is a lap the rules let turn (the move's first, or any), and sown clockwise its
    /// last seed lands on seeds in a front pit whose facing pits it captures (or, under
    /// `clockwise_when = "faces-seeds"`, in a front pit whose facing pits `facing`, the
    /// move's capture table were it free to capture, would take).
    #[inline]
    pub(super) fn may_sow_clockwise(
        &self,
        clockwise: &LoopTable,
        tables: [&[CaptureSpot; ring::MAX_LANES]; 2],
        lap: &LapState,
    ) -> bool {
        let from_a_pit = self.clockwise & (1 << lap.from) != 0;
        let into_pits = self.rules.clockwise_at == ClockwiseAt::StartOrEnd;
        if !(from_a_pit || into_pits)
            || !(self.rules.clockwise_laps).lap_may_turn(lap.laps, lap.turned == Turned::Once)
        {
            return false;
        }
        let [spots, facing] = tables;
        let (end, added) = clockwise.lap_end(lap.from, lap.seeds);
        if !from_a_pit && self.clockwise & (1 << end) == 0 {
            return false;
        }
        if self.rules.clockwise_when == ClockwiseWhen::FacesSeeds {
            return self.capturable(&facing[end], lap.theirs) > 0;
        }
        // A first or relay lap's pit is empty once lifted; a capture lap's keeps its seeds.
        let held = ring::lane(lap.mine, end) as u32;
        held + added > 1 && self.capturable(&spots[end], lap.theirs) > 0
    }

    /// Under `clockwise_leave`, the lap that sows the other pit of `clockwise_from`
    /// clockwise when the mover leaves the seeds that `state`'s lap, sown clockwise from
    /// a pit of them, captures (`take` seeds at `spot`) in the pit it came from: if that
    /// lap captures (RULES.md 3.7). `state` is the lap as it ended, before the capture.
    pub(super) fn leave_lap(
        &self,
        clockwise: &LoopTable,
        tables: [&[CaptureSpot; ring::MAX_LANES]; 2],
        state: &LapState,
        spot: &CaptureSpot,
        take: u32,
    ) -> Option<LapState> {
        let here = 1 << state.from;
        if self.rules.clockwise_leave == ClockwiseLeave::None || self.clockwise & here == 0 {
            return None;
        }
        let other = (self.clockwise & !here).trailing_zeros() as usize;
        let left = ring::lane(state.mine, state.from) as u32 + take;
        let mine = ring::set_lane(state.mine, state.from, left.min(255) as u8);
        let seeds = ring::lane(mine, other) as u32;
        if seeds == 0 {
            return None;
        }
        let lap = LapState {
            mine: ring::clear_lane(mine, other),
            theirs: state.theirs & !spot.mask,
            captured: state.captured + take,
            from: other,
            seeds,
            ..*state
        };
        self.may_sow_clockwise(clockwise, tables, &lap)
            .then_some(lap)
    }

    /// Calls `visit` with every legal move from `frame.pit` (its rings, choices, laps and
    /// captures), with `clockwise` the loop sown the other way round and `facing` the
    /// capture table of the move were it free to capture. Returns false when `visit`
    /// asked to stop; stops early, setting `gen.over_budget`, when the laps use up
    /// `gen.lap_budget`.
    pub(super) fn play_directed<K: LapRules>(
        &self,
        k: K,
        frame: &MoveFrame,
        (clockwise, facing): super::distinct::Turns,
        (mine, theirs): (Ring, Ring),
        gen: &mut MoveGen,
        mut visit: impl FnMut(Ring, Ring, &[Choice], u32, u32) -> bool,
    ) -> bool {
        gen.path.truncate(0);
        gen.branches.clear();
        let optional = self.rules.capture_choice == CaptureChoice::Optional;
        let follows_turns = self.rules.clockwise_laps == ClockwiseLaps::FirstSowing;
        gen.choices.clear();
        let mut lap = DirectedLap {
            state: LapState::first(frame.pit, (mine, theirs)),
            clockwise: false,
        };
        loop {
            // Sow laps until the move ends or dies, leaving each clockwise lap for later.
            let finished = loop {
                let tables = [frame.spots, facing];
                if !lap.clockwise && self.may_sow_clockwise(clockwise, tables, &lap.state) {
                    gen.branches.push(Branch {
                        lap: DirectedLap {
                            clockwise: true,
                            ..lap
                        },
                        choice: Choice::Clockwise,
                        answer: None,
                        path_len: gen.path.len(),
                        choices_len: gen.choices.len(),
                    });
                    gen.choices.push(Choice::Anticlockwise);
                }
                gen.lap_budget -= 1;
                if gen.lap_budget == 0 {
                    gen.over_budget = true;
                    return true;
                }
                if !gen.poll.lap() {
                    return false;
                }
                let state = &mut lap.state;
                if lap.clockwise && follows_turns {
                    state.turned = state.turned.after_clockwise(state.laps == 0);
                }
                let table = if lap.clockwise {
                    clockwise
                } else {
                    frame.table
                };
                let (end, origin, take) = match self.sow_lap(k, frame, table, state) {
                    LapEnd::TooLong => break false,
                    LapEnd::Empty => break true,
                    LapEnd::Turning { end, origin, take } => (end, origin, take),
                };
                let point = TurningPoint::at(state, end, origin);
                if !gen.path.insert(point) {
                    break false;
                }
                let spot = &frame.spots[end];
                if optional && take > 0 {
                    // Explored last first: the pass answered by staying, then by
                    // retreating where the opponent may, or the pass alone.
                    let pass = Branch {
                        lap: DirectedLap {
                            state: state.relay(end),
                            clockwise: false,
                        },
                        choice: Choice::Pass,
                        answer: None,
                        path_len: gen.path.len(),
                        choices_len: gen.choices.len(),
                    };
                    match self.retreated(spot, end, state.theirs) {
                        Some(theirs) => {
                            gen.branches.push(Branch {
                                answer: Some(Choice::Stay),
                                ..pass
                            });
                            let mut retreat = pass;
                            retreat.lap.state.theirs = theirs;
                            retreat.answer = Some(Choice::Retreat);
                            gen.branches.push(retreat);
                        }
                        None => gen.branches.push(pass),
                    }
                    gen.choices.push(Choice::Take);
                }
                if take > 0 && lap.clockwise {
                    let tables = [frame.spots, facing];
                    if let Some(left) = self.leave_lap(clockwise, tables, state, spot, take) {
                        // Explored after sowing on: leave, the other pit sown clockwise.
                        gen.branches.push(Branch {
                            lap: DirectedLap {
                                state: left,
                                clockwise: true,
                            },
                            choice: Choice::Leave,
                            answer: None,
                            path_len: gen.path.len(),
                            choices_len: gen.choices.len(),
                        });
                        gen.choices.push(Choice::SowOn);
                    }
                }
                if take == 0 {
                    *state = state.relay(end);
                } else {
                    // (Clockwise sowing excludes `capture_ends_move`: the take sows on.)
                    let taken = self.take_capture(k, frame, state, (end, origin, take));
                    debug_assert_eq!(taken, Taken::SowOn);
                }
                lap.clockwise = false;
            };
            let state = &lap.state;
            if finished
                && !visit(
                    state.mine,
                    state.theirs,
                    &gen.choices,
                    state.laps,
                    state.captured,
                )
            {
                return false;
            }
            let Some(branch) = gen.branches.pop() else {
                return true;
            };
            gen.back_to(branch.path_len, branch.choices_len, branch.choice);
            gen.choices.extend(branch.answer);
            lap = branch.lap;
        }
    }
}
