//! The lap kernel: what one lap of a move does (RULES.md 3.3 to 3.6), for the move
//! machine (`machine.rs`), which every walk of a move drives.
//!
//! A lap is counted against `max_laps`, sown, and ends either in an empty pit (the move
//! is over) or on seeds: a turning point, where the seeds facing it may be captured
//! (`capture`) and sown on from the lap's origin (`capture_sow_from`), or else the pit
//! is lifted and relayed. `capture_ends_move` ends the move with the captured seeds' lap.
//! What the move offers at a turning point the machine decides.
//!
//! The rules a lap reads are a type parameter ([`MoveRules`], `rule_set.rs`), fixed for
//! the presets when compiled.

use super::rule_set::MoveRules;
use super::{MoveFrame, Variant};
use crate::geometry::CaptureSpot;
use crate::ring::{self, LoopTable, Ring};
use crate::rules_file::{CaptureCondition, SowOrigin};

/// The state at which a lap is about to be sown.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LapState {
    pub(crate) mine: Ring,
    pub(crate) theirs: Ring,
    /// The lane the lap is sown from (its seeds go into the pits after it).
    pub(crate) from: usize,
    pub(crate) seeds: u32,
    pub(crate) laps: u32,
    pub(crate) captured: u32,
    /// How the move's laps went clockwise so far: followed only under
    /// `clockwise_laps = "first-sowing"` (`Turned::Not` otherwise), where it decides
    /// which laps may turn.
    pub(crate) turned: super::Turned,
}

impl LapState {
    /// The move's first lap, from lane `pit`, lifted.
    #[inline(always)]
    pub(crate) fn first(pit: usize, (mine, theirs): (Ring, Ring)) -> LapState {
        LapState {
            mine: ring::clear_lane(mine, pit),
            theirs,
            from: pit,
            seeds: ring::lane(mine, pit) as u32,
            laps: 0,
            captured: 0,
            turned: super::Turned::Not,
        }
    }

    /// How the move ended: `(mine, theirs, laps, captured)`.
    #[inline(always)]
    pub(crate) fn outcome(&self) -> (Ring, Ring, u32, u32) {
        (self.mine, self.theirs, self.laps, self.captured)
    }

    /// The state after picking up the pit where a lap ended, for a relay lap.
    #[inline(always)]
    pub(crate) fn relay(self, end: usize) -> LapState {
        LapState {
            seeds: ring::lane(self.mine, end) as u32,
            mine: ring::clear_lane(self.mine, end),
            from: end,
            ..self
        }
    }
}

/// Where a lap ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LapEnd {
    /// The lap was one more than `max_laps`: the move is endless, no move.
    TooLong,
    /// The last seed fell into an empty pit: the move is over.
    Empty,
    /// The last seed fell on seeds at lane `end`: a turning point. `take` seeds
    /// (0: none) may be captured and sown on from lane `origin`; else the pit is relayed.
    Turning {
        end: usize,
        origin: usize,
        take: u32,
    },
}

/// What taking a capture left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Taken {
    /// The captured seeds are in hand, to be sown by the next lap.
    SowOn,
    /// `capture_ends_move`: their lap is sown and the move is over.
    Ended,
    /// Their lap was one more than `max_laps`: no move.
    TooLong,
}

/// The lane captured seeds are sown after, for a capture at `end` by a lap sown from
/// `from` in a move begun at `pit` (lanes, or pit numbers: any one numbering).
#[inline(always)]
fn capture_origin<T>(sow_from: SowOrigin, from: T, end: T, pit: T) -> T {
    match sow_from {
        SowOrigin::LapStart | SowOrigin::LapStartPit => from,
        SowOrigin::CapturePit => end,
        SowOrigin::TurnStart => pit,
    }
}

/// Seeds a lap ending at a mover's pit with capture spot `spot` captures (0: none).
#[inline(always)]
pub(crate) fn capturable(k: impl MoveRules, spot: &CaptureSpot, theirs: Ring) -> u32 {
    let facing = theirs & spot.mask;
    // Most laps end facing nothing to take: one test, no lane read.
    if facing == 0 {
        return 0;
    }
    let occupied = || ring::lanes_at_least(facing, 1);
    if capture_met(k.capture(), true, occupied, spot.mask & ring::LANE_HIGHS) {
        ring::small_total(facing)
    } else {
        0
    }
}

/// Whether the facing pits allow a capture (`capture`, RULES.md 3.4): `any_occupied`
/// whether one of them holds seeds, `occupied` the set of those that do (asked only
/// when needed), `facing` the set of them all.
#[inline(always)]
fn capture_met<S: PartialEq>(
    condition: CaptureCondition,
    any_occupied: bool,
    occupied: impl FnOnce() -> S,
    facing: S,
) -> bool {
    match condition {
        CaptureCondition::Any => any_occupied,
        CaptureCondition::Both => any_occupied && occupied() == facing,
    }
}

impl Variant {
    /// Counts and sows the lap `state` stands before, from `table` (the move's loop, or
    /// the loop sown clockwise), and says where it ended.
    #[inline(always)]
    pub(super) fn sow_lap<K: MoveRules>(
        &self,
        k: K,
        frame: &MoveFrame,
        table: &LoopTable,
        state: &mut LapState,
    ) -> LapEnd {
        state.laps += 1;
        if state.laps > k.max_laps() {
            return LapEnd::TooLong;
        }
        let (sown, end) = table.sow(state.mine, state.from, state.seeds);
        state.mine = sown;
        if ring::lane(sown, end) == 1 {
            return LapEnd::Empty;
        }
        let origin = capture_origin(k.sow_from(), state.from, end, frame.pit);
        let take = capturable(k, &frame.spots[end], state.theirs);
        LapEnd::Turning { end, origin, take }
    }

    /// Takes the `take` seeds facing `end` (the capture at a turning point) into hand,
    /// to be sown from `origin`; under `capture_ends_move` sows them, ending the move.
    #[inline(always)]
    pub(super) fn take_capture<K: MoveRules>(
        &self,
        k: K,
        frame: &MoveFrame,
        state: &mut LapState,
        (end, origin, take): (usize, usize, u32),
    ) -> Taken {
        state.theirs &= !frame.spots[end].mask;
        state.captured += take;
        (state.mine, state.seeds) = capture_lap(k, state.mine, origin, take);
        state.from = origin;
        if !k.capture_ends_move() {
            return Taken::SowOn;
        }
        state.laps += 1;
        if state.laps > k.max_laps() {
            return Taken::TooLong;
        }
        state.mine = frame.table.sow(state.mine, origin, state.seeds).0;
        Taken::Ended
    }
}

/// The lap that sows `take` captured seeds after `origin`: the mover's ring once they
/// are in hand, and how many there are. Under `lap-start-pit` the origin pit's own seeds
/// are lifted with them.
#[inline(always)]
pub(crate) fn capture_lap(k: impl MoveRules, mine: Ring, origin: usize, take: u32) -> (Ring, u32) {
    if k.sow_from() == SowOrigin::LapStartPit {
        let held = ring::lane(mine, origin) as u32;
        (ring::clear_lane(mine, origin), take + held)
    } else {
        (mine, take)
    }
}
