//! `isolo-ai merge`: combines the records files of a sharded match or tournament
//! (`--shard K/N`) into one records file in game order, after checking that the shards
//! belong to one run and together hold each of its games once, and prints the summary
//! one process would have printed. A match's SPRT is evaluated here, over the games in
//! order, stopping where one process would have stopped.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use clap::Args;
use serde_json::json;

use super::matches::{Notes, Report};
use super::tournament::{anchor_index, TournamentSummary};
use super::{CliError, CliResult};
use isolo_engine::matches::records::{self, Record, RecordsReader};
use isolo_engine::matches::schedule::{Schedule, Shard};
use isolo_engine::matches::tally::MatchSummary;
use isolo_engine::matches::tally::{Crosstable, Forfeits, RunningTally};
use isolo_engine::stats::{Sprt, SprtVerdict};

#[derive(Args, Debug)]
pub struct MergeArgs {
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

/// One shard's file, read record by record.
struct ShardFile {
    path: String,
    reader: RecordsReader,
    /// The shard its header names.
    shard: Shard,
    /// Its records read so far, and the last one's game.
    read: u64,
    previous: Option<u64>,
}

impl ShardFile {
    fn open(path: &str) -> Result<ShardFile, CliError> {
        let reader = RecordsReader::open(Path::new(path))
            .map_err(|e| CliError(e.to_string()))?
            .ok_or_else(|| {
                CliError(format!(
                    "{path}: no such records file, or it holds no header"
                ))
            })?;
        if reader.header.shard.is_none() {
            return Err(CliError(format!(
                "{path} holds a whole run, not a shard (its header names no shard): merge combines the --out files of runs with --shard K/N"
            )));
        }
        let shard = reader
            .header
            .shard()
            .map_err(|e| CliError(format!("{path}: {e}")))?;
        Ok(ShardFile {
            path: path.to_string(),
            reader,
            shard,
            read: 0,
            previous: None,
        })
    }

    /// Its next record, `None` at its end.
    fn next(&mut self) -> Result<Option<Record>, CliError> {
        let record = self
            .reader
            .next_record()
            .map_err(|e| CliError(e.to_string()))?;
        if let Some(r) = &record {
            self.read += 1;
            self.previous = Some(r.game);
        }
        Ok(record)
    }
}

/// One shard's file as `check_shard_set` sees it.
struct ShardId<'a> {
    path: &'a str,
    shard: Shard,
    fingerprint: &'a str,
    /// How its header differs from the first file's (apart from the shard).
    differences: Vec<String>,
}

/// Checks that `files` are the N shards of one `run` ("run", "comparison"), each once;
/// returns their indices in shard order.
fn check_shard_set(files: &[ShardId], run: &str) -> Result<Vec<usize>, CliError> {
    let first = &files[0];
    let count = first.shard.count;
    for file in files {
        if file.fingerprint != first.fingerprint {
            let differences = file
                .differences
                .join("; ")
                .replace(" here, ", &format!(" in {}, ", first.path))
                .replace(" in the file", &format!(" in {}", file.path));
            return Err(CliError(format!(
                "{} is not a shard of the same {run} as {} (fingerprint {}, not {}): {differences}",
                file.path, first.path, file.fingerprint, first.fingerprint
            )));
        }
        if file.shard.count != count {
            return Err(CliError(format!(
                "{} is shard {} but {} is of {count} shards: the {run} was split two ways",
                file.path, file.shard, first.path
            )));
        }
    }
    let mut order: Vec<usize> = (0..files.len()).collect();
    order.sort_by_key(|&i| files[i].shard.index);
    for pair in order.windows(2) {
        let (a, b) = (&files[pair[0]], &files[pair[1]]);
        if a.shard == b.shard {
            return Err(CliError(format!(
                "{} and {} are both shard {}",
                a.path, b.path, a.shard
            )));
        }
    }
    let missing: Vec<String> = (0..count)
        .filter(|&k| !files.iter().any(|f| f.shard.index == k))
        .map(|k| format!("{}/{count}", k + 1))
        .collect();
    if !missing.is_empty() {
        return Err(CliError(format!(
            "shard {} missing: no file given holds {}",
            missing.join(", "),
            if missing.len() == 1 { "it" } else { "them" }
        )));
    }
    Ok(order)
}

/// Puts `items` in `order` (a permutation of their indices).
fn reorder<T>(items: Vec<T>, order: &[usize]) -> Vec<T> {
    let mut slots: Vec<Option<T>> = items.into_iter().map(Some).collect();
    order
        .iter()
        .map(|&i| slots[i].take().expect("each index once"))
        .collect()
}

/// Checks that the shards are the `N` shards of one run, each once; returns them in
/// shard order.
fn check_shards(shards: Vec<ShardFile>) -> Result<Vec<ShardFile>, CliError> {
    let first = &shards[0].reader.header;
    let ids: Vec<ShardId> = shards
        .iter()
        .map(|s| {
            let header = &s.reader.header;
            let mut theirs = header.clone();
            theirs.shard = first.shard.clone();
            ShardId {
                path: &s.path,
                shard: s.shard,
                fingerprint: &header.fingerprint,
                differences: first.differences(&theirs),
            }
        })
        .collect();
    let order = check_shard_set(&ids, "run")?;
    Ok(reorder(shards, &order))
}

/// What the merged games are counted into.
enum Summary<'a> {
    Match {
        running: RunningTally,
        sprt: Option<Sprt>,
        /// The game at which the SPRT decided.
        decided_at: Option<u64>,
    },
    Tournament(Crosstable<'a>),
}

impl Summary<'_> {
    /// Counts a record, unless an SPRT has already decided the match.
    fn add(&mut self, record: &Record, forfeits: &mut Forfeits) {
        match self {
            Summary::Match {
                running,
                sprt,
                decided_at,
            } => {
                if decided_at.is_some() {
                    return;
                }
                forfeits.add(record);
                let tally = running.add(record);
                if sprt
                    .is_some_and(|s| s.state(&tally.pentanomial).verdict != SprtVerdict::Continue)
                {
                    *decided_at = Some(record.game);
                }
            }
            Summary::Tournament(table) => {
                forfeits.add(record);
                table.add(record);
            }
        }
    }
}

/// Writes `path` through a temporary file beside it, renamed into place only when the
/// merge succeeds.
struct MergedFile {
    path: PathBuf,
    partial: PathBuf,
    writer: BufWriter<File>,
}

impl MergedFile {
    fn create(path: &str, header_line: &str) -> Result<MergedFile, CliError> {
        let path = PathBuf::from(path);
        if path.exists() {
            return Err(CliError(format!(
                "{} already exists: merge writes a new file",
                path.display()
            )));
        }
        let mut partial = path.clone().into_os_string();
        partial.push(".partial");
        let partial = PathBuf::from(partial);
        let file = File::create(&partial)
            .map_err(|e| CliError(format!("cannot create {}: {e}", partial.display())))?;
        let mut merged = MergedFile {
            path,
            partial,
            writer: BufWriter::new(file),
        };
        merged.line(header_line)?;
        Ok(merged)
    }

    fn line(&mut self, text: &str) -> Result<(), CliError> {
        writeln!(self.writer, "{text}")
            .map_err(|e| CliError(format!("cannot write {}: {e}", self.partial.display())))
    }

    fn finish(mut self) -> Result<(), CliError> {
        let fail =
            |e: std::io::Error| CliError(format!("cannot write {}: {e}", self.path.display()));
        self.writer.flush().map_err(fail)?;
        std::fs::rename(&self.partial, &self.path).map_err(fail)
    }
}

impl Drop for MergedFile {
    fn drop(&mut self) {
        // After a successful rename there is nothing here to remove.
        let _ = std::fs::remove_file(&self.partial);
    }
}

/// Streams every game of the run, in order, from the shard that holds it into `out`
/// and `summary`; returns the games written (fewer than the run's after a Ctrl-C).
fn merge_games(
    shards: &mut [ShardFile],
    schedule: &Schedule,
    out: &mut MergedFile,
    summary: &mut Summary,
    forfeits: &mut Forfeits,
) -> Result<u64, CliError> {
    let header = shards[0].reader.header.clone();
    let labels: Vec<String> = header.engines.iter().map(|e| e.label.clone()).collect();
    let count = shards.len() as u64;
    // Each shard's own schedule, which its records are checked against.
    let owns: Vec<Schedule> = shards
        .iter()
        .map(|s| schedule.clone().with_shard(s.shard))
        .collect();
    for game in 0..schedule.len() {
        if crate::cli::interrupt::requested() {
            return Ok(game);
        }
        let index = schedule.shard_of(game, count) as usize;
        let (shard, own) = (&mut shards[index], &owns[index]);
        let previous = shard.previous;
        let Some(record) = shard.next()? else {
            let cut = match shard.reader.cut_line {
                Some(line) => format!(", its line {line} cut short"),
                None => String::new(),
            };
            return Err(CliError(format!(
                "game {game} is missing: {} (shard {}) ends after {} of its {} games{cut} (finish it with --resume)",
                shard.path,
                own.shard(),
                shard.read,
                own.shard_len()
            )));
        };
        records::check_game(&record, game, previous, own)
            .and_then(|()| records::check_job(&record, own, &labels))
            .map_err(|e| CliError(format!("{}: {e}", shard.path)))?;
        // (The line as the shard wrote it: the same as writing the record again.)
        out.line(shard.reader.last_line())?;
        summary.add(&record, forfeits);
    }
    for shard in shards.iter_mut() {
        if let Some(extra) = shard.next()? {
            let what = if extra.game < schedule.len() {
                "is recorded twice"
            } else {
                "is beyond the run's games"
            };
            return Err(CliError(format!(
                "{}: game {} {what} (the shard's games end before it)",
                shard.path, extra.game
            )));
        }
    }
    Ok(schedule.len())
}

pub fn run(args: &MergeArgs) -> CliResult {
    super::interrupt::flag();
    if let Some(path) = &args.csv {
        super::check_output("--csv", path)?;
    }
    let sprt = match &args.sprt {
        Some(text) => Some(Sprt::parse(text).map_err(|e| CliError(format!("--sprt: {e}")))?),
        None => None,
    };
    if args
        .shards
        .iter()
        .any(|s| Path::new(s) == Path::new(&args.out))
    {
        return Err(CliError(format!(
            "{} is both the merged file and a shard",
            args.out
        )));
    }
    let first = Path::new(&args.shards[0]);
    if first.exists()
        && records::kind_of(first)
            .map_err(|e| CliError(e.to_string()))?
            .as_deref()
            == Some("compare")
    {
        return merge_compare::run(args);
    }
    if args.csv.is_some() || args.plot.is_some() {
        return Err(CliError(
            "--csv and --plot are for a comparison's shards; these are a match's or a tournament's"
                .into(),
        ));
    }
    let shards = args
        .shards
        .iter()
        .map(|p| ShardFile::open(p))
        .collect::<Result<Vec<_>, _>>()?;
    let mut shards = check_shards(shards)?;
    let header = shards[0].reader.header.clone();
    let variant = shards[0].reader.variant.clone();
    let schedule = header
        .schedule(&variant)
        .map_err(|e| CliError(format!("{}: {e}", shards[0].path)))?
        .with_shard(Shard::WHOLE);
    let labels: Vec<String> = header.engines.iter().map(|e| e.label.clone()).collect();
    let mut summary = match header.kind.as_str() {
        "match" => {
            if args.anchor.is_some() {
                return Err(CliError(
                    "--anchor: the shards are of a match; --anchor is for a tournament".into(),
                ));
            }
            Summary::Match {
                running: RunningTally::new(&labels[0], &labels[1]),
                sprt,
                decided_at: None,
            }
        }
        "tournament" => {
            if sprt.is_some() {
                return Err(CliError(
                    "--sprt: the shards are of a tournament; an SPRT is for a match".into(),
                ));
            }
            Summary::Tournament(Crosstable::new(&labels))
        }
        other => {
            return Err(CliError(format!(
                "{}: records of a '{other}', which merge does not know",
                shards[0].path
            )))
        }
    };
    let anchor = anchor_index(&labels, args.anchor.as_deref())?;
    let mut whole = header.clone();
    whole.shard = None;
    let mut out = MergedFile::create(&args.out, &whole.to_line())?;
    let mut forfeits = Forfeits::default();
    let games = merge_games(
        &mut shards,
        &schedule,
        &mut out,
        &mut summary,
        &mut forfeits,
    )?;
    let interrupted = games < schedule.len();
    let mut lines = if interrupted {
        drop(out); // (its partial file is removed)
        vec![interrupted_line(games, schedule.len(), &args.out)]
    } else {
        out.finish()?;
        vec![format!(
            "merged {} into {}: {}",
            super::plural(shards.len() as u64, "shard", "shards"),
            args.out,
            super::plural(games, "game", "games")
        )]
    };
    // (An interrupted merge writes nothing: the games it read are summed, not recorded.)
    let mut merge_json = json!({
        "shards": shards.len(),
        "out": (!interrupted).then_some(&args.out),
        "games_recorded": if interrupted { 0 } else { games },
    });
    match summary {
        Summary::Match {
            running,
            sprt,
            decided_at,
        } => {
            if sprt.is_some() {
                lines.push(sprt_note(decided_at, games));
                merge_json["sprt_evaluated_at_merge"] = json!(true);
            }
            let match_summary = MatchSummary {
                engines: (&labels[0], &labels[1]),
                variant: variant.name(),
                tally: running.tally(),
                forfeits: &forfeits,
                sprt,
                stopped: decided_at.is_some(),
            };
            match_summary.report(&notes(lines, merge_json, interrupted), args.json)
        }
        Summary::Tournament(table) => {
            let tournament = TournamentSummary {
                variant: variant.name(),
                crosstable: &table,
                forfeits: &forfeits,
                anchor,
            };
            tournament.report(&notes(lines, merge_json, interrupted), args.json)
        }
    }
    .and_then(|()| exit_if_interrupted(interrupted))
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

/// After a Ctrl-C: how to go on, and the interrupted status.
fn exit_if_interrupted(interrupted: bool) -> CliResult {
    if interrupted {
        super::interrupt::exit("the same command merges the shards again");
    }
    Ok(())
}

mod merge_compare {
    //! Merging a sharded comparison: game `i` of each variant is shard `i mod N`'s.

    use std::path::Path;

    use serde_json::json;

    use super::{
        check_shard_set, exit_if_interrupted, interrupted_line, notes, reorder, MergeArgs,
        MergedFile, ShardId,
    };
    use crate::cli::compare::{report, Outputs};
    use crate::cli::{CliError, CliResult};
    use isolo_engine::matches::schedule::game_seed;
    use isolo_engine::research::compare::summaries::{CompareHeader, CompareReader};
    use isolo_engine::research::compare::VariantTally;

    struct Shard {
        path: String,
        reader: CompareReader,
        index: u64,
    }

    /// The shards in shard order, checked to be the N shards of one comparison.
    fn open_shards(args: &MergeArgs) -> Result<Vec<Shard>, CliError> {
        let mut shards = Vec::new();
        for path in &args.shards {
            let reader = CompareReader::open(Path::new(path))?;
            let Some(id) = reader
                .header
                .shard()
                .map_err(|e| CliError(format!("{path}: {e}")))?
            else {
                return Err(CliError(format!(
                    "{path} holds a whole comparison, not a shard (its header names no shard): merge combines the --out files of runs with --shard K/N"
                )));
            };
            shards.push((
                id,
                Shard {
                    path: path.clone(),
                    reader,
                    index: id.index,
                },
            ));
        }
        let first = &shards[0].1.reader.header;
        let ids: Vec<ShardId> = shards
            .iter()
            .map(|(id, s)| ShardId {
                path: &s.path,
                shard: *id,
                fingerprint: &s.reader.header.fingerprint,
                differences: first.differences(&s.reader.header),
            })
            .collect();
        let order = check_shard_set(&ids, "comparison")?;
        drop(ids);
        Ok(reorder(shards, &order)
            .into_iter()
            .map(|(_, s)| s)
            .collect())
    }

    /// Streams every game, variant by variant, from the shard that holds it into `out`
    /// and the tallies; and the games merged (fewer than the comparison's after a
    /// Ctrl-C).
    fn merge_games(
        shards: &mut [Shard],
        header: &CompareHeader,
        out: &mut MergedFile,
    ) -> Result<(Vec<VariantTally>, u64), CliError> {
        let count = shards.len() as u64;
        let mut tallies = vec![VariantTally::default(); header.variants.len()];
        let mut merged = 0;
        for (v, tally) in tallies.iter_mut().enumerate() {
            let label = &header.variants[v].label;
            for i in 0..header.games_per_variant {
                if crate::cli::interrupt::requested() {
                    return Ok((tallies, merged));
                }
                let shard = &mut shards[(i % count) as usize];
                let game = shard.reader.next_game()?.ok_or_else(|| {
                    CliError(format!(
                        "game {i} of {label} is missing: {} (shard {}/{count}) ends before it (an interrupted shard: run it again)",
                        shard.path,
                        shard.index + 1
                    ))
                })?;
                if (game.variant, game.game) != (v, i) {
                    let what = if (game.variant, game.game) < (v, i) {
                        format!(
                            "game {} of variant {} is recorded twice",
                            game.game, game.variant
                        )
                    } else if game.game % count != shard.index {
                        format!(
                            "game {} of variant {} belongs to shard {}/{count}",
                            game.game,
                            game.variant,
                            game.game % count + 1
                        )
                    } else {
                        format!("game {i} of {label} is missing")
                    };
                    return Err(CliError(format!("{}: {what}", shard.path)));
                }
                if game.seed != game_seed(header.seed, i) {
                    return Err(CliError(format!(
                        "{}: game {i} of {label} does not have the comparison's seed",
                        shard.path
                    )));
                }
                out.line(&game.to_line())?;
                tally.add(&game.summary);
                merged += 1;
            }
        }
        for shard in shards.iter_mut() {
            if let Some(extra) = shard.reader.next_game()? {
                return Err(CliError(format!(
                    "{}: game {} of variant {} is beyond the comparison's games or recorded twice",
                    shard.path, extra.game, extra.variant
                )));
            }
        }
        Ok((tallies, merged))
    }

    pub fn run(args: &MergeArgs) -> CliResult {
        if args.sprt.is_some() || args.anchor.is_some() {
            return Err(CliError(
                "--sprt and --anchor are for a match's or a tournament's shards; these are a comparison's".into(),
            ));
        }
        let mut outputs = Outputs {
            json: args.json,
            csv: args.csv.as_deref(),
            plot: args.plot.as_deref(),
        };
        outputs.check()?;
        let mut shards = open_shards(args)?;
        let mut whole = shards[0].reader.header.clone();
        whole.shard = None;
        let engine = isolo_engine::matches::engine::EngineSpec::parse(&whole.engine)
            .map_err(|e| CliError(format!("{}: header engine: {e}", shards[0].path)))?;
        let mut out = MergedFile::create(
            &args.out,
            &serde_json::to_string(&whole).expect("headers serialise"),
        )?;
        let (tallies, merged) = merge_games(&mut shards, &whole, &mut out)?;
        let games = whole.games_per_variant * whole.variants.len() as u64;
        let interrupted = merged < games;
        let lines = if interrupted {
            // The partial merged file is removed, and the CSV and plot are not written:
            // a part would replace a whole comparison's.
            drop(out);
            let unwritten = [Some(args.out.as_str()), outputs.csv, outputs.plot];
            let unwritten: Vec<&str> = unwritten.into_iter().flatten().collect();
            outputs.csv = None;
            outputs.plot = None;
            vec![interrupted_line(merged, games, &unwritten.join(", "))]
        } else {
            out.finish()?;
            vec![format!(
                "merged {} into {}: {}",
                crate::cli::plural(shards.len() as u64, "shard", "shards"),
                args.out,
                crate::cli::plural(games, "game", "games")
            )]
        };
        let stats: Vec<_> = tallies
            .iter()
            .zip(&whole.variants)
            .map(|(t, v)| t.stats(&v.label))
            .collect();
        let merge = json!({
            "shards": shards.len(),
            "out": (!interrupted).then_some(&args.out),
            "games_recorded": if interrupted { 0 } else { games },
        });
        report(
            &stats,
            &engine.label,
            whole.games_per_variant,
            &outputs,
            &notes(lines, merge, interrupted),
        )
        .and_then(|()| exit_if_interrupted(interrupted))
    }
}

fn notes(lines: Vec<String>, merge: serde_json::Value, interrupted: bool) -> Notes {
    Notes {
        games_per_minute: None,
        lines,
        json: Some(("merge", merge)),
        interrupted,
    }
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
