//! A variant's rules in plain words, for people who have never played: what the page's
//! "How to play" shows. Each sentence follows from the rules' keys, as RULES.md
//! describes them, so a rules file gets its own description.

use crate::rules_file::{
    CaptureChoice, CaptureCondition, CaptureWin, ClockwiseAt, ClockwiseLaps, ClockwiseLeave,
    ClockwiseWhen, DeadPosition, FirstMoveCaptures, LongGameEnding, Retreat, Rules, SowOrigin,
};

impl Rules {
    /// The rules as a few sentences in plain words, in the order a turn goes.
    pub fn how_to_play(&self) -> Vec<String> {
        let w = self.columns;
        let seeds: u32 = self.start.iter().map(|p| p.total()).sum();
        let mut lines = vec![
            format!(
                "The board has four rows of {w} pits and {seeds} seeds. Each player owns the \
                 two rows on their side: the back row, nearest them, and the front row. \
                 South moves first."
            ),
            format!(
                "On your turn, choose one of your pits holding {}. Lift all its seeds and \
                 sow them one by one into your next pits, going round your own two rows \
                 (anticlockwise seen from above).",
                match self.min_sow {
                    1 => "at least one seed".to_string(),
                    n => format!("at least {n} seeds"),
                }
            ),
            "If the last seed falls into an empty pit, your turn is over.".to_string(),
            format!(
                "If it falls into one of your front-row pits that already held seeds, and \
                 {} of the opponent's two pits in that column {}, you capture all their \
                 seeds and sow them round your rows from the pit after {}.",
                match self.capture {
                    CaptureCondition::Any => "at least one",
                    CaptureCondition::Both => "both",
                },
                match self.capture {
                    CaptureCondition::Any => "holds seeds",
                    CaptureCondition::Both => "hold seeds",
                },
                match self.capture_sow_from {
                    SowOrigin::LapStart => "the one that lap was lifted from",
                    SowOrigin::LapStartPit =>
                        "the one that lap was lifted from, together with any seeds it holds",
                    SowOrigin::CapturePit => "the one where your last seed fell",
                    SowOrigin::TurnStart => "the one you chose at the start of your turn",
                }
            ),
            match self.capture_choice {
                CaptureChoice::Forced => "A capture is always taken.".to_string(),
                CaptureChoice::Optional => "You may take a capture or pass it: passing \
                                            sows on as below."
                    .to_string(),
            },
            "If it falls into a pit that already held seeds and there is no capture, lift \
             those seeds and sow on from the next pit: a relay."
                .to_string(),
        ];
        if self.retreat == Retreat::FrontToBack {
            lines.push(
                "When you pass a capture that would have taken the seeds of one of the \
                 opponent's front-row pits, the opponent answers at once: retreat, moving \
                 that pit's seeds into their back-row pit behind it, or stay. Then your \
                 relay goes on."
                    .to_string(),
            );
        }
        lines.push(if self.capture_ends_move {
            "Your turn is over once captured seeds are sown.".to_string()
        } else {
            "Captured seeds are a lap like any other: where their last seed falls \
             decides again. A turn can go on for many laps."
                .to_string()
        });
        if !self.clockwise_from.is_empty() {
            let pits: Vec<String> = self.clockwise_from.iter().map(u8::to_string).collect();
            lines.push(format!(
                "From your pits {}{} you may sow clockwise instead, the other way round, \
                 when that lap's last seed {}: {}.",
                pits.join(", "),
                match self.clockwise_at {
                    ClockwiseAt::Start => "",
                    ClockwiseAt::StartOrEnd => {
                        " (or from any pit whose lap, sown clockwise, would end in one of them)"
                    }
                },
                match self.clockwise_when {
                    ClockwiseWhen::Captures => "makes a capture",
                    ClockwiseWhen::FacesSeeds => {
                        "falls into a front-row pit facing seeds that a capture there \
                         would take (empty or not)"
                    }
                },
                match self.clockwise_laps {
                    ClockwiseLaps::First => "only as the first lap of your turn",
                    ClockwiseLaps::Any => {
                        "at the start of your turn, or whenever a lap is to be sown from \
                         one of them in the middle of it"
                    }
                    ClockwiseLaps::FirstSowing => {
                        "at the start of your turn, or whenever a lap is to be sown from \
                         one of them in the middle of it; but where the turn's first lap \
                         went anticlockwise, one lap at most goes clockwise"
                    }
                }
            ));
            if self.clockwise_leave == ClockwiseLeave::OtherPit {
                lines.push(format!(
                    "When a lap sown clockwise from pit {} or {} captures, you may leave the \
                     captured seeds in that pit and sow the other one clockwise instead, \
                     where that lap captures too; and so on, until you sow captured seeds \
                     on.",
                    pits[0], pits[1]
                ));
            }
        }
        match self.first_move_captures {
            FirstMoveCaptures::Allowed => {}
            FirstMoveCaptures::BarredFirst => lines.push(
                "The game's first move captures nothing: a lap that would capture relays."
                    .to_string(),
            ),
            FirstMoveCaptures::BarredEach => lines.push(
                "Each player's first move captures nothing: a lap that would capture \
                 relays."
                    .to_string(),
            ),
        }
        if self.overture {
            let protected = if self.overture_protects {
                " While you are in it, your rightmost column cannot be captured."
            } else {
                ""
            };
            lines.push(format!(
                "Overture: at first each player sows round their rows leaving out their \
                 rightmost column (the ng'hana, back pit {w}, and the front pit beside \
                 it). Moving from the ng'hana ends your overture.{protected}"
            ));
        }
        lines.push(format!(
            "A move that would go round for ever, or take more than {} laps, is not \
             allowed. The player who has no move loses; a position seen for the third \
             time is a draw.",
            self.max_laps
        ));
        if self.long_game_plies > 0 {
            lines.push(format!(
                "If {} moves in a row, counting both players' moves, capture nothing, the \
                 game ends{}",
                self.long_game_plies,
                match self.long_game_ending {
                    LongGameEnding::Draw => ": a draw.",
                    LongGameEnding::Count => {
                        " and each player counts the seeds on their side: more seeds win \
                         (equal counts draw)."
                    }
                }
            ));
        }
        if self.capture_win == CaptureWin::FrontEnds {
            lines.push(
                "A turn that captures the seeds of both the opponent's front-row end pits \
                 (in the two outer columns), each holding seeds when the turn began, wins \
                 the game at once."
                    .to_string(),
            );
        }
        // Seeds can be sealed only where a capture needs both facing pits filled.
        if self.capture == CaptureCondition::Both {
            let sealed = "A player with a few seeds can place them so that none can ever be \
                          captured and none can ever capture: then no seed can change hands \
                          again, and";
            lines.push(match self.dead_position {
                DeadPosition::Draw => format!("{sealed} the game ends there, a draw."),
                DeadPosition::Count => format!(
                    "{sealed} the game ends there: each player counts the seeds on their \
                     side, and more seeds win (equal counts draw)."
                ),
                DeadPosition::PlayOn => format!(
                    "{sealed} play simply goes on, to a position seen for the third time \
                     or the move limit."
                ),
            });
        }
        lines
    }
}

#[cfg(test)]
mod tests {
    use crate::Rules;

    #[test]
    fn each_preset_is_told_by_its_own_keys() {
        let women = Rules::load("isolo-women").unwrap().how_to_play().join(" ");
        assert!(
            women.contains("four rows of 8 pits and 64 seeds"),
            "{women}"
        );
        assert!(women.contains("holding at least 2 seeds"));
        assert!(women.contains("at least one of the opponent's two pits"));
        assert!(women.contains("always taken") && !women.contains("Overture"));
        let boys = Rules::load("isolo-boys").unwrap().how_to_play().join(" ");
        assert!(boys.contains("Overture") && boys.contains("cannot be captured"));
        let igisoro = Rules::load("igisoro").unwrap().how_to_play().join(" ");
        assert!(igisoro.contains("at least one seed") && igisoro.contains("both of"));
        assert!(igisoro.contains("take a capture or pass it"));
        assert!(igisoro.contains("you chose at the start of your turn"));
        let ends = Rules::load("isolo-women-capture-ends")
            .unwrap()
            .how_to_play();
        assert!(ends.join(" ").contains("over once captured seeds are sown"));
        // Clockwise laps: from or into the pits, and first-sowing's limit, as RULES.md 3.7.
        let into = "would end in one of them";
        let clockwise = Rules::load("igisoro-clockwise")
            .unwrap()
            .how_to_play()
            .join(" ");
        assert!(
            clockwise.contains("From your pits 1, 8, 10, 15 (or from any pit")
                && clockwise.contains(into)
        );
        let kubuguza = Rules::load("kubuguza").unwrap();
        assert!(!kubuguza.how_to_play().join(" ").contains(into));
        let first_sowing = Rules {
            clockwise_laps: crate::ClockwiseLaps::FirstSowing,
            ..kubuguza
        };
        let told = first_sowing.how_to_play().join(" ");
        assert!(told.contains("where the turn's first lap went anticlockwise, one lap at most"));
        let leaving = Rules {
            clockwise_leave: crate::ClockwiseLeave::OtherPit,
            ..Rules::load("ikibuguzo").unwrap()
        };
        let told = leaving.how_to_play().join(" ");
        assert!(told.contains("from pit 1 or 15 captures, you may leave the captured seeds"));
        let plain = Rules::load("ikibuguzo").unwrap().how_to_play().join(" ");
        assert!(!plain.contains("leave the captured seeds"));
        assert!(plain.contains("both the opponent's front-row end pits"));
    }

    /// The keys RULES.md 3.4-3.6 adds beyond the sowing: the retreat, the lap limit, a
    /// capture that wins, and how a dead position ends.
    #[test]
    fn the_retreat_the_lap_limit_a_winning_capture_and_a_dead_position_are_told() {
        let retreat = Rules::load("igisoro-retreat")
            .unwrap()
            .how_to_play()
            .join(" ");
        assert!(
            retreat.contains("the opponent answers at once: retreat"),
            "{retreat}"
        );
        let igisoro = Rules::load("igisoro").unwrap();
        let told = igisoro.how_to_play().join(" ");
        assert!(!told.contains("retreat") && !told.contains("end pits"));
        assert!(told.contains("more than 1000 laps") && told.contains("a draw."));
        let counted = Rules {
            dead_position: crate::DeadPosition::Count,
            max_laps: 50,
            ..igisoro.clone()
        };
        let told = counted.how_to_play().join(" ");
        assert!(told.contains("more than 50 laps") && told.contains("counts the seeds"));
        let played_on = Rules {
            dead_position: crate::DeadPosition::PlayOn,
            ..igisoro
        };
        assert!(played_on
            .how_to_play()
            .join(" ")
            .contains("play simply goes on"));
        // Under `capture = "any"` no seed is ever sealed: nothing to tell.
        let women = Rules::load("isolo-women").unwrap().how_to_play().join(" ");
        assert!(!women.contains("change hands"));
    }
}
