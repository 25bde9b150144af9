//! Helpers shared by the integration tests.

#![allow(dead_code)]

pub mod process;
pub mod reference;
pub mod server;

use isolo_rules::{
    Board, CaptureChoice, CaptureCondition, MoveGen, Rules, Side, SowOrigin, Variant,
};
use reference::RefPosition;

/// A small deterministic generator (splitmix64), so failures replay from their seed.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize]
    }
}

/// Rows text for a board of `columns` columns from a per-pit seed function.
pub fn rows_text(columns: usize, mut seeds: impl FnMut(usize, usize) -> u32) -> String {
    (0..4)
        .map(|r| {
            (0..columns)
                .map(|c| seeds(r, c).to_string())
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// Random rules: a preset as is a third of the time, otherwise every key drawn at random
/// (all widths, all readings, small `max_laps` to reach that limit too).
pub fn random_rules(rng: &mut Rng) -> Rules {
    let preset = Rules::preset(rng.pick(&["isolo-women", "isolo-boys", "igisoro"])).unwrap();
    if rng.chance(33) {
        return preset;
    }
    let columns = 2 + rng.below(7) as u8;
    let overture = rng.chance(40);
    let max_seed = rng.pick(&[2u64, 3, 4, 6]);
    let start = rows_text(columns as usize, |r, c| {
        // Pit W + 1 (the front pit of the rightmost column) is out of play in overture.
        let front_right = (r == 2 && c == columns as usize - 1) || (r == 1 && c == 0);
        if overture && front_right {
            0
        } else {
            rng.below(max_seed + 1) as u32
        }
    });
    Rules {
        name: "random".into(),
        columns,
        start: isolo_rules::notation::parse_rows(&start, columns).unwrap(),
        min_sow: rng.pick(&[1, 1, 2, 2, 3]),
        capture: rng.pick(&[CaptureCondition::Any, CaptureCondition::Both]),
        capture_choice: rng.pick(&[CaptureChoice::Forced, CaptureChoice::Optional]),
        capture_sow_from: rng.pick(&[
            SowOrigin::LapStart,
            SowOrigin::CapturePit,
            SowOrigin::TurnStart,
        ]),
        overture,
        overture_protects: rng.chance(70),
        capture_ends_move: rng.chance(30),
        max_laps: rng.pick(&[1, 2, 3, 5, 8, 20, 100, 1000]),
    }
}

/// The reference's view of a library board.
pub fn to_reference(variant: &Variant, board: &Board) -> RefPosition {
    let w = variant.columns() as usize;
    let side_pits = |side| (1..=2 * w).map(|p| board.seeds(side, p) as u32).collect();
    RefPosition {
        w,
        pits: [side_pits(Side::South), side_pits(Side::North)],
        to_move: board.to_move() as usize,
        in_overture: [
            board.in_overture(Side::South),
            board.in_overture(Side::North),
        ],
    }
}

/// A value known by exhaustive minimax within a horizon.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Known {
    Win(u32),
    Loss(u32),
    /// Not decided within the horizon (or a draw by repetition).
    Open,
}

/// Exhaustive minimax to `depth` plies with the searchers' conventions: no legal move
/// loses, and a position repeating one of the path is a draw (never a proof).
pub fn brute_force(
    variant: &Variant,
    board: &Board,
    depth: u32,
    path: &mut Vec<u64>,
    gen: &mut MoveGen,
) -> Known {
    let mut children = Vec::new();
    variant.children(board, gen, &mut children);
    if children.is_empty() {
        return Known::Loss(0);
    }
    if depth == 0 {
        return Known::Open;
    }
    path.push(board.hash());
    let mut shortest_win = None;
    let mut longest_loss = Some(0);
    for child in &children {
        let value = if path.contains(&child.hash()) {
            Known::Open
        } else {
            brute_force(variant, child, depth - 1, path, gen)
        };
        match value {
            Known::Loss(n) => {
                shortest_win = Some(shortest_win.map_or(n + 1, |w: u32| w.min(n + 1)))
            }
            Known::Win(n) => longest_loss = longest_loss.map(|l: u32| l.max(n + 1)),
            Known::Open => longest_loss = None,
        }
    }
    path.pop();
    match (shortest_win, longest_loss) {
        (Some(w), _) => Known::Win(w),
        (None, Some(l)) => Known::Loss(l),
        (None, None) => Known::Open,
    }
}

/// Positions on small random boards (at most `max_columns` columns; optional captures
/// only on two), a few random plies after the start, each with a legal move.
pub fn small_positions(count: usize, seed: u64, max_columns: u8) -> Vec<(Variant, Board)> {
    let mut rng = Rng(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let mut rules = random_rules(&mut rng);
        if rules.columns > max_columns
            || rules.capture_choice == CaptureChoice::Optional && rules.columns > 2
        {
            continue;
        }
        rules.max_laps = rules.max_laps.max(20);
        let variant = Variant::new(rules).unwrap();
        let mut board = variant.start();
        for _ in 0..rng.below(6) {
            let moves = variant.legal_moves(&board);
            if moves.is_empty() {
                break;
            }
            board = moves[rng.below(moves.len() as u64) as usize].child;
        }
        if !variant.legal_moves(&board).is_empty() {
            out.push((variant, board));
        }
    }
    out
}

/// `brute_force` from a fresh path and generator: the value of `board` within `depth`.
pub fn known_within(variant: &Variant, board: &Board, depth: u32) -> Known {
    brute_force(variant, board, depth, &mut Vec::new(), &mut MoveGen::new())
}

/// Checks how a refused command ended: exit status 2, one line on stderr starting
/// `error: ` and containing `expected`, no panic, nothing on stdout.
pub fn assert_refused(
    args: &[&str],
    code: Option<i32>,
    stdout: &str,
    stderr: &str,
    expected: &str,
) {
    assert_eq!(code, Some(2), "{args:?}: {stderr}");
    assert_eq!(
        stderr.lines().count(),
        1,
        "{args:?}: one line, got {stderr:?}"
    );
    assert!(stderr.starts_with("error: "), "{args:?}: {stderr}");
    assert!(
        !stderr.contains("panicked") && !stderr.contains("internal error"),
        "{args:?}: {stderr}"
    );
    assert!(
        stderr.contains(expected),
        "{args:?}: {stderr:?} lacks {expected:?}"
    );
    assert!(stdout.is_empty(), "{args:?} printed {stdout:?}");
}
