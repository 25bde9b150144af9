//! The rule set a move reads in its loop, as a type parameter of every walk: what a lap
//! captures and where captured seeds are sown from, whether the captured seeds' lap
//! ends the move, whether captures are optional, whether laps may turn clockwise,
//! whether the opponent may answer a pass by retreating, and the lap limit.
//!
//! The presets' and readings' rule sets are zero-sized types, so the compiler fixes
//! their rules inside the loop and drops the branches they never take (a forced walk
//! pays nothing for the retreat); any other rules file gets [`ReadMoveRules`], which
//! reads them. [`with_move_rules`] picks the instance once, where a walk starts.

use crate::rules_file::{
    CaptureChoice, CaptureCondition, ClockwiseAt, ClockwiseLaps, ClockwiseLeave, ClockwiseWhen,
    Retreat, Rules, SowOrigin, DEFAULT_MAX_LAPS,
};

/// The rules a move reads in its loop.
pub(crate) trait MoveRules: Copy {
    /// Which facing pits must hold seeds for a capture.
    fn capture(self) -> CaptureCondition;
    /// Where captured seeds are sown from.
    fn sow_from(self) -> SowOrigin;
    /// Whether the captured seeds' lap ends the move.
    fn capture_ends_move(self) -> bool;
    /// Whether the mover may pass a capture (`capture_choice = "optional"`).
    fn optional(self) -> bool;
    /// Whether some laps may be sown clockwise (`clockwise_from` not empty).
    fn turns(self) -> bool;
    /// Whether the opponent may answer a pass by retreating (`retreat`).
    fn retreat(self) -> bool;
    /// Laps after which a move is endless (`max_laps`).
    fn max_laps(self) -> u32;
    /// Which laps may be sown clockwise (`clockwise_laps`).
    fn clockwise_laps(self) -> ClockwiseLaps;
    /// Where a clockwise lap must end (`clockwise_when`).
    fn clockwise_when(self) -> ClockwiseWhen;
    /// Which of its pits `clockwise_from` names (`clockwise_at`).
    fn clockwise_at(self) -> ClockwiseAt;
    /// Whether a clockwise capture may be left (`clockwise_leave`).
    fn clockwise_leave(self) -> ClockwiseLeave;
}

/// Move rules read at run time: any rules file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ReadMoveRules {
    capture: CaptureCondition,
    sow_from: SowOrigin,
    capture_ends_move: bool,
    optional: bool,
    turns: bool,
    retreat: bool,
    max_laps: u32,
    clockwise_laps: ClockwiseLaps,
    clockwise_when: ClockwiseWhen,
    clockwise_at: ClockwiseAt,
    clockwise_leave: ClockwiseLeave,
}

impl MoveRules for ReadMoveRules {
    #[inline(always)]
    fn capture(self) -> CaptureCondition {
        self.capture
    }
    #[inline(always)]
    fn sow_from(self) -> SowOrigin {
        self.sow_from
    }
    #[inline(always)]
    fn capture_ends_move(self) -> bool {
        self.capture_ends_move
    }
    #[inline(always)]
    fn optional(self) -> bool {
        self.optional
    }
    #[inline(always)]
    fn turns(self) -> bool {
        self.turns
    }
    #[inline(always)]
    fn retreat(self) -> bool {
        self.retreat
    }
    #[inline(always)]
    fn max_laps(self) -> u32 {
        self.max_laps
    }
    #[inline(always)]
    fn clockwise_laps(self) -> ClockwiseLaps {
        self.clockwise_laps
    }
    #[inline(always)]
    fn clockwise_when(self) -> ClockwiseWhen {
        self.clockwise_when
    }
    #[inline(always)]
    fn clockwise_at(self) -> ClockwiseAt {
        self.clockwise_at
    }
    #[inline(always)]
    fn clockwise_leave(self) -> ClockwiseLeave {
        self.clockwise_leave
    }
}

/// Move rules fixed when compiled: `BOTH` for `capture = "both"`, `SOW_FROM` a
/// `SowOrigin` by [`sow_origin_code`], `ENDS` for `capture_ends_move`, `OPTIONAL` for
/// optional captures, `TURNS` where laps may turn, `RETREAT` for the retreat, `AT_END`
/// for `clockwise_at = "start-or-end"`; the lap limit and the other clockwise keys are
/// every preset's.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FixedMoveRules<
    const BOTH: bool,
    const SOW_FROM: u8,
    const ENDS: bool,
    const OPTIONAL: bool,
    const TURNS: bool,
    const RETREAT: bool,
    const AT_END: bool,
>;

/// The code of a `SowOrigin` in `FixedMoveRules`.
const fn sow_origin_code(origin: SowOrigin) -> u8 {
    match origin {
        SowOrigin::LapStart => 0,
        SowOrigin::CapturePit => 1,
        SowOrigin::TurnStart => 2,
        SowOrigin::LapStartPit => 3,
    }
}

impl<
        const BOTH: bool,
        const SOW_FROM: u8,
        const ENDS: bool,
        const OPTIONAL: bool,
        const TURNS: bool,
        const RETREAT: bool,
        const AT_END: bool,
    > MoveRules for FixedMoveRules<BOTH, SOW_FROM, ENDS, OPTIONAL, TURNS, RETREAT, AT_END>
{
    #[inline(always)]
    fn capture(self) -> CaptureCondition {
        if BOTH {
            CaptureCondition::Both
        } else {
            CaptureCondition::Any
        }
    }
    #[inline(always)]
    fn sow_from(self) -> SowOrigin {
        match SOW_FROM {
            0 => SowOrigin::LapStart,
            1 => SowOrigin::CapturePit,
            2 => SowOrigin::TurnStart,
            _ => SowOrigin::LapStartPit,
        }
    }
    #[inline(always)]
    fn capture_ends_move(self) -> bool {
        ENDS
    }
    #[inline(always)]
    fn optional(self) -> bool {
        OPTIONAL
    }
    #[inline(always)]
    fn turns(self) -> bool {
        TURNS
    }
    #[inline(always)]
    fn retreat(self) -> bool {
        RETREAT
    }
    /// Every preset's and reading's.
    #[inline(always)]
    fn max_laps(self) -> u32 {
        DEFAULT_MAX_LAPS
    }
    /// Every preset's and reading's.
    #[inline(always)]
    fn clockwise_laps(self) -> ClockwiseLaps {
        ClockwiseLaps::Any
    }
    /// Every preset's and reading's.
    #[inline(always)]
    fn clockwise_when(self) -> ClockwiseWhen {
        ClockwiseWhen::Captures
    }
    #[inline(always)]
    fn clockwise_at(self) -> ClockwiseAt {
        if AT_END {
            ClockwiseAt::StartOrEnd
        } else {
            ClockwiseAt::Start
        }
    }
    /// Every preset's and reading's.
    #[inline(always)]
    fn clockwise_leave(self) -> ClockwiseLeave {
        ClockwiseLeave::None
    }
}

const LAP_START: u8 = sow_origin_code(SowOrigin::LapStart);
const TURN_START: u8 = sow_origin_code(SowOrigin::TurnStart);
const LAP_START_PIT: u8 = sow_origin_code(SowOrigin::LapStartPit);

/// The Isolo games.
pub(crate) type IsoloRules = FixedMoveRules<false, LAP_START, false, false, false, false, false>;
/// The deep readings of the Isolo games (`capture_ends_move`).
pub(crate) type IsoloCaptureEndsRules =
    FixedMoveRules<false, LAP_START, true, false, false, false, false>;
/// Igisoro.
pub(crate) type IgisoroRules = FixedMoveRules<true, TURN_START, false, true, false, false, false>;
/// Igisoro with the retreat.
pub(crate) type IgisoroRetreatRules =
    FixedMoveRules<true, TURN_START, false, true, false, true, false>;
/// Igisoro with clockwise captures.
pub(crate) type IgisoroClockwiseRules =
    FixedMoveRules<true, TURN_START, false, true, true, false, true>;
/// Kubuguza.
pub(crate) type KubuguzaRules = FixedMoveRules<true, LAP_START, false, false, true, false, false>;
/// Ikibuguzo.
pub(crate) type IkibuguzoRules =
    FixedMoveRules<true, LAP_START_PIT, false, false, true, false, false>;

/// Which move rules a variant's moves are walked with.
#[derive(Clone, Copy, Debug)]
pub(crate) enum MoveKernel {
    Isolo,
    IsoloCaptureEnds,
    Igisoro,
    IgisoroRetreat,
    IgisoroClockwise,
    Kubuguza,
    Ikibuguzo,
    Read(ReadMoveRules),
}

impl MoveKernel {
    /// The fixed instance for `rules`' combination where there is one.
    pub(crate) fn for_rules(rules: &Rules) -> MoveKernel {
        let read = MoveKernel::read(rules);
        let fixed = [
            (MoveKernel::Isolo, parts(IsoloRules {})),
            (
                MoveKernel::IsoloCaptureEnds,
                parts(IsoloCaptureEndsRules {}),
            ),
            (MoveKernel::Igisoro, parts(IgisoroRules {})),
            (MoveKernel::IgisoroRetreat, parts(IgisoroRetreatRules {})),
            (
                MoveKernel::IgisoroClockwise,
                parts(IgisoroClockwiseRules {}),
            ),
            (MoveKernel::Kubuguza, parts(KubuguzaRules {})),
            (MoveKernel::Ikibuguzo, parts(IkibuguzoRules {})),
        ];
        fixed
            .into_iter()
            .find(|(_, fixed)| *fixed == read)
            .map_or(MoveKernel::Read(read), |(kernel, _)| kernel)
    }

    /// The rules read at run time, whichever instance the variant has.
    pub(crate) fn read(rules: &Rules) -> ReadMoveRules {
        ReadMoveRules {
            capture: rules.capture,
            sow_from: rules.capture_sow_from,
            capture_ends_move: rules.capture_ends_move,
            optional: rules.capture_choice == CaptureChoice::Optional,
            turns: !rules.clockwise_from.is_empty(),
            retreat: rules.retreat != Retreat::None,
            max_laps: rules.max_laps,
            clockwise_laps: rules.clockwise_laps,
            clockwise_when: rules.clockwise_when,
            clockwise_at: rules.clockwise_at,
            clockwise_leave: rules.clockwise_leave,
        }
    }
}

/// The rules `k` fixes, to compare instances.
fn parts(k: impl MoveRules) -> ReadMoveRules {
    ReadMoveRules {
        capture: k.capture(),
        sow_from: k.sow_from(),
        capture_ends_move: k.capture_ends_move(),
        optional: k.optional(),
        turns: k.turns(),
        retreat: k.retreat(),
        max_laps: k.max_laps(),
        clockwise_laps: k.clockwise_laps(),
        clockwise_when: k.clockwise_when(),
        clockwise_at: k.clockwise_at(),
        clockwise_leave: k.clockwise_leave(),
    }
}

/// Evaluates `$body` with `$k` bound to `$kernel`'s move rules: once per instance, each
/// compiled with its rules fixed.
macro_rules! with_move_rules {
    ($kernel:expr, $k:ident => $body:expr) => {{
        use $crate::variant::rule_set as rs;
        match $kernel {
            rs::MoveKernel::Isolo => {
                let $k = rs::IsoloRules {};
                $body
            }
            rs::MoveKernel::IsoloCaptureEnds => {
                let $k = rs::IsoloCaptureEndsRules {};
                $body
            }
            rs::MoveKernel::Igisoro => {
                let $k = rs::IgisoroRules {};
                $body
            }
            rs::MoveKernel::IgisoroRetreat => {
                let $k = rs::IgisoroRetreatRules {};
                $body
            }
            rs::MoveKernel::IgisoroClockwise => {
                let $k = rs::IgisoroClockwiseRules {};
                $body
            }
            rs::MoveKernel::Kubuguza => {
                let $k = rs::KubuguzaRules {};
                $body
            }
            rs::MoveKernel::Ikibuguzo => {
                let $k = rs::IkibuguzoRules {};
                $body
            }
            rs::MoveKernel::Read(read) => {
                let $k = read;
                $body
            }
        }
    }};
}
pub(crate) use with_move_rules;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perft::perft;
    use crate::rules_file::{PRESETS, READINGS};
    use crate::variant::Variant;

    /// Every preset and reading is walked by a fixed instance, and that instance counts
    /// the moves the rules read at run time count.
    #[test]
    fn every_preset_has_a_fixed_instance_that_counts_as_the_read_rules() {
        for name in PRESETS.iter().chain(READINGS.iter()) {
            let fixed = Variant::load(name).unwrap();
            assert!(!matches!(fixed.kernel, MoveKernel::Read(_)), "{name}");
            let mut read = fixed.clone();
            read.kernel = MoveKernel::Read(MoveKernel::read(fixed.rules()));
            let start = fixed.start();
            assert_eq!(perft(&fixed, &start, 4), perft(&read, &start, 4), "{name}");
        }
        let mut other = Rules::preset("igisoro").unwrap();
        other.capture_sow_from = SowOrigin::CapturePit;
        assert!(matches!(MoveKernel::for_rules(&other), MoveKernel::Read(_)));
    }
}
