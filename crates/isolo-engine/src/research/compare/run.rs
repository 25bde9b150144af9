//! A comparison as every front end runs it (`compare` on the command line, Python's
//! `compare`): each variant's games in order, each recorded as it ends where a records
//! file is asked for, a cut run continued from its file, and a stop that keeps the
//! games played.

use std::collections::BTreeSet;
use std::path::Path;
use std::sync::atomic::AtomicBool;

use super::summaries::{CompareHeader, CompareReader, CompareWriter, ComparedGame, VariantEntry};
use super::{shard_games, CompareReport, Openings, VariantGames, VariantStats, VariantTally};
use crate::matches::engine::{BotError, EngineSpec};
use crate::matches::records::RecordsError;
use crate::matches::schedule::Shard;
use isolo_rules::Variant;

/// What a comparison plays.
pub struct CompareRun<'a> {
    /// The variants, in order.
    pub variants: Vec<&'a Variant>,
    /// Each variant's label in the output.
    pub labels: Vec<String>,
    /// The engine playing both seats.
    pub engine: &'a EngineSpec,
    /// The engine's spec as given (the records name it so).
    pub engine_spec: &'a str,
    /// Games of each variant.
    pub games: u64,
    /// Each variant's openings.
    pub openings: Vec<Openings>,
    /// The openings as given (`start`, `random:K`, a suite file's name).
    pub openings_spec: &'a str,
    /// The master seed.
    pub seed: u64,
    /// Plies after which a game is drawn.
    pub max_plies: usize,
    /// The share of the games to play, if not all.
    pub shard: Option<Shard>,
}

/// Where a comparison's games are recorded.
#[derive(Clone, Copy, Debug)]
pub struct CompareOut<'a> {
    /// The records file.
    pub path: &'a Path,
    /// Whether a file already there is continued (its games kept, the rest played)
    /// rather than refused.
    pub resume: bool,
}

/// A comparison played, whole or cut.
#[derive(Clone, Debug)]
pub struct Compared {
    /// Every game, in order: those read back from a continued file first.
    pub games: Vec<ComparedGame>,
    /// The report of the games (each variant reached, a cut one with the games it has).
    pub report: CompareReport,
    /// Games read back from the file continued.
    pub resumed: u64,
    /// Whether the run was stopped before its last game.
    pub interrupted: bool,
}

/// Why a comparison could not be played.
#[derive(Debug, thiserror::Error)]
pub enum CompareRunError {
    /// The records file: not written, not read, or another comparison's.
    #[error("out: {0}")]
    Records(#[from] RecordsError),
    /// The file to continue holds another comparison.
    #[error("out: {path} holds another comparison: {}", .differences.join("; "))]
    Mismatch {
        /// The file.
        path: String,
        /// How its comparison differs from this one.
        differences: Vec<String>,
    },
    /// The file exists and is not to be continued.
    #[error("out: {0} already exists: choose another file, or continue it (resume)")]
    Exists(String),
    /// The engine failed.
    #[error("engine: {0}")]
    Engine(#[from] BotError),
}

impl CompareRun<'_> {
    /// The records header of this comparison.
    pub fn header(&self) -> CompareHeader {
        let entries = (self.variants.iter().zip(&self.labels))
            .map(|(v, label)| VariantEntry {
                label: label.clone(),
                name: v.name().to_string(),
                rules: v.rules().to_toml(),
            })
            .collect();
        let suite = (self.variants.iter().zip(&self.openings))
            .filter_map(|(v, o)| match o {
                Openings::Suite(boards) => {
                    Some(boards.iter().map(|b| v.format_position(b)).collect())
                }
                _ => None,
            })
            .collect();
        CompareHeader::new(
            entries,
            self.engine_spec,
            self.games,
            self.openings_spec,
            suite,
            self.max_plies,
            self.seed,
            self.shard,
        )
    }

    /// Plays the comparison on `pool`, each game handed to `on_game` as it ends (those
    /// read back from a continued file first), recorded in `out` if given; `interrupt`
    /// raised stops it with the games played kept (and recorded: the file can be
    /// continued).
    pub fn run(
        &self,
        pool: &rayon::ThreadPool,
        out: Option<CompareOut>,
        interrupt: Option<&'static AtomicBool>,
        on_game: &mut dyn FnMut(&ComparedGame),
    ) -> Result<Compared, CompareRunError> {
        let header = self.header();
        let earlier = match out {
            Some(out) => self.earlier_games(out, &header)?,
            None => Vec::new(),
        };
        let mut writer = match out {
            Some(out) => Some(CompareWriter::replace(out.path, &header)?),
            None => None,
        };
        let mut games: Vec<ComparedGame> = Vec::new();
        let mut tallies = vec![VariantTally::default(); self.variants.len()];
        let mut record =
            |game: ComparedGame, games: &mut Vec<ComparedGame>| -> Result<(), RecordsError> {
                tallies[game.variant].add(&game.summary);
                on_game(&game);
                if let Some(file) = writer.as_mut() {
                    file.game(&game)?;
                }
                games.push(game);
                Ok(())
            };
        for game in &earlier {
            record(*game, &mut games)?;
        }
        let mut interrupted = false;
        for (v, (variant, openings)) in self.variants.iter().zip(&self.openings).enumerate() {
            if crate::raised(interrupt) {
                interrupted = true;
                break;
            }
            let done: BTreeSet<u64> = (earlier.iter())
                .filter(|g| g.variant == v)
                .map(|g| g.game)
                .collect();
            let left = shard_games(self.games, self.shard).filter(|g| !done.contains(g));
            let played = VariantGames {
                variant,
                engine: self.engine,
                openings,
                seed: self.seed,
                max_plies: self.max_plies,
            };
            let mut failure = None;
            played.play(pool, left, interrupt, |game| {
                let game = ComparedGame {
                    variant: v,
                    game: game.game,
                    seed: game.seed,
                    summary: game.summary,
                };
                failure = record(game, &mut games).err();
                failure.is_none()
            })?;
            if let Some(e) = failure {
                return Err(e.into());
            }
        }
        interrupted |= crate::raised(interrupt);
        if let Some(file) = writer {
            file.finish()?;
        }
        let reached = if interrupted {
            games.iter().map(|g| g.variant + 1).max().unwrap_or(0)
        } else {
            self.variants.len()
        };
        let stats: Vec<VariantStats> = (tallies.iter().zip(&self.labels))
            .take(reached)
            .map(|(tally, label)| tally.stats(label))
            .collect();
        Ok(Compared {
            report: CompareReport::new(&self.engine.label, self.games, stats),
            resumed: earlier.len() as u64,
            games,
            interrupted,
        })
    }

    /// The games of the file `out` names, where it is continued: none where there is no
    /// file; refused where it is not to be continued or holds another comparison.
    fn earlier_games(
        &self,
        out: CompareOut,
        header: &CompareHeader,
    ) -> Result<Vec<ComparedGame>, CompareRunError> {
        let name = out.path.display().to_string();
        if !out.path.exists() {
            return Ok(Vec::new());
        }
        if !out.resume {
            return Err(CompareRunError::Exists(name));
        }
        let mut reader = CompareReader::open(out.path)?;
        let differences = header.differences(&reader.header);
        if !differences.is_empty() || reader.header.shard != header.shard {
            let mut differences = differences;
            if reader.header.shard != header.shard {
                differences.push("another shard".to_string());
            }
            return Err(CompareRunError::Mismatch {
                path: name,
                differences,
            });
        }
        let mut games = Vec::new();
        while let Some(game) = reader.next_game()? {
            games.push(game);
        }
        Ok(games)
    }
}
