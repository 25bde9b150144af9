//! The moves of a node as the search keeps them: generated in the order table entries
//! name them by, a table move found again by listing its pit alone, ordered best first.

use super::*;

/// The move `code` (`Child::code`) names at `board`, listing its pit alone into
/// `scratch`: a walked pit, or the result whose hash matches the code.
pub(super) fn find_coded(
    variant: &Variant,
    board: &Board,
    code: u16,
    walk: ChoiceWalk,
    gen: &mut MoveGen,
    history: &[i32; 16],
    scratch: &mut Vec<Child>,
) -> Option<Child> {
    if code == NO_MOVE {
        return None;
    }
    let lane = (code & ((1 << CODE_LANE_BITS) - 1)) as u32;
    if lane as usize >= variant.pits() || variant.candidate_pits(board) & (1 << lane) == 0 {
        return None;
    }
    scratch.clear();
    generate(variant, board, 1 << lane, Some(walk), gen, history, scratch);
    scratch.iter().find(|c| c.walk || c.code() == code).copied()
}

/// Appends the moves from `pits` at `board` in generation order (the order table
/// entries name them by), and says whether results were left out: each distinct result
/// once, under its first move; then, under optional captures, an entry to walk for each
/// pit that `walk` makes walked (`None`: none, the list holds what the point limit
/// allows).
pub(super) fn generate(
    variant: &Variant,
    board: &Board,
    pits: u32,
    walk: Option<ChoiceWalk>,
    gen: &mut MoveGen,
    history: &[i32; 16],
    list: &mut Vec<Child>,
) -> bool {
    let optional = variant.rules().capture_choice() == isolo_rules::CaptureChoice::Optional;
    let walkable = variant.walks_choices();
    let walk = walk.map(|w| w.for_variant(variant));
    let result = |pit: u8, child: Board, captured: u32| Child {
        board: child,
        index: 0,
        pit,
        order: captured.min(255) as i32 * CAPTURE_ORDER + history[(pit - 1) as usize],
        walk: false,
    };
    let walked = |pit: u8, order: i32| Child {
        board: *board,
        index: 0,
        pit,
        order,
        walk: true,
    };
    // The walked pits with their order, made into entries once the results are listed.
    let mut walks = [(0u8, 0i32); 16];
    let mut walk_count = 0;
    let mut truncated = false;
    match walk {
        Some(ChoiceWalk::All) if walkable => {
            let capturing = variant.first_laps(board, board.to_move()).capturing;
            let mut lanes = pits & variant.candidate_pits(board);
            while lanes != 0 {
                let lane = lanes.trailing_zeros() as usize;
                lanes &= lanes - 1;
                let order = (capturing >> lane & 1) as i32 * CAPTURE_ORDER + history[lane];
                walks[walk_count] = (lane as u8 + 1, order);
                walk_count += 1;
            }
        }
        Some(ChoiceWalk::Vast) if walkable => {
            let mut lanes = pits & variant.candidate_pits(board);
            while lanes != 0 {
                let lane = lanes.trailing_zeros() as usize;
                lanes &= lanes - 1;
                let first = list.len();
                variant.visit_moves(board, 1 << lane, Listing::Results, gen, |m| {
                    list.push(result(m.pit, m.child, m.captured))
                });
                if gen.truncated() {
                    // Listed first are the fewest laps' results: a fair guess at the
                    // pit's worth.
                    let order = list[first..].iter().map(|c| c.order).max().unwrap_or(0);
                    list.truncate(first);
                    walks[walk_count] = (lane as u8 + 1, order);
                    walk_count += 1;
                }
            }
        }
        _ => {
            variant.visit_moves(board, pits, Listing::Results, gen, |m| {
                list.push(result(m.pit, m.child, m.captured))
            });
            truncated = gen.truncated();
        }
    }
    if optional {
        dedup_by_position(list, |c| &c.board);
    }
    list.extend(
        walks[..walk_count]
            .iter()
            .map(|&(pit, order)| walked(pit, order)),
    );
    for (index, child) in list.iter_mut().enumerate() {
        child.index = index as u32;
    }
    truncated
}

/// Moves ordered fully before the first are searched; the rest of a long list (Igisoro
/// positions can have tens of thousands of moves) is ordered only if the search gets
/// that far without a cut-off.
pub(super) const ORDERED_FIRST: usize = 32;

/// Orders `list[from..]` best first: all of it when short, else only its best
/// `ORDERED_FIRST` entries (the rest stays behind them). Ties keep generation order.
pub(super) fn order_front(list: &mut [Child], from: usize) {
    let key = |c: &Child| (std::cmp::Reverse(c.order), c.index);
    let rest = &mut list[from..];
    if from == 0 && rest.len() > ORDERED_FIRST {
        rest.select_nth_unstable_by_key(ORDERED_FIRST, key);
        rest[..ORDERED_FIRST].sort_unstable_by_key(key);
    } else {
        rest.sort_unstable_by_key(key);
    }
}

impl Worker<'_> {
    /// The moves of `board` (see `generate`), ordered best first (the table's move,
    /// coded as `Child::code`, before all), in a buffer of this ply.
    pub(super) fn children(&mut self, board: &Board, ply: usize, table_move: u16) -> Vec<Child> {
        let pits = self.shared.variant.candidate_pits(board);
        let walk = Some(self.shared.walk);
        self.children_from(board, ply, table_move, pits, walk).0
    }

    /// The moves from `pits` only (a bit set as from `candidate_pits`), walked as `walk`
    /// says, and whether results were left out.
    pub(super) fn children_from(
        &mut self,
        board: &Board,
        ply: usize,
        table_move: u16,
        pits: u32,
        walk: Option<ChoiceWalk>,
    ) -> (Vec<Child>, bool) {
        let mut list = if ply < self.buffers.len() {
            std::mem::take(&mut self.buffers[ply])
        } else {
            Vec::new()
        };
        list.clear();
        let history = &self.history[board.to_move() as usize];
        let variant = self.shared.variant;
        let truncated = generate(
            variant,
            board,
            pits,
            walk,
            &mut self.gen,
            history,
            &mut list,
        );
        if let Some(hinted) = list.iter_mut().find(|c| c.code() == table_move) {
            hinted.order = i32::MAX;
        }
        order_front(&mut list, 0);
        (list, truncated)
    }

    pub(super) fn give_back(&mut self, ply: usize, list: Vec<Child>) {
        // (Lists are reused per ply to keep the search free of allocation.)
        if self.buffers.len() <= ply {
            self.buffers.resize_with(ply + 1, Vec::new);
        }
        self.buffers[ply] = list;
    }
}
