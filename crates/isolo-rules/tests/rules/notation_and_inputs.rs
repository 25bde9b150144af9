//! Text round trips, make/unmake, and corpora of invalid positions, moves and rules
//! files, each with the error message it must give.

use crate::common;

use common::{random_rules, Rng};
use isolo_rules::{Position, Rules, Variant};

fn preset(name: &str) -> Variant {
    Variant::load(name).unwrap()
}

#[test]
fn canonical_position_text_round_trips() {
    for (variant, text) in [
        (
            "isolo-women",
            "2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 S",
        ),
        (
            "isolo-boys",
            "17,2,0,2,0,2,0,2/0,1,2,0,2,0,2,0/0,2,0,2,0,2,1,0/2,0,2,0,2,0,2,17 S SN",
        ),
        (
            "isolo-boys",
            "0,2,0,2,0,2,0,2/9,1,2,0,2,0,2,0/0,2,0,2,0,2,1,0/2,0,2,0,2,0,2,17 N S",
        ),
        (
            "isolo-boys",
            "0,2,0,2,0,2,0,2/9,1,2,0,2,0,2,0/5,2,0,2,0,2,1,7/2,0,2,0,2,0,2,0 N -",
        ),
        (
            "igisoro",
            "4,4,4,4,4,4,4,4/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/4,4,4,4,4,4,4,4 S",
        ),
    ] {
        let v = preset(variant);
        let board = v.parse_position(text).unwrap();
        assert_eq!(v.format_position(&board), text);
    }
}

#[test]
fn the_overture_field_may_be_omitted_or_dash() {
    let v = preset("isolo-women");
    let rows = "2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2";
    assert_eq!(
        v.parse_position(&format!("{rows} N -")).unwrap(),
        v.parse_position(&format!("{rows} N")).unwrap()
    );
}

#[test]
fn random_positions_round_trip_and_make_unmake_restores_them() {
    let mut rng = Rng(0x0707);
    for _ in 0..300 {
        let variant = Variant::new(random_rules(&mut rng)).unwrap();
        let mut position = Position::new(&variant, variant.start());
        let mut seen = vec![*position.board()];
        for _ in 0..40 {
            let board = *position.board();
            let text = variant.format_position(&board);
            assert_eq!(variant.parse_position(&text).unwrap(), board, "{text}");
            assert_eq!(variant.validate(&board), Ok(()));
            let moves = variant.legal_moves(&board);
            if moves.is_empty() {
                break;
            }
            let chosen = &moves[rng.below(moves.len() as u64) as usize];
            position.make(chosen.child);
            seen.push(chosen.child);
        }
        while position.ply() > 0 {
            assert_eq!(*position.board(), seen.pop().unwrap());
            assert!(position.unmake());
            let board = *position.board();
            assert_eq!(board.hash(), board.compute_hash());
        }
        assert_eq!(*position.board(), variant.start());
        assert!(!position.unmake(), "nothing left to unmake");
    }
}

#[test]
fn hash_tells_apart_side_and_overture() {
    let v = preset("isolo-boys");
    let rows = "17,2,0,2,0,2,0,2/0,1,2,0,2,0,2,0/0,2,0,2,0,2,1,0/2,0,2,0,2,0,2,17";
    let hashes: Vec<u64> = ["S SN", "N SN", "S S", "S N", "S -"]
        .iter()
        .map(|f| v.parse_position(&format!("{rows} {f}")).unwrap().hash())
        .collect();
    for i in 0..hashes.len() {
        for j in i + 1..hashes.len() {
            assert_ne!(hashes[i], hashes[j]);
        }
    }
}

#[test]
fn rules_round_trip_through_toml() {
    let mut rng = Rng(0x70e1);
    let mut all: Vec<Rules> = ["isolo-women", "isolo-boys", "igisoro"]
        .iter()
        .map(|n| Rules::preset(n).unwrap())
        .collect();
    all.extend((0..200).map(|_| random_rules(&mut rng)));
    for rules in all {
        let text = rules.to_toml();
        assert_eq!(Rules::from_toml(&text, "other").unwrap(), rules, "{text}");
    }
}

/// Checks that `text` fails to parse as a position of `variant` with `expected` in the
/// one-line message.
fn bad_position(variant: &str, text: &str, expected: &str) {
    let err = preset(variant)
        .parse_position(text)
        .expect_err(text)
        .to_string();
    assert!(
        err.contains(expected),
        "position {text:?}: error {err:?} lacks {expected:?}"
    );
    assert!(!err.contains('\n'), "one line: {err:?}");
}

const W8: &str = "2,2,2,2,2,2,2,2";

#[test]
fn invalid_positions_are_named() {
    let rows = format!("{W8}/{W8}/{W8}/{W8}");
    bad_position("isolo-women", "", "found 0 field(s)");
    bad_position("isolo-women", &rows, "found 1 field(s)");
    bad_position("isolo-women", &format!("{rows} S - x"), "found 4 field(s)");
    bad_position(
        "isolo-women",
        &format!("{W8}/{W8}/{W8} S"),
        "expected 4 rows separated by '/', found 3",
    );
    bad_position(
        "isolo-women",
        &format!("{W8}/{W8}/{W8}/{W8}/{W8} S"),
        "found 5",
    );
    bad_position(
        "isolo-women",
        &format!("2,2,2,2,2,2,2/{W8}/{W8}/{W8} S"),
        "row 1 (North back) has 7 pits, expected 8",
    );
    bad_position(
        "isolo-women",
        &format!("{W8}/{W8}/{W8}/2,2,2,2,2,2,2,2,2 S"),
        "row 4 (South back) has 9 pits",
    );
    bad_position(
        "isolo-women",
        &format!("{W8}/2,a,2,2,2,2,2,2/{W8}/{W8} S"),
        "row 2, pit 2: 'a' is not a seed count",
    );
    bad_position(
        "isolo-women",
        &format!("{W8}/{W8}/2,-1,2,2,2,2,2,2/{W8} S"),
        "'-1' is not a seed count",
    );
    bad_position(
        "isolo-women",
        &format!("{W8}/{W8}/2,,2,2,2,2,2,2/{W8} S"),
        "'' is not a seed count",
    );
    bad_position(
        "isolo-women",
        &format!("{W8}/{W8}/{W8}/300,2,2,2,2,2,2,2 S"),
        "300 seeds is more than 255",
    );
    bad_position(
        "isolo-women",
        "200,0,0,0,0,0,0,0/90,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0 S",
        "North has 290 seeds, more than 255 on one side",
    );
    bad_position(
        "isolo-women",
        "200,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/90,0,0,0,0,0,0,0 S",
        "290 seeds in all",
    );
    bad_position(
        "isolo-women",
        &format!("{rows} X"),
        "side to move must be S or N, found 'X'",
    );
    bad_position(
        "isolo-women",
        &format!("{rows} s"),
        "side to move must be S or N",
    );
    bad_position(
        "isolo-women",
        &format!("{rows} S SN"),
        "overture flags 'SN' given, but variant 'isolo-women' has no overture",
    );
    bad_position(
        "isolo-boys",
        &format!("{rows} S NS"),
        "overture must be '-', 'S', 'N' or 'SN', found 'NS'",
    );
    bad_position(
        "isolo-boys",
        &format!("{rows} S SN"),
        "South has 2 seed(s) in pit 9, which is out of play during its overture",
    );
    bad_position(
        "isolo-boys",
        "0,0,0,0,0,0,0,0/5,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0 S N",
        "North has 5 seed(s) in pit 9",
    );
}

/// Checks that move `text` fails on `position` (default: the start) with `expected`.
fn bad_move(variant: &str, position: Option<&str>, text: &str, expected: &str) {
    let v = preset(variant);
    let board = position
        .map(|p| v.parse_position(p).unwrap())
        .unwrap_or_else(|| v.start());
    let err = v.play_text(&board, text).expect_err(text).to_string();
    assert!(
        err.contains(expected),
        "move {text:?}: error {err:?} lacks {expected:?}"
    );
    assert!(!err.contains('\n'));
}

#[test]
fn invalid_moves_are_named() {
    bad_move("isolo-women", None, "", "must start with a pit number");
    bad_move(
        "isolo-women",
        None,
        "x5",
        "move 'x5' must start with a pit number",
    );
    bad_move("isolo-women", None, "0", "pit 0 is not 1..16");
    bad_move("isolo-women", None, "17", "pit 17 is not 1..16");
    bad_move("isolo-women", None, "99999999999999999999", "is not 1..16");
    bad_move(
        "isolo-women",
        None,
        "5x",
        "'x' marks a capture choice, but captures are forced",
    );
    bad_move(
        "igisoro",
        None,
        "5q",
        "'q' is neither 'x' (take) nor 'p' (pass)",
    );
    bad_move(
        "igisoro",
        None,
        "9",
        "move '9' is not legal here (legal moves: 1 2 3 4 5 6 7 8)",
    );
    bad_move("igisoro", None, "5x", "move '5x' is not legal here");
    bad_move("isolo-boys", None, "10", "legal moves: 1 3 5 7 8 11 13 15");
    let over = "0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/2,0,0,0,0,0,0,0 N";
    bad_move(
        "isolo-women",
        Some(over),
        "1",
        "legal moves: none, the game is over",
    );
}

/// Checks that the rules file `text` fails with `expected` in the message.
fn bad_rules(text: &str, expected: &str) {
    let err = Rules::from_toml(text, "bad").expect_err(text).to_string();
    assert!(
        err.contains(expected),
        "rules {text:?}: error {err:?} lacks {expected:?}"
    );
    assert!(!err.contains('\n'), "one line: {err:?}");
}

#[test]
fn invalid_rules_files_name_the_key() {
    let women = "base = \"isolo-women\"\n";
    bad_rules(&format!("{women}foo = 1"), "unknown key `foo`");
    // A name goes into records and headers as one line: no control characters.
    for name in ["a\\nb", "tab\\there", "bell\\u0007"] {
        bad_rules(
            &format!("{women}name = \"{name}\""),
            "key `name`: has a control character",
        );
    }
    let quoted = Rules::from_toml(&format!("{women}name = 'say \"hi\" \\ go'"), "x").unwrap();
    assert_eq!(Rules::from_toml(&quoted.to_toml(), "y").unwrap(), quoted);
    bad_rules(
        &format!("{women}columns = 9"),
        "key `columns`: must be 2..=8, found 9",
    );
    bad_rules(
        &format!("{women}columns = 1"),
        "key `columns`: must be 2..=8, found 1",
    );
    bad_rules(
        &format!("{women}columns = \"8\""),
        "key `columns`: expected an integer 2..=8",
    );
    bad_rules(
        &format!("{women}columns = 6"),
        "key `start`: required because columns (6) differs from the base's (8): give the rows, or \"pattern\"",
    );
    bad_rules(
        &format!("{women}columns = 2\nstart = \"2,2/2,2/2,2\""),
        "key `start`: expected 4 rows",
    );
    bad_rules(
        &format!("{women}start = \"2,2/2,2/2,2/2,2\""),
        "key `start`: row 1 (North back) has 2 pits, expected 8",
    );
    bad_rules(
        &format!("{women}capture = \"some\""),
        "key `capture`: expected \"any\" or \"both\", found \"some\"",
    );
    bad_rules(
        &format!("{women}capture_choice = 3"),
        "key `capture_choice`: expected \"forced\" or \"optional\", found 3",
    );
    bad_rules(
        &format!("{women}capture_sow_from = \"start\""),
        "key `capture_sow_from`: expected \"lap-start\" or \"capture-pit\" or \"turn-start\" or \"lap-start-pit\"",
    );
    bad_rules(
        &format!("{women}overture = \"yes\""),
        "key `overture`: expected true or false",
    );
    bad_rules(
        &format!("{women}overture_protects = 1"),
        "key `overture_protects`: expected true or false",
    );
    bad_rules(
        &format!("{women}capture_ends_move = \"no\""),
        "key `capture_ends_move`",
    );
    bad_rules(
        &format!("{women}min_sow = 0"),
        "key `min_sow`: must be 1..=128, found 0",
    );
    bad_rules(
        &format!("{women}min_sow = -1"),
        "key `min_sow`: expected an integer 1..=128, found -1",
    );
    bad_rules(
        &format!("{women}min_sow = 300"),
        "key `min_sow`: expected an integer",
    );
    bad_rules(
        &format!("{women}max_laps = 0"),
        "key `max_laps`: must be 1..=1000000, found 0",
    );
    bad_rules(
        &format!("{women}max_laps = 2000000"),
        "key `max_laps`: must be 1..=1000000",
    );
    bad_rules(&format!("{women}name = 5"), "key `name`: expected a string");
    bad_rules(
        &format!("{women}overture = true"),
        "key `start`: South has seeds in pit 9, out of play during the overture",
    );
    bad_rules("base = \"chess\"", "key `base`: unknown preset \"chess\"");
    bad_rules("base = 3", "key `base`: expected a string");
    bad_rules("columns = 2", "key `start`: missing");
    bad_rules(
        "columns = 2\nstart = \"2,2/2,2/2,2/2,2\"",
        "key `min_sow`: missing (give it, or a `base` preset to take it from)",
    );
    bad_rules("columns = ", "invalid TOML");
    bad_rules("[table]\nx = 1", "unknown key `table`");
    // Leaving a clockwise capture is Ikibuguzo's: its other keys are required.
    let kubuguza = "base = \"kubuguza\"\nclockwise_leave = \"other-pit\"";
    bad_rules(
        kubuguza,
        "key `clockwise_leave`: \"other-pit\" is Ikibuguzo's",
    );
    bad_rules(
        "base = \"ikibuguzo\"\nclockwise_leave = \"others\"",
        "key `clockwise_leave`",
    );
    let leaving = "base = \"ikibuguzo\"\nclockwise_leave = \"other-pit\"";
    assert!(Rules::from_toml(leaving, "leaving").is_ok());
}

#[test]
fn unknown_variant_names_itself() {
    let err = Rules::load("no-such-variant").unwrap_err().to_string();
    assert!(err.contains("unknown variant 'no-such-variant'"), "{err}");
}

#[test]
fn a_rules_file_overrides_its_base() {
    let text = "name = \"women-6\"\nbase = \"isolo-women\"\ncolumns = 6\nstart = \"2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2\"\ncapture_sow_from = \"capture-pit\"";
    let rules = Rules::from_toml(text, "x").unwrap();
    assert_eq!(
        (rules.name(), rules.columns(), rules.min_sow()),
        ("women-6", 6, 2)
    );
    assert_eq!(rules.capture_sow_from(), isolo_rules::SowOrigin::CapturePit);
    let v = Variant::new(rules).unwrap();
    assert_eq!(v.legal_moves(&v.start()).len(), 12);
}

#[test]
fn errors_are_typed_by_what_was_wrong() {
    use isolo_rules::{NotationError, Rules, RulesError};
    let women = Variant::load("isolo-women").unwrap();
    assert!(matches!(
        women.parse_position("1,2 S"),
        Err(NotationError::Rows(_))
    ));
    let start_rows = women.format_position(&women.start());
    let rows = start_rows.split_whitespace().next().unwrap();
    assert!(matches!(
        women.parse_position(&format!("{rows} E")),
        Err(NotationError::Side(_))
    ));
    assert!(matches!(
        women.parse_position(rows),
        Err(NotationError::Position(_))
    ));
    let start = women.start();
    assert!(matches!(
        women.play_text(&start, "1q"),
        Err(NotationError::MoveText(_))
    ));
    assert!(matches!(
        women.play_text(&start, "99"),
        Err(NotationError::MoveText(_))
    ));
    assert!(matches!(
        Rules::load("no-such-preset"),
        Err(RulesError::UnknownVariant(_))
    ));
    assert!(matches!(
        Rules::from_toml("x = = 1", "x"),
        Err(RulesError::Toml(_))
    ));
    assert!(matches!(
        Rules::from_toml("colour = 1", "x"),
        Err(RulesError::Key(_))
    ));
    assert!(matches!(
        Rules::from_toml("base = \"isolo-women\"\ncolumns = 12", "x"),
        Err(RulesError::Key(_))
    ));
}

#[test]
fn a_moves_answers_are_listed_with_the_move_before_each() {
    let variant = Variant::load("igisoro-retreat").unwrap();
    let answers = |text: &str| -> Vec<(String, char)> {
        let mv = variant.parse_move(text).unwrap();
        let listed = mv.answers().into_iter();
        listed
            .map(|(before, a)| (before.to_string(), a.letter()))
            .collect()
    };
    assert!(answers("11").is_empty());
    assert!(answers("11xp").is_empty());
    assert_eq!(answers("11pr"), [("11p".to_string(), 'r')]);
    let both = [("10xp".to_string(), 's'), ("10xpsxp".to_string(), 'r')];
    assert_eq!(answers("10xpsxpr"), both);
}

/// A rules file on another width asks for its base's pattern (`start = "pattern"`, or
/// `"pattern:K"`), as `solve-table` lays it out, and the base's clockwise pits follow
/// the width unless it names its own.
#[test]
fn a_narrower_board_asks_for_its_bases_pattern() {
    use isolo_rules::{pattern_clockwise, pattern_start};
    for base in [
        "isolo-women",
        "isolo-boys",
        "igisoro",
        "kubuguza",
        "ikibuguzo",
        "igisoro-clockwise",
    ] {
        let family = isolo_rules::preset_family(base).unwrap();
        let eight = Rules::preset(base).unwrap();
        let k = (1..=16)
            .find(|&k| pattern_start(family, 8, k) == Some(eight.start()))
            .unwrap();
        for columns in 2..=7 {
            let text = format!("base = \"{base}\"\ncolumns = {columns}\nstart = \"pattern\"\n");
            let rules = Rules::from_toml(&text, "narrow").unwrap();
            assert_eq!(
                Some(rules.start()),
                pattern_start(family, columns, k),
                "{base} {columns}"
            );
            assert_eq!(
                rules.clockwise_from(),
                pattern_clockwise(base, columns),
                "{base} {columns}"
            );
            Variant::new(rules).unwrap();
        }
    }
    let two = Rules::from_toml(
        "base = \"igisoro\"\ncolumns = 3\nstart = \"pattern:2\"\n",
        "x",
    )
    .unwrap();
    assert_eq!(Some(two.start()), pattern_start("igisoro", 3, 2));
    let own = "base = \"kubuguza\"\ncolumns = 4\nstart = \"pattern\"\nclockwise_from = [2]\n";
    assert_eq!(Rules::from_toml(own, "x").unwrap().clockwise_from(), [2]);
    bad_rules(
        "columns = 4\nstart = \"pattern\"",
        "\"pattern\" needs a `base` preset",
    );
    bad_rules(
        "base = \"kubuguza\"\ncolumns = 4\nstart = \"pattern:0\"",
        "expected \"pattern\" or \"pattern:K\" (K seeds a pit, 1..=16), found \"pattern:0\"",
    );
    bad_rules(
        "base = \"isolo-women\"\nstart = \"pattern:16\"",
        "more than 255 on one side",
    );
}
