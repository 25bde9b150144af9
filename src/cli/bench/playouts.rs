//! `isolo-ai bench --playouts`: random games per second, per variant (see
//! `isolo_engine::playout`).

use std::time::{Duration, Instant};

use rayon::prelude::*;
use serde_json::{json, Value};

use isolo_engine::matches::schedule::game_seed;
use isolo_rules::{random_game, RandomGame, RandomMover};
use isolo_rules::{Variant, PRESETS, READINGS};

use super::super::{emit, emit_json, CliError, CliResult};

/// What the random games of one variant added up to.
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    games: u64,
    decided: u64,
    cut: u64,
    plies: u64,
    laps: u64,
}

impl Tally {
    fn of(game: RandomGame) -> Tally {
        Tally {
            games: 1,
            decided: game.winner.is_some() as u64,
            cut: game.cut as u64,
            plies: game.plies as u64,
            laps: game.laps,
        }
    }

    fn add(self, other: Tally) -> Tally {
        Tally {
            games: self.games + other.games,
            decided: self.decided + other.decided,
            cut: self.cut + other.cut,
            plies: self.plies + other.plies,
            laps: self.laps + other.laps,
        }
    }
}

/// How the random games are played.
pub(super) struct PlayoutBench<'a> {
    pub variants: &'a [String],
    pub games: u64,
    pub max_plies: u32,
    pub threads: usize,
    pub seed: u64,
    pub json: bool,
}

/// Plays `games` random games from `variant`'s start on the pool's threads (game `i`
/// from seed `game_seed(seed, i)`, so the sums are the same on any number of threads).
fn play(variant: &Variant, bench: &PlayoutBench, pool: &rayon::ThreadPool) -> (Tally, Duration) {
    let started = Instant::now();
    let tally = pool.install(|| {
        (0..bench.games)
            .into_par_iter()
            .map_init(RandomMover::default, |mover, i| {
                if crate::cli::interrupt::requested() {
                    return Tally::default(); // (Ctrl-C: the games not begun are left out)
                }
                let seed = game_seed(bench.seed, i);
                Tally::of(random_game(
                    variant,
                    variant.start(),
                    bench.max_plies,
                    seed,
                    mover,
                ))
            })
            .reduce(Tally::default, Tally::add)
    });
    (tally, started.elapsed())
}

fn per_second(count: u64, time: Duration) -> f64 {
    count as f64 / time.as_secs_f64().max(1e-9)
}

pub(super) fn run(bench: &PlayoutBench) -> CliResult {
    let names: Vec<String> = if bench.variants.is_empty() {
        PRESETS
            .iter()
            .chain(&READINGS)
            .map(|s| s.to_string())
            .collect()
    } else {
        bench.variants.to_vec()
    };
    let variants = names
        .iter()
        .map(|name| Variant::load(name))
        .collect::<Result<Vec<_>, _>>()?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(bench.threads)
        .build()
        .map_err(|e| CliError(format!("cannot start {} threads: {e}", bench.threads)))?;
    let bar = super::super::progress(variants.len() as u64, "variants");
    let mut rows = Vec::new();
    let interrupt = crate::cli::interrupt::flag();
    for variant in &variants {
        if interrupt.load(std::sync::atomic::Ordering::Relaxed) {
            break;
        }
        rows.push((variant.name().to_string(), play(variant, bench, &pool)));
        bar.inc(1);
    }
    bar.finish_and_clear();
    let interrupted = crate::cli::interrupt::requested();
    let shown = report(bench, &rows, interrupted.then_some(variants.len()));
    if interrupted {
        crate::cli::interrupt::exit("the same command runs the bench again");
    }
    shown
}

/// The rows as text or JSON; `interrupted` holds the variants asked for where Ctrl-C
/// stopped the run.
fn report(
    bench: &PlayoutBench,
    rows: &[(String, (Tally, Duration))],
    interrupted: Option<usize>,
) -> CliResult {
    if bench.json {
        let rows: Vec<Value> = rows
            .iter()
            .map(|(name, (t, time))| row_json(name, t, *time))
            .collect();
        let mut value = json!({
            "games": bench.games,
            "max_plies": bench.max_plies,
            "threads": bench.threads,
            "seed": bench.seed,
            "variants": rows,
        });
        if interrupted.is_some() {
            value["interrupted"] = json!(true);
        }
        return emit_json(&value);
    }
    let mut out = format!(
        "random games from each start, {} a variant, at most {} plies, {} thread{}, seed {}\n",
        bench.games,
        bench.max_plies,
        bench.threads,
        if bench.threads == 1 { "" } else { "s" },
        bench.seed
    );
    if let Some(asked) = interrupted {
        out.push_str(&format!(
            "interrupted: {} of {asked} variants begun; the last may have fewer games\n",
            rows.len()
        ));
    }
    for (name, (t, time)) in rows {
        out.push_str(&row_text(name, t, *time));
    }
    emit(&out)
}

fn row_json(name: &str, t: &Tally, time: Duration) -> Value {
    json!({
        "variant": name,
        "games": t.games,
        "decided": t.decided,
        "cut": t.cut,
        "plies": t.plies,
        "laps": t.laps,
        "mean_plies": t.plies as f64 / t.games.max(1) as f64,
        "time_ms": time.as_secs_f64() * 1000.0,
        "games_per_s": per_second(t.games, time),
        "plies_per_s": per_second(t.plies, time),
        "laps_per_s": per_second(t.laps, time),
    })
}

fn row_text(name: &str, t: &Tally, time: Duration) -> String {
    format!(
        "{name:<26} {:>9.0} games/s {:>11.0} plies/s {:>11.0} laps/s  {:>6.1} plies a game  {:>5.1}% decided  plies {} laps {}  {:.0} ms\n",
        per_second(t.games, time),
        per_second(t.plies, time),
        per_second(t.laps, time),
        t.plies as f64 / t.games.max(1) as f64,
        100.0 * t.decided as f64 / t.games.max(1) as f64,
        t.plies,
        t.laps,
        time.as_secs_f64() * 1000.0
    )
}
