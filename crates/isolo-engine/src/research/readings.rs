//! The readings of `docs/RESULTS.md`: each preset as it is and with one rule read
//! another way (the capture's sowing origin, the capture condition, forced or optional
//! captures, whether a capture ends the move, narrower boards), and the statistics of
//! engine games under a reading the prover does not solve.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::matches::engine::{BotError, EngineSpec};
use crate::matches::schedule::game_seed;
use crate::research::compare::{
    opening, play_compared, play_in_order, Openings, VariantStats, VariantTally,
};
use isolo_rules::pattern_start;
use isolo_rules::{
    pattern_clockwise, CaptureChoice, CaptureCondition, CaptureWin, ClockwiseLaps, ClockwiseLeave,
    ClockwiseWhen, FirstMoveCaptures, Rules, RulesBuilder, SowOrigin, Variant, PRESETS,
};

/// Random plies before each sampled game, so a deterministic engine does not replay
/// one game over and over.
pub const RANDOM_OPENING_PLIES: u32 = 2;

/// A reading: its description and rules.
#[derive(Clone, Debug)]
pub struct Reading {
    /// What differs from the preset (`capture = both`), or `as the preset`.
    pub name: String,
    /// The rules, named `PRESET, NAME`.
    pub rules: Rules,
}

/// Each preset's name with its readings, the preset itself first.
pub fn readings() -> Vec<(String, Vec<Reading>)> {
    PRESETS
        .iter()
        .map(|&preset| (preset.to_string(), readings_of(preset)))
        .collect()
}

fn readings_of(preset: &str) -> Vec<Reading> {
    let base = Rules::preset(preset).expect("presets load");
    let with = |name: String, change: &dyn Fn(&mut RulesBuilder)| {
        let mut rules = base.to_builder();
        change(&mut rules);
        rules.name(format!("{preset}, {name}"));
        let rules = rules.build().expect("every reading holds together");
        Reading { name, rules }
    };
    let mut list = vec![with("as the preset".into(), &|_| {})];
    for origin in [
        SowOrigin::LapStart,
        SowOrigin::CapturePit,
        SowOrigin::TurnStart,
    ] {
        if origin != base.capture_sow_from() {
            list.push(with(
                format!("capture_sow_from = {}", origin.name()),
                &|r| {
                    r.capture_sow_from(origin);
                },
            ));
        }
    }
    let (capture, capture_name) = match base.capture() {
        CaptureCondition::Any => (CaptureCondition::Both, "both"),
        _ => (CaptureCondition::Any, "any"),
    };
    list.push(with(format!("capture = {capture_name}"), &|r| {
        r.capture(capture);
    }));
    let (choice, choice_name) = match base.capture_choice() {
        CaptureChoice::Forced => (CaptureChoice::Optional, "optional"),
        _ => (CaptureChoice::Forced, "forced"),
    };
    // Clockwise laps are played with forced captures that do not end the move (RULES.md
    // 3.7): a preset that sows clockwise changes its own keys instead.
    if base.clockwise_from().is_empty() {
        list.push(with(format!("capture_choice = {choice_name}"), &|r| {
            r.capture_choice(choice);
        }));
        list.push(with(
            format!("capture_ends_move = {}", !base.capture_ends_move()),
            &|r| {
                r.capture_ends_move(!base.capture_ends_move());
            },
        ));
    } else {
        list.extend(clockwise_readings(preset, &base, &with));
    }
    for columns in 4..=7u8 {
        list.push(with(format!("columns = {columns}"), &|r| {
            r.columns(columns);
            let seeds = if base.capture() == CaptureCondition::Both {
                4
            } else {
                2
            };
            r.start(pattern_start(preset, columns, seeds).expect("presets have patterns"));
            r.clockwise_from(pattern_clockwise(preset, columns));
        }));
    }
    list
}

/// A reading of the preset: its name and the change to the preset's rules.
type ReadingOf<'a> = dyn Fn(String, &dyn Fn(&mut RulesBuilder)) -> Reading + 'a;

/// The readings of a preset that sows clockwise (Kubuguza, Ikibuguzo; RULES.md 5):
/// without each of its own rules (clockwise laps, clockwise laps after the first, the
/// first moves' bar, the win by capture), with Ikibuguzo's account's limit on clockwise
/// laps (`first-sowing`) and its leaving of clockwise captures where the preset's keys
/// allow it (`clockwise_leave`), and as the Ludii game library reads it.
fn clockwise_readings(preset: &str, base: &Rules, with: &ReadingOf) -> Vec<Reading> {
    let mut list = vec![
        with("clockwise_from = []".into(), &|r| {
            r.clockwise_from(Vec::new());
        }),
        with("clockwise_laps = first".into(), &|r| {
            r.clockwise_laps(ClockwiseLaps::First);
        }),
        with("clockwise_laps = first-sowing".into(), &|r| {
            r.clockwise_laps(ClockwiseLaps::FirstSowing);
        }),
    ];
    let leave = base
        .to_builder()
        .clockwise_leave(ClockwiseLeave::OtherPit)
        .build();
    if leave.is_ok() {
        list.push(with("clockwise_leave = other-pit".into(), &|r| {
            r.clockwise_leave(ClockwiseLeave::OtherPit);
        }));
    }
    if base.first_move_captures() != FirstMoveCaptures::Allowed {
        list.push(with("first_move_captures = allowed".into(), &|r| {
            r.first_move_captures(FirstMoveCaptures::Allowed);
        }));
    }
    if base.capture_win() != CaptureWin::None {
        list.push(with("capture_win = none".into(), &|r| {
            r.capture_win(CaptureWin::None);
        }));
    }
    let kubuguza = preset == "kubuguza";
    list.push(with("Ludii's reading".into(), &|r| {
        if kubuguza {
            r.start(pattern_start(preset, r.so_far().columns(), 3).expect("a preset's pattern"));
            r.clockwise_from(LUDII_CLOCKWISE.to_vec());
        }
        r.clockwise_when(ClockwiseWhen::FacesSeeds);
        r.capture_sow_from(SowOrigin::LapStartPit);
        r.capture_win(CaptureWin::None);
    }));
    list
}

/// Ludii's clockwise pits of Kubuguza: the front row's ends, the back row's second
/// pits (RULES.md 5).
const LUDII_CLOCKWISE: [u8; 4] = [2, 7, 9, 16];

/// The games of a reading's sample.
#[derive(Clone, Debug)]
pub struct SampleSettings {
    /// Games at most.
    pub games: u64,
    /// Master seed: game `i` plays with `game_seed(seed, i)`.
    pub seed: u64,
    /// Plies after which a game is adjudicated a draw.
    pub max_plies: usize,
    /// Wall time after which no further game starts (the first always plays).
    pub budget: Option<Duration>,
    /// Ctrl-C's flag: raised, no game starts and those under way are dropped.
    pub interrupt: Option<&'static AtomicBool>,
}

/// Self-play statistics of `engine` under `variant`, each game from the start after
/// [`RANDOM_OPENING_PLIES`] random plies, played on `pool` and tallied in game order (the
/// games before the first the interrupt flag dropped, if it was raised).
pub fn sample_reading(
    variant: &Variant,
    engine: &EngineSpec,
    settings: &SampleSettings,
    pool: &rayon::ThreadPool,
) -> Result<VariantStats, BotError> {
    let started = Instant::now();
    let mut tally = VariantTally::default();
    let mut failure = None;
    play_in_order(
        pool,
        0..settings.games,
        |i| {
            // (The first game always plays, so every reading has statistics.)
            if i > 0 && settings.budget.is_some_and(|b| started.elapsed() >= b) {
                return None;
            }
            let seed = game_seed(settings.seed, i);
            let start = opening(variant, &Openings::Random(RANDOM_OPENING_PLIES), i, seed);
            Some(
                play_compared(
                    variant,
                    engine,
                    start,
                    seed,
                    settings.max_plies,
                    settings.interrupt,
                )
                .map(|f| f.map(|f| f.summary())),
            )
        },
        |_, game| match game {
            Some(Ok(Some(summary))) => {
                tally.add(&summary);
                true
            }
            Some(Ok(None)) => false, // (interrupted: the games so far are kept)
            Some(Err(e)) => {
                failure = Some(e);
                false
            }
            // A game past the budget: the others of its chunk may have played.
            None => true,
        },
    );
    match failure {
        Some(e) => Err(e),
        None => Ok(tally.stats(variant.name())),
    }
}
