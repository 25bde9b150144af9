//! A decision inside a move as a player meets it: where the move stands, what is
//! decided and what is at stake, in words every front end shows alike (the page's
//! prompt, the terminal's). The walk itself is `stepwise.rs`; this only describes
//! where it stopped.

use super::stepwise::PointKind;
use super::{Board, ChoicePoint, MoveStep, MoveWalk, Variant};
use crate::notation::Move;
use crate::side::Side;

/// What is decided at a point inside a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecisionKind {
    /// The mover takes the seeds facing the lap's end, or passes and relays.
    Capture,
    /// The mover sows the next lap anticlockwise as usual, or clockwise (RULES.md 3.7).
    Direction,
    /// The mover sows a clockwise capture on, or leaves it and sows the other clockwise
    /// pit (`clockwise_leave`).
    Leave,
    /// The opponent answers the mover's pass: retreat its front pit's seeds into the
    /// pit behind it, or stay (`retreat`, RULES.md 3.4).
    Answer,
}

impl DecisionKind {
    /// The name the JSON API gives it.
    pub fn name(self) -> &'static str {
        match self {
            DecisionKind::Capture => "capture",
            DecisionKind::Direction => "direction",
            DecisionKind::Leave => "leave",
            DecisionKind::Answer => "answer",
        }
    }
}

/// A move stopped at a decision, as a player is shown it before deciding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    /// What is decided.
    pub kind: DecisionKind,
    /// Who decides: the mover, or for an answer its opponent.
    pub decider: Side,
    /// The side moving.
    pub mover: Side,
    /// Laps sown so far.
    pub laps: u32,
    /// The mover's pit (its numbering) where the last lap ended.
    pub end_pit: u8,
    /// At a direction, the mover's pit the next lap is lifted from.
    pub lap_pit: u8,
    /// The opponent's pits (their numbering) a take would empty, front pit first, and
    /// the seeds in them (none at a direction).
    pub stake: Vec<u8>,
    /// Seeds a take would capture.
    pub seeds: u32,
    /// At a direction, the mover's pits where the lap's last seed falls sown
    /// anticlockwise, and sown clockwise.
    pub lap_ends: Option<[u8; 2]>,
    /// At a capture, whether a pass lets the opponent answer by retreating its front
    /// pit's seeds out of reach (`retreat`, RULES.md 3.4).
    pub pass_answered: bool,
    /// The position as sown up to the decision, the mover still to move.
    pub board: Board,
}

impl Variant {
    /// The decision where `half`, a move begun with some of its choices made, stops
    /// next (`Variant::move_begun`); `None` where its letters are not legal so far, the
    /// move ends there, or no legal move goes on from it.
    pub fn decision_at(&self, board: &Board, half: &Move) -> Option<Decision> {
        match self.move_begun(board, half, &mut MoveWalk::new())? {
            MoveStep::Choice(point) | MoveStep::Answer(point) => Some(self.decision_of(&point)),
            MoveStep::End { .. } | MoveStep::Dead { .. } => None,
        }
    }

    fn decision_of(&self, point: &ChoicePoint) -> Decision {
        let kind = match point.kind() {
            PointKind::Capture => DecisionKind::Capture,
            PointKind::Direction => DecisionKind::Direction,
            PointKind::Leave => DecisionKind::Leave,
            PointKind::Answer => DecisionKind::Answer,
        };
        let board = point.board_in_full();
        let mover = board.to_move();
        let stake = if kind == DecisionKind::Direction {
            Vec::new()
        } else {
            self.stake_of(point)
        };
        let theirs = board.pits(mover.opponent());
        let seeds = stake
            .iter()
            .map(|&p| theirs.seeds(p as usize - 1) as u32)
            .sum();
        Decision {
            kind,
            decider: if kind == DecisionKind::Answer {
                mover.opponent()
            } else {
                mover
            },
            mover,
            laps: point.laps(),
            end_pit: point.end_pit(),
            lap_pit: point.lap_pit(),
            stake,
            seeds,
            lap_ends: (kind == DecisionKind::Direction).then(|| self.lap_ends(point)),
            pass_answered: kind == DecisionKind::Capture && self.has_retreat(),
            board,
        }
    }

    /// The opponent's pits (their numbering, front row first) facing the pit where
    /// `point`'s lap ended, as its capture table counts them.
    fn stake_of(&self, point: &ChoicePoint) -> Vec<u8> {
        self.capture_lanes(self.spot_at(point), point.end_pit() as usize - 1)
            .map(|lane| lane as u8 + 1)
            .collect()
    }
}

impl Decision {
    /// The question put to the decider, naming the pits and seeds at stake.
    pub fn question(&self) -> String {
        let (mover, other) = (self.mover, self.mover.opponent());
        let lap = self.laps;
        let stake = pits_words(&self.stake);
        let seeds = seeds_words(self.seeds);
        match self.kind {
            DecisionKind::Capture => {
                let answered = match (self.pass_answered, self.stake.first()) {
                    (true, Some(front)) => {
                        format!(" ({other} may then retreat pit {front}'s seeds out of reach)")
                    }
                    _ => String::new(),
                };
                format!(
                    "Lap {lap} ends in your pit {}: take {other}'s {stake} ({seeds}), or pass \
                     and relay{answered}?",
                    self.end_pit
                )
            }
            DecisionKind::Direction => {
                let (usual, turned) = match self.lap_ends {
                    Some([a, c]) => (format!(" (to pit {a})"), format!(" (to pit {c})")),
                    None => Default::default(),
                };
                format!(
                    "Lap {} from your pit {}: sow it anticlockwise as usual{usual}, or \
                     clockwise{turned}?",
                    lap + 1,
                    self.lap_pit
                )
            }
            DecisionKind::Leave => format!(
                "Lap {lap} ends in your pit {} facing {other}'s {stake} ({seeds}): sow the \
                 captured seeds on, or leave them there and sow the other clockwise pit?",
                self.end_pit
            ),
            DecisionKind::Answer => {
                let front = self.stake.first().copied().unwrap_or(0);
                format!(
                    "{other}, answer: {mover} passed the capture of your {stake} ({seeds}). \
                     Retreat pit {front}'s seeds into the pit behind it, or stay?"
                )
            }
        }
    }
}

/// "pit 14" or "pits 14 and 3".
fn pits_words(pits: &[u8]) -> String {
    match pits {
        [one] => format!("pit {one}"),
        _ => {
            let named: Vec<String> = pits.iter().map(u8::to_string).collect();
            format!("pits {}", named.join(" and "))
        }
    }
}

/// "1 seed" or "7 seeds".
fn seeds_words(seeds: u32) -> String {
    if seeds == 1 {
        "1 seed".to_string()
    } else {
        format!("{seeds} seeds")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decision(variant: &str, position: &str, half: &str) -> Decision {
        let v = Variant::load(variant).unwrap();
        let board = v.parse_position(position).unwrap();
        let half = v.parse_move(half).unwrap();
        v.decision_at(&board, &half).expect("a decision")
    }

    #[test]
    fn a_capture_names_the_lap_end_and_the_pits_at_stake() {
        let v = Variant::load("igisoro").unwrap();
        let board = v.start();
        // Find a pit whose first decision is a capture, from a position a few plies in.
        let mut found = None;
        let mut position = board;
        'plies: for _ in 0..12 {
            for pit in 1..=16u8 {
                let half = Move {
                    pit,
                    choices: Vec::new(),
                };
                if let Some(d) = v.decision_at(&position, &half) {
                    if d.kind == DecisionKind::Capture {
                        found = Some(d);
                        break 'plies;
                    }
                }
            }
            position = v.legal_moves(&position)[0].child;
        }
        let d = found.expect("a capture decision within a few plies");
        assert_eq!(d.decider, d.mover);
        assert!(!d.stake.is_empty());
        let theirs = d.board.pits(d.mover.opponent());
        let at_stake: u32 = d
            .stake
            .iter()
            .map(|&p| theirs.seeds(p as usize - 1) as u32)
            .sum();
        assert_eq!(d.seeds, at_stake);
        assert!(d.seeds > 0);
        let q = d.question();
        assert!(
            q.contains(&format!("ends in your pit {}", d.end_pit)),
            "{q}"
        );
        assert!(q.contains(&format!("({} seed", d.seeds)), "{q}");
    }

    #[test]
    fn an_answer_is_put_to_the_opponent_with_its_front_pit() {
        // North's move 9p passes a capture South may answer (the browser test's position).
        let d = decision(
            "igisoro-retreat",
            "2,0,4,0,0,0,7,1/1,3,1,0,0,3,0,0/1,1,5,2,0,3,1,4/3,1,1,1,1,6,0,12 N",
            "9p",
        );
        assert_eq!(d.kind, DecisionKind::Answer);
        assert_eq!((d.mover, d.decider), (Side::North, Side::South));
        let front = d.stake[0] as usize;
        assert!(front > 8, "the front row comes first: {:?}", d.stake);
        assert!(d.board.pits(Side::South).seeds(front - 1) > 0);
        let q = d.question();
        assert!(
            q.starts_with("South, answer: North passed the capture of your pit"),
            "{q}"
        );
        assert!(q.contains(&format!("Retreat pit {front}'s seeds")), "{q}");
    }

    #[test]
    fn a_pass_under_the_retreat_warns_of_the_answer() {
        let position = "2,0,4,0,0,0,7,1/1,3,1,0,0,3,0,0/1,1,5,2,0,3,1,4/3,1,1,1,1,6,0,12 N";
        let d = decision("igisoro-retreat", position, "9");
        assert_eq!(d.kind, DecisionKind::Capture);
        assert!(d.pass_answered);
        let front = d.stake[0];
        assert!(
            d.question().ends_with(&format!(
                "or pass and relay (South may then retreat pit {front}'s seeds out of reach)?"
            )),
            "{}",
            d.question()
        );
        // Without the retreat a pass is answered by nothing.
        let plain = decision("igisoro", position, "9");
        assert!(!plain.pass_answered && plain.question().ends_with("or pass and relay?"));
    }

    #[test]
    fn a_whole_move_or_a_wrong_letter_has_no_decision() {
        let v = Variant::load("igisoro-retreat").unwrap();
        let board = v
            .parse_position("2,0,4,0,0,0,7,1/1,3,1,0,0,3,0,0/1,1,5,2,0,3,1,4/3,1,1,1,1,6,0,12 N")
            .unwrap();
        // A whole move, and letters of the wrong kind (no direction here).
        for half in ["9prxxxpsx", "9pp"] {
            let half = v.parse_move(half).unwrap();
            assert_eq!(v.decision_at(&board, &half), None, "{half}");
        }
    }

    #[test]
    fn words_count_pits_and_seeds() {
        assert_eq!(pits_words(&[14]), "pit 14");
        assert_eq!(pits_words(&[14, 3]), "pits 14 and 3");
        assert_eq!(seeds_words(1), "1 seed");
        assert_eq!(seeds_words(7), "7 seeds");
    }
}
