//! `isolo-ai merge`: combines the records files of a sharded match, tournament or
//! comparison (`--shard K/N`) into one records file in game order (the engine's
//! `merge`, which checks the shards and counts the games), and prints the summary one
//! process would have printed.

use std::path::{Path, PathBuf};

use clap::Args;

use super::compare::{report, Outputs};
use super::matches::{report_match, Notes};
use super::tournament::report_tournament;
use super::{CliError, CliResult};
use isolo_engine::matches::records;
use isolo_engine::merge::{merge, MergeError, MergeOptions, MergeOutcome, Merged};
use isolo_engine::stats::Sprt;

#[derive(Args, Debug)]
pub(crate) struct MergeArgs {
    /// The merged records file to write (it must not exist yet)
    #[arg(value_name = "OUT")]
    pub out: String,
    /// The shards' records files (each shard run's --out), in any order
    #[arg(value_name = "SHARD", required = true)]
    pub shards: Vec<String>,
    /// A match: evaluate a GSPRT over the merged games in order, counting games up to
    /// its verdict as one process would have: elo0,elo1,alpha,beta
    #[arg(long, value_name = "ELO0,ELO1,ALPHA,BETA", allow_hyphen_values = true)]
    pub sprt: Option<String>,
    /// A tournament: fix this engine's rating at 0 (default: the mean rating is 0)
    #[arg(long, value_name = "LABEL")]
    pub anchor: Option<String>,
    /// Print machine-readable JSON instead of text
    #[arg(long)]
    pub json: bool,
    /// A comparison: write one CSV row per variant here
    #[arg(long, value_name = "FILE")]
    pub csv: Option<String>,
    /// A comparison: draw its SVG chart here
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<String>,
}

pub(crate) fn run(args: &MergeArgs) -> CliResult {
    let interrupt = super::interrupt::flag();
    let outputs = Outputs {
        json: args.json,
        csv: args.csv.as_deref(),
        plot: args.plot.as_deref(),
    };
    outputs.check()?;
    let options = MergeOptions {
        sprt: args
            .sprt
            .as_deref()
            .map(|text| Sprt::parse(text).map_err(|e| CliError(format!("--sprt: {e}"))))
            .transpose()?,
        anchor: args.anchor.clone(),
    };
    let out = Path::new(&args.out);
    if args.csv.is_some() || args.plot.is_some() {
        let first = Path::new(&args.shards[0]);
        // (A missing file is the merge's to name.)
        if first.exists() {
            let kind = records::kind_of(first).map_err(|e| CliError(e.to_string()))?;
            if kind.as_deref() != Some("compare") {
                return Err(CliError(
                    "--csv and --plot are for a comparison's shards; these are a match's or a tournament's".into(),
                ));
            }
        }
    }
    let shards: Vec<PathBuf> = args.shards.iter().map(PathBuf::from).collect();
    let outcome = merge(out, &shards, &options, Some(interrupt)).map_err(|e| match e {
        MergeError::Option { option, message } => CliError(format!("--{option}: {message}")),
        other => CliError(other.to_string()),
    })?;
    show(&outcome, args, outputs)?;
    if outcome.interrupted {
        super::interrupt::exit("the same command merges the shards again");
    }
    Ok(())
}

/// The merged run's summary, as one process would have printed it, and the merge's note.
fn show(outcome: &MergeOutcome, args: &MergeArgs, mut outputs: Outputs) -> CliResult {
    let mut lines = Vec::new();
    if outcome.interrupted {
        // A comparison's CSV and plot are not written either: a part would replace a
        // whole comparison's.
        let unwritten = [Some(args.out.as_str()), outputs.csv, outputs.plot];
        let unwritten: Vec<&str> = unwritten.into_iter().flatten().collect();
        outputs.csv = None;
        outputs.plot = None;
        lines.push(interrupted_line(
            outcome.games,
            outcome.total,
            &unwritten.join(", "),
        ));
    } else {
        lines.push(format!(
            "merged {} into {}: {}",
            super::plural(outcome.shards as u64, "shard", "shards"),
            args.out,
            super::plural(outcome.total, "game", "games")
        ));
    }
    let note = serde_json::to_value(outcome.note(Path::new(&args.out))).expect("notes serialise");
    let mut notes = Notes {
        games_per_minute: None,
        lines,
        json: Some(("merge", note)),
        interrupted: outcome.interrupted,
    };
    match &outcome.merged {
        Merged::Match(tally) => {
            if tally.sprt().is_some() {
                notes
                    .lines
                    .push(sprt_note(tally.decided_at(), outcome.games));
            }
            report_match(tally, &outcome.variant, &notes, args.json)
        }
        Merged::Tournament { tally, anchor } => {
            let report = tally.report(*anchor, None);
            report_tournament(&report, &outcome.variant, &notes, args.json)
        }
        Merged::Compare(compared) => report(compared, &outputs, &notes),
    }
}

/// The note of a merge that Ctrl-C stopped.
fn interrupted_line(merged: u64, games: u64, unwritten: &str) -> String {
    let verb = if unwritten.contains(", ") {
        "were"
    } else {
        "was"
    };
    format!("stopped after {merged} of {games} games, which the figures above cover; {unwritten} {verb} not written")
}

/// Where the SPRT, evaluated over the merged games, stopped counting.
fn sprt_note(decided_at: Option<u64>, games: u64) -> String {
    match decided_at {
        Some(game) => {
            let after = games - game - 1;
            format!(
                "SPRT evaluated at merge time, over the games in order: decided at game {game}, as one process would have stopped; {} after it {} recorded but not counted",
                super::plural(after, "game", "games"),
                if after == 1 { "is" } else { "are" }
            )
        }
        None => format!("SPRT evaluated at merge time, over all {games} games in order"),
    }
}
