//! Lines: the moves of a line of positions, lengthened from the table, and proven lines
//! completed by searches of their own.

use super::*;

/// The moves of a root move's line of positions `boards` (the first reached by `first`).
pub(super) fn line_moves(
    variant: &Variant,
    root: &Board,
    first: &Move,
    boards: &[Board],
) -> Vec<Move> {
    let Some((after_first, rest)) = boards.split_first() else {
        return vec![first.clone()];
    };
    let mut line = vec![first.clone()];
    line.extend(moves_of_boards(variant, after_first, rest));
    debug_assert!(variant
        .play_move(root, first)
        .is_some_and(|m| m.child == *after_first));
    line
}

/// The position the table's best move at `board` leads to, if the table has one; for a
/// walked pit, the result each choice point's better branch leads to.
pub(super) fn table_child(
    tt: &TranspositionTable,
    variant: &Variant,
    board: &Board,
    mode: ChoiceWalk,
    gen: &mut MoveGen,
    walk: &mut MoveWalk,
) -> Option<Board> {
    let code = tt.probe(board.hash())?.best;
    let mut scratch = Vec::new();
    let found = find_coded(variant, board, code, mode, gen, &[0; 16], &mut scratch)?;
    if scratch.iter().filter(|c| c.code() == code).count() > 1 {
        // Two results share the code's fingerprint: which one is meant is not known.
        return None;
    }
    if !found.walk {
        return Some(found.board);
    }
    let mut step = variant.begin_move(board, found.pit, walk);
    loop {
        match step {
            MoveStep::End { child, .. } => return Some(child),
            MoveStep::Dead { .. } => return None,
            MoveStep::Choice(point) => {
                let take = tt.probe(point.key())?.best != PASS;
                step = variant.choose(&point, take, walk);
            }
            // The opponent's answer is not stored: the line stops short of it.
            MoveStep::Answer(_) => return None,
        }
    }
}

/// Lengthens a line cut short by table hits with the table's best moves, up to `wanted`
/// plies, stopping at a repetition or the end of the game.
pub(super) fn extend_from_table(
    tt: &TranspositionTable,
    variant: &Variant,
    mode: ChoiceWalk,
    root: &Board,
    line: &mut Vec<Board>,
    wanted: usize,
) {
    let mut seen: Vec<u64> = std::iter::once(root)
        .chain(line.iter())
        .map(|b| b.hash())
        .collect();
    let mut board = *line.last().unwrap_or(root);
    let (mut gen, mut walk) = (move_generator(), MoveWalk::new());
    while line.len() < wanted {
        let Some(next) = table_child(tt, variant, &board, mode, &mut gen, &mut walk) else {
            return;
        };
        if seen.contains(&next.hash()) {
            return;
        }
        seen.push(next.hash());
        line.push(next);
        board = next;
    }
}

/// Table size for the searches that complete a proven line.
const LINE_HASH_MB: usize = 1;

/// Completes a proven line cut short (its table entries overwritten): the position at its
/// end is itself proven to end within the plies left, so a search to that depth finds how
/// (with `past`, the game before `root`: its positions and plies without a capture).
pub(super) fn complete_proven_line(
    variant: &Variant,
    root: &Board,
    past: Past,
    line: &mut Vec<Board>,
    wanted: usize,
) {
    while line.len() < wanted {
        let mut path = past.hashes.to_vec();
        path.push(root.hash());
        path.extend(
            line[..line.len().saturating_sub(1)]
                .iter()
                .map(|b| b.hash()),
        );
        let board = *line.last().unwrap_or(root);
        let left = (wanted - line.len()) as u32;
        let Ok(mut searcher) = AlphaBeta::new(AlphaBetaConfig {
            threads: 1,
            hash_mb: LINE_HASH_MB,
            ..AlphaBetaConfig::default()
        }) else {
            return; // No memory for a 1 MB table: the line stays as long as it is.
        };
        let quiet_plies = std::iter::once(root)
            .chain(line.iter())
            .zip(line.iter())
            .fold(past.quiet_plies, |quiet, (before, after)| {
                isolo_rules::quiet_plies_after(before, after, quiet)
            });
        let request = SearchRequest {
            variant,
            board,
            history: path,
            quiet_plies,
            limits: Limits {
                depth: Some(left),
                ..Limits::default()
            },
            multipv: 1,
            pv_lines: usize::MAX,
            stop: None,
        };
        let more = search_boards(&mut searcher, &request);
        if more.is_empty() {
            return;
        }
        line.extend(more);
    }
}

/// The positions of the best line of a search (without completing it further).
fn search_boards(searcher: &mut AlphaBeta, request: &SearchRequest) -> Vec<Board> {
    let result = searcher.search(request, &mut |_| {});
    let Some(best) = result.best() else {
        return Vec::new();
    };
    let mut board = request.board;
    let mut boards = Vec::new();
    for mv in &best.pv {
        let Some(played) = request.variant.play_move(&board, mv) else {
            break;
        };
        board = played.child;
        boards.push(board);
    }
    boards
}
