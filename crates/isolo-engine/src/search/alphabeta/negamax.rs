//! The negamax of one node: its table entry, its moves listed or walked, principal
//! variation search over them, the value stored.

use super::*;

impl Worker<'_> {
    /// The value of `board` if it is a dead position the rules end (`dead_position`):
    /// a draw, valued as a fortress's draw (exact without contempt; with it, as the
    /// engine's contempt says, so that it seeks or shuns the dead draw as it does a
    /// fortress), or under a count the mover's win or loss now; a mover without a move
    /// has lost first.
    pub(super) fn dead_end(&mut self, board: &Board, ply: usize) -> Option<i32> {
        let outcome = isolo_rules::dead_position_outcome(self.shared.variant, board)?;
        if !self.shared.variant.has_legal_move(board, &mut self.gen) {
            return Some(loss_in(ply as i32));
        }
        Some(match outcome.winner {
            None => self.shared.eval.fortress_draw(board.to_move()),
            Some(side) if side == board.to_move() => win_in(ply as i32),
            Some(_) => loss_in(ply as i32),
        })
    }

    pub(super) fn reward_history(&mut self, board: &Board, pit: u8, depth: u32) {
        let row = &mut self.history[board.to_move() as usize];
        row[(pit - 1) as usize] += (depth * depth) as i32;
        if row[(pit - 1) as usize] > HISTORY_MAX {
            row.iter_mut().for_each(|h| *h /= 2);
        }
    }

    /// Counts the plies without a capture up to `board` at `ply` (its parent's count
    /// at `ply - 1`), and values the position where the long-game rule ends the game
    /// there (RULES.md 3.6) and the side to move has a move (else it has lost first): a
    /// draw, or under a count the seeds' verdict as an evaluation, not a proof, since
    /// the count's history is not in the table's key.
    fn long_game_end(&mut self, board: &Board, ply: usize) -> Option<i32> {
        let (limit, ending) = self.shared.long_game?;
        if ply > 0 {
            let south = board.side_total(Side::South);
            let (quiet, parent_south) = self.quiet[ply - 1];
            let quiet = if south == parent_south { quiet + 1 } else { 0 };
            self.quiet[ply] = (quiet, south);
        }
        if self.quiet[ply].0 < limit || !self.shared.variant.has_legal_move(board, &mut self.gen) {
            return None;
        }
        let value = match ending {
            LongGameEnding::Draw => DRAW,
            LongGameEnding::Count => {
                let mine = board.side_total(board.to_move()) as i32;
                let theirs = board.side_total(board.to_move().opponent()) as i32;
                (mine - theirs).signum() * EVAL_LIMIT
            }
        };
        Some(value)
    }

    /// Negamax with alpha-beta and PVS; values are from the side to move at `board`.
    pub(super) fn negamax(
        &mut self,
        board: &Board,
        depth: u32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
    ) -> i32 {
        self.pv[ply].clear();
        // 1. Draw by repetition of a position of the game or the path.
        if self.path.contains(&board.hash()) {
            return DRAW;
        }
        // 1a. The long-game rule ends the line.
        if let Some(value) = self.long_game_end(board, ply) {
            return value;
        }
        // 1b. A dead position the rules end (a side with moves is not stuck there).
        if self.shared.dead_ends {
            if let Some(value) = self.dead_end(board, ply) {
                return value;
            }
        }
        // 2. Mate-distance bounds: nothing here beats a win next move or loses faster
        // than now.
        alpha = alpha.max(loss_in(ply as i32));
        beta = beta.min(win_in(ply as i32 + 1));
        if alpha >= beta {
            return alpha;
        }
        // 3. Horizon: a position without moves is lost, else evaluate once the captures
        // in reach are played out. (Leaves skip the table: a probe there costs more than
        // the evaluation it would save.)
        if depth == 0 {
            if !self.shared.variant.has_legal_move(board, &mut self.gen) {
                return loss_in(ply as i32);
            }
            let plies = self.shared.quiescence;
            return self.quiescence(board, alpha, beta, ply, plies);
        }
        // 4. Table.
        let key = board.hash();
        let mut table_move = NO_MOVE;
        if let Some(entry) = self.shared.tt.probe(key) {
            table_move = entry.best;
            if entry.depth as u32 >= depth {
                let value = from_table(entry.value, ply);
                let cut = match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => value >= beta,
                    Bound::Upper => value <= alpha,
                };
                if cut {
                    return value;
                }
            }
        }
        // 5. Principal variation search: the table's move first, then the rest, ordered.
        // Under optional captures the table's move is found by listing its pit alone, as
        // a cut-off by it saves listing the others; a forced move list costs little.
        let mut node = NodeSearch {
            alpha,
            beta,
            best: -INFINITY,
            best_move: NO_MOVE,
            searched: 0,
        };
        self.path.push(key);
        let first = if self.shared.optional {
            self.table_child(board, table_move)
        } else {
            None
        };
        let mut done = false;
        if let Some(child) = first {
            done = self.search_next(board, &child, depth, ply, &mut node);
        }
        if !done {
            self.search_listed(board, depth, ply, (table_move, first), &mut node);
        }
        let NodeSearch {
            best, best_move, ..
        } = node;
        self.path.pop();
        if self.stopped() {
            return DRAW;
        }
        if best == -INFINITY {
            // No legal move (or only walked pits, none with one).
            return loss_in(ply as i32);
        }
        // 6. Remember.
        self.store(key, best, best_move, depth, (alpha, beta), ply);
        best
    }

    /// Searches one move at a node (PVS: a null window once a move has been searched);
    /// true when the node is done: a cut-off, or the search stopped.
    pub(super) fn search_next(
        &mut self,
        board: &Board,
        child: &Child,
        depth: u32,
        ply: usize,
        node: &mut NodeSearch,
    ) -> bool {
        let later = node.searched > 0;
        let window = (node.alpha, node.beta);
        let value = self.search_child(board, child, depth, window, ply, later);
        node.searched += 1;
        if self.stopped() {
            return true;
        }
        node.improve(value, child.code())
    }

    /// Searches the whole list of moves, best ordered first, the table's move first
    /// unless it was searched already (`first`).
    pub(super) fn search_listed(
        &mut self,
        board: &Board,
        depth: u32,
        ply: usize,
        (table_move, first): (u16, Option<Child>),
        node: &mut NodeSearch,
    ) {
        let mut children = self.children(board, ply, table_move);
        for i in 0..children.len() {
            if i == ORDERED_FIRST && children.len() > ORDERED_FIRST {
                order_front(&mut children, ORDERED_FIRST);
            }
            let child = children[i];
            if first.is_some_and(|f| f.same_move(&child)) {
                continue;
            }
            if self.search_next(board, &child, depth, ply, node) {
                if node.cut() {
                    self.reward_history(board, child.pit, depth);
                }
                break;
            }
        }
        self.give_back(ply, children);
    }

    /// The lanes of `pits` in the order the quiescence search lists them: the larger
    /// capture by the first lap (`takes`, by lane) first, then by history (lanes in order
    /// on ties).
    pub(super) fn pit_order(
        &self,
        board: &Board,
        pits: u32,
        takes: &[u8; 16],
    ) -> ([u8; 16], usize) {
        let history = &self.history[board.to_move() as usize];
        let mut lanes = [0u8; 16];
        let mut count = 0;
        let mut rest = pits;
        while rest != 0 {
            lanes[count] = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            count += 1;
        }
        let key = |&lane: &u8| {
            let l = lane as usize;
            std::cmp::Reverse(takes[l] as i32 * CAPTURE_ORDER + history[l])
        };
        lanes[..count].sort_by_key(key);
        (lanes, count)
    }

    /// The value of one move (for a walked pit, of its best move) for the side to move
    /// at `board`, with PVS: a null window first if `later`. Sets the line from `ply`
    /// when the value passes alpha.
    pub(super) fn search_child(
        &mut self,
        board: &Board,
        child: &Child,
        depth: u32,
        (alpha, beta): (i32, i32),
        ply: usize,
        later: bool,
    ) -> i32 {
        if child.walk {
            let turn = Turn {
                depth,
                ply,
                choices: 0,
                searched: later,
            };
            return self.walk_pit(board, child.pit, turn, alpha, beta);
        }
        self.search_result(&child.board, depth, (alpha, beta), ply, later)
    }

    /// The value of the move to `child` for the side to move at `ply`, with PVS: a null
    /// window first if `later`. Sets the line from `ply` when the value passes alpha.
    pub(super) fn search_result(
        &mut self,
        child: &Board,
        depth: u32,
        (alpha, beta): (i32, i32),
        ply: usize,
        later: bool,
    ) -> i32 {
        self.count_node();
        let value = if !later {
            -self.negamax(child, depth - 1, -beta, -alpha, ply + 1)
        } else {
            let probe = -self.negamax(child, depth - 1, -alpha - 1, -alpha, ply + 1);
            if probe > alpha && probe < beta {
                -self.negamax(child, depth - 1, -beta, -alpha, ply + 1)
            } else {
                probe
            }
        };
        if value > alpha && !self.stopped() {
            self.set_pv(ply, *child);
        }
        value
    }

    /// The move a table entry names (`Child::code`), found by listing its pit alone.
    pub(super) fn table_child(&mut self, board: &Board, code: u16) -> Option<Child> {
        let variant = self.shared.variant;
        let history = &self.history[board.to_move() as usize];
        let walk = self.shared.walk;
        find_coded(
            variant,
            board,
            code,
            walk,
            &mut self.gen,
            history,
            &mut self.scratch,
        )
    }

    /// Stores a value found with the window `(alpha, beta)`.
    pub(super) fn store(
        &self,
        key: u64,
        best: i32,
        best_move: u16,
        depth: u32,
        window: (i32, i32),
        ply: usize,
    ) {
        let bound = if best >= window.1 {
            Bound::Lower
        } else if best > window.0 {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let entry = Entry {
            value: to_table(best, ply),
            best: best_move,
            depth: depth.min(255) as u8,
            bound,
        };
        self.shared.tt.store(key, entry);
    }

    /// The line from `ply`: `child`, then the line from the ply after.
    pub(super) fn set_pv(&mut self, ply: usize, child: Board) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply].clear();
        head[ply].push(child);
        head[ply].extend_from_slice(&tail[0]);
    }
}
