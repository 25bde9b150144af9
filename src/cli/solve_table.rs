//! `isolo-ai solve-table`: solves a preset's start over board widths and seed counts
//! within a budget a cell, and writes the table (Markdown and CSV) with each result's
//! checked certificate.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::Args;
use serde_json::json;

use super::{emit, emit_json, CliError, CliResult};
use isolo_engine::prove::alphabeta::{AbVerdict, Prover};
use isolo_engine::prove::certificate::{self, Certificate, DrawCertificate};
use isolo_engine::prove::dfpn::{self, DfpnLimits, DfpnVerdict, Sought};
use isolo_engine::prove::retrograde::{self, RetroLimits, RetroVerdict};
use isolo_rules::rules_file::{pattern_start, preset_family};
use isolo_rules::{Board, Move, Rules, Side, Variant};

#[derive(Args, Debug)]
pub struct SolveTableArgs {
    /// A preset or named reading (isolo-women, isolo-boys, igisoro,
    /// isolo-women-capture-ends, isolo-boys-capture-ends)
    #[arg(long, value_name = "NAME")]
    pub preset: String,
    /// Change a rule in every cell, as a rules file line would (repeatable):
    /// `--set capture=both`
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
    /// Board widths (columns): A..B or a list such as 4,6,8
    #[arg(long, default_value = "2..8")]
    pub widths: String,
    /// Seeds where the preset's start has 2 (Isolo) or 4 (Igisoro): A..B or a list
    #[arg(long, default_value = "1..4")]
    pub seeds: String,
    /// Time a cell in milliseconds
    #[arg(long = "time-ms", default_value_t = 10_000, value_parser = super::ranges::TIME_MS)]
    pub time_ms: u64,
    /// Positions df-pn expands at most a cell (default: no limit but the time)
    #[arg(long, value_name = "N", value_parser = super::ranges::NODES)]
    pub nodes: Option<u64>,
    /// Longest line df-pn follows, in plies
    #[arg(long = "max-plies", default_value_t = 1000, value_parser = super::ranges::PROOF_PLIES)]
    pub max_plies: u32,
    /// Longest result the alpha-beta prover looks for (it gives exact lengths), in plies
    #[arg(long = "ab-plies", default_value_t = 30, value_parser = super::ranges::DEPTH)]
    pub ab_plies: u32,
    /// Table size in MB for each prover
    #[arg(long, default_value_t = 64, value_parser = super::ranges::HASH_MB)]
    pub hash: usize,
    /// Threads: Lazy SMP for the alpha-beta prover, agents on one table for df-pn
    #[arg(long, default_value_t = 1, value_parser = super::ranges::THREADS)]
    pub threads: usize,
    /// Write the Markdown table to FILE as well as printing it
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Write the cells as CSV to FILE
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Write each result's certificate to DIR (gzip-compressed)
    #[arg(long, value_name = "DIR")]
    pub certificates: Option<PathBuf>,
    /// Print machine-readable JSON instead of Markdown
    #[arg(long)]
    pub json: bool,
}

/// Widths and seed counts a table may ask for.
const SEEDS_RANGE: std::ops::RangeInclusive<u8> = 1..=8;

/// The share of a cell's time the alpha-beta prover gets for an exact length.
const AB_SHARE: u32 = 4;

/// Position lines past which a draw gets no certificate in the table (its two sets can
/// hold millions of positions where retrograde analysis listed tens of millions).
const DRAW_CERTIFICATE_CAP: usize = 2_000_000;

/// Positions past which the alpha-beta prover's proof is not walked for a certificate.
const AB_CERTIFICATE_CAP: usize = 500_000;

/// A cell's value for South, who moves first.
#[derive(Clone, Debug, PartialEq)]
enum Value {
    Win,
    Loss,
    /// Neither side can force a win (retrograde analysis).
    Draw,
    Open,
    /// The rules refuse this start (the error).
    Invalid(String),
}

/// One cell of the table.
struct Cell {
    columns: u8,
    seeds: u8,
    value: Value,
    /// The exact length, from the alpha-beta prover.
    plies: Option<u32>,
    /// The longest line of the checked certificate.
    depth: Option<u32>,
    nodes: u64,
    time: Duration,
    /// The certificate's position lines and compressed bytes.
    certificate: Option<(usize, usize)>,
}

pub fn run(args: &SolveTableArgs) -> CliResult {
    let base = base_rules(args)?;
    let family = preset_family(&args.preset).ok_or_else(|| {
        CliError(format!(
            "--preset: '{}' is not a preset or named reading ({})",
            args.preset,
            isolo_rules::preset_names()
        ))
    })?;
    let widths = parse_range("--widths", &args.widths, 2..=8)?;
    let seeds = parse_range("--seeds", &args.seeds, SEEDS_RANGE)?;
    super::check_hash(args.hash)?;
    if let Some(dir) = &args.certificates {
        std::fs::create_dir_all(dir)
            .map_err(|e| CliError(format!("--certificates {}: {e}", dir.display())))?;
    }
    let threads = super::ranges::search_threads("--threads", args.threads);
    let mut cells = Vec::new();
    for &columns in &widths {
        for &k in &seeds {
            let cell = solve_cell(args, threads, &base, family, columns, k)?;
            eprintln!(
                "{}, {}: {} ({} nodes, {} ms)",
                super::plural(columns as u64, "column", "columns"),
                super::plural(k as u64, "seed", "seeds"),
                value_text(&cell),
                cell.nodes,
                cell.time.as_millis()
            );
            cells.push(cell);
        }
    }
    let markdown = markdown(args, &base, &widths, &seeds, &cells);
    if let Some(path) = &args.out {
        std::fs::write(path, &markdown)
            .map_err(|e| CliError(format!("--out {}: {e}", path.display())))?;
    }
    if let Some(path) = &args.csv {
        std::fs::write(path, csv(&cells))
            .map_err(|e| CliError(format!("--csv {}: {e}", path.display())))?;
    }
    if args.json {
        return emit_json(&json!({
            "preset": args.preset,
            "set": args.set,
            "time_ms": args.time_ms,
            "cells": cells.iter().map(cell_json).collect::<Vec<_>>(),
        }));
    }
    emit(&markdown)
}

/// The preset's rules with `--set` applied, through the rules-file reader (so a bad key
/// or value gets its error).
fn base_rules(args: &SolveTableArgs) -> Result<Rules, CliError> {
    let mut toml = format!("base = \"{}\"\n", args.preset.replace(['"', '\\'], ""));
    for change in &args.set {
        let Some((key, value)) = change.split_once('=') else {
            return Err(CliError(format!(
                "--set: expected KEY=VALUE, found '{change}'"
            )));
        };
        let (key, value) = (key.trim(), value.trim());
        if ["columns", "start", "base", "name"].contains(&key) {
            return Err(CliError(format!(
                "--set: '{key}' is not for --set (the table sets columns and start; --preset names the base)"
            )));
        }
        let literal = value == "true" || value == "false" || value.parse::<u64>().is_ok();
        let value = if literal {
            value.to_string()
        } else {
            format!("\"{}\"", value.replace(['"', '\\'], ""))
        };
        writeln!(toml, "{key} = {value}").expect("writing to a string");
    }
    Rules::from_toml(&toml, &args.preset).map_err(|e| CliError(format!("--preset/--set: {e}")))
}

/// `A..B` or a comma-separated list, each within `allowed`.
fn parse_range(
    flag: &str,
    text: &str,
    allowed: std::ops::RangeInclusive<u8>,
) -> Result<Vec<u8>, CliError> {
    let bad = || {
        CliError(format!(
            "{flag}: expected A..B or a list such as 2,4 within {}..{}, found '{text}'",
            allowed.start(),
            allowed.end()
        ))
    };
    let number = |t: &str| t.trim().parse::<u8>().ok().filter(|n| allowed.contains(n));
    let list: Vec<u8> = match text.split_once("..") {
        Some((a, b)) => {
            let (a, b) = (number(a).ok_or_else(bad)?, number(b).ok_or_else(bad)?);
            if a > b {
                return Err(bad());
            }
            (a..=b).collect()
        }
        None => text
            .split(',')
            .map(|t| number(t).ok_or_else(bad))
            .collect::<Result<_, _>>()?,
    };
    Ok(list)
}

/// Solves the start on `columns` columns with `seeds`: the alpha-beta prover first (a
/// quarter of the time, for an exact length), then df-pn (a proof where alpha-beta found
/// none, and the certificate) to half of it, then retrograde analysis (draws, and the
/// values of small games); a win's or loss's certificate is checked.
fn solve_cell(
    args: &SolveTableArgs,
    threads: usize,
    base: &Rules,
    family: &str,
    columns: u8,
    seeds: u8,
) -> Result<Cell, CliError> {
    let started = Instant::now();
    let mut cell = Cell {
        columns,
        seeds,
        value: Value::Open,
        plies: None,
        depth: None,
        nodes: 0,
        time: Duration::ZERO,
        certificate: None,
    };
    let mut rules = base.clone();
    rules.columns = columns;
    rules.start = pattern_start(family, columns, seeds).expect("presets have patterns");
    rules.name = format!("{}, {columns} columns, {seeds} seeds", base.name);
    let variant = match Variant::new(rules) {
        Ok(v) => v,
        Err(e) => {
            cell.value = Value::Invalid(e.to_string());
            return Ok(cell);
        }
    };
    let board = variant.start();
    let time = Duration::from_millis(args.time_ms);
    let mut prover =
        Prover::new(&variant, threads, args.hash).map_err(|e| CliError(format!("--hash: {e}")))?;
    let ab = prover.solve(&board, &[], args.ab_plies, Some(time / AB_SHARE));
    cell.nodes += ab.nodes;
    let limits = DfpnLimits {
        nodes: args.nodes.unwrap_or(u64::MAX),
        time: Some((time / 2).saturating_sub(started.elapsed())),
        max_depth: args.max_plies,
        table_entries: (args.hash << 20) / dfpn::BYTES_PER_ENTRY,
        strategy: true,
        threads,
        interrupt: None,
        sought: Sought::Either,
    };
    let proof = dfpn::solve(&variant, &board, &[], limits, &|_| {});
    cell.nodes += proof.nodes;
    let mover_wins = match (ab.verdict, proof.verdict) {
        (AbVerdict::Win(_), DfpnVerdict::Loss) | (AbVerdict::Loss(_), DfpnVerdict::Win) => {
            return Err(CliError(format!(
                "internal error (please report): the provers disagree on {}",
                variant.format_position(&board)
            )))
        }
        (AbVerdict::Win(p), _) => (Some(true), Some(p)),
        (AbVerdict::Loss(p), _) => (Some(false), Some(p)),
        (AbVerdict::Unknown, DfpnVerdict::Win) => (Some(true), None),
        (AbVerdict::Unknown, DfpnVerdict::Loss) => (Some(false), None),
        (AbVerdict::Unknown, DfpnVerdict::Unknown) => (None, None),
    };
    let (wins, plies, strategy) = match mover_wins {
        (Some(wins), plies) => {
            let strategy = match proof.strategy {
                Some(Ok(strategy)) => Some(strategy),
                _ => prover
                    .proof(&board, &[], ab.verdict, AB_CERTIFICATE_CAP)
                    .map(|p| p.strategy),
            };
            (wins, plies, strategy)
        }
        (None, _) => {
            let limits = RetroLimits {
                positions: (args.hash << 20) / retrograde::BYTES_PER_POSITION,
                time: Some(time.saturating_sub(started.elapsed())),
                strategy: true,
            };
            let retro = retrograde::solve(&variant, &board, limits);
            cell.nodes += retro.expanded as u64;
            let wins = match retro.verdict {
                RetroVerdict::Win => true,
                RetroVerdict::Loss => false,
                RetroVerdict::Draw | RetroVerdict::Unknown => {
                    if let Some(holds) = retro.holds {
                        cell.value = Value::Draw;
                        certify_draw(args, &variant, &board, holds, &mut cell)?;
                    }
                    cell.time = started.elapsed();
                    return Ok(cell);
                }
            };
            (wins, None, retro.strategy)
        }
    };
    cell.value = if wins { Value::Win } else { Value::Loss };
    cell.plies = plies;
    let winner = if wins { Side::South } else { Side::North };
    if let Some(strategy) = strategy {
        // (Without one, the proof's table was lost: the cell has no certificate.)
        certify(args, &variant, &board, winner, plies, strategy, &mut cell)?;
    }
    cell.time = started.elapsed();
    Ok(cell)
}

/// Checks the cell's certificate with the rules alone and records its size; writes it
/// under `--certificates`. A certificate that fails is an error (a prover's bug).
fn certify(
    args: &SolveTableArgs,
    variant: &Variant,
    board: &Board,
    winner: Side,
    plies: Option<u32>,
    strategy: Vec<(Board, Move)>,
    cell: &mut Cell,
) -> CliResult {
    let certificate = Certificate {
        rules: variant.rules().clone(),
        start: *board,
        moves: Vec::new(),
        winner,
        plies,
        strategy,
    };
    let checked = certificate::check(&certificate).map_err(|e| {
        CliError(format!(
            "internal error (please report): the certificate of {} fails its check: {e}",
            variant.format_position(board)
        ))
    })?;
    cell.depth = Some(checked.depth);
    let bytes = certificate
        .to_gzip()
        .map_err(|e| CliError(format!("certificate: {e}")))?;
    cell.certificate = Some((certificate.strategy.len(), bytes.len()));
    write_certificate(args, cell, &bytes)
}

/// `isolo-boys-capture=both-w5-s2.proof.gz`.
/// A draw's certificate, as `certify` does a win's; none past `DRAW_CERTIFICATE_CAP`.
fn certify_draw(
    args: &SolveTableArgs,
    variant: &Variant,
    board: &Board,
    holds: [isolo_engine::prove::retrograde::Holding; 2],
    cell: &mut Cell,
) -> CliResult {
    if holds[0].len() + holds[1].len() > DRAW_CERTIFICATE_CAP {
        return Ok(());
    }
    let certificate = DrawCertificate {
        rules: variant.rules().clone(),
        start: *board,
        moves: Vec::new(),
        holds,
    };
    certificate::check_draw(&certificate).map_err(|e| {
        CliError(format!(
            "internal error (please report): the draw certificate of {} fails its check: {e}",
            variant.format_position(board)
        ))
    })?;
    let bytes = certificate
        .to_gzip()
        .map_err(|e| CliError(format!("certificate: {e}")))?;
    let lines = certificate.holds[0].len() + certificate.holds[1].len();
    cell.certificate = Some((lines, bytes.len()));
    write_certificate(args, cell, &bytes)
}

/// Writes a cell's compressed certificate under `--certificates`, if asked.
fn write_certificate(args: &SolveTableArgs, cell: &Cell, bytes: &[u8]) -> CliResult {
    if let Some(dir) = &args.certificates {
        let path = dir.join(certificate_name(
            &args.preset,
            &args.set,
            cell.columns,
            cell.seeds,
        ));
        std::fs::write(&path, bytes)
            .map_err(|e| CliError(format!("--certificates {}: {e}", path.display())))?;
    }
    Ok(())
}

fn certificate_name(preset: &str, set: &[String], columns: u8, seeds: u8) -> String {
    let mut name = preset.to_string();
    for change in set {
        name.push('-');
        name.extend(
            change
                .chars()
                .filter(|c| c.is_ascii_alphanumeric() || "=_-".contains(*c)),
        );
    }
    format!("{name}-w{columns}-s{seeds}.proof.gz")
}

/// The value for South: `win 15` (exact), `win ≤23` (the certificate's longest line),
/// `loss ...`, `open`, or `invalid`.
fn value_text(cell: &Cell) -> String {
    let word = match &cell.value {
        Value::Win => "win",
        Value::Loss => "loss",
        Value::Draw => return "draw".into(),
        Value::Open => return "open".into(),
        Value::Invalid(_) => return "invalid".into(),
    };
    match (cell.plies, cell.depth) {
        (Some(p), _) => format!("{word} {p}"),
        (None, Some(d)) => format!("{word} ≤{d}"),
        (None, None) => word.to_string(),
    }
}

fn markdown(
    args: &SolveTableArgs,
    base: &Rules,
    widths: &[u8],
    seeds: &[u8],
    cells: &[Cell],
) -> String {
    let mut out = String::new();
    let changes = if args.set.is_empty() {
        String::new()
    } else {
        format!(" with {}", args.set.join(", "))
    };
    let per = if base.name.starts_with("igisoro") {
        "a back-row pit"
    } else {
        "where the preset has 2"
    };
    let _ = writeln!(
        out,
        "### {}{changes}: the start on W columns with K seeds {per}\n",
        args.preset
    );
    let _ = writeln!(
        out,
        "Value for South, who moves first: \"win 15\" is a win in exactly 15 plies (the \
         alpha-beta prover), \"win ≤23\" a win proven by df-pn or retrograde analysis \
         whose certificate's longest line is 23 plies, \"loss 0\" a start where South \
         cannot move, \"draw\" a start from which neither side can force a win \
         (retrograde analysis; a third repetition draws), \"open\" undecided within {} ms \
         a cell. Every certificate was checked with the rules alone (a draw's: the \
         positions each side keeps to, never without a move; none past {DRAW_CERTIFICATE_CAP} \
         positions).\n",
        args.time_ms
    );
    let _ = writeln!(
        out,
        "| columns | {} |",
        seeds
            .iter()
            .map(|k| format!("K = {k}"))
            .collect::<Vec<_>>()
            .join(" | ")
    );
    let _ = writeln!(out, "|---|{}", "---|".repeat(seeds.len()));
    for &w in widths {
        let row: Vec<String> = cells
            .iter()
            .filter(|c| c.columns == w)
            .map(value_text)
            .collect();
        let _ = writeln!(out, "| {w} | {} |", row.join(" | "));
    }
    let _ = writeln!(
        out,
        "\n| columns | seeds | value | nodes | time (ms) | certificate |\n|---|---|---|---|---|---|"
    );
    for c in cells {
        let certificate = match (c.certificate, &c.value) {
            (Some((lines, bytes)), Value::Draw) => format!(
                "{} held, {bytes} bytes gzip",
                super::plural(lines as u64, "position", "positions")
            ),
            (Some((lines, bytes)), _) => format!(
                "{}, {bytes} bytes gzip",
                super::plural(lines as u64, "move", "moves")
            ),
            (None, Value::Invalid(e)) => e.clone(),
            (None, _) => "-".into(),
        };
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {certificate} |",
            c.columns,
            c.seeds,
            value_text(c),
            c.nodes,
            c.time.as_millis()
        );
    }
    out
}

fn csv(cells: &[Cell]) -> String {
    let mut out = String::from(
        "columns,seeds,value,plies,depth,nodes,time_ms,certificate_moves,certificate_bytes\n",
    );
    for c in cells {
        let (value, _) = value_word(&c.value);
        let opt = |v: Option<u32>| v.map(|v| v.to_string()).unwrap_or_default();
        let (moves, bytes) = c
            .certificate
            .map(|(m, b)| (m.to_string(), b.to_string()))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "{},{},{value},{},{},{},{},{moves},{bytes}",
            c.columns,
            c.seeds,
            opt(c.plies),
            opt(c.depth),
            c.nodes,
            c.time.as_millis()
        );
    }
    out
}

/// The value's word, and the rules' error for an invalid start.
fn value_word(value: &Value) -> (&'static str, Option<&str>) {
    match value {
        Value::Win => ("win", None),
        Value::Loss => ("loss", None),
        Value::Draw => ("draw", None),
        Value::Open => ("open", None),
        Value::Invalid(e) => ("invalid", Some(e)),
    }
}

fn cell_json(c: &Cell) -> serde_json::Value {
    let (value, error) = value_word(&c.value);
    json!({
        "columns": c.columns,
        "seeds": c.seeds,
        "value": value,
        "plies": c.plies,
        "depth": c.depth,
        "nodes": c.nodes,
        "time_ms": c.time.as_millis() as u64,
        "certificate_moves": c.certificate.map(|c| c.0),
        "certificate_bytes": c.certificate.map(|c| c.1),
        "error": error,
    })
}
