//! `isolo-ai results`: regenerates docs/RESULTS.md, the solved value (or, where the
//! prover does not finish, the compare statistics) of the start position under every
//! preset and each alternative reading of RULES.md.

use std::time::Duration;

use clap::Args;

use super::{CliError, CliResult};
use isolo_engine::matches::engine::EngineSpec;
use isolo_engine::prove::alphabeta::{AbVerdict, Prover};
use isolo_engine::research::readings::{
    readings, sample_reading, SampleSettings, RANDOM_OPENING_PLIES,
};
use isolo_rules::{Variant, PRESETS};

#[derive(Args, Debug)]
pub(crate) struct ResultsArgs {
    /// Where to write the page
    #[arg(long, default_value = "docs/RESULTS.md")]
    pub out: String,
    /// Longest proof looked for, in plies
    #[arg(long = "max-plies", default_value_t = 40, value_parser = super::ranges::DEPTH)]
    pub max_plies: u32,
    /// Prover time per reading, in milliseconds
    #[arg(long = "time-ms", default_value_t = 10_000, value_parser = super::ranges::TIME_MS)]
    pub time_ms: u64,
    /// Games per unsolved reading for the statistics
    #[arg(long, default_value_t = 100, value_parser = super::ranges::GAMES)]
    pub games: u64,
    /// The engine playing both seats in those games
    #[arg(long, default_value = "ab:depth=3")]
    pub engine: String,
    /// Plies after which a compared game is a draw
    #[arg(long = "game-plies", default_value_t = isolo_engine::matches::game_loop::DEFAULT_GAME_PLIES, value_parser = super::ranges::GAME_PLIES)]
    pub game_plies: usize,
    /// Time for one reading's games, in milliseconds: no game starts after it (the page
    /// says how many were played)
    #[arg(long = "games-time-ms", value_parser = super::ranges::TIME_MS)]
    pub games_time_ms: Option<u64>,
    /// Compared games played at once
    #[arg(long, default_value_t = 1, value_parser = super::ranges::CONCURRENCY)]
    pub concurrency: usize,
    /// Prover threads (Lazy SMP)
    #[arg(long, default_value_t = 1, value_parser = super::ranges::THREADS)]
    pub threads: usize,
    /// Master seed of the compared games
    #[arg(long, default_value_t = 0, value_parser = super::ranges::SEED)]
    pub seed: u64,
    /// Only these presets (default: all)
    #[arg(long = "preset", value_name = "NAME")]
    pub presets: Vec<String>,
    /// With --preset, replace a page that holds other presets' results too
    #[arg(long)]
    pub overwrite: bool,
}

/// The page's opening paragraphs, with the command that regenerates it.
fn page_header(args: &ResultsArgs) -> String {
    let mut command = format!(
        "isolo-ai results --out {} --max-plies {} --time-ms {} --games {} --game-plies {} \
         --engine {} --threads {} --seed {}",
        args.out,
        args.max_plies,
        args.time_ms,
        args.games,
        args.game_plies,
        args.engine,
        args.threads,
        args.seed
    );
    if let Some(t) = args.games_time_ms {
        command.push_str(&format!(" --games-time-ms {t}"));
    }
    if args.concurrency > 1 {
        command.push_str(&format!(" --concurrency {}", args.concurrency));
    }
    for preset in &args.presets {
        command.push_str(&format!(" --preset {preset}"));
    }
    let budget = match args.games_time_ms {
        Some(t) if t % 1000 == 0 => format!(", or as many as started within {} s", t / 1000),
        Some(t) => format!(", or as many as started within {t} ms"),
        None => String::new(),
    };
    format!(
        "# Results\n\n\
         The start position of every preset under each alternative reading of RULES.md:\n\
         its value proven by `isolo-ai solve` where the prover finishes (the length in plies and\n\
         the first moves of a line that achieves it), and otherwise the statistics of `compare`\n\
         ({} games of `{}` against itself{budget}, each from {} random plies after the start,\n\
         drawn at {} plies, with 95% Wilson intervals). Branching counts the distinct positions\n\
         the legal moves reach, as the searchers list them.\n\n\
         Regenerate with:\n\n    {command}\n\n\
         A proof is exact (shortest win, longest defence); \"unsolved\" means no proof within {} \
         plies and {} ms.\n",
        args.games,
        args.engine,
        RANDOM_OPENING_PLIES,
        args.game_plies,
        args.max_plies,
        args.time_ms
    )
}

/// The compared games of one unsolved reading, in index order; with `--games-time-ms`,
/// the first and those that started within it.
/// The prover's table size for each reading.
const RESULTS_HASH_MB: usize = 64;

/// A page for some presets only must not replace a page holding others, unless asked.
fn check_partial_page(args: &ResultsArgs) -> CliResult {
    if args.presets.is_empty() || args.overwrite {
        return Ok(());
    }
    let Some(existing) = read_page(&args.out) else {
        return Ok(());
    };
    let dropped: Vec<&str> = PRESETS
        .iter()
        .filter(|p| !args.presets.iter().any(|q| q == *p))
        .filter(|p| existing.contains(&format!("\n## {p}\n")))
        .copied()
        .collect();
    if dropped.is_empty() {
        return Ok(());
    }
    Err(CliError(format!(
        "--preset: {} holds results for {} too, which a page for {} alone would drop: write it elsewhere (--out) or add --overwrite",
        args.out,
        dropped.join(", "),
        args.presets.join(", ")
    )))
}

pub(crate) fn run(args: &ResultsArgs) -> CliResult {
    let engine = EngineSpec::parse(&args.engine).map_err(|e| CliError(format!("--engine: {e}")))?;
    let mut page = page_header(args);
    for name in &args.presets {
        if !PRESETS.contains(&name.as_str()) {
            return Err(CliError(format!(
                "--preset: unknown preset '{name}' (presets: {})",
                PRESETS.join(", ")
            )));
        }
    }
    check_partial_page(args)?;
    if let Some(dir) = std::path::Path::new(&args.out)
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
    {
        std::fs::create_dir_all(dir)
            .map_err(|e| CliError(format!("--out: cannot create {}: {e}", dir.display())))?;
    }
    super::check_output("--out", &args.out)?;
    let threads = super::ranges::search_threads("--threads", args.threads);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(super::ranges::workers(
            "--concurrency",
            args.concurrency,
            args.games,
            "games per reading",
        ))
        .build()
        .map_err(|e| CliError(format!("--concurrency: cannot start threads: {e}")))?;
    let sample = SampleSettings {
        games: args.games,
        seed: args.seed,
        max_plies: args.game_plies,
        budget: args.games_time_ms.map(Duration::from_millis),
        interrupt: Some(super::interrupt::flag()),
    };
    'page: for (preset, list) in readings() {
        if !args.presets.is_empty() && !args.presets.contains(&preset) {
            continue;
        }
        page.push_str(&format!("\n## {preset}\n\n| reading | value of the start | first moves / statistics |\n|---|---|---|\n"));
        for reading in list {
            if super::interrupt::requested() {
                break 'page;
            }
            let variant = Variant::new(reading.rules)
                .map_err(|e| CliError(format!("{preset}, {}: {e}", reading.name)))?;
            let mut prover = Prover::new(&variant, threads, RESULTS_HASH_MB)
                .map_err(|e| CliError(format!("prover table: {e}")))?
                .stopping_on(sample.interrupt);
            let start = variant.start();
            let solution = prover.solve(
                &start,
                &[],
                args.max_plies,
                Some(Duration::from_millis(args.time_ms)),
            );
            let line: Vec<String> = solution.pv.iter().take(6).map(|m| m.to_string()).collect();
            let row = match solution.verdict {
                AbVerdict::Win(p) => format!(
                    "South wins in {p} plies | {} ({} nodes, {} ms) |",
                    line.join(" "),
                    solution.nodes,
                    solution.time.as_millis()
                ),
                AbVerdict::Loss(p) => format!(
                    "South loses in {p} plies | {} ({} nodes, {} ms) |",
                    line.join(" "),
                    solution.nodes,
                    solution.time.as_millis()
                ),
                AbVerdict::Unknown if super::interrupt::requested() => break 'page,
                AbVerdict::Unknown => {
                    let s = sample_reading(&variant, &engine, &sample, &pool)
                        .map_err(|e| CliError(format!("--engine: {e}")))?;
                    if super::interrupt::requested() {
                        break 'page; // (a sample cut short is not the page's)
                    }
                    let pct = |p: &isolo_engine::research::compare::Proportion| {
                        format!(
                            "{:.0}% [{:.0}, {:.0}]",
                            100.0 * p.rate,
                            100.0 * p.ci95[0],
                            100.0 * p.ci95[1]
                        )
                    };
                    format!(
                        "unsolved (depth {}) | {} games: South {}, North {}, draws {}; plies mean {:.0}, median {}; branching {:.1}; endless-move positions {:.1}% |",
                        solution.depth,
                        s.games,
                        pct(&s.south_wins),
                        pct(&s.north_wins),
                        pct(&s.draws),
                        s.plies.mean.mean,
                        s.plies.median,
                        s.branching.mean,
                        100.0 * s.endless_share.mean
                    )
                }
            };
            eprintln!(
                "{preset}, {}: {}",
                reading.name,
                row.split(" | ").next().unwrap_or("")
            );
            page.push_str(&format!("| {} | {row}\n", reading.name));
        }
    }
    if super::interrupt::requested() {
        // A page cut short would replace a whole one: the rows done are shown instead.
        super::emit(&page)?;
        super::interrupt::exit(&format!(
            "the rows above are those finished; {} was not written (the same command makes the page again)",
            args.out
        ));
    }
    page.push_str(&kept_sections(&args.out));
    isolo_rules::write_bytes_whole(args.out.as_ref(), page.as_bytes())
        .map_err(|e| CliError(format!("--out: cannot write {}: {e}", args.out)))
}

/// The headings of the page's last sections, which scripts write and a regenerated
/// page keeps: the Igisoro family's table (`scripts/family-table.sh`), then the
/// solve-table results (`scripts/solve-tables.sh`).
const KEPT_SECTIONS: [&str; 2] = ["\n## The Igisoro family\n", "\n## Solved boards\n"];

/// The largest page `results` reads back.
const MAX_PAGE_BYTES: u64 = 16 << 20;

/// The page at `path`, if there is one to read.
fn read_page(path: &str) -> Option<String> {
    isolo_rules::read_text_file(std::path::Path::new(path), MAX_PAGE_BYTES).ok()
}

/// The kept sections of the page at `path` (`KEPT_SECTIONS`), from the first it has.
fn kept_sections(path: &str) -> String {
    read_page(path)
        .and_then(|page| {
            let at = KEPT_SECTIONS.iter().filter_map(|h| page.find(h)).min()?;
            Some(page[at..].to_string())
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_regenerated_page_keeps_the_family_table_and_the_solved_boards() {
        let dir = std::env::temp_dir().join(format!("isolo-ai-results-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("page.md");
        let page = |text: &str| {
            std::fs::write(&path, text).unwrap();
            kept_sections(path.to_str().unwrap())
        };
        let tail = "\n## The Igisoro family\n\nrows\n\n## Solved boards\n\ncells\n";
        assert_eq!(page(&format!("# Results\n\n## igisoro\n{tail}")), tail);
        assert_eq!(
            page("# Results\n\n## Solved boards\n\ncells\n"),
            "\n## Solved boards\n\ncells\n"
        );
        assert_eq!(page("# Results\n\n## igisoro\n"), "");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
