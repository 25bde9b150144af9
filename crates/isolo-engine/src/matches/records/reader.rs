//! Reading a records file back, a record at a time or whole, and replaying its games.

use super::*;

/// A records file read back whole, every check `replay` makes passed ([`read_records`]).
pub struct RecordsFile {
    /// The run the file holds.
    pub header: Header,
    /// The variant of the header's rules.
    pub variant: Variant,
    /// The games in file order.
    pub records: Vec<Record>,
    /// The line number of a last line cut short (an interrupted run), if any.
    pub cut_line: Option<usize>,
    /// Whether its games carry a chained digest (format 2), checked as they were read.
    pub chained: bool,
}

/// Replays `record` under `variant` and the run's ply cap and checks its result: a
/// result by the rules must be the one its moves lead to, a forfeit the loss of the side
/// to move in a game still going on (under the retreat, of either side: the opponent
/// answers inside the mover's move). The game played, or what is wrong, naming the game
/// and the move.
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
            // Under the retreat the opponent answers inside the mover's move, and may
            // forfeit there.
            let answerer_lost = variant.has_retreat() && record.winner() == Some(loser);
            if record.winner() == Some(loser.opponent()) || answerer_lost {
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

/// A file of JSON lines read a line at a time: blank lines skipped, lines counted for
/// errors, and the bytes of the lines taken so far, so that a run cut short can be
/// truncated to its last whole line. The records reader and the comparison reader share it.
pub(crate) struct Lines {
    name: String,
    reader: BufReader<File>,
    /// The number of the last line read (from 1).
    line: usize,
    /// Bytes up to the end of the last line taken (blank lines included).
    taken_bytes: u64,
}

impl Lines {
    /// The file at `path`, or the system's error opening it.
    pub(crate) fn open(path: &Path) -> std::io::Result<Lines> {
        Ok(Lines {
            name: path.display().to_string(),
            reader: BufReader::new(isolo_rules::open_regular_file(path)?),
            line: 0,
            taken_bytes: 0,
        })
    }

    /// The next line that is not blank, and whether it ended with a newline; `None` at
    /// the end of the file. The caller `take`s it once it reads as it should.
    pub(crate) fn next_text(&mut self) -> Result<Option<(String, bool)>, RecordsError> {
        loop {
            let read = read_line(&mut self.reader);
            // (A line that is no text, or too long, is named by its number.)
            let Some((text, ended)) = read.map_err(|e| {
                self.line += 1;
                self.error(e)
            })?
            else {
                return Ok(None);
            };
            self.line += 1;
            if !text.trim().is_empty() {
                return Ok(Some((text, ended)));
            }
            self.taken_bytes += text.len() as u64 + u64::from(ended);
        }
    }

    /// Counts the line `next_text` gave as read whole.
    pub(crate) fn take(&mut self, text: &str, ended: bool) {
        self.taken_bytes += text.len() as u64 + u64::from(ended);
    }

    /// `message` about the last line read, naming the file and the line.
    pub(crate) fn error(&self, message: String) -> RecordsError {
        RecordsError::Line {
            path: self.name.clone(),
            line: self.line,
            message,
        }
    }

    /// The file's name as errors give it.
    pub(crate) fn name(&self) -> &str {
        &self.name
    }

    /// The number of the last line read.
    pub(crate) fn line(&self) -> usize {
        self.line
    }
}

/// A records file read a record at a time, so a file of any size takes no more memory
/// than its longest line.
pub struct RecordsReader {
    lines: Lines,
    /// The run the file holds.
    pub header: Header,
    /// The variant of the header's rules.
    pub variant: Variant,
    /// The line number of a last line cut short (an interrupted run), once read.
    pub cut_line: Option<usize>,
    /// The digests' chain so far (`None`: format 1, whose games have none).
    chain: Option<Chain>,
}

impl RecordsReader {
    /// Whether the file's games carry a chained digest (format 2), each checked as it
    /// is read: a game edited, replaced, removed or moved is then refused.
    pub fn chained(&self) -> bool {
        self.chain.is_some()
    }

    /// The chain after the games read so far (`None` for format 1), which games
    /// appended to the file continue.
    pub fn chain(&self) -> Option<&Chain> {
        self.chain.as_ref()
    }

    /// Opens a records file and reads its header: `None` if the file does not exist or
    /// holds no header. Blank lines are skipped; a last line cut short ends the file
    /// (see `cut_line`); any other bad line is an error naming its line number.
    pub fn open(path: &Path) -> Result<Option<RecordsReader>, RecordsError> {
        let mut lines = match Lines::open(path) {
            Ok(lines) => lines,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => {
                let name = path.display();
                return Err(RecordsError::Io(format!("{name}: cannot read: {e}")));
            }
        };
        let Some((text, ended)) = lines.next_text()? else {
            return Ok(None);
        };
        let (header, variant) = match read_header(&text) {
            Ok(read) => read,
            Err(_) if !ended => return Ok(None),
            Err(message) => return Err(lines.error(message)),
        };
        lines.take(&text, ended);
        let chain = (header.isolo_ai_records == CHAINED_FORMAT)
            .then(|| Chain::start(&header.fingerprint, header.shard.as_deref()));
        Ok(Some(RecordsReader {
            lines,
            header,
            variant,
            cut_line: None,
            chain,
        }))
    }

    /// Reads the rest of the file, each game checked as `replay` checks it: its digest
    /// as it is read, that it is the next game of `schedule` (the header's, or that of a
    /// run the header was found to describe) played as scheduled, and that it replays.
    /// `each` sees every game once it has passed, with the game replayed, and may stop
    /// the reading with an error. The games read.
    pub(crate) fn check_rest<E: From<RecordsError>>(
        &mut self,
        schedule: &Schedule,
        mut each: impl FnMut(&Record, &Game<'_>) -> Result<(), E>,
    ) -> Result<u64, E> {
        let labels = self.header.labels();
        let mut sequence = SequenceCheck::new(schedule, &labels);
        let mut games = 0;
        while let Some(record) = self.next_record()? {
            sequence.next(&record)?;
            let game = replay(&self.variant, self.header.max_plies, &record)?;
            each(&record, &game)?;
            games += 1;
        }
        Ok(games)
    }

    /// Bytes up to the end of the last whole line read.
    pub(crate) fn valid_bytes(&self) -> u64 {
        self.lines.taken_bytes
    }

    /// Where the next game will be read from: the file's byte, the number of the line
    /// before it, and the chain before it (`Place::reopen` reads on from there).
    pub fn place(&self) -> Place {
        Place {
            offset: self.lines.taken_bytes,
            line: self.lines.line,
            chain: self.chain.clone(),
        }
    }

    /// The reader of a file opened before, at `place` (its header and variant those the
    /// first reader read); the games from there are read, and checked against the
    /// chain, again.
    pub(crate) fn reopen(
        path: &Path,
        header: &Header,
        variant: &Variant,
        place: &Place,
    ) -> Result<RecordsReader, RecordsError> {
        use std::io::Seek;
        let cannot =
            |e: std::io::Error| RecordsError::Io(format!("{}: cannot read: {e}", path.display()));
        let mut file = isolo_rules::open_regular_file(path).map_err(cannot)?;
        file.seek(std::io::SeekFrom::Start(place.offset))
            .map_err(cannot)?;
        Ok(RecordsReader {
            lines: Lines {
                name: path.display().to_string(),
                reader: BufReader::new(file),
                line: place.line,
                taken_bytes: place.offset,
            },
            header: header.clone(),
            variant: variant.clone(),
            cut_line: None,
            chain: place.chain.clone(),
        })
    }

    /// The next record, `None` at the end of the file.
    pub fn next_record(&mut self) -> Result<Option<Record>, RecordsError> {
        if self.cut_line.is_some() {
            return Ok(None);
        }
        let Some((text, ended)) = self.lines.next_text()? else {
            return Ok(None);
        };
        match Record::from_line(&text, &self.variant) {
            Ok(read) => {
                if let Some(chain) = self.chain.as_mut() {
                    chain
                        .check(&read.unsealed, read.digest.as_deref())
                        .map_err(|e| RecordsError::Unchained {
                            path: self.lines.name().to_string(),
                            line: self.lines.line(),
                            message: format!("game {}: {e}", read.record.game),
                        })?;
                }
                self.lines.take(&text, ended);
                Ok(Some(read.record))
            }
            Err(_) if !ended => {
                self.cut_line = Some(self.lines.line());
                Ok(None)
            }
            Err(message) => Err(self.lines.error(message)),
        }
    }
}

/// A place in a records file between two games, to read on from later.
#[derive(Clone, Debug)]
pub struct Place {
    offset: u64,
    line: usize,
    chain: Option<Chain>,
}

/// A records file checked through by [`check_records`].
#[derive(Debug)]
pub struct CheckedRecords {
    /// The run the file holds.
    pub header: Header,
    /// The variant of the header's rules.
    pub variant: Variant,
    /// The games it holds.
    pub games: u64,
    /// The games of its run (of its shard, for a shard's file).
    pub scheduled: u64,
    /// The line number of a last line cut short (an interrupted run), if any.
    pub cut_line: Option<usize>,
    /// Whether its games carry a chained digest (format 2), each one checked.
    pub chained: bool,
}

/// Reads a records file a game at a time and makes every check `replay` makes: the
/// header's fingerprint, each game's digest (format 2), the games those of the header's
/// schedule in order and each once, played as scheduled, and each one replaying to its
/// result. `each` sees every game once it has passed, with the game replayed, and may
/// stop the walk with an error. A file of any size takes the memory of one game.
/// `None` if the file does not exist or holds no header.
pub fn check_records<E: From<RecordsError>>(
    path: &Path,
    each: impl FnMut(&Record, &Game<'_>) -> Result<(), E>,
) -> Result<Option<CheckedRecords>, E> {
    let Some(mut reader) = RecordsReader::open(path)? else {
        return Ok(None);
    };
    let schedule = reader.header.schedule(&reader.variant)?;
    let games = reader.check_rest(&schedule, each)?;
    Ok(Some(CheckedRecords {
        games,
        scheduled: schedule.shard_len(),
        cut_line: reader.cut_line,
        chained: reader.chained(),
        header: reader.header,
        variant: reader.variant,
    }))
}

/// Reads a whole records file into memory once each game has passed every check
/// `replay` makes ([`check_records`], which holds one game at a time where a caller need
/// not keep them): `None` if it does not exist or is empty (see `RecordsReader::open`).
pub fn read_records(path: &Path) -> Result<Option<RecordsFile>, RecordsError> {
    let mut records = Vec::new();
    let checked = check_records(path, |record, _| {
        records.push(record.clone());
        Ok::<(), RecordsError>(())
    })?;
    Ok(checked.map(|file| RecordsFile {
        header: file.header,
        variant: file.variant,
        records,
        cut_line: file.cut_line,
        chained: file.chained,
    }))
}

fn read_header(text: &str) -> Result<(Header, Variant), String> {
    // (A byte-order mark, as some editors write, is no reason to refuse the file.)
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    if value.get("variants").is_some() {
        return Err(
            "a comparison's records (compare --out): `merge` and Python's `read_records` read them, `replay` and `review` a match's or a tournament's".into(),
        );
    }
    match value.get("isolo_ai_records").and_then(|v| v.as_u64()) {
        Some(v) => {
            let version = u32::try_from(v).unwrap_or(u32::MAX);
            is_chained(version)?;
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

/// The `kind` a records file's header names (`match`, `tournament`, `compare`), read
/// from its first line that is not blank; `None` for a file without one.
pub fn kind_of(path: &Path) -> Result<Option<String>, RecordsError> {
    let mut lines = Lines::open(path).map_err(|e| {
        let name = path.display();
        RecordsError::Io(format!("{name}: cannot read: {e}"))
    })?;
    let Some((text, _)) = lines.next_text()? else {
        return Ok(None);
    };
    let value: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| lines.error(format!("not a records header: {e}")))?;
    Ok(value
        .get("kind")
        .and_then(|k| k.as_str())
        .map(str::to_string))
}
