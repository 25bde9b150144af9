//! Moves whose laps may be sown clockwise (RULES.md 3.7): a lap lifted from a pit of
//! `clockwise_from` may go the other way round when that lap captures, so a move is a
//! pit and a sequence of direction choices, anticlockwise (`a`) or clockwise (`c`), one
//! at each lap that could turn.
//!
//! Under optional captures each capture met is a choice too, take (`x`) or pass (`p`).
//! Under `clockwise_leave` a capture made by a lap sown clockwise from one of two
//! clockwise pits may be left there while the other is sown clockwise: sow on (`o`) or
//! leave (`l`), where leaving is open.
//! Here are the two questions of such laps, which the move machine (`machine.rs`) asks:
//! whether a lap may turn, and which lap leaving a capture sows.

use super::lap::{self, LapState};
use super::rule_set::MoveRules;
use super::{Turned, Variant};
use crate::geometry::CaptureSpot;
use crate::ring::{self, LoopTable};
use crate::rules_file::{ClockwiseAt, ClockwiseLeave, ClockwiseWhen};

impl Variant {
    /// Whether `lap` may be sown clockwise: it is lifted from a pit of `clockwise_from`,
    /// it is a lap the rules let turn (the move's first, or any), and sown clockwise its
    /// last seed lands on seeds in a front pit whose facing pits it captures (or, under
    /// `clockwise_when = "faces-seeds"`, in a front pit whose facing pits `facing`, the
    /// move's capture table were it free to capture, would take).
    #[inline]
    pub(super) fn may_sow_clockwise<K: MoveRules>(
        &self,
        k: K,
        clockwise: &LoopTable,
        tables: [&[CaptureSpot; ring::MAX_LANES]; 2],
        lap: &LapState,
    ) -> bool {
        let from_a_pit = self.clockwise & (1 << lap.from) != 0;
        let into_pits = k.clockwise_at() == ClockwiseAt::StartOrEnd;
        if !(from_a_pit || into_pits)
            || !k
                .clockwise_laps()
                .lap_may_turn(lap.laps, lap.turned == Turned::Once)
        {
            return false;
        }
        let [spots, facing] = tables;
        let (end, added) = clockwise.lap_end(lap.from, lap.seeds);
        if !from_a_pit && self.clockwise & (1 << end) == 0 {
            return false;
        }
        if k.clockwise_when() == ClockwiseWhen::FacesSeeds {
            return lap::capturable(k, &facing[end], lap.theirs) > 0;
        }
        // A first or relay lap's pit is empty once lifted; a capture lap's keeps its seeds.
        let held = ring::lane(lap.mine, end) as u32;
        held + added > 1 && lap::capturable(k, &spots[end], lap.theirs) > 0
    }

    /// Under `clockwise_leave`, the lap that sows the other pit of `clockwise_from`
    /// clockwise when the mover leaves the seeds that `state`'s lap, sown clockwise from
    /// a pit of them, captures (`take` seeds at `spot`) in the pit it came from: if that
    /// lap captures (RULES.md 3.7). `state` is the lap as it ended, before the capture.
    pub(super) fn leave_lap<K: MoveRules>(
        &self,
        k: K,
        clockwise: &LoopTable,
        tables: [&[CaptureSpot; ring::MAX_LANES]; 2],
        state: &LapState,
        spot: &CaptureSpot,
        take: u32,
    ) -> Option<LapState> {
        let here = 1 << state.from;
        if k.clockwise_leave() == ClockwiseLeave::None || self.clockwise & here == 0 {
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
        self.may_sow_clockwise(k, clockwise, tables, &lap)
            .then_some(lap)
    }
}
