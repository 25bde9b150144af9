//! `isolo-ai check-proof`: checks a proof certificate (as `solve --certificate` writes
//! it) with the rules alone, no search.

use std::path::{Path, PathBuf};

use clap::Args;
use serde_json::json;

use super::{emit, emit_json, CliError, CliResult};
use isolo_ai::certificate::{self, Certificate, Checked};

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
    if args.json {
        return emit_json(&checked_json(&checked));
    }
    emit(&format!("valid: {}\n", describe(&checked)))
}

/// Reads and checks a certificate file; the error names the file and what failed.
pub fn read_and_check(path: &Path) -> Result<Checked, CliError> {
    let fail = |e: String| CliError(format!("{}: {e}", path.display()));
    let certificate = Certificate::load(path).map_err(fail)?;
    certificate::check(&certificate).map_err(|e| fail(format!("not a proof: {e}")))
}

/// Writes `certificate` to `path` (gzip-compressed where the name ends in `.gz`).
pub fn write(path: &Path, certificate: &Certificate) -> Result<(), CliError> {
    certificate
        .save(path)
        .map_err(|e| CliError(format!("--certificate {}: {e}", path.display())))
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
