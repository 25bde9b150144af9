//! The board's geometry, derived from its number of columns for the fast board: the
//! loops a lap follows (the full loop, the overture's, each both ways) and which of the
//! opponent's pits a lap ending in each of the mover's pits faces (RULES.md section 2).

use crate::ring::{LoopTable, Ring, MAX_LANES};

/// Where a capture from one of the mover's pits takes seeds.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct CaptureSpot {
    /// 0xFF in each facing opponent lane that counts (0, 1 or 2 of them, in the
    /// opponent's ring): the seeds at stake are `theirs & mask`.
    pub mask: Ring,
}

/// `Geometry::capture`'s table where every facing pit can be captured.
pub(crate) const CAPTURE_OPEN: usize = 0;
/// `Geometry::capture`'s table that protects the opponent's rightmost column.
pub(crate) const CAPTURE_PROTECTED: usize = 1;
/// `Geometry::capture`'s table without a capture: for a first move that may not capture.
pub(crate) const CAPTURE_BARRED: usize = 2;

/// Tables derived from the rules for the fast board.
#[derive(Clone, Debug)]
pub(crate) struct Geometry {
    /// Lap tables for the full loop of 2W pits.
    pub full: LoopTable,
    /// Lap tables for the overture loop (the ng'hana's column left out).
    pub overture: LoopTable,
    /// `capture[CAPTURE_PROTECTED][lane]` (or `CAPTURE_OPEN`): facing lanes for a lap
    /// ending in `lane`, protected when the opponent's rightmost column cannot be
    /// captured; `capture[CAPTURE_BARRED]` has none, for a move that may not capture.
    pub capture: [[CaptureSpot; MAX_LANES]; 3],
    /// The clockwise loops: `full` and `overture` sown the other way round.
    pub full_clockwise: LoopTable,
    /// The overture loop sown clockwise.
    pub overture_clockwise: LoopTable,
    /// The ng'hana's lane (back pit W).
    pub nghana: usize,
    /// The front pit of the rightmost column (pit W + 1).
    pub front_right: usize,
    /// Bit set of all the side's lanes.
    pub all_lanes: u32,
}

impl Geometry {
    /// The tables for a board of `columns` columns.
    pub(crate) fn new(columns: u8) -> Geometry {
        let w = columns as usize;
        let pits = 2 * w;
        let full: Vec<usize> = (0..pits).collect();
        let overture: Vec<usize> = (0..pits).filter(|&l| l != w - 1 && l != w).collect();
        // My front pit f = lane + 1 faces the opponent's front pit 3W + 1 - f and back pit
        // f - W (RULES.md section 2); under protection their rightmost column (lanes W - 1
        // and W) does not count.
        let spot = |lane: usize, protected: bool| {
            let mut spot = CaptureSpot::default();
            if lane < w || lane >= pits {
                return spot;
            }
            let f = lane + 1;
            for facing in [3 * w - f, f - w - 1] {
                if !(protected && (facing == w - 1 || facing == w)) {
                    spot.mask |= crate::ring::lane_mask(facing);
                }
            }
            spot
        };
        let [open, protected] =
            [false, true].map(|protected| std::array::from_fn(|lane| spot(lane, protected)));
        let reversed =
            |lanes: &[usize]| LoopTable::new(&lanes.iter().rev().copied().collect::<Vec<_>>());
        Geometry {
            full: LoopTable::new(&full),
            overture: LoopTable::new(&overture),
            capture: [open, protected, [CaptureSpot::default(); MAX_LANES]],
            full_clockwise: reversed(&full),
            overture_clockwise: reversed(&overture),
            nghana: w - 1,
            front_right: w,
            all_lanes: (1u32 << pits) - 1,
        }
    }
}
