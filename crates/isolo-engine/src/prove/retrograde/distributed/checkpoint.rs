//! The exact labels saved at the end of a round, in a folder every rank reaches, so
//! that a stopped run (SIGTERM, a lost node, a time limit) resumes there on any number
//! of ranks.
//!
//! Each rank writes the labelled positions it owns, as (number, label) pairs of 64
//! bits each in number order, to a part file named by the round and the ranks; once
//! every part is whole, rank 0 writes `checkpoint.json` in its place (written aside
//! and renamed, so a run killed while saving leaves the checkpoint before) and removes
//! the parts of other checkpoints. A run resumed lists the positions again (the
//! listing is not saved), takes in the labels of its own positions from every part,
//! and counts again each position's children won before the round.

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// The checkpoint's description, beside its parts.
const META: &str = "checkpoint.json";

/// What a checkpoint is of and where it stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct Meta {
    /// The rules and the root, as a fingerprint: a checkpoint of another problem is
    /// refused.
    pub(super) problem: String,
    /// Every label of this round and before is saved.
    pub(super) round: u32,
    /// Ranks that wrote the parts.
    pub(super) ranks: usize,
    /// The listing's counts, which the listing of a resumed run must give again.
    pub(super) reached: u64,
    pub(super) edges: u64,
    pub(super) cut: u64,
}

fn part_name(round: u32, rank: usize, ranks: usize) -> String {
    format!("labels-{round}-{rank}of{ranks}.bin")
}

fn fault(path: &Path) -> impl Fn(std::io::Error) -> String + '_ {
    move |e| format!("the checkpoint {}: {e}", path.display())
}

/// The checkpoint in `folder`, if there is one.
pub(super) fn read_meta(folder: &Path) -> Result<Option<Meta>, String> {
    let path = folder.join(META);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(fault(&path)(e)),
    };
    serde_json::from_str(&text)
        .map(Some)
        .map_err(|e| format!("the checkpoint {}: {e}", path.display()))
}

/// Writes this rank's part of the checkpoint of `round`: `labels`, in number order.
pub(super) fn write_part(
    folder: &Path,
    round: u32,
    rank: usize,
    ranks: usize,
    labels: impl Iterator<Item = (u64, u32)>,
) -> Result<(), String> {
    std::fs::create_dir_all(folder).map_err(fault(folder))?;
    let path = folder.join(part_name(round, rank, ranks));
    let aside = path.with_extension("tmp");
    let mut out = BufWriter::new(std::fs::File::create(&aside).map_err(fault(&aside))?);
    for (number, label) in labels {
        out.write_all(&number.to_le_bytes())
            .map_err(fault(&aside))?;
        out.write_all(&u64::from(label).to_le_bytes())
            .map_err(fault(&aside))?;
    }
    let file = out
        .into_inner()
        .map_err(|e| fault(&aside)(e.into_error()))?;
    file.sync_all().map_err(fault(&aside))?;
    std::fs::rename(&aside, &path).map_err(fault(&path))
}

/// Makes the checkpoint `meta` (whose parts are all written) the folder's, and removes
/// every other part.
pub(super) fn write_meta(folder: &Path, meta: &Meta) -> Result<(), String> {
    let path = folder.join(META);
    let aside = path.with_extension("tmp");
    let text = serde_json::to_string_pretty(meta).expect("plain data");
    std::fs::write(&aside, text).map_err(fault(&aside))?;
    std::fs::rename(&aside, &path).map_err(fault(&path))?;
    let ours: Vec<String> = (0..meta.ranks)
        .map(|rank| part_name(meta.round, rank, meta.ranks))
        .collect();
    for entry in std::fs::read_dir(folder).map_err(fault(folder))? {
        let name = entry.map_err(fault(folder))?.file_name();
        let name = name.to_string_lossy();
        if name.starts_with("labels-") && !ours.iter().any(|o| **o == *name) {
            let _ = std::fs::remove_file(folder.join(&*name));
        }
    }
    Ok(())
}

/// Calls `each(number, label)` for every label of the checkpoint `meta` in `folder`.
pub(super) fn read_parts(
    folder: &Path,
    meta: &Meta,
    mut each: impl FnMut(u64, u32),
) -> Result<(), String> {
    for rank in 0..meta.ranks {
        let path: PathBuf = folder.join(part_name(meta.round, rank, meta.ranks));
        let bytes = std::fs::read(&path).map_err(fault(&path))?;
        if bytes.len() % 16 != 0 {
            return Err(format!("the checkpoint {}: cut short", path.display()));
        }
        for record in bytes.chunks_exact(16) {
            let number = u64::from_le_bytes(record[..8].try_into().expect("8 bytes"));
            let label = u64::from_le_bytes(record[8..].try_into().expect("8 bytes"));
            each(number, label as u32);
        }
    }
    Ok(())
}
