//! The walks of a move over the lap kernel: the forced walk, the take/pass tree of
//! optional captures (and the retreat's answers), the directed laps' sequences, and
//! the listings built on them (`visit_moves` with a `Listing`: every sequence,
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
        with_lap_rules!(self.lap, k => self.for_each_result_with(k, board, pits, listing, gen, visit))
    }

    /// `for_each_result` with the lap rules `k`.
    #[inline(always)]
    pub(super) fn for_each_result_with<K: LapRules>(
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
    pub(super) fn directed_results<K: LapRules>(
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
    pub(super) fn capturable(&self, spot: &CaptureSpot, theirs: Ring) -> u32 {
        lap::capturable(LapKernel::read(&self.rules), spot, theirs)
    }

    /// Plays a move with forced captures. A repeated turning point means the move can
    /// never end; Brent's cycle check finds it with O(1) memory, from the
    /// `UNCHECKED_FORCED_LAPS`th lap on (a move repeats its points forever once it
    /// repeats one, so a late check misses none, and most moves end before it). Either
    /// way an endless move would pass `max_laps`, so the check only makes the answer
    /// come sooner. The first laps run in a loop of their own, with the least state.
    #[inline(always)]
    pub(super) fn play_forced<K: LapRules>(
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
    pub(super) fn forced_lap<K: LapRules>(
        &self,
        k: K,
        frame: &MoveFrame,
        state: &mut LapState,
    ) -> ForcedLap {
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
    pub(super) fn play_forced_checked<K: LapRules>(
        &self,
        k: K,
        frame: &MoveFrame,
        state: LapState,
    ) -> Played {
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
    pub(super) fn play_optional<K: LapRules>(
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
}
