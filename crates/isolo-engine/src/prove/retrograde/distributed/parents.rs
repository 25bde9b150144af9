//! Each rank's parents of its positions, kept on its own disk: the moves are the
//! analysis' bulk (3.8 billion on Igisoro's 3 columns with 4 seeds), and a rank reads
//! a position's parents once, when the position is labelled.
//!
//! While listing, each (child, parent) pair is appended to one of at most
//! `MOST_BUCKETS` bucket files, by the child's place. Then each bucket in turn is read,
//! sorted by child and written to the parents file as bare parent numbers of `width`
//! bytes, the bucket deleted: memory holds one bucket at a time, and a start for each
//! place. Labelling reads the parents of a round's labelled positions in place order,
//! the reads of neighbours joined.

use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// At most this many bucket files a rank (more past 2^40 places, a bucket's places
/// being numbered in 32 bits).
const MOST_BUCKETS: usize = 256;

/// Places of one bucket, at least (`2^MIN_SPAN_BITS`).
const MIN_SPAN_BITS: u32 = 20;

/// Records between two parents' ranges read in one read rather than two.
const JOIN_GAP: u64 = 512;

/// Buffer of each bucket file's writer.
const BUCKET_BUFFER: usize = 1 << 16;

/// Buffer of a bucket file's reader.
const READ_BUFFER: usize = 1 << 20;

/// Memory for the parents of one window of places while a bucket is sorted.
pub(super) const SORT_WINDOW_BYTES: usize = 256 << 20;

/// Names the files of each store of this process apart.
static NEXT_STORE: AtomicU64 = AtomicU64::new(0);

/// The start of the name of this machine's parents files, before the process' number
/// (the machine named, so that no run sweeps another machine's files on a shared disk).
fn leftover_prefix() -> String {
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname");
    let host = host.as_deref().map_or("host", str::trim);
    format!("isolo-ai-parents-{}-", host.replace(['-', '/', '.'], "_"))
}

/// Removes from `folder` the parents files that runs on this machine left when killed
/// (SIGKILL, a job cancelled past its grace time): those of processes gone (Linux's
/// `/proc` tells). The number of files removed.
pub(super) fn sweep_leftovers(folder: &Path) -> usize {
    if !Path::new("/proc/self").exists() {
        return 0;
    }
    let Ok(entries) = std::fs::read_dir(folder) else {
        return 0;
    };
    let prefix = leftover_prefix();
    let mut removed = 0;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(rest) = name.to_str().and_then(|n| n.strip_prefix(&prefix)) else {
            continue;
        };
        let Some(pid) = rest.split('-').next().and_then(|p| p.parse::<u32>().ok()) else {
            continue;
        };
        let gone = pid != std::process::id() && !Path::new(&format!("/proc/{pid}")).exists();
        if gone && std::fs::remove_file(entry.path()).is_ok() {
            removed += 1;
        }
    }
    removed
}

/// A failed read or write, in words naming the file.
pub(super) type IoFault = String;

fn fault(path: &Path) -> impl Fn(std::io::Error) -> IoFault + '_ {
    move |e| format!("the scratch file {}: {e}", path.display())
}

/// How the records of a rank's store are laid out.
#[derive(Clone, Copy, Debug)]
pub(super) struct Layout {
    /// Bytes of a parent's number.
    pub(super) width: usize,
    /// Places a bucket covers (`2^span_bits`).
    pub(super) span_bits: u32,
    /// Buckets.
    pub(super) buckets: usize,
}

impl Layout {
    /// The layout for `places` places and numbers below `index_size`.
    pub(super) fn new(places: usize, index_size: u64) -> Layout {
        let bits = 64 - index_size.saturating_sub(1).leading_zeros();
        let width = (bits as usize).div_ceil(8).max(1);
        let needed = usize::BITS - places.saturating_sub(1).leading_zeros();
        let span_bits = needed
            .saturating_sub(MOST_BUCKETS.trailing_zeros())
            .clamp(MIN_SPAN_BITS, u32::BITS);
        let buckets = places.div_ceil(1 << span_bits).max(1);
        Layout {
            width,
            span_bits,
            buckets,
        }
    }

    /// Bytes of a record in a bucket: the place within the bucket and the parent.
    pub(super) fn bucket_record(self) -> usize {
        4 + self.width
    }
}

/// The parents of a rank's positions while they are being listed.
pub(super) struct ParentSpill {
    layout: Layout,
    places: usize,
    stem: PathBuf,
    buckets: Vec<Option<BufWriter<File>>>,
    record: Vec<u8>,
}

impl ParentSpill {
    /// An empty store in `folder` for `places` places (`tag` names the rank).
    pub(super) fn new(folder: &Path, tag: &str, places: usize, index_size: u64) -> ParentSpill {
        let store = NEXT_STORE.fetch_add(1, Ordering::Relaxed);
        let name = format!("{}{}-{store}-{tag}", leftover_prefix(), std::process::id());
        let layout = Layout::new(places, index_size);
        ParentSpill {
            layout,
            places,
            stem: folder.join(name),
            buckets: (0..layout.buckets).map(|_| None).collect(),
            record: Vec::with_capacity(layout.bucket_record()),
        }
    }

    fn bucket_path(&self, bucket: usize) -> PathBuf {
        self.stem.with_extension(format!("bucket{bucket}"))
    }

    /// Adds `parent` to the parents of the position at `place`.
    pub(super) fn push(&mut self, place: usize, parent: u64) -> Result<(), IoFault> {
        let bucket = place >> self.layout.span_bits;
        if self.buckets[bucket].is_none() {
            let path = self.bucket_path(bucket);
            let file = File::create(&path).map_err(fault(&path))?;
            self.buckets[bucket] = Some(BufWriter::with_capacity(BUCKET_BUFFER, file));
        }
        self.record.clear();
        let within = (place & ((1 << self.layout.span_bits) - 1)) as u32;
        self.record.extend_from_slice(&within.to_le_bytes());
        self.record
            .extend_from_slice(&parent.to_le_bytes()[..self.layout.width]);
        let writer = self.buckets[bucket].as_mut().expect("opened above");
        let written = writer.write_all(&self.record);
        written.map_err(|e| fault(&self.bucket_path(bucket))(e))
    }

    /// Sorts every bucket into the parents file, one bucket at a time: a pass over the
    /// bucket counts each place's parents, then each window of places whose parents fit
    /// `SORT_WINDOW_BYTES` is filled by a pass and written (a bucket's places can be
    /// far from even).
    /// `stopped` is asked between blocks read: `None` once it says so (the files are
    /// removed).
    pub(super) fn finish(self, stopped: &dyn Fn() -> bool) -> Result<Option<Parents>, IoFault> {
        self.finish_in(SORT_WINDOW_BYTES, stopped)
    }

    /// The same with windows of `window_bytes`.
    fn finish_in(
        mut self,
        window_bytes: usize,
        stopped: &dyn Fn() -> bool,
    ) -> Result<Option<Parents>, IoFault> {
        let layout = self.layout;
        let path = self.stem.with_extension("parents");
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(&path)
            .map_err(fault(&path))?;
        let mut out =
            BufWriter::with_capacity(BUCKET_BUFFER, file.try_clone().map_err(fault(&path))?);
        let mut parents = Parents {
            file,
            path: path.clone(),
            layout,
            bucket_base: Vec::with_capacity(layout.buckets + 1),
            starts: vec![0; self.places],
        };
        let mut written = 0u64;
        for bucket in 0..layout.buckets {
            parents.bucket_base.push(written);
            let Some(writer) = self.buckets[bucket].take() else {
                continue;
            };
            let bucket_path = self.bucket_path(bucket);
            drop(
                writer
                    .into_inner()
                    .map_err(|e| fault(&bucket_path)(e.into_error()))?,
            );
            let first = bucket << layout.span_bits;
            let span = (1usize << layout.span_bits).min(self.places - first);
            let starts = &mut parents.starts[first..first + span];
            let whole = each_record(&bucket_path, layout, stopped, |within, _| {
                starts[within] += 1
            })?;
            if !whole {
                let _ = std::fs::remove_file(&bucket_path);
                return Ok(None);
            }
            let (total, windows) = count_to_starts(starts, window_bytes / layout.width)
                .ok_or_else(|| {
                    format!("more than 2^32 moves into one bucket of {}", path.display())
                })?;
            for (lo, hi) in windows {
                let end = starts.get(hi).map_or(total, |&s| u64::from(s));
                let base = u64::from(starts[lo]);
                let mut buffer = vec![0u8; ((end - base) as usize) * layout.width];
                let mut next: Vec<u32> = starts[lo..hi].to_vec();
                let whole = each_record(&bucket_path, layout, stopped, |within, parent| {
                    if (lo..hi).contains(&within) {
                        let slot = &mut next[within - lo];
                        let at = (u64::from(*slot) - base) as usize * layout.width;
                        buffer[at..at + layout.width].copy_from_slice(parent);
                        *slot += 1;
                    }
                })?;
                if !whole {
                    let _ = std::fs::remove_file(&bucket_path);
                    return Ok(None);
                }
                out.write_all(&buffer).map_err(fault(&path))?;
            }
            std::fs::remove_file(&bucket_path).map_err(fault(&bucket_path))?;
            written += total;
        }
        parents.bucket_base.push(written);
        out.flush().map_err(fault(&path))?;
        Ok(Some(parents))
    }
}

impl Drop for ParentSpill {
    fn drop(&mut self) {
        for bucket in 0..self.buckets.len() {
            if self.buckets[bucket].take().is_some() {
                let _ = std::fs::remove_file(self.bucket_path(bucket));
            }
        }
    }
}

/// Calls `each(place within the bucket, parent's bytes)` for every record of the bucket
/// file at `path`, in the order written, unless `stopped` says so between two blocks:
/// whether every record was read.
fn each_record(
    path: &Path,
    layout: Layout,
    stopped: &dyn Fn() -> bool,
    mut each: impl FnMut(usize, &[u8]),
) -> Result<bool, IoFault> {
    let mut reader = BufReader::with_capacity(READ_BUFFER, File::open(path).map_err(fault(path))?);
    let size = layout.bucket_record();
    let mut block = vec![0u8; READ_BUFFER / size * size];
    loop {
        if stopped() {
            return Ok(false);
        }
        let got = read_full(&mut reader, &mut block).map_err(fault(path))?;
        for record in block[..got].chunks_exact(size) {
            let within = u32::from_le_bytes(record[..4].try_into().expect("4 bytes"));
            each(within as usize, &record[4..]);
        }
        if got < block.len() {
            return Ok(true);
        }
    }
}

/// Reads until `block` is full or the file ends; the bytes read.
fn read_full(reader: &mut impl Read, block: &mut [u8]) -> std::io::Result<usize> {
    let mut got = 0;
    while got < block.len() {
        match reader.read(&mut block[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(got)
}

/// Turns each place's count of parents into its first record's place in the bucket;
/// the bucket's records, and its windows of places (`lo..hi`) of at most `window`
/// records each (or one place alone); `None` past 2^32 records.
fn count_to_starts(starts: &mut [u32], window: usize) -> Option<(u64, Vec<(usize, usize)>)> {
    let mut windows = Vec::new();
    let (mut total, mut lo, mut in_window) = (0u64, 0, 0u64);
    for (within, start) in starts.iter_mut().enumerate() {
        let count = u64::from(*start);
        if in_window > 0 && in_window + count > window as u64 {
            windows.push((lo, within));
            (lo, in_window) = (within, 0);
        }
        *start = u32::try_from(total).ok()?;
        total += count;
        in_window += count;
    }
    windows.push((lo, starts.len()));
    u32::try_from(total).ok()?;
    Some((total, windows))
}

/// A little-endian number of up to 8 bytes.
fn number(bytes: &[u8]) -> u64 {
    let mut word = [0u8; 8];
    word[..bytes.len()].copy_from_slice(bytes);
    u64::from_le_bytes(word)
}

/// The parents of a rank's positions, sorted by child, on its disk; the file deleted
/// when dropped.
pub(super) struct Parents {
    file: File,
    path: PathBuf,
    layout: Layout,
    /// Records before each bucket (and all of them, last).
    bucket_base: Vec<u64>,
    /// Each place's first record, counted from its bucket's first.
    starts: Vec<u32>,
}

impl Parents {
    /// Bytes of the file.
    pub(super) fn bytes(&self) -> u64 {
        self.bucket_base.last().copied().unwrap_or(0) * self.layout.width as u64
    }

    /// The records of the parents of the position at `place`.
    fn range(&self, place: usize) -> (u64, u64) {
        let bucket = place >> self.layout.span_bits;
        let base = self.bucket_base[bucket];
        let next = place + 1;
        let end = if next < self.starts.len() && next >> self.layout.span_bits == bucket {
            base + u64::from(self.starts[next])
        } else {
            self.bucket_base[bucket + 1]
        };
        (base + u64::from(self.starts[place]), end)
    }

    /// The parents of `places` (in order) cut into batches of at most `most` parents
    /// each, as runs (k, first record, end) of the parents of `places[k]`: a position
    /// with vast numbers of parents (a game's end reached from everywhere) is told of
    /// over several batches.
    pub(super) fn batches(&self, places: &[usize], most: u64) -> Vec<Vec<Run>> {
        let most = most.max(1);
        let mut batches = vec![Vec::new()];
        let mut in_batch = 0;
        for (k, &place) in places.iter().enumerate() {
            let (mut lo, hi) = self.range(place);
            while lo < hi {
                if in_batch == most {
                    batches.push(Vec::new());
                    in_batch = 0;
                }
                let end = hi.min(lo + (most - in_batch));
                batches
                    .last_mut()
                    .expect("one at least")
                    .push(Run { k, lo, hi: end });
                in_batch += end - lo;
                lo = end;
            }
        }
        if batches.last().is_some_and(Vec::is_empty) {
            batches.pop();
        }
        batches
    }

    /// Calls `each(k, parent)` for every parent of `runs` (in record order).
    pub(super) fn for_each(
        &self,
        runs: &[Run],
        mut each: impl FnMut(usize, u64),
    ) -> Result<(), IoFault> {
        let width = self.layout.width as u64;
        let mut bytes = Vec::new();
        let mut first = 0;
        while first < runs.len() {
            // Join the next runs while the gaps between them are short.
            let (lo, mut hi) = (runs[first].lo, runs[first].hi);
            let mut last = first + 1;
            while last < runs.len() && runs[last].lo <= hi + JOIN_GAP {
                hi = hi.max(runs[last].hi);
                last += 1;
            }
            bytes.resize(((hi - lo) * width) as usize, 0);
            self.file
                .read_exact_at(&mut bytes, lo * width)
                .map_err(fault(&self.path))?;
            for run in &runs[first..last] {
                for record in run.lo..run.hi {
                    let at = ((record - lo) * width) as usize;
                    each(run.k, number(&bytes[at..at + width as usize]));
                }
            }
            first = last;
        }
        Ok(())
    }
}

/// Some of the parents of one position: records `lo..hi` of the parents file, those of
/// the `k`-th position asked.
#[derive(Clone, Copy, Debug)]
pub(super) struct Run {
    pub(super) k: usize,
    lo: u64,
    hi: u64,
}

impl Drop for Parents {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_killed_runs_files_on_this_machine_are_swept_and_no_others() {
        let folder = std::env::temp_dir().join(format!("isolo-sweep-{}", std::process::id()));
        std::fs::create_dir_all(&folder).unwrap();
        let prefix = leftover_prefix();
        // (Past Linux's largest process number: a process gone.)
        let gone = format!("{prefix}4294967-0-rank0.bucket3");
        let mine = format!("{prefix}{}-0-rank1.parents", std::process::id());
        let elsewhere = "isolo-ai-parents-another_machine-4294967-0-rank0.parents";
        for name in [gone.as_str(), &mine, elsewhere, "notes.txt"] {
            std::fs::write(folder.join(name), b"").unwrap();
        }
        assert_eq!(sweep_leftovers(&folder), 1);
        assert!(!folder.join(&gone).exists());
        for name in [mine.as_str(), elsewhere, "notes.txt"] {
            assert!(folder.join(name).exists(), "{name}");
        }
        std::fs::remove_dir_all(&folder).unwrap();
    }

    #[test]
    fn every_parent_comes_back_with_its_child() {
        let places = 3 << MIN_SPAN_BITS;
        let mut spill = ParentSpill::new(&std::env::temp_dir(), "test", places, 1 << 40);
        let mut pairs = Vec::new();
        for k in 0..20_000u64 {
            let place = (k.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 20) as usize % places;
            let parent = k * 1_000_003 % (1 << 40);
            pairs.push((place, parent));
            spill.push(place, parent).unwrap();
        }
        // (Windows of 100 parents: a bucket sorted in many passes.)
        let parents = spill.finish_in(100 * 5, &|| false).unwrap().unwrap();
        let mut asked: Vec<usize> = pairs.iter().map(|&(c, _)| c).step_by(3).collect();
        asked.extend([0, places - 1]);
        asked.sort_unstable();
        asked.dedup();
        let mut found = Vec::new();
        for batch in parents.batches(&asked, 7) {
            assert!(batch.iter().map(|r| r.hi - r.lo).sum::<u64>() <= 7);
            parents
                .for_each(&batch, |k, parent| found.push((asked[k], parent)))
                .unwrap();
        }
        let mut expected: Vec<_> = pairs
            .iter()
            .filter(|(c, _)| asked.binary_search(c).is_ok())
            .copied()
            .collect();
        found.sort_unstable();
        expected.sort_unstable();
        assert_eq!(found, expected);
        let path = parents.path.clone();
        drop(parents);
        assert!(!path.exists());
    }
}
