//! Helpers of the rules' tests, shared with the workspace's integration tests
//! (`tests/common` includes this file): a seeded generator, random rules, and the naive
//! reference board with the conversion to it.

#![allow(dead_code)]

pub mod reference;

use isolo_rules::{
    Board, CaptureChoice, CaptureCondition, CaptureWin, ClockwiseAt, ClockwiseLaps, ClockwiseLeave,
    ClockwiseWhen, FirstMoveCaptures, Retreat, Rules, Side, SowOrigin, Variant,
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
    let preset = Rules::preset(rng.pick(&isolo_rules::PRESETS)).unwrap();
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
    let capture_choice = rng.pick(&[CaptureChoice::Forced, CaptureChoice::Optional]);
    let capture_ends_move = rng.chance(30);
    // Clockwise sowing, with captures that do not end the move, half the time.
    let clockwise_from = if !capture_ends_move && rng.chance(50) {
        (1..=2 * columns).filter(|_| rng.chance(35)).collect()
    } else {
        Vec::new()
    };
    // From the draws above, so that adding the key left every later draw as it was;
    // under forced captures only, whose moves are few enough for the brute-force tests
    // (with optional ones, turning into the pits too makes their minimax take minutes).
    let clockwise_at = if clockwise_from.len() % 2 == 1 && capture_choice == CaptureChoice::Forced {
        ClockwiseAt::StartOrEnd
    } else {
        ClockwiseAt::Start
    };
    // Also from the draws above: optional captures on boards of 3, 5 or 7 columns, with
    // at most two clockwise pits (with more, each answer doubling the sequences a turn
    // can take, listing them all makes the comparison with the reference minutes).
    let retreat = if capture_choice == CaptureChoice::Optional
        && columns % 2 == 1
        && clockwise_from.len() <= 2
    {
        Retreat::FrontToBack
    } else {
        Retreat::None
    };
    let mut rules = Rules::preset("isolo-women").unwrap().to_builder();
    rules
        .name("random")
        .columns(columns)
        .start(isolo_rules::parse_rows(&start, columns).unwrap())
        .min_sow(rng.pick(&[1, 1, 2, 2, 3]))
        .capture(rng.pick(&[CaptureCondition::Any, CaptureCondition::Both]))
        .capture_choice(capture_choice)
        .capture_sow_from(rng.pick(&[
            SowOrigin::LapStart,
            SowOrigin::CapturePit,
            SowOrigin::TurnStart,
            SowOrigin::LapStartPit,
        ]))
        .overture(overture)
        .overture_protects(rng.chance(70))
        .capture_ends_move(capture_ends_move)
        .max_laps(rng.pick(&[1, 2, 3, 5, 8, 20, 100, 1000]))
        .dead_position(isolo_rules::DeadPosition::Draw)
        .first_move_captures(rng.pick(&[
            FirstMoveCaptures::Allowed,
            FirstMoveCaptures::BarredFirst,
            FirstMoveCaptures::BarredEach,
        ]))
        .clockwise_from(clockwise_from)
        // (`first-sowing` is read with forced captures only.)
        .clockwise_laps(match capture_choice {
            CaptureChoice::Forced => rng.pick(&[
                ClockwiseLaps::First,
                ClockwiseLaps::Any,
                ClockwiseLaps::FirstSowing,
            ]),
            CaptureChoice::Optional => rng.pick(&[ClockwiseLaps::First, ClockwiseLaps::Any]),
        })
        .clockwise_when(rng.pick(&[ClockwiseWhen::Captures, ClockwiseWhen::FacesSeeds]))
        .clockwise_at(clockwise_at)
        .clockwise_leave(ClockwiseLeave::None)
        .capture_win(rng.pick(&[CaptureWin::None, CaptureWin::FrontEnds]))
        .retreat(retreat);
    // From the draws above too: Ikibuguzo's leave wherever its reading applies, on
    // boards of an even number of columns.
    let drawn = rules.so_far();
    let leave_reading = drawn.capture_choice() == CaptureChoice::Forced
        && drawn.capture_sow_from() == SowOrigin::LapStartPit
        && drawn.clockwise_from().len() == 2
        && drawn.clockwise_at() == ClockwiseAt::Start;
    if leave_reading && columns.is_multiple_of(2) {
        rules.clockwise_leave(ClockwiseLeave::OtherPit);
    }
    rules.build().expect("random rules hold together")
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
        first_move: [
            board.first_move_pending(Side::South),
            board.first_move_pending(Side::North),
        ],
        lost: board.ends_captured(),
    }
}
