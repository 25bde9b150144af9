//! Writing a records file, appending to it, and opening one for a run or its
//! resumption.

use super::*;

/// Drops a cut last line from the file, so appended records start on a line of their own.
pub(crate) fn truncate_to(path: &Path, valid_bytes: u64) -> Result<(), RecordsError> {
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
pub(crate) fn write_line(file: &mut File, line: &str) -> std::io::Result<()> {
    file.write_all(format!("{line}\n").as_bytes())?;
    file.flush()
}

/// A records file being written: each game's line sealed with the next digest of the
/// file's chain, and flushed whole.
#[derive(Debug)]
pub struct RecordsWriter {
    file: File,
    chain: Chain,
}

impl RecordsWriter {
    /// Writes `record`'s line, its digest following the games before it.
    pub fn write(&mut self, record: &Record, variant: &Variant) -> std::io::Result<()> {
        write_line(
            &mut self.file,
            &record.sealed_line(variant, &mut self.chain),
        )
    }
}

/// A new records file holding `header`, its games to be chained from it.
pub fn create(path: &Path, header: &Header) -> Result<RecordsWriter, RecordsError> {
    let shown = path.display();
    // (The header written whole or not at all: a full disk leaves no empty file.)
    isolo_rules::write_bytes_whole(path, format!("{}\n", header.to_line()).as_bytes())
        .map_err(|e| RecordsError::Io(format!("cannot write {shown}: {e}")))?;
    let file = OpenOptions::new()
        .append(true)
        .open(path)
        .map_err(|e| RecordsError::Io(format!("cannot open {shown}: {e}")))?;
    let chain = Chain::start(&header.fingerprint, header.shard.as_deref());
    Ok(RecordsWriter { file, chain })
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
) -> Result<(RecordsWriter, Resumed), RunRecordsError> {
    let existing = RecordsReader::open(path).map_err(RunRecordsError::File)?;
    let Some(mut existing) = existing else {
        let file = create(path, header).map_err(RunRecordsError::File)?;
        return Ok((file, Resumed::default()));
    };
    let shown = path.display();
    if !resume {
        return Err(RunRecordsError::HoldsRecords(shown.to_string()));
    }
    if !existing.chained() {
        return Err(RunRecordsError::NotThisRun(format!(
            "{shown} is in records format 1, whose games carry no digest: finish it with the version that began it, or start a new file"
        )));
    }
    let differences = header.differences(&existing.header);
    if !differences.is_empty() {
        return Err(RunRecordsError::NotThisRun(format!(
            "{shown} holds another run: {}",
            differences.join("; ")
        )));
    }
    // (The headers are alike: the file's games are checked against this run's schedule.)
    let not_this_run = |e: RecordsError| match e {
        RecordsError::Unchained { .. } => RunRecordsError::NotThisRun(e.to_string()),
        RecordsError::Sequence(_) | RecordsError::Replay(_) => {
            RunRecordsError::NotThisRun(format!("{shown}: {e}"))
        }
        _ => RunRecordsError::File(e),
    };
    let games = existing
        .check_rest(schedule, |_, _| Ok::<(), RecordsError>(()))
        .map_err(not_this_run)?;
    if existing.cut_line.is_some() {
        truncate_to(path, existing.valid_bytes()).map_err(RunRecordsError::File)?;
    }
    let file = append(path).map_err(RunRecordsError::File)?;
    let chain = existing.chain().expect("a chained file").clone();
    let resumed = Resumed {
        path: Some(path.to_path_buf()),
        games,
    };
    Ok((RecordsWriter { file, chain }, resumed))
}
