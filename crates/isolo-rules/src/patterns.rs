//! The presets' patterns on any width: where the seeds start and which pits sow
//! clockwise, so a preset carries to narrower boards (RULES.md section 5). They depend
//! on the board alone; the presets themselves are in `rules_file.rs`.

use crate::board::Pits;

/// The start of `family` (a preset) on `columns` columns with `seeds` where the preset
/// has 2 (Isolo) or 4 (the Igisoro family), following the preset's pattern: the women's
/// game fills every pit; Igisoro the back rows; Kubuguza the front rows; Ikibuguzo the
/// back rows, then sows each back-row pit out from the right (its opening turns); the
/// boys' game alternates `seeds` and 0 in the back row, keeps 17 in the ng'hana (pit W)
/// and 1 in pit W+2, and alternates 0 and `seeds` along the rest of the front row, as on
/// the 8-column board. `None` for a name that is not a preset.
pub fn pattern_start(family: &str, columns: u8, seeds: u8) -> Option<[Pits; 2]> {
    let w = columns as usize;
    let k = seeds;
    let ring: Vec<u8> = match family {
        "isolo-women" => vec![k; 2 * w],
        "igisoro" => (1..=2 * w).map(|p| if p <= w { k } else { 0 }).collect(),
        "kubuguza" => (1..=2 * w).map(|p| if p > w { k } else { 0 }).collect(),
        "ikibuguzo" => ikibuguzo_opening(w, k),
        "isolo-boys" => (1..=2 * w)
            .map(|p| match p {
                p if p == w => 17,
                p if p < w => [k, 0][(p - 1) % 2],
                p if p == w + 1 => 0,
                p if p == w + 2 => 1,
                p => [0, k][(p - w) % 2],
            })
            .collect(),
        _ => return None,
    };
    let pits = ring
        .iter()
        .enumerate()
        .fold(Pits::default(), |pits, (lane, &n)| pits.with_seeds(lane, n));
    Some([pits, pits])
}

/// Ikibuguzo's start on `w` columns (RULES.md 5): `seeds` in each back-row pit, then
/// each back-row pit from the right sown out in turn, two seeds into the next pit and
/// one into each after (the opening turns, which leave no choice).
fn ikibuguzo_opening(w: usize, seeds: u8) -> Vec<u8> {
    let mut ring = vec![0; 2 * w];
    ring[..w].fill(seeds);
    for lane in (0..w).rev() {
        let lifted = std::mem::take(&mut ring[lane]);
        let mut to = lane;
        for dropped in 0..lifted {
            // The second seed goes into the first pit too.
            if dropped != 1 {
                to = (to + 1) % (2 * w);
            }
            ring[to] += 1;
        }
    }
    ring
}

/// The clockwise pits of `name` (a preset or reading) on `columns` columns, following
/// its pattern: Kubuguza's (and `igisoro-clockwise`'s) are the back row's two ends and
/// the front row's second pit from each end (RULES.md 5: 1, 8, 10 and 15 on 8 columns);
/// Ikibuguzo's the back row's left end and the front row's second pit from the left (1
/// and 15); the others have none.
pub fn pattern_clockwise(name: &str, columns: u8) -> Vec<u8> {
    let w = columns;
    let mut pits = match name {
        "kubuguza" | "igisoro-clockwise" => vec![1, w, w + 2, 2 * w - 1],
        "ikibuguzo" | "ikibuguzo-opening-1" => vec![1, 2 * w - 1],
        _ => return Vec::new(),
    };
    pits.sort_unstable();
    pits.dedup();
    pits
}
