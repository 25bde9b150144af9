//! `isolo-ai check-proof`: checks a proof certificate (as `solve --certificate` writes
//! it) with the rules alone, no search.

use std::path::{Path, PathBuf};

use clap::Args;
use serde_json::json;

use super::{emit, emit_json, CliError, CliResult};
use isolo_engine::prove::certificate::{self, Checked, CheckedDraw, CheckedProof, Proof};

#[derive(Args, Debug)]
pub struct CheckProofArgs {
    /// The certificate (gzip-compressed or not)
    pub file: PathBuf,
    /// Print machine-readable JSON instead of text
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &CheckProofArgs) -> CliResult {
    let checked = read_and_check(&args.file)?;
    let (json, text) = match &checked {
        CheckedProof::Win(c) => (checked_json(c), describe(c)),
        CheckedProof::Draw(c) => (draw_json(c), describe_draw(c)),
    };
    if args.json {
        return emit_json(&json);
    }
    emit(&format!("valid: {text}\n"))
}

/// One line saying what a checked draw's certificate proves.
pub fn describe_draw(checked: &CheckedDraw) -> String {
    let [south, north] = checked.positions;
    format!(
        "draw at {}: South keeps to a set of {} and North to one of {}, never without a move, so neither side can force a win",
        checked.root_text,
        super::plural(south as u64, "position", "positions"),
        super::plural(north as u64, "position", "positions"),
    )
}

/// The JSON fields of a checked draw's certificate.
pub fn draw_json(checked: &CheckedDraw) -> serde_json::Value {
    json!({
        "valid": true,
        "position": checked.root_text,
        "result": "draw",
        "winner": null,
        "positions": checked.positions[0] + checked.positions[1],
        "holds": {"S": checked.positions[0], "N": checked.positions[1]},
    })
}

/// Reads and checks a certificate file of either kind; the error names the file and
/// what failed.
pub fn read_and_check(path: &Path) -> Result<CheckedProof, CliError> {
    let fail = |e: String| CliError(format!("{}: {e}", path.display()));
    let proof = Proof::load(path).map_err(fail)?;
    certificate::check_proof(&proof).map_err(|e| fail(format!("not a proof: {e}")))
}

/// Writes `proof` to `path` (gzip-compressed where the name ends in `.gz`) and checks
/// the file written, as check-proof would.
pub fn write_checked(path: &Path, proof: &Proof) -> Result<CheckedProof, CliError> {
    proof
        .save(path)
        .map_err(|e| CliError(format!("--certificate {}: {e}", path.display())))?;
    read_and_check(path).map_err(|e| {
        CliError(format!(
            "--certificate: the certificate written fails its check: {e}"
        ))
    })
}

/// One line saying what a checked certificate proves.
pub fn describe(checked: &Checked) -> String {
    let side = checked.root.to_move();
    let result = if checked.win_for_side_to_move {
        "win"
    } else {
        "loss"
    };
    let stated = checked
        .plies
        .map(|p| {
            format!(
                " (stated: in exactly {})",
                super::plural(p as u64, "ply", "plies")
            )
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

/// The JSON fields of a checked certificate.
pub fn checked_json(checked: &Checked) -> serde_json::Value {
    json!({
        "valid": true,
        "position": checked.root_text,
        "result": if checked.win_for_side_to_move { "win" } else { "loss" },
        "winner": checked.winner.letter().to_string(),
        "depth": checked.depth,
        "plies": checked.plies,
        "positions": checked.positions,
        "winner_positions": checked.winner_positions,
        "unused_lines": checked.unused,
    })
}

/// The size of a file in bytes (0 where it cannot be read).
pub fn file_bytes(path: &Path) -> u64 {
    std::fs::metadata(path).map(|m| m.len()).unwrap_or(0)
}
