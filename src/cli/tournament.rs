//! `isolo-ai tournament`: three or more engines, round robin or gauntlet, with a
//! crosstable, points and maximum-likelihood ratings with 95% intervals.

use clap::Args;

use super::matches::{forfeits_text, shard_json, shard_note, Notes, RunArgs};
use super::{emit, emit_json, CliError, CliResult};
use isolo_engine::matches::schedule::Pairing;
use isolo_engine::matches::tally::{LadderStep, TournamentReport, TournamentTally};

#[derive(Args, Debug)]
pub(crate) struct TournamentArgs {
    #[command(flatten)]
    pub run: RunArgs,
    /// The first engine plays each of the others (instead of everyone playing everyone)
    #[arg(long, conflicts_with = "ladder")]
    pub gauntlet: bool,
    /// The engines, given weakest first, each play the next and the last (the strength
    /// levels' ladder) instead of everyone playing everyone
    #[arg(long)]
    pub ladder: bool,
    /// Fix this engine's rating at 0 (default: the mean rating is 0)
    #[arg(long, value_name = "LABEL")]
    pub anchor: Option<String>,
}

pub(crate) fn run(args: &TournamentArgs) -> CliResult {
    let run = &args.run;
    let n = run.engines.len();
    if n < 3 {
        return Err(CliError(format!(
            "tournament needs at least three --engine, found {n} (use match for two)"
        )));
    }
    let pairing = if args.gauntlet {
        Pairing::Gauntlet
    } else if args.ladder {
        Pairing::Ladder
    } else {
        Pairing::RoundRobin
    };
    let pairings = pairing.pairings(n);
    let prepared = run.prepare("tournament", pairings.clone())?;
    let variant = prepared.variant.name().to_string();
    let shard = prepared.shard;
    let labels: Vec<String> = prepared.engines.iter().map(|e| e.label.clone()).collect();
    let mut tally = TournamentTally::new(&labels, &pairings);
    let anchor = tally
        .anchor(args.anchor.as_deref())
        .map_err(|e| CliError(format!("--anchor: {e}")))?;
    let outcome = prepared.play(run, |record, _| {
        tally.add(record);
        false
    })?;
    let notes = Notes {
        games_per_minute: Some(outcome.games_per_minute()),
        lines: shard_note(shard, outcome.games as u64),
        json: shard_json(shard),
        interrupted: outcome.interrupted,
    };
    let report = tally.report(anchor, notes.games_per_minute);
    let shown = report_tournament(&report, &variant, &notes, run.json);
    super::matches::exit_if_interrupted(&outcome, run);
    shown
}

/// A tournament's standings, crosstable and ratings as text or JSON: what `tournament`
/// prints, and `merge` for a sharded one.
pub(crate) fn report_tournament(
    report: &TournamentReport,
    variant: &str,
    notes: &Notes,
    json: bool,
) -> CliResult {
    if json {
        let mut value = serde_json::to_value(report).expect("reports serialise");
        notes.add_json(&mut value);
        return emit_json(&value);
    }
    let labels = &report.engines;
    let index = |label: &str| labels.iter().position(|l| l == label).expect("an engine");
    let order: Vec<usize> = report.standings.iter().map(|s| index(&s.engine)).collect();
    let width = labels.iter().map(|l| l.len()).max().unwrap_or(6).max(6);
    let mut out = format!(
        "{} engines on {variant}, {} games\n\n",
        labels.len(),
        report.games
    );
    out.push_str(&format!(
        "{:<3} {:<width$} {:>8} {:>6} {:>9} {:>8}\n",
        "#", "engine", "points", "games", "Elo", "+-95%"
    ));
    for (rank, row) in report.standings.iter().enumerate() {
        let (elo, ci95) = match (row.elo, row.elo_ci95) {
            (Some(elo), Some([low, high])) => {
                (format!("{elo:+.1}"), format!("{:.1}", (high - low) / 2.0))
            }
            // No games: no rating, and no rank but last.
            _ => ("-".to_string(), "-".to_string()),
        };
        out.push_str(&format!(
            "{:<3} {:<width$} {:>8.1} {:>6} {elo:>9} {ci95:>8}\n",
            rank + 1,
            row.engine,
            row.points,
            row.games,
        ));
    }
    out.push_str(&format!(
        "\ncrosstable (points of the row against the column)\n{:<width$}",
        ""
    ));
    for &j in &order {
        out.push_str(&format!(" {:>w$}", short(&labels[j], 10), w = 10));
    }
    out.push('\n');
    for &i in &order {
        let row = &report.crosstable[i];
        out.push_str(&format!("{:<width$}", row.engine));
        for &j in &order {
            let cell = match (row.points[j], row.games[j]) {
                (Some(points), games) if games > 0 => format!("{points:.1}/{games}"),
                _ => "-".to_string(),
            };
            out.push_str(&format!(" {cell:>10}"));
        }
        out.push('\n');
    }
    if let Some(steps) = &report.steps {
        out.push_str(&steps_text(steps, width));
    }
    match &report.anchor {
        Some(a) => out.push_str(&format!("ratings anchored at {a} = 0\n")),
        None => out.push_str("ratings: mean 0\n"),
    }
    if report.caveat.is_some() {
        out.push_str("caveat: some engines took every point against others, so their ratings have no finite estimate (the figures shown are where the fit stopped): play more games, from more openings\n");
    }
    out.push_str(&forfeits_text(&report.forfeits));
    out.push_str(&notes.text());
    emit(&out)
}

/// A ladder's steps, strongest first: each engine's score and Elo against the one
/// given before it.
fn steps_text(steps: &[LadderStep], width: usize) -> String {
    let width = width.max("against".len());
    let mut out = format!(
        "\nladder steps (each engine against the one given before it)\n{:<width$} {:<width$} {:>12} {:>6} {:>12} {:>7}\n",
        "engine", "against", "points/games", "score", "95%", "Elo"
    );
    for step in steps.iter().rev() {
        let score = step
            .score
            .map_or("-".into(), |s| format!("{:.0}%", 100.0 * s));
        let elo = match (step.elo, step.score) {
            (Some(elo), _) => format!("{elo:+.0}"),
            (None, Some(s)) if s >= 1.0 => "+inf".into(),
            (None, Some(_)) => "-inf".into(),
            (None, None) => "-".into(),
        };
        let played = format!("{}/{}", step.points, step.games);
        let interval = step.score_ci95.map_or("-".into(), |[low, high]| {
            format!("[{:.0}%, {:.0}%]", 100.0 * low, 100.0 * high)
        });
        out.push_str(&format!(
            "{:<width$} {:<width$} {played:>12} {score:>6} {interval:>12} {elo:>7}\n",
            step.engine, step.below
        ));
    }
    out
}

fn short(label: &str, width: usize) -> String {
    label.chars().take(width).collect()
}
