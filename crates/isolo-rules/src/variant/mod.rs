//! A variant: a rules set with the tables its fast board needs, what the walks of a
//! move share (the generator's buffers, a lap's capture tables, the retreat, the first
//! laps of the evaluation) and game end; the walks themselves and the listings built on
//! them are in `walks.rs`, positions and moves as text in `text.rs`.

use super::board::{rings_of, Board, ENDS_CAPTURED};
use super::fortress::Fortresses;
use super::geometry::{CaptureSpot, Geometry, CAPTURE_BARRED, CAPTURE_OPEN, CAPTURE_PROTECTED};
use super::interrupt::{Interrupt, LapPoll};
use super::notation::Move;
use super::notation::{Choice, MoveLetters};
use super::ring::{self, LoopTable, Ring};
use super::rules_file::{CaptureChoice, CaptureWin, Retreat, Rules, RulesError};
use crate::side::Side;

mod decision;
mod directed;
mod distinct;
mod fortresses;
mod lap;
mod machine;
mod path;
mod play;
mod position;
pub(crate) mod rule_set;
mod stepwise;
mod text;
mod trace;
mod walks;

use lap::{LapState, Taken};
use machine::{LapEvent, MoveMachine, Offer};
use path::{TurningPath, TurningPoint};
use rule_set::{with_move_rules, MoveKernel, MoveRules};

pub use decision::{Decision, DecisionKind, LapEnd};
pub use position::Position;
pub use stepwise::{ChoicePoint, Completion, MoveStep, MoveWalk};
pub use text::InvalidBoard;
pub use trace::{trace_move, trace_to_decision, Trace, TraceStep, TracedDecision};

/// A rules set with the tables its fast board needs.
#[derive(Clone, Debug)]
pub struct Variant {
    rules: Rules,
    geo: Geometry,
    /// The lanes a lap may be sown clockwise from (`clockwise_from`), as a bit set.
    clockwise: u32,
    /// The fortress table, built on first use (`fortresses`).
    fortresses: std::sync::OnceLock<Option<std::sync::Arc<Fortresses>>>,
    /// The instance of the move rules these rules are walked with.
    kernel: MoveKernel,
}

/// Everything the generator reports about one legal move.
#[derive(Clone, Copy, Debug)]
pub struct MoveOutcome<'a> {
    /// The chosen pit (1-based).
    pub pit: u8,
    /// The choices met, in order (take or pass, a lap's direction); empty where the
    /// rules offer none, and in the searchers' listings without choices.
    pub choices: &'a [Choice],
    /// The position the move leads to.
    pub child: Board,
    /// Laps sown: the first, every relay and every capture lap.
    pub laps: u32,
    /// Seeds taken from the opponent.
    pub captured: u32,
}

impl MoveOutcome<'_> {
    /// The move's notation (pit and choices).
    pub fn mv(&self) -> Move {
        Move {
            pit: self.pit,
            choices: self.choices.to_vec(),
        }
    }

    /// The move as an owned value with its result.
    pub fn to_legal_move(&self) -> LegalMove {
        LegalMove {
            mv: self.mv(),
            child: self.child,
            laps: self.laps,
            captured: self.captured,
        }
    }
}

/// What the first laps of a side's candidate pits do (see `Variant::first_laps`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FirstLaps {
    /// Pits whose first lap ends in an empty pit, ending the move.
    pub ends: u32,
    /// Pits whose first lap ends in a capture.
    pub captures: u32,
    /// Pits whose first lap ends in an occupied pit without a capture: a relay.
    pub relays: u32,
    /// The most seeds one of those first-lap captures takes.
    pub best_capture: u32,
    /// The pits whose first lap captures, as a bit set like `candidate_pits`.
    pub capturing: u32,
    /// The seeds each pit's first-lap capture takes (by lane; 0 for no capture, at most
    /// 255).
    pub takes: [u8; 16],
}

/// An owned legal move with its result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LegalMove {
    /// The move.
    pub mv: Move,
    /// The position it leads to.
    pub child: Board,
    /// Laps sown.
    pub laps: u32,
    /// Seeds captured.
    pub captured: u32,
}

/// How a move's laps have gone clockwise so far, as `clockwise_laps = "first-sowing"`
/// reads them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Turned {
    /// No lap clockwise yet.
    #[default]
    Not,
    /// The first lap went clockwise: any later lap may turn.
    FromFirst,
    /// The first lap went anticlockwise and a later one clockwise: no more may.
    Once,
}

impl Turned {
    /// After a lap sown clockwise: the move's `first` lap, or a later one.
    pub(crate) fn after_clockwise(self, first: bool) -> Turned {
        match self {
            Turned::Not if first => Turned::FromFirst,
            Turned::Not => Turned::Once,
            turned => turned,
        }
    }
}

/// The second option of a decision, still to be explored by a depth-first walk: the lap
/// it leads to, the choice that names it and the opponent's answer after it, and the
/// path and choices before the decision.
#[derive(Clone, Copy, Debug)]
struct Branch {
    state: LapState,
    /// Whether the lap goes clockwise (chosen already).
    clockwise: bool,
    choice: Choice,
    answer: Option<Choice>,
    path_len: usize,
    choices_len: usize,
}

/// Reusable buffers for move generation (optional captures explore a tree of choices).
#[derive(Debug)]
pub struct MoveGen {
    path: TurningPath,
    choices: Vec<Choice>,
    /// The second options still to explore, the latest last.
    branches: Vec<Branch>,
    /// The ends a pit's moves reached so far, for a distinct listing of such moves.
    seen_ends: Vec<(Ring, Ring)>,
    distinct: distinct::DistinctSearch,
    /// Most turning points the distinct-move search explores from one pit.
    point_limit: usize,
    /// Whether the limit binds before the pit has a move too.
    strict_limit: bool,
    /// Whether the last generation left turning points unexplored.
    truncated: bool,
    /// Laps a distinct listing may spend listing a pit's sequences before it searches
    /// breadth first instead.
    small_listing_laps: u64,
    /// The caller's interrupt, checked as laps are sown.
    poll: LapPoll,
}

impl Default for MoveGen {
    fn default() -> Self {
        MoveGen {
            path: TurningPath::default(),
            choices: Vec::new(),
            branches: Vec::new(),
            seen_ends: Vec::new(),
            distinct: distinct::DistinctSearch::default(),
            point_limit: usize::MAX,
            strict_limit: false,
            truncated: false,
            small_listing_laps: distinct::SMALL_LISTING_LAPS,
            poll: LapPoll::default(),
        }
    }
}

impl MoveGen {
    /// A generator that lists every move (no point limit).
    pub fn new() -> MoveGen {
        MoveGen::default()
    }

    /// A generator whose distinct-move listings explore at most `points` turning points
    /// from each pit once the pit has a move, so positions where optional captures open
    /// a vast number of results cost bounded time and memory. Those listings then hold
    /// the results of fewest laps (and at least one move from every pit that has one),
    /// and `truncated` tells when some were left out. Other listings, and
    /// `has_legal_move`, stay exact.
    pub fn with_point_limit(points: usize) -> MoveGen {
        MoveGen {
            point_limit: points.max(1),
            ..MoveGen::default()
        }
    }

    /// This generator with its point limit binding before a pit has a move too, so
    /// listing a pit whose moves all loop costs no more than any other: such a pit may
    /// then list nothing though it has moves, `truncated` saying so. For heuristics such
    /// as random playouts; `has_legal_move` stays exact.
    pub fn strict(mut self) -> MoveGen {
        self.strict_limit = true;
        self
    }

    /// This generator with distinct listings that go breadth first at once (or after
    /// `laps` laps of listing a pit's sequences, the default being 1,024): for tests and
    /// benchmarks of the two ways, which list the same positions.
    pub fn with_small_listing_laps(mut self, laps: u64) -> MoveGen {
        self.small_listing_laps = laps;
        self
    }

    /// Whether the last distinct-move listing left results out (see `with_point_limit`).
    pub fn truncated(&self) -> bool {
        self.truncated
    }

    /// This generator stopping its listings where they are once `interrupt` is raised:
    /// a listing then holds some of the moves only, and `interrupted` says so.
    pub fn with_interrupt(mut self, interrupt: Interrupt) -> MoveGen {
        self.poll = LapPoll::new(interrupt);
        self
    }

    /// Whether the interrupt stopped the last listing before it was complete: its moves
    /// (and `has_legal_move`, `count_moves`) are then a part of the position's only.
    pub fn interrupted(&self) -> bool {
        self.poll.stopped()
    }

    /// Leaves the second option of a decision met now for later: the lap `state`
    /// (`clockwise` or not) named by `choice`, and the opponent's `answer` after it.
    #[inline(always)]
    fn defer(&mut self, state: LapState, clockwise: bool, choice: Choice, answer: Option<Choice>) {
        self.branches.push(Branch {
            state,
            clockwise,
            choice,
            answer,
            path_len: self.path.len(),
            choices_len: self.choices.len(),
        });
    }

    /// Back to a choice of the sequence being explored, where the path of turning
    /// points had `path_len` points and the choices `choices_len`, to take `other`.
    #[inline(always)]
    fn back_to(&mut self, path_len: usize, choices_len: usize, other: Choice) {
        self.path.truncate(path_len);
        self.choices.truncate(choices_len);
        self.choices.push(other);
    }
}

/// How a generated move ended, before its child board is built.
#[derive(Clone, Copy)]
struct MoveEnd<'a> {
    pit: u8,
    choices: &'a [Choice],
    mine: Ring,
    theirs: Ring,
    overture: u8,
    laps: u32,
    captured: u32,
}

/// The fixed facts of one move being generated.
#[derive(Clone, Copy)]
struct MoveFrame<'a> {
    table: &'a LoopTable,
    spots: &'a [CaptureSpot; ring::MAX_LANES],
    pit: usize,
}

/// Which of a position's moves a listing visits (`Variant::visit_moves`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Listing {
    /// Every legal move: every sequence of choices, by pit, the first option (take,
    /// anticlockwise, sow on) before the second.
    Sequences,
    /// One move for each distinct position a pit's moves lead to, with the choices of
    /// one move that reaches it. Under forced captures this is every legal move. Under
    /// optional captures it skips the many sequences that lead to one position: a pit
    /// with few sequences keeps the first of each position; otherwise a breadth-first
    /// search over turning points finds each position by its move of fewest laps, at a
    /// cost in distinct turning points rather than in sequences (which can run to tens
    /// of millions in Igisoro). A generator's point limit bounds it
    /// (`MoveGen::with_point_limit`).
    Distinct,
    /// As `Distinct`, without the choices (`MoveOutcome::choices` is empty): for
    /// searchers, which need the positions and name only the moves they report.
    Results,
}

/// What a move visitor returns (`Variant::visit_moves`): `()` or `true` to go on,
/// `false` to stop.
pub trait GoOn {
    /// Whether the listing goes on.
    fn go_on(self) -> bool;
}

impl GoOn for () {
    fn go_on(self) -> bool {
        true
    }
}

impl GoOn for bool {
    fn go_on(self) -> bool {
        self
    }
}

impl Listing {
    /// Whether each position is visited once per pit (`Distinct` or `Results`).
    fn is_distinct(self) -> bool {
        self != Listing::Sequences
    }

    /// Whether a move's choices are reported.
    fn with_choices(self) -> bool {
        self != Listing::Results
    }
}

/// Laps of a forced move sown in a loop of their own before its turning points are
/// checked for a return: nearly every move ends sooner (perft of the women's preset: 3.2
/// laps a move); an endless one is found a few of its cycles later. (The women's perft
/// measured 1.2x with the check from the 8th lap, 1.3x from the 64th, no more from the
/// 256th.)
const UNCHECKED_FORCED_LAPS: u32 = 64;

/// How a forced move ended: `(mine, theirs, laps, captured)`, or `None` if endless.
type Played = Option<(Ring, Ring, u32, u32)>;

/// Where one lap of a forced move left it.
enum ForcedLap {
    Ended,
    TooLong,
    /// The move goes on from the turning point where the lap ended.
    On(TurningPoint),
}

impl Variant {
    /// Compiles validated rules.
    pub fn new(rules: Rules) -> Result<Variant, RulesError> {
        rules.validate()?;
        let geo = Geometry::new(rules.columns);
        let clockwise = rules
            .clockwise_from
            .iter()
            .fold(0, |lanes, &pit| lanes | 1 << (pit - 1));
        Ok(Variant {
            kernel: MoveKernel::for_rules(&rules),
            rules,
            geo,
            clockwise,
            fortresses: std::sync::OnceLock::new(),
        })
    }

    /// The rings of a few seeds that can hold out for ever under these rules
    /// (`fortress`), `None` where the rules allow none; built once per rules.
    pub fn fortresses(&self) -> Option<&Fortresses> {
        self.fortresses
            .get_or_init(|| Fortresses::of(self))
            .as_deref()
    }

    /// The side whose seeds are sealed on `board` (`Fortresses::dead`): a dead position,
    /// where no seed can ever change hands again. A game lost by `capture_win` is over,
    /// not dead.
    pub fn dead_side(&self, board: &Board) -> Option<Side> {
        if board.ends_captured() {
            return None;
        }
        self.fortresses()?.dead(board)
    }

    /// A preset name or rules-file path.
    pub fn load(spec: &str) -> Result<Variant, RulesError> {
        Variant::new(Rules::load(spec)?)
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The same game without the long-game rule (`long_game_plies = 0`, RULES.md 3.6),
    /// where these rules have it: what the provers solve, whose positions carry no
    /// count of plies without a capture.
    pub fn without_long_game(&self) -> Option<Variant> {
        if self.rules.long_game_plies == 0 {
            return None;
        }
        let mut rules = self.rules.clone();
        rules.long_game_plies = 0;
        Some(Variant::new(rules).expect("the rules less a rule hold together"))
    }
    /// The rules' name.
    pub fn name(&self) -> &str {
        &self.rules.name
    }
    /// Columns of the board (W).
    pub fn columns(&self) -> u8 {
        self.rules.columns
    }
    /// Pits per side (2W).
    pub fn pits(&self) -> usize {
        self.rules.pits()
    }

    /// The start position: South to move, both in overture where the rules have one,
    /// the first moves that may not capture still to come.
    pub fn start(&self) -> Board {
        let overture = if self.rules.overture { 3 } else { 0 };
        let first_moves = self.rules.first_move_captures.start_flags();
        Board::from_pits(self.rules.start, Side::South, overture | first_moves << 2)
    }

    /// Whether positions carry first-move flags (RULES.md 6): the rules bar some first
    /// moves' captures.
    pub fn has_first_move_flags(&self) -> bool {
        self.rules.first_move_captures.start_flags() != 0
    }

    /// Whether a capture can win the game (`capture_win`), so that positions carry the
    /// lost flag (RULES.md 6).
    pub fn has_capture_win(&self) -> bool {
        self.rules.capture_win != CaptureWin::None
    }

    /// Whether a move by the side whose opponent's ring is `theirs` can win by
    /// `capture_win`: the rules say so and both the opponent's front-row end pits hold
    /// seeds.
    #[inline(always)]
    fn ends_at_stake(&self, theirs: Ring) -> bool {
        let [right, left] = self.front_ends().map(|lane| ring::lane(theirs, lane));
        self.has_capture_win() && right > 0 && left > 0
    }

    /// Whether a move that leaves the opponent `theirs` took both their front-row end
    /// pits (at stake before it: `ends_at_stake`).
    #[inline(always)]
    fn ends_taken(&self, theirs: Ring) -> bool {
        self.front_ends()
            .iter()
            .all(|&lane| ring::lane(theirs, lane) == 0)
    }

    /// The lanes of a side's front-row end pits: pit `W+1` (its right end) and `2W`.
    #[inline(always)]
    fn front_ends(&self) -> [usize; 2] {
        [self.geo.front_right, self.pits() - 1]
    }

    /// Whether searchers walk a move's choices one at a time (`begin_move`): captures are
    /// optional, so a walk meets take/pass choices, the directions of laps that may turn
    /// and the opponent's answers under `retreat`, and a pit's sequences can be too many
    /// to list. (Under forced captures a pit has few sequences, and they are listed.)
    pub fn walks_choices(&self) -> bool {
        self.rules.capture_choice == CaptureChoice::Optional
    }

    /// Whether some laps may be sown clockwise (`clockwise_from`), so that moves carry
    /// direction choices.
    pub fn has_directions(&self) -> bool {
        self.clockwise != 0
    }

    /// The letters this variant's moves carry after their pit number (RULES.md 7).
    pub fn move_letters(&self) -> MoveLetters {
        MoveLetters {
            captures: self.rules.capture_choice == CaptureChoice::Optional,
            directions: self.has_directions(),
            answers: self.has_retreat(),
            leaves: self.has_leave(),
        }
    }

    /// Whether a clockwise capture's seeds may be left while the other clockwise pit
    /// sows (`clockwise_leave`, RULES.md 3.7).
    pub(crate) fn has_leave(&self) -> bool {
        self.rules.clockwise_leave == crate::ClockwiseLeave::OtherPit
    }

    /// Whether the opponent may answer a passed capture by retreating (`retreat`): its
    /// answers are letters of the mover's moves (RULES.md 3.4).
    pub fn has_retreat(&self) -> bool {
        self.rules.retreat != Retreat::None
    }

    /// The opponent's lanes facing the mover's lane `end`, its front pit's then the back
    /// pit's behind it; `None` for a lane of the mover's back row, which faces none.
    #[inline(always)]
    fn facing_lanes(&self, end: usize) -> Option<(usize, usize)> {
        let w = self.rules.columns as usize;
        let back = end.checked_sub(w)?;
        Some((3 * w - 1 - end, back))
    }

    /// The opponent's ring once it has retreated from a capture passed at the mover's
    /// lane `end` (its front pit facing `end` emptied into the back pit behind it), or
    /// `None` where no retreat is open: the rules have none, or that front pit is not
    /// among the capture's pits or is empty.
    #[inline(always)]
    fn retreated(&self, spot: &CaptureSpot, end: usize, theirs: Ring) -> Option<Ring> {
        if self.rules.retreat == Retreat::None {
            return None;
        }
        let (front, back) = self.facing_lanes(end)?;
        if spot.mask & ring::lane_mask(front) == 0 {
            return None;
        }
        let seeds = ring::lane(theirs, front);
        if seeds == 0 {
            return None;
        }
        let held = ring::lane(theirs, back);
        Some(ring::set_lane(
            ring::clear_lane(theirs, front),
            back,
            held + seeds,
        ))
    }

    /// Bit set of the pits (bit `i` = pit `i + 1`) the side to move may start a move
    /// from: enough seeds, and in the loop or the ng'hana. A candidate's move may still be
    /// endless, and so not legal.
    pub fn candidate_pits(&self, board: &Board) -> u32 {
        self.candidate_pits_for(board, board.to_move)
    }

    /// `candidate_pits` for `side`, whether or not it is to move.
    pub fn candidate_pits_for(&self, board: &Board, side: Side) -> u32 {
        if board.ends_captured() {
            // The game is over (`capture_win`).
            return 0;
        }
        let ring = board.ring(side);
        let mut allowed = self.geo.all_lanes;
        if board.in_overture(side) {
            allowed &= !(1 << self.geo.front_right);
        }
        ring::high_bits_to_lane_set(ring::lanes_at_least(ring, self.rules.min_sow)) & allowed
    }

    /// Whether `side`'s move from `lane` sows round the full loop (out of overture, or
    /// from the ng'hana, which ends the overture: RULES.md 4), and the flags after it
    /// (its first move made).
    fn loop_of_move(&self, board: &Board, side: Side, lane: usize) -> (bool, u8) {
        let full_loop = !board.in_overture(side) || lane == self.geo.nghana;
        let mut flags = board.overture & !(4 << side as u8) & !ENDS_CAPTURED;
        if full_loop {
            flags &= !(1 << side as u8);
        }
        (full_loop, flags)
    }

    /// The capture table (`Geometry::capture`) of `side`'s move on `board`: none while
    /// its first move may not capture, else `facing_table`'s.
    #[inline(always)]
    fn capture_table(&self, board: &Board, side: Side) -> usize {
        if board.first_move_pending(side) {
            CAPTURE_BARRED
        } else {
            self.facing_table(board, side)
        }
    }

    /// The capture table of `side`'s move were it free to capture: the opponent's
    /// rightmost column protected while the opponent is in overture (where the rules say
    /// so), every facing pit otherwise.
    #[inline(always)]
    fn facing_table(&self, board: &Board, side: Side) -> usize {
        if self.rules.overture_protects && board.in_overture(side.opponent()) {
            CAPTURE_PROTECTED
        } else {
            CAPTURE_OPEN
        }
    }

    /// The lap tables of the full loop, or of the overture loop.
    fn loop_table(&self, full_loop: bool) -> &ring::LoopTable {
        if full_loop {
            &self.geo.full
        } else {
            &self.geo.overture
        }
    }

    /// The lap tables of the full loop, or of the overture loop, sown clockwise.
    fn clockwise_table(&self, full_loop: bool) -> &ring::LoopTable {
        if full_loop {
            &self.geo.full_clockwise
        } else {
            &self.geo.overture_clockwise
        }
    }

    /// What the first lap from each pit `side` could start a move from would do, were it
    /// `side`'s turn (RULES.md 3.3): end in an empty pit, capture, or relay. One lap per
    /// pit, not whole moves: a cheap, exact view of the captures and relays in reach.
    /// Where a pit's first lap may be sown clockwise (RULES.md 3.7), the pit captures if
    /// either way does, and takes the more of the two.
    pub fn first_laps(&self, board: &Board, side: Side) -> FirstLaps {
        with_move_rules!(self.kernel, k => self.first_laps_with(k, board, side))
    }

    /// `first_laps` with the move rules `k`.
    fn first_laps_with<K: MoveRules>(&self, k: K, board: &Board, side: Side) -> FirstLaps {
        let opp = side.opponent();
        let spots = &self.geo.capture[self.capture_table(board, side)];
        let (mine, theirs) = (board.ring(side), board.ring(opp));
        let mut laps = FirstLaps::default();
        let mut pits = self.candidate_pits_for(board, side);
        while pits != 0 {
            let pit = pits.trailing_zeros() as usize;
            pits &= pits - 1;
            // Where the lap ends is all that counts: the captures it may make depend on
            // the opponent's pits alone, so the lap is not sown.
            let full_loop = self.loop_of_move(board, side, pit).0;
            let table = self.loop_table(full_loop);
            let (end, added) = table.lap_end(pit, ring::lane(mine, pit) as u32);
            let held = if end == pit { 0 } else { ring::lane(mine, end) };
            // `None`: the lap ends in an empty pit.
            let anticlockwise =
                (held as u32 + added > 1).then(|| lap::capturable(k, &spots[end], theirs));
            let clockwise = if k.turns() {
                self.clockwise_first_take(k, board, side, (pit, full_loop), spots)
            } else {
                0
            };
            match anticlockwise.unwrap_or(0).max(clockwise) {
                0 if anticlockwise.is_none() => laps.ends += 1,
                0 => laps.relays += 1,
                take => {
                    laps.captures += 1;
                    laps.capturing |= 1 << pit;
                    laps.takes[pit] = take.min(255) as u8;
                    laps.best_capture = laps.best_capture.max(take);
                }
            }
        }
        laps
    }

    /// The seeds the first lap from `pit` takes when sown clockwise (0 where it may not
    /// be, or captures nothing), `spots` the move's capture table.
    fn clockwise_first_take<K: MoveRules>(
        &self,
        k: K,
        board: &Board,
        side: Side,
        (pit, full_loop): (usize, bool),
        spots: &[CaptureSpot; ring::MAX_LANES],
    ) -> u32 {
        let rings = (board.ring(side), board.ring(side.opponent()));
        let lap = LapState::first(pit, rings);
        let clockwise = self.clockwise_table(full_loop);
        let facing = &self.geo.capture[self.facing_table(board, side)];
        if !self.may_sow_clockwise(k, clockwise, [spots, facing], &lap) {
            return 0;
        }
        let (end, added) = clockwise.lap_end(pit, lap.seeds);
        // The lifted pit is empty: a lap ending there lands in an empty pit.
        if ring::lane(lap.mine, end) as u32 + added > 1 {
            lap::capturable(k, &spots[end], lap.theirs)
        } else {
            0
        }
    }

    /// `side`'s ring after the first lap from `pit`, and the lane the lap ends in.
    #[inline(always)]
    fn first_lap(&self, board: &Board, side: Side, pit: usize) -> (Ring, usize) {
        let mine = board.ring(side);
        let table = self.loop_table(self.loop_of_move(board, side, pit).0);
        let seeds = ring::lane(mine, pit) as u32;
        table.sow(ring::clear_lane(mine, pit), pit, seeds)
    }

    /// Every pit (`visit_moves`' `pits`).
    pub const ALL_PITS: u32 = u32::MAX;

    /// The winner if the side to move has no legal move (RULES.md 3.6), else `None`.
    pub fn winner(&self, board: &Board) -> Option<Side> {
        let any = self.has_legal_move(board, &mut MoveGen::new());
        (!any).then(|| board.to_move.opponent())
    }
}
