//! `isolo-ai compare`: the same engine plays both seats under each variant; rates with
//! Wilson intervals, game lengths, branching, laps, endless moves, captures, end reasons,
//! and a two-proportion z-test of the first player's advantage between variants.

use std::path::Path;

use clap::Args;
use serde_json::json;

use super::matches::{progress_bar, Notes};
use super::{emit, emit_json, CliError, CliResult};
use isolo_engine::matches::engine::EngineSpec;
use isolo_engine::matches::game_loop::DEFAULT_GAME_PLIES;
use isolo_engine::matches::openings::OpeningsError;
use isolo_engine::research::compare::run::{CompareOut, CompareRun};
use isolo_engine::research::compare::{shard_games, CompareReport, Openings, VariantStats};
use isolo_rules::Variant;

#[derive(Args, Debug)]
pub(crate) struct CompareArgs {
    /// A preset or rules file; give two or more
    #[arg(long = "variant", value_name = "NAME|FILE", required = true)]
    pub variants: Vec<String>,
    /// The engine playing both seats
    #[arg(long, default_value = "ab:depth=3")]
    pub engine: String,
    /// Games per variant
    #[arg(long, default_value_t = 100, value_parser = super::ranges::GAMES)]
    pub games: u64,
    /// FILE (one suite for every variant), random:K (K random plies from the start, drawn
    /// from each game's seed) or start
    #[arg(long, value_name = "FILE|random:K|start", default_value = "random:2")]
    pub openings: String,
    /// Master seed: every random choice derives from it
    #[arg(long, default_value_t = 0, value_parser = super::ranges::SEED)]
    pub seed: u64,
    #[arg(long, default_value_t = 1, value_parser = super::ranges::CONCURRENCY)]
    pub concurrency: usize,
    #[arg(long = "max-plies", default_value_t = DEFAULT_GAME_PLIES, value_parser = super::ranges::GAME_PLIES)]
    pub max_plies: usize,
    /// Print machine-readable JSON instead of text
    #[arg(long)]
    pub json: bool,
    /// Write one CSV row per variant here
    #[arg(long, value_name = "FILE")]
    pub csv: Option<String>,
    /// Draw an SVG chart here: win rates with interval whiskers, game-length distributions
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<String>,
    /// Write one JSON line per game here (a header first), for merge
    #[arg(long, value_name = "FILE")]
    pub out: Option<String>,
    /// Continue the comparison recorded in --out: its games are kept, the rest played
    #[arg(long)]
    pub resume: bool,
    /// Play only shard K of N (game i of each variant is shard i mod N's); combine the
    /// shards' --out files with isolo-ai merge
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
}

fn openings_for(variant: &Variant, spec: &str) -> Result<Openings, CliError> {
    Openings::parse(variant, spec).map_err(|e| match e {
        OpeningsError::BadRandom(_) => CliError(format!("--openings: {e}")),
        other => CliError::from(other),
    })
}

/// Where compare's statistics go besides standard output.
pub(crate) struct Outputs<'a> {
    pub json: bool,
    pub csv: Option<&'a str>,
    pub plot: Option<&'a str>,
}

impl Outputs<'_> {
    /// Checks the CSV and plot paths before any game is played.
    pub(crate) fn check(&self) -> CliResult {
        if let Some(path) = self.plot {
            if !cfg!(feature = "plots") {
                return Err(CliError(
                    "--plot: this build has no charts (built without the `plots` feature)".into(),
                ));
            }
            if !path.to_ascii_lowercase().ends_with(".svg") {
                return Err(CliError(format!(
                    "--plot: {path}: the chart is written as SVG only: name the file .svg"
                )));
            }
            super::check_output("--plot", path)?;
        }
        if let Some(path) = self.csv {
            super::check_output("--csv", path)?;
        }
        Ok(())
    }
}

/// The statistics, the first-player tests, the CSV and the plot: what `compare` prints
/// and writes, and `merge` for a sharded comparison.
pub(crate) fn report(report: &CompareReport, outputs: &Outputs, notes: &Notes) -> CliResult {
    let stats = &report.variants;
    if let Some(path) = outputs.csv {
        isolo_rules::write_bytes_whole(path.as_ref(), csv(stats).as_bytes())
            .map_err(|e| CliError(format!("--csv: cannot write {path}: {e}")))?;
    }
    #[cfg(feature = "plots")]
    if let Some(path) = outputs.plot {
        crate::render::plot::write_svg(path, stats)
            .map_err(|e| CliError(format!("--plot: {e}")))?;
    }
    if outputs.json {
        let mut value = serde_json::to_value(report).expect("reports serialise");
        notes.add_json(&mut value);
        return emit_json(&value);
    }
    emit(&(text(stats, &report.first_player_tests, &report.engine) + &notes.text()))
}

/// Each variant's label: its rules' name, and its path too where names repeat.
fn labels(variants: &[Variant], given: &[String]) -> Vec<String> {
    variants
        .iter()
        .zip(given)
        .map(|(variant, spec)| {
            let shared = variants
                .iter()
                .filter(|v| v.name() == variant.name())
                .count()
                > 1;
            if shared && spec != variant.name() {
                format!("{} ({spec})", variant.name())
            } else {
                variant.name().to_string()
            }
        })
        .collect()
}

pub(crate) fn run(args: &CompareArgs) -> CliResult {
    if args.variants.len() < 2 {
        return Err(CliError(format!(
            "compare needs at least two --variant, found {}",
            args.variants.len()
        )));
    }
    let engine = EngineSpec::parse(&args.engine).map_err(|e| CliError(format!("--engine: {e}")))?;
    let outputs = Outputs {
        json: args.json,
        csv: args.csv.as_deref(),
        plot: args.plot.as_deref(),
    };
    outputs.check()?;
    let shard = super::shard_option(args.shard.as_deref(), args.out.is_some())?;
    let variants: Vec<Variant> = args
        .variants
        .iter()
        .map(|v| Variant::load(v))
        .collect::<Result<_, _>>()?;
    let openings: Vec<Openings> = variants
        .iter()
        .map(|v| openings_for(v, &args.openings))
        .collect::<Result<_, _>>()?;
    let distinct_starts = openings[0].distinct_starts().unwrap_or(u64::MAX);
    if engine.is_deterministic() && args.games > distinct_starts {
        eprintln!(
            "warning: {engine} is deterministic (alpha-beta with a depth or node limit and one thread): {} games from {} repeat the same {}; use --openings random:K",
            args.games,
            super::plural(distinct_starts, "start", "starts"),
            super::plural(distinct_starts, "game", "games"),
        );
    }
    let labels = labels(&variants, &args.variants);
    let run = CompareRun {
        variants: variants.iter().collect(),
        labels,
        engine: &engine,
        engine_spec: &args.engine,
        games: args.games,
        openings,
        openings_spec: &args.openings,
        seed: args.seed,
        max_plies: args.max_plies,
        shard,
    };
    if let Some(path) = &args.out {
        if !args.resume {
            super::check_output("--out", path)?;
        }
    } else if args.resume {
        return Err(CliError(
            "--resume: it continues the --out file: give one".into(),
        ));
    }
    let out = (args.out.as_deref()).map(|path| CompareOut {
        path: Path::new(path),
        resume: args.resume,
    });
    let per_variant = shard_games(args.games, shard).count() as u64;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(super::ranges::workers(
            "--concurrency",
            args.concurrency,
            per_variant,
            "games per variant",
        ))
        .build()
        .map_err(|e| CliError(format!("--concurrency: {e}")))?;
    let bar = progress_bar(per_variant * variants.len() as u64, 0);
    let compared = run
        .run(&pool, out, Some(super::interrupt::flag()), &mut |game| {
            bar.set_message(run.labels[game.variant].clone());
            bar.inc(1);
        })
        .map_err(|e| CliError(format!("--{e}")))?;
    bar.finish_and_clear();
    let interrupted = compared.interrupted;
    let mut lines: Vec<String> = shard
        .map(|s| {
            format!(
                "shard {s}: {} of each variant; combine the shards' records with isolo-ai merge",
                super::plural(per_variant, "game", "games")
            )
        })
        .into_iter()
        .collect();
    if compared.resumed > 0 {
        lines.push(format!(
            "continued: {} read back from the records",
            super::plural(compared.resumed, "game", "games")
        ));
    }
    let stats = &compared.report.variants;
    if interrupted {
        lines.push(format!(
            "stopped at {} of {} variants, the last after {} of its {per_variant} games",
            stats.len(),
            variants.len(),
            stats.last().map_or(0, |s| s.games)
        ));
    }
    let notes = Notes {
        games_per_minute: None,
        lines,
        json: shard.map(|s| ("shard", json!(s.to_string()))),
        interrupted,
    };
    let shown = report(&compared.report, &outputs, &notes);
    if interrupted {
        super::interrupt::exit(&match &args.out {
            Some(path) => format!(
                "the games played are recorded in {path}: the same command with --resume plays the rest"
            ),
            None => "the same command plays it again (with --out FILE, --resume continues it)"
                .to_string(),
        });
    }
    shown
}

/// Percent with its interval.
fn pct(p: &isolo_engine::research::compare::Proportion) -> String {
    format!(
        "{:.1}% [{:.1}, {:.1}]",
        100.0 * p.rate,
        100.0 * p.ci95[0],
        100.0 * p.ci95[1]
    )
}

fn mean(m: &isolo_engine::research::compare::Mean) -> String {
    format!("{:.2} [{:.2}, {:.2}]", m.mean, m.ci95[0], m.ci95[1])
}

fn text(
    stats: &[VariantStats],
    tests: &[isolo_engine::research::compare::AdvantageTest],
    engine: &str,
) -> String {
    let mut out = format!("{engine} playing both seats; 95% intervals in brackets\n");
    for s in stats {
        out.push_str(&format!("\n{} ({} games)\n", s.variant, s.games));
        let rows = [
            ("South wins", pct(&s.south_wins)),
            ("North wins", pct(&s.north_wins)),
            ("draws", pct(&s.draws)),
            ("first player wins", pct(&s.first_player_wins)),
            ("second player wins", pct(&s.second_player_wins)),
            (
                "plies",
                format!(
                    "mean {}  median {}  quartiles {}-{}  range {}-{}  sd {:.1}",
                    mean(&s.plies.mean),
                    s.plies.median,
                    s.plies.p25,
                    s.plies.p75,
                    s.plies.min,
                    s.plies.max,
                    s.plies.mean.sd
                ),
            ),
            ("branching factor", mean(&s.branching)),
            ("laps per move", mean(&s.laps_per_move)),
            ("positions with an endless move", mean(&s.endless_share)),
            ("seeds captured per move", mean(&s.captured_per_move)),
            ("ended: no moves", pct(&s.end_no_moves)),
            ("ended: repetition", pct(&s.end_repetition)),
            ("ended: ply limit", pct(&s.end_ply_limit)),
            ("ended: dead position", pct(&s.end_dead_position)),
            ("ended: front-row ends captured", pct(&s.end_ends_captured)),
            ("ended: long game, no capture", pct(&s.end_long_game)),
        ];
        for (name, value) in rows {
            out.push_str(&format!("  {name:<32} {value}\n"));
        }
    }
    out.push_str("\nfirst player's win rate, two-sided two-proportion z-test (pooled):\n");
    for t in tests {
        out.push_str(&format!(
            "  {} vs {}: difference {:+.1} points, z {:+.2}, p {:.4}\n",
            t.a,
            t.b,
            100.0 * t.difference,
            t.z,
            t.p_value
        ));
    }
    out
}

/// One CSV row per variant.
fn csv(stats: &[VariantStats]) -> String {
    let mut out = String::from(
        "variant,games,south_win_rate,south_lo,south_hi,north_win_rate,north_lo,north_hi,draw_rate,draw_lo,draw_hi,first_player_win_rate,first_lo,first_hi,plies_mean,plies_lo,plies_hi,plies_median,plies_sd,branching,laps_per_move,endless_share,captured_per_move,end_no_moves,end_repetition,end_ply_limit,end_dead_position,end_ends_captured,end_long_game\n",
    );
    for s in stats {
        let p = |x: &isolo_engine::research::compare::Proportion| {
            format!("{:.6},{:.6},{:.6}", x.rate, x.ci95[0], x.ci95[1])
        };
        out.push_str(&format!(
            "{},{},{},{},{},{},{:.4},{:.4},{:.4},{},{:.4},{:.4},{:.4},{:.6},{:.4},{},{},{},{},{},{}\n",
            csv_field(&s.variant),
            s.games,
            p(&s.south_wins),
            p(&s.north_wins),
            p(&s.draws),
            p(&s.first_player_wins),
            s.plies.mean.mean,
            s.plies.mean.ci95[0],
            s.plies.mean.ci95[1],
            s.plies.median,
            s.plies.mean.sd,
            s.branching.mean,
            s.laps_per_move.mean,
            s.endless_share.mean,
            s.captured_per_move.mean,
            s.end_no_moves.count,
            s.end_repetition.count,
            s.end_ply_limit.count,
            s.end_dead_position.count,
            s.end_ends_captured.count,
            s.end_long_game.count,
        ));
    }
    out
}

fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}
