//! A records file served a page at a time (the web server's `--records`): checked
//! through once, a game at a time, as `replay` checks it, keeping only a place every
//! `GAMES_A_MARK` (256) games; a page or a game is read again from the file, from the
//! nearest place before it, its digests checked against the chain once more. Memory
//! holds the places, never the games.

use super::*;

/// Games between two places kept.
const GAMES_A_MARK: u64 = 256;

/// Games a page holds unless asked for fewer.
pub const RECORDS_PAGE_DEFAULT: usize = 100;

/// The most games one page holds.
pub const RECORDS_PAGE_MOST: usize = 1000;

/// A place kept: before the game `first` of the file (counted from 0) whose number is
/// `number`.
#[derive(Clone, Debug)]
struct Mark {
    first: u64,
    number: u64,
    place: Place,
}

/// A checked records file, its games read again when asked.
#[derive(Debug)]
pub struct RecordsPages {
    path: std::path::PathBuf,
    /// The run the file holds.
    pub header: Header,
    /// The variant of the header's rules.
    pub variant: Variant,
    /// The games it held when checked.
    pub games: u64,
    /// Whether its games carry a chained digest (format 2), checked when read.
    pub chained: bool,
    marks: Vec<Mark>,
}

/// A game as a list of games shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameSummary {
    /// Its number in the run.
    pub game: u64,
    /// The engine that played South.
    pub south: String,
    /// The engine that played North.
    pub north: String,
    /// Its result, in words.
    pub result: String,
    /// Its length.
    pub plies: usize,
}

impl GameSummary {
    fn of(record: &Record) -> GameSummary {
        GameSummary {
            game: record.game,
            south: record.south.clone(),
            north: record.north.clone(),
            result: record.result.text().to_string(),
            plies: record.moves.len(),
        }
    }
}

impl RecordsPages {
    /// Checks the records file at `path` through as `check_records` does, keeping a
    /// place every `GAMES_A_MARK` (256) games: `None` if it does not exist or holds no
    /// header.
    pub fn open(path: &Path) -> Result<Option<RecordsPages>, RecordsError> {
        let Some(mut reader) = RecordsReader::open(path)? else {
            return Ok(None);
        };
        let schedule = reader.header.schedule(&reader.variant)?;
        let labels = reader.header.labels();
        let mut sequence = SequenceCheck::new(&schedule, &labels);
        let mut marks = Vec::new();
        let mut games = 0;
        loop {
            let place = reader.place();
            let Some(record) = reader.next_record()? else {
                break;
            };
            sequence.next(&record)?;
            replay(&reader.variant, reader.header.max_plies, &record)?;
            if games % GAMES_A_MARK == 0 {
                let number = record.game;
                marks.push(Mark {
                    first: games,
                    number,
                    place,
                });
            }
            games += 1;
        }
        let chained = reader.chained();
        Ok(Some(RecordsPages {
            path: path.to_path_buf(),
            header: reader.header,
            variant: reader.variant,
            games,
            chained,
            marks,
        }))
    }

    /// The summaries of games `offset..offset + limit` in file order (`limit` at most
    /// [`RECORDS_PAGE_MOST`]); fewer at the end.
    pub fn page(&self, offset: u64, limit: usize) -> Result<Vec<GameSummary>, RecordsError> {
        let limit = limit.min(RECORDS_PAGE_MOST) as u64;
        let end = offset.saturating_add(limit).min(self.games);
        let mut page = Vec::new();
        let Some(mark) = self.marks.iter().rev().find(|m| m.first <= offset) else {
            return Ok(page);
        };
        let mut reader = self.reopen(mark)?;
        for at in mark.first..end {
            let record = self.next(&mut reader)?;
            if at >= offset {
                page.push(GameSummary::of(&record));
            }
        }
        Ok(page)
    }

    /// The game numbered `number`, if the file holds it.
    pub fn game(&self, number: u64) -> Result<Option<Record>, RecordsError> {
        // (The games are in number order: the last place before it holds it, if any.)
        let Some(mark) = self.marks.iter().rev().find(|m| m.number <= number) else {
            return Ok(None);
        };
        let mut reader = self.reopen(mark)?;
        for _ in mark.first..(mark.first + GAMES_A_MARK).min(self.games) {
            let record = self.next(&mut reader)?;
            if record.game >= number {
                return Ok((record.game == number).then_some(record));
            }
        }
        Ok(None)
    }

    fn reopen(&self, mark: &Mark) -> Result<RecordsReader, RecordsError> {
        RecordsReader::reopen(&self.path, &self.header, &self.variant, &mark.place)
    }

    /// The next game, which the file held when checked.
    fn next(&self, reader: &mut RecordsReader) -> Result<Record, RecordsError> {
        reader.next_record()?.ok_or_else(|| {
            RecordsError::Io(format!(
                "{}: the file has changed since it was read",
                self.path.display()
            ))
        })
    }
}
