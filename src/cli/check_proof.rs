//! `isolo-ai check-proof`: checks a proof certificate (as `solve --certificate` writes
//! it) with the rules alone, no search.

use std::path::PathBuf;

use clap::Args;

use super::{emit, emit_json, CliError, CliResult};
use isolo_engine::prove::certificate::{self, Checked, CheckedDraw, CheckedProof};

#[derive(Args, Debug)]
pub(crate) struct CheckProofArgs {
    /// The certificate (gzip-compressed or not)
    pub file: PathBuf,
    /// Print machine-readable JSON instead of text
    #[arg(long)]
    pub json: bool,
}

pub(crate) fn run(args: &CheckProofArgs) -> CliResult {
    let checked = certificate::read_and_check(&args.file).map_err(|e| CliError(e.to_string()))?;
    if args.json {
        return emit_json(&checked.to_json());
    }
    let text = match &checked {
        CheckedProof::Win(c) => describe(c),
        CheckedProof::Draw(c) => describe_draw(c),
    };
    let rules = checked.rules();
    let warning = match rules.misnamed {
        true => "; the proof is of these rules, not of the preset",
        false => "",
    };
    emit(&format!(
        "valid: {text}\nrules: {}{warning}\n",
        rules.describe()
    ))
}

/// One line saying what a checked draw's certificate proves.
pub(crate) fn describe_draw(checked: &CheckedDraw) -> String {
    let [south, north] = checked.positions;
    format!(
        "draw at {}: South keeps to a set of {} and North to one of {}, never without a move, so neither side can force a win",
        checked.root_text,
        super::plural(south as u64, "position", "positions"),
        super::plural(north as u64, "position", "positions"),
    )
}

/// One line saying what a checked certificate proves.
pub(crate) fn describe(checked: &Checked) -> String {
    let side = checked.root.to_move();
    let result = if checked.win_for_side_to_move {
        "win"
    } else {
        "loss"
    };
    // The checker shows a win within the proof's longest line; a shorter stated length
    // is the prover's word, which this proof does not bear out.
    let stated = checked
        .plies
        .map(|p| {
            let plies = super::plural(p as u64, "ply", "plies");
            if p < checked.depth {
                format!(" (stated: in exactly {plies}, which this proof does not show: its longest line is longer)")
            } else {
                format!(" (stated: in exactly {plies})")
            }
        })
        .unwrap_or_default();
    let unused = match checked.unused {
        0 => String::new(),
        n => format!(
            ", {} never reached",
            super::plural(n as u64, "line", "lines")
        ),
    };
    format!(
        "{result} for {side} (to move) at {}: {} wins within {}{stated} whatever the loser plays; proof of {} positions, {} of them with the winner's move given{unused}",
        checked.root_text,
        checked.winner,
        super::plural(checked.depth as u64, "ply", "plies"),
        checked.positions,
        checked.winner_positions,
    )
}
