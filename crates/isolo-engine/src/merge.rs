//! Merging a sharded run: the records files of the `--shard K/N` runs of one match,
//! tournament or comparison, checked to be the N shards of one run, each once, combined
//! into one records file in game order and counted as one process would have counted
//! them. A match's SPRT is evaluated over the games in order and stops the count where
//! one process would have stopped. Every front end (the command line's `merge`,
//! Python's `merge`) calls [`merge`] and only reports what it returns.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use serde::Serialize;

use crate::matches::engine::EngineSpec;
use crate::matches::records::{self, Record, RecordsError, RecordsReader};
use crate::matches::schedule::{game_seed, Schedule, Shard};
use crate::matches::tally::{MatchTally, TournamentTally};
use crate::research::compare::summaries::{CompareHeader, CompareReader};
use crate::research::compare::{CompareReport, VariantTally};
use crate::stats::Sprt;
use isolo_rules::WholeFile;

/// Why shards cannot be merged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MergeError {
    /// A shard's file cannot be read, or holds a line that is not a record.
    #[error("{0}")]
    Records(#[from] RecordsError),
    /// The files are not the shards of one run, or do not hold each of its games once.
    #[error("{0}")]
    Shards(String),
    /// An option that does not fit the run (`option` as the library names it:
    /// `sprt`, `anchor`): each front end puts its own spelling first.
    #[error("{option}: {message}")]
    Option {
        /// The option.
        option: &'static str,
        /// What is wrong with it.
        message: String,
    },
    /// The merged file cannot be written.
    #[error("{0}")]
    Output(String),
}

/// What a merge is asked to evaluate besides the games.
#[derive(Clone, Debug, Default)]
pub struct MergeOptions {
    /// A match: the SPRT to evaluate over the merged games in order.
    pub sprt: Option<Sprt>,
    /// A tournament: the engine whose rating is fixed at 0 (none: the mean is 0).
    pub anchor: Option<String>,
}

/// What the merged games add up to.
#[derive(Clone, Debug)]
pub enum Merged {
    /// A match's tally (counted up to its SPRT's verdict).
    Match(MatchTally),
    /// A tournament's crosstable, and the index of its anchor.
    Tournament {
        /// The games counted.
        tally: TournamentTally,
        /// The engine whose rating is fixed at 0.
        anchor: Option<usize>,
    },
    /// A comparison's report: each variant's statistics and the first player's
    /// advantage tested between them.
    Compare(Box<CompareReport>),
}

/// How a merge went.
#[derive(Clone, Debug)]
pub struct MergeOutcome {
    /// The merged games' summary.
    pub merged: Merged,
    /// The rules' name (a match's or a tournament's; empty for a comparison).
    pub variant: String,
    /// The shards merged.
    pub shards: usize,
    /// Games read from the shards and counted (all of the run's unless interrupted).
    pub games: u64,
    /// The run's games.
    pub total: u64,
    /// Whether the interrupt flag stopped the merge: nothing was written then.
    pub interrupted: bool,
}

/// What a merge adds to its summary's JSON (`"merge"`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MergeNote {
    /// The shards merged.
    pub shards: usize,
    /// The merged file (none when nothing was written).
    pub out: Option<String>,
    /// Games in the merged file.
    pub games_recorded: u64,
    /// Whether a match's SPRT was evaluated over the merged games.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub sprt_evaluated_at_merge: bool,
}

impl MergeOutcome {
    /// The note of this merge into `out`.
    pub fn note(&self, out: &Path) -> MergeNote {
        MergeNote {
            shards: self.shards,
            out: (!self.interrupted).then(|| out.display().to_string()),
            games_recorded: if self.interrupted { 0 } else { self.total },
            sprt_evaluated_at_merge: matches!(&self.merged, Merged::Match(t) if t.sprt().is_some()),
        }
    }
}

/// Merges the shard files `shards` (in any order) into the new records file `out`, in
/// game order, and counts the games. `out` is written through a temporary file beside
/// it and appears only when the merge succeeds; after an interrupt nothing is written
/// and the outcome counts the games read.
pub fn merge(
    out: &Path,
    shards: &[PathBuf],
    options: &MergeOptions,
    interrupt: Option<&AtomicBool>,
) -> Result<MergeOutcome, MergeError> {
    let Some(first) = shards.first() else {
        return Err(MergeError::Shards("no shard given".into()));
    };
    if shards.iter().any(|s| s == out) {
        return Err(MergeError::Shards(format!(
            "{} is both the merged file and a shard",
            out.display()
        )));
    }
    if first.exists() && records::kind_of(first)?.as_deref() == Some("compare") {
        if options.sprt.is_some() || options.anchor.is_some() {
            let option = if options.sprt.is_some() {
                "sprt"
            } else {
                "anchor"
            };
            return Err(MergeError::Option {
                option,
                message: "the shards are of a comparison; it is for a match's or a tournament's"
                    .into(),
            });
        }
        return compare::merge(out, shards, interrupt);
    }
    games::merge(out, shards, options, interrupt)
}

/// One shard's file as [`check_shard_set`] sees it.
struct ShardId<'a> {
    path: &'a Path,
    shard: Shard,
    fingerprint: &'a str,
    /// How its header differs from the first file's (apart from the shard).
    differences: Vec<String>,
}

/// Checks that `files` are the N shards of one `run` ("run", "comparison"), each once;
/// returns their indices in shard order.
fn check_shard_set(files: &[ShardId], run: &str) -> Result<Vec<usize>, MergeError> {
    let first = &files[0];
    let count = first.shard.count;
    let fail = MergeError::Shards;
    for file in files {
        if file.fingerprint != first.fingerprint {
            let differences = file
                .differences
                .join("; ")
                .replace(" here, ", &format!(" in {}, ", first.path.display()))
                .replace(" in the file", &format!(" in {}", file.path.display()));
            return Err(fail(format!(
                "{} is not a shard of the same {run} as {} (fingerprint {}, not {}): {differences}",
                file.path.display(),
                first.path.display(),
                file.fingerprint,
                first.fingerprint
            )));
        }
        if file.shard.count != count {
            return Err(fail(format!(
                "{} is shard {} but {} is of {count} shards: the {run} was split two ways",
                file.path.display(),
                file.shard,
                first.path.display()
            )));
        }
    }
    let mut order: Vec<usize> = (0..files.len()).collect();
    order.sort_by_key(|&i| files[i].shard.index);
    for pair in order.windows(2) {
        let (a, b) = (&files[pair[0]], &files[pair[1]]);
        if a.shard == b.shard {
            return Err(fail(format!(
                "{} and {} are both shard {}",
                a.path.display(),
                b.path.display(),
                a.shard
            )));
        }
    }
    let missing: Vec<String> = (0..count)
        .filter(|&k| !files.iter().any(|f| f.shard.index == k))
        .map(|k| format!("{}/{count}", k + 1))
        .collect();
    if !missing.is_empty() {
        return Err(fail(format!(
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

/// The refusal of a file that holds a whole run.
fn not_a_shard(path: &Path, run: &str) -> MergeError {
    MergeError::Shards(format!(
        "{} holds a whole {run}, not a shard (its header names no shard): merge combines the records files of runs played as shards (--shard K/N)",
        path.display()
    ))
}

/// Writes `path` whole ([`WholeFile`]): renamed into place only when the merge
/// succeeds (the file beside it removed otherwise).
struct MergedFile {
    path: PathBuf,
    file: WholeFile,
}

impl MergedFile {
    fn create(path: &Path, header_line: &str) -> Result<MergedFile, MergeError> {
        if path.exists() {
            return Err(MergeError::Output(format!(
                "{} already exists: merge writes a new file",
                path.display()
            )));
        }
        let file = WholeFile::create(path)
            .map_err(|e| MergeError::Output(format!("cannot create {}: {e}", path.display())))?;
        let mut merged = MergedFile {
            path: path.to_path_buf(),
            file,
        };
        merged.line(header_line)?;
        Ok(merged)
    }

    fn line(&mut self, text: &str) -> Result<(), MergeError> {
        writeln!(self.file, "{text}").map_err(|e| {
            MergeError::Output(format!("cannot write {}: {e}", self.file.aside().display()))
        })
    }

    fn finish(self) -> Result<(), MergeError> {
        let path = self.path;
        self.file
            .finish()
            .map_err(|e| MergeError::Output(format!("cannot write {}: {e}", path.display())))
    }
}

mod games {
    //! A match's or a tournament's shards: game `i` is the shard's that the schedule
    //! gives it.

    use super::*;

    /// One shard's file, read record by record.
    struct ShardFile {
        path: PathBuf,
        reader: RecordsReader,
        /// The shard its header names.
        shard: Shard,
        /// Its records read so far, and the last one's game.
        read: u64,
        previous: Option<u64>,
    }

    impl ShardFile {
        fn open(path: &Path) -> Result<ShardFile, MergeError> {
            let reader = RecordsReader::open(path)?.ok_or_else(|| {
                MergeError::Shards(format!(
                    "{}: no such records file, or it holds no header",
                    path.display()
                ))
            })?;
            if reader.header.shard.is_none() {
                return Err(not_a_shard(path, "run"));
            }
            if !reader.chained() {
                return Err(MergeError::Shards(format!(
                    "{}: records format 1, whose games carry no digest: merge it with the version that wrote it",
                    path.display()
                )));
            }
            let shard = reader
                .header
                .shard()
                .map_err(|e| MergeError::Shards(format!("{}: {e}", path.display())))?;
            Ok(ShardFile {
                path: path.to_path_buf(),
                reader,
                shard,
                read: 0,
                previous: None,
            })
        }

        /// Its next record, `None` at its end.
        fn next(&mut self) -> Result<Option<Record>, MergeError> {
            let record = self.reader.next_record()?;
            if let Some(r) = &record {
                self.read += 1;
                self.previous = Some(r.game);
            }
            Ok(record)
        }
    }

    /// The shards in shard order, checked to be the N shards of one run, each once.
    fn open_shards(paths: &[PathBuf]) -> Result<Vec<ShardFile>, MergeError> {
        let shards = paths
            .iter()
            .map(|p| ShardFile::open(p))
            .collect::<Result<Vec<_>, _>>()?;
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
        drop(ids);
        Ok(reorder(shards, &order))
    }

    /// What the merged games are counted into.
    enum Count {
        Match(MatchTally),
        Tournament(TournamentTally),
    }

    impl Count {
        fn add(&mut self, record: &Record) {
            match self {
                Count::Match(tally) => {
                    tally.add(record);
                }
                Count::Tournament(tally) => tally.add(record),
            }
        }
    }

    /// The tally the run's kind asks for, with the options checked against it.
    fn count_for(
        kind: &str,
        labels: &[String],
        pairings: &[(usize, usize)],
        options: &MergeOptions,
        path: &Path,
    ) -> Result<(Count, Option<usize>), MergeError> {
        let refuse = |option, message: &str| MergeError::Option {
            option,
            message: message.to_string(),
        };
        match kind {
            "match" if options.anchor.is_some() => Err(refuse(
                "anchor",
                "the shards are of a match; an anchor is for a tournament",
            )),
            "match" => Ok((
                Count::Match(MatchTally::new(&labels[0], &labels[1], options.sprt)),
                None,
            )),
            "tournament" if options.sprt.is_some() => Err(refuse(
                "sprt",
                "the shards are of a tournament; an SPRT is for a match",
            )),
            "tournament" => {
                let tally = TournamentTally::new(labels, pairings);
                let anchor = tally.anchor(options.anchor.as_deref()).map_err(|message| {
                    MergeError::Option {
                        option: "anchor",
                        message,
                    }
                })?;
                Ok((Count::Tournament(tally), anchor))
            }
            other => Err(MergeError::Shards(format!(
                "{}: records of a '{other}', which merge does not know",
                path.display()
            ))),
        }
    }

    pub(super) fn merge(
        out: &Path,
        paths: &[PathBuf],
        options: &MergeOptions,
        interrupt: Option<&AtomicBool>,
    ) -> Result<MergeOutcome, MergeError> {
        let mut shards = open_shards(paths)?;
        let header = shards[0].reader.header.clone();
        let variant = shards[0].reader.variant.clone();
        let schedule = header
            .schedule(&variant)
            .map_err(|e| MergeError::Shards(format!("{}: {e}", shards[0].path.display())))?
            .with_shard(Shard::WHOLE);
        let labels = header.labels();
        let (mut count, anchor) = count_for(
            &header.kind,
            &labels,
            schedule.pairings(),
            options,
            &shards[0].path,
        )?;
        let mut whole = header.clone();
        whole.shard = None;
        let mut file = MergedFile::create(out, &whole.to_line())?;
        let games = merge_games(
            &mut shards,
            &schedule,
            (&whole, &labels),
            &mut file,
            &mut count,
            interrupt,
        )?;
        let interrupted = games < schedule.len();
        if !interrupted {
            file.finish()?;
        }
        Ok(MergeOutcome {
            merged: match count {
                Count::Match(tally) => Merged::Match(tally),
                Count::Tournament(tally) => Merged::Tournament { tally, anchor },
            },
            variant: variant.name().to_string(),
            shards: shards.len(),
            games,
            total: schedule.len(),
            interrupted,
        })
    }

    /// Streams every game of the run, in order, from the shard that holds it into `out`
    /// and `count`, each checked to be the game the shard's schedule gives and to
    /// replay; returns the games merged (fewer than the run's after an interrupt).
    fn merge_games(
        shards: &mut [ShardFile],
        schedule: &Schedule,
        (header, labels): (&records::Header, &[String]),
        out: &mut MergedFile,
        count: &mut Count,
        interrupt: Option<&AtomicBool>,
    ) -> Result<u64, MergeError> {
        let variant = shards[0].reader.variant.clone();
        let mut chain = records::Chain::start(&header.fingerprint, None);
        let shard_count = shards.len() as u64;
        // Each shard's own schedule, which its records are checked against.
        let owns: Vec<Schedule> = shards
            .iter()
            .map(|s| schedule.clone().with_shard(s.shard))
            .collect();
        for game in 0..schedule.len() {
            if crate::raised(interrupt) {
                return Ok(game);
            }
            let index = schedule.shard_of(game, shard_count) as usize;
            let (shard, own) = (&mut shards[index], &owns[index]);
            let previous = shard.previous;
            let Some(record) = shard.next()? else {
                let cut = match shard.reader.cut_line {
                    Some(line) => format!(", its line {line} cut short"),
                    None => String::new(),
                };
                return Err(MergeError::Shards(format!(
                    "game {game} is missing: {} (shard {}) ends after {} of its {} games{cut} (finish it by resuming it)",
                    shard.path.display(),
                    own.shard(),
                    shard.read,
                    own.shard_len()
                )));
            };
            records::check_game(&record, game, previous, own)
                .and_then(|()| records::check_job(&record, own, labels))
                .and_then(|()| records::replay(&variant, header.max_plies, &record).map(|_| ()))
                .map_err(|e| MergeError::Shards(format!("{}: {e}", shard.path.display())))?;
            // (The shard's line with the merged file's digest: its own chained the shard.)
            out.line(&record.sealed_line(&variant, &mut chain))?;
            count.add(&record);
        }
        for shard in shards.iter_mut() {
            if let Some(extra) = shard.next()? {
                let what = if extra.game < schedule.len() {
                    "is recorded twice"
                } else {
                    "is beyond the run's games"
                };
                return Err(MergeError::Shards(format!(
                    "{}: game {} {what} (the shard's games end before it)",
                    shard.path.display(),
                    extra.game
                )));
            }
        }
        Ok(schedule.len())
    }
}

mod compare {
    //! A comparison's shards: game `i` of each variant is shard `i mod N`'s.

    use super::*;

    struct CompareShard {
        path: PathBuf,
        reader: CompareReader,
        index: u64,
    }

    /// The shards in shard order, checked to be the N shards of one comparison.
    fn open_shards(paths: &[PathBuf]) -> Result<Vec<CompareShard>, MergeError> {
        let mut shards = Vec::new();
        for path in paths {
            let reader = CompareReader::open(path)?;
            if !reader.chained() {
                return Err(MergeError::Shards(format!(
                    "{}: records format 1, whose games carry no digest: merge it with the version that wrote it",
                    path.display()
                )));
            }
            let Some(id) = reader
                .header
                .shard()
                .map_err(|e| MergeError::Shards(format!("{}: {e}", path.display())))?
            else {
                return Err(not_a_shard(path, "comparison"));
            };
            shards.push((
                id,
                CompareShard {
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

    pub(super) fn merge(
        out: &Path,
        paths: &[PathBuf],
        interrupt: Option<&AtomicBool>,
    ) -> Result<MergeOutcome, MergeError> {
        let mut shards = open_shards(paths)?;
        let mut whole = shards[0].reader.header.clone();
        whole.shard = None;
        let engine = EngineSpec::parse(&whole.engine).map_err(|e| {
            MergeError::Shards(format!("{}: header engine: {e}", shards[0].path.display()))
        })?;
        let mut file = MergedFile::create(
            out,
            &serde_json::to_string(&whole).expect("headers serialise"),
        )?;
        let (tallies, games) = merge_games(&mut shards, &whole, &mut file, interrupt)?;
        let total = whole.games_per_variant * whole.variants.len() as u64;
        let interrupted = games < total;
        if !interrupted {
            file.finish()?;
        }
        let stats = tallies
            .iter()
            .zip(&whole.variants)
            .map(|(t, v)| t.stats(&v.label))
            .collect();
        let report = CompareReport::new(&engine.label, whole.games_per_variant, stats);
        Ok(MergeOutcome {
            merged: Merged::Compare(Box::new(report)),
            variant: String::new(),
            shards: shards.len(),
            games,
            total,
            interrupted,
        })
    }

    /// Streams every game, variant by variant, from the shard that holds it into `out`
    /// and the tallies; and the games merged (fewer than the comparison's after an
    /// interrupt).
    fn merge_games(
        shards: &mut [CompareShard],
        header: &CompareHeader,
        out: &mut MergedFile,
        interrupt: Option<&AtomicBool>,
    ) -> Result<(Vec<VariantTally>, u64), MergeError> {
        let count = shards.len() as u64;
        let mut chain = records::Chain::start(&header.fingerprint, None);
        let mut tallies = vec![VariantTally::default(); header.variants.len()];
        let mut merged = 0;
        for (v, tally) in tallies.iter_mut().enumerate() {
            let label = &header.variants[v].label;
            for i in 0..header.games_per_variant {
                if crate::raised(interrupt) {
                    return Ok((tallies, merged));
                }
                let shard = &mut shards[(i % count) as usize];
                let shown = shard.path.display().to_string();
                let game = shard.reader.next_game()?.ok_or_else(|| {
                    MergeError::Shards(format!(
                        "game {i} of {label} is missing: {shown} (shard {}/{count}) ends before it (an interrupted shard: run it again)",
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
                    return Err(MergeError::Shards(format!("{shown}: {what}")));
                }
                if game.seed != game_seed(header.seed, i) {
                    return Err(MergeError::Shards(format!(
                        "{shown}: game {i} of {label} does not have the comparison's seed"
                    )));
                }
                out.line(&game.sealed_line(&mut chain))?;
                tally.add(&game.summary);
                merged += 1;
            }
        }
        for shard in shards.iter_mut() {
            if let Some(extra) = shard.reader.next_game()? {
                return Err(MergeError::Shards(format!(
                    "{}: game {} of variant {} is beyond the comparison's games or recorded twice",
                    shard.path.display(),
                    extra.game,
                    extra.variant
                )));
            }
        }
        Ok((tallies, merged))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matches::engine::EngineSpec;
    use crate::matches::records::Header;
    use crate::matches::runner::{self, PlaySettings};
    use isolo_rules::Variant;

    const GAMES: u64 = 12;

    struct Run {
        variant: Variant,
        engines: Vec<EngineSpec>,
        dir: PathBuf,
    }

    impl Run {
        fn new(name: &str) -> Run {
            let dir = std::env::temp_dir()
                .join(format!("isolo-engine-merge-{name}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).unwrap();
            Run {
                variant: Variant::load("isolo-women").unwrap(),
                engines: vec![
                    EngineSpec::parse("ab:depth=1").unwrap(),
                    EngineSpec::parse("random").unwrap(),
                ],
                dir,
            }
        }

        /// Plays `shard` of the match into a records file; its tally.
        fn play(&self, name: &str, shard: Option<Shard>) -> (PathBuf, MatchTally) {
            let schedule = Schedule::new(vec![(0, 1)], vec![self.variant.start()], GAMES, 3)
                .with_shard(shard.unwrap_or(Shard::WHOLE));
            let header = Header::new(
                "match",
                &self.variant,
                &self.engines,
                &schedule,
                "start",
                200,
            )
            .with_shard(shard);
            let path = self.dir.join(name);
            let file = records::create(&path, &header).unwrap();
            let mut tally = MatchTally::new("ab:depth=1", "random", None);
            let settings = PlaySettings::new(200, self.variant.name());
            let games = std::iter::empty();
            runner::run(
                &self.variant,
                &self.engines,
                &schedule,
                games,
                1,
                &settings,
                Some(file),
                None,
                |r| tally.add(r),
            )
            .unwrap();
            (path, tally)
        }

        fn shards(&self) -> Vec<PathBuf> {
            (0..3)
                .map(|index| {
                    let shard = Shard { index, count: 3 };
                    self.play(&format!("s{index}.jsonl"), Some(shard)).0
                })
                .collect()
        }
    }

    #[test]
    fn merged_shards_count_as_the_whole_run() {
        let run = Run::new("whole");
        let (_, whole) = run.play("whole.jsonl", None);
        let mut shards = run.shards();
        shards.reverse();
        let out = run.dir.join("merged.jsonl");
        let outcome = merge(&out, &shards, &MergeOptions::default(), None).unwrap();
        let Merged::Match(merged) = &outcome.merged else {
            panic!("a match");
        };
        assert_eq!(merged.report(None), whole.report(None));
        assert_eq!(
            (outcome.games, outcome.total, outcome.shards),
            (GAMES, GAMES, 3)
        );
        let lines = std::fs::read_to_string(&out).unwrap().lines().count();
        assert_eq!(lines as u64, GAMES + 1, "the header and every game");
        assert!(matches!(
            merge(&out, &shards, &MergeOptions::default(), None),
            Err(MergeError::Output(_))
        ));
    }

    #[test]
    fn a_missing_shard_or_an_interrupt_writes_nothing() {
        let run = Run::new("refused");
        let shards = run.shards();
        let out = run.dir.join("merged.jsonl");
        let two = merge(&out, &shards[..2], &MergeOptions::default(), None).unwrap_err();
        assert_eq!(two.to_string(), "shard 3/3 missing: no file given holds it");
        let stop = AtomicBool::new(true);
        let stopped = merge(&out, &shards, &MergeOptions::default(), Some(&stop)).unwrap();
        assert!(stopped.interrupted && stopped.games == 0);
        assert!(!out.exists() && !run.dir.join("merged.jsonl.partial").exists());
        let anchored = MergeOptions {
            anchor: Some("random".into()),
            ..MergeOptions::default()
        };
        let refused = merge(&out, &shards, &anchored, None).unwrap_err();
        assert!(matches!(
            refused,
            MergeError::Option {
                option: "anchor",
                ..
            }
        ));
    }
}
