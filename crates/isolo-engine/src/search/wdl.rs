//! Win/draw/loss estimates: what a score says about the result of the game, for a player
//! to read beside the score ("W/D/L 71/18/11%").
//!
//! A proven result is certain (a win in N is 1000/0/0). An estimate goes through a
//! per-variant model fitted on self-play (`isolo-ai fit-wdl`, see
//! `crate::research::wdl`):
//!
//! ```text
//! win  = sigmoid((v - offset) / scale)
//! loss = sigmoid((-v - offset) / scale)
//! draw = 1 - win - loss
//! ```
//!
//! with `v` the score in hundredths of a seed: `offset` (never negative) opens a band
//! around a level score where draws take their share, `scale` says how many seeds of
//! advantage turn into wins. A `draw` score (the searched best play repeats a position)
//! is not a proof: it gets the results the self-play games had from such positions (the
//! level score's chances where none came up).
//!
//! The figures are per mille and always sum to 1000; only a proven result reaches 1000.

use serde_json::Value;

use super::Score;
use isolo_rules::Variant;

/// Win, draw and loss chances from one side's view, per mille, summing to 1000.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wdl {
    /// Chance of a win, per mille.
    pub win: u16,
    /// Chance of a draw, per mille.
    pub draw: u16,
    /// Chance of a loss, per mille.
    pub loss: u16,
}

impl Wdl {
    /// A certain win.
    pub const WON: Wdl = Wdl {
        win: 1000,
        draw: 0,
        loss: 0,
    };
    /// A certain loss.
    pub const LOST: Wdl = Wdl {
        win: 0,
        draw: 0,
        loss: 1000,
    };
    /// A certain draw.
    pub const DRAWN: Wdl = Wdl {
        win: 0,
        draw: 1000,
        loss: 0,
    };

    /// Chances per mille, which must sum to 1000 (checked when built at compile time).
    pub const fn per_mille(win: u16, draw: u16, loss: u16) -> Wdl {
        assert!(win + draw + loss == 1000, "chances per mille sum to 1000");
        Wdl { win, draw, loss }
    }

    /// The chances of win and loss given as probabilities, the draw taking the rest.
    pub(crate) fn from_chances(win: f64, loss: f64) -> Wdl {
        let to_per_mille = |p: f64| (p.clamp(0.0, 1.0) * 1000.0).round() as u16;
        let win = to_per_mille(win);
        let loss = to_per_mille(loss).min(1000 - win);
        Wdl {
            win,
            draw: 1000 - win - loss,
            loss,
        }
    }

    /// The chances of an estimate: as `from_chances`, but a win and a loss each keep at
    /// least one per mille, as no estimate is certain (only a proof says 1000/0/0).
    pub fn estimated(win: f64, loss: f64) -> Wdl {
        let to_per_mille = |p: f64| ((p.clamp(0.0, 1.0) * 1000.0).round() as u16).clamp(1, 999);
        let (mut win, mut loss) = (to_per_mille(win), to_per_mille(loss));
        if win + loss > 1000 {
            // (Rounding: the larger gives way.)
            if win > loss {
                win = 1000 - loss;
            } else {
                loss = 1000 - win;
            }
        }
        Wdl {
            win,
            draw: 1000 - win - loss,
            loss,
        }
    }

    /// The same chances from the other side's view.
    pub fn flipped(self) -> Wdl {
        Wdl {
            win: self.loss,
            draw: self.draw,
            loss: self.win,
        }
    }

    /// The expected result (a win 1, a draw 1/2), from 0 to 1: the "win chance" a
    /// review measures a move's loss in.
    pub fn expected(self) -> f64 {
        (f64::from(self.win) + f64::from(self.draw) / 2.0) / 1000.0
    }

    /// `{"win": W, "draw": D, "loss": L, "text": "W/D/L 71/18/11%"}`, per mille, with
    /// the chances in the engine's words ([`Wdl::percent_text`]).
    pub fn to_json(self) -> Value {
        serde_json::to_value(self).expect("chances serialise")
    }

    /// `W/D/L 71/18/11%`, in whole percents (rounded so that they still sum to 100).
    pub fn percent_text(self) -> String {
        let [win, draw, loss] = self.percents();
        format!("W/D/L {win}/{draw}/{loss}%")
    }

    /// The chances in words: "win 4%, draw 96%, loss 0%".
    pub fn chances_text(self) -> String {
        let [win, draw, loss] = self.percents();
        format!("win {win}%, draw {draw}%, loss {loss}%")
    }

    /// Win, draw and loss in whole percent, summing to 100.
    fn percents(self) -> [u16; 3] {
        let win = (f64::from(self.win) / 10.0).round() as u16;
        let loss = ((f64::from(self.loss) / 10.0).round() as u16).min(100 - win);
        [win, 100 - win - loss, loss]
    }
}

impl serde::Serialize for Wdl {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(4))?;
        map.serialize_entry("win", &self.win)?;
        map.serialize_entry("draw", &self.draw)?;
        map.serialize_entry("loss", &self.loss)?;
        map.serialize_entry("text", &self.percent_text())?;
        map.end()
    }
}

/// A fitted map from scores to win/draw/loss chances.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WdlModel {
    /// Half the width of the drawish band, in hundredths of a seed (0: no draws).
    pub offset: f64,
    /// Hundredths of a seed per unit of the sigmoid's argument.
    pub scale: f64,
    /// What a `draw` score (best play repeats) led to in the fit's games.
    pub at_repetition: Wdl,
}

/// The models shipped, by the preset or reading they were fitted for (`isolo-ai fit-wdl
/// --variant V`, docs/measurements.md#win-draw-loss); a test checks them against the
/// table of docs/search.md.
const SHIPPED: [(&str, WdlModel); 10] = [
    (
        "isolo-women",
        WdlModel {
            offset: 0.0,
            scale: 613.5,
            at_repetition: Wdl::per_mille(500, 0, 500),
        },
    ),
    (
        "isolo-boys",
        WdlModel {
            offset: 0.0,
            scale: 485.8,
            at_repetition: Wdl::per_mille(500, 0, 500),
        },
    ),
    (
        "igisoro",
        WdlModel {
            offset: 15891.7,
            scale: 3504.5,
            at_repetition: Wdl::per_mille(0, 1000, 0),
        },
    ),
    (
        "kubuguza",
        WdlModel {
            offset: 0.0,
            scale: 491.2,
            at_repetition: Wdl::per_mille(500, 0, 500),
        },
    ),
    (
        "ikibuguzo",
        WdlModel {
            offset: 0.0,
            scale: 436.4,
            at_repetition: Wdl::per_mille(500, 0, 500),
        },
    ),
    (
        "isolo-women-capture-ends",
        WdlModel {
            offset: 0.0,
            scale: 630.6,
            at_repetition: Wdl::per_mille(500, 0, 500),
        },
    ),
    (
        "isolo-boys-capture-ends",
        WdlModel {
            offset: 0.0,
            scale: 613.5,
            at_repetition: Wdl::per_mille(500, 0, 500),
        },
    ),
    (
        "ikibuguzo-opening-1",
        WdlModel {
            offset: 0.0,
            scale: 433.9,
            at_repetition: Wdl::per_mille(500, 0, 500),
        },
    ),
    (
        "igisoro-retreat",
        WdlModel {
            offset: 9495.8,
            scale: 1995.8,
            at_repetition: Wdl::per_mille(0, 1000, 0),
        },
    ),
    (
        "igisoro-clockwise",
        WdlModel {
            offset: 20000.0,
            scale: 7001.4,
            at_repetition: Wdl::per_mille(0, 1000, 0),
        },
    ),
];

/// The preset whose model a variant without one of its own borrows: the deep reading of
/// the boys' game, the longest games fitted.
const FALLBACK: &str = "isolo-boys-capture-ends";

impl WdlModel {
    /// The model of `offset` and `scale`, a draw score taken as a level one.
    pub fn new(offset: f64, scale: f64) -> WdlModel {
        let level = WdlModel {
            offset,
            scale,
            at_repetition: Wdl::LOST,
        };
        WdlModel {
            at_repetition: level.wdl(Score::Eval(0)),
            ..level
        }
    }

    /// The model for `variant`'s rules, with the preset or reading it was fitted for: its
    /// own where shipped (whatever the rules' name), else the fallback's.
    pub fn for_variant(variant: &Variant) -> (&'static str, WdlModel) {
        let shipped = |name: &str| SHIPPED.iter().find(|(n, _)| *n == name).copied();
        // (A reading without a model of its own borrows the fallback's; a test checks
        // that every preset and reading has one.)
        let own = variant.rules().same_as_preset().and_then(shipped);
        own.unwrap_or_else(|| shipped(FALLBACK).expect("the fallback is shipped"))
    }

    /// The shipped models, by preset or reading.
    pub fn shipped() -> &'static [(&'static str, WdlModel)] {
        &SHIPPED
    }

    /// The chances of the side to move whose score this is.
    pub fn wdl(&self, score: Score) -> Wdl {
        match score {
            Score::Win(_) => Wdl::WON,
            Score::Loss(_) => Wdl::LOST,
            Score::Draw => self.at_repetition,
            Score::Eval(v) => {
                let (win, loss) = self.chances(f64::from(v));
                Wdl::estimated(win, loss)
            }
        }
    }

    /// The probabilities of a win and a loss at a value of `v` hundredths of a seed.
    pub fn chances(&self, v: f64) -> (f64, f64) {
        let sigmoid = |x: f64| 1.0 / (1.0 + (-x).exp());
        (
            sigmoid((v - self.offset) / self.scale),
            sigmoid((-v - self.offset) / self.scale),
        )
    }
}

/// The win/draw/loss chances of `score` under `variant`'s model.
pub fn wdl_of(variant: &Variant, score: Score) -> Wdl {
    WdlModel::for_variant(variant).1.wdl(score)
}

/// The share of draws (per mille) from which chances beside a clear lead in seeds say
/// why (`chances_reason`).
const DRAWISH_PER_MILLE: u16 = 900;

/// Why chances of mostly a draw stand beside a lead of a seed or more, in words, where
/// they do: the model of these rules, fitted to engine games, gives a side even chances
/// of a win only far ahead, an evaluation that may be more than the seeds in play ("in
/// the engine's games under these rules a lead like this mostly ends in a draw (even
/// chances of a win come only at an evaluation of about 159)"). `None` where the chances
/// need no reason.
pub fn chances_reason(variant: &Variant, score: Score) -> Option<String> {
    let Score::Eval(v) = score else {
        return None;
    };
    let (_, model) = WdlModel::for_variant(variant);
    let drawish = wdl_of(variant, score).draw >= DRAWISH_PER_MILLE;
    (drawish && v.abs() >= 100).then(|| {
        format!(
            "in the engine's games under these rules a lead like this mostly ends in a draw \
             (even chances of a win come only at an evaluation of about {:.0})",
            model.offset / 100.0
        )
    })
}

/// The most an engine may expect of a position (a win 1, a draw 1/2) and still accept a
/// draw offered there: it accepts where playing on is worth no more to it than a draw.
pub const DRAW_ACCEPTED_UP_TO: f64 = 0.5;

/// An engine's answer to a draw offered by the side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DrawAnswer {
    /// Whether the engine accepts.
    pub accepted: bool,
    /// The answer in words, with the engine's chances.
    pub words: String,
}

/// The engine's answer to a draw offered by the side to move, whose position the
/// engine's own search scores `offerer` for that side: accepted where the engine expects
/// no more than `DRAW_ACCEPTED_UP_TO` from playing on.
pub fn answer_draw_offer(variant: &Variant, offerer: Score) -> DrawAnswer {
    let engine = wdl_of(variant, offerer).flipped();
    let accepted = engine.expected() <= DRAW_ACCEPTED_UP_TO;
    let chances = engine.chances_text();
    let words = if accepted {
        format!("The engine accepts your draw offer (its chances: {chances}): a draw by agreement.")
    } else {
        format!("The engine declines your draw offer: it expects more from playing on (its chances: {chances}).")
    };
    DrawAnswer { accepted, words }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drawn_chances_beside_a_lead_say_why() {
        let igisoro = Variant::load("igisoro").unwrap();
        let reason = chances_reason(&igisoro, Score::Eval(770)).unwrap();
        assert!(
            reason.ends_with("come only at an evaluation of about 159)"),
            "{reason}"
        );
        assert_eq!(
            chances_reason(&igisoro, Score::Eval(40)),
            None,
            "under a seed"
        );
        let women = Variant::load("isolo-women").unwrap();
        assert_eq!(
            chances_reason(&women, Score::Eval(770)),
            None,
            "no drawish band"
        );
    }

    #[test]
    fn the_engine_accepts_a_draw_only_where_it_expects_no_more() {
        let igisoro = Variant::load("igisoro").unwrap();
        // The offerer far ahead: the engine gladly takes a draw.
        assert!(answer_draw_offer(&igisoro, Score::Eval(3000)).accepted);
        assert!(answer_draw_offer(&igisoro, Score::Win(9)).accepted);
        assert!(answer_draw_offer(&igisoro, Score::Draw).accepted);
        // The offerer behind: the engine plays on, and says why.
        let declined = answer_draw_offer(&igisoro, Score::Eval(-3000));
        assert!(!declined.accepted);
        assert!(
            declined.words.contains("its chances: win "),
            "{}",
            declined.words
        );
    }

    #[test]
    fn proven_results_are_certain_and_chances_sum_to_a_thousand() {
        let model = WdlModel {
            offset: 150.0,
            scale: 300.0,
            at_repetition: Wdl::per_mille(100, 800, 100),
        };
        assert_eq!(model.wdl(Score::Win(9)), Wdl::WON);
        assert_eq!(model.wdl(Score::Loss(0)), Wdl::LOST);
        assert_eq!(model.wdl(Score::Draw), model.at_repetition);
        let mut last = 0;
        for v in (-5000..=5000).step_by(37) {
            let wdl = model.wdl(Score::Eval(v));
            assert_eq!(wdl.win + wdl.draw + wdl.loss, 1000, "at {v}");
            assert!(wdl.win >= last, "the win chance grows with the score");
            last = wdl.win;
            assert_eq!(model.wdl(Score::Eval(-v)), wdl.flipped(), "symmetric");
        }
        let far = model.wdl(Score::Eval(90_000));
        assert_eq!((far.win, far.loss), (999, 1), "only a proof is certain");
        assert_eq!(model.wdl(Score::Eval(-90_000)), far.flipped());
        let level = model.wdl(Score::Eval(0));
        assert_eq!(level.win, level.loss);
        assert!(level.draw > 0, "an offset gives draws a share");
    }

    #[test]
    fn percents_sum_to_a_hundred() {
        let wdl = Wdl {
            win: 705,
            draw: 181,
            loss: 114,
        };
        assert_eq!(wdl.percent_text(), "W/D/L 71/18/11%");
        assert_eq!(Wdl::WON.percent_text(), "W/D/L 100/0/0%");
        assert!((wdl.expected() - 0.7955).abs() < 1e-9);
        assert_eq!(Wdl::from_chances(0.6, 0.6).draw, 0, "never below zero");
    }

    #[test]
    fn the_docs_table_is_the_shipped_models() {
        let doc = include_str!("../../../../docs/search.md");
        for (name, model) in WdlModel::shipped() {
            let r = model.at_repetition;
            let row = format!(
                "| {name} | {:.1} | {:.1} | {}/{}/{} |",
                model.offset, model.scale, r.win, r.draw, r.loss
            );
            assert!(doc.contains(&row), "docs/search.md lacks {row}");
        }
    }

    #[test]
    fn every_preset_has_a_model_and_others_borrow_one() {
        for name in isolo_rules::PRESETS.iter().chain(&isolo_rules::READINGS) {
            let variant = Variant::load(name).unwrap();
            assert_eq!(WdlModel::for_variant(&variant).0, *name);
        }
        let women = isolo_rules::Rules::preset("isolo-women").unwrap();
        let rules = women.to_builder().min_sow(3).build().unwrap();
        let other = Variant::new(rules).unwrap();
        assert_eq!(WdlModel::for_variant(&other).0, FALLBACK);
    }
}
