//! A variant: a rules set with the tables its fast board needs, and its exact move
//! generation (relays, captures, overture, endless moves, take/pass choices), the
//! searchers' move lists, position parsing and game end.

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
pub(crate) mod lap;
mod path;
mod play;
mod position;
mod stepwise;
mod text;

use lap::{with_lap_rules, LapEnd, LapKernel, LapRules, LapState, Taken};
use path::{TurningPath, TurningPoint};

pub use decision::{Decision, DecisionKind};
pub use position::Position;
pub use stepwise::{ChoicePoint, Completion, MoveStep, MoveWalk};
pub use text::InvalidBoard;

/// A rules set with the tables its fast board needs.
#[derive(Clone, Debug)]
pub struct Variant {
    rules: Rules,
    geo: Geometry,
    /// The lanes a lap may be sown clockwise from (`clockwise_from`), as a bit set.
    clockwise: u32,
    /// The fortress table, built on first use (`fortresses`).
    fortresses: std::sync::OnceLock<Option<std::sync::Arc<Fortresses>>>,
    /// The lap kernel's instance for these rules.
    lap: LapKernel,
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

/// A capture opportunity whose pass branch is still to be explored.
#[derive(Clone, Copy, Debug)]
struct PendingPass {
    /// The state after the capturing lap, before the choice.
    state: LapState,
    end: usize,
    path_len: usize,
    choices_len: usize,
    /// The pass's answer still to explore under `retreat`: `None` for the first pass
    /// branch (retreat, where one is open), `Some(Stay)` for the second.
    answer: Option<Choice>,
}

/// Reusable buffers for move generation (optional captures explore a tree of choices).
#[derive(Debug)]
pub struct MoveGen {
    path: TurningPath,
    pending: Vec<PendingPass>,
    choices: Vec<Choice>,
    /// Clockwise laps still to explore (moves whose laps may turn).
    branches: Vec<directed::Branch>,
    /// The ends a pit's moves reached so far, for a distinct listing of such moves.
    seen_ends: Vec<(Ring, Ring)>,
    distinct: distinct::DistinctSearch,
    /// Most turning points the distinct-move search explores from one pit.
    point_limit: usize,
    /// Whether the limit binds before the pit has a move too.
    strict_limit: bool,
    /// Whether the last generation left turning points unexplored.
    truncated: bool,
    /// Laps the sequence generator may still sow before it gives up (see
    /// `distinct::SMALL_LISTING_LAPS`), and whether it did.
    lap_budget: u64,
    over_budget: bool,
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
            pending: Vec::new(),
            choices: Vec::new(),
            branches: Vec::new(),
            seen_ends: Vec::new(),
            distinct: distinct::DistinctSearch::default(),
            point_limit: usize::MAX,
            strict_limit: false,
            truncated: false,
            lap_budget: u64::MAX,
            over_budget: false,
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
    /// `laps` laps of listing a pit's sequences, the default being 512): for tests and
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
            lap: LapKernel::for_rules(&rules),
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
                (held as u32 + added > 1).then(|| self.capturable(&spots[end], theirs));
            let clockwise = if self.has_directions() {
                self.clockwise_first_take(board, side, pit, full_loop, spots)
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
    fn clockwise_first_take(
        &self,
        board: &Board,
        side: Side,
        pit: usize,
        full_loop: bool,
        spots: &[CaptureSpot; ring::MAX_LANES],
    ) -> u32 {
        let rings = (board.ring(side), board.ring(side.opponent()));
        let lap = LapState::first(pit, rings);
        let clockwise = self.clockwise_table(full_loop);
        let facing = &self.geo.capture[self.facing_table(board, side)];
        if !self.may_sow_clockwise(clockwise, [spots, facing], &lap) {
            return 0;
        }
        let (end, added) = clockwise.lap_end(pit, lap.seeds);
        // The lifted pit is empty: a lap ending there lands in an empty pit.
        if ring::lane(lap.mine, end) as u32 + added > 1 {
            self.capturable(&spots[end], lap.theirs)
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

    /// Calls `visit` for the moves `listing` names at `board` from the pits in `pits`
    /// (a bit set, pit `i + 1` on bit `i`; `Variant::ALL_PITS` for all), by pit,
    /// stopping as soon as `visit` returns `false` (a position can have millions of
    /// moves; a visitor that returns nothing sees them all). Whether the
    /// generator's point limit or interrupt left moves out, it says after
    /// (`MoveGen::truncated`, `MoveGen::interrupted`).
    pub fn visit_moves<R: GoOn>(
        &self,
        board: &Board,
        pits: u32,
        listing: Listing,
        gen: &mut MoveGen,
        mut visit: impl FnMut(&MoveOutcome) -> R,
    ) {
        let me = board.to_move;
        let pits = pits & self.candidate_pits(board);
        self.for_each_result(board, pits, listing, gen, |end| {
            let rings = rings_of(me, end.mine, end.theirs);
            visit(&MoveOutcome {
                pit: end.pit,
                choices: end.choices,
                child: Board::from_parts(rings, me.opponent(), end.overture),
                laps: end.laps,
                captured: end.captured,
            })
            .go_on()
        });
    }

    /// Generates every legal move and reports its rings before a child board (and its
    /// hash) is built, so counting moves costs no hashing. Stops when `visit` returns
    /// false.
    #[inline(always)]
    fn for_each_result(
        &self,
        board: &Board,
        pits: u32,
        listing: Listing,
        gen: &mut MoveGen,
        visit: impl FnMut(&MoveEnd) -> bool,
    ) {
        with_lap_rules!(self.lap, k => self.for_each_result_with(k, board, pits, listing, gen, visit))
    }

    /// `for_each_result` with the lap rules `k`.
    #[inline(always)]
    fn for_each_result_with<K: LapRules>(
        &self,
        k: K,
        board: &Board,
        pits: u32,
        listing: Listing,
        gen: &mut MoveGen,
        mut visit: impl FnMut(&MoveEnd) -> bool,
    ) {
        let me = board.to_move;
        let opp = me.opponent();
        let spots = &self.geo.capture[self.capture_table(board, me)];
        let (mine, theirs) = (board.ring(me), board.ring(opp));
        gen.truncated = false;
        gen.poll.reset();
        let at_stake = self.ends_at_stake(theirs);
        let mut visit = |end: &MoveEnd| {
            if at_stake && self.ends_taken(end.theirs) {
                let overture = end.overture | ENDS_CAPTURED;
                visit(&MoveEnd { overture, ..*end })
            } else {
                visit(end)
            }
        };
        let mut lanes = pits;
        while lanes != 0 {
            let pit = lanes.trailing_zeros() as usize;
            lanes &= lanes - 1;
            let (full_loop, overture) = self.loop_of_move(board, me, pit);
            let table = self.loop_table(full_loop);
            let frame = MoveFrame { table, spots, pit };
            let template = MoveEnd {
                pit: pit as u8 + 1,
                choices: &[],
                mine: 0,
                theirs: 0,
                overture,
                laps: 0,
                captured: 0,
            };
            let turns = self.has_directions().then(|| {
                let clockwise = self.clockwise_table(full_loop);
                (clockwise, &self.geo.capture[self.facing_table(board, me)])
            });
            let distinct = listing.is_distinct();
            let optional = self.rules.capture_choice == CaptureChoice::Optional;
            if let Some(turns) = turns.filter(|_| !(optional && distinct)) {
                // Every sequence, or under forced captures the few a pit has, one by one.
                let rings = (mine, theirs);
                let directed = (&frame, turns, rings);
                if !self.directed_results(k, directed, listing, gen, &template, &mut visit) {
                    return;
                }
                continue;
            }
            match self.rules.capture_choice {
                CaptureChoice::Forced => {
                    if let Some((mine, theirs, laps, captured)) =
                        self.play_forced(k, &frame, mine, theirs)
                    {
                        let more = visit(&MoveEnd {
                            mine,
                            theirs,
                            laps,
                            captured,
                            ..template
                        });
                        if !more {
                            return;
                        }
                    }
                }
                CaptureChoice::Optional if listing.is_distinct() => {
                    let with_choices = listing.with_choices();
                    let more = self.play_distinct(
                        k,
                        &frame,
                        turns,
                        (mine, theirs),
                        gen,
                        with_choices,
                        &template,
                        &mut visit,
                    );
                    if !more {
                        return;
                    }
                }
                CaptureChoice::Optional => {
                    let more = self.play_optional(
                        k,
                        &frame,
                        (mine, theirs),
                        0,
                        gen,
                        |mine, theirs, choices, laps, captured| {
                            visit(&MoveEnd {
                                mine,
                                theirs,
                                choices,
                                laps,
                                captured,
                                ..template
                            })
                        },
                    );
                    if !more {
                        return;
                    }
                }
            }
        }
    }

    /// `for_each_result` for one pit of a variant whose laps may turn: every sequence,
    /// or for a distinct listing the first of each resulting position. False when `visit`
    /// asked to stop.
    #[allow(clippy::type_complexity)]
    fn directed_results<K: LapRules>(
        &self,
        k: K,
        (frame, (clockwise, facing), rings): (
            &MoveFrame,
            (&LoopTable, &[CaptureSpot; ring::MAX_LANES]),
            (Ring, Ring),
        ),
        listing: Listing,
        gen: &mut MoveGen,
        template: &MoveEnd,
        visit: &mut impl FnMut(&MoveEnd) -> bool,
    ) -> bool {
        let distinct = listing.is_distinct();
        let with_choices = listing.with_choices();
        let mut seen = std::mem::take(&mut gen.seen_ends);
        seen.clear();
        let more = self.play_directed(
            k,
            frame,
            (clockwise, facing),
            rings,
            gen,
            |mine, theirs, choices, laps, captured| {
                if distinct {
                    if seen.contains(&(mine, theirs)) {
                        return true;
                    }
                    seen.push((mine, theirs));
                }
                visit(&MoveEnd {
                    mine,
                    theirs,
                    choices: if with_choices { choices } else { &[] },
                    laps,
                    captured,
                    ..*template
                })
            },
        );
        gen.seen_ends = seen;
        more
    }

    /// Seeds a lap ending at a mover's pit with spot `spot` would capture (0: none), by
    /// the rules read at run time (away from the lap loops).
    #[inline]
    fn capturable(&self, spot: &CaptureSpot, theirs: Ring) -> u32 {
        lap::capturable(LapKernel::read(&self.rules), spot, theirs)
    }

    /// Plays a move with forced captures. A repeated turning point means the move can
    /// never end; Brent's cycle check finds it with O(1) memory, from the
    /// `UNCHECKED_FORCED_LAPS`th lap on (a move repeats its points forever once it
    /// repeats one, so a late check misses none, and most moves end before it). Either
    /// way an endless move would pass `max_laps`, so the check only makes the answer
    /// come sooner. The first laps run in a loop of their own, with the least state.
    #[inline(always)]
    fn play_forced<K: LapRules>(
        &self,
        k: K,
        frame: &MoveFrame,
        mine: Ring,
        theirs: Ring,
    ) -> Played {
        let mut state = LapState::first(frame.pit, (mine, theirs));
        while state.laps < UNCHECKED_FORCED_LAPS {
            match self.forced_lap(k, frame, &mut state) {
                ForcedLap::Ended => return Some(state.outcome()),
                ForcedLap::TooLong => return None,
                ForcedLap::On(_) => {}
            }
        }
        self.play_forced_checked(k, frame, state)
    }

    /// One lap of a move with forced captures.
    #[inline(always)]
    fn forced_lap<K: LapRules>(&self, k: K, frame: &MoveFrame, state: &mut LapState) -> ForcedLap {
        let (end, origin, take) = match self.sow_lap(k, frame, frame.table, state) {
            LapEnd::TooLong => return ForcedLap::TooLong,
            LapEnd::Empty => return ForcedLap::Ended,
            LapEnd::Turning { end, origin, take } => (end, origin, take),
        };
        let point = TurningPoint::at(state, end, origin);
        if take == 0 {
            *state = state.relay(end);
            return ForcedLap::On(point);
        }
        match self.take_capture(k, frame, state, (end, origin, take)) {
            Taken::SowOn => ForcedLap::On(point),
            Taken::Ended => ForcedLap::Ended,
            Taken::TooLong => ForcedLap::TooLong,
        }
    }

    /// `play_forced` past its first laps, with Brent's cycle check.
    #[cold]
    #[inline(never)]
    fn play_forced_checked<K: LapRules>(&self, k: K, frame: &MoveFrame, state: LapState) -> Played {
        let mut state = state;
        let mut saved: Option<TurningPoint> = None;
        let (mut power, mut steps) = (1u32, 0u32);
        loop {
            let point = match self.forced_lap(k, frame, &mut state) {
                ForcedLap::Ended => return Some(state.outcome()),
                ForcedLap::TooLong => return None,
                ForcedLap::On(point) => point,
            };
            if saved == Some(point) {
                return None;
            }
            steps += 1;
            if steps == power {
                saved = Some(point);
                power *= 2;
                steps = 0;
            }
        }
    }

    /// Explores every sequence of take/pass choices of a move with optional captures,
    /// depth first with take before pass. A sequence that returns to a turning point on
    /// its own path, or passes `max_laps`, is not a move. Returns false when `visit`
    /// asked to stop.
    ///
    /// With `unchecked_laps` above 0 the first laps of each sequence are not checked for
    /// a return (each check hashes the point), for callers that want only the positions
    /// moves reach: a sequence that came back to a point ends where the same sequence
    /// without the loop ends (a loop takes nothing: a take leaves the opponent fewer
    /// seeds for good), and that one is explored too, so the positions visited are
    /// those of the legal moves; the loop repeats its points past `unchecked_laps`,
    /// where it is caught.
    fn play_optional<K: LapRules>(
        &self,
        k: K,
        frame: &MoveFrame,
        (mine, theirs): (Ring, Ring),
        unchecked_laps: u32,
        gen: &mut MoveGen,
        mut visit: impl FnMut(Ring, Ring, &[Choice], u32, u32) -> bool,
    ) -> bool {
        gen.path.truncate(0);
        gen.pending.clear();
        gen.choices.clear();
        let mut state = LapState::first(frame.pit, (mine, theirs));
        loop {
            // 1. Sow laps until the move ends, dies, or meets a capture opportunity.
            let finished = loop {
                gen.lap_budget -= 1;
                if gen.lap_budget == 0 {
                    gen.over_budget = true;
                    return true;
                }
                if !gen.poll.lap() {
                    return false;
                }
                let (end, origin, take) = match self.sow_lap(k, frame, frame.table, &mut state) {
                    LapEnd::TooLong => break false,
                    LapEnd::Empty => break true,
                    LapEnd::Turning { end, origin, take } => (end, origin, take),
                };
                let point = TurningPoint::at(&state, end, origin);
                if state.laps > unchecked_laps && !gen.path.insert(point) {
                    break false;
                }
                if take == 0 {
                    state = state.relay(end);
                    continue;
                }
                // 2. Take now; remember the pass for later.
                gen.pending.push(PendingPass {
                    state,
                    end,
                    path_len: gen.path.len(),
                    choices_len: gen.choices.len(),
                    answer: None,
                });
                gen.choices.push(Choice::Take);
                match self.take_capture(k, frame, &mut state, (end, origin, take)) {
                    Taken::SowOn => {}
                    Taken::Ended => break true,
                    Taken::TooLong => break false,
                }
            };
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
            // 3. Backtrack to the latest pass not yet explored: under `retreat`, first
            // answered by a retreat where one is open, then by staying.
            let Some(pass) = gen.pending.pop() else {
                return true;
            };
            gen.back_to(pass.path_len, pass.choices_len, Choice::Pass);
            state = pass.state;
            if let Some(answer) = pass.answer {
                gen.choices.push(answer);
            } else if let Some(retreated) =
                self.retreated(&frame.spots[pass.end], pass.end, state.theirs)
            {
                gen.pending.push(PendingPass {
                    answer: Some(Choice::Stay),
                    ..pass
                });
                gen.choices.push(Choice::Retreat);
                state.theirs = retreated;
            }
            state = state.relay(pass.end);
        }
    }

    /// Every legal move with its result, by pit and then with take before pass.
    pub fn legal_moves(&self, board: &Board) -> Vec<LegalMove> {
        let mut moves = Vec::new();
        self.visit_moves(
            board,
            Variant::ALL_PITS,
            Listing::Sequences,
            &mut MoveGen::new(),
            |m| moves.push(m.to_legal_move()),
        );
        moves
    }

    /// One legal move for each distinct position a pit's moves lead to (see
    /// `Listing::Distinct`), exact: no point limit.
    pub fn distinct_moves(&self, board: &Board) -> Vec<LegalMove> {
        self.distinct_moves_with(board, &mut MoveGen::new())
    }

    /// Like `distinct_moves`, listed by `gen` (whose point limit, if any, applies; its
    /// `truncated` says whether moves were left out).
    pub fn distinct_moves_with(&self, board: &Board, gen: &mut MoveGen) -> Vec<LegalMove> {
        let mut moves = Vec::new();
        self.visit_moves(board, Variant::ALL_PITS, Listing::Distinct, gen, |m| {
            moves.push(m.to_legal_move())
        });
        moves
    }

    /// Appends the positions the legal moves lead to.
    pub fn children(&self, board: &Board, gen: &mut MoveGen, out: &mut Vec<Board>) {
        self.visit_moves(board, Variant::ALL_PITS, Listing::Sequences, gen, |m| {
            out.push(m.child)
        });
    }

    /// Number of legal moves, counting no further than `most` (optional captures can
    /// make tens of millions).
    pub fn count_moves_up_to(&self, board: &Board, gen: &mut MoveGen, most: u64) -> u64 {
        let mut count = 0;
        let pits = self.candidate_pits(board);
        self.for_each_result(board, pits, Listing::Sequences, gen, |_| {
            count += 1;
            count < most
        });
        count
    }

    /// Number of legal moves.
    pub fn count_moves(&self, board: &Board, gen: &mut MoveGen) -> u64 {
        let mut count = 0;
        let pits = self.candidate_pits(board);
        self.for_each_result(board, pits, Listing::Sequences, gen, |_| {
            count += 1;
            true
        });
        count
    }

    /// Whether the side to move has a legal move; stops at the first one found.
    pub fn has_legal_move(&self, board: &Board, gen: &mut MoveGen) -> bool {
        let mut found = false;
        let pits = self.candidate_pits(board);
        // A first lap that ends in an empty pit ends a legal move: most positions have
        // one, found without listing any pit's moves.
        let mut lanes = pits;
        while lanes != 0 {
            let pit = lanes.trailing_zeros() as usize;
            lanes &= lanes - 1;
            let (sown, end) = self.first_lap(board, board.to_move, pit);
            if ring::lane(sown, end) == 1 {
                return true;
            }
        }
        // Exact whatever the generator's limit: the game's end depends on it.
        let limit = std::mem::replace(&mut gen.point_limit, usize::MAX);
        let listing = Listing::Results;
        self.for_each_result(board, pits, listing, gen, |_| {
            found = true;
            false
        });
        gen.point_limit = limit;
        gen.truncated = false;
        found
    }

    /// One legal move from each pit that has one, by pit (exact, whatever the
    /// generator's limit): a searcher that walks a pit's choices itself starts from these.
    pub fn first_move_of_each_pit(&self, board: &Board, gen: &mut MoveGen) -> Vec<LegalMove> {
        let limit = std::mem::replace(&mut gen.point_limit, usize::MAX);
        let listing = Listing::Distinct;
        let mut firsts = Vec::new();
        let mut pits = self.candidate_pits(board);
        while pits != 0 {
            let lane = pits.trailing_zeros();
            pits &= pits - 1;
            self.visit_moves(board, 1 << lane, listing, gen, |m| {
                firsts.push(m.to_legal_move());
                false
            });
        }
        gen.point_limit = limit;
        gen.truncated = false;
        firsts
    }

    /// The winner if the side to move has no legal move (RULES.md 3.6), else `None`.
    pub fn winner(&self, board: &Board) -> Option<Side> {
        let any = self.has_legal_move(board, &mut MoveGen::new());
        (!any).then(|| board.to_move.opponent())
    }
}
