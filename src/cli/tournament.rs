//! `isolo-ai tournament`: three or more engines, round robin or gauntlet, with a
//! crosstable, points and maximum-likelihood ratings with 95% intervals.

use clap::Args;
use serde_json::json;

use super::matches::{forfeits_text, shard_json, shard_note, Notes, RunArgs};
use super::{emit, emit_json, CliError, CliResult};
use isolo_engine::matches::schedule;
use isolo_engine::matches::tally::{Crosstable, Forfeits, Standings};

#[derive(Args, Debug)]
pub struct TournamentArgs {
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

pub fn run(args: &TournamentArgs) -> CliResult {
    let run = &args.run;
    let n = run.engines.len();
    if n < 3 {
        return Err(CliError(format!(
            "tournament needs at least three --engine, found {n} (use match for two)"
        )));
    }
    let pairings = if args.gauntlet {
        schedule::gauntlet(n)
    } else if args.ladder {
        schedule::ladder(n)
    } else {
        schedule::round_robin(n)
    };
    let prepared = run.prepare("tournament", pairings)?;
    let variant = prepared.variant.name().to_string();
    let shard = prepared.shard;
    let labels: Vec<String> = prepared.engines.iter().map(|e| e.label.clone()).collect();
    let anchor = anchor_index(&labels, args.anchor.as_deref())?;
    let mut table = Crosstable::new(&labels);
    let mut forfeits = Forfeits::default();
    let outcome = prepared.play(run, |record, _| {
        table.add(record);
        forfeits.add(record);
        false
    })?;
    let notes = Notes {
        games_per_minute: Some(outcome.games_per_minute()),
        lines: shard_note(shard, outcome.games as u64),
        json: shard_json(shard),
        interrupted: outcome.interrupted,
    };
    let summary = TournamentSummary {
        variant: &variant,
        crosstable: &table,
        forfeits: &forfeits,
        anchor,
    };
    let shown = summary.report(&notes, run.json);
    super::matches::exit_if_interrupted(&outcome, run);
    shown
}

/// The index of `--anchor`'s engine among `labels`, if one is given.
pub fn anchor_index(labels: &[String], anchor: Option<&str>) -> Result<Option<usize>, CliError> {
    anchor
        .map(|label| {
            labels
                .iter()
                .position(|l| l == label)
                .ok_or_else(|| CliError(format!("--anchor: no engine is labelled '{label}'")))
        })
        .transpose()
}

/// A tournament's result: what `tournament` prints, and `merge` for a sharded one.
pub struct TournamentSummary<'a> {
    /// The rules' name.
    pub variant: &'a str,
    pub crosstable: &'a Crosstable<'a>,
    pub forfeits: &'a Forfeits,
    /// The engine whose rating is fixed at 0 (none: the mean is 0).
    pub anchor: Option<usize>,
}

impl TournamentSummary<'_> {
    /// The standings, crosstable and ratings, as text or JSON.
    pub fn report(&self, notes: &Notes, json: bool) -> CliResult {
        let (table, forfeits) = (self.crosstable, self.forfeits);
        let labels = table.labels();
        let n = labels.len();
        let games_played = table.games_played();
        let Standings {
            points,
            games,
            ratings: rated,
            order,
            caveat,
        } = table.standings(self.anchor);
        // An anchor without games anchors nothing: the ratings then have mean 0.
        let anchor_label = self
            .anchor
            .filter(|&i| rated[i].is_some())
            .map(|i| labels[i].clone());
        if json {
            let standings: Vec<_> = order
                .iter()
                .map(|&i| {
                    json!({
                        "engine": labels[i],
                        "points": points[i],
                        "games": games[i],
                        "elo": rated[i].map(|r| r.elo),
                        "elo_ci95": rated[i].map(|r| [r.elo - r.ci95, r.elo + r.ci95]),
                    })
                })
                .collect();
            let cross: Vec<_> = (0..n)
            .map(|i| json!({"engine": labels[i], "points": (0..n).map(|j| if i == j { None } else { Some(table.cell(i, j).0) }).collect::<Vec<_>>(), "games": (0..n).map(|j| table.cell(i, j).1).collect::<Vec<_>>()}))
            .collect();
            let mut value = json!({
                "engines": labels,
                "games": games_played,
                "standings": standings,
                "crosstable": cross,
                "anchor": anchor_label,
                "caveat": caveat,
                "forfeits": forfeits,
                "games_per_minute": notes.games_per_minute,
            });
            notes.add_json(&mut value);
            return emit_json(&value);
        }
        let width = labels.iter().map(|l| l.len()).max().unwrap_or(6).max(6);
        let mut out = format!(
            "{} engines on {}, {} games\n\n",
            n, self.variant, games_played
        );
        out.push_str(&format!(
            "{:<3} {:<width$} {:>8} {:>6} {:>9} {:>8}\n",
            "#", "engine", "points", "games", "Elo", "+-95%"
        ));
        for (rank, &i) in order.iter().enumerate() {
            let (elo, ci95) = match rated[i] {
                Some(r) => (format!("{:+.1}", r.elo), format!("{:.1}", r.ci95)),
                // No games: no rating, and no rank but last.
                None => ("-".to_string(), "-".to_string()),
            };
            out.push_str(&format!(
                "{:<3} {:<width$} {:>8.1} {:>6} {elo:>9} {ci95:>8}\n",
                rank + 1,
                labels[i],
                points[i],
                games[i],
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
            out.push_str(&format!("{:<width$}", labels[i]));
            for &j in &order {
                let (points, games) = table.cell(i, j);
                let cell = if i == j || games == 0 {
                    "-".to_string()
                } else {
                    format!("{points:.1}/{games}")
                };
                out.push_str(&format!(" {cell:>10}"));
            }
            out.push('\n');
        }
        match &anchor_label {
            Some(a) => out.push_str(&format!("ratings anchored at {a} = 0\n")),
            None => out.push_str("ratings: mean 0\n"),
        }
        if caveat.is_some() {
            out.push_str("caveat: some engines took every point against others, so their ratings have no finite estimate (the figures shown are where the fit stopped): play more games, from more openings\n");
        }
        out.push_str(&forfeits_text(forfeits));
        out.push_str(&notes.text());
        emit(&out)
    }
}

fn short(label: &str, width: usize) -> String {
    label.chars().take(width).collect()
}
