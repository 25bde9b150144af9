//! Moves played one decision at a time, for searchers that make each decision a ply of
//! its own: no list of a position's moves is built, so none is cut short however many
//! sequences the choices open, and a searcher can prune among a pit's sequences as among
//! its pits; and for players that decide one at a time, shown the board as sown so far.
//! The decisions are the mover's take or pass at a capture opportunity (where captures
//! are optional; forced ones are taken on the way), the direction of a lap that may turn
//! and, under `clockwise_leave`, whether a clockwise capture is sown on or left
//! (RULES.md 3.7), and under the retreat (RULES.md 3.4) the opponent's answer to a pass,
//! a decision of the other side (`MoveStep::Answer`).
//!
//! A walk starts a move from a pit (`Variant::begin_move`), sows up to the next
//! decision, and stops there with a `ChoicePoint`; `Variant::choose` takes its first or
//! second option and sows on. The walk keeps the move's path of turning points, so a sequence
//! that comes back to one (RULES.md 3.5) dies, naming the point it came back to; that is
//! what a searcher needs to know before it may store a choice point's value apart from
//! the path that led there. Walking every branch first option first gives exactly the
//! moves of `Variant::legal_moves`, in its order.

use super::lap::{LapState, Taken};
use super::machine::{LapEvent, MoveMachine, Offer};
use super::rule_set::{with_move_rules, MoveKernel, MoveRules, ReadMoveRules};
use super::{Board, MoveGen, TurningPath, Variant};
use crate::interrupt::{Interrupt, LapPoll};
use crate::notation::{Choice, Move};
use crate::ring;
use crate::side::Side;

/// What is decided at a choice point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum PointKind {
    /// The mover takes or passes the capture where the lap ended.
    Capture,
    /// The opponent answers the mover's pass: retreat or stay (`retreat`).
    Answer,
    /// The mover sows the next lap anticlockwise or clockwise (RULES.md 3.7).
    Direction,
    /// The mover sows on the seeds a clockwise lap captured, or leaves them and sows
    /// the other clockwise pit (`clockwise_leave`, RULES.md 3.7).
    Leave,
}

/// A move stopped at a decision: the mover's take or pass at a capture opportunity,
/// the direction of a lap that may turn, or the opponent's answer to a pass.
#[derive(Clone, Copy, Debug)]
pub struct ChoicePoint {
    /// After the lap that ended at `end`, before the choice (at a direction point, the
    /// lap about to be sown).
    state: LapState,
    end: u8,
    origin: u8,
    /// The chosen pit's lane.
    pit: u8,
    /// Overture flags after the move.
    overture: u8,
    /// Whether the mover sows round the full loop (not the overture loop).
    full_loop: bool,
    /// The capture table the move uses (`Geometry::capture`).
    spots: u8,
    /// The capture table were the move free to capture (`clockwise_when`).
    facing: u8,
    to_move: Side,
    /// Seeds a take captures.
    take: u32,
    /// This point's place on the move's path of turning points (a direction point's:
    /// the place of the next point, for it stands before its lap).
    index: u32,
    /// Whether the move wins by `capture_win` if it empties the opponent's front-row
    /// end pits (both held seeds when it began).
    ends_at_stake: bool,
    /// What is decided here.
    kind: PointKind,
}

/// Salt that keeps choice-point keys apart from position hashes.
const CHOICE_SALT: u64 = 0x6a09_e667_f3bc_c908;

impl ChoicePoint {
    /// A 64-bit key of everything the rest of the move can depend on (both sides'
    /// seeds, where the lap ended, where a capture would resow from, the pit the move
    /// started from, the loop, the side, what `capture_win` wants): two points with one
    /// key have the same continuations, whatever choices led to them.
    pub fn key(&self) -> u64 {
        let board = self.board();
        let fields = (self.end as u64)
            | (self.origin as u64) << 8
            | (self.pit as u64) << 16
            | (self.full_loop as u64) << 24
            | (self.spots as u64) << 25
            | (self.ends_at_stake as u64) << 27
            | (self.kind as u64) << 28;
        // A direction point stands before its lap: the lap and what it may turn on too.
        let fields = if self.kind == PointKind::Direction {
            fields
                | (self.facing as u64) << 30
                | (self.state.from as u64) << 32
                | (self.state.seeds as u64) << 40
        } else {
            fields
        };
        // Under `clockwise_laps = "first-sowing"`, which laps may still turn.
        let fields = fields | (self.state.turned as u64) << 56;
        crate::board::mix(board.hash() ^ CHOICE_SALT ^ fields.wrapping_mul(CHOICE_SALT | 1))
    }

    /// Laps sown so far.
    pub fn laps(&self) -> u32 {
        self.state.laps
    }

    /// Seeds captured so far.
    pub fn captured(&self) -> u32 {
        self.state.captured
    }

    /// Seeds a take would capture.
    pub fn capturable(&self) -> u32 {
        self.take
    }

    /// The chosen pit (1-based).
    pub fn pit(&self) -> u8 {
        self.pit + 1
    }

    /// The mover's pit (1-based) where the last lap ended: where the capture would be.
    pub fn end_pit(&self) -> u8 {
        self.end + 1
    }

    /// The mover's pit (1-based) the next lap is lifted from: at a direction point, the
    /// lap whose direction is chosen.
    pub fn lap_pit(&self) -> u8 {
        self.state.from as u8 + 1
    }

    /// The position as sown up to this choice, the mover still to move.
    pub fn board(&self) -> Board {
        let rings = crate::board::rings_of(self.to_move, self.state.mine, self.state.theirs);
        Board::from_parts(rings, self.to_move, self.overture)
    }

    /// The position as it stands at this choice with every seed on the board: at a
    /// direction point the seeds about to be sown (lifted, or captured) are counted in
    /// the pit they are sown from (`lap_pit`); elsewhere `board`.
    pub fn board_in_full(&self) -> Board {
        if self.kind != PointKind::Direction {
            return self.board();
        }
        let from = self.state.from;
        let held = u32::from(ring::lane(self.state.mine, from)) + self.state.seeds;
        let mine = ring::set_lane(self.state.mine, from, held.min(255) as u8);
        let rings = crate::board::rings_of(self.to_move, mine, self.state.theirs);
        Board::from_parts(rings, self.to_move, self.overture)
    }

    /// The letter of the first (`first`) or second option here: take or pass, at a
    /// direction point anticlockwise or clockwise, at a leave point sow on or leave, or
    /// at an answer point retreat or stay.
    pub fn option(&self, first: bool) -> Choice {
        match (self.kind, first) {
            (PointKind::Capture, _) => Choice::capture(first),
            (PointKind::Answer, _) => Choice::answer(first),
            (PointKind::Direction, true) => Choice::Anticlockwise,
            (PointKind::Direction, false) => Choice::Clockwise,
            (PointKind::Leave, true) => Choice::SowOn,
            (PointKind::Leave, false) => Choice::Leave,
        }
    }

    /// This point's place on the move's path of turning points (0 = the first).
    pub fn index(&self) -> usize {
        self.index as usize
    }

    /// What is decided here.
    pub(super) fn kind(&self) -> PointKind {
        self.kind
    }

    /// Whether the capture here was passed and the opponent answers it (retreat or
    /// stay; `MoveStep::Answer`), rather than the mover choosing take or pass.
    pub fn passed(&self) -> bool {
        self.kind == PointKind::Answer
    }

    /// Whether the mover chooses the next lap's direction here (anticlockwise or
    /// clockwise, RULES.md 3.7) rather than a capture's take or pass.
    pub fn is_direction(&self) -> bool {
        self.kind == PointKind::Direction
    }
}

/// Where a walk stands after sowing up to the next choice.
#[derive(Clone, Copy, Debug)]
pub enum MoveStep {
    /// The move ended here.
    End {
        /// The position it leads to.
        child: Board,
        /// Laps sown.
        laps: u32,
        /// Seeds captured.
        captured: u32,
    },
    /// A decision of the mover's comes next: take or pass, or a lap's direction.
    Choice(ChoicePoint),
    /// The mover passed a capture and the opponent answers it, retreat or stay
    /// (`retreat`): a choice of the other side inside the move.
    Answer(ChoicePoint),
    /// No legal move goes this way.
    Dead {
        /// The place on the path of the turning point the sequence came back to, or
        /// `None` if it would pass `max_laps` laps (or the walk was interrupted).
        repeated: Option<usize>,
    },
}

/// The path of turning points of a move being walked; reused from move to move.
#[derive(Debug, Default)]
pub struct MoveWalk {
    path: TurningPath,
    /// The caller's interrupt, checked as laps are sown.
    poll: LapPoll,
}

impl MoveWalk {
    /// A walk with empty buffers.
    pub fn new() -> MoveWalk {
        MoveWalk::default()
    }

    /// This walk ending each step where it is once `interrupt` is raised: the step is
    /// then `MoveStep::Dead` (no move), and `interrupted` says why.
    pub fn with_interrupt(mut self, interrupt: Interrupt) -> MoveWalk {
        self.poll = LapPoll::new(interrupt);
        self
    }

    /// Whether the interrupt has ended a step of this walk.
    pub fn interrupted(&self) -> bool {
        self.poll.stopped()
    }
}

impl Variant {
    /// Starts the move from `pit` (1-based; a pit `candidate_pits` allows), sowing up to
    /// its first decision or its end. Under forced captures the only decisions are lap
    /// directions and leaving a clockwise capture (RULES.md 3.7): captures are taken on
    /// the way.
    pub fn begin_move(&self, board: &Board, pit: u8, walk: &mut MoveWalk) -> MoveStep {
        let lane = (pit - 1) as usize;
        debug_assert!(self.candidate_pits(board) & (1 << lane) != 0);
        let me = board.to_move;
        let opp = me.opponent();
        let (full_loop, overture) = self.loop_of_move(board, me, lane);
        let spots = self.capture_table(board, me) as u8;
        let facing = self.facing_table(board, me) as u8;
        let state = LapState::first(lane, (board.ring(me), board.ring(opp)));
        let point = ChoicePoint {
            state,
            end: 0,
            origin: 0,
            pit: lane as u8,
            overture,
            full_loop,
            spots,
            to_move: me,
            take: 0,
            index: 0,
            ends_at_stake: self.ends_at_stake(board.ring(opp)),
            kind: PointKind::Capture,
            facing,
        };
        walk.path.truncate(0);
        self.sow_to_choice(&point, state, None, walk)
    }

    /// Takes (`take`) or passes at `point` and sows on to the next choice or the end
    /// (or, under `retreat`, stops for the opponent's answer to the pass). Forgets the
    /// path walked past `point`, so a point's two branches can be walked one after the
    /// other.
    pub(crate) fn continue_move(
        &self,
        point: &ChoicePoint,
        take: bool,
        walk: &mut MoveWalk,
    ) -> MoveStep {
        debug_assert!(
            point.kind == PointKind::Capture,
            "another point takes `choose`"
        );
        walk.path.truncate(point.index as usize + 1);
        if !take {
            return match self
                .read_machine(point)
                .pass(&point.state, point.end as usize)
            {
                (_, Some(_)) => MoveStep::Answer(ChoicePoint {
                    kind: PointKind::Answer,
                    ..*point
                }),
                (stay, None) => self.sow_to_choice(point, stay, None, walk),
            };
        }
        self.sow_capture_on(point, walk)
    }

    /// Takes the capture at `point` and sows its seeds on to the next choice or the end.
    fn sow_capture_on(&self, point: &ChoicePoint, walk: &mut MoveWalk) -> MoveStep {
        match self.take_at_point(point) {
            Ok(state) => self.sow_to_choice(point, state, None, walk),
            Err(step) => step,
        }
    }

    /// The capture at `point` taken: the lap state that sows the captured seeds on, or
    /// where the move stops (`capture_ends_move`: the captured seeds' lap ends it).
    fn take_at_point(&self, point: &ChoicePoint) -> Result<LapState, MoveStep> {
        let mut state = point.state;
        let capture = (point.end as usize, point.origin as usize, point.take);
        match self.read_machine(point).take(&mut state, capture) {
            Taken::SowOn => Ok(state),
            Taken::Ended => Err(self.ended(point, state)),
            Taken::TooLong => Err(MoveStep::Dead { repeated: None }),
        }
    }

    /// The move machine of `point`'s move, with the move rules `k`.
    fn point_machine<K: MoveRules>(&self, k: K, point: &ChoicePoint) -> MoveMachine<'_, K> {
        let tables = (point.spots as usize, point.facing as usize);
        self.machine(k, point.pit as usize, point.full_loop, tables)
    }

    /// `point_machine` with the rules read at run time, for a decision (not a lap's loop).
    fn read_machine(&self, point: &ChoicePoint) -> MoveMachine<'_, ReadMoveRules> {
        self.point_machine(MoveKernel::read(&self.rules), point)
    }

    /// The opponent's answer at `point` (a `MoveStep::Answer`): it retreats (`retreat`)
    /// or stays, and the mover relays on to the next choice or the end.
    pub fn answer_pass(&self, point: &ChoicePoint, retreat: bool, walk: &mut MoveWalk) -> MoveStep {
        debug_assert!(
            point.kind == PointKind::Answer,
            "another point takes `choose`"
        );
        walk.path.truncate(point.index as usize + 1);
        let (stay, retreated) = self
            .read_machine(point)
            .pass(&point.state, point.end as usize);
        let lap = match retreated {
            Some(retreated) if retreat => retreated,
            _ => {
                debug_assert!(!retreat, "an answer point has a retreat open");
                stay
            }
        };
        self.sow_to_choice(point, lap, None, walk)
    }

    /// Where the last seed of the lap `point` stands before falls sown anticlockwise,
    /// and sown clockwise (the mover's pits).
    pub(super) fn lap_ends(&self, point: &ChoicePoint) -> [u8; 2] {
        let tables = [
            self.loop_table(point.full_loop),
            self.clockwise_table(point.full_loop),
        ];
        tables.map(|table| table.lap_end(point.state.from, point.state.seeds).0 as u8 + 1)
    }

    /// The capture spot of the pit where `point`'s lap ended.
    pub(super) fn spot_at(&self, point: &ChoicePoint) -> &super::CaptureSpot {
        &self.geo.capture[point.spots as usize][point.end as usize]
    }

    /// Plays `mv`'s pit and then its choices, one for each decision met (a take or a
    /// pass, and the opponent's answer to a pass under `retreat`): where the walk stands
    /// once they are used up (`End` only if the move ends right there), or `None` if the
    /// move ends or dies before they are, or makes a choice of the wrong kind.
    pub fn walk_choices(&self, board: &Board, mv: &Move, walk: &mut MoveWalk) -> Option<MoveStep> {
        let mut step = self.begin_move(board, mv.pit, walk);
        for &choice in &mv.choices {
            let (MoveStep::Choice(point) | MoveStep::Answer(point)) = step else {
                return None;
            };
            let first = match choice {
                _ if choice == point.option(true) => true,
                _ if choice == point.option(false) => false,
                _ => return None,
            };
            step = self.choose(&point, first, walk);
        }
        Some(step)
    }

    /// Where `mv` stops if it is a move half made under the retreat (RULES.md 3.4): its
    /// letters are legal so far, a decision is still to come (the mover's, or the
    /// opponent's answer) and some legal move follows. `None` if the rules have no
    /// retreat, or `mv` is whole, not legal, leads to no legal move, or begins from a pit
    /// that cannot start a move.
    pub fn half_made(&self, board: &Board, mv: &Move, walk: &mut MoveWalk) -> Option<MoveStep> {
        if !self.has_retreat() {
            return None;
        }
        self.move_begun(board, mv, walk)
    }

    /// Where `mv` stops if it is a move begun, under any rules: its letters are legal so
    /// far, a decision is still to come and some legal move follows (for players who
    /// make a move one decision at a time). `None` if `mv` is whole, not legal, leads to
    /// no legal move, or begins from a pit that cannot start a move.
    pub fn move_begun(&self, board: &Board, mv: &Move, walk: &mut MoveWalk) -> Option<MoveStep> {
        self.starting_lane(board, mv.pit)?;
        let (step, point) = match self.walk_choices(board, mv, walk)? {
            step @ (MoveStep::Choice(point) | MoveStep::Answer(point)) => (step, point),
            MoveStep::End { .. } | MoveStep::Dead { .. } => return None,
        };
        match self.first_completion(&point, walk, usize::MAX) {
            Completion::Found(..) => Some(step),
            Completion::None | Completion::Unknown => None,
        }
    }

    fn ended(&self, point: &ChoicePoint, state: LapState) -> MoveStep {
        let rings = crate::board::rings_of(point.to_move, state.mine, state.theirs);
        let mut flags = point.overture;
        if point.ends_at_stake && self.ends_taken(state.theirs) {
            flags |= crate::board::ENDS_CAPTURED;
        }
        MoveStep::End {
            child: Board::from_parts(rings, point.to_move.opponent(), flags),
            laps: state.laps,
            captured: state.captured,
        }
    }

    /// Sows laps from `state` (relays as they come) until the move ends, dies or meets a
    /// decision: a capture opportunity, or a lap that may turn (`turned`: the first
    /// lap's direction where already chosen). `move_of` gives the move's fixed facts.
    fn sow_to_choice(
        &self,
        move_of: &ChoicePoint,
        state: LapState,
        turned: Option<bool>,
        walk: &mut MoveWalk,
    ) -> MoveStep {
        with_move_rules!(self.kernel, k => {
            let m = self.point_machine(k, move_of);
            self.sow_to_choice_with(&m, move_of, state, turned, walk)
        })
    }

    /// `sow_to_choice` by the move machine `m`.
    fn sow_to_choice_with<K: MoveRules>(
        &self,
        m: &MoveMachine<K>,
        move_of: &ChoicePoint,
        mut state: LapState,
        mut turned: Option<bool>,
        walk: &mut MoveWalk,
    ) -> MoveStep {
        loop {
            let clockwise = match turned.take() {
                Some(clockwise) => clockwise,
                None if m.may_turn(&state) => {
                    return MoveStep::Choice(ChoicePoint {
                        state,
                        end: 0,
                        origin: 0,
                        take: 0,
                        index: walk.path.len() as u32,
                        kind: PointKind::Direction,
                        ..*move_of
                    });
                }
                None => false,
            };
            if !walk.poll.lap() {
                return MoveStep::Dead { repeated: None };
            }
            let at = match m.sow(&mut state, clockwise) {
                LapEvent::TooLong => return MoveStep::Dead { repeated: None },
                LapEvent::Ended => return self.ended(move_of, state),
                LapEvent::Turning(at) => at,
            };
            if let Some(at) = walk.path.find_or_insert(at.point) {
                return MoveStep::Dead { repeated: Some(at) };
            }
            let decided = |kind| {
                MoveStep::Choice(ChoicePoint {
                    state,
                    end: at.end as u8,
                    origin: at.origin as u8,
                    take: at.take,
                    index: (walk.path.len() - 1) as u32,
                    kind,
                    ..*move_of
                })
            };
            match at.offer {
                Offer::TakeOrPass => return decided(PointKind::Capture),
                Offer::SowOnOrLeave(_) => return decided(PointKind::Leave),
                Offer::Relay | Offer::Take => match m.go_on(&mut state, &at) {
                    Taken::SowOn => {}
                    Taken::Ended => return self.ended(move_of, state),
                    Taken::TooLong => return MoveStep::Dead { repeated: None },
                },
            }
        }
    }
}

/// What a search for one completion of a move found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Completion {
    /// The first legal completion, take before pass: its further choices and result.
    Found(Vec<Choice>, Board),
    /// No legal move continues from the point.
    None,
    /// The search gave up after its budget of steps.
    Unknown,
}

impl Variant {
    /// The first legal completion of the move at `point`, take before pass, trying at
    /// most `budget` choices: a quick check that a choice point leads somewhere (nearly
    /// always the first sequence tried ends the move).
    pub fn first_completion(
        &self,
        point: &ChoicePoint,
        walk: &mut MoveWalk,
        budget: usize,
    ) -> Completion {
        let mut choices = Vec::new();
        let mut tried = 0;
        match self.complete_from(point, walk, &mut choices, &mut tried, budget) {
            Some(Some(child)) => Completion::Found(choices, child),
            Some(None) => Completion::None,
            None => Completion::Unknown,
        }
    }

    /// Depth first below `point`, take before pass: `Some(Some(child))` when a
    /// completion is found (its choices in `choices`), `Some(None)` when there is none,
    /// `None` past the budget. A stack of its own, not recursion: a move may have as
    /// many choices as `max_laps` allows.
    fn complete_from(
        &self,
        point: &ChoicePoint,
        walk: &mut MoveWalk,
        choices: &mut Vec<Choice>,
        tried: &mut usize,
        budget: usize,
    ) -> Option<Option<Board>> {
        // Each point on the way down with the option it tries next (`None`: both tried).
        let mut stack = vec![(*point, Some(true))];
        while let Some((at, next)) = stack.last_mut() {
            let Some(take) = *next else {
                stack.pop();
                if !stack.is_empty() {
                    // The choice that led to the point just left.
                    choices.pop();
                }
                continue;
            };
            *next = take.then_some(false);
            let at = *at;
            *tried += 1;
            if *tried > budget {
                return None;
            }
            choices.push(at.option(take));
            match self.choose(&at, take, walk) {
                MoveStep::End { child, .. } => return Some(Some(child)),
                MoveStep::Dead { .. } => {
                    choices.pop();
                }
                MoveStep::Choice(deeper) | MoveStep::Answer(deeper) => {
                    stack.push((deeper, Some(true)))
                }
            }
        }
        Some(None)
    }

    /// Takes the first (`first`) or second option at `point`: take or pass at a choice
    /// point, retreat or stay at an answer point.
    pub fn choose(&self, point: &ChoicePoint, first: bool, walk: &mut MoveWalk) -> MoveStep {
        match point.kind {
            PointKind::Capture => self.continue_move(point, first, walk),
            PointKind::Answer => self.answer_pass(point, first, walk),
            PointKind::Direction => {
                walk.path.truncate(point.index as usize);
                self.sow_to_choice(point, point.state, Some(!first), walk)
            }
            PointKind::Leave => self.sow_on_or_leave(point, first, walk),
        }
    }

    /// At a leave point, sows the captured seeds on (`sow_on`) or leaves them and sows
    /// the other clockwise pit clockwise.
    fn sow_on_or_leave(&self, point: &ChoicePoint, sow_on: bool, walk: &mut MoveWalk) -> MoveStep {
        walk.path.truncate(point.index as usize + 1);
        if sow_on {
            return self.sow_capture_on(point, walk);
        }
        let m = self.read_machine(point);
        let Offer::SowOnOrLeave(left) = m.offer(&point.state, point.end as usize, point.take, true)
        else {
            unreachable!("a leave point has the other pit's lap open");
        };
        self.sow_to_choice(point, left, Some(true), walk)
    }

    /// What taking and what passing at `point` lead to (`[take, pass]`; at an answer
    /// point retreating and staying): the first
    /// legal completion of each (its choices after that one), none, or unknown once a
    /// search spends `budget` choices. For players that choose one option at a time
    /// and must be offered only options that lead somewhere.
    pub fn option_completions(
        &self,
        point: &ChoicePoint,
        walk: &mut MoveWalk,
        budget: usize,
    ) -> [Completion; 2] {
        [true, false].map(|first| match self.choose(point, first, walk) {
            MoveStep::End { child, .. } => Completion::Found(Vec::new(), child),
            MoveStep::Dead { .. } => Completion::None,
            MoveStep::Choice(next) | MoveStep::Answer(next) => {
                self.first_completion(&next, walk, budget)
            }
        })
    }

    /// The pits that begin at least one legal move, one bit for each (bit `pit - 1`),
    /// exact under either capture choice.
    pub fn playable_pits(&self, board: &Board, gen: &mut MoveGen) -> u32 {
        self.first_move_of_each_pit(board, gen)
            .iter()
            .fold(0, |bits, m| bits | 1 << (m.mv.pit - 1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules_file::CaptureChoice;
    use crate::variant::TurningPoint;
    use crate::{LegalMove, Move};

    /// Every move by walking every branch, take first.
    fn walk_all(v: &Variant, board: &Board) -> Vec<LegalMove> {
        fn branch(
            v: &Variant,
            step: MoveStep,
            mv: &mut Move,
            walk: &mut MoveWalk,
            out: &mut Vec<LegalMove>,
        ) {
            match step {
                MoveStep::End {
                    child,
                    laps,
                    captured,
                } => out.push(LegalMove {
                    mv: mv.clone(),
                    child,
                    laps,
                    captured,
                }),
                MoveStep::Dead { .. } => {}
                MoveStep::Choice(point) | MoveStep::Answer(point) => {
                    for first in [true, false] {
                        mv.choices.push(point.option(first));
                        let next = v.choose(&point, first, walk);
                        branch(v, next, mv, walk, out);
                        mv.choices.pop();
                    }
                }
            }
        }
        let mut walk = MoveWalk::new();
        let mut out = Vec::new();
        let mut pits = v.candidate_pits(board);
        while pits != 0 {
            let pit = pits.trailing_zeros() as u8 + 1;
            pits &= pits - 1;
            let mut mv = Move {
                pit,
                choices: Vec::new(),
            };
            let step = v.begin_move(board, pit, &mut walk);
            branch(v, step, &mut mv, &mut walk, &mut out);
        }
        out
    }

    #[test]
    fn walking_every_choice_gives_the_legal_moves_in_order() {
        use CaptureChoice::{Forced, Optional};
        for (spec, retreat, captures) in [
            ("igisoro", crate::Retreat::None, Optional),
            ("isolo-women", crate::Retreat::None, Optional),
            ("igisoro", crate::Retreat::FrontToBack, Optional),
            ("kubuguza", crate::Retreat::None, Optional),
            ("kubuguza", crate::Retreat::FrontToBack, Optional),
            // Forced captures: the directions of laps alone are decided.
            ("kubuguza", crate::Retreat::None, Forced),
            ("ikibuguzo", crate::Retreat::None, Forced),
            ("ikibuguzo-opening-1", crate::Retreat::None, Forced),
            ("isolo-boys", crate::Retreat::None, Forced),
            ("igisoro", crate::Retreat::None, Forced),
        ] {
            let mut rules = crate::Rules::load(spec).unwrap();
            rules.capture_choice = captures;
            rules.retreat = retreat;
            for ends in [false, true] {
                rules.capture_ends_move = ends;
                let Ok(v) = Variant::new(rules.clone()) else {
                    // Clockwise laps need captures that do not end the move.
                    continue;
                };
                let mut board = v.start();
                for ply in 0..120 {
                    let legal = v.legal_moves(&board);
                    assert_eq!(
                        walk_all(&v, &board),
                        legal,
                        "{spec} {retreat:?} {captures:?} ends={ends} ply {ply}"
                    );
                    let Some(next) = legal.get(ply * 7 % legal.len().max(1)) else {
                        break;
                    };
                    board = next.child;
                }
            }
        }
    }

    #[test]
    fn walking_every_choice_under_clockwise_leave_gives_the_legal_moves_in_order() {
        let mut leaves = 0;
        for spec in ["ikibuguzo", "ikibuguzo-opening-1"] {
            let mut rules = crate::Rules::load(spec).unwrap();
            rules.clockwise_leave = crate::ClockwiseLeave::OtherPit;
            let v = Variant::new(rules).unwrap();
            let mut board = v.start();
            for ply in 0..120 {
                let legal = v.legal_moves(&board);
                assert_eq!(walk_all(&v, &board), legal, "{spec} ply {ply}");
                leaves += legal
                    .iter()
                    .filter(|m| m.mv.choices.contains(&Choice::Leave))
                    .count();
                let Some(next) = legal.get(ply * 7 % legal.len().max(1)) else {
                    break;
                };
                board = next.child;
            }
        }
        assert!(leaves >= 10, "{leaves} moves leave a capture");
    }

    /// Every proper prefix of a legal move with letters is half made exactly under the
    /// retreat; a whole move and a pit out of range never are.
    #[test]
    fn the_prefixes_of_legal_moves_are_the_moves_half_made() {
        let mut rules = crate::Rules::load("igisoro").unwrap();
        rules.capture_choice = CaptureChoice::Optional;
        let plain = Variant::new(rules.clone()).unwrap();
        rules.retreat = crate::Retreat::FrontToBack;
        let v = Variant::new(rules).unwrap();
        let mut walk = MoveWalk::new();
        let (mut board, mut checked) = (v.start(), 0);
        for ply in 0..80 {
            let legal = v.legal_moves(&board);
            for m in &legal {
                assert!(v.half_made(&board, &m.mv, &mut walk).is_none(), "{}", m.mv);
                for cut in 0..m.mv.choices.len() {
                    let half = Move {
                        pit: m.mv.pit,
                        choices: m.mv.choices[..cut].to_vec(),
                    };
                    assert!(v.half_made(&board, &half, &mut walk).is_some(), "{half}");
                    assert!(plain.half_made(&board, &half, &mut walk).is_none());
                    checked += 1;
                }
            }
            for pit in [0, 40] {
                let out = Move {
                    pit,
                    choices: vec![],
                };
                assert!(v.half_made(&board, &out, &mut walk).is_none());
            }
            let Some(next) = legal.get(ply * 7 % legal.len().max(1)) else {
                break;
            };
            board = next.child;
        }
        assert!(checked > 100, "{checked} prefixes");
    }

    #[test]
    fn the_first_completion_is_the_first_legal_move_through_the_point() {
        let v = Variant::load("igisoro").unwrap();
        let mut walk = MoveWalk::new();
        let mut board = v.start();
        let mut found = 0;
        for ply in 0..150 {
            let legal = v.legal_moves(&board);
            if legal.is_empty() {
                break;
            }
            for m in legal.iter().filter(|m| !m.mv.choices.is_empty()) {
                // The point before the move's first choice.
                let MoveStep::Choice(point) = v.begin_move(&board, m.mv.pit, &mut walk) else {
                    panic!("{} starts with a choice", m.mv);
                };
                let first = legal
                    .iter()
                    .find(|l| l.mv.pit == m.mv.pit && !l.mv.choices.is_empty())
                    .expect("this move at least");
                let expected = Completion::Found(first.mv.choices.clone(), first.child);
                assert_eq!(v.first_completion(&point, &mut walk, usize::MAX), expected);
                assert_eq!(
                    v.first_completion(&point, &mut walk, 0),
                    Completion::Unknown
                );
                found += 1;
            }
            board = legal[ply * 3 % legal.len()].child;
        }
        assert!(found > 20, "{found} moves with choices");
    }

    #[test]
    fn choice_keys_are_equal_exactly_when_the_continuations_are() {
        let v = Variant::load("igisoro").unwrap();
        let mut walk = MoveWalk::new();
        let mut seen: std::collections::HashMap<u64, (TurningPoint, u8, Side)> = Default::default();
        let mut board = v.start();
        let mut points = 0;
        for ply in 0..200 {
            let legal = v.legal_moves(&board);
            if legal.is_empty() {
                break;
            }
            let mut pits = v.candidate_pits(&board);
            while pits != 0 {
                let pit = pits.trailing_zeros() as u8 + 1;
                pits &= pits - 1;
                let mut step = v.begin_move(&board, pit, &mut walk);
                // Follow pass, take, pass... through the first few choices.
                for k in 0..6 {
                    let MoveStep::Choice(p) = step else { break };
                    points += 1;
                    let state = TurningPoint {
                        mine: p.state.mine,
                        theirs: p.state.theirs,
                        end: p.end,
                        origin: p.origin,
                    };
                    let facts = (state, p.pit, p.to_move);
                    assert_ne!(p.key(), board.hash());
                    if let Some(other) = seen.insert(p.key(), facts) {
                        assert_eq!(other, facts, "key collision");
                    }
                    step = v.continue_move(&p, k % 2 == 1, &mut walk);
                }
            }
            board = legal[ply * 5 % legal.len()].child;
        }
        assert!(points > 100, "{points} choice points");
    }

    /// Every move by choosing only pits `playable_pits` offers and options
    /// `option_completions` finds a completion for, checking that each leads somewhere.
    fn walk_open_options(v: &Variant, board: &Board) -> Vec<Move> {
        fn branch(v: &Variant, board: &Board, mv: &mut Move, out: &mut Vec<Move>) {
            let mut walk = MoveWalk::new();
            let point = match v.walk_choices(board, mv, &mut walk) {
                Some(MoveStep::End { .. }) => return out.push(mv.clone()),
                Some(MoveStep::Choice(point)) => point,
                other => panic!("{mv} was offered but leads to {other:?}"),
            };
            let options = v.option_completions(&point, &mut walk, usize::MAX);
            assert!(
                options.iter().any(|c| matches!(c, Completion::Found(..))),
                "{mv}"
            );
            for (take, completion) in [true, false].into_iter().zip(options) {
                if let Completion::Found(..) = completion {
                    mv.choices.push(Choice::capture(take));
                    branch(v, board, mv, out);
                    mv.choices.pop();
                }
            }
        }
        let mut out = Vec::new();
        let mut pits = v.playable_pits(board, &mut MoveGen::new());
        while pits != 0 {
            let pit = pits.trailing_zeros() as u8 + 1;
            pits &= pits - 1;
            if v.rules.capture_choice == CaptureChoice::Optional {
                branch(
                    v,
                    board,
                    &mut Move {
                        pit,
                        choices: Vec::new(),
                    },
                    &mut out,
                );
            } else {
                out.push(Move {
                    pit,
                    choices: Vec::new(),
                });
            }
        }
        out
    }

    #[test]
    fn choosing_open_options_one_at_a_time_gives_the_legal_moves() {
        for spec in ["igisoro", "isolo-women", "isolo-boys-capture-ends"] {
            let v = Variant::load(spec).unwrap();
            let mut board = v.start();
            for ply in 0..150 {
                let legal = v.legal_moves(&board);
                let moves: Vec<Move> = legal.iter().map(|m| m.mv.clone()).collect();
                assert_eq!(walk_open_options(&v, &board), moves, "{spec} ply {ply}");
                let Some(next) = legal.get(ply * 7 % legal.len().max(1)) else {
                    break;
                };
                board = next.child;
            }
        }
    }

    /// At the direction of a move's first lap, the board in full is the position
    /// before the move, and the lap's pit is the move's.
    #[test]
    fn a_first_laps_direction_shows_the_board_before_the_move() {
        let v = Variant::load("kubuguza").unwrap();
        let mut walk = MoveWalk::new();
        let (mut board, mut seen) = (v.start(), 0);
        for ply in 0..60 {
            let mut pits = v.candidate_pits(&board);
            while pits != 0 {
                let pit = pits.trailing_zeros() as u8 + 1;
                pits &= pits - 1;
                if let MoveStep::Choice(point) = v.begin_move(&board, pit, &mut walk) {
                    assert!(point.is_direction(), "captures are forced");
                    if point.index() > 0 {
                        continue; // A later lap's direction, after the first lap.
                    }
                    assert_eq!(point.lap_pit(), pit);
                    assert_eq!(
                        point.board_in_full(),
                        board,
                        "{}",
                        v.format_position(&board)
                    );
                    assert_eq!(point.board().seeds(board.to_move(), pit.into()), 0);
                    seen += 1;
                }
            }
            let legal = v.legal_moves(&board);
            let Some(next) = legal.get(ply * 7 % legal.len().max(1)) else {
                break;
            };
            board = next.child;
        }
        assert!(seen > 0, "no first lap may turn");
    }

    #[test]
    fn a_choice_point_shows_the_board_as_sown() {
        let v = Variant::load("igisoro").unwrap();
        let board = v.start();
        let mut walk = MoveWalk::new();
        let mut pits = v.candidate_pits(&board);
        while pits != 0 {
            let pit = pits.trailing_zeros() as u8 + 1;
            pits &= pits - 1;
            if let MoveStep::Choice(point) = v.begin_move(&board, pit, &mut walk) {
                let sown = point.board();
                assert_eq!(sown.to_move(), board.to_move());
                let total = |b: &Board| b.side_total(Side::South) + b.side_total(Side::North);
                assert_eq!(total(&sown), total(&board), "seeds are kept while sowing");
                assert!(
                    sown.seeds(board.to_move(), point.end_pit().into()) > 1,
                    "lap ends on seeds"
                );
            }
        }
    }
}
