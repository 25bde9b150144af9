//! `isolo-ai match`: two engines play colour-reversed pairs of games; Elo from
//! pentanomial pair outcomes, optional SPRT, records, resume, progress bar.

use std::path::Path;

use clap::Args;
use indicatif::ProgressBar;
use serde_json::json;

use super::{emit, emit_json, CliError, CliResult};
use isolo_engine::matches::engine::{EngineKind, EngineSpec};
use isolo_engine::matches::external::DEFAULT_HANDSHAKE_TIMEOUT;
use isolo_engine::matches::game_loop::{DEFAULT_GAME_PLIES, DEFAULT_TIME_MARGIN};
use isolo_engine::matches::openings::load_suite;
use isolo_engine::matches::records::{self, Header, Record, Resumed, RunRecordsError};
use isolo_engine::matches::runner::{self, PlaySettings, RunOutcome};
use isolo_engine::matches::schedule::{Schedule, Shard};
use isolo_engine::matches::tally::{Forfeits, MatchTally};
use isolo_engine::search::clock::TimeControl;
use isolo_engine::stats::{elo_estimate, Sprt, SprtVerdict};
use isolo_rules::Variant;

/// Options shared by `match` and `tournament`.
#[derive(Args, Debug, Clone)]
pub(crate) struct RunArgs {
    /// A preset or a rules file
    #[arg(long, value_name = "NAME|FILE")]
    pub variant: String,
    /// An engine spec (random, greedy, ab:depth=6, mcts:time-ms=100, label=spec,
    /// NAME=cmd:"PROGRAM ARGS",option.X=Y, any with tc=BASE+INC, ...)
    #[arg(long = "engine", value_name = "SPEC", required = true)]
    pub engines: Vec<String>,
    /// A clock for every engine without its own tc=: SECONDS+INCREMENT (e.g. 10+0.1)
    #[arg(long, value_name = "BASE+INC")]
    pub tc: Option<String>,
    /// How far past its clock a reply may come before it loses on time, in ms
    #[arg(long = "time-margin-ms", value_name = "MS", default_value_t = DEFAULT_TIME_MARGIN.as_millis() as u64, value_parser = super::ranges::MARGIN_MS)]
    pub time_margin_ms: u64,
    /// Write external engines' stderr and protocol exchanges to DIR/NAME-SLOT.log and
    /// DIR/NAME-SLOT.ugi.log
    #[arg(long = "engine-log", value_name = "DIR")]
    pub engine_log: Option<String>,
    /// How long an external engine may take to answer ugi and isready, in ms
    #[arg(long = "handshake-ms", value_name = "MS", default_value_t = DEFAULT_HANDSHAKE_TIMEOUT.as_millis() as u64, value_parser = super::ranges::WAIT_MS)]
    pub handshake_ms: u64,
    /// Games per pairing
    #[arg(long, default_value_t = 100, value_parser = super::ranges::GAMES)]
    pub games: u64,
    /// Opening suite: one position a line (default: the variant's start)
    #[arg(long, value_name = "FILE")]
    pub openings: Option<String>,
    /// Games played at once
    #[arg(long, default_value_t = 1, value_parser = super::ranges::CONCURRENCY)]
    pub concurrency: usize,
    /// Master seed; each game's seed derives from it and the game's index
    #[arg(long, default_value_t = 0, value_parser = super::ranges::SEED)]
    pub seed: u64,
    /// Plies after which a game is a draw
    #[arg(long = "max-plies", default_value_t = DEFAULT_GAME_PLIES, value_parser = super::ranges::GAME_PLIES)]
    pub max_plies: usize,
    /// Write one JSON line per finished game here
    #[arg(long, value_name = "FILE")]
    pub out: Option<String>,
    /// Continue the match recorded in --out
    #[arg(long)]
    pub resume: bool,
    /// Play only shard K of N (whole colour-reversed pairs, in turn); combine the
    /// shards' --out files with `isolo-ai merge`
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// Print machine-readable JSON instead of text
    #[arg(long)]
    pub json: bool,
}

/// The parsed, checked inputs of a run.
pub(crate) struct Prepared {
    pub variant: Variant,
    pub engines: Vec<EngineSpec>,
    pub schedule: Schedule,
    /// The `--shard` played, if one was given.
    pub shard: Option<Shard>,
    pub out: Option<records::RecordsWriter>,
    /// The records file's games to resume (counted and checked, not held).
    pub done: Resumed,
    pub settings: PlaySettings,
}

impl Prepared {
    /// Plays the schedule with a progress bar, on at most as many threads as games to
    /// play and cores (warning when the engines' threads outnumber the cores); `on_record` sees each record, the resumed
    /// ones first, in game order (and the bar, for its message) and says whether to
    /// stop.
    pub(crate) fn play(
        self,
        run: &RunArgs,
        mut on_record: impl FnMut(&Record, &ProgressBar) -> bool + Send,
    ) -> Result<RunOutcome, CliError> {
        let to_play = self.schedule.shard_len().saturating_sub(self.done.games);
        let concurrency =
            super::ranges::workers("--concurrency", run.concurrency, to_play, "games to play");
        warn_oversubscription(concurrency, &self.engines);
        let mut seen = 0;
        let bar = progress_bar(self.schedule.shard_len(), self.done.games);
        let outcome = runner::run(
            &self.variant,
            &self.engines,
            &self.schedule,
            self.done
                .records()
                .map_err(|e| CliError(format!("--resume: {e}")))?,
            concurrency,
            &self.settings,
            self.out,
            Some(super::interrupt::flag()),
            |record| {
                seen += 1;
                bar.set_position(seen);
                on_record(record, &bar)
            },
        )
        .map_err(|e| CliError(e.to_string()))?;
        bar.finish_and_clear();
        Ok(outcome)
    }
}

impl RunArgs {
    /// Loads everything and checks the options and the records to resume. `kind` is `match` or `tournament`.
    pub(crate) fn prepare(
        &self,
        kind: &str,
        pairings: Vec<(usize, usize)>,
    ) -> Result<Prepared, CliError> {
        let variant = Variant::load(&self.variant)?;
        let engines: Vec<EngineSpec> = self
            .engines
            .iter()
            .map(|s| EngineSpec::parse(s).map_err(|e| CliError(format!("--engine: {e}"))))
            .collect::<Result<_, _>>()?;
        for (i, e) in engines.iter().enumerate() {
            if engines[..i].iter().any(|o| o.label == e.label) {
                return Err(CliError(format!(
                    "--engine: two engines are labelled '{}': name them (fast=ab:depth=4)",
                    e.label
                )));
            }
        }
        // Before any file is written: the tables of the games at once, all together.
        let at_once = isolo_engine::matches::workers(self.concurrency, self.games);
        runner::check_memory(&engines, at_once)
            .map_err(|e| CliError(format!("--concurrency: {e}")))?;
        let (openings, source) = match &self.openings {
            Some(path) => (load_suite(&variant, path)?, path.clone()),
            None => (vec![variant.start()], "start".to_string()),
        };
        let shard = super::shard_option(self.shard.as_deref(), self.out.is_some())?;
        let schedule = Schedule::new(pairings, openings, self.games, self.seed)
            .with_shard(shard.unwrap_or(Shard::WHOLE));
        let settings = self.settings(&engines, &variant)?;
        warn_replayed_games(&engines, schedule.openings().len(), self.games);
        let clocked = engines.iter().any(|e| settings.clock_of(e).is_some());
        let header = Header::new(kind, &variant, &engines, &schedule, &source, self.max_plies)
            .with_clocks(
                settings.time_control.as_ref(),
                clocked.then_some(settings.margin),
            )
            .with_shard(shard);
        let (out, done) = self.open_records(&header, &schedule)?;
        Ok(Prepared {
            variant,
            engines,
            schedule,
            shard,
            out,
            done,
            settings,
        })
    }

    /// The clocks, logs and handshake time, checked; each external engine must start and
    /// complete the handshake once.
    fn settings(
        &self,
        engines: &[EngineSpec],
        variant: &Variant,
    ) -> Result<PlaySettings, CliError> {
        let variant_option = variant_option(&self.variant, variant)?;
        let mut settings = PlaySettings::new(self.max_plies, &variant_option);
        if let Some(text) = &self.tc {
            settings.time_control = Some(
                text.parse::<TimeControl>()
                    .map_err(|e| CliError(format!("--tc: {e}")))?,
            );
        }
        settings.margin = std::time::Duration::from_millis(self.time_margin_ms);
        settings.handshake = std::time::Duration::from_millis(self.handshake_ms);
        if let Some(dir) = &self.engine_log {
            std::fs::create_dir_all(dir)
                .map_err(|e| CliError(format!("--engine-log: cannot create {dir}: {e}")))?;
            settings.engine_log = Some(dir.into());
        }
        for engine in engines {
            if let EngineKind::External(config) = &engine.kind {
                isolo_engine::matches::external::check_handshake(
                    &engine.label,
                    config,
                    &variant_option,
                    settings.handshake,
                )
                .map_err(|e| {
                    CliError(format!(
                        "--engine {}: refused before the first game: {e}",
                        engine.label
                    ))
                })?;
            }
        }
        Ok(settings)
    }

    /// The records file: new (with its header), or, with `--resume`, the games it holds
    /// once they are checked, a record at a time, to be the first games of this very
    /// run.
    fn open_records(
        &self,
        header: &Header,
        schedule: &Schedule,
    ) -> Result<(Option<records::RecordsWriter>, Resumed), CliError> {
        let Some(path) = &self.out else {
            if self.resume {
                return Err(CliError(
                    "--resume needs --out FILE, the records to continue".into(),
                ));
            }
            return Ok((None, Resumed::default()));
        };
        super::check_output("--out", path)?;
        let opened = records::open_for_run(Path::new(path), header, schedule, self.resume);
        let (file, resumed) = opened.map_err(|e| match e {
            RunRecordsError::File(e) if !self.resume => CliError(format!(
                "--out: {e} (not resuming: choose another --out file)"
            )),
            RunRecordsError::File(e) => CliError(format!("--out: {e}")),
            RunRecordsError::HoldsRecords(_) => CliError(format!(
                "--out: {e}: add --resume to continue, or choose another file"
            )),
            RunRecordsError::NotThisRun(_) => CliError(format!("--resume: {e}")),
        })?;
        Ok((Some(file), resumed))
    }
}

/// What external engines are told `variant` (given as `given`) is: a RULES.md preset by name, anything
/// else as a rules file that holds its rules (the file's full path, or for a named
/// reading a file written to the temporary folder), so that engines which know only the
/// presets and rules files (an older isolo-ai, say) play the same rules.
fn variant_option(given: &str, variant: &Variant) -> Result<String, CliError> {
    if isolo_rules::PRESETS.contains(&given) {
        return Ok(given.to_string());
    }
    if let Ok(path) = std::fs::canonicalize(given) {
        if path.is_file() {
            return Ok(path.display().to_string());
        }
    }
    let rules = variant.rules().to_toml();
    let path = std::env::temp_dir().join(format!("isolo-ai-rules-{given}.toml"));
    std::fs::write(&path, rules)
        .map_err(|e| CliError(format!("cannot write {}: {e}", path.display())))?;
    Ok(path.display().to_string())
}

/// Deterministic engines replay the same game from the same opening and colours: say so
/// when a run would repeat games.
fn warn_replayed_games(engines: &[EngineSpec], openings: usize, games: u64) {
    let deterministic = engines.iter().all(EngineSpec::is_deterministic);
    if deterministic && games > 2 * openings as u64 {
        eprintln!(
            "warning: every engine is deterministic (alpha-beta with a depth or node limit and one thread): {games} games from {} repeat the same {}; use --openings with more positions",
            super::plural(openings as u64, "opening", "openings"),
            super::plural(2 * openings as u64, "game", "games")
        );
    }
}

/// Threads a search may use at most under a spec.
fn engine_threads(spec: &EngineSpec) -> usize {
    match &spec.kind {
        EngineKind::AlphaBeta(c) => c.threads,
        EngineKind::Mcts(c) => c.threads,
        // An external engine's threads are its own business (option.Threads...).
        _ => 1,
    }
}

fn warn_oversubscription(concurrency: usize, engines: &[EngineSpec]) {
    let cores = super::ranges::cores();
    let threads = concurrency * engines.iter().map(engine_threads).max().unwrap_or(1);
    if threads > cores {
        eprintln!("warning: {concurrency} games at once with up to {threads} search threads on {cores} cores: timed engines will be slowed");
    }
}

/// A progress bar of games on stderr (hidden when stderr is not a terminal).
pub(crate) fn progress_bar(total: u64, done: u64) -> ProgressBar {
    let bar = super::progress(total, "games");
    bar.set_position(done);
    bar
}

#[derive(Args, Debug)]
pub(crate) struct MatchArgs {
    #[command(flatten)]
    pub run: RunArgs,
    /// Stop when a GSPRT on pair outcomes decides: elo0,elo1,alpha,beta
    #[arg(long, value_name = "ELO0,ELO1,ALPHA,BETA", allow_hyphen_values = true)]
    pub sprt: Option<String>,
}

/// `forfeits: b 2 (crash 1, time-forfeit 1)`, or nothing when no game was forfeited.
pub(crate) fn forfeits_text(forfeits: &Forfeits) -> String {
    if forfeits.is_empty() {
        return String::new();
    }
    let engines: Vec<String> = forfeits
        .by_engine()
        .map(|(engine, reasons)| {
            let total: u64 = reasons.values().sum();
            let each: Vec<String> = reasons.iter().map(|(r, n)| format!("{r} {n}")).collect();
            format!("{engine} {total} ({})", each.join(", "))
        })
        .collect();
    format!("forfeits: {}\n", engines.join("; "))
}

pub(crate) fn run(args: &MatchArgs) -> CliResult {
    let run = &args.run;
    if run.engines.len() != 2 {
        return Err(CliError(format!(
            "match takes exactly two --engine, found {} (use tournament for more)",
            run.engines.len()
        )));
    }
    let sprt = match &args.sprt {
        Some(text) => Some(Sprt::parse(text).map_err(|e| CliError(format!("--sprt: {e}")))?),
        None => None,
    };
    if sprt.is_some() && run.shard.is_some() {
        return Err(CliError(
            "--sprt with --shard: a shard cannot stop the match on its own; give --sprt to isolo-ai merge, which evaluates it over the merged games".into(),
        ));
    }
    let prepared = run.prepare("match", vec![(0, 1)])?;
    let variant = prepared.variant.name().to_string();
    let shard = prepared.shard;
    let (a, b) = (
        prepared.engines[0].label.clone(),
        prepared.engines[1].label.clone(),
    );
    let mut tally = MatchTally::new(&a, &b, sprt);
    let outcome = prepared.play(run, |record, bar| {
        let decided = tally.add(record);
        // (A hidden bar shows nothing: its message is not worth making game by game.)
        if !bar.is_hidden() {
            let t = tally.tally();
            let elo = elo_estimate(&t.pentanomial)
                .map(|e| format!("  Elo {:+.1}", e.elo))
                .unwrap_or_default();
            bar.set_message(format!("{a} +{} ={} -{}{elo}", t.a_wins, t.draws, t.b_wins));
        }
        decided
    })?;
    let notes = Notes {
        games_per_minute: Some(outcome.games_per_minute()),
        lines: shard_note(shard, outcome.games as u64),
        json: shard_json(shard),
        interrupted: outcome.interrupted,
    };
    let shown = report_match(&tally, &variant, &notes, run.json);
    exit_if_interrupted(&outcome, run);
    shown
}

/// `+12.3`, or `+inf` / `-inf` where the estimate has no finite value.
fn elo_text(elo: f64) -> String {
    if elo.is_finite() {
        format!("{:+.1}", elo + 0.0) // (+ 0.0 turns -0.0 into 0.0)
    } else if elo > 0.0 {
        "+inf".into()
    } else {
        "-inf".into()
    }
}

/// After a Ctrl-C: says how many games were kept and how to continue, and ends the
/// program with the interrupted status.
pub(crate) fn exit_if_interrupted(outcome: &RunOutcome, run: &RunArgs) {
    if !outcome.interrupted {
        return;
    }
    let kept = super::plural(outcome.games as u64, "game", "games");
    match &run.out {
        Some(path) => {
            let mut command: Vec<String> = std::env::args().map(|a| shell_quote(&a)).collect();
            if !run.resume {
                command.push("--resume".into());
            }
            eprintln!(
                "interrupted: {kept} recorded in {path}; continue with:\n  {}",
                command.join(" ")
            );
        }
        None => eprintln!("interrupted after {kept}; they were not recorded (no --out), so they cannot be resumed"),
    }
    std::process::exit(super::interrupt::exit_status());
}

/// A word as a POSIX shell reads it back.
fn shell_quote(word: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c);
    if !word.is_empty() && word.chars().all(plain) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// What a shard's run says after its summary.
pub(crate) fn shard_note(shard: Option<Shard>, games: u64) -> Vec<String> {
    let Some(shard) = shard else {
        return Vec::new();
    };
    vec![format!(
        "shard {shard}: {} of the run; combine the shards' records with isolo-ai merge",
        super::plural(games, "game", "games")
    )]
}

/// The shard a run played, as a JSON field (none for a whole run).
pub(crate) fn shard_json(shard: Option<Shard>) -> Option<(&'static str, serde_json::Value)> {
    shard.map(|s| ("shard", json!(s.to_string())))
}

/// What follows a summary: the playing rate (none when merged from shards) and notes.
pub(crate) struct Notes {
    /// Games per minute of this run.
    pub games_per_minute: Option<f64>,
    /// Lines after the summary's text.
    pub lines: Vec<String>,
    /// A field for the JSON (`shard` or `merge`) and its value.
    pub json: Option<(&'static str, serde_json::Value)>,
    /// Whether Ctrl-C stopped the run: the figures cover the games it played.
    pub interrupted: bool,
}

impl Notes {
    /// The playing rate and the note lines, as text.
    pub(crate) fn text(&self) -> String {
        let mut out = String::new();
        if let Some(rate) = self.games_per_minute {
            out.push_str(&format!("{rate:.1} games per minute\n"));
        }
        for line in &self.lines {
            out.push_str(line);
            out.push('\n');
        }
        if self.interrupted {
            out.push_str("interrupted (Ctrl-C): the figures above cover the games played\n");
        }
        out
    }

    /// The note's fields in a summary's JSON: its own field, and `"interrupted": true`
    /// after a Ctrl-C.
    pub(crate) fn add_json(&self, value: &mut serde_json::Value) {
        if let Some((key, extra)) = &self.json {
            value[*key] = extra.clone();
        }
        if self.interrupted {
            value["interrupted"] = json!(true);
        }
    }
}

/// A match's result as text or JSON: what `match` prints, and `merge` for a sharded
/// match.
pub(crate) fn report_match(
    tally: &MatchTally,
    variant: &str,
    notes: &Notes,
    json: bool,
) -> CliResult {
    if json {
        let mut value =
            serde_json::to_value(tally.report(notes.games_per_minute)).expect("reports serialise");
        notes.add_json(&mut value);
        return emit_json(&value);
    }
    let ((a, b), t) = (tally.engines(), tally.tally());
    let (games, score, draw_rate) = (t.games(), t.score(), t.draw_rate());
    let estimate = elo_estimate(&t.pentanomial);
    let mut out = format!("{a} vs {b} on {variant}: {games} games\n");
    out.push_str(&format!(
        "{a}: +{} ={} -{}  score {:.1}%  draws {:.1}%\n",
        t.a_wins,
        t.draws,
        t.b_wins,
        100.0 * score,
        100.0 * draw_rate
    ));
    match &estimate {
        Some(e) if e.caveat.is_some() => out.push_str(&format!(
            "Elo {} over {}: {}\n",
            elo_text(e.elo),
            super::plural(e.pairs, "pair", "pairs"),
            e.caveat.map(|c| c.describe()).unwrap_or_default()
        )),
        Some(e) => out.push_str(&format!(
            "Elo {} [{}, {}] (95%)  LOS {:.1}%  over {}\n",
            elo_text(e.elo),
            elo_text(e.elo_ci95[0]),
            elo_text(e.elo_ci95[1]),
            100.0 * e.los,
            super::plural(e.pairs, "pair", "pairs")
        )),
        None => out.push_str("Elo: no complete pair yet\n"),
    }
    out.push_str(&format!(
        "pentanomial [LL, LD, WL+DD, WD, WW]: {:?}\n",
        t.pentanomial
    ));
    out.push_str(&forfeits_text(tally.forfeits()));
    if let Some(s) = &tally.sprt_state() {
        let verdict = match s.verdict {
            SprtVerdict::H1 => {
                format!("H1 accepted: {a} is at least {} Elo stronger", s.elo1)
            }
            SprtVerdict::H0 => {
                format!("H0 accepted: {a} is at most {} Elo stronger", s.elo0)
            }
            SprtVerdict::Continue => "no verdict yet".to_string(),
        };
        out.push_str(&format!(
            "SPRT [{}, {}]: LLR {:.2} ({:.2}, {:.2}): {verdict}\n",
            s.elo0, s.elo1, s.llr, s.lower, s.upper
        ));
    }
    out.push_str(&notes.text());
    emit(&out)
}
