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
//!
//! Nothing is believed unchecked: `checkpoint.json` carries a fingerprint of itself,
//! what it belongs to (the problem, the index, the ranks, the round, the listing's
//! counts) and each part's records and hash; a part is read only as a regular file of
//! exactly its records, each record a number of its rank in order with a label of a
//! round saved, its hash matching; and the labels taken in, summed as the result's
//! digest is, must give the checkpoint's. Anything else is refused with one line
//! naming the file.

use std::io::{BufReader, Read};
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::{mix, CHUNK_BITS, LOST, ROUND_SHIFT, WON};

/// The checkpoint's description, beside its parts.
const META: &str = "checkpoint.json";

/// The layout of this version's checkpoints: another is refused.
const FORMAT: u32 = 2;

/// The most ranks a checkpoint may name (a part each).
pub(super) const MOST_RANKS: usize = 1 << 16;

/// The largest `checkpoint.json` read: its parts' records and hashes, a line each.
const META_MOST_BYTES: u64 = 16 << 20;

/// Bytes of a part's record: a number and a label, 64 bits each.
const RECORD: usize = 16;

/// Records read from a part at a time.
const READ_RECORDS: usize = 1 << 16;

/// What a checkpoint is of and where it stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Meta {
    /// The layout's version ([`FORMAT`]).
    pub(super) format: u32,
    /// The rules and the root, as a fingerprint: a checkpoint of another problem is
    /// refused.
    pub(super) problem: String,
    /// Numbers in the index.
    pub(super) index_size: u64,
    /// Every label of this round and before is saved.
    pub(super) round: u32,
    /// Ranks that wrote the parts.
    pub(super) ranks: usize,
    /// The listing's counts, which the listing of a resumed run must give again.
    pub(super) reached: u64,
    pub(super) edges: u64,
    pub(super) cut: u64,
    /// Labels saved, all parts together.
    pub(super) labelled: u64,
    /// The sum of the saved labels' hashes, as the result's digest sums them (hex): a
    /// checkpoint of every label holds the finished run's digest.
    pub(super) digest: String,
    /// Whether every exact label is saved (the labelling had ended).
    pub(super) whole: bool,
    /// Each rank's part, in rank order.
    pub(super) parts: Vec<Part>,
    /// A fingerprint of all the above (the description with this field empty).
    pub(super) check: String,
}

/// A part as it was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Part {
    /// Its (number, label) records.
    pub(super) records: u64,
    /// A hash of its records in order.
    pub(super) hash: u64,
}

impl Meta {
    /// The description of a run's checkpoints, before any is saved.
    pub(super) fn new(problem: &str, index_size: u64, ranks: usize, listing: [u64; 3]) -> Meta {
        let [reached, edges, cut] = listing;
        Meta {
            format: FORMAT,
            problem: problem.to_string(),
            index_size,
            round: 0,
            ranks,
            reached,
            edges,
            cut,
            labelled: 0,
            digest: String::new(),
            whole: false,
            parts: Vec::new(),
            check: String::new(),
        }
    }

    /// The fingerprint the description's `check` must hold.
    fn fingerprint(&self) -> String {
        let unchecked = Meta {
            check: String::new(),
            ..self.clone()
        };
        crate::digest::fingerprint_of(&serde_json::to_string(&unchecked).expect("plain data"))
    }

    /// The description sealed with its fingerprint.
    pub(super) fn sealed(mut self) -> Meta {
        self.check = self.fingerprint();
        self
    }
}

/// The hash of a part's records, in order.
#[derive(Clone, Copy, Default)]
struct PartHash(u64);

impl PartHash {
    fn add(&mut self, number: u64, label: u64) {
        self.0 = mix(self.0.rotate_left(17) ^ number).wrapping_add(mix(label ^ self.0));
    }
}

/// The hash a label adds to the result's digest (and a checkpoint's).
pub(super) fn label_hash(number: u64, label: u32) -> u64 {
    mix(number ^ (label as u64) << 40)
}

fn part_name(round: u32, rank: usize, ranks: usize) -> String {
    format!("labels-{round}-{rank}of{ranks}.bin")
}

fn fault(path: &Path) -> impl Fn(std::io::Error) -> String + '_ {
    move |e| format!("the checkpoint {}: {e}", path.display())
}

fn refused(path: &Path, why: impl std::fmt::Display) -> String {
    format!("the checkpoint {}: {why}", path.display())
}

/// The checkpoint in `folder`, if there is one, its description checked whole.
pub(super) fn read_meta(folder: &Path) -> Result<Option<Meta>, String> {
    let path = folder.join(META);
    match std::fs::symlink_metadata(&path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        _ => {}
    }
    let text =
        isolo_rules::read_text_file(&path, META_MOST_BYTES).map_err(|e| refused(&path, e))?;
    let meta: Meta = serde_json::from_str(&text).map_err(|e| refused(&path, e))?;
    if meta.format != FORMAT {
        return Err(refused(
            &path,
            format!("layout {} (this version reads {FORMAT})", meta.format),
        ));
    }
    if meta.check != meta.fingerprint() {
        return Err(refused(
            &path,
            "its fingerprint does not match its contents (damaged or edited)",
        ));
    }
    if meta.ranks == 0 || meta.ranks > MOST_RANKS || meta.parts.len() != meta.ranks {
        return Err(refused(
            &path,
            format!("{} ranks and {} parts", meta.ranks, meta.parts.len()),
        ));
    }
    let records: u64 = meta.parts.iter().map(|p| p.records).sum();
    if records != meta.labelled || meta.labelled > meta.reached || meta.reached > meta.index_size {
        return Err(refused(&path, "its counts contradict each other"));
    }
    Ok(Some(meta))
}

/// Writes this rank's part of the checkpoint of `round`: `labels`, in number order;
/// what it holds. A part that cannot be written whole is not left behind.
pub(super) fn write_part(
    folder: &Path,
    round: u32,
    rank: usize,
    ranks: usize,
    labels: impl Iterator<Item = (u64, u32)>,
) -> Result<Part, String> {
    let path = folder.join(part_name(round, rank, ranks));
    let mut part = Part {
        records: 0,
        hash: 0,
    };
    let mut hash = PartHash::default();
    isolo_rules::write_file_whole(&path, |out| {
        for (number, label) in labels {
            out.write_all(&number.to_le_bytes())?;
            out.write_all(&u64::from(label).to_le_bytes())?;
            hash.add(number, u64::from(label));
            part.records += 1;
        }
        Ok(())
    })
    .map_err(fault(&path))?;
    part.hash = hash.0;
    Ok(part)
}

/// Makes the checkpoint `meta` (whose parts are all written) the folder's, and removes
/// every other part.
pub(super) fn write_meta(folder: &Path, meta: &Meta) -> Result<(), String> {
    let path = folder.join(META);
    let text = serde_json::to_string_pretty(&meta.clone().sealed()).expect("plain data");
    isolo_rules::write_bytes_whole(&path, text.as_bytes()).map_err(fault(&path))?;
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

/// Calls `each(number, label)` for every label of the checkpoint `meta` in `folder`,
/// each part checked as it is read (`each` may refuse a label too).
pub(super) fn read_parts(
    folder: &Path,
    meta: &Meta,
    mut each: impl FnMut(u64, u32) -> Result<(), String>,
) -> Result<(), String> {
    for (rank, part) in meta.parts.iter().enumerate() {
        let path = folder.join(part_name(meta.round, rank, meta.ranks));
        read_part(&path, meta, rank, *part, &mut each)?;
    }
    Ok(())
}

/// One part, checked: a regular file of exactly its records, each a number of `rank`
/// in increasing order with a label of a round saved, and its hash.
fn read_part(
    path: &Path,
    meta: &Meta,
    rank: usize,
    part: Part,
    each: &mut impl FnMut(u64, u32) -> Result<(), String>,
) -> Result<(), String> {
    let file = isolo_rules::open_regular_file(path).map_err(fault(path))?;
    let bytes = file.metadata().map_err(fault(path))?.len();
    if Some(bytes) != part.records.checked_mul(RECORD as u64) {
        return Err(refused(
            path,
            format!(
                "{bytes} bytes where the checkpoint has {} records of {RECORD}",
                part.records
            ),
        ));
    }
    let mut reader = BufReader::new(file.take(bytes));
    let mut block = vec![0u8; READ_RECORDS * RECORD];
    let (mut hash, mut last, mut left) = (PartHash::default(), None, part.records);
    while left > 0 {
        let records = left.min(READ_RECORDS as u64) as usize;
        let block = &mut block[..records * RECORD];
        reader.read_exact(block).map_err(fault(path))?;
        for record in block.chunks_exact(RECORD) {
            let number = u64::from_le_bytes(record[..8].try_into().expect("8 bytes"));
            let label = u64::from_le_bytes(record[8..].try_into().expect("8 bytes"));
            hash.add(number, label);
            let why = record_fault(meta, rank, last, number, label);
            if let Some(why) = why {
                return Err(refused(path, why));
            }
            last = Some(number);
            each(number, label as u32).map_err(|why| refused(path, why))?;
        }
        left -= records as u64;
    }
    if hash.0 != part.hash {
        return Err(refused(
            path,
            "its records do not match the checkpoint's hash of them (damaged or edited)",
        ));
    }
    Ok(())
}

/// What is wrong with the record (`number`, `label`) of `rank`'s part after the
/// number `last`, if anything.
fn record_fault(
    meta: &Meta,
    rank: usize,
    last: Option<u64>,
    number: u64,
    label: u64,
) -> Option<String> {
    let bits = label & u64::from(WON | LOST);
    if number >= meta.index_size {
        Some(format!(
            "position {number} past the index ({} numbers)",
            meta.index_size
        ))
    } else if ((number >> CHUNK_BITS) % meta.ranks as u64) as usize != rank {
        Some(format!("position {number} is not of rank {rank}"))
    } else if last.is_some_and(|last| number <= last) {
        Some(format!("position {number} out of order"))
    } else if label > u64::from(u32::MAX)
        || bits == 0
        || bits == u64::from(WON | LOST)
        || (label >> ROUND_SHIFT) as u32 > meta.round
    {
        Some(format!(
            "position {number} has no label of a round saved ({label})"
        ))
    } else {
        None
    }
}
