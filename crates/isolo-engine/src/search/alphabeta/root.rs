//! The root: its moves, iterative deepening with aspiration windows, multi-PV, the
//! clock's stops, and Lazy SMP's helper threads.

use super::*;

/// The root's moves as `generate` lists them (complete: no point limit applies to
/// walked pits); a walked pit is searched choice by choice, and its `mv` starts as its
/// first legal move. A pit without one is left out.
pub(super) fn root_moves(variant: &Variant, root: &Board, walk: ChoiceWalk) -> Vec<RootMove> {
    let mut gen = move_generator();
    let mut list = Vec::new();
    generate(
        variant,
        root,
        variant.candidate_pits(root),
        Some(walk),
        &mut gen,
        &[0; 16],
        &mut list,
    );
    let firsts = if list.iter().any(|c| c.walk) {
        variant.first_move_of_each_pit(root, &mut gen)
    } else {
        Vec::new()
    };
    // The listed results' moves (the same listing, with the choices kept).
    let mut named = std::collections::HashMap::new();
    variant.visit_moves(root, Variant::ALL_PITS, Listing::Distinct, &mut gen, |m| {
        named.entry(m.child.hash()).or_insert_with(|| m.mv());
    });
    list.iter()
        .filter_map(|c| {
            let (mv, first_child) = if c.walk {
                let first = firsts.iter().find(|m| m.mv.pit == c.pit)?;
                (first.mv.clone(), first.child)
            } else {
                (named.get(&c.board.hash())?.clone(), c.board)
            };
            Some(RootMove {
                child: *c,
                by_choices: c.walk,
                pv: vec![first_child],
                mv,
                value: -INFINITY,
                exact: false,
            })
        })
        .collect()
}

/// Lazy SMP: helpers search the same root from staggered depths with rotated move
/// orders, sharing the table; the main thread's completed iterations are the answer.
pub(super) fn lazy_smp(
    shared: &Shared,
    history: &[u64],
    root: &Board,
    root_moves: Vec<RootMove>,
    multipv: usize,
    threads: usize,
    report: &mut dyn FnMut(&Progress),
) -> (Vec<RootMove>, u32) {
    // The main thread searches on the caller's thread (its report callback stays there);
    // the helpers run on a pool of their own.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads - 1)
        .stack_size(HELPER_STACK_BYTES)
        .build()
        .expect("search threads start");
    pool.in_place_scope(|scope| {
        for id in 1..threads {
            let mut moves = root_moves.clone();
            let rotation = id % moves.len();
            moves.rotate_left(rotation);
            scope.spawn(move |_| {
                let mut helper = Worker::new(shared, history);
                helper.iterate(root, moves, 1 + (id as u32 % 2), 1, None);
                helper.flush_nodes();
            });
        }
        let mut main = Worker::new(shared, history);
        let result = main.iterate(root, root_moves, 1, multipv, Some(&mut *report));
        main.flush_nodes();
        shared.stop.raise();
        result
    })
}

impl Worker<'_> {
    /// One root move searched with the window `(alpha, beta)`; the value is from the
    /// root's side.
    pub(super) fn search_root_move(
        &mut self,
        root: &Board,
        mv: &mut RootMove,
        depth: u32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        self.count_node();
        if mv.by_choices {
            return self.search_root_pit(root, mv, depth, alpha, beta);
        }
        self.path.push(root.hash());
        let value = -self.negamax(&mv.child.board, depth - 1, -beta, -alpha, 1);
        self.path.pop();
        if !self.stopped() {
            mv.value = value;
            mv.exact = value > alpha && value < beta;
            mv.pv.clear();
            mv.pv.push(mv.child.board);
            mv.pv.extend_from_slice(&self.pv[1]);
        }
        value
    }

    /// A root pit searched choice by choice: its best move is the one whose result
    /// last raised alpha.
    pub(super) fn search_root_pit(
        &mut self,
        root: &Board,
        mv: &mut RootMove,
        depth: u32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        self.path.push(root.hash());
        self.root_choices.clear();
        self.root_best = None;
        let turn = Turn {
            depth,
            ply: 0,
            choices: 0,
            searched: false,
        };
        let value = self.walk_pit(root, mv.child.pit, turn, alpha, beta);
        self.path.pop();
        if !self.stopped() {
            mv.value = value;
            mv.exact = value > alpha && value < beta;
            if let Some(choices) = self.root_best.take() {
                mv.mv = Move {
                    pit: mv.child.pit,
                    choices,
                };
                mv.pv = self.pv[0].clone();
            }
        }
        value
    }

    /// Single-PV root: PVS over the root moves in the window; returns the best value.
    pub(super) fn root_pvs(
        &mut self,
        root: &Board,
        moves: &mut [RootMove],
        depth: u32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        let mut best = -INFINITY;
        for i in 0..moves.len() {
            let mut mv = moves[i].clone();
            let value = if i == 0 {
                self.search_root_move(root, &mut mv, depth, alpha, beta)
            } else {
                let probe = self.search_root_move(root, &mut mv, depth, alpha, alpha + 1);
                if probe > alpha && probe < beta && !self.stopped() {
                    self.search_root_move(root, &mut mv, depth, alpha, beta)
                } else {
                    probe
                }
            };
            if self.stopped() {
                return best;
            }
            moves[i] = mv;
            if value > best {
                best = value;
                // Keep the best move first for the next iteration and the report.
                moves[..=i].rotate_right(1);
                if value > alpha {
                    alpha = value;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// Multi-PV root: every move is searched with a window that opens above the K-th
    /// best value so far, so the K best get exact values.
    pub(super) fn root_multipv(
        &mut self,
        root: &Board,
        moves: &mut [RootMove],
        depth: u32,
        k: usize,
    ) {
        for i in 0..moves.len() {
            let mut kth = moves[..i]
                .iter()
                .filter(|m| m.exact)
                .map(|m| m.value)
                .collect::<Vec<_>>();
            kth.sort_unstable_by(|a, b| b.cmp(a));
            let alpha = if kth.len() >= k {
                kth[k - 1]
            } else {
                -INFINITY
            };
            let mut mv = moves[i].clone();
            self.search_root_move(root, &mut mv, depth, alpha, INFINITY);
            if self.stopped() {
                return;
            }
            moves[i] = mv;
        }
        moves.sort_by_key(|m| (std::cmp::Reverse(m.exact), std::cmp::Reverse(m.value)));
    }

    /// Iterative deepening. The main thread (`report` given) reports each completed depth
    /// and decides when to stop; helpers search the same tree to fill the table.
    pub(super) fn iterate(
        &mut self,
        root: &Board,
        mut moves: Vec<RootMove>,
        first_depth: u32,
        multipv: usize,
        mut report: Option<&mut dyn FnMut(&Progress)>,
    ) -> (Vec<RootMove>, u32) {
        let max_depth = self
            .shared
            .limits
            .depth
            .unwrap_or(MAX_DEPTH)
            .clamp(1, MAX_DEPTH);
        let mut completed: (Vec<RootMove>, u32) = (moves.clone(), 0);
        let mut previous = 0;
        // The best move and value of the last completed depth, to see whether the best
        // move is settled.
        let mut last_best: Option<(u32, i32)> = None;
        for depth in first_depth..=max_depth {
            if multipv > 1 {
                self.root_multipv(root, &mut moves, depth, multipv);
            } else {
                previous = self.aspiration(root, &mut moves, depth, previous);
            }
            if self.stopped() && completed.1 > 0 {
                break;
            }
            if self.stopped() {
                // Limits apply from the start where the root has pits too many moves
                // to list (`Shared::armed`): the first iteration was cut short.
                completed = (self.cut_short(moves), 0);
                break;
            }
            completed = (moves.clone(), depth);
            if let Some(report) = report.as_mut() {
                self.shared.armed.store(true, Ordering::Relaxed);
                let best = &moves[0];
                let progress = Progress {
                    depth,
                    score: self.shared.score_of(best.value),
                    pv: line_moves(self.shared.variant, root, &best.mv, &best.pv),
                    nodes: self.shared.nodes.load(Ordering::Relaxed) + self.pending_nodes,
                    time: self.shared.start.elapsed(),
                    hashfull: self.shared.tt.hashfull(),
                };
                report(&progress);
                let unsettled = last_best.is_some_and(|(index, value)| {
                    index != best.child.index || best.value < value - UNSETTLED_DROP
                });
                last_best = Some((best.child.index, best.value));
                if self.finished(&moves, depth, multipv, unsettled) {
                    break;
                }
            }
            if self.stopped() {
                break;
            }
        }
        completed
    }

    /// The answer of a first iteration cut short: the moves searched by their values
    /// (proven ones only where exact), the others by the evaluation of a result.
    pub(super) fn cut_short(&self, mut moves: Vec<RootMove>) -> Vec<RootMove> {
        for m in &mut moves {
            if m.value == -INFINITY {
                let reached = m.pv.first().copied().unwrap_or(m.child.board);
                m.value = -self.shared.eval.evaluate(&reached);
            } else if !m.exact && is_proven(m.value) {
                m.value = m.value.clamp(-EVAL_LIMIT, EVAL_LIMIT);
            }
            m.exact = false;
        }
        moves.sort_by_key(|m| std::cmp::Reverse(m.value));
        moves
    }

    /// Aspiration windows around the previous value, widened until the value fits.
    pub(super) fn aspiration(
        &mut self,
        root: &Board,
        moves: &mut [RootMove],
        depth: u32,
        previous: i32,
    ) -> i32 {
        let mut width = ASPIRATION_WINDOW;
        let (mut alpha, mut beta) = if depth >= 3 && !is_proven(previous) {
            (previous - width, previous + width)
        } else {
            (-INFINITY, INFINITY)
        };
        loop {
            let value = self.root_pvs(root, moves, depth, alpha, beta);
            if self.stopped() {
                return value;
            }
            if value <= alpha && alpha > -INFINITY {
                alpha = if is_proven(value) {
                    -INFINITY
                } else {
                    (alpha - width).max(-INFINITY)
                };
            } else if value >= beta && beta < INFINITY {
                beta = if is_proven(value) {
                    INFINITY
                } else {
                    (beta + width).min(INFINITY)
                };
            } else {
                return value;
            }
            width *= ASPIRATION_GROWTH;
        }
    }

    /// Whether the main thread may stop: a proven result whose length the completed depth
    /// covers is exact; and with a time limit, an iteration that would not finish is not
    /// worth starting. On a clock (a target time), a proven best move is enough, and the
    /// next iteration is started only if it would end near the target, or well past it
    /// while the best move is `unsettled`.
    pub(super) fn finished(
        &self,
        moves: &[RootMove],
        depth: u32,
        multipv: usize,
        unsettled: bool,
    ) -> bool {
        let shown = &moves[..multipv.min(moves.len())];
        let exact = shown.iter().all(|m| {
            let score = Score::from_value(m.value);
            matches!(score, Score::Win(p) | Score::Loss(p) if p <= depth)
        });
        if exact {
            return true;
        }
        let spent = self.shared.start.elapsed();
        if let Some(target) = self.shared.limits.soft_time {
            if is_proven(moves[0].value) {
                return true;
            }
            let stretch = if unsettled { UNSETTLED_STRETCH } else { 1.0 };
            if spent.mul_f64(ITERATION_GROWTH) > target.mul_f64(stretch) {
                return true;
            }
        }
        match self.shared.deadline {
            Some(deadline) => deadline.saturating_duration_since(Instant::now()) < spent,
            None => false,
        }
    }
}
