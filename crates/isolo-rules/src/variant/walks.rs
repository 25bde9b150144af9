//! The walks of a move over the move machine: the forced walk, every sequence of
//! decisions depth first (take or pass and the retreat's answers, directions, sow on or
//! leave), and the listings built on them (`visit_moves` with a `Listing`: every sequence,
//! distinct positions with or without their choices, counts, the first move of each
//! pit).

use super::*;

impl Variant {
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
    pub(super) fn for_each_result(
        &self,
        board: &Board,
        pits: u32,
        listing: Listing,
        gen: &mut MoveGen,
        visit: impl FnMut(&MoveEnd) -> bool,
    ) {
        with_move_rules!(self.kernel, k => self.for_each_result_with(k, board, pits, listing, gen, visit))
    }

    /// `for_each_result` with the move rules `k`.
    #[inline(always)]
    pub(super) fn for_each_result_with<K: MoveRules>(
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
        // (The table were the move free to capture is read where laps may turn alone.)
        let facing = if k.turns() {
            self.facing_table(board, me)
        } else {
            0
        };
        let tables = (self.capture_table(board, me), facing);
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
            let m = self.machine(k, pit, full_loop, tables);
            let template = MoveEnd {
                pit: pit as u8 + 1,
                choices: &[],
                mine: 0,
                theirs: 0,
                overture,
                laps: 0,
                captured: 0,
            };
            let rings = (mine, theirs);
            let more = if k.turns() && !(k.optional() && listing.is_distinct()) {
                // Every sequence, or under forced captures the few a pit has, one by one.
                self.directed_results(&m, rings, listing, gen, &template, &mut visit)
            } else if !k.optional() {
                match self.play_forced(&m, rings) {
                    Some((mine, theirs, laps, captured)) => visit(&MoveEnd {
                        mine,
                        theirs,
                        laps,
                        captured,
                        ..template
                    }),
                    None => true,
                }
            } else if listing.is_distinct() {
                let with_choices = listing.with_choices();
                self.play_distinct(&m, rings, gen, with_choices, &template, &mut visit)
            } else {
                self.play_sequences(
                    &m,
                    rings,
                    (0, &mut Unbounded),
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
                )
            };
            if !more {
                return;
            }
        }
    }

    /// `for_each_result` for one pit of a variant whose laps may turn: every sequence,
    /// or for a distinct listing the first of each resulting position. False when `visit`
    /// asked to stop.
    pub(super) fn directed_results<K: MoveRules>(
        &self,
        m: &MoveMachine<K>,
        rings: (Ring, Ring),
        listing: Listing,
        gen: &mut MoveGen,
        template: &MoveEnd,
        visit: &mut impl FnMut(&MoveEnd) -> bool,
    ) -> bool {
        let distinct = listing.is_distinct();
        let with_choices = listing.with_choices();
        let mut seen = std::mem::take(&mut gen.seen_ends);
        seen.clear();
        let more = self.play_sequences(
            m,
            rings,
            (0, &mut Unbounded),
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

    /// Plays a move with no decisions: forced captures, no lap that may turn. A repeated
    /// turning point means the move can never end; Brent's cycle check finds it with
    /// O(1) memory, from the `UNCHECKED_FORCED_LAPS`th lap on (a move repeats its points
    /// forever once it repeats one, so a late check misses none, and most moves end
    /// before it). Either way an endless move would pass `max_laps`, so the check only
    /// makes the answer come sooner. The first laps run in a loop of their own, with the
    /// least state.
    #[inline(always)]
    pub(super) fn play_forced<K: MoveRules>(
        &self,
        m: &MoveMachine<K>,
        (mine, theirs): (Ring, Ring),
    ) -> Played {
        let mut state = LapState::first(m.frame.pit, (mine, theirs));
        while state.laps < UNCHECKED_FORCED_LAPS {
            match forced_lap(m, &mut state) {
                ForcedLap::Ended => return Some(state.outcome()),
                ForcedLap::TooLong => return None,
                ForcedLap::On(_) => {}
            }
        }
        play_forced_checked(m, state)
    }

    /// Explores every sequence of decisions of a move depth first: take before pass (a
    /// pass answered by a retreat, where one is open, before staying), anticlockwise
    /// before clockwise, sow on before leave. A sequence that returns to a turning point
    /// on its own path, or passes `max_laps`, is not a move. Returns false when `visit`
    /// asked to stop; stops early (true) when the laps use up `budget`, which then says
    /// so (`Unbounded`: a walk with no budget pays nothing for one).
    ///
    /// With `unchecked_laps` above 0 the first laps of each sequence are not checked for
    /// a return (each check hashes the point), for callers that want only the positions
    /// moves reach, under take/pass choices alone: a sequence that came back to a point
    /// ends where the same sequence without the loop ends (a loop takes nothing: a take
    /// leaves the opponent fewer seeds for good), and that one is explored too, so the
    /// positions visited are those of the legal moves; the loop repeats its points past
    /// `unchecked_laps`, where it is caught.
    pub(super) fn play_sequences<K: MoveRules, B: LapBudget>(
        &self,
        m: &MoveMachine<K>,
        (mine, theirs): (Ring, Ring),
        (unchecked_laps, budget): (u32, &mut B),
        gen: &mut MoveGen,
        mut visit: impl FnMut(Ring, Ring, &[Choice], u32, u32) -> bool,
    ) -> bool {
        gen.path.truncate(0);
        gen.branches.clear();
        gen.choices.clear();
        let mut state = LapState::first(m.frame.pit, (mine, theirs));
        let mut clockwise = false;
        loop {
            // Sow laps until the move ends or dies, leaving each second option for later.
            let finished = loop {
                if !clockwise && m.may_turn(&state) {
                    gen.defer(state, true, Choice::Clockwise, None);
                    gen.choices.push(Choice::Anticlockwise);
                }
                if !budget.spend() {
                    return true;
                }
                if !gen.poll.lap() {
                    return false;
                }
                let at = match m.sow(&mut state, clockwise) {
                    LapEvent::TooLong => break false,
                    LapEvent::Ended => break true,
                    LapEvent::Turning(at) => at,
                };
                clockwise = false;
                if state.laps > unchecked_laps && !gen.path.insert(at.point) {
                    break false;
                }
                match at.offer {
                    Offer::Relay | Offer::Take => {}
                    Offer::TakeOrPass => {
                        // Popped last deferred first: a retreat, then staying.
                        match m.pass(&state, at.end) {
                            (stay, Some(retreat)) => {
                                gen.defer(stay, false, Choice::Pass, Some(Choice::Stay));
                                gen.defer(retreat, false, Choice::Pass, Some(Choice::Retreat));
                            }
                            (stay, None) => gen.defer(stay, false, Choice::Pass, None),
                        }
                        gen.choices.push(Choice::Take);
                    }
                    Offer::SowOnOrLeave(left) => {
                        gen.defer(left, true, Choice::Leave, None);
                        gen.choices.push(Choice::SowOn);
                    }
                }
                match m.go_on(&mut state, &at) {
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
            let Some(branch) = gen.branches.pop() else {
                return true;
            };
            gen.back_to(branch.path_len, branch.choices_len, branch.choice);
            gen.choices.extend(branch.answer);
            (state, clockwise) = (branch.state, branch.clockwise);
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
}

/// One lap of a move without decisions.
#[inline(always)]
fn forced_lap<K: MoveRules>(m: &MoveMachine<K>, state: &mut LapState) -> ForcedLap {
    match m.sow(state, false) {
        LapEvent::TooLong => ForcedLap::TooLong,
        LapEvent::Ended => ForcedLap::Ended,
        LapEvent::Turning(at) => match m.go_on(state, &at) {
            Taken::SowOn => ForcedLap::On(at.point),
            Taken::Ended => ForcedLap::Ended,
            Taken::TooLong => ForcedLap::TooLong,
        },
    }
}

/// `play_forced` past its first laps, with Brent's cycle check.
#[cold]
#[inline(never)]
fn play_forced_checked<K: MoveRules>(m: &MoveMachine<K>, state: LapState) -> Played {
    let mut state = state;
    let mut saved: Option<TurningPoint> = None;
    let (mut power, mut steps) = (1u32, 0u32);
    loop {
        let point = match forced_lap(m, &mut state) {
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

/// Laps a depth-first walk may still sow.
pub(super) trait LapBudget {
    /// Counts a lap; false when the budget is spent (and the walk stops).
    fn spend(&mut self) -> bool;
}

/// No budget: every lap may be sown.
pub(super) struct Unbounded;

impl LapBudget for Unbounded {
    #[inline(always)]
    fn spend(&mut self) -> bool {
        true
    }
}

/// A budget of laps: the walk stops on the lap that would spend its last.
pub(super) struct Bounded {
    left: u64,
}

impl Bounded {
    pub(super) fn new(laps: u64) -> Bounded {
        Bounded { left: laps }
    }

    /// Whether the walk stopped for want of laps.
    pub(super) fn spent(&self) -> bool {
        self.left == 0
    }
}

impl LapBudget for Bounded {
    #[inline(always)]
    fn spend(&mut self) -> bool {
        self.left -= 1;
        self.left != 0
    }
}
