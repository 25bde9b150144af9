//! Rules of a variant: every rule key (RULES.md sections 3-5), the presets and readings
//! of section 5, rules files (section 8), and the builder that changes rules outside
//! this crate.

use std::fmt;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::board::Pits;
use super::notation::{format_rows, parse_rows};
use super::ring::MAX_LANES;
use crate::patterns::{pattern_clockwise, pattern_start};
use crate::side::Side;
use crate::text::toml_error_text;

/// Which facing opponent pits must hold seeds for a capture.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CaptureCondition {
    /// At least one of the two facing pits holds seeds.
    Any,
    /// Both facing pits hold seeds.
    Both,
}

/// Whether a capture opportunity must be taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CaptureChoice {
    /// Every capture opportunity is taken.
    Forced,
    /// The mover takes (`x`) or passes (`p`) at each opportunity.
    Optional,
}

/// The pit after which captured seeds are sown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SowOrigin {
    /// The pit the capturing lap was sown from.
    LapStart,
    /// The pit where the capturing seed landed.
    CapturePit,
    /// The pit chosen at the start of the move.
    TurnStart,
    /// Into the pit the capturing lap was sown from, which is then lifted: the seeds it
    /// holds (a lap of a loop's length or more sows into its own pit) are sown with the
    /// captured ones.
    LapStartPit,
}

/// How a dead position ends the game: one where a side's seeds can never be captured
/// and can never capture, whatever it plays (`fortress`), so no seed will change hands
/// again.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DeadPosition {
    /// The game ends there, drawn.
    Draw,
    /// The game ends there and each side counts the seeds on its side: more wins,
    /// equal draws (the house ending players use where a game cannot end).
    Count,
    /// No such ending: the game goes on (the sources' rules alone).
    PlayOn,
}

/// How the long-game rule ends a game (`long_game_plies` plies in a row without a
/// capture).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LongGameEnding {
    /// The game is drawn.
    Draw,
    /// Each side counts the seeds on its side: more wins, equal draws.
    Count,
}

impl LongGameEnding {
    const NAMES: [(&'static str, Self); 2] = [("draw", Self::Draw), ("count", Self::Count)];

    /// The name rules files give it.
    pub fn name(self) -> &'static str {
        name_of(&Self::NAMES, self)
    }
}

/// Which moves may not capture at the start of a game (a lap that would capture relays
/// instead).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FirstMoveCaptures {
    /// Every move may capture.
    Allowed,
    /// The game's first move (South's) may not.
    BarredFirst,
    /// Neither player's first move may.
    BarredEach,
}

impl FirstMoveCaptures {
    const NAMES: [(&'static str, Self); 3] = [
        ("allowed", Self::Allowed),
        ("barred-first", Self::BarredFirst),
        ("barred-each", Self::BarredEach),
    ];

    /// The first-move flags of the start position (bit 0 South, bit 1 North): the
    /// players whose coming first move may not capture.
    pub(crate) fn start_flags(self) -> u8 {
        match self {
            Self::Allowed => 0,
            Self::BarredFirst => 1,
            Self::BarredEach => 3,
        }
    }
}

/// Which laps of a move may be sown clockwise from the pits of `clockwise_from`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ClockwiseLaps {
    /// Only the move's first lap, from the chosen pit.
    First,
    /// Any lap: the first, a relay lifted from such a pit, or captured seeds sown on
    /// from one.
    Any,
    /// Any lap where the move's first lap went clockwise; where it went anticlockwise,
    /// one later lap at most (Ikibuguzo's account: several clockwise captures only when
    /// the turn's first sowing is one).
    FirstSowing,
}

impl ClockwiseLaps {
    const NAMES: [(&'static str, Self); 3] = [
        ("first", Self::First),
        ("any", Self::Any),
        ("first-sowing", Self::FirstSowing),
    ];

    /// Whether a lap may turn after `laps` laps of the move, `spent` if the move's first
    /// lap went anticlockwise and a later one clockwise already (`FirstSowing`).
    pub(crate) fn lap_may_turn(self, laps: u32, spent: bool) -> bool {
        match self {
            Self::First => laps == 0,
            Self::Any => true,
            Self::FirstSowing => !spent,
        }
    }
}

/// Where a lap that may be sown clockwise must end for it to be.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ClockwiseWhen {
    /// Where it captures: on seeds in a front pit whose facing pits it takes.
    Captures,
    /// In a front pit whose facing pits meet the `capture` condition, empty or not, and
    /// on a first move that may not capture too (the move then ends, or relays).
    FacesSeeds,
}

impl ClockwiseWhen {
    const NAMES: [(&'static str, Self); 2] = [
        ("captures", Self::Captures),
        ("faces-seeds", Self::FacesSeeds),
    ];
}

/// Which pits of `clockwise_from` let a lap turn: the pit it is lifted from, or also the
/// pit where, sown clockwise, it would end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ClockwiseAt {
    /// The lap is lifted from one of them.
    Start,
    /// The lap is lifted from one of them, or its clockwise sowing ends in one.
    StartOrEnd,
}

impl ClockwiseAt {
    const NAMES: [(&'static str, Self); 2] =
        [("start", Self::Start), ("start-or-end", Self::StartOrEnd)];
}

/// What a capture made by a lap sown clockwise from a pit of `clockwise_from` lets the
/// mover do besides sowing the captured seeds on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ClockwiseLeave {
    /// Nothing: the captured seeds are sown on.
    None,
    /// Ikibuguzo's account: the captured seeds may be left in the pit the lap was lifted
    /// from, and the other pit of `clockwise_from` lifted and sown clockwise instead,
    /// where that lap captures (RULES.md 3.7).
    OtherPit,
}

impl ClockwiseLeave {
    const NAMES: [(&'static str, Self); 2] = [("none", Self::None), ("other-pit", Self::OtherPit)];
}

/// Whether a capture can win the game at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CaptureWin {
    /// No capture wins by itself.
    None,
    /// A turn that captures the seeds of both the opponent's front-row end pits (pits
    /// `W+1` and `2W`, each holding seeds when the turn began) wins the game.
    FrontEnds,
}

impl CaptureWin {
    const NAMES: [(&'static str, Self); 2] =
        [("none", Self::None), ("front-ends", Self::FrontEnds)];
}

/// Whether a capture passed may be answered by the threatened player moving its front
/// pit's seeds to the pit behind it (Igisoro's *ndakubye*, "I retreat").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Retreat {
    /// A pass is answered by nothing: the mover relays on.
    None,
    /// After each pass the opponent chooses: its front pit facing the lap's end is
    /// emptied into the back pit behind it (`r`), or left (`s`); then the mover relays on.
    FrontToBack,
}

impl Retreat {
    const NAMES: [(&'static str, Self); 2] =
        [("none", Self::None), ("front-to-back", Self::FrontToBack)];
}

impl DeadPosition {
    const NAMES: [(&'static str, Self); 3] = [
        ("draw", Self::Draw),
        ("count", Self::Count),
        ("play-on", Self::PlayOn),
    ];

    /// The name rules files give it.
    pub fn name(self) -> &'static str {
        name_of(&Self::NAMES, self)
    }
}

impl CaptureCondition {
    const NAMES: [(&'static str, Self); 2] = [("any", Self::Any), ("both", Self::Both)];
}
impl CaptureChoice {
    const NAMES: [(&'static str, Self); 2] =
        [("forced", Self::Forced), ("optional", Self::Optional)];
}
impl SowOrigin {
    const NAMES: [(&'static str, Self); 4] = [
        ("lap-start", Self::LapStart),
        ("capture-pit", Self::CapturePit),
        ("turn-start", Self::TurnStart),
        ("lap-start-pit", Self::LapStartPit),
    ];

    /// The value's name in rules files.
    pub fn name(self) -> &'static str {
        name_of(&Self::NAMES, self)
    }
}

/// Name of an enum value as written in rules files.
fn name_of<T: PartialEq + Copy>(names: &[(&'static str, T)], value: T) -> &'static str {
    names
        .iter()
        .find(|(_, v)| *v == value)
        .map(|(n, _)| *n)
        .expect("every value is named")
}

/// Smallest and largest board widths.
pub(crate) const MIN_COLUMNS: u8 = 2;
/// The most columns a board may have.
pub(crate) const MAX_COLUMNS: u8 = 8;
/// Largest `min_sow` (the lane comparison in `ring::lanes_at_least` needs <= 128).
pub(crate) const MAX_MIN_SOW: u8 = 128;
/// Largest `max_laps` a rules file may set.
pub(crate) const MAX_MAX_LAPS: u32 = 1_000_000;
/// The largest rules file read (a file that never ends stops here).
const MAX_RULES_FILE_BYTES: u64 = 64 * 1024;
/// Largest `long_game_plies` a rules file may set.
pub(crate) const MAX_LONG_GAME_PLIES: u32 = 100_000;
/// The presets' `long_game_plies` (RULES.md 3.6): 50 moves a side without a capture.
pub(crate) const PRESET_LONG_GAME_PLIES: u32 = 100;
/// The default of `max_laps` (RULES.md 3.5).
pub(crate) const DEFAULT_MAX_LAPS: u32 = 1000;

/// The preset names of RULES.md, in the order `variants` lists them.
pub const PRESETS: [&str; 5] = [
    "isolo-women",
    "isolo-boys",
    "igisoro",
    "kubuguza",
    "ikibuguzo",
];
/// Named readings (RULES.md section 5), loaded by name like the presets: the Isolo
/// presets with `capture_ends_move = true`, the deep Isolo games (unsolved, 30-100
/// plies), Ikibuguzo from its other opening array, Igisoro with the retreat, and
/// Igisoro with clockwise captures.
pub const READINGS: [&str; 5] = [
    "isolo-women-capture-ends",
    "isolo-boys-capture-ends",
    "ikibuguzo-opening-1",
    "igisoro-retreat",
    "igisoro-clockwise",
];

/// Rules held against the presets and readings (`Rules::against_presets`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PresetComparison {
    /// The rules' own name.
    pub name: String,
    /// The preset or reading the name is, else the one with the fewest keys differing.
    pub preset: String,
    /// Each key (in `to_toml`'s order, the name aside) whose value is not the preset's.
    pub differences: Vec<KeyDifference>,
    /// The rules bear a preset's name but not all its values: a claim about that preset
    /// would be false.
    pub misnamed: bool,
}

/// A key whose value differs from a preset's, both as a rules file writes them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyDifference {
    /// The key.
    pub key: String,
    /// Its value in these rules.
    pub value: String,
    /// Its value in the preset.
    pub preset_value: String,
}

impl PresetComparison {
    /// One line: "isolo-boys" (the preset itself), "isolo-boys with min_sow = 18"
    /// (named "mine"), or, where the name is a preset's but the keys differ, "named
    /// isolo-boys but not that preset: min_sow = 18 (the preset's 2)".
    pub fn describe(&self) -> String {
        let changes = |with_preset: bool| -> String {
            let each = self.differences.iter().map(|d| match with_preset {
                true => format!("{} = {} (the preset's {})", d.key, d.value, d.preset_value),
                false => format!("{} = {}", d.key, d.value),
            });
            each.collect::<Vec<_>>().join(", ")
        };
        if self.misnamed {
            format!(
                "named {} but not that preset: {}",
                self.preset,
                changes(true)
            )
        } else if self.differences.is_empty() && self.name == self.preset {
            self.preset.clone()
        } else if self.differences.is_empty() {
            format!("the rules of {}, named {:?}", self.preset, self.name)
        } else {
            format!(
                "{} with {} (named {:?})",
                self.preset,
                changes(false),
                self.name
            )
        }
    }
}

/// Every name `Rules::preset` knows: the presets, then the readings.
pub fn preset_names() -> String {
    PRESETS
        .iter()
        .chain(READINGS.iter())
        .copied()
        .collect::<Vec<_>>()
        .join(", ")
}

/// The preset a preset or reading name belongs to (`isolo-boys-capture-ends`:
/// `isolo-boys`), whose start pattern `pattern_start` extends.
pub fn preset_family(name: &str) -> Option<&'static str> {
    PRESETS
        .iter()
        .copied()
        .find(|p| name == *p || name.strip_prefix(p).is_some_and(|r| r.starts_with('-')))
}

/// The name players give a preset or reading (`igisoro-retreat`: "Igisoro with the
/// retreat"); `None` for any other name.
pub fn game_title(name: &str) -> Option<&'static str> {
    Some(match name {
        "isolo-women" => "Isolo, the women's game",
        "isolo-boys" => "Isolo, the boys' game",
        "igisoro" => "Igisoro",
        "kubuguza" => "Kubuguza",
        "ikibuguzo" => "Ikibuguzo",
        "isolo-women-capture-ends" => "Isolo, the women's game, a capture ending the move",
        "isolo-boys-capture-ends" => "Isolo, the boys' game, a capture ending the move",
        "ikibuguzo-opening-1" => "Ikibuguzo, after its first opening",
        "igisoro-retreat" => "Igisoro with the retreat",
        "igisoro-clockwise" => "Igisoro with clockwise captures",
        _ => return None,
    })
}

/// A key's reading method: a copy of the value, or (`as`) a borrow of it.
macro_rules! key_reader {
    ($(#[$meta:meta])* $key:ident: $ty:ty) => {
        $(#[$meta])*
        pub fn $key(&self) -> $ty {
            self.$key
        }
    };
    ($(#[$meta:meta])* $key:ident: $ty:ty as $read_as:ty) => {
        $(#[$meta])*
        pub fn $key(&self) -> $read_as {
            &self.$key
        }
    };
}

/// Rules changed key by key from others (a reading, a narrower board), checked as a
/// whole when built, as a rules file is.
///
/// ```
/// use isolo_rules::{CaptureChoice, Rules};
/// let igisoro = Rules::preset("igisoro").unwrap();
/// let mut optional = igisoro.to_builder();
/// optional.name("optional").capture_choice(CaptureChoice::Optional);
/// assert_eq!(optional.build().unwrap().capture_choice(), CaptureChoice::Optional);
/// ```
///
/// A key is never changed in place, so rules are checked wherever they were made:
///
/// ```compile_fail
/// let mut rules = isolo_rules::Rules::preset("igisoro").unwrap();
/// rules.min_sow = 0;
/// ```
#[derive(Clone, Debug)]
pub struct RulesBuilder {
    rules: Rules,
}

impl RulesBuilder {
    /// Renames the rules.
    pub fn name(&mut self, name: impl Into<String>) -> &mut Self {
        self.rules.name = name.into();
        self
    }

    /// Sets the board's width; `start` must follow for the start to fit it.
    pub fn columns(&mut self, columns: u8) -> &mut Self {
        self.rules.columns = columns;
        self
    }

    /// Sets the start seeds, `[south, north]`.
    pub fn start(&mut self, start: [Pits; 2]) -> &mut Self {
        self.rules.start = start;
        self
    }

    /// The rules as changed so far, unchecked.
    pub fn so_far(&self) -> &Rules {
        &self.rules
    }

    /// The rules, if they hold together (`Rules::validate`).
    pub fn build(&self) -> Result<Rules, RulesError> {
        self.rules.validate()?;
        Ok(self.rules.clone())
    }
}

/// The rule keys after `name`, `columns` and `start` (RULES.md section 8), each declared
/// once: its field of `Rules` with its meaning, its reader (`as`: a borrow), how a rules
/// file's value is read, how it is written, and its value where neither the file nor
/// its `base` gives one (`None`: the key is required). `Rules`' readers, `RulesBuilder`'s
/// setters, `to_toml`, the files' reading and their list of known keys all come from
/// this block, in its order. Tests hold each key to its row in RULES.md section 8 and to
/// a sentence of How to play (`plain.rs`, where one sentence may tell several keys).
macro_rules! rule_keys {
    ($(
        $(#[$meta:meta])*
        $key:ident: $ty:ty $(as $read_as:ty)? = read $read:expr, write $write:expr,
            default $default:expr;
    )*) => {
        /// Every rule key of RULES.md sections 3-5 and 8, read through one method a key;
        /// outside this crate rules are changed only through `RulesBuilder`, which checks
        /// them as a whole.
        #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
        pub struct Rules {
            /// The rules' name.
            pub(crate) name: String,
            /// Columns (W): each side has 2W pits in two rows.
            pub(crate) columns: u8,
            /// Start seeds, `[south, north]`, each in its own numbering.
            #[serde(skip)]
            pub(crate) start: [Pits; 2],
            $(
                $(#[$meta])*
                pub(crate) $key: $ty,
            )*
        }

        impl Rules {
            $(
                key_reader!($(#[$meta])* $key: $ty $(as $read_as)?);
            )*
        }

        impl RulesBuilder {
            $(
                $(#[$meta])*
                pub fn $key(&mut self, value: $ty) -> &mut Self {
                    self.rules.$key = value;
                    self
                }
            )*
        }

        /// The keys `rule_keys!` declares, as a rules file gives them (each optional
        /// until resolved against its base).
        #[derive(Default)]
        struct FileKeys {
            $($key: Option<$ty>,)*
        }

        /// The names of the keys `rule_keys!` declares, in its order.
        const DECLARED_KEYS: &[&str] = &[$(stringify!($key),)*];

        impl FileKeys {
            /// Reads the value of `key`; `Ok(false)` for a key not declared here.
            fn read(&mut self, key: &str, value: &toml::Value) -> Result<bool, RulesError> {
                match key {
                    $(stringify!($key) => self.$key = Some(($read)(key, value)?),)*
                    _ => return Ok(false),
                }
                Ok(true)
            }

            /// The rules, these keys taken from the file, else from `base`, else their
            /// defaults.
            fn into_rules(
                self,
                base: Option<&Rules>,
                (name, columns, start): (String, u8, [Pits; 2]),
            ) -> Result<Rules, RulesError> {
                Ok(Rules {
                    name,
                    columns,
                    start,
                    $($key: {
                        let default: Option<$ty> = $default;
                        self.$key
                            .or_else(|| base.map(|rules| rules.$key.clone()))
                            .or(default)
                            .ok_or_else(|| missing_key(stringify!($key)))?
                    },)*
                })
            }
        }

        impl Rules {
            /// Writes the declared keys as `key = value` lines, in order.
            fn write_declared_keys(&self, line: &mut impl FnMut(&str, String)) {
                $(line(stringify!($key), ($write)(&self.$key));)*
            }
        }
    };
}

/// How an enumerated key is written: its name, quoted.
fn write_name<T: PartialEq + Copy>(names: &'static [(&'static str, T)]) -> impl Fn(&T) -> String {
    move |value| quote(name_of(names, *value))
}

/// How a key is written as TOML writes a number or a truth value.
fn write_plain<T: ToString>(value: &T) -> String {
    value.to_string()
}

rule_keys! {
    /// Seeds a pit needs to start a move.
    min_sow: u8 = read |k, v| as_integer(k, v, "1..=128"), write write_plain, default None;
    /// What makes a capture possible.
    capture: CaptureCondition = read |k, v| as_enum(k, v, &CaptureCondition::NAMES),
        write write_name(&CaptureCondition::NAMES), default None;
    /// Whether captures are forced or optional.
    capture_choice: CaptureChoice = read |k, v| as_enum(k, v, &CaptureChoice::NAMES),
        write write_name(&CaptureChoice::NAMES), default None;
    /// Where captured seeds are sown from.
    capture_sow_from: SowOrigin = read |k, v| as_enum(k, v, &SowOrigin::NAMES),
        write write_name(&SowOrigin::NAMES), default None;
    /// Whether the game starts with an overture.
    overture: bool = read as_bool, write write_plain, default None;
    /// Whether the rightmost column cannot be captured during the owner's overture.
    overture_protects: bool = read as_bool, write write_plain, default Some(true);
    /// Whether a capture ends the move.
    capture_ends_move: bool = read as_bool, write write_plain, default Some(false);
    /// Laps after which a move is endless (and illegal).
    max_laps: u32 = read |k, v| as_integer(k, v, "1..=1000000"), write write_plain,
        default Some(DEFAULT_MAX_LAPS);
    /// How a dead position ends the game.
    dead_position: DeadPosition = read |k, v| as_enum(k, v, &DeadPosition::NAMES),
        write |v: &DeadPosition| quote(v.name()), default Some(DeadPosition::Draw);
    /// Plies in a row without a capture after which the game ends (the long-game rule,
    /// RULES.md 3.6); 0: no such rule. A ply without a capture leaves each side's seeds
    /// as they were.
    long_game_plies: u32 = read |k, v| as_integer(k, v, "0..=100000"), write write_plain,
        default Some(0);
    /// How the long-game rule ends the game.
    long_game_ending: LongGameEnding = read |k, v| as_enum(k, v, &LongGameEnding::NAMES),
        write write_name(&LongGameEnding::NAMES), default Some(LongGameEnding::Draw);
    /// Which first moves may not capture.
    first_move_captures: FirstMoveCaptures =
        read |k, v| as_enum(k, v, &FirstMoveCaptures::NAMES),
        write write_name(&FirstMoveCaptures::NAMES), default Some(FirstMoveCaptures::Allowed);
    /// The pits (1-based, ascending) from which a lap may be sown clockwise when it
    /// captures; empty: every lap is sown anticlockwise.
    clockwise_from: Vec<u8> as &[u8] = read as_pits, write write_pits, default Some(Vec::new());
    /// Which laps may be sown clockwise.
    clockwise_laps: ClockwiseLaps = read |k, v| as_enum(k, v, &ClockwiseLaps::NAMES),
        write write_name(&ClockwiseLaps::NAMES), default Some(ClockwiseLaps::Any);
    /// Where a clockwise lap must end.
    clockwise_when: ClockwiseWhen = read |k, v| as_enum(k, v, &ClockwiseWhen::NAMES),
        write write_name(&ClockwiseWhen::NAMES), default Some(ClockwiseWhen::Captures);
    /// Which of its pits `clockwise_from` names: where a lap starts, or ends too.
    clockwise_at: ClockwiseAt = read |k, v| as_enum(k, v, &ClockwiseAt::NAMES),
        write write_name(&ClockwiseAt::NAMES), default Some(ClockwiseAt::Start);
    /// Whether a clockwise capture's seeds may be left while the other pit sows.
    clockwise_leave: ClockwiseLeave = read |k, v| as_enum(k, v, &ClockwiseLeave::NAMES),
        write write_name(&ClockwiseLeave::NAMES), default Some(ClockwiseLeave::None);
    /// Whether a capture can win the game at once.
    capture_win: CaptureWin = read |k, v| as_enum(k, v, &CaptureWin::NAMES),
        write write_name(&CaptureWin::NAMES), default Some(CaptureWin::None);
    /// Whether the opponent may answer a passed capture by retreating its seeds.
    retreat: Retreat = read |k, v| as_enum(k, v, &Retreat::NAMES),
        write write_name(&Retreat::NAMES), default Some(Retreat::None);
}

/// How `clockwise_from` is written: a list of pit numbers.
fn write_pits(pits: &[u8]) -> String {
    let pits: Vec<String> = pits.iter().map(u8::to_string).collect();
    format!("[{}]", pits.join(", "))
}

/// A preset or rules file that could not be loaded, by what was wrong; the message
/// names the file and the key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    /// Neither a preset nor an existing rules file.
    #[error("{0}")]
    UnknownVariant(String),
    /// The file could not be read (missing rights, too large, not UTF-8).
    #[error("{0}")]
    Read(String),
    /// Not valid TOML.
    #[error("{0}")]
    Toml(String),
    /// A key that is unknown, or whose value is wrong.
    #[error("{0}")]
    Key(String),
}

impl RulesError {
    /// The same error with `prefix: ` before its message.
    fn within(self, prefix: &str) -> RulesError {
        let add = |m: String| format!("{prefix}: {m}");
        match self {
            RulesError::UnknownVariant(m) => RulesError::UnknownVariant(add(m)),
            RulesError::Read(m) => RulesError::Read(add(m)),
            RulesError::Toml(m) => RulesError::Toml(add(m)),
            RulesError::Key(m) => RulesError::Key(add(m)),
        }
    }
}

const WOMEN_START: &str = "2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2";
const BOYS_START: &str = "17,2,0,2,0,2,0,2/0,1,2,0,2,0,2,0/0,2,0,2,0,2,1,0/2,0,2,0,2,0,2,17";
const IGISORO_START: &str = "4,4,4,4,4,4,4,4/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/4,4,4,4,4,4,4,4";
const KUBUGUZA_START: &str = "0,0,0,0,0,0,0,0/4,4,4,4,4,4,4,4/4,4,4,4,4,4,4,4/0,0,0,0,0,0,0,0";
/// Ikibuguzo's first opening array once its scripted turns are played (RULES.md 5).
const IKIBUGUZO_OPENING_1: &str =
    "17,0,0,0,0,0,6,0/0,0,2,1,2,1,2,1/1,2,1,2,1,2,0,0/0,6,0,0,0,0,0,17";
impl Rules {
    /// A preset by name.
    pub fn preset(name: &str) -> Option<Rules> {
        let women = Rules {
            name: "isolo-women".into(),
            columns: 8,
            start: parse_rows(WOMEN_START, 8).expect("preset start parses"),
            min_sow: 2,
            capture: CaptureCondition::Any,
            capture_choice: CaptureChoice::Forced,
            capture_sow_from: SowOrigin::LapStart,
            overture: false,
            overture_protects: true,
            capture_ends_move: false,
            max_laps: DEFAULT_MAX_LAPS,
            dead_position: DeadPosition::Draw,
            long_game_plies: PRESET_LONG_GAME_PLIES,
            long_game_ending: LongGameEnding::Draw,
            first_move_captures: FirstMoveCaptures::Allowed,
            clockwise_from: Vec::new(),
            clockwise_laps: ClockwiseLaps::Any,
            clockwise_when: ClockwiseWhen::Captures,
            clockwise_at: ClockwiseAt::Start,
            clockwise_leave: ClockwiseLeave::None,
            capture_win: CaptureWin::None,
            retreat: Retreat::None,
        };
        match name {
            "isolo-women" => Some(women),
            "isolo-boys" => Some(Rules {
                name: name.into(),
                start: parse_rows(BOYS_START, 8).expect("preset start parses"),
                overture: true,
                ..women
            }),
            "igisoro" => Some(Rules {
                name: name.into(),
                start: parse_rows(IGISORO_START, 8).expect("preset start parses"),
                min_sow: 1,
                capture: CaptureCondition::Both,
                capture_choice: CaptureChoice::Optional,
                capture_sow_from: SowOrigin::TurnStart,
                ..women
            }),
            "kubuguza" => Some(Rules {
                name: name.into(),
                start: parse_rows(KUBUGUZA_START, 8).expect("preset start parses"),
                capture: CaptureCondition::Both,
                first_move_captures: FirstMoveCaptures::BarredEach,
                clockwise_from: pattern_clockwise(name, 8),
                clockwise_laps: ClockwiseLaps::Any,
                ..women
            }),
            "ikibuguzo" => Some(Rules {
                name: name.into(),
                start: pattern_start(name, 8, 4).expect("a preset's pattern"),
                capture: CaptureCondition::Both,
                capture_sow_from: SowOrigin::LapStartPit,
                clockwise_from: pattern_clockwise(name, 8),
                clockwise_laps: ClockwiseLaps::Any,
                capture_win: CaptureWin::FrontEnds,
                ..women
            }),
            "ikibuguzo-opening-1" => Some(Rules {
                name: name.into(),
                start: parse_rows(IKIBUGUZO_OPENING_1, 8).expect("preset start parses"),
                ..Rules::preset("ikibuguzo")?
            }),
            "igisoro-retreat" => Some(Rules {
                name: name.into(),
                retreat: Retreat::FrontToBack,
                ..Rules::preset("igisoro")?
            }),
            "igisoro-clockwise" => Some(Rules {
                name: name.into(),
                clockwise_from: pattern_clockwise(name, 8),
                clockwise_at: ClockwiseAt::StartOrEnd,
                ..Rules::preset("igisoro")?
            }),
            reading => {
                let base = reading.strip_suffix("-capture-ends")?;
                if !READINGS.contains(&reading) {
                    return None;
                }
                Some(Rules {
                    name: reading.into(),
                    capture_ends_move: true,
                    ..Rules::preset(base)?
                })
            }
        }
    }

    /// The preset or reading whose rules these are, whatever their name (a rules file
    /// may copy a preset under another name).
    pub fn same_as_preset(&self) -> Option<&'static str> {
        // Built once: every search asks (its evaluator's weights, its win chances).
        static NAMED: std::sync::OnceLock<Vec<(&str, Rules)>> = std::sync::OnceLock::new();
        let named = NAMED.get_or_init(|| {
            PRESETS
                .iter()
                .chain(READINGS.iter())
                .map(|&name| (name, Rules::preset(name).expect("a preset's rules")))
                .collect()
        });
        named
            .iter()
            .find(|(_, preset)| {
                Rules {
                    name: self.name.clone(),
                    ..preset.clone()
                } == *self
            })
            .map(|(name, _)| *name)
    }

    /// A preset name or the path of a rules file.
    pub fn load(spec: &str) -> Result<Rules, RulesError> {
        if let Some(rules) = Rules::preset(spec) {
            return Ok(rules);
        }
        let path = Path::new(spec);
        if !path.exists() {
            return Err(RulesError::UnknownVariant(format!(
                "unknown variant '{}': not a preset ({}) and no such rules file",
                crate::text::quote(spec),
                preset_names()
            )));
        }
        let text = super::read_text_file(path, MAX_RULES_FILE_BYTES)
            .map_err(|e| RulesError::Read(format!("rules file {spec}: {e}")))?;
        let default_name = path.file_stem().map(|s| s.to_string_lossy().into_owned());
        Rules::from_toml(&text, default_name.as_deref().unwrap_or("custom"))
            .map_err(|e| e.within(&format!("rules file {spec}")))
    }

    /// Rules from the text of a rules file; `default_name` is used when it has no `name`.
    pub fn from_toml(text: &str, default_name: &str) -> Result<Rules, RulesError> {
        let table: toml::Table = text.parse().map_err(|e: toml::de::Error| {
            RulesError::Toml(format!("invalid TOML: {}", toml_error_text(&e, text)))
        })?;
        RulesFile::read(&table)?.resolve(default_name)
    }

    /// The complete rules as a rules file that loads back to the same rules.
    pub fn to_toml(&self) -> String {
        let mut out = String::new();
        let mut line = |key: &str, value: String| out.push_str(&format!("{key} = {value}\n"));
        line("name", quote(&self.name));
        line("columns", self.columns.to_string());
        line("start", quote(&format_rows(&self.start, self.columns)));
        self.write_declared_keys(&mut line);
        out
    }

    /// How these rules stand against the presets and readings: the one they are,
    /// or are nearest to, and every key whose value differs from it.
    pub fn against_presets(&self) -> PresetComparison {
        let keys = |rules: &Rules| -> Vec<(String, String)> {
            let text = rules.to_toml();
            let pairs = text.lines().filter_map(|line| line.split_once(" = "));
            let pairs = pairs.filter(|(key, _)| *key != "name");
            pairs.map(|(k, v)| (k.to_string(), v.to_string())).collect()
        };
        let mine = keys(self);
        let differences = |preset: &Rules| -> Vec<KeyDifference> {
            let theirs = keys(preset);
            let pairs = mine.iter().zip(theirs);
            let differing = pairs.filter(|((_, here), (_, there))| here != there);
            differing
                .map(|((key, here), (_, there))| KeyDifference {
                    key: key.clone(),
                    value: here.clone(),
                    preset_value: there,
                })
                .collect()
        };
        let named = PRESETS.iter().chain(READINGS.iter()).copied();
        let named_preset = named.clone().find(|p| *p == self.name);
        // (A name that is a preset's is held to that preset; else the nearest one.)
        let (preset, differences) = match named_preset {
            Some(name) => (name, differences(&Rules::preset(name).expect("a preset"))),
            None => named
                .map(|name| (name, differences(&Rules::preset(name).expect("a preset"))))
                .min_by_key(|(_, differences)| differences.len())
                .expect("presets"),
        };
        PresetComparison {
            name: self.name.clone(),
            preset: preset.to_string(),
            misnamed: named_preset.is_some() && !differences.is_empty(),
            differences,
        }
    }

    /// The game's name as players say it: a preset's or reading's title
    /// (`game_title`), else the rules' own name.
    pub fn title(&self) -> String {
        game_title(&self.name).map_or_else(|| self.name.clone(), str::to_string)
    }

    /// One line describing the rules, for `variants`.
    pub fn summary(&self) -> String {
        let mut line = self.base_summary();
        if self.first_move_captures != FirstMoveCaptures::Allowed {
            line.push_str(&format!(
                " first_move_captures={}",
                name_of(&FirstMoveCaptures::NAMES, self.first_move_captures)
            ));
        }
        if !self.clockwise_from.is_empty() {
            let pits: Vec<String> = self.clockwise_from.iter().map(u8::to_string).collect();
            line.push_str(&format!(
                " clockwise_from={} ({} laps, when it {}{})",
                pits.join(","),
                name_of(&ClockwiseLaps::NAMES, self.clockwise_laps),
                name_of(&ClockwiseWhen::NAMES, self.clockwise_when),
                match self.clockwise_at {
                    ClockwiseAt::Start => "",
                    ClockwiseAt::StartOrEnd => ", from or into them",
                }
            ));
            if self.clockwise_leave != ClockwiseLeave::None {
                line.push_str(&format!(
                    " clockwise_leave={}",
                    name_of(&ClockwiseLeave::NAMES, self.clockwise_leave)
                ));
            }
        }
        if self.capture_win != CaptureWin::None {
            line.push_str(&format!(
                " capture_win={}",
                name_of(&CaptureWin::NAMES, self.capture_win)
            ));
        }
        if self.retreat != Retreat::None {
            line.push_str(&format!(
                " retreat={}",
                name_of(&Retreat::NAMES, self.retreat)
            ));
        }
        line
    }

    /// The summary's keys every rules set has.
    fn base_summary(&self) -> String {
        format!(
            "{}x4 min_sow={} capture={} {} sow_from={} overture={} capture_ends_move={}",
            self.columns,
            self.min_sow,
            name_of(&CaptureCondition::NAMES, self.capture),
            name_of(&CaptureChoice::NAMES, self.capture_choice),
            name_of(&SowOrigin::NAMES, self.capture_sow_from),
            if self.overture {
                if self.overture_protects {
                    "yes"
                } else {
                    "yes(unprotected)"
                }
            } else {
                "no"
            },
            self.capture_ends_move,
        )
    }

    /// The rules' name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Columns (W): each side has 2W pits in two rows.
    pub fn columns(&self) -> u8 {
        self.columns
    }

    /// Start seeds, `[south, north]`, each in its own numbering.
    pub fn start(&self) -> [Pits; 2] {
        self.start
    }

    /// A builder starting from these rules, to change some of their keys.
    pub fn to_builder(&self) -> RulesBuilder {
        RulesBuilder {
            rules: self.clone(),
        }
    }

    /// Pits on one side.
    pub fn pits(&self) -> usize {
        2 * self.columns as usize
    }

    /// Checks everything a rules file could get wrong; the message names the key.
    pub fn validate(&self) -> Result<(), RulesError> {
        let bad = |key: &str, msg: String| Err(key_error(key, msg));
        if !(MIN_COLUMNS..=MAX_COLUMNS).contains(&self.columns) {
            return bad("columns", format!("must be 2..=8, found {}", self.columns));
        }
        if !(1..=MAX_MIN_SOW).contains(&self.min_sow) {
            return bad(
                "min_sow",
                format!("must be 1..=128, found {}", self.min_sow),
            );
        }
        if !(1..=MAX_MAX_LAPS).contains(&self.max_laps) {
            return bad(
                "max_laps",
                format!("must be 1..=1000000, found {}", self.max_laps),
            );
        }
        if self.long_game_plies > MAX_LONG_GAME_PLIES {
            return bad(
                "long_game_plies",
                format!("must be 0..=100000, found {}", self.long_game_plies),
            );
        }
        let pits = self.pits() as u8;
        if let Some(&pit) = self
            .clockwise_from
            .iter()
            .find(|&&p| !(1..=pits).contains(&p))
        {
            return bad("clockwise_from", format!("pit {pit} is not 1..={pits}"));
        }
        if !self.clockwise_from.windows(2).all(|w| w[0] < w[1]) {
            return bad(
                "clockwise_from",
                "must list each pit once, in ascending order".to_string(),
            );
        }
        if !self.clockwise_from.is_empty() && self.capture_ends_move {
            return bad(
                "clockwise_from",
                "clockwise sowing needs capture_ends_move = false".to_string(),
            );
        }
        if self.clockwise_laps == ClockwiseLaps::FirstSowing
            && self.capture_choice != CaptureChoice::Forced
        {
            return bad(
                "clockwise_laps",
                "\"first-sowing\" is read with forced captures: it needs capture_choice = \"forced\""
                    .to_string(),
            );
        }
        if self.clockwise_leave == ClockwiseLeave::OtherPit {
            let reading = self.capture_choice == CaptureChoice::Forced
                && self.capture_sow_from == SowOrigin::LapStartPit
                && self.clockwise_from.len() == 2
                && self.clockwise_at == ClockwiseAt::Start;
            if !reading {
                return bad(
                    "clockwise_leave",
                    "\"other-pit\" is Ikibuguzo's: it needs capture_choice = \"forced\", capture_sow_from = \"lap-start-pit\", clockwise_at = \"start\" and two clockwise_from pits"
                        .to_string(),
                );
            }
        }
        if self.retreat != Retreat::None && self.capture_choice != CaptureChoice::Optional {
            return bad(
                "retreat",
                "a retreat answers a passed capture: it needs capture_choice = \"optional\""
                    .to_string(),
            );
        }
        if self.overture {
            let front_right = self.columns as usize;
            for side in Side::BOTH {
                if self.start[side as usize].seeds(front_right) != 0 {
                    return bad(
                        "start",
                        format!(
                            "{side} has seeds in pit {}, out of play during the overture",
                            front_right + 1
                        ),
                    );
                }
            }
        }
        Ok(())
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}

fn quote(text: &str) -> String {
    format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""))
}

/// The keys of a rules file, each optional until resolved against its base.
#[derive(Default)]
struct RulesFile {
    name: Option<String>,
    base: Option<String>,
    columns: Option<u8>,
    start: Option<String>,
    declared: FileKeys,
}

/// The keys `rule_keys!` does not declare, read and resolved by hand.
const OWN_KEYS: [&str; 4] = ["name", "base", "columns", "start"];

/// A required key neither the file nor its base gives.
fn missing_key(key: &str) -> RulesError {
    key_error(key, "missing (give it, or a `base` preset to take it from)")
}

fn key_error(key: &str, msg: impl fmt::Display) -> RulesError {
    RulesError::Key(format!("key `{key}`: {msg}"))
}

fn as_string(key: &str, value: &toml::Value) -> Result<String, RulesError> {
    value
        .as_str()
        .map(str::to_owned)
        .ok_or_else(|| key_error(key, format!("expected a string, found {value}")))
}

fn as_bool(key: &str, value: &toml::Value) -> Result<bool, RulesError> {
    value
        .as_bool()
        .ok_or_else(|| key_error(key, format!("expected true or false, found {value}")))
}

fn as_integer<T: TryFrom<i64>>(
    key: &str,
    value: &toml::Value,
    range: &str,
) -> Result<T, RulesError> {
    value
        .as_integer()
        .and_then(|n| T::try_from(n).ok())
        .ok_or_else(|| key_error(key, format!("expected an integer {range}, found {value}")))
}

fn as_enum<T: Copy>(key: &str, value: &toml::Value, names: &[(&str, T)]) -> Result<T, RulesError> {
    let choices = names
        .iter()
        .map(|(n, _)| format!("\"{n}\""))
        .collect::<Vec<_>>()
        .join(" or ");
    let text = value
        .as_str()
        .ok_or_else(|| key_error(key, format!("expected {choices}, found {value}")))?;
    names
        .iter()
        .find(|(n, _)| *n == text)
        .map(|(_, v)| *v)
        .ok_or_else(|| key_error(key, format!("expected {choices}, found \"{text}\"")))
}

/// A list of pit numbers, as `[1, 8, 10]`.
fn as_pits(key: &str, value: &toml::Value) -> Result<Vec<u8>, RulesError> {
    let wrong = || {
        key_error(
            key,
            format!("expected a list of pit numbers, found {value}"),
        )
    };
    let list = value.as_array().ok_or_else(wrong)?;
    if list.len() > MAX_LANES {
        return Err(key_error(key, format!("at most {MAX_LANES} pits")));
    }
    list.iter()
        .map(|pit| {
            pit.as_integer()
                .and_then(|n| u8::try_from(n).ok())
                .ok_or_else(wrong)
        })
        .collect()
}

/// How `start` asks for the base's pattern on the file's columns: `"pattern"` (the
/// base's seeds a pit) or `"pattern:K"` (K seeds a pit).
const PATTERN: &str = "pattern";

/// The start `text` (`"pattern"` or `"pattern:K"`) asks for: the pattern of `base`'s
/// family on `columns` columns (`pattern_start`), with K seeds a pit, or the base's own
/// (the K whose pattern on the base's columns is its start).
fn pattern_of(text: &str, base: Option<&Rules>, columns: u8) -> Result<[Pits; 2], String> {
    let base = base.ok_or("\"pattern\" needs a `base` preset, whose pattern it is")?;
    let family = preset_family(&base.name)
        .ok_or_else(|| format!("the base \"{}\" has no pattern", base.name))?;
    let seeds = match text.strip_prefix(PATTERN).unwrap_or_default() {
        "" => (1..=MAX_PATTERN_SEEDS)
            .find(|&k| pattern_start(family, base.columns, k) == Some(base.start))
            .ok_or_else(|| format!("the base \"{}\" does not start on its pattern: give K (\"pattern:K\")", base.name))?,
        rest => rest
            .strip_prefix(':')
            .and_then(|k| k.parse::<u8>().ok())
            .filter(|k| (1..=MAX_PATTERN_SEEDS).contains(k))
            .ok_or_else(|| {
                format!("expected \"pattern\" or \"pattern:K\" (K seeds a pit, 1..={MAX_PATTERN_SEEDS}), found \"{text}\"")
            })?,
    };
    let pits = pattern_start(family, columns, seeds)
        .ok_or_else(|| format!("\"{family}\" has no pattern"))?;
    // (Checked as written rows are: at most 255 seeds in all.)
    parse_rows(&format_rows(&pits, columns), columns).map_err(|e| e.to_string())
}

/// The most seeds a pit of a pattern start may hold (`"pattern:K"`); the seeds in all
/// are held to 255 as any start's are.
const MAX_PATTERN_SEEDS: u8 = 16;

impl RulesFile {
    fn read(table: &toml::Table) -> Result<RulesFile, RulesError> {
        let mut file = RulesFile::default();
        for (key, value) in table {
            let k = key.as_str();
            match k {
                "name" => file.name = Some(as_string(k, value)?),
                "base" => file.base = Some(as_string(k, value)?),
                "columns" => file.columns = Some(as_integer(k, value, "2..=8")?),
                "start" => file.start = Some(as_string(k, value)?),
                _ if file.declared.read(k, value)? => {}
                _ => {
                    let known: Vec<&str> = OWN_KEYS.iter().chain(DECLARED_KEYS).copied().collect();
                    return Err(RulesError::Key(format!(
                        "unknown key `{key}` (known keys: {})",
                        known.join(", ")
                    )));
                }
            }
        }
        Ok(file)
    }

    /// Fills the missing keys from `base` (every key is required without one).
    fn resolve(self, default_name: &str) -> Result<Rules, RulesError> {
        let base = match &self.base {
            Some(name) => Some(Rules::preset(name).ok_or_else(|| {
                key_error(
                    "base",
                    format!("unknown preset \"{name}\" (presets: {})", preset_names()),
                )
            })?),
            None => None,
        };
        let b = base.as_ref();
        let columns = self
            .columns
            .or(b.map(|r| r.columns))
            .ok_or_else(|| missing_key("columns"))?;
        if !(MIN_COLUMNS..=MAX_COLUMNS).contains(&columns) {
            return Err(key_error(
                "columns",
                format!("must be 2..=8, found {columns}"),
            ));
        }
        let start = match (&self.start, b) {
            (Some(text), base) if text.starts_with(PATTERN) => {
                pattern_of(text, base, columns).map_err(|e| key_error("start", e))?
            }
            (Some(text), _) => parse_rows(text, columns).map_err(|e| key_error("start", e))?,
            (None, Some(base)) if base.columns == columns => base.start,
            (None, Some(base)) => {
                return Err(key_error(
                    "start",
                    format!(
                        "required because columns ({columns}) differs from the base's ({}): \
                         give the rows, or \"pattern\" for the base's pattern on {columns} columns",
                        base.columns
                    ),
                ))
            }
            (None, None) => {
                return Err(key_error("start", "missing (give it, or a `base` preset)"))
            }
        };
        // On another width the base's clockwise pits follow its pattern (RULES.md 5),
        // unless the file names its own.
        let narrowed =
            b.filter(|base| base.columns != columns && self.declared.clockwise_from.is_none());
        let clockwise = narrowed.map(|base| {
            let named = base.same_as_preset().unwrap_or(base.name.as_str());
            pattern_clockwise(named, columns)
        });
        // A name is written into records, headers and rules files as one line of text.
        let has_control = |name: &str| name.chars().any(char::is_control);
        if self.name.as_deref().is_some_and(has_control) {
            return Err(key_error(
                "name",
                "has a control character (a line break, a tab...): a name is one line of printable text",
            ));
        }
        if self.name.is_none() && has_control(default_name) {
            return Err(key_error(
                "name",
                "missing, and the file's name, which stands for it, has a control character: give a `name`",
            ));
        }
        let name = self.name.unwrap_or_else(|| default_name.to_owned());
        let mut rules = self.declared.into_rules(b, (name, columns, start))?;
        if let Some(pits) = clockwise {
            rules.clockwise_from = pits;
        }
        rules.validate()?;
        Ok(rules)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_builder_checks_the_rules_it_builds() {
        let women = Rules::preset("isolo-women").unwrap();
        let mut narrow = women.to_builder();
        narrow.columns(9);
        let refused = narrow.build().unwrap_err().to_string();
        assert!(refused.contains("columns"), "{refused}");
        narrow
            .columns(4)
            .start(pattern_start("isolo-women", 4, 2).unwrap());
        let built = narrow.name("women on 4").build().unwrap();
        assert_eq!(
            (built.name(), built.columns(), built.pits()),
            ("women on 4", 4, 8)
        );
        assert_eq!(built.min_sow(), women.min_sow());
    }

    /// Each key's sentence in How to play (`plain.rs`; a sentence may tell several keys):
    /// on some preset, some other value of the key changes what the page tells.
    #[test]
    fn every_rule_key_is_told_in_how_to_play() {
        fn quoted<T>(names: &[(&str, T)]) -> Vec<String> {
            names
                .iter()
                .map(|(name, _)| format!("\"{name}\""))
                .collect()
        }
        let mut values: Vec<String> = ["true", "false", "1", "2", "3", "7", "[1]", "[1, 8]"]
            .map(String::from)
            .to_vec();
        for names in [
            quoted(&CaptureCondition::NAMES),
            quoted(&CaptureChoice::NAMES),
            quoted(&SowOrigin::NAMES),
            quoted(&DeadPosition::NAMES),
            quoted(&LongGameEnding::NAMES),
            quoted(&FirstMoveCaptures::NAMES),
            quoted(&ClockwiseLaps::NAMES),
            quoted(&ClockwiseWhen::NAMES),
            quoted(&ClockwiseAt::NAMES),
            quoted(&ClockwiseLeave::NAMES),
            quoted(&CaptureWin::NAMES),
            quoted(&Retreat::NAMES),
        ] {
            values.extend(names);
        }
        for key in DECLARED_KEYS {
            let told = PRESETS.iter().any(|base| {
                let plain = Rules::preset(base).unwrap().how_to_play();
                values.iter().any(|value| {
                    let file = format!("base = \"{base}\"\nname = \"x\"\n{key} = {value}\n");
                    Rules::from_toml(&file, "x").is_ok_and(|r| r.how_to_play() != plain)
                })
            });
            assert!(told, "How to play tells nothing of `{key}`");
        }
    }

    /// Each key has its row in RULES.md section 8's table and its line in the example
    /// rules file there.
    #[test]
    fn every_rule_key_has_its_row_in_rules_md() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/RULES.md");
        let text = std::fs::read_to_string(path).unwrap();
        let files = &text[text.find("## 8. Rules files").unwrap()..];
        for key in OWN_KEYS.iter().chain(DECLARED_KEYS) {
            assert!(
                files.contains(&format!("| `{key}` |")),
                "no row for `{key}`"
            );
            assert!(
                files.contains(&format!("\n    {key} = ")),
                "no example of `{key}`"
            );
        }
    }

    #[test]
    fn every_preset_and_reading_has_a_title() {
        for name in PRESETS.iter().chain(READINGS.iter()) {
            let rules = Rules::preset(name).unwrap();
            assert!(game_title(name).is_some(), "{name}");
            assert_eq!(rules.title(), game_title(name).unwrap());
        }
        let mut own = Rules::preset("igisoro").unwrap();
        own.name = "my-igisoro".to_string();
        assert_eq!(own.title(), "my-igisoro");
    }

    #[test]
    fn rules_say_which_preset_they_are_and_what_differs() {
        for name in PRESETS.iter().chain(READINGS.iter()) {
            let comparison = Rules::preset(name).unwrap().against_presets();
            assert_eq!(comparison.describe(), *name);
        }
        let mut boys = Rules::preset("isolo-boys").unwrap();
        boys.min_sow = 18;
        let claimed = boys.against_presets();
        assert!(claimed.misnamed);
        assert_eq!(
            claimed.describe(),
            "named isolo-boys but not that preset: min_sow = 18 (the preset's 2)"
        );
        boys.name = "heavy-boys".into();
        let own = boys.against_presets();
        assert!(!own.misnamed);
        assert_eq!(
            own.describe(),
            "isolo-boys with min_sow = 18 (named \"heavy-boys\")"
        );
        boys.min_sow = 2;
        assert_eq!(
            boys.against_presets().describe(),
            "the rules of isolo-boys, named \"heavy-boys\""
        );
    }

    #[test]
    fn pattern_starts_give_the_presets_and_their_narrower_boards() {
        for (name, seeds) in [("isolo-women", 2), ("isolo-boys", 2), ("igisoro", 4)] {
            let preset = Rules::preset(name).unwrap();
            assert_eq!(pattern_start(name, 8, seeds), Some(preset.start), "{name}");
            assert_eq!(preset_family(&format!("{name}-capture-ends")), Some(name));
        }
        let boys = pattern_start("isolo-boys", 5, 3).unwrap();
        assert_eq!(
            format_rows(&boys, 5),
            "17,0,3,0,3/0,1,3,0,3/3,0,3,1,0/3,0,3,0,17"
        );
        let igisoro = pattern_start("igisoro", 3, 1).unwrap();
        assert_eq!(format_rows(&igisoro, 3), "1,1,1/0,0,0/0,0,0/1,1,1");
        assert_eq!(preset_family("isolo-boysx"), None);
        assert_eq!(pattern_start("oware", 6, 4), None);
        let ikibuguzo = pattern_start("ikibuguzo", 8, 4).unwrap();
        assert_eq!(
            format_rows(&ikibuguzo, 8),
            "4,4,4,4,4,3,2,0/4,2,1,0,0,0,0,0/0,0,0,0,0,1,2,4/0,2,3,4,4,4,4,4"
        );
        assert_eq!(pattern_clockwise("ikibuguzo", 8), [1, 15]);
        assert_eq!(preset_family("ikibuguzo-opening-1"), Some("ikibuguzo"));
    }

    #[test]
    fn readings_are_their_presets_with_capture_ending_the_move() {
        for (reading, base) in READINGS[..2].iter().zip(["isolo-women", "isolo-boys"]) {
            let rules = Rules::preset(reading).unwrap();
            let expected = Rules {
                name: reading.to_string(),
                capture_ends_move: true,
                ..Rules::preset(base).unwrap()
            };
            assert_eq!(rules, expected);
            // A rules file can name a reading as its base.
            let file = format!("base = \"{reading}\"\nname = \"x\"\n");
            assert!(Rules::from_toml(&file, "x").unwrap().capture_ends_move);
        }
        for unknown in [
            "igisoro-capture-ends",
            "-capture-ends",
            "isolo-capture-ends",
        ] {
            assert!(Rules::preset(unknown).is_none(), "{unknown}");
        }
        assert!(Rules::load("nope")
            .unwrap_err()
            .to_string()
            .contains("isolo-boys-capture-ends"));
    }
}
