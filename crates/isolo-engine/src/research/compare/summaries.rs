//! `compare`'s records file (`--out`), which `merge` combines across shards. The first
//! line is a [`CompareHeader`]: every variant's label and complete rules (and its
//! opening positions when they came from a suite), the engine, games per variant,
//! openings, ply cap and seed, fingerprinted like a match's header (the shard left out
//! of the digest). Each further line is one game as the statistics use it
//! ([`GameSummary`]), variant by variant, game by game.

use std::io::Write;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::GameSummary;
use crate::matches::records::{
    fingerprint_of, is_chained, Chain, GameResult, Lines, RecordsError, FORMAT_VERSION,
};
use crate::matches::schedule::Shard;
use isolo_rules::{EndReason, Side, WholeFile};

/// One compared variant, as the header names it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VariantEntry {
    /// Its label in the output.
    pub label: String,
    /// Its rules' name.
    pub name: String,
    /// Its complete rules as a rules file.
    pub rules: String,
}

/// Everything that defines a comparison, as the first line of its records.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CompareHeader {
    /// The format version.
    pub isolo_ai_records: u32,
    /// `compare`.
    pub kind: String,
    /// The variants, in order.
    pub variants: Vec<VariantEntry>,
    /// The engine's spec.
    pub engine: String,
    /// Games of each variant.
    pub games_per_variant: u64,
    /// `--openings`: `start`, `random:K` or a suite file's name.
    pub openings: String,
    /// The suite's positions, each variant's (a suite's positions are read under each
    /// variant's rules); empty without a suite.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub suite: Vec<Vec<String>>,
    /// Plies after which a game is drawn.
    pub max_plies: usize,
    /// The master seed.
    pub seed: u64,
    /// A digest of the fields above.
    pub fingerprint: String,
    /// The share of the games this file holds (`K/N`); absent for a whole comparison.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<String>,
}

impl CompareHeader {
    /// The header of a comparison; its fingerprint is computed here.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        variants: Vec<VariantEntry>,
        engine: &str,
        games_per_variant: u64,
        openings: &str,
        suite: Vec<Vec<String>>,
        max_plies: usize,
        seed: u64,
        shard: Option<Shard>,
    ) -> CompareHeader {
        let mut header = CompareHeader {
            isolo_ai_records: FORMAT_VERSION,
            kind: "compare".into(),
            variants,
            engine: engine.to_string(),
            games_per_variant,
            openings: openings.to_string(),
            suite,
            max_plies,
            seed,
            fingerprint: String::new(),
            shard: shard.map(|s| s.to_string()),
        };
        header.fingerprint = header.digest();
        header
    }

    fn digest(&self) -> String {
        let mut unsigned = self.clone();
        unsigned.fingerprint.clear();
        unsigned.shard = None;
        fingerprint_of(&serde_json::to_string(&unsigned).expect("headers serialise"))
    }

    /// The shard the header names, if any.
    pub fn shard(&self) -> Result<Option<Shard>, RecordsError> {
        self.shard
            .as_deref()
            .map(|s| {
                s.parse()
                    .map_err(|e| RecordsError::Header(format!("header shard: {e}")))
            })
            .transpose()
    }

    /// Each way `other` differs from this header, named.
    pub fn differences(&self, other: &CompareHeader) -> Vec<String> {
        let mut out = Vec::new();
        let labels = |h: &CompareHeader| {
            h.variants
                .iter()
                .map(|v| v.label.clone())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let fields = [
            ("variants", labels(self), labels(other)),
            (
                "rules",
                format!("{:?}", self.variants),
                format!("{:?}", other.variants),
            ),
            ("engine", self.engine.clone(), other.engine.clone()),
            (
                "games",
                self.games_per_variant.to_string(),
                other.games_per_variant.to_string(),
            ),
            ("openings", self.openings.clone(), other.openings.clone()),
            (
                "suite",
                format!("{:?}", self.suite),
                format!("{:?}", other.suite),
            ),
            (
                "max-plies",
                self.max_plies.to_string(),
                other.max_plies.to_string(),
            ),
            ("seed", self.seed.to_string(), other.seed.to_string()),
        ];
        for (name, here, there) in fields {
            if here != there {
                let shown = |t: String| if t.len() > 60 { "(differs)".into() } else { t };
                out.push(format!(
                    "{name}: {} here, {} in the file",
                    shown(here),
                    shown(there)
                ));
            }
        }
        out
    }
}

/// A game as a line of the file.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct GameLine {
    variant: usize,
    game: u64,
    seed: u64,
    first: String,
    result: GameResult,
    reason: EndReason,
    plies: u32,
    branching: Option<f64>,
    laps_per_move: Option<f64>,
    endless_share: Option<f64>,
    captured_per_move: Option<f64>,
    /// The chained digest (format 2), as a match's records have.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    digest: Option<String>,
}

fn serialised(line: &GameLine) -> String {
    serde_json::to_string(line).expect("records serialise")
}

/// A compared game read back: which variant, which game, its seed and its summary.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ComparedGame {
    /// The variant's index in the header.
    pub variant: usize,
    /// The game's index within its variant.
    pub game: u64,
    /// The game's seed.
    pub seed: u64,
    /// What the statistics use.
    pub summary: GameSummary,
}

impl ComparedGame {
    /// The game's line (no newline), its digest the next of `chain`.
    pub(crate) fn sealed_line(&self, chain: &mut Chain) -> String {
        let mut line = self.line();
        line.digest = Some(chain.seal(&serialised(&line)));
        serialised(&line)
    }

    /// The game's line as a JSON value (what the Python binding hands out).
    pub fn to_value(&self) -> serde_json::Value {
        serde_json::to_value(self.line()).expect("records serialise")
    }

    /// The game as its line holds it.
    fn line(&self) -> GameLine {
        let s = &self.summary;
        GameLine {
            variant: self.variant,
            game: self.game,
            seed: self.seed,
            first: s.first.letter().to_string(),
            result: GameResult::of_winner(s.winner),
            reason: s.reason,
            plies: s.plies,
            branching: s.branching,
            laps_per_move: s.laps_per_move,
            endless_share: s.endless_share,
            captured_per_move: s.captured_per_move,
            digest: None,
        }
    }

    /// The game a line holds, the line without its digest (what the digest covers) and
    /// the digest.
    fn from_line(text: &str) -> Result<(ComparedGame, String, Option<String>), String> {
        let mut line: GameLine = serde_json::from_str(text).map_err(|e| e.to_string())?;
        let digest = line.digest.take();
        let unsealed = serialised(&line);
        let first = match line.first.as_str() {
            "S" => Side::South,
            "N" => Side::North,
            other => return Err(format!("first: expected S or N, found '{other}'")),
        };
        let game = ComparedGame {
            variant: line.variant,
            game: line.game,
            seed: line.seed,
            summary: GameSummary {
                first,
                winner: line.result.winner(),
                reason: line.reason,
                plies: line.plies,
                branching: line.branching,
                laps_per_move: line.laps_per_move,
                endless_share: line.endless_share,
                captured_per_move: line.captured_per_move,
            },
        };
        Ok((game, unsealed, digest))
    }
}

/// Writes a comparison's records, buffered, beside their file: `finish` renames them
/// into place, so the file is whole or not there (a continued comparison writes its
/// earlier games again, then the rest).
pub struct CompareWriter {
    name: String,
    out: WholeFile,
    chain: Chain,
}

impl CompareWriter {
    /// A new file holding `header`; an existing file is refused.
    pub fn create(path: &Path, header: &CompareHeader) -> Result<CompareWriter, RecordsError> {
        if path.exists() {
            let name = path.display();
            return Err(RecordsError::Io(format!(
                "{name} already exists: choose another file"
            )));
        }
        CompareWriter::replace(path, header)
    }

    /// A file holding `header`, written beside `path` and renamed over it by `finish`:
    /// where a comparison is continued, its earlier games are written again first.
    pub fn replace(path: &Path, header: &CompareHeader) -> Result<CompareWriter, RecordsError> {
        let name = path.display().to_string();
        let out = WholeFile::create(path)
            .map_err(|e| RecordsError::Io(format!("cannot create {name}: {e}")))?;
        let mut writer = CompareWriter {
            name,
            out,
            chain: Chain::start(&header.fingerprint, header.shard.as_deref()),
        };
        writer.line(&serde_json::to_string(header).expect("headers serialise"))?;
        Ok(writer)
    }

    /// Writes a game's line, its digest following the games before it.
    pub fn game(&mut self, game: &ComparedGame) -> Result<(), RecordsError> {
        let line = game.sealed_line(&mut self.chain);
        self.line(&line)
    }

    fn line(&mut self, text: &str) -> Result<(), RecordsError> {
        writeln!(self.out, "{text}")
            .map_err(|e| RecordsError::Io(format!("cannot write {}: {e}", self.name)))
    }

    /// Writes the file whole: flushed, then renamed into place. (A comparison that
    /// fails, dropped unfinished, leaves nothing half-written.)
    pub fn finish(self) -> Result<(), RecordsError> {
        let name = self.name;
        self.out
            .finish()
            .map_err(|e| RecordsError::Io(format!("cannot write {name}: {e}")))
    }
}

/// A comparison's records read a game at a time.
pub struct CompareReader {
    lines: Lines,
    /// The comparison the file holds.
    pub header: CompareHeader,
    /// The digests' chain so far (`None`: format 1, whose games have none).
    chain: Option<Chain>,
}

impl CompareReader {
    /// Opens a file and reads its header, which must be a comparison's, with a
    /// fingerprint that matches its contents.
    pub fn open(path: &Path) -> Result<CompareReader, RecordsError> {
        let mut lines = Lines::open(path).map_err(|e| {
            let name = path.display();
            RecordsError::Io(format!("{name}: cannot read: {e}"))
        })?;
        let (text, ended) = lines
            .next_text()?
            .ok_or_else(|| RecordsError::Header(format!("{}: no header", lines.name())))?;
        let header: CompareHeader =
            serde_json::from_str(&text).map_err(|e| lines.error(format!("header: {e}")))?;
        if header.kind != "compare" {
            return Err(RecordsError::Header(format!(
                "{}: not a comparison's records",
                lines.name()
            )));
        }
        let chained =
            is_chained(header.isolo_ai_records).map_err(|e| lines.error(format!("header: {e}")))?;
        if header.digest() != header.fingerprint {
            return Err(lines.error(format!(
                "header: fingerprint {} does not match its contents (edited?)",
                header.fingerprint
            )));
        }
        lines.take(&text, ended);
        let chain = chained.then(|| Chain::start(&header.fingerprint, header.shard.as_deref()));
        Ok(CompareReader {
            lines,
            header,
            chain,
        })
    }

    /// Whether the file's games carry a chained digest (format 2), each checked as it
    /// is read.
    pub fn chained(&self) -> bool {
        self.chain.is_some()
    }

    /// The next game, `None` at the end of the file; a bad or cut line is an error
    /// naming it.
    pub fn next_game(&mut self) -> Result<Option<ComparedGame>, RecordsError> {
        let Some((text, ended)) = self.lines.next_text()? else {
            return Ok(None);
        };
        match ComparedGame::from_line(&text) {
            Ok((game, unsealed, digest)) => {
                if let Some(chain) = self.chain.as_mut() {
                    chain.check(&unsealed, digest.as_deref()).map_err(|e| {
                        RecordsError::Unchained {
                            path: self.lines.name().to_string(),
                            line: self.lines.line(),
                            message: format!("game {} of variant {}: {e}", game.game, game.variant),
                        }
                    })?;
                }
                self.lines.take(&text, ended);
                Ok(Some(game))
            }
            Err(_) if !ended => Err(self.lines.error("cut short (an interrupted run)".into())),
            Err(e) => Err(self.lines.error(e)),
        }
    }
}
