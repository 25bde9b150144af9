//! The words engine specs and front ends give the searchers' settings (`qmoves=`,
//! `walk=`, `parallel=`), both ways: a leaf that specs (`engine.rs`) and typed settings
//! (`settings.rs`) share.

use crate::search::alphabeta::QuiescenceMoves;
use crate::search::mcts::Parallelism;
use crate::search::ChoiceWalk;

/// The quiescence moves `qmoves=` names: `all` or `first-lap`.
pub fn quiescence_moves_named(word: &str) -> Option<QuiescenceMoves> {
    match word {
        "all" => Some(QuiescenceMoves::AllCaptures),
        "first-lap" => Some(QuiescenceMoves::FirstLap),
        _ => None,
    }
}

/// The walk `walk=` names: `vast` or `all`.
pub fn walk_named(word: &str) -> Option<ChoiceWalk> {
    match word {
        "vast" => Some(ChoiceWalk::Vast),
        "all" => Some(ChoiceWalk::All),
        _ => None,
    }
}

/// The parallelism `parallel=` names: `root` or `tree`.
pub fn parallel_named(word: &str) -> Option<Parallelism> {
    match word {
        "root" => Some(Parallelism::Root),
        "tree" => Some(Parallelism::Tree),
        _ => None,
    }
}

/// `qmoves=`'s word for `moves`.
pub(crate) fn quiescence_moves_name(moves: QuiescenceMoves) -> &'static str {
    match moves {
        QuiescenceMoves::AllCaptures => "all",
        QuiescenceMoves::FirstLap => "first-lap",
    }
}

/// `walk=`'s word for `walk`.
pub(crate) fn walk_name(walk: ChoiceWalk) -> &'static str {
    match walk {
        ChoiceWalk::Vast => "vast",
        ChoiceWalk::All => "all",
    }
}

/// `parallel=`'s word for `parallel`.
pub(crate) fn parallel_name(parallel: Parallelism) -> &'static str {
    match parallel {
        Parallelism::Root => "root",
        Parallelism::Tree => "tree",
    }
}
