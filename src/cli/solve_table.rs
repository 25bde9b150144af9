//! `isolo-ai solve-table`: solves a preset's start over board widths and seed counts
//! within a budget a cell, and writes the table (Markdown and CSV) with each result's
//! checked certificate.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;
use serde_json::json;

use super::{emit, emit_json, CliError, CliResult};
use isolo_engine::research::solve_table::{
    solve_cell, Cell, CellSettings, CellValue as Value, DRAW_CERTIFICATE_CAP,
};
use isolo_rules::preset_family;
use isolo_rules::Rules;

#[derive(Args, Debug)]
pub(crate) struct SolveTableArgs {
    /// A preset or named reading (`isolo-ai variants` lists them)
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

/// A cell the run did not reach (Ctrl-C stopped it first).
const NOT_REACHED: &str = "not reached (interrupted)";

/// Widths and seed counts a table may ask for.
const SEEDS_RANGE: std::ops::RangeInclusive<u8> = 1..=8;

pub(crate) fn run(args: &SolveTableArgs) -> CliResult {
    let base = base_rules(args)?;
    let family = preset_family(&args.preset).ok_or_else(|| {
        CliError(format!(
            "--preset: '{}' is not a preset or named reading ({})",
            args.preset,
            isolo_rules::preset_names()
        ))
    })?;
    let family_start = isolo_rules::Rules::preset(family).map(|r| r.start());
    let named = isolo_rules::Rules::preset(&args.preset).map(|r| r.start());
    if named != family_start {
        return Err(CliError(format!(
            "--preset: '{}' starts from its own array, not {family}'s pattern, which the table widens: use --preset {family}",
            args.preset
        )));
    }
    let widths = parse_range("--widths", &args.widths, 2..=8)?;
    let seeds = parse_range("--seeds", &args.seeds, SEEDS_RANGE)?;
    super::check_hash(args.hash)?;
    for (flag, path) in [("--out", &args.out), ("--csv", &args.csv)] {
        if let Some(path) = path {
            super::check_output(flag, path)?;
        }
    }
    if let Some(dir) = &args.certificates {
        if dir.exists() && !dir.is_dir() {
            return Err(CliError(format!(
                "--certificates {}: not a folder (the certificates are written into one)",
                dir.display()
            )));
        }
        std::fs::create_dir_all(dir)
            .map_err(|e| CliError(format!("--certificates {}: {e}", dir.display())))?;
    }
    let settings = CellSettings {
        time: Duration::from_millis(args.time_ms),
        nodes: args.nodes,
        max_plies: args.max_plies,
        ab_plies: args.ab_plies,
        hash_mb: args.hash,
        threads: super::ranges::search_threads("--threads", args.threads),
        interrupt: Some(super::interrupt::flag()),
    };
    let mut cells = Vec::new();
    'table: for &columns in &widths {
        for &k in &seeds {
            let cell = solve_cell(&base, family, columns, k, &settings)
                .map_err(|e| CliError(e.to_string()))?;
            if cell.interrupted && cell.value == Value::Open {
                break 'table; // (cut short: the cell was not given its budget)
            }
            write_certificate(args, &cell)?;
            eprintln!(
                "{}, {}: {} ({} nodes, {} ms)",
                super::plural(columns as u64, "column", "columns"),
                super::plural(k as u64, "seed", "seeds"),
                value_text(&cell),
                cell.nodes,
                cell.time.as_millis()
            );
            let interrupted = cell.interrupted;
            cells.push(cell);
            if interrupted {
                break 'table;
            }
        }
    }
    let interrupted = super::interrupt::requested();
    let markdown = markdown(args, &base, &widths, &seeds, &cells);
    if let Some(path) = &args.out {
        isolo_rules::write_bytes_whole(path, markdown.as_bytes())
            .map_err(|e| CliError(format!("--out {}: {e}", path.display())))?;
    }
    if let Some(path) = &args.csv {
        isolo_rules::write_bytes_whole(path, csv(&cells).as_bytes())
            .map_err(|e| CliError(format!("--csv {}: {e}", path.display())))?;
    }
    let shown = if args.json {
        let mut value = json!({
            "preset": args.preset,
            "set": args.set,
            "time_ms": args.time_ms,
            "cells": cells.iter().map(cell_json).collect::<Vec<_>>(),
        });
        if interrupted {
            value["interrupted"] = json!(true);
        }
        emit_json(&value)
    } else {
        emit(&markdown)
    };
    if interrupted {
        super::interrupt::exit(&format!(
            "{} of {} cells solved before it; the same command solves the table again",
            cells.len(),
            widths.len() * seeds.len()
        ));
    }
    shown
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

/// Writes a cell's compressed certificate under `--certificates`, if asked.
fn write_certificate(args: &SolveTableArgs, cell: &Cell) -> CliResult {
    if let (Some(dir), Some(certificate)) = (&args.certificates, &cell.certificate) {
        let path = dir.join(certificate_name(
            &args.preset,
            &args.set,
            cell.columns,
            cell.seeds,
        ));
        isolo_rules::write_bytes_whole(&path, &certificate.gzip)
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
    let per = match isolo_rules::preset_family(base.name()) {
        Some("igisoro") => "a back-row pit",
        Some("kubuguza") => "a front-row pit",
        Some("ikibuguzo") => "a back-row pit, sown out by the opening turns",
        _ => "where the preset has 2",
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
        let row: Vec<String> = seeds
            .iter()
            .map(|&k| {
                cells
                    .iter()
                    .find(|c| (c.columns, c.seeds) == (w, k))
                    .map_or_else(|| NOT_REACHED.to_string(), value_text)
            })
            .collect();
        let _ = writeln!(out, "| {w} | {} |", row.join(" | "));
    }
    let _ = writeln!(
        out,
        "\n| columns | seeds | value | nodes | time (ms) | certificate |\n|---|---|---|---|---|---|"
    );
    for c in cells {
        let certificate = match (size(c), &c.value) {
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
        let (moves, bytes) = size(c)
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

/// A cell's certificate's position lines and compressed bytes.
fn size(c: &Cell) -> Option<(usize, usize)> {
    c.certificate.as_ref().map(|k| (k.lines, k.gzip.len()))
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
        "certificate_moves": size(c).map(|(lines, _)| lines),
        "certificate_bytes": size(c).map(|(_, bytes)| bytes),
        "error": error,
    })
}
