//! Records files of `match` and `tournament`: one JSON object a line. The first line is a
//! [`Header`] holding everything that defines the run (the rules themselves, engines,
//! pairings, the opening positions, limits, seed) and its fingerprint; each further line
//! is one finished game, in game order. The header makes a file self-contained (`replay`
//! needs nothing else) and lets `--resume` refuse a run that is not the same.

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::matches::engine::EngineSpec;
use crate::matches::player::Termination;
use crate::matches::schedule::{Job, Schedule, Shard};
use isolo_rules::game::describe;
use isolo_rules::{Board, Game, Move, Outcome, Rules, Side, Variant};

/// The records format written by this version.
pub const FORMAT_VERSION: u32 = 1;
/// The longest line read: a file without line breaks (or `/dev/zero`) stops here.
const MAX_LINE_BYTES: u64 = 16 * 1024 * 1024;

/// What is wrong with a records file or its use.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordsError {
    /// Reading or writing the file failed.
    #[error("{0}")]
    Io(String),
    /// A line that is not a valid header or record.
    #[error("{path}, line {line}: {message}")]
    Line {
        /// The file.
        path: String,
        /// The line number, from 1.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// A header whose rules, openings or pairings cannot describe a run.
    #[error("{0}")]
    Header(String),
    /// Games duplicated, missing, out of range or not those of the schedule.
    #[error("{0}")]
    Sequence(String),
    /// A game that does not replay: an illegal move, or a result its moves do not lead to.
    #[error("{0}")]
    Replay(String),
}

/// A game's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GameResult {
    #[serde(rename = "S")]
    /// South won.
    SouthWins,
    #[serde(rename = "N")]
    /// North won.
    NorthWins,
    #[serde(rename = "draw")]
    /// A draw.
    Draw,
}

impl GameResult {
    /// The result of a game won by `winner` (`None`: a draw).
    pub fn of_winner(winner: Option<Side>) -> GameResult {
        match winner {
            Some(Side::South) => GameResult::SouthWins,
            Some(Side::North) => GameResult::NorthWins,
            None => GameResult::Draw,
        }
    }

    /// The winner, or `None` for a draw.
    pub fn winner(&self) -> Option<Side> {
        match self {
            GameResult::SouthWins => Some(Side::South),
            GameResult::NorthWins => Some(Side::North),
            GameResult::Draw => None,
        }
    }

    /// `S`, `N` or `draw`, as in the file.
    pub fn text(&self) -> &'static str {
        match self {
            GameResult::SouthWins => "S",
            GameResult::NorthWins => "N",
            GameResult::Draw => "draw",
        }
    }
}

/// An engine as the header names it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EngineEntry {
    /// The engine's label.
    pub label: String,
    /// Its spec without the label.
    pub spec: String,
}

/// The openings of a run: where they came from and the positions themselves.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpeningsEntry {
    /// The `--openings` file, or `start`.
    pub source: String,
    /// The positions, in RULES.md notation.
    pub positions: Vec<String>,
}

/// Everything that defines a run, as the first line of its records file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Header {
    /// The format version (`FORMAT_VERSION`).
    pub isolo_ai_records: u32,
    /// `match` or `tournament`.
    pub kind: String,
    /// The rules' name.
    pub variant: String,
    /// The complete rules as a rules file (not a path: a file can change or be absent).
    pub rules: String,
    /// The engines, indexed by `pairings`.
    pub engines: Vec<EngineEntry>,
    /// Engine indices of each pairing; the first is South in its even games.
    pub pairings: Vec<[usize; 2]>,
    /// Games of each pairing.
    pub games_per_pairing: u64,
    /// The opening positions.
    pub openings: OpeningsEntry,
    /// Plies after which a game is drawn.
    pub max_plies: usize,
    /// The master seed.
    pub seed: u64,
    /// The match's `--tc` (engines' own `tc=` are in their specs); absent without one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_control: Option<String>,
    /// How far past its clock a reply may come, in milliseconds; absent when no engine
    /// is on a clock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_margin_ms: Option<u64>,
    /// A digest of all the fields above (FNV-1a, 64 bits, hex): the run's fingerprint,
    /// the same in each of its shards.
    pub fingerprint: String,
    /// The share of the run's games this file holds (`K/N`); absent for a whole run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<String>,
}

impl Header {
    /// The header of a run; its fingerprint is computed here.
    pub fn new(
        kind: &str,
        variant: &Variant,
        engines: &[EngineSpec],
        schedule: &Schedule,
        openings_source: &str,
        max_plies: usize,
    ) -> Header {
        let mut header = Header {
            isolo_ai_records: FORMAT_VERSION,
            kind: kind.to_string(),
            variant: variant.name().to_string(),
            rules: variant.rules().to_toml(),
            engines: engines
                .iter()
                .map(|e| EngineEntry {
                    label: e.label.clone(),
                    spec: e.text.clone(),
                })
                .collect(),
            pairings: schedule.pairings().iter().map(|&(a, b)| [a, b]).collect(),
            games_per_pairing: schedule.games_per_pairing(),
            openings: OpeningsEntry {
                source: openings_source.to_string(),
                positions: schedule
                    .openings()
                    .iter()
                    .map(|b| variant.format_position(b))
                    .collect(),
            },
            max_plies,
            seed: schedule.seed(),
            time_control: None,
            time_margin_ms: None,
            fingerprint: String::new(),
            shard: None,
        };
        header.fingerprint = header.digest();
        header
    }

    /// The same header with the match's clock settings: the `--tc`, and the margin when
    /// any engine is on a clock.
    pub fn with_clocks(
        mut self,
        time_control: Option<&crate::search::clock::TimeControl>,
        margin: Option<std::time::Duration>,
    ) -> Header {
        self.time_control = time_control.map(|t| t.to_string());
        self.time_margin_ms = margin.map(|m| m.as_millis() as u64);
        self.fingerprint = self.digest();
        self
    }

    /// The same header for one shard of the run, if any (its fingerprint stays the
    /// run's). A run given `--shard 1/1` is a shard too, so merge takes it.
    pub fn with_shard(mut self, shard: Option<Shard>) -> Header {
        self.shard = shard.map(|s| s.to_string());
        self
    }

    /// The shard the header names (the whole run when it names none).
    pub fn shard(&self) -> Result<Shard, RecordsError> {
        match &self.shard {
            None => Ok(Shard::WHOLE),
            Some(text) => text
                .parse()
                .map_err(|e| RecordsError::Header(format!("header shard: {e}"))),
        }
    }

    /// FNV-1a over the header's JSON with an empty fingerprint and no shard.
    fn digest(&self) -> String {
        let mut unsigned = self.clone();
        unsigned.fingerprint.clear();
        unsigned.shard = None;
        fingerprint_of(&serde_json::to_string(&unsigned).expect("headers serialise"))
    }

    /// The header's line (no newline).
    pub fn to_line(&self) -> String {
        serde_json::to_string(self).expect("headers serialise")
    }

    /// The variant of the rules the header holds.
    pub fn variant(&self) -> Result<Variant, RecordsError> {
        let bad = |e: isolo_rules::RulesError| RecordsError::Header(format!("header rules: {e}"));
        let rules = Rules::from_toml(&self.rules, &self.variant).map_err(bad)?;
        Variant::new(rules).map_err(bad)
    }

    /// The schedule the header describes, checked against its variant.
    pub fn schedule(&self, variant: &Variant) -> Result<Schedule, RecordsError> {
        let openings = self
            .openings
            .positions
            .iter()
            .map(|p| variant.parse_position(p))
            .collect::<Result<Vec<Board>, _>>()
            .map_err(|e| RecordsError::Header(format!("header openings: {e}")))?;
        if openings.is_empty() {
            return Err(RecordsError::Header("header openings: none".into()));
        }
        if let Some(bad) = self
            .pairings
            .iter()
            .flatten()
            .find(|&&e| e >= self.engines.len())
        {
            return Err(RecordsError::Header(format!(
                "header pairings: no engine {bad}"
            )));
        }
        let pairings: Vec<(usize, usize)> = self.pairings.iter().map(|p| (p[0], p[1])).collect();
        Ok(
            Schedule::new(pairings, openings, self.games_per_pairing, self.seed)
                .with_shard(self.shard()?),
        )
    }

    /// Each way `file` (a header read back) differs from this run's header, named.
    pub fn differences(&self, file: &Header) -> Vec<String> {
        let mut out = Vec::new();
        let field = |out: &mut Vec<String>, name: &str, here: String, there: String| {
            if here != there {
                out.push(format!("{name}: {here} here, {there} in the file"));
            }
        };
        field(&mut out, "kind", self.kind.clone(), file.kind.clone());
        field(
            &mut out,
            "variant",
            self.variant.clone(),
            file.variant.clone(),
        );
        let rule_lines = |t: &str| t.lines().map(str::to_string).collect::<Vec<_>>();
        let (here, there) = (rule_lines(&self.rules), rule_lines(&file.rules));
        for line in here.iter().filter(|l| !there.contains(l)) {
            let key = line.split(" = ").next().unwrap_or(line);
            let theirs = there
                .iter()
                .find(|l| l.split(" = ").next() == Some(key))
                .cloned()
                .unwrap_or_else(|| "absent".into());
            out.push(format!("rules: {line} here, {theirs} in the file"));
        }
        let engines = |h: &Header| {
            h.engines
                .iter()
                .map(|e| format!("{}={}", e.label, e.spec))
                .collect::<Vec<_>>()
                .join(" ")
        };
        field(&mut out, "engines", engines(self), engines(file));
        field(
            &mut out,
            "pairings",
            format!("{:?}", self.pairings),
            format!("{:?}", file.pairings),
        );
        field(
            &mut out,
            "games",
            self.games_per_pairing.to_string(),
            file.games_per_pairing.to_string(),
        );
        if self.openings.positions != file.openings.positions {
            out.push(format!(
                "openings: {} positions from {} here, {} from {} in the file (contents differ)",
                self.openings.positions.len(),
                self.openings.source,
                file.openings.positions.len(),
                file.openings.source
            ));
        }
        field(
            &mut out,
            "max-plies",
            self.max_plies.to_string(),
            file.max_plies.to_string(),
        );
        field(
            &mut out,
            "seed",
            self.seed.to_string(),
            file.seed.to_string(),
        );
        let shown = |v: &Option<String>| v.clone().unwrap_or_else(|| "none".into());
        field(
            &mut out,
            "tc",
            shown(&self.time_control),
            shown(&file.time_control),
        );
        let margin = |v: Option<u64>| shown(&v.map(|m| format!("{m} ms")));
        field(
            &mut out,
            "time-margin",
            margin(self.time_margin_ms),
            margin(file.time_margin_ms),
        );
        let shard = |v: &Option<String>| v.clone().unwrap_or_else(|| "whole run".into());
        field(&mut out, "shard", shard(&self.shard), shard(&file.shard));
        out
    }
}

/// A header's fingerprint: FNV-1a (64 bits, hex) over its JSON with an empty
/// fingerprint and no shard.
pub fn fingerprint_of(text: &str) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in text.bytes() {
        hash ^= byte as u64;
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{hash:016x}")
}

/// The `kind` a records file's header names (`match`, `tournament`, `compare`), read
/// from its first line that is not blank; `None` for a file without one.
pub fn kind_of(path: &Path) -> Result<Option<String>, RecordsError> {
    let name = path.display();
    let file = isolo_rules::open_regular_file(path)
        .map_err(|e| RecordsError::Io(format!("{name}: cannot read: {e}")))?;
    let mut reader = BufReader::new(file);
    while let Some((text, _)) =
        read_line(&mut reader).map_err(|e| RecordsError::Io(format!("{name}: {e}")))?
    {
        if text.trim().is_empty() {
            continue;
        }
        let value: serde_json::Value =
            serde_json::from_str(&text).map_err(|e| RecordsError::Line {
                path: name.to_string(),
                line: 1,
                message: format!("not a records header: {e}"),
            })?;
        return Ok(value
            .get("kind")
            .and_then(|k| k.as_str())
            .map(str::to_string));
    }
    Ok(None)
}

/// One finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    /// The game's index in its schedule.
    pub game: u64,
    /// The starting position.
    pub opening: Board,
    /// Engine labels.
    pub south: String,
    /// North's engine label.
    pub north: String,
    /// The moves played.
    pub moves: Vec<Move>,
    /// The result.
    pub result: GameResult,
    /// Why the game ended.
    pub reason: Termination,
    /// After a forfeit, what the losing engine did.
    pub detail: Option<String>,
    /// The game's seed.
    pub seed: u64,
    /// How long the game took, in milliseconds.
    pub time_ms: u64,
    /// Each move's time in milliseconds (empty in files that predate it).
    pub move_ms: Vec<u64>,
    /// With clocks: the mover's clock after each move, increment added, in
    /// milliseconds (`None` for a side without a clock); empty without clocks.
    pub clock_ms: Vec<Option<u64>>,
}

/// A record as it is written: moves and positions as text.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RecordLine {
    game: u64,
    opening: String,
    south: String,
    north: String,
    moves: Vec<String>,
    result: GameResult,
    reason: Termination,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    detail: Option<String>,
    plies: usize,
    seed: u64,
    time_ms: u64,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    move_ms: Vec<u64>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    clock_ms: Vec<Option<u64>>,
}

impl Record {
    /// The record's line (no newline).
    pub fn to_line(&self, variant: &Variant) -> String {
        let line = RecordLine {
            game: self.game,
            opening: variant.format_position(&self.opening),
            south: self.south.clone(),
            north: self.north.clone(),
            moves: self.moves.iter().map(Move::to_string).collect(),
            result: self.result,
            reason: self.reason,
            detail: self.detail.clone(),
            plies: self.moves.len(),
            seed: self.seed,
            time_ms: self.time_ms,
            move_ms: self.move_ms.clone(),
            clock_ms: self.clock_ms.clone(),
        };
        serde_json::to_string(&line).expect("records serialise")
    }

    fn from_line(text: &str, variant: &Variant) -> Result<Record, String> {
        let line: RecordLine = serde_json::from_str(text).map_err(|e| e.to_string())?;
        let opening = variant
            .parse_position(&line.opening)
            .map_err(|e| format!("game {}: opening: {e}", line.game))?;
        let moves = line
            .moves
            .iter()
            .enumerate()
            .map(|(i, m)| {
                variant
                    .parse_move(m)
                    .map_err(|e| format!("game {}, move {}: {e}", line.game, i + 1))
            })
            .collect::<Result<Vec<Move>, String>>()?;
        let per_move = [
            ("move_ms", line.move_ms.len()),
            ("clock_ms", line.clock_ms.len()),
        ];
        if let Some((name, n)) = per_move.iter().find(|(_, n)| *n != 0 && *n != moves.len()) {
            return Err(format!(
                "game {}: {name} has {n} entries for {} moves",
                line.game,
                moves.len()
            ));
        }
        if line.plies != moves.len() {
            return Err(format!(
                "game {}: says {} plies but lists {} moves",
                line.game,
                line.plies,
                moves.len()
            ));
        }
        Ok(Record {
            game: line.game,
            opening,
            south: line.south,
            north: line.north,
            moves,
            result: line.result,
            reason: line.reason,
            detail: line.detail,
            seed: line.seed,
            time_ms: line.time_ms,
            move_ms: line.move_ms,
            clock_ms: line.clock_ms,
        })
    }

    /// The winner's side, or `None` for a draw.
    pub fn winner(&self) -> Option<Side> {
        self.result.winner()
    }
}

/// A records file read back.
pub struct RecordsFile {
    /// The run the file holds.
    pub header: Header,
    /// The variant of the header's rules.
    pub variant: Variant,
    /// The games in file order.
    pub records: Vec<Record>,
    /// Bytes up to the end of the last whole line.
    pub valid_bytes: u64,
    /// The line number of a last line cut short (an interrupted run), if any.
    pub cut_line: Option<usize>,
}

impl RecordsFile {
    /// Replays `record` under the file's rules and ply cap and checks its result: a
    /// result by the rules must be the one its moves lead to, a forfeit the loss of the
    /// side to move in a game still going on. The game played, or what is wrong, naming
    /// the game and the move.
    pub fn replay(&self, record: &Record) -> Result<Game<'_>, RecordsError> {
        replay(&self.variant, self.header.max_plies, record)
    }
}

/// Replays `record` under `variant` and the run's ply cap and checks its result, as
/// [`RecordsFile::replay`] does.
pub fn replay<'v>(
    variant: &'v Variant,
    max_plies: usize,
    record: &Record,
) -> Result<Game<'v>, RecordsError> {
    let name = format!("game {}", record.game);
    let fail = |problem: String| RecordsError::Replay(format!("{name}: {problem}"));
    let mut game = Game::new(variant, record.opening).with_max_plies(max_plies);
    for (i, mv) in record.moves.iter().enumerate() {
        let mover = game.board().to_move();
        game.play_move(mv)
            .map_err(|e| RecordsError::Replay(format!("{name}, move {} ({mover}): {e}", i + 1)))?;
    }
    let plies = record.moves.len();
    let plies = format!("{plies} {}", if plies == 1 { "ply" } else { "plies" });
    match (record.reason.by_rules(), game.outcome()) {
        (Some(reason), outcome) => {
            let claimed = Outcome {
                winner: record.winner(),
                reason,
            };
            match outcome {
                Some(outcome) if outcome == claimed => Ok(game),
                Some(outcome) => Err(fail(format!(
                    "records {} but the game ends {}",
                    describe(&claimed),
                    describe(&outcome)
                ))),
                None => Err(fail(format!(
                    "records {} but the game goes on after {plies}",
                    describe(&claimed)
                ))),
            }
        }
        (None, Some(outcome)) => Err(fail(format!(
            "records a {} forfeit but the game had ended {}",
            record.reason,
            describe(&outcome)
        ))),
        (None, None) => {
            let loser = game.board().to_move();
            if record.winner() == Some(loser.opponent()) {
                Ok(game)
            } else {
                Err(fail(format!(
                    "records a {} forfeit by {loser}, the side to move, but not {} winning",
                    record.reason,
                    loser.opponent()
                )))
            }
        }
    }
}

impl RecordsFile {
    /// Every check `replay` makes of a file: its games are those of the header's
    /// schedule, in order and each once, played as scheduled, and every one replays.
    pub fn check(&self) -> Result<(), RecordsError> {
        self.check_sequence()?;
        self.records
            .iter()
            .try_for_each(|r| self.replay(r).map(|_| ()))
    }

    /// The file's games are those of the header's schedule, in order and each once,
    /// played as scheduled (each game's moves unchecked: [`RecordsFile::replay`]); the
    /// schedule.
    pub fn check_sequence(&self) -> Result<Schedule, RecordsError> {
        let schedule = self.header.schedule(&self.variant)?;
        let labels: Vec<String> = self
            .header
            .engines
            .iter()
            .map(|e| e.label.clone())
            .collect();
        check_sequence(&self.records, &schedule, &labels)?;
        Ok(schedule)
    }
}

/// Reads one line of at most `MAX_LINE_BYTES`; `None` at the end of the file. The flag
/// says whether the line ended with a newline.
pub(crate) fn read_line(reader: &mut impl BufRead) -> Result<Option<(String, bool)>, String> {
    let mut bytes = Vec::new();
    reader
        .take(MAX_LINE_BYTES + 1)
        .read_until(b'\n', &mut bytes)
        .map_err(|e| format!("cannot read: {e}"))?;
    if bytes.is_empty() {
        return Ok(None);
    }
    if bytes.len() as u64 > MAX_LINE_BYTES {
        return Err(format!(
            "a line larger than {MAX_LINE_BYTES} bytes: not a records file"
        ));
    }
    let ended = bytes.last() == Some(&b'\n');
    if ended {
        bytes.pop();
    }
    let text = String::from_utf8(bytes).map_err(|_| "not UTF-8 text".to_string())?;
    Ok(Some((text, ended)))
}

/// A records file read a record at a time, so a file of any size takes no more memory
/// than its longest line.
pub struct RecordsReader {
    name: String,
    reader: BufReader<File>,
    line: usize,
    /// The run the file holds.
    pub header: Header,
    /// The variant of the header's rules.
    pub variant: Variant,
    /// Bytes up to the end of the last whole line read.
    pub valid_bytes: u64,
    /// The line number of a last line cut short (an interrupted run), once read.
    pub cut_line: Option<usize>,
    /// The text of the last record read.
    last_line: String,
}

impl RecordsReader {
    /// The line of the record `next_record` last gave, as the file holds it.
    pub fn last_line(&self) -> &str {
        &self.last_line
    }

    /// Opens a records file and reads its header: `None` if the file does not exist or
    /// holds no header. Blank lines are skipped; a last line cut short ends the file
    /// (see `cut_line`); any other bad line is an error naming its line number.
    pub fn open(path: &Path) -> Result<Option<RecordsReader>, RecordsError> {
        let name = path.display().to_string();
        let file = match isolo_rules::open_regular_file(path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(RecordsError::Io(format!("{name}: cannot read: {e}"))),
        };
        let mut reader = BufReader::new(file);
        let (mut line, mut valid_bytes) = (0, 0u64);
        loop {
            let Some((text, ended)) =
                read_line(&mut reader).map_err(|e| RecordsError::Io(format!("{name}: {e}")))?
            else {
                return Ok(None);
            };
            line += 1;
            if text.trim().is_empty() {
                valid_bytes += text.len() as u64 + ended as u64;
                continue;
            }
            let (header, variant) = match read_header(&text) {
                Ok(read) => read,
                Err(_) if !ended => return Ok(None),
                Err(message) => {
                    return Err(RecordsError::Line {
                        path: name,
                        line,
                        message,
                    })
                }
            };
            valid_bytes += text.len() as u64 + ended as u64;
            return Ok(Some(RecordsReader {
                name,
                reader,
                line,
                header,
                variant,
                valid_bytes,
                cut_line: None,
                last_line: String::new(),
            }));
        }
    }

    /// The next record, `None` at the end of the file.
    pub fn next_record(&mut self) -> Result<Option<Record>, RecordsError> {
        while self.cut_line.is_none() {
            let Some((text, ended)) = read_line(&mut self.reader)
                .map_err(|e| RecordsError::Io(format!("{}: {e}", self.name)))?
            else {
                return Ok(None);
            };
            self.line += 1;
            if text.trim().is_empty() {
                self.valid_bytes += text.len() as u64 + ended as u64;
                continue;
            }
            match Record::from_line(&text, &self.variant) {
                Ok(record) => {
                    self.valid_bytes += text.len() as u64 + ended as u64;
                    self.last_line = text;
                    return Ok(Some(record));
                }
                Err(_) if !ended => self.cut_line = Some(self.line),
                Err(message) => {
                    return Err(RecordsError::Line {
                        path: self.name.clone(),
                        line: self.line,
                        message,
                    })
                }
            }
        }
        Ok(None)
    }
}

/// Reads a whole records file into memory: `None` if it does not exist or is empty
/// (see `RecordsReader::open`).
pub fn read_records(path: &Path) -> Result<Option<RecordsFile>, RecordsError> {
    let Some(mut reader) = RecordsReader::open(path)? else {
        return Ok(None);
    };
    let mut records = Vec::new();
    while let Some(record) = reader.next_record()? {
        records.push(record);
    }
    Ok(Some(RecordsFile {
        header: reader.header,
        variant: reader.variant,
        records,
        valid_bytes: reader.valid_bytes,
        cut_line: reader.cut_line,
    }))
}

fn read_header(text: &str) -> Result<(Header, Variant), String> {
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    match value.get("isolo_ai_records").and_then(|v| v.as_u64()) {
        Some(v) if v == FORMAT_VERSION as u64 => {}
        Some(v) => {
            return Err(format!(
                "records format {v}; this version reads format {FORMAT_VERSION}"
            ))
        }
        None => {
            return Err(
                "not a records header (the first line of a records file names the run; files from before format 1 have none)".into(),
            )
        }
    }
    let header: Header = serde_json::from_value(value).map_err(|e| format!("header: {e}"))?;
    if header.digest() != header.fingerprint {
        return Err(format!(
            "header: fingerprint {} does not match its contents (edited?)",
            header.fingerprint
        ));
    }
    let variant = header.variant().map_err(|e| e.to_string())?;
    Ok((header, variant))
}

/// Checks that `records` are games `0..n` of `schedule`, each once, in order, and that
/// each was played by the engines, from the opening and with the seed the schedule
/// gives. The error names the first game that is duplicated, missing, out of range or
/// does not match.
pub fn check_sequence(
    records: &[Record],
    schedule: &Schedule,
    engines: &[String],
) -> Result<(), RecordsError> {
    check_order(records, schedule, engines).map_err(RecordsError::Sequence)
}

fn check_order(records: &[Record], schedule: &Schedule, engines: &[String]) -> Result<(), String> {
    let mut check = SequenceCheck::new(schedule, engines);
    records.iter().try_for_each(|r| check.next_text(r))
}

/// `check_sequence` a record at a time, for files too large to hold: each record must
/// be the next game of the schedule's shard, played as the schedule says.
pub struct SequenceCheck<'a> {
    schedule: &'a Schedule,
    engines: &'a [String],
    expected: Box<dyn Iterator<Item = u64> + Send + 'a>,
    previous: Option<u64>,
}

impl<'a> SequenceCheck<'a> {
    /// A check of the games of `schedule`'s shard, from its first.
    pub fn new(schedule: &'a Schedule, engines: &'a [String]) -> SequenceCheck<'a> {
        SequenceCheck {
            schedule,
            engines,
            expected: Box::new(schedule.games()),
            previous: None,
        }
    }

    /// Checks the next record; the error names what is wrong.
    pub fn next(&mut self, r: &Record) -> Result<(), RecordsError> {
        self.next_text(r).map_err(RecordsError::Sequence)
    }

    fn next_text(&mut self, r: &Record) -> Result<(), String> {
        let Some(expected) = self.expected.next() else {
            return Err(match self.previous {
                Some(p) if r.game <= p => format!("game {} is recorded twice", r.game),
                _ => format!("game {} is beyond the games this file plays", r.game),
            });
        };
        game_in_place(r, expected, self.previous, self.schedule)?;
        self.previous = Some(r.game);
        job_as_scheduled(r, self.schedule, self.engines)
    }
}

/// Checks that a record was played by the engines, from the opening and with the seed
/// that its schedule gives its game.
pub fn check_job(r: &Record, schedule: &Schedule, engines: &[String]) -> Result<(), RecordsError> {
    job_as_scheduled(r, schedule, engines).map_err(RecordsError::Sequence)
}

fn job_as_scheduled(r: &Record, schedule: &Schedule, engines: &[String]) -> Result<(), String> {
    let job: Job = schedule.job(r.game);
    let (south, north) = (&engines[job.south], &engines[job.north]);
    if r.south != *south || r.north != *north || r.seed != job.seed || r.opening != job.opening {
        return Err(format!(
            "game {} does not match the schedule (engines, opening or seed differ)",
            r.game
        ));
    }
    Ok(())
}

/// Checks that a record holds game `expected` of the schedule's shard, coming after game
/// `previous`; the error names what is wrong.
pub fn check_game(
    r: &Record,
    expected: u64,
    previous: Option<u64>,
    schedule: &Schedule,
) -> Result<(), RecordsError> {
    game_in_place(r, expected, previous, schedule).map_err(RecordsError::Sequence)
}

fn game_in_place(
    r: &Record,
    expected: u64,
    previous: Option<u64>,
    schedule: &Schedule,
) -> Result<(), String> {
    let total = schedule.len();
    let shard = schedule.shard();
    if r.game == expected {
        return Ok(());
    }
    if r.game >= total {
        return Err(format!(
            "game {} is beyond the schedule's {total} games",
            r.game
        ));
    }
    if previous.is_some_and(|p| r.game <= p) {
        return Err(format!("game {} is recorded twice", r.game));
    }
    let owner = schedule.shard_of(r.game, shard.count);
    if owner != shard.index {
        return Err(format!(
            "game {} belongs to shard {}/{}, not to this file's {shard}",
            r.game,
            owner + 1,
            shard.count
        ));
    }
    let context = match previous {
        None => format!("the records start at game {}", r.game),
        Some(p) => format!("the records go from game {p} to game {}", r.game),
    };
    Err(format!("game {expected} is missing ({context})"))
}

/// Drops a cut last line from the file, so appended records start on a line of their own.
pub fn truncate_to(path: &Path, valid_bytes: u64) -> Result<(), RecordsError> {
    let io = |e: std::io::Error| {
        RecordsError::Io(format!(
            "{}: cannot drop the cut last line: {e}",
            path.display()
        ))
    };
    let file = OpenOptions::new().write(true).open(path).map_err(io)?;
    file.set_len(valid_bytes).map_err(io)
}

/// Writes one line and flushes it, so an interruption loses at most the line in flight.
pub fn write_line(file: &mut File, line: &str) -> std::io::Result<()> {
    file.write_all(format!("{line}\n").as_bytes())?;
    file.flush()
}

/// A new records file holding `header`.
pub fn create(path: &Path, header: &Header) -> Result<File, RecordsError> {
    let shown = path.display();
    let mut file =
        File::create(path).map_err(|e| RecordsError::Io(format!("cannot create {shown}: {e}")))?;
    write_line(&mut file, &header.to_line())
        .map_err(|e| RecordsError::Io(format!("cannot write {shown}: {e}")))?;
    Ok(file)
}

/// Opens an existing records file for appending.
pub fn append(path: &Path) -> Result<File, RecordsError> {
    OpenOptions::new()
        .append(true)
        .open(path)
        .map_err(|e| RecordsError::Io(format!("cannot open {}: {e}", path.display())))
}

/// Why a run's records file cannot be opened for the run.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RunRecordsError {
    /// The file cannot be read, created or appended to.
    #[error("{0}")]
    File(RecordsError),
    /// A new run's file already holds records (resume it, or choose another file).
    #[error("{0} already holds records")]
    HoldsRecords(String),
    /// Resuming: the file holds another run's records, or games this run would not have
    /// played as they stand.
    #[error("{0}")]
    NotThisRun(String),
}

/// The games a records file holds for a resumed run: checked when it is opened, read
/// again one at a time when the run starts (so none is held in memory).
#[derive(Debug, Default)]
pub struct Resumed {
    path: Option<std::path::PathBuf>,
    /// How many.
    pub games: u64,
}

impl Resumed {
    /// The games, in file order, read as they are asked for.
    pub fn records(
        &self,
    ) -> Result<impl Iterator<Item = Result<Record, RecordsError>>, RecordsError> {
        let mut reader = match &self.path {
            Some(path) if self.games > 0 => RecordsReader::open(path)?,
            _ => None,
        };
        Ok(
            std::iter::from_fn(move || reader.as_mut()?.next_record().transpose())
                .take(self.games as usize),
        )
    }
}

/// Opens `path` for a run described by `header` and `schedule`: a new file with the
/// header, or, with `resume`, the file's games once each is checked to be the next
/// game of this very run and to replay (a cut last line, from an interrupted run, is
/// dropped). The file to append to and the games to resume.
pub fn open_for_run(
    path: &Path,
    header: &Header,
    schedule: &Schedule,
    resume: bool,
) -> Result<(File, Resumed), RunRecordsError> {
    let existing = RecordsReader::open(path).map_err(RunRecordsError::File)?;
    let Some(mut existing) = existing else {
        let file = create(path, header).map_err(RunRecordsError::File)?;
        return Ok((file, Resumed::default()));
    };
    let shown = path.display();
    if !resume {
        return Err(RunRecordsError::HoldsRecords(shown.to_string()));
    }
    let differences = header.differences(&existing.header);
    if !differences.is_empty() {
        return Err(RunRecordsError::NotThisRun(format!(
            "{shown} holds another run: {}",
            differences.join("; ")
        )));
    }
    let labels: Vec<String> = header.engines.iter().map(|e| e.label.clone()).collect();
    let mut check = SequenceCheck::new(schedule, &labels);
    let variant = existing.variant.clone();
    let mut games = 0;
    while let Some(record) = existing.next_record().map_err(RunRecordsError::File)? {
        check
            .next(&record)
            .and_then(|()| replay(&variant, header.max_plies, &record).map(|_| ()))
            .map_err(|e| RunRecordsError::NotThisRun(format!("{shown}: {e}")))?;
        games += 1;
    }
    if existing.cut_line.is_some() {
        truncate_to(path, existing.valid_bytes).map_err(RunRecordsError::File)?;
    }
    let file = append(path).map_err(RunRecordsError::File)?;
    let resumed = Resumed {
        path: Some(path.to_path_buf()),
        games,
    };
    Ok((file, resumed))
}
