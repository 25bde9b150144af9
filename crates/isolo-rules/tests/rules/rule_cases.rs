//! Each sowing, relay, capture and overture case on a small board drawn in ASCII.
//!
//! Boards are drawn as South sees them, one line per row: North back, North front,
//! South front, South back. With four columns the pit numbers are:
//!
//! ```text
//!   North back    4 3 2 1
//!   North front   5 6 7 8
//!   South front   8 7 6 5
//!   South back    1 2 3 4
//! ```

use isolo_rules::{
    CaptureChoice, CaptureCondition, CaptureWin, ClockwiseAt, ClockwiseLaps, ClockwiseWhen,
    FirstMoveCaptures, LegalMove, Retreat, Rules, RulesBuilder, Side, SowOrigin, Variant,
};

/// Rows notation from a drawing of four lines of seed counts.
fn rows(drawing: &str) -> String {
    let lines: Vec<String> = drawing
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(","))
        .collect();
    assert_eq!(lines.len(), 4, "a drawing has four rows");
    lines.join("/")
}

/// Four-column rules derived from a preset, adjusted by `change`.
fn four_columns(base: &str, change: impl FnOnce(&mut RulesBuilder)) -> Variant {
    let mut rules = Rules::preset(base).unwrap().to_builder();
    rules.columns(4);
    rules.start(isolo_rules::parse_rows(&rows("0 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0"), 4).unwrap());
    change(&mut rules);
    Variant::new(rules.build().unwrap()).unwrap()
}

/// Plays `mv` from the drawn position and checks the drawn result, laps and captures.
fn check(
    variant: &Variant,
    before: &str,
    flags: &str,
    mv: &str,
    after: &str,
    laps: u32,
    captured: u32,
) -> LegalMove {
    let board = variant
        .parse_position(&format!("{} S {flags}", rows(before)))
        .unwrap();
    let played = variant.play_text(&board, mv).unwrap();
    let expected = variant
        .parse_position(&format!("{} N {flags}", rows(after)))
        .unwrap();
    assert_eq!(
        variant.format_position(&played.child),
        variant.format_position(&expected),
        "after {mv}"
    );
    assert_eq!(
        (played.laps, played.captured),
        (laps, captured),
        "laps and captures of {mv}"
    );
    played
}

/// The drawn position, South to move, and its legal moves in notation.
fn moves_listed(variant: &Variant, drawing: &str) -> (isolo_rules::Board, Vec<String>) {
    let board = variant
        .parse_position(&format!("{} S", rows(drawing)))
        .unwrap();
    let listed = variant
        .legal_moves(&board)
        .iter()
        .map(|m| m.mv.to_string())
        .collect();
    (board, listed)
}

fn women4() -> Variant {
    four_columns("isolo-women", |_| {})
}

#[test]
fn a_lap_ending_in_an_empty_pit_ends_the_move() {
    let before = "
        0 0 0 0
        0 0 0 0
        0 0 0 0
        2 0 0 0";
    let after = "
        0 0 0 0
        0 0 0 0
        0 0 0 0
        0 1 1 0";
    check(&women4(), before, "", "1", after, 1, 0);
}

#[test]
fn a_lap_ending_in_an_occupied_pit_without_capture_relays() {
    // 1 -> 2, 3; pit 3 held 1, so its 2 seeds go on: 4, 5 (empty): end.
    let before = "
        0 0 0 0
        0 0 0 0
        0 0 0 0
        2 0 1 0";
    let after = "
        0 0 0 0
        0 0 0 0
        0 0 0 1
        0 1 0 1";
    check(&women4(), before, "", "1", after, 2, 0);
}

#[test]
fn a_lap_of_a_full_loop_or_more_sows_into_its_own_pit() {
    // 8 seeds from pit 1 round 8 pits: 2..8, then pit 1 itself, emptied at the start,
    // so the last seed falls in an empty pit.
    let before = "
        0 0 0 0
        0 0 0 0
        0 0 0 0
        8 0 0 0";
    let after = "
        0 0 0 0
        0 0 0 0
        1 1 1 1
        1 1 1 1";
    check(&women4(), before, "", "1", after, 1, 0);
}

#[test]
fn capture_any_takes_when_one_facing_pit_holds_seeds() {
    // 3 -> 4, 5; pit 5 is occupied and faces North's 8 (3 seeds) and 1 (empty): take 3,
    // sow them after pit 3 (the lap's start): 4, 5, 6 (empty): end.
    let before = "
        0 0 0 0
        0 0 0 3
        0 0 0 1
        0 0 2 0";
    let after = "
        0 0 0 0
        0 0 0 0
        0 0 1 3
        0 0 0 2";
    check(&women4(), before, "", "3", after, 2, 3);
}

#[test]
fn capture_both_needs_both_facing_pits_else_relays() {
    let before = "
        0 0 0 0
        0 0 0 3
        0 0 0 1
        0 0 2 0";
    // North's back pit 1 is empty: no capture; pit 5's 2 seeds relay to 6, 7.
    let after = "
        0 0 0 0
        0 0 0 3
        0 1 1 0
        0 0 0 1";
    let both = four_columns("isolo-women", |r| {
        r.capture(CaptureCondition::Both);
    });
    check(&both, before, "", "3", after, 2, 0);
}

/// Pit 1 -> 2, 3; relay from 3 -> 4, 5; pit 5 captures North's 8 (2 seeds). Where the
/// captured seeds go depends on `capture_sow_from`.
const RELAY_THEN_CAPTURE: &str = "
    0 0 0 0
    0 0 0 2
    0 0 0 1
    2 0 1 0";

#[test]
fn capture_sown_from_the_lap_start_of_a_relay_lap() {
    // After pit 3 (the relay lap's start): 4, 5 (occupied, nothing to take): relay 3
    // seeds from 5: 6, 7, 8 (empty): end.
    let after = "
        0 0 0 0
        0 0 0 0
        1 1 1 0
        0 1 0 2";
    check(&women4(), RELAY_THEN_CAPTURE, "", "1", after, 4, 2);
}

#[test]
fn capture_sown_from_the_turn_start() {
    // After pit 1 (the chosen pit): 2, 3 (empty): end.
    let after = "
        0 0 0 0
        0 0 0 0
        0 0 0 2
        0 2 1 1";
    let turn = four_columns("isolo-women", |r| {
        r.capture_sow_from(SowOrigin::TurnStart);
    });
    check(&turn, RELAY_THEN_CAPTURE, "", "1", after, 3, 2);
}

#[test]
fn capture_sown_from_the_capture_pit() {
    // After pit 5 (where the capturing seed fell): 6, 7 (empty): end.
    let after = "
        0 0 0 0
        0 0 0 0
        0 1 1 2
        0 1 0 1";
    let pit = four_columns("isolo-women", |r| {
        r.capture_sow_from(SowOrigin::CapturePit);
    });
    check(&pit, RELAY_THEN_CAPTURE, "", "1", after, 3, 2);
}

/// A lap of 9 seeds from pit 4 goes round and past its own pit, leaving a seed there,
/// and captures at pit 5.
const LAP_ROUND_ITS_OWN_PIT: &str = "
    0 0 0 1
    0 0 0 1
    0 0 0 0
    0 0 0 9";

#[test]
fn capture_sown_from_the_lap_start_leaves_the_pits_own_seed() {
    // The 2 captured seeds go after pit 4 into 5 and 6; relays from 6, 8, 2 and 4
    // end in the empty pit 6.
    let after = "
        0 0 0 0
        0 0 0 0
        0 2 1 4
        2 0 2 0";
    let start = four_columns("isolo-women", |_| {});
    check(&start, LAP_ROUND_ITS_OWN_PIT, "", "4", after, 6, 2);
}

#[test]
fn capture_sown_from_the_lap_start_pit_lifts_its_seed_too() {
    // The 2 captured seeds join pit 4's seed: 3 go into 5, 6 and 7; relays from 7, 1, 3
    // and 5 end in the empty pit 1.
    let after = "
        0 0 0 0
        0 0 0 0
        3 1 3 0
        1 2 0 1";
    let pit = four_columns("isolo-women", |r| {
        r.capture_sow_from(SowOrigin::LapStartPit);
    });
    check(&pit, LAP_ROUND_ITS_OWN_PIT, "", "4", after, 6, 2);
}

#[test]
fn capture_ends_move_stops_once_captured_seeds_are_sown() {
    // The captured seeds go after pit 3 into 4 and 5, and the move ends though pit 5
    // is occupied.
    let after = "
        0 0 0 0
        0 0 0 0
        0 0 0 3
        0 1 0 2";
    let ends = four_columns("isolo-women", |r| {
        r.capture_ends_move(true);
    });
    check(&ends, RELAY_THEN_CAPTURE, "", "1", after, 3, 2);
}

#[test]
fn max_laps_allows_exactly_that_many_laps() {
    let position = format!("{} S", rows(RELAY_THEN_CAPTURE));
    let four = four_columns("isolo-women", |r| {
        r.max_laps(4);
    });
    let three = four_columns("isolo-women", |r| {
        r.max_laps(3);
    });
    let moves = |v: &Variant| {
        let board = v.parse_position(&position).unwrap();
        v.legal_moves(&board)
            .iter()
            .map(|m| m.mv.to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(moves(&four), ["1"]);
    assert!(
        moves(&three).is_empty(),
        "the 4-lap move passes max_laps = 3"
    );
}

#[test]
fn a_move_that_returns_to_a_turning_point_is_endless_and_illegal() {
    // Two columns: pit 2's three seeds relay round the four pits for ever (the tenth
    // lap ends where the second did). South's only candidate is endless: South has no
    // legal move and has lost, with four seeds on the board.
    let rules = "
        name = \"women-2\"
        base = \"isolo-women\"
        columns = 2
        start = \"0,0/0,0/0,1/1,3\"
        max_laps = 1000000";
    let variant = Variant::new(Rules::from_toml(rules, "women-2").unwrap()).unwrap();
    let start = variant.start();
    assert!(variant.legal_moves(&start).is_empty());
    assert_eq!(variant.winner(&start), Some(Side::North));
}

/// Four-column boys' rules: South's overture loop is 1, 2, 3, 6, 7, 8; pit 4 is the
/// ng'hana and pit 5 is out of play.
fn boys4(protects: bool) -> Variant {
    four_columns("isolo-boys", |r| {
        r.overture_protects(protects);
    })
}

#[test]
fn overture_loop_skips_the_rightmost_column() {
    // 3 -> 6, 7 (skipping 4 and 5): end; South stays in overture.
    let before = "
        0 0 0 0
        0 0 0 0
        0 0 0 0
        0 0 2 5";
    let after = "
        0 0 0 0
        0 0 0 0
        0 1 1 0
        0 0 0 5";
    check(&boys4(true), before, "S", "3", after, 1, 0);
}

#[test]
fn sowing_the_nghana_ends_the_overture_and_uses_the_full_loop() {
    // 4 (the ng'hana, 5 seeds) -> 5, 6, 7, 8, 1: end; South's overture is over.
    let before = "
        0 0 0 0
        0 0 0 0
        0 0 0 0
        0 0 2 5";
    let board = boys4(true)
        .parse_position(&format!("{} S S", rows(before)))
        .unwrap();
    let played = boys4(true).play_text(&board, "4").unwrap();
    assert_eq!(
        boys4(true).format_position(&played.child),
        "0,0,0,0/0,0,0,0/1,1,1,1/1,0,2,0 N -"
    );
    assert!(!played.child.in_overture(Side::South));
}

/// South lands in pit 8, facing North's rightmost column (its ng'hana 4 and pit 5).
const FACING_NGHANA: &str = "
    6 0 0 0
    0 0 0 0
    1 0 2 0
    0 0 0 3";

#[test]
fn overture_protects_the_rightmost_column_from_capture() {
    // 6 -> 7, 8; North's ng'hana cannot be taken: pit 8 relays 2 -> 1, 2 (empty): end.
    let after = "
        6 0 0 0
        0 0 0 0
        0 1 0 0
        1 1 0 3";
    check(&boys4(true), FACING_NGHANA, "SN", "6", after, 2, 0);
}

#[test]
fn unprotected_nghana_can_be_captured() {
    // overture_protects = false: pit 8 takes the 6 seeds of North's ng'hana and sows
    // them after pit 6 round South's overture loop: 7, 8, 1, 2, 3, 6 (empty): end.
    let after = "
        0 0 0 0
        0 0 0 0
        3 2 1 0
        1 1 1 3";
    check(&boys4(false), FACING_NGHANA, "SN", "6", after, 2, 6);
}

#[test]
fn protection_ends_with_the_owners_overture() {
    // North has left its overture: its rightmost column can be taken.
    let board = boys4(true)
        .parse_position(&format!("{} S S", rows(FACING_NGHANA)))
        .unwrap();
    let played = boys4(true).play_text(&board, "6").unwrap();
    assert_eq!(played.captured, 6);
}

fn optional4() -> Variant {
    four_columns("igisoro", |r| {
        r.capture_choice(CaptureChoice::Optional);
        r.capture(CaptureCondition::Both);
    })
}

#[test]
fn optional_captures_make_a_move_for_each_choice() {
    // 3 -> 4, 5: pit 5 faces 3 + 1 seeds. Take (3x): sow 4 after pit 3 (the turn's
    // start): 4, 5, 6, 7 (empty): end. Pass (3p): relay 2 from 5 -> 6, 7: end.
    let before = "
        0 0 0 1
        0 0 0 3
        0 0 0 1
        0 0 2 0";
    let take = "
        0 0 0 0
        0 0 0 0
        0 1 1 3
        0 0 0 2";
    let pass = "
        0 0 0 1
        0 0 0 3
        0 1 1 0
        0 0 0 1";
    let v = optional4();
    check(&v, before, "", "3x", take, 2, 4);
    check(&v, before, "", "3p", pass, 2, 0);
    let (board, listed) = moves_listed(&v, before);
    assert_eq!(listed, ["3x", "3p", "5"], "by pit, take before pass");
    let err = v.play_text(&board, "3").unwrap_err().to_string();
    assert_eq!(err, "move '3': pit 3 needs a choice: 3x or 3p");
}

#[test]
fn a_passed_capture_may_be_answered_by_a_retreat() {
    // As above: 3 -> 4, 5, and pit 5 faces North's front pit 8 (3) and back pit 1 (1).
    // Passed, North answers: retreat (3pr), pit 8's seeds into pit 1 behind it, or stay
    // (3ps); then the relay 5 -> 6, 7 ends the move either way.
    let before = "
        0 0 0 1
        0 0 0 3
        0 0 0 1
        0 0 2 0";
    let retreated = "
        0 0 0 4
        0 0 0 0
        0 1 1 0
        0 0 0 1";
    let stayed = "
        0 0 0 1
        0 0 0 3
        0 1 1 0
        0 0 0 1";
    let v = four_columns("igisoro", |r| {
        r.retreat(Retreat::FrontToBack);
    });
    check(&v, before, "", "3pr", retreated, 2, 0);
    check(&v, before, "", "3ps", stayed, 2, 0);
    let (board, listed) = moves_listed(&v, before);
    assert_eq!(
        listed,
        ["3x", "3pr", "3ps", "5"],
        "take, then pass: retreat, stay"
    );
    for (text, why) in [
        ("3p", "needs more choices: 3pr or 3ps"),
        ("3xr", "not legal here"),
        ("3prs", "not legal here"),
    ] {
        let err = v.play_text(&board, text).unwrap_err().to_string();
        assert!(err.starts_with(&format!("move '{text}'")), "{err}");
        assert!(err.contains(why), "{text}: {err}");
    }
    // Without the key the letters are refused as such.
    let plain = optional4();
    let err = plain.play_text(&board, "3pr").unwrap_err().to_string();
    assert!(err.contains("no retreat"), "{err}");
    let rules = Rules::from_toml("base = \"isolo-women\"\nretreat = \"front-to-back\"\n", "x");
    assert!(rules.unwrap_err().to_string().contains("capture_choice"));
}

#[test]
fn a_retreat_is_open_only_where_the_front_pit_is_threatened() {
    // capture = any: pit 5 faces an empty front pit 8 and a sown back pit 1; the pass
    // has no answer.
    let before = "
        0 0 0 1
        0 0 0 0
        0 0 0 1
        0 0 2 0";
    let v = four_columns("igisoro", |r| {
        r.capture(CaptureCondition::Any);
        r.retreat(Retreat::FrontToBack);
    });
    let (_, listed) = moves_listed(&v, before);
    assert_eq!(listed, ["3x", "3p", "5"]);
}

/// The worked example of `sources/igisoro-lesson.txt`, on the full igisoro board.
mod igisoro_lesson {
    use super::*;

    fn igisoro() -> Variant {
        Variant::load("igisoro").unwrap()
    }

    /// South's pits 1..=16 as a list.
    fn south_pits(v: &Variant, board: &isolo_rules::Board) -> Vec<u8> {
        let _ = v;
        (1..=16).map(|p| board.seeds(Side::South, p)).collect()
    }

    #[test]
    fn turn_1_simple_sowing() {
        let v = igisoro();
        let played = v.play_text(&v.start(), "5").unwrap();
        // Pits 6, 7, 8 hold 5, pit 9 holds 1, pit 5 is empty; one lap.
        assert_eq!(
            south_pits(&v, &played.child),
            [4, 4, 4, 4, 0, 5, 5, 5, 1, 0, 0, 0, 0, 0, 0, 0]
        );
        assert_eq!(played.laps, 1);
    }

    #[test]
    fn turn_2_relay_sowing() {
        let v = igisoro();
        // After turn 1 (North's pits as at the start).
        let board = v
            .parse_position("4,4,4,4,4,4,4,4/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,1/4,4,4,4,0,5,5,5 S")
            .unwrap();
        let played = v.play_text(&board, "4").unwrap();
        // 4 -> 5, 6, 7, 8; pit 8 now holds 6: relay 9..14; pit 14 was empty.
        assert_eq!(
            south_pits(&v, &played.child),
            [4, 4, 4, 0, 1, 6, 6, 0, 2, 1, 1, 1, 1, 1, 0, 0]
        );
        assert_eq!(played.laps, 2);
    }

    #[test]
    fn turn_3_capture_sown_from_the_turn_start() {
        let v = igisoro();
        // Pit 9 holds 3, pit 12 holds 2; opposite pit 12 North has 3 in its front pit 13
        // and 4 in its back pit 4.
        let board = v
            .parse_position("4,4,4,4,4,4,4,4/0,0,0,0,3,0,0,0/0,0,0,0,2,0,0,3/4,4,4,4,4,4,4,4 S")
            .unwrap();
        assert_eq!(
            (board.seeds(Side::North, 13), board.seeds(Side::North, 4)),
            (3, 4)
        );
        let played = v.play_text(&board, "9x").unwrap();
        // 9 -> 10, 11, 12; take 3 + 4 = 7 and sow them from pit 9: 10..16.
        assert_eq!(
            south_pits(&v, &played.child),
            [4, 4, 4, 4, 4, 4, 4, 4, 0, 2, 2, 4, 1, 1, 1, 1]
        );
        assert_eq!((played.captured, played.laps), (7, 2));
        assert_eq!(
            (
                played.child.seeds(Side::North, 13),
                played.child.seeds(Side::North, 4)
            ),
            (0, 0)
        );
        // The capture may be declined: pit 12's 3 seeds relay to 13, 14, 15.
        let passed = v.play_text(&board, "9p").unwrap();
        assert_eq!(
            south_pits(&v, &passed.child),
            [4, 4, 4, 4, 4, 4, 4, 4, 0, 1, 1, 0, 1, 1, 1, 0]
        );
    }
}

/// Four-column Kubuguza (forced captures of both facing pits, sown from the lap start)
/// sowing clockwise from `pits`, first moves free to capture.
fn clockwise4(pits: &[u8], laps: ClockwiseLaps) -> Variant {
    four_columns("kubuguza", |r| {
        r.clockwise_from(pits.to_vec());
        r.clockwise_laps(laps);
        r.first_move_captures(FirstMoveCaptures::Allowed);
    })
}

#[test]
fn a_clockwise_lap_that_captures_is_a_choice() {
    // Clockwise from pit 1: 8, 7; pit 7 held a seed and faces North's 6 (2) and 3 (1):
    // take 3 and sow them on from pit 1 anticlockwise (clockwise they would end in
    // empty pit 6): 2, 3, 4 (empty): end.
    let v = clockwise4(&[1], ClockwiseLaps::Any);
    let before = "
        0 1 0 0
        0 2 0 0
        0 1 0 0
        2 0 0 0";
    let clockwise = "
        0 0 0 0
        0 0 0 0
        1 2 0 0
        0 1 1 1";
    check(&v, before, "", "1c", clockwise, 2, 3);
    // Anticlockwise: 2, 3 (empty): end.
    let anticlockwise = "
        0 1 0 0
        0 2 0 0
        0 1 0 0
        0 1 1 0";
    check(&v, before, "", "1a", anticlockwise, 1, 0);
    let board = v.parse_position(&format!("{} S", rows(before))).unwrap();
    let error = v.play_text(&board, "1").unwrap_err().to_string();
    assert!(error.contains("pit 1 needs a choice: 1a or 1c"), "{error}");
}

#[test]
fn a_clockwise_lap_that_would_not_capture_is_no_choice() {
    // North's 3 is empty: clockwise would land on 7 without a capture.
    let v = clockwise4(&[1], ClockwiseLaps::Any);
    let before = "
        0 0 0 0
        0 2 0 0
        0 1 0 0
        2 0 0 0";
    let after = "
        0 0 0 0
        0 2 0 0
        0 1 0 0
        0 1 1 0";
    check(&v, before, "", "1", after, 1, 0);
    let board = v.parse_position(&format!("{} S", rows(before))).unwrap();
    assert!(v.play_text(&board, "1c").is_err());
    assert!(v.play_text(&board, "1a").is_err(), "no choice, no letter");
}

#[test]
fn a_relay_from_a_clockwise_pit_may_turn_mid_move() {
    // 4 -> 5, 6, 7, 8; pit 8 held a seed, faces nothing: relay its 2 seeds. Clockwise
    // (7, 6) ends on pit 6, which faces North's 7 and 2: take 2, sown on from pit 8
    // anticlockwise: 1, 2 (empty): end.
    let before = "
        0 0 1 0
        0 0 1 0
        1 0 0 0
        0 0 0 4";
    let turned = "
        0 0 0 0
        0 0 0 0
        0 2 2 1
        1 1 0 0";
    check(
        &clockwise4(&[8], ClockwiseLaps::Any),
        before,
        "",
        "4c",
        turned,
        3,
        2,
    );
    // Anticlockwise the relay goes 1, 2 (empty): end.
    let straight = "
        0 0 1 0
        0 0 1 0
        0 1 1 1
        1 1 0 0";
    check(
        &clockwise4(&[8], ClockwiseLaps::Any),
        before,
        "",
        "4a",
        straight,
        2,
        0,
    );
    // Where only first laps may turn, the relay has no choice.
    check(
        &clockwise4(&[8], ClockwiseLaps::First),
        before,
        "",
        "4",
        straight,
        2,
        0,
    );
}

/// The moves of `pit` from the drawn position, South to move, as text.
fn moves_of(v: &Variant, drawing: &str, pit: u8) -> Vec<String> {
    let board = v.parse_position(&format!("{} S", rows(drawing))).unwrap();
    let prefix = |m: &String| m.trim_end_matches(char::is_alphabetic) == pit.to_string();
    let moves = v.legal_moves(&board).into_iter().map(|m| m.mv.to_string());
    moves.filter(prefix).collect()
}

#[test]
fn first_sowing_lets_one_lap_turn_unless_the_first_did() {
    // Clockwise pits 1 and 8. Pit 6 is none: its first lap goes anticlockwise, and a
    // later lap lifted from pit 1 or 8 may turn. Under "any" a lap after that one may
    // turn again; under "first-sowing" that clockwise lap was the turn's one, and the
    // rest goes anticlockwise.
    let drawing = "
        1 0 1 1
        0 1 1 1
        2 0 2 2
        2 0 1 0";
    let any = clockwise4(&[1, 8], ClockwiseLaps::Any);
    let first_sowing = clockwise4(&[1, 8], ClockwiseLaps::FirstSowing);
    assert_eq!(moves_of(&any, drawing, 6), ["6a", "6ca", "6cc"]);
    assert_eq!(moves_of(&first_sowing, drawing, 6), ["6a", "6c"]);
    let board = any.parse_position(&format!("{} S", rows(drawing))).unwrap();
    assert_eq!(
        first_sowing.play_text(&board, "6c").unwrap().child,
        any.play_text(&board, "6ca").unwrap().child,
        "the lap after the turn's one clockwise lap goes anticlockwise"
    );
    // A turn whose first lap goes clockwise (from pit 8) may turn at later laps too.
    let drawing = "
        0 1 1 2
        2 2 2 1
        2 0 2 2
        1 0 1 2";
    let expected = ["8a", "8caa", "8cac", "8cc"];
    assert_eq!(moves_of(&any, drawing, 8), expected);
    assert_eq!(moves_of(&first_sowing, drawing, 8), expected);
    assert_eq!(moves_of(&any, drawing, 6), ["6a", "6caa", "6cac", "6cc"]);
    assert_eq!(moves_of(&first_sowing, drawing, 6), ["6a", "6c"]);
    // Read with forced captures only.
    let mut optional = first_sowing.rules().to_builder();
    optional.capture_choice(CaptureChoice::Optional);
    let refused = optional.build().unwrap_err().to_string();
    assert!(refused.contains("clockwise_laps"), "{refused}");
}

#[test]
fn a_barred_first_move_relays_where_it_would_capture() {
    // The capture case above (3 -> 4, 5 facing North's 3 seeds), South's first move
    // still to come: pit 5's 2 seeds relay instead: 6, 7 (empty): end.
    let v = four_columns("isolo-women", |r| {
        r.first_move_captures(FirstMoveCaptures::BarredEach);
    });
    let before = rows(
        "
        0 0 0 0
        0 0 0 3
        0 0 0 1
        0 0 2 0",
    );
    let board = v.parse_position(&format!("{before} S SN")).unwrap();
    let played = v.play_text(&board, "3").unwrap();
    let after = rows(
        "
        0 0 0 0
        0 0 0 3
        0 1 1 0
        0 0 0 1",
    );
    assert_eq!(v.format_position(&played.child), format!("{after} N N"));
    assert_eq!((played.laps, played.captured), (2, 0));
    // Once South's first move is made, the same move captures.
    let board = v.parse_position(&format!("{before} S N")).unwrap();
    assert_eq!(v.play_text(&board, "3").unwrap().captured, 3);
    // The start carries both flags; a variant without the bar takes none.
    assert!(v.format_position(&v.start()).ends_with(" S SN"));
    assert!(women4().parse_position(&format!("{before} S - S")).is_err());
}

#[test]
fn faces_seeds_lets_a_clockwise_lap_end_in_an_empty_pit() {
    // Clockwise from pit 1 (8, 7) ends in empty pit 7, facing North's 6 and 3: under
    // "faces-seeds" that lap is a choice, and the move ends there; under "captures" it is
    // none.
    let before = "
        0 1 0 0
        0 2 0 0
        0 0 0 0
        2 0 0 0";
    let mut faces = four_columns("kubuguza", |r| {
        r.clockwise_from(vec![1]);
        r.first_move_captures(FirstMoveCaptures::Allowed);
        r.clockwise_when(ClockwiseWhen::FacesSeeds);
    });
    let after = "
        0 1 0 0
        0 2 0 0
        1 1 0 0
        0 0 0 0";
    check(&faces, before, "", "1c", after, 1, 0);
    let straight = "
        0 1 0 0
        0 2 0 0
        0 0 0 0
        0 1 1 0";
    check(&faces, before, "", "1a", straight, 1, 0);
    check(
        &clockwise4(&[1], ClockwiseLaps::Any),
        before,
        "",
        "1",
        straight,
        1,
        0,
    );
    // On a first move that may not capture, the same lap is still a choice.
    let mut rules = faces.rules().to_builder();
    rules.first_move_captures(FirstMoveCaptures::BarredEach);
    faces = Variant::new(rules.build().unwrap()).unwrap();
    let board = faces
        .parse_position(&format!("{} S S", rows(before)))
        .unwrap();
    assert_eq!(faces.play_text(&board, "1c").unwrap().captured, 0);
}

/// South's move 4 captures at pit 5 (North's column 4) and, sowing the captured seeds
/// on, at pit 8 (North's column 1): both North's front-row end pits in one turn.
const BOTH_ENDS_IN_ONE_TURN: &str = "
    1 0 0 2
    1 1 0 2
    1 0 0 1
    0 0 0 1";

/// The capture rules of `BOTH_ENDS_IN_ONE_TURN`, with `capture_win` as given.
fn ends_rules(capture_win: CaptureWin) -> Variant {
    four_columns("isolo-women", |r| {
        r.min_sow(1);
        r.capture(CaptureCondition::Both);
        r.capture_win(capture_win);
    })
}

#[test]
fn taking_both_front_row_end_pits_in_one_turn_wins() {
    // Lap 1 ends in pit 5 and takes 4 seeds, sown into 5-8; pit 8 takes 2 more, sown
    // into 5 and 6; relays from 6 and 8 end in the empty pit 3.
    let after = rows(
        "
        0 0 0 0
        0 1 0 0
        0 2 0 4
        1 1 1 0",
    );
    let wins = ends_rules(CaptureWin::FrontEnds);
    let board = wins
        .parse_position(&format!("{} S -", rows(BOTH_ENDS_IN_ONE_TURN)))
        .unwrap();
    let played = wins.play_text(&board, "4").unwrap();
    assert_eq!((played.laps, played.captured), (5, 6));
    // The WON field names the winner; North, to move, has lost.
    assert_eq!(wins.format_position(&played.child), format!("{after} N S"));
    assert!(played.child.ends_captured());
    assert!(wins.legal_moves(&played.child).is_empty());
    assert_eq!(wins.winner(&played.child), Some(Side::South));
    let game = isolo_rules::Game::new(&wins, played.child);
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.reason, isolo_rules::EndReason::EndsCaptured);
    assert_eq!(outcome.winner, Some(Side::South));
    // Without the key the same move leaves North to play on.
    let plays_on = ends_rules(CaptureWin::None);
    let child = plays_on
        .play_text(
            &plays_on
                .parse_position(&format!("{} S", rows(BOTH_ENDS_IN_ONE_TURN)))
                .unwrap(),
            "4",
        )
        .unwrap()
        .child;
    assert_eq!(plays_on.format_position(&child), format!("{after} N"));
    assert!(!plays_on.legal_moves(&child).is_empty());
}

#[test]
fn one_end_pit_or_an_end_pit_empty_before_wins_nothing() {
    let wins = ends_rules(CaptureWin::FrontEnds);
    // North's pit 5 (column 1) is empty before the move: pit 8 cannot take it.
    let one_end = "
        1 0 0 2
        0 1 0 2
        1 0 0 1
        0 0 0 1";
    let board = wins
        .parse_position(&format!("{} S -", rows(one_end)))
        .unwrap();
    let played = wins.play_text(&board, "4").unwrap();
    assert!(!played.child.ends_captured());
    assert!(wins.format_position(&played.child).ends_with(" N -"));
}

#[test]
fn the_won_field_reads_back_and_names_its_errors() {
    let wins = ends_rules(CaptureWin::FrontEnds);
    let rows = rows(BOTH_ENDS_IN_ONE_TURN);
    for text in [
        format!("{rows} N S"),
        format!("{rows} S N"),
        format!("{rows} S -"),
    ] {
        let board = wins.parse_position(&text).unwrap();
        assert_eq!(wins.format_position(&board), text);
    }
    let error = wins.parse_position(&format!("{rows} S S")).unwrap_err();
    assert!(error.to_string().contains("won field 'S'"), "{error}");
    let error = wins.parse_position(&format!("{rows} S - -")).unwrap_err();
    assert!(error.to_string().contains("ROWS SIDE [WON]"), "{error}");
    // Rules without the key refuse the flag.
    let plain = ends_rules(CaptureWin::None);
    assert!(plain.parse_position(&format!("{rows} N S")).is_err());
}

#[test]
fn a_lap_may_turn_into_a_clockwise_pit_where_the_rules_say_so() {
    // Pit 1 is not a clockwise pit, but sown clockwise its 2 seeds end in pit 7, which
    // is, and capture North's column: with clockwise_at = "start-or-end" that is a
    // choice. The captured seeds go on anticlockwise from pit 1 (clockwise they would
    // end in pit 7 again, capturing nothing), into the empty pit 3.
    let before = "
        0 1 0 0
        0 1 0 0
        0 1 0 0
        2 0 0 0";
    let after = "
        0 0 0 0
        0 0 0 0
        1 2 0 0
        0 1 1 0";
    let rules = |at: ClockwiseAt| {
        four_columns("kubuguza", |r| {
            r.clockwise_from(vec![7]);
            r.clockwise_at(at);
        })
    };
    let into = rules(ClockwiseAt::StartOrEnd);
    check(&into, before, "-", "1c", after, 2, 2);
    let board = into
        .parse_position(&format!("{} S -", rows(before)))
        .unwrap();
    let moves: Vec<String> = into
        .legal_moves(&board)
        .iter()
        .map(|m| m.mv.to_string())
        .collect();
    assert_eq!(moves, ["1a", "1c"]);
    // Only from the listed pits: pit 1 sows anticlockwise, no choice.
    let from_only = rules(ClockwiseAt::Start);
    let moves: Vec<String> = from_only
        .legal_moves(&board)
        .iter()
        .map(|m| m.mv.to_string())
        .collect();
    assert_eq!(moves, ["1"]);
}

#[test]
fn igisoro_clockwise_turns_from_or_into_its_pits_and_offers_the_capture() {
    // The named reading on 4 columns: clockwise pits 1, 4, 6 and 7. Pit 8 is not one,
    // but its seed sown clockwise ends in pit 7, which is, on a seed, facing North's
    // occupied 6 and 3: a direct capture, so a choice, and the capture is optional.
    // Taken, the 2 seeds are sown from the turn's pit 8 anticlockwise (clockwise they
    // would end in the empty pit 6), into pits 1 and 2. Passed, pit 7 relays into 8, 1.
    let before = "
        0 1 0 0
        0 1 0 0
        1 1 0 0
        0 0 0 0";
    let taken = "
        0 0 0 0
        0 0 0 0
        0 2 0 0
        1 1 0 0";
    let passed = "
        0 1 0 0
        0 1 0 0
        1 0 0 0
        1 0 0 0";
    let reading = four_columns("igisoro-clockwise", |r| {
        r.clockwise_from(isolo_rules::pattern_clockwise("igisoro-clockwise", 4));
    });
    assert_eq!(reading.rules().clockwise_from(), [1, 4, 6, 7]);
    check(&reading, before, "", "8cx", taken, 2, 2);
    check(&reading, before, "", "8cp", passed, 2, 0);
    let (_, listed) = moves_listed(&reading, before);
    assert_eq!(listed, ["7", "8a", "8cx", "8cp"]);
    // Igisoro itself sows anticlockwise only.
    let (_, plain) = moves_listed(&four_columns("igisoro", |_| {}), before);
    assert_eq!(plain, ["7", "8"]);
}

#[test]
fn ikibuguzo_may_leave_a_clockwise_capture_and_sow_the_other_pit() {
    // Ikibuguzo on 4 columns with `clockwise_leave`: clockwise pits 1 and 7. Pit 7's
    // two seeds sown clockwise land in 6 and 5, on a seed facing North's occupied pits:
    // the capture (2 seeds) goes into pit 7. Sown on (`o`), they go anticlockwise into
    // 8 and 1, which relays into 2 and 3. Left there (`l`), pit 1 is lifted instead and
    // its seed sown clockwise lands on pit 8's, capturing North's last 2 seeds, which
    // pit 1 sows into 2 and 3.
    let before = "
        1 0 0 1
        1 0 0 1
        1 2 0 1
        1 0 0 0";
    let sown_on = "
        1 0 0 0
        1 0 0 0
        2 0 1 2
        0 1 1 0";
    let left = "
        0 0 0 0
        0 0 0 0
        2 2 1 2
        0 1 1 0";
    let leaving = four_columns("ikibuguzo", |r| {
        r.clockwise_from(isolo_rules::pattern_clockwise("ikibuguzo", 4));
        r.clockwise_leave(isolo_rules::ClockwiseLeave::OtherPit);
        r.capture_win(isolo_rules::CaptureWin::None);
    });
    assert_eq!(leaving.rules().clockwise_from(), [1, 7]);
    check(&leaving, before, "", "7co", sown_on, 3, 2);
    check(&leaving, before, "", "7cl", left, 3, 4);
    let (_, listed) = moves_listed(&leaving, before);
    assert_eq!(listed, ["7a", "7co", "7cl"]);
    // Without the key the capture is sown on, with no letter for it.
    let plain = four_columns("ikibuguzo", |r| {
        r.clockwise_from(isolo_rules::pattern_clockwise("ikibuguzo", 4));
        r.capture_win(isolo_rules::CaptureWin::None);
    });
    check(&plain, before, "", "7c", sown_on, 3, 2);
    assert_eq!(moves_listed(&plain, before).1, ["7a", "7c"]);
    // There the letters are refused as such; with the key a move must say which.
    let board = plain
        .parse_position(&format!("{} S", rows(before)))
        .unwrap();
    let err = plain.play_text(&board, "7cl").unwrap_err().to_string();
    assert!(err.contains("no clockwise_leave"), "{err}");
    let err = leaving.play_text(&board, "7c").unwrap_err().to_string();
    assert!(err.contains("needs more choices"), "{err}");
}
