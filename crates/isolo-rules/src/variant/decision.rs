//! A decision inside a move as a player meets it: where the move stands, what is
//! decided and what is at stake, in words every front end shows alike (the page's
//! prompt, the terminal's). The walk itself is `stepwise.rs`; this only describes
//! where it stopped.

use super::stepwise::PointKind;
use super::trace::{trace_move, TraceStep};
use super::{Board, ChoicePoint, Completion, MoveStep, MoveWalk, Variant};
use crate::notation::{Choice, Move};
use crate::side::Side;

/// Choices tried in finding a whole move that goes on from a direction, to tell what
/// its lap does (nearly always the first sequence tried ends the move).
const LAP_END_BUDGET: usize = 64;

/// What a lap sown one way does where it ends, as a direction's question tells it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LapEnd {
    /// It captures the opponent's `pits` (their numbering), `seeds` in all;
    /// `optional`: the mover may pass instead.
    Captures {
        /// The opponent's pits emptied.
        pits: Vec<u8>,
        /// Seeds taken.
        seeds: u32,
        /// Whether the mover may pass instead.
        optional: bool,
    },
    /// Its last seed falls on seeds: the mover lifts them and sows on.
    Relays,
    /// The move ends there.
    Ends,
}

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
    /// At a direction, what the lap does where it ends sown anticlockwise, and sown
    /// clockwise (`None` where it cannot be told).
    pub lap_outcomes: Option<[LapEnd; 2]>,
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
        let mut decision = match self.move_begun(board, half, &mut MoveWalk::new())? {
            MoveStep::Choice(point) | MoveStep::Answer(point) => self.decision_of(&point),
            MoveStep::End { .. } | MoveStep::Dead { .. } => return None,
        };
        if decision.kind == DecisionKind::Direction {
            let each = [Choice::Anticlockwise, Choice::Clockwise]
                .map(|way| self.lap_end(board, half, way, decision.laps + 1));
            decision.lap_outcomes = match each {
                [Some(a), Some(c)] => Some([a, c]),
                _ => None,
            };
        }
        Some(decision)
    }

    /// What lap `lap` of the move `half` does where it ends, sown `way` (`half` stops
    /// at that lap's direction): an optional capture met there, else what a whole move
    /// going on that way retells after the lap's sowing.
    fn lap_end(&self, board: &Board, half: &Move, way: Choice, lap: u32) -> Option<LapEnd> {
        let mut turned = half.clone();
        turned.choices.push(way);
        let mut walk = MoveWalk::new();
        let whole = if self.play_move(board, &turned).is_some() {
            turned
        } else {
            match self.going_on(board, turned, lap, &mut walk) {
                Ok(whole) => whole,
                Err(told) => return told,
            }
        };
        let trace = trace_move(self, board, &whole)?;
        let mut sown = 0;
        let mut steps = trace.steps.iter();
        for step in steps.by_ref() {
            if matches!(step, TraceStep::Sow { .. }) {
                sown += 1;
                if sown == lap {
                    break;
                }
            }
        }
        match steps.next()? {
            TraceStep::Capture { pits, seeds, .. } => Some(LapEnd::Captures {
                pits: pits.clone(),
                seeds: *seeds,
                optional: false,
            }),
            TraceStep::Lift { .. } => Some(LapEnd::Relays),
            TraceStep::End { .. } => Some(LapEnd::Ends),
            _ => None,
        }
    }

    /// A whole move going on from `turned`, a move begun whose lap `lap` was just given
    /// its direction, to be retold; `Err` where the answer needs no retelling: what an
    /// optional capture where that lap ends would take, or `None` where nothing goes on.
    fn going_on(
        &self,
        board: &Board,
        mut turned: Move,
        lap: u32,
        walk: &mut MoveWalk,
    ) -> Result<Move, Option<LapEnd>> {
        match self.move_begun(board, &turned, walk).ok_or(None)? {
            MoveStep::Choice(p) if p.kind() == PointKind::Capture && p.laps() == lap => {
                Err(Some(LapEnd::Captures {
                    pits: self.stake_of(&p),
                    seeds: p.capturable(),
                    optional: true,
                }))
            }
            MoveStep::End { .. } => Ok(turned),
            MoveStep::Dead { .. } => Err(None),
            MoveStep::Choice(p) | MoveStep::Answer(p) => {
                match self.first_completion(&p, walk, LAP_END_BUDGET) {
                    Completion::Found(rest, _) => {
                        turned.choices.extend(rest);
                        Ok(turned)
                    }
                    Completion::None | Completion::Unknown => Err(None),
                }
            }
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
            lap_outcomes: None,
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
                let told = |i: usize| {
                    let end = self.lap_ends.map(|ends| format!("to pit {}", ends[i]));
                    let does = (self.lap_outcomes.as_ref()).map(|o| o[i].words(other));
                    match (end, does) {
                        (Some(end), Some(does)) => format!(" ({end}: {does})"),
                        (Some(end), None) => format!(" ({end})"),
                        _ => String::new(),
                    }
                };
                let (usual, turned) = (told(0), told(1));
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

impl LapEnd {
    /// What the lap does, in words, against `other`: "it captures North's pits 16 and 1,
    /// 6 seeds", "it may capture ...", "it relays", "the move ends".
    pub fn words(&self, other: Side) -> String {
        match self {
            LapEnd::Captures {
                pits,
                seeds,
                optional,
            } => format!(
                "it {} {other}'s {}, {}",
                if *optional { "may capture" } else { "captures" },
                pits_words(pits),
                seeds_words(*seeds)
            ),
            LapEnd::Relays => "it relays".to_string(),
            LapEnd::Ends => "the move ends".to_string(),
        }
    }

    /// The opponent's pits the lap would capture (none where it captures nothing).
    pub fn stake(&self) -> &[u8] {
        match self {
            LapEnd::Captures { pits, .. } => pits,
            LapEnd::Relays | LapEnd::Ends => &[],
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

    /// Kubuguza after "9 10": South's pit 15 may sow anticlockwise or clockwise; each
    /// way is told by what its lap does where it ends, checked against the whole move's
    /// retelling.
    #[test]
    fn a_direction_says_what_each_way_does() {
        let v = Variant::load("kubuguza").unwrap();
        let board = ["9", "10"]
            .iter()
            .fold(v.start(), |b, m| v.play_text(&b, m).unwrap().child);
        let half = v.parse_move("15").unwrap();
        let d = v.decision_at(&board, &half).unwrap();
        assert_eq!(d.kind, DecisionKind::Direction);
        let outcomes = d.lap_outcomes.clone().expect("both ways told");
        // The clockwise lap captures (the browser test plays it: 15c).
        let LapEnd::Captures { pits, seeds, .. } = &outcomes[1] else {
            panic!("{outcomes:?}");
        };
        let theirs = board.pits(Side::North);
        let held: u32 = pits
            .iter()
            .map(|&p| u32::from(theirs.seeds(p as usize - 1)))
            .sum();
        assert_eq!(held, *seeds, "{outcomes:?}");
        let q = d.question();
        let [a, c] = d.lap_ends.unwrap();
        assert!(
            q.contains(&format!("clockwise (to pit {c}: it captures North's ")),
            "{q}"
        );
        assert!(q.contains(&format!("as usual (to pit {a}: ")), "{q}");
        assert_eq!(outcomes[1].stake(), pits.as_slice());
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
