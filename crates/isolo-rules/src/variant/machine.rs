//! The move machine: a move sown lap by lap, and what it offers where each lap ends on
//! seeds, decided here once for every walk of a move (RULES.md 3.3 to 3.7).
//!
//! A lap is sown anticlockwise, or clockwise where the machine says it may turn
//! (`may_turn`: a decision of direction before the lap). Where it ends in an empty pit
//! the move is over; where it ends on seeds (a turning point) the machine says what is
//! open there ([`Offer`]): a relay, a capture to take, a capture to take or pass (a pass
//! the opponent may answer by retreating), or a clockwise capture to sow on or leave.
//! The walks differ only in what they do with a decision: the forced walk has none, the
//! listings explore both options depth or breadth first, the stepwise walk stops and
//! asks. Each keeps its own check for a return to a turning point (RULES.md 3.5): the
//! forced walk Brent's, in O(1) memory, for its laps follow one another like a
//! function's iterates; walks with decisions the path's set of points, for a sequence
//! may come back to a point once and then choose another way.

use super::lap::{LapEnd, LapState, Taken};
use super::rule_set::MoveRules;
use super::{Board, MoveFrame, TurningPoint, Variant};
use crate::geometry::CaptureSpot;
use crate::ring::{self, LoopTable};
use crate::rules_file::ClockwiseLaps;

/// The clockwise loop and the capture table were the move free to capture, for a move
/// whose laps may turn (`Variant::may_sow_clockwise`).
pub(super) type Turns<'a> = (&'a LoopTable, &'a [CaptureSpot; ring::MAX_LANES]);

/// A move being walked: its variant, its rules (fixed for the presets), its loop and
/// capture tables, and where laps may turn the clockwise loop and the capture table were
/// the move free to capture.
#[derive(Clone, Copy)]
pub(super) struct MoveMachine<'a, K> {
    pub(super) variant: &'a Variant,
    pub(super) k: K,
    pub(super) frame: MoveFrame<'a>,
    pub(super) turns: Option<Turns<'a>>,
}

/// What a move offers where a lap ended on seeds.
#[derive(Clone, Copy, Debug)]
pub(super) enum Offer {
    /// Nothing to capture: the pit is lifted and relayed.
    Relay,
    /// A capture the mover must take.
    Take,
    /// A capture the mover may take or pass (`capture_choice = "optional"`); the
    /// opponent may answer a pass by retreating (`MoveMachine::pass`).
    TakeOrPass,
    /// A forced capture by a clockwise lap whose seeds the mover may leave, sowing the
    /// other clockwise pit clockwise instead (`clockwise_leave`): that lap.
    SowOnOrLeave(LapState),
}

/// A lap ended on seeds: the turning point, the capture facing it, what is offered.
#[derive(Clone, Copy, Debug)]
pub(super) struct Turning {
    pub(super) point: TurningPoint,
    pub(super) end: usize,
    /// The lane captured seeds would be sown after.
    pub(super) origin: usize,
    /// Seeds a take captures (0: none).
    pub(super) take: u32,
    pub(super) offer: Offer,
}

impl Turning {
    /// The capture as `take_capture` reads it.
    #[inline(always)]
    pub(super) fn capture(&self) -> (usize, usize, u32) {
        (self.end, self.origin, self.take)
    }
}

/// Where a lap left the move.
#[derive(Clone, Copy, Debug)]
pub(super) enum LapEvent {
    /// The lap was one more than `max_laps`: the move is endless, no move.
    TooLong,
    /// The last seed fell into an empty pit: the move is over.
    Ended,
    /// The last seed fell on seeds; the state stands after the lap, before whatever is
    /// offered there is done.
    Turning(Turning),
}

impl Variant {
    /// The move machine of a move from lane `pit` under the rules `k`, sown round the
    /// full loop or the overture's, with the capture tables `spots` (the move's) and
    /// `facing` (were the move free to capture, asked where laps may turn), as
    /// `Geometry::capture` numbers them.
    #[inline(always)]
    pub(super) fn machine<K: MoveRules>(
        &self,
        k: K,
        pit: usize,
        full_loop: bool,
        (spots, facing): (usize, usize),
    ) -> MoveMachine<'_, K> {
        MoveMachine {
            variant: self,
            k,
            frame: MoveFrame {
                table: self.loop_table(full_loop),
                spots: &self.geo.capture[spots],
                pit,
            },
            turns: k
                .turns()
                .then(|| (self.clockwise_table(full_loop), &self.geo.capture[facing])),
        }
    }

    /// The lane of `pit` (1-based) if the side to move at `board` may start a move
    /// there (`candidate_pits`).
    pub(super) fn starting_lane(&self, board: &Board, pit: u8) -> Option<usize> {
        let lane = (pit as usize).checked_sub(1)?;
        (lane < self.pits() && self.candidate_pits(board) >> lane & 1 != 0).then_some(lane)
    }

    /// The lanes of the opponent's pits that a capture at the mover's lane `end`, with
    /// capture spot `spot`, would take from (those holding seeds or not), front pit first.
    pub(super) fn capture_lanes(
        &self,
        spot: &CaptureSpot,
        end: usize,
    ) -> impl Iterator<Item = usize> {
        let mask = spot.mask;
        self.facing_lanes(end)
            .map_or([None, None], |(front, back)| [Some(front), Some(back)])
            .into_iter()
            .flatten()
            .filter(move |&lane| mask & ring::lane_mask(lane) != 0)
    }
}

impl<'a, K: MoveRules> MoveMachine<'a, K> {
    /// Whether the lap `state` stands before may be sown clockwise: a decision of its
    /// direction (RULES.md 3.7).
    #[inline(always)]
    pub(super) fn may_turn(&self, state: &LapState) -> bool {
        match self.turns {
            Some((clockwise, facing)) if self.k.turns() => {
                let tables = [self.frame.spots, facing];
                self.variant
                    .may_sow_clockwise(self.k, clockwise, tables, state)
            }
            _ => false,
        }
    }

    /// Sows the lap `state` stands before (`clockwise`: the other way round, where
    /// `may_turn` allowed it) and says where it left the move.
    #[inline(always)]
    pub(super) fn sow(&self, state: &mut LapState, clockwise: bool) -> LapEvent {
        let table = match self.turns {
            Some((table, _)) if clockwise => {
                if self.k.clockwise_laps() == ClockwiseLaps::FirstSowing {
                    state.turned = state.turned.after_clockwise(state.laps == 0);
                }
                table
            }
            _ => self.frame.table,
        };
        let (end, origin, take) = match self.variant.sow_lap(self.k, &self.frame, table, state) {
            LapEnd::TooLong => return LapEvent::TooLong,
            LapEnd::Empty => return LapEvent::Ended,
            LapEnd::Turning { end, origin, take } => (end, origin, take),
        };
        LapEvent::Turning(Turning {
            point: TurningPoint::at(state, end, origin),
            end,
            origin,
            take,
            offer: self.offer(state, end, take, clockwise),
        })
    }

    /// What the move offers at a turning point: the one place that decides it.
    #[inline(always)]
    pub(super) fn offer(&self, state: &LapState, end: usize, take: u32, clockwise: bool) -> Offer {
        if take == 0 {
            return Offer::Relay;
        }
        if self.k.optional() {
            return Offer::TakeOrPass;
        }
        if let Some((table, facing)) = self.turns.filter(|_| clockwise && self.k.turns()) {
            let tables = [self.frame.spots, facing];
            let spot = &self.frame.spots[end];
            if let Some(left) = self
                .variant
                .leave_lap(self.k, table, tables, state, spot, take)
            {
                return Offer::SowOnOrLeave(left);
            }
        }
        Offer::Take
    }

    /// Goes on through a turning point where the mover decides nothing: relays, or
    /// takes the forced capture (whose lap may end the move, or be too long).
    #[inline(always)]
    pub(super) fn go_on(&self, state: &mut LapState, at: &Turning) -> Taken {
        match at.offer {
            Offer::Relay => {
                *state = state.relay(at.end);
                Taken::SowOn
            }
            _ => self.take(state, at.capture()),
        }
    }

    /// Takes a capture, `(end, origin, take)` as a `Turning` holds it, into hand; under
    /// `capture_ends_move` sows it, ending the move.
    #[inline(always)]
    pub(super) fn take(&self, state: &mut LapState, capture: (usize, usize, u32)) -> Taken {
        self.variant
            .take_capture(self.k, &self.frame, state, capture)
    }

    /// Passes the capture at lane `end` (`state` after the lap that ended there): the
    /// relay lap, and where the opponent may retreat (`retreat`, RULES.md 3.4), the
    /// relay lap after its retreat.
    #[inline(always)]
    pub(super) fn pass(&self, state: &LapState, end: usize) -> (LapState, Option<LapState>) {
        let stay = state.relay(end);
        if !self.k.retreat() {
            return (stay, None);
        }
        let retreated = self
            .variant
            .retreated(&self.frame.spots[end], end, state.theirs)
            .map(|theirs| LapState { theirs, ..stay });
        (stay, retreated)
    }
}
