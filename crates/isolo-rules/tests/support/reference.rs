//! A plain reference implementation of RULES.md, written for clarity, not speed: pits
//! in arrays, seeds sown one at a time, loops found by keeping every turning point of
//! the move in a list. The fast board is checked against it.

#![allow(dead_code)]

use isolo_rules::{
    CaptureChoice, CaptureCondition, CaptureWin, ClockwiseAt, ClockwiseLaps, ClockwiseLeave,
    ClockwiseWhen, Retreat, Rules, SowOrigin,
};

pub const SOUTH: usize = 0;
pub const NORTH: usize = 1;

/// A position: `pits[side][n - 1]` is the seed count of `side`'s pit `n`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefPosition {
    pub w: usize,
    pub pits: [Vec<u32>; 2],
    pub to_move: usize,
    pub in_overture: [bool; 2],
    /// Whose first move, still to come, may not capture.
    pub first_move: [bool; 2],
    /// Whether the side to move has lost by `capture_win`.
    pub lost: bool,
}

/// One legal move: its text, the position it leads to, laps and captured seeds.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct RefMove {
    pub text: String,
    pub result: String,
    pub laps: u32,
    pub captured: u32,
}

impl RefPosition {
    /// Canonical text (RULES.md 6), written independently of the library: the overture
    /// field where the rules have an overture, the first-move field where they bar
    /// first moves' captures.
    pub fn text(&self, rules: &Rules) -> String {
        let flags_text = |flags: [bool; 2]| match flags {
            [false, false] => "-",
            [true, false] => "S",
            [false, true] => "N",
            [true, true] => "SN",
        };
        let w = self.w;
        let row = |side: usize, pits: Vec<usize>| {
            pits.iter()
                .map(|p| self.pits[side][p - 1].to_string())
                .collect::<Vec<_>>()
                .join(",")
        };
        // North's back row seen from South: North's pits W..1; North's front: W+1..2W.
        let north_back = row(NORTH, (1..=w).rev().collect());
        let north_front = row(NORTH, (w + 1..=2 * w).collect());
        // South's front row seen from South: pits 2W..W+1; back: 1..W.
        let south_front = row(SOUTH, (w + 1..=2 * w).rev().collect());
        let south_back = row(SOUTH, (1..=w).collect());
        let side = if self.to_move == SOUTH { "S" } else { "N" };
        let mut text = format!("{north_back}/{north_front}/{south_front}/{south_back} {side}");
        if rules.overture() {
            text.push(' ');
            text.push_str(flags_text(self.in_overture));
        }
        if rules.first_move_captures() != isolo_rules::FirstMoveCaptures::Allowed {
            text.push(' ');
            text.push_str(flags_text(self.first_move));
        }
        if rules.capture_win() != CaptureWin::None {
            // The winner: the player who just moved.
            let winner = [
                self.lost && self.to_move == NORTH,
                self.lost && self.to_move == SOUTH,
            ];
            text.push(' ');
            text.push_str(flags_text(winner));
        }
        text
    }
}

#[derive(Clone, PartialEq, Eq)]
struct TurningPoint {
    pits: [Vec<u32>; 2],
    end: usize,
    origin: usize,
}

struct Search<'a> {
    rules: &'a Rules,
    mover: usize,
    turn_pit: usize,
    sow_loop: Vec<usize>,
    protected: Vec<usize>,
    /// Whether this move may not capture (the mover's first, under `first_move_captures`).
    barred: bool,
    start: RefPosition,
    out: Vec<(RefMove, RefPosition)>,
    /// Whether the move's first lap could go clockwise (its letter is then the first).
    first_could_turn: bool,
}

/// Every legal move of `pos` under `rules`.
pub fn legal_moves(rules: &Rules, pos: &RefPosition) -> Vec<RefMove> {
    legal_children(rules, pos)
        .into_iter()
        .map(|(m, _)| m)
        .collect()
}

/// Perft (RULES.md 9) with the reference rules.
pub fn perft(rules: &Rules, pos: &RefPosition, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    legal_children(rules, pos)
        .iter()
        .map(|(_, child)| perft(rules, child, depth - 1))
        .sum()
}

/// Whether `side` may start a move from `pit`, and if so the loop it sows round and the
/// opponent pits that cannot be captured.
fn start_of_move(
    rules: &Rules,
    pos: &RefPosition,
    side: usize,
    pit: usize,
) -> Option<(Vec<usize>, Vec<usize>)> {
    let w = pos.w;
    let in_overture = pos.in_overture[side];
    let loop_pits: Vec<usize> = if in_overture && pit != w {
        (1..=2 * w).filter(|&p| p != w && p != w + 1).collect()
    } else {
        (1..=2 * w).collect()
    };
    if !loop_pits.contains(&pit) || pos.pits[side][pit - 1] < rules.min_sow() as u32 {
        return None;
    }
    let protected = if rules.overture_protects() && pos.in_overture[1 - side] {
        vec![w, w + 1]
    } else {
        vec![]
    };
    Some((loop_pits, protected))
}

/// Every legal move of `pos` with the position it leads to.
pub fn legal_children(rules: &Rules, pos: &RefPosition) -> Vec<(RefMove, RefPosition)> {
    let w = pos.w;
    let mover = pos.to_move;
    let mut all = Vec::new();
    if pos.lost {
        return all;
    }
    for pit in 1..=2 * w {
        let nghana = pit == w;
        let in_overture = pos.in_overture[mover];
        let Some((loop_pits, protected)) = start_of_move(rules, pos, mover, pit) else {
            continue;
        };
        let mut start = pos.clone();
        if in_overture && nghana {
            start.in_overture[mover] = false;
        }
        start.first_move[mover] = false;
        let mut search = Search {
            rules,
            mover,
            turn_pit: pit,
            sow_loop: loop_pits,
            protected,
            barred: pos.first_move[mover],
            start,
            out: Vec::new(),
            first_could_turn: false,
        };
        let mut board = search.start.pits.clone();
        let seeds = board[mover][pit - 1];
        board[mover][pit - 1] = 0;
        search.lap(board, pit, seeds, 0, 0, String::new(), Vec::new());
        all.extend(search.out);
    }
    all
}

/// What the first lap from each pit `side` could start from would do, were it `side`'s
/// turn: `(pits ending in an empty pit, capturing, relaying, most seeds one capture
/// takes)`.
pub fn first_laps(rules: &Rules, pos: &RefPosition, side: usize) -> (u32, u32, u32, u32) {
    let w = pos.w;
    let mut counts = (0, 0, 0, 0);
    if pos.lost {
        return counts;
    }
    for pit in 1..=2 * w {
        let Some((loop_pits, protected)) = start_of_move(rules, pos, side, pit) else {
            continue;
        };
        let search = Search {
            rules,
            mover: side,
            turn_pit: pit,
            sow_loop: loop_pits,
            protected,
            barred: pos.first_move[side],
            start: pos.clone(),
            out: Vec::new(),
            first_could_turn: false,
        };
        let mut lifted = pos.pits.clone();
        let seeds = lifted[side][pit - 1];
        lifted[side][pit - 1] = 0;
        // The seeds the lap takes sown one way (`None`: it ends in an empty pit).
        let lap_take = |clockwise: bool| {
            let mut board = lifted.clone();
            let end = search.sow_way(&mut board, pit, seeds, clockwise);
            let targets = search.capture_targets(&board, end);
            (board[side][end - 1] > 1)
                .then(|| targets.iter().map(|p| board[1 - side][p - 1]).sum::<u32>())
        };
        let anticlockwise = lap_take(false);
        // A first lap that may go clockwise (RULES.md 3.7) captures if either way does.
        let clockwise = match search.may_turn(&lifted, (pit, seeds, 0), "", false) {
            true => lap_take(true).unwrap_or(0),
            false => 0,
        };
        match anticlockwise.unwrap_or(0).max(clockwise) {
            0 if anticlockwise.is_none() => counts.0 += 1,
            0 => counts.2 += 1,
            take => {
                counts.1 += 1;
                counts.3 = counts.3.max(take);
            }
        }
    }
    counts
}

impl Search<'_> {
    fn finish(&mut self, board: [Vec<u32>; 2], laps: u32, captured: u32, choices: String) {
        let mut result = self.start.clone();
        // RULES.md 3.6: both the opponent's front-row end pits held seeds and now none.
        let w = result.w;
        let ends =
            |pits: &[Vec<u32>; 2]| [pits[1 - self.mover][w], pits[1 - self.mover][2 * w - 1]];
        result.lost = self.rules.capture_win() == CaptureWin::FrontEnds
            && ends(&self.start.pits).iter().all(|&n| n > 0)
            && ends(&board).iter().all(|&n| n == 0);
        result.pits = board;
        result.to_move = 1 - self.mover;
        let text = result.text(self.rules);
        self.out.push((
            RefMove {
                text: format!("{}{choices}", self.turn_pit),
                result: text,
                laps,
                captured,
            },
            result,
        ));
    }

    /// Sows `seeds` from the pit after `from`; returns the pit of the last seed.
    fn sow(&self, board: &mut [Vec<u32>; 2], from: usize, seeds: u32) -> usize {
        self.sow_way(board, from, seeds, false)
    }

    /// Sows `seeds` from the pit after `from`, anticlockwise or `clockwise` (the loop
    /// walked backwards); returns the pit of the last seed.
    fn sow_way(
        &self,
        board: &mut [Vec<u32>; 2],
        from: usize,
        seeds: u32,
        clockwise: bool,
    ) -> usize {
        let len = self.sow_loop.len();
        let mut index = self
            .sow_loop
            .iter()
            .position(|&p| p == from)
            .expect("lap starts in the loop");
        for _ in 0..seeds {
            index = if clockwise {
                (index + len - 1) % len
            } else {
                (index + 1) % len
            };
            board[self.mover][self.sow_loop[index] - 1] += 1;
        }
        self.sow_loop[index]
    }

    /// Whether the `laps + 1`th lap, `seeds` from `from`, may go clockwise, `turns` the
    /// directions of the laps before it that could turn (`'c'` clockwise, in order;
    /// `first_could_turn`: the first lap's among them): from a pit of `clockwise_from`, a
    /// lap that may turn, and capturing where it ends.
    fn may_turn(
        &self,
        board: &[Vec<u32>; 2],
        (from, seeds, laps): (usize, u32, u32),
        turns: &str,
        first_could_turn: bool,
    ) -> bool {
        let from_a_pit = self.rules.clockwise_from().contains(&(from as u8));
        let first_clockwise = first_could_turn && turns.starts_with('c');
        let lap_may_turn = match self.rules.clockwise_laps() {
            ClockwiseLaps::First => laps == 0,
            ClockwiseLaps::Any => true,
            // After an anticlockwise first lap, one clockwise lap in all.
            ClockwiseLaps::FirstSowing => first_clockwise || !turns.contains('c'),
        };
        if !(from_a_pit || self.rules.clockwise_at() == ClockwiseAt::StartOrEnd) || !lap_may_turn {
            return false;
        }
        let mut after = board.clone();
        let end = self.sow_way(&mut after, from, seeds, true);
        // Or into one of them (`clockwise_at = "start-or-end"`).
        if !from_a_pit && !self.rules.clockwise_from().contains(&(end as u8)) {
            return false;
        }
        if self.rules.clockwise_when() == ClockwiseWhen::FacesSeeds {
            // Ludii's reading: facing seeds suffice, whatever the pit and the first move.
            return !self.facing_targets(&after, end).is_empty();
        }
        after[self.mover][end - 1] > 1 && !self.capture_targets(&after, end).is_empty()
    }

    /// The opponent pits a capture at my pit `end` would take (empty: none).
    fn capture_targets(&self, board: &[Vec<u32>; 2], end: usize) -> Vec<usize> {
        if self.barred {
            return vec![];
        }
        self.facing_targets(board, end)
    }

    /// The opponent pits a capture at my pit `end` would take were the move free to
    /// capture (empty: none).
    fn facing_targets(&self, board: &[Vec<u32>; 2], end: usize) -> Vec<usize> {
        let w = self.start.w;
        if end <= w {
            return vec![];
        }
        let counted: Vec<usize> = [3 * w + 1 - end, end - w]
            .into_iter()
            .filter(|p| !self.protected.contains(p))
            .collect();
        let opponent = &board[1 - self.mover];
        let ok = match self.rules.capture() {
            CaptureCondition::Any => counted.iter().any(|&p| opponent[p - 1] > 0),
            CaptureCondition::Both => {
                !counted.is_empty() && counted.iter().all(|&p| opponent[p - 1] > 0)
            }
        };
        if ok {
            counted
        } else {
            vec![]
        }
    }

    /// A lap about to be sown: anticlockwise, and clockwise too where it may turn.
    #[allow(clippy::too_many_arguments)]
    fn lap(
        &mut self,
        board: [Vec<u32>; 2],
        from: usize,
        seeds: u32,
        laps: u32,
        captured: u32,
        choices: String,
        path: Vec<TurningPoint>,
    ) {
        if laps == 0 {
            self.first_could_turn = self.may_turn(&board, (from, seeds, 0), "", false);
        }
        // (Under `first-sowing` captures are forced: the letters are the directions.)
        if !self.may_turn(&board, (from, seeds, laps), &choices, self.first_could_turn) {
            return self.sow_lap(board, from, seeds, laps, captured, choices, path, false);
        }
        let (a, c) = (format!("{choices}a"), format!("{choices}c"));
        self.sow_lap(
            board.clone(),
            from,
            seeds,
            laps,
            captured,
            a,
            path.clone(),
            false,
        );
        self.sow_lap(board, from, seeds, laps, captured, c, path, true);
    }

    #[allow(clippy::too_many_arguments)]
    fn sow_lap(
        &mut self,
        mut board: [Vec<u32>; 2],
        from: usize,
        seeds: u32,
        laps: u32,
        captured: u32,
        choices: String,
        mut path: Vec<TurningPoint>,
        clockwise: bool,
    ) {
        let laps = laps + 1;
        if laps > self.rules.max_laps() {
            return;
        }
        let end = self.sow_way(&mut board, from, seeds, clockwise);
        let here = board[self.mover][end - 1];
        if here == 1 {
            return self.finish(board, laps, captured, choices);
        }
        let origin = match self.rules.capture_sow_from() {
            SowOrigin::LapStart | SowOrigin::LapStartPit => from,
            SowOrigin::CapturePit => end,
            SowOrigin::TurnStart => self.turn_pit,
        };
        let point = TurningPoint {
            pits: board.clone(),
            end,
            origin,
        };
        if path.contains(&point) {
            return;
        }
        path.push(point);
        let targets = self.capture_targets(&board, end);
        let optional = self.rules.capture_choice() == CaptureChoice::Optional;
        if !targets.is_empty() {
            let mut taken = board.clone();
            let mut seeds_taken = 0;
            for p in &targets {
                seeds_taken += taken[1 - self.mover][p - 1];
                taken[1 - self.mover][p - 1] = 0;
            }
            // The captured seeds go into the lap's pit, which is lifted whole.
            let mut seeds_sown = seeds_taken;
            if self.rules.capture_sow_from() == SowOrigin::LapStartPit {
                seeds_sown += std::mem::take(&mut taken[self.mover][origin - 1]);
            }
            let mut take_choices = if optional {
                format!("{choices}x")
            } else {
                choices.clone()
            };
            // `clockwise_leave`: the seeds a clockwise lap from a clockwise pit captured
            // may stay in its pit while the other pit, lifted, sows clockwise and captures
            // (sown after sowing on, the first option).
            let mut leave = None;
            let leave_from_here = self.rules.clockwise_leave() == ClockwiseLeave::OtherPit
                && clockwise
                && self.rules.clockwise_from().contains(&(from as u8));
            if leave_from_here {
                // (`taken` has the pit lifted already: it keeps all it held.)
                let mut left = taken.clone();
                left[self.mover][origin - 1] = seeds_sown;
                let other = self
                    .rules
                    .clockwise_from()
                    .iter()
                    .find(|&&p| p as usize != from);
                let other = *other.unwrap() as usize;
                let lifted = std::mem::take(&mut left[self.mover][other - 1]);
                let first = self.first_could_turn;
                if lifted > 0 && self.may_turn(&left, (other, lifted, laps), &choices, first) {
                    leave = Some((left, other, lifted));
                    take_choices.push('o');
                }
            }
            if self.rules.capture_ends_move() {
                if laps < self.rules.max_laps() {
                    self.sow(&mut taken, origin, seeds_sown);
                    self.finish(taken, laps + 1, captured + seeds_taken, take_choices);
                }
            } else {
                self.lap(
                    taken,
                    origin,
                    seeds_sown,
                    laps,
                    captured + seeds_taken,
                    take_choices,
                    path.clone(),
                );
            }
            if let Some((left, other, lifted)) = leave {
                let (total, leave) = (captured + seeds_taken, format!("{choices}l"));
                self.sow_lap(left, other, lifted, laps, total, leave, path.clone(), true);
            }
            if !optional {
                return;
            }
        }
        let relay_choices = if !targets.is_empty() {
            format!("{choices}p")
        } else {
            choices
        };
        board[self.mover][end - 1] = 0;
        // A pass whose facing front pit is among the capture's pits and holds seeds may
        // be answered by the opponent: retreat (its seeds into the back pit behind it)
        // or stay.
        let w = self.start.w;
        let (front, back) = (3 * w + 1 - end, end - w);
        let threatened = targets.contains(&front) && board[1 - self.mover][front - 1] > 0;
        if self.rules.retreat() == Retreat::FrontToBack && threatened {
            let mut retreated = board.clone();
            let theirs = &mut retreated[1 - self.mover];
            theirs[back - 1] += std::mem::take(&mut theirs[front - 1]);
            let answered = format!("{relay_choices}r");
            self.lap(retreated, end, here, laps, captured, answered, path.clone());
            let stayed = format!("{relay_choices}s");
            return self.lap(board, end, here, laps, captured, stayed, path);
        }
        self.lap(board, end, here, laps, captured, relay_choices, path);
    }
}
