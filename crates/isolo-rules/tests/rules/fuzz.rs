//! Fuzzing the rules' parsers: arbitrary strings (and arbitrary bytes made text) are
//! given to every parser of the rules crate; each must answer with a typed error or a
//! value, never panic. Seeds are fixed so the suite reproduces; set PROPTEST_RNG_SEED
//! to explore others.

use proptest::prelude::*;

use isolo_rules::{Game, Move, MoveLetters, Rules, Variant, PRESETS};

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 400,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x00f2_22ed),
        ..ProptestConfig::default()
    }
}

/// Text near the notation's alphabet, so the parsers are driven past their first check.
fn notation_like() -> impl Strategy<Value = String> {
    proptest::string::string_regex("[0-9,/ SN\\-xp]{0,80}").unwrap()
}

/// Arbitrary bytes, as a lossy string (every parser takes text).
fn any_text() -> impl Strategy<Value = String> {
    proptest::collection::vec(any::<u8>(), 0..200)
        .prop_map(|b| String::from_utf8_lossy(&b).into_owned())
}

fn presets() -> Vec<Variant> {
    PRESETS.iter().map(|p| Variant::load(p).unwrap()).collect()
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn positions_parse_or_are_refused(text in prop_oneof![notation_like(), any_text()]) {
        for variant in presets() {
            if let Ok(board) = variant.parse_position(&text) {
                // What parses is a valid board and prints back as it reads.
                prop_assert_eq!(variant.validate(&board), Ok(()));
                let again = variant.parse_position(&variant.format_position(&board));
                prop_assert_eq!(again.ok(), Some(board));
            }
        }
    }

    #[test]
    fn moves_and_move_lists_parse_or_are_refused(text in prop_oneof![notation_like(), any_text()]) {
        for variant in presets() {
            let _ = variant.parse_move(&text);
            let every_letter = MoveLetters {
                captures: true,
                directions: true,
                answers: true,
                leaves: true,
            };
            let _ = Move::parse(&text, variant.columns(), every_letter);
            let mut game = Game::new(&variant, variant.start());
            let _ = game.play_list(&text);
        }
    }

    #[test]
    fn rules_files_parse_or_are_refused(text in prop_oneof![
        any_text(),
        proptest::string::string_regex(
            "(base = \"(isolo-women|isolo-boys|igisoro|x)\"\n)?([a-z_]{1,16} = [0-9a-z\"\\[\\], -]{0,20}\n){0,6}"
        ).unwrap(),
    ]) {
        if let Ok(rules) = Rules::from_toml(&text, "fuzz") {
            // A rules set that parses builds a variant or says why not.
            let _ = Variant::new(rules);
        }
    }
}
