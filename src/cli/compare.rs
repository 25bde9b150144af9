//! `isolo-ai compare`: the same engine plays both seats under each variant; rates with
//! Wilson intervals, game lengths, branching, laps, endless moves, captures, end reasons,
//! and a two-proportion z-test of the first player's advantage between variants.

use std::sync::atomic::{AtomicUsize, Ordering};

use clap::Args;
use serde_json::json;

use super::matches::progress_bar;
use super::{emit, emit_json, CliError, CliResult};
use isolo_ai::compare::{
    first_player_test, opening, play_compared, summarise, GameFacts, Openings, VariantStats,
};
use isolo_ai::engine::EngineSpec;
use isolo_ai::game::DEFAULT_MAX_PLIES;
use isolo_ai::openings::load_suite;
use isolo_ai::rules::Variant;
use isolo_ai::schedule::game_seed;

#[derive(Args, Debug)]
pub struct CompareArgs {
    /// A preset or rules file; give two or more
    #[arg(long = "variant", value_name = "NAME|FILE", required = true)]
    pub variants: Vec<String>,
    /// The engine playing both seats
    #[arg(long, default_value = "ab:depth=3")]
    pub engine: String,
    /// Games per variant
    #[arg(long, default_value_t = 100)]
    pub games: u64,
    /// FILE (one suite for every variant), random:K (K random plies from the start, drawn
    /// from each game's seed) or start
    #[arg(long, value_name = "FILE|random:K|start", default_value = "random:2")]
    pub openings: String,
    /// Master seed: every random choice derives from it
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    #[arg(long = "max-plies", default_value_t = DEFAULT_MAX_PLIES)]
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
}

/// How many different starts `openings` gives, where that is bounded (random plies vary
/// with each game's seed).
fn distinct_starts(openings: &Openings) -> Option<u64> {
    match openings {
        Openings::Start | Openings::Random(0) => Some(1),
        Openings::Random(_) => None,
        Openings::Suite(positions) => Some(positions.len() as u64),
    }
}

fn openings_for(variant: &Variant, spec: &str) -> Result<Openings, CliError> {
    match spec {
        "start" => Ok(Openings::Start),
        text => match text.strip_prefix("random:") {
            Some(k) => k.parse().map(Openings::Random).map_err(|_| {
                CliError(format!(
                    "--openings: expected random:K with K a number of plies, found '{text}'"
                ))
            }),
            None => load_suite(variant, text)
                .map(Openings::Suite)
                .map_err(CliError),
        },
    }
}

/// Plays the games of one variant on `concurrency` threads, in index order.
fn play_variant(
    variant: &Variant,
    engine: &EngineSpec,
    openings: &Openings,
    args: &CompareArgs,
    on_game: &(dyn Fn() + Sync),
) -> Result<Vec<GameFacts>, CliError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.concurrency)
        .build()
        .map_err(|e| CliError(format!("--concurrency: {e}")))?;
    let next = AtomicUsize::new(0);
    let results = std::sync::Mutex::new(Vec::new());
    pool.scope(|scope| {
        for _ in 0..args.concurrency {
            scope.spawn(|_| loop {
                let i = next.fetch_add(1, Ordering::Relaxed) as u64;
                if i >= args.games {
                    break;
                }
                let seed = game_seed(args.seed, i);
                let start = opening(variant, openings, i, seed);
                let facts = play_compared(variant, engine, start, seed, args.max_plies);
                results
                    .lock()
                    .expect("no game thread panicked")
                    .push((i, facts));
                on_game();
            });
        }
    });
    let mut results = results.into_inner().expect("no game thread panicked");
    results.sort_by_key(|(i, _)| *i);
    results
        .into_iter()
        .map(|(_, f)| f.map_err(|e| CliError(format!("--engine: {e}"))))
        .collect()
}

pub fn run(args: &CompareArgs) -> CliResult {
    if args.variants.len() < 2 {
        return Err(CliError(format!(
            "compare needs at least two --variant, found {}",
            args.variants.len()
        )));
    }
    if args.games == 0 || args.concurrency == 0 || args.max_plies == 0 {
        return Err(CliError(
            "--games, --concurrency and --max-plies must be at least 1".into(),
        ));
    }
    let engine = EngineSpec::parse(&args.engine).map_err(|e| CliError(format!("--engine: {e}")))?;
    if let Some(path) = &args.plot {
        if !path.to_ascii_lowercase().ends_with(".svg") {
            return Err(CliError(format!(
                "--plot: {path}: the chart is written as SVG only: name the file .svg"
            )));
        }
        super::check_output("--plot", path)?;
    }
    if let Some(path) = &args.csv {
        super::check_output("--csv", path)?;
    }
    let variants: Vec<Variant> = args
        .variants
        .iter()
        .map(|v| Variant::load(v))
        .collect::<Result<_, _>>()?;
    let openings: Vec<Openings> = variants
        .iter()
        .map(|v| openings_for(v, &args.openings))
        .collect::<Result<_, _>>()?;
    let distinct_starts = distinct_starts(&openings[0]).unwrap_or(u64::MAX);
    if engine.is_deterministic() && args.games > distinct_starts {
        eprintln!(
            "warning: {engine} is deterministic (alpha-beta with a depth or node limit and one thread): {} games from {} repeat the same {}; use --openings random:K",
            args.games,
            super::plural(distinct_starts, "start", "starts"),
            super::plural(distinct_starts, "game", "games"),
        );
    }
    let bar = progress_bar(args.games * variants.len() as u64, 0);
    let mut stats: Vec<VariantStats> = Vec::new();
    for ((variant, spec), openings) in variants.iter().zip(&args.variants).zip(&openings) {
        // A variant is named by its rules' name; by its path too where names repeat.
        let shared = variants
            .iter()
            .filter(|v| v.name() == variant.name())
            .count()
            > 1;
        let label = if shared && spec != variant.name() {
            format!("{} ({spec})", variant.name())
        } else {
            variant.name().to_string()
        };
        bar.set_message(label.clone());
        let games = play_variant(variant, &engine, openings, args, &|| bar.inc(1))?;
        stats.push(summarise(&label, &games));
    }
    bar.finish_and_clear();
    let tests: Vec<_> = (0..stats.len())
        .flat_map(|i| (i + 1..stats.len()).map(move |j| (i, j)))
        .map(|(i, j)| first_player_test(&stats[i], &stats[j]))
        .collect();
    if let Some(path) = &args.csv {
        std::fs::write(path, csv(&stats))
            .map_err(|e| CliError(format!("--csv: cannot write {path}: {e}")))?;
    }
    if let Some(path) = &args.plot {
        crate::plot::write_svg(path, &stats).map_err(|e| CliError(format!("--plot: {e}")))?;
    }
    if args.json {
        return emit_json(&json!({
            "engine": engine.label,
            "games_per_variant": args.games,
            "variants": stats,
            "first_player_tests": tests,
            "test": "two-sided two-proportion z-test (pooled) of the first player's win rate",
        }));
    }
    emit(&text(&stats, &tests, &engine.label))
}

/// Percent with its interval.
fn pct(p: &isolo_ai::compare::Proportion) -> String {
    format!(
        "{:.1}% [{:.1}, {:.1}]",
        100.0 * p.rate,
        100.0 * p.ci95[0],
        100.0 * p.ci95[1]
    )
}

fn mean(m: &isolo_ai::compare::Mean) -> String {
    format!("{:.2} [{:.2}, {:.2}]", m.mean, m.ci95[0], m.ci95[1])
}

fn text(
    stats: &[VariantStats],
    tests: &[isolo_ai::compare::AdvantageTest],
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
        "variant,games,south_win_rate,south_lo,south_hi,north_win_rate,north_lo,north_hi,draw_rate,draw_lo,draw_hi,first_player_win_rate,first_lo,first_hi,plies_mean,plies_lo,plies_hi,plies_median,plies_sd,branching,laps_per_move,endless_share,captured_per_move,end_no_moves,end_repetition,end_ply_limit\n",
    );
    for s in stats {
        let p = |x: &isolo_ai::compare::Proportion| {
            format!("{:.6},{:.6},{:.6}", x.rate, x.ci95[0], x.ci95[1])
        };
        out.push_str(&format!(
            "{},{},{},{},{},{},{:.4},{:.4},{:.4},{},{:.4},{:.4},{:.4},{:.6},{:.4},{},{},{}\n",
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
