//! Known-answer perft counts from RULES.md section 9.

use crate::common;
use isolo_rules::perft;
use isolo_rules::{CaptureChoice, Retreat, Rules, RulesBuilder, SowOrigin, Variant};

fn check(variant: &Variant, expected: &[u64]) {
    let start = variant.start();
    for (d, &nodes) in expected.iter().enumerate() {
        let depth = d as u32 + 1;
        assert_eq!(
            perft(variant, &start, depth),
            nodes,
            "{} depth {depth}",
            variant.name()
        );
    }
}

fn preset(name: &str) -> Variant {
    Variant::load(name).unwrap()
}

#[test]
fn isolo_women_to_depth_4() {
    check(&preset("isolo-women"), &[16, 142, 1311, 8734]);
}

#[test]
fn isolo_women_capture_pit_to_depth_4() {
    let capture_pit = preset_with("isolo-women", |r| {
        r.capture_sow_from(SowOrigin::CapturePit);
    });
    check(&capture_pit, &[16, 184, 2013, 16224]);
}

#[test]
fn isolo_boys_to_depth_5() {
    check(&preset("isolo-boys"), &[8, 51, 292, 1467, 7007]);
}

#[test]
fn igisoro_to_depth_4() {
    check(&preset("igisoro"), &[8, 64, 623, 7218]);
}

#[test]
fn kubuguza_to_depth_5() {
    check(&preset("kubuguza"), &[8, 64, 477, 3411, 25838]);
}

#[test]
fn ikibuguzo_to_depth_5() {
    check(&preset("ikibuguzo"), &[9, 81, 653, 5040, 39178]);
    check(&preset("ikibuguzo-opening-1"), &[5, 29, 177, 1068, 6719]);
}

#[test]
fn igisoro_clockwise_to_depth_4() {
    let variant = preset("igisoro-clockwise");
    check(&variant, &[8, 64, 636, 8413]);
    // The reference, which reads "from or into" the clockwise pits on its own, agrees.
    let start = common::to_reference(&variant, &variant.start());
    assert_eq!(common::reference::perft(variant.rules(), &start, 4), 8413);
}

/// The preset `base` with `change` made to its rules.
fn preset_with(base: &str, change: impl FnOnce(&mut RulesBuilder)) -> Variant {
    let mut rules = Rules::preset(base).unwrap().to_builder();
    change(&mut rules);
    Variant::new(rules.build().unwrap()).unwrap()
}

/// `base` with `clockwise_laps = "first-sowing"` (RULES.md 3.7).
pub(crate) fn first_sowing(base: &str) -> Variant {
    preset_with(base, |r| {
        r.clockwise_laps(isolo_rules::ClockwiseLaps::FirstSowing);
    })
}

#[test]
fn first_sowing_to_depth_5() {
    check(&first_sowing("kubuguza"), &[8, 64, 474, 3350, 25300]);
    check(&first_sowing("ikibuguzo"), &[9, 81, 653, 5035, 39004]);
}

/// `base` with `clockwise_leave = "other-pit"` (RULES.md 3.7).
pub(crate) fn leaving(base: &str) -> Variant {
    preset_with(base, |r| {
        r.clockwise_leave(isolo_rules::ClockwiseLeave::OtherPit);
    })
}

#[test]
fn clockwise_leave_to_depth_5() {
    for (base, counts) in [
        ("ikibuguzo", [9, 81, 653, 5046, 39465]),
        ("ikibuguzo-opening-1", [5, 37, 188, 1174, 7160]),
    ] {
        let variant = leaving(base);
        check(&variant, &counts);
        // The reference, which leaves captures on its own, agrees.
        let start = common::to_reference(&variant, &variant.start());
        let reference = common::reference::perft(variant.rules(), &start, 4);
        assert_eq!(reference, counts[3], "{base}");
    }
}

/// Igisoro, and Kubuguza with optional captures, each with the retreat: the answers'
/// letters are moves' letters, each sequence counted.
fn with_the_retreat(base: &str) -> Variant {
    preset_with(base, |r| {
        r.capture_choice(CaptureChoice::Optional);
        r.retreat(Retreat::FrontToBack);
    })
}

#[test]
fn the_retreat_to_depth_4() {
    check(&with_the_retreat("igisoro"), &[8, 64, 638, 9031]);
    // The named reading is those rules.
    check(&preset("igisoro-retreat"), &[8, 64, 638, 9031]);
    assert_eq!(
        preset("igisoro-retreat").rules().same_as_preset(),
        Some("igisoro-retreat")
    );
    check(&with_the_retreat("kubuguza"), &[8, 64, 599, 7164]);
    // The reference counts the same.
    for base in ["igisoro", "kubuguza"] {
        let variant = with_the_retreat(base);
        let start = common::to_reference(&variant, &variant.start());
        let expected = perft(&variant, &variant.start(), 3);
        assert_eq!(
            common::reference::perft(variant.rules(), &start, 3),
            expected,
            "{base}"
        );
    }
}

#[test]
fn depth_zero_is_one() {
    let women = preset("isolo-women");
    assert_eq!(perft(&women, &women.start(), 0), 1);
}

#[test]
fn deepest_rows() {
    assert_eq!(
        perft(&preset("isolo-women"), &preset("isolo-women").start(), 5),
        69787
    );
    assert_eq!(
        perft(&preset("isolo-boys"), &preset("isolo-boys").start(), 6),
        31930
    );
    assert_eq!(
        perft(&preset("igisoro"), &preset("igisoro").start(), 5),
        93029
    );
    assert_eq!(
        perft(
            &preset("igisoro-clockwise"),
            &preset("igisoro-clockwise").start(),
            5
        ),
        176106
    );
    assert_eq!(
        perft(&preset("kubuguza"), &preset("kubuguza").start(), 6),
        200896
    );
    assert_eq!(
        perft(&preset("ikibuguzo"), &preset("ikibuguzo").start(), 6),
        281316
    );
    assert_eq!(
        perft(
            &preset("ikibuguzo-opening-1"),
            &preset("ikibuguzo-opening-1").start(),
            6
        ),
        45072
    );
}
