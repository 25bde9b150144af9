//! Results proven from a preset's start, as a player is told them before the first
//! move: the Isolo presets under their own rules are won by force by South, quickly
//! (a test proves each again with the alpha-beta prover).

use isolo_rules::{Side, Variant};

/// Presets whose start is a proven win for South, with the win's length in plies.
const SOUTH_WINS_FROM_THE_START: [(&str, u32); 2] = [("isolo-women", 5), ("isolo-boys", 15)];

/// The proven result of `variant`'s start (`Variant::start`), where it is known, in
/// words: "South wins this game by force: a proven win in 5 plies".
pub fn start_in_words(variant: &Variant) -> Option<String> {
    let preset = variant.rules().same_as_preset()?;
    let (_, plies) = SOUTH_WINS_FROM_THE_START
        .iter()
        .find(|(name, _)| *name == preset)?;
    Some(format!(
        "{} wins this game by force: a proven win in {plies} plies",
        Side::South
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prove::pipeline::{solve, Method, ProvenResult, Root, SolveReport, SolveSettings};
    use isolo_rules::Game;

    #[test]
    fn each_known_start_is_proven_again() {
        for (name, plies) in SOUTH_WINS_FROM_THE_START {
            let variant = Variant::load(name).unwrap();
            let root = Root::of_game(&Game::new(&variant, variant.start()));
            let settings = SolveSettings {
                method: Method::Ab,
                ..SolveSettings::default()
            };
            let Ok(SolveReport::Ab(report)) = solve(&variant, &root, &settings, &|_| {}) else {
                panic!("{name}: the alpha-beta prover answers");
            };
            assert_eq!(
                (report.result, report.plies),
                (ProvenResult::Win, Some(plies)),
                "{name}"
            );
            let words = start_in_words(&variant).unwrap();
            assert!(words.ends_with(&format!("win in {plies} plies")), "{words}");
        }
        assert_eq!(start_in_words(&Variant::load("igisoro").unwrap()), None);
    }
}
