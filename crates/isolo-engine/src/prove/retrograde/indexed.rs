//! Retrograde analysis over an index of every seed distribution: the same values as
//! the hash-map analysis of the parent module, in an eighth of its memory a position
//! or less (about 145 bytes there), for small boards whose reachable positions run to
//! hundreds of millions.
//!
//! Sowing and capturing never remove seeds, so every position of a game holds the
//! root's seeds, spread over the 4W pits. The rules treat both players alike, so a
//! position and its exchange (`Board::swapped`: the other side to move on the mirrored
//! board) have the same value for their movers, and share a number: positions are
//! seen from the mover's side, as South to move. A position's index is the rank of the
//! seeds' spread, the mover's pits first, among all spreads (the combinatorial number
//! system of compositions), times the overture and first-move flags: a dense range in which arrays
//! replace the map of boards, half the size it would be with the side to move in it.
//! The analysis:
//!
//! 1. lists the reachable positions level by level (the move lists generated on every
//!    core), marking them in a bit set, counting each position's distinct moves and each
//!    one's parents, and writing the move lists to a scratch file;
//! 2. reads the file back once to lay out every position's parents in one array;
//! 3. labels positions won and lost for their mover backwards from those without moves
//!    (both players' attractors at once: a position lost for its mover makes each
//!    parent won, one whose every move is won for the opponent is lost). A dead
//!    position the rules draw (`dead_position`) is listed as moving to itself, which no
//!    label reaches.
//!
//! Where the parents would not fit in memory, step 2 is skipped and the labels grow
//! instead by passes over the file, read from its end, until a pass adds nothing.
//!
//! Under the retreat (RULES.md 3.4) the other side answers inside a move: each record
//! carries its position's moves as a tree of decisions (`MoveTree`), and a position is
//! won for its mover where the mover can force its move into a position lost for its
//! own mover, lost where the other side can force it into one won. The labels then
//! grow by passes, the trees being on file; a cut tree is labelled neither way exactly
//! and both ways pessimistically.
//!
//! It answers win, loss or draw (or unknown past its time or memory) and keeps no
//! strategy: its results come without certificates.

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::bits;
use super::spread::{
    distinct_children, forced, positions_text, walked_children, SpreadIndex as Index,
};
use super::RetroVerdict;
use isolo_rules::{Board, DeadPosition, Pits, Side, Variant};

/// Positions whose moves are generated between two merges (and looks at the clock).
const BATCH: usize = 1 << 16;

/// Time between two progress lines while listing.
const PROGRESS_EVERY: Duration = Duration::from_secs(10);

/// Indices sharing one 64-bit base offset into the parents array (the per-index
/// offsets within a block fit 32 bits).
const BLOCK_BITS: u32 = 12;

/// A move count of this or more is kept in a map beside the byte array (take/pass
/// choices give a few positions hundreds of moves).
const MANY_MOVES: u8 = u8::MAX;

/// Memory a position of the index costs whether reached or not: its move count, its
/// parent offset, its countdown of moves not yet won for the opponent, and four bit
/// sets (reached, cut, won, lost).
const BYTES_PER_INDEX: f64 = 1.0 + 4.0 + 1.0 + 4.0 / 8.0;

/// Memory each listed move costs (its entry in the parents array), and each reached
/// position (its place in a level's list, or in the labelling's two queues).
const BYTES_PER_EDGE: u64 = 4;
const BYTES_PER_REACHED: u64 = 8;

/// How far the analysis may go.
#[derive(Clone, Debug)]
pub struct IndexedLimits {
    /// Memory it may take, in bytes.
    pub memory: u64,
    /// Wall time.
    pub time: Option<Duration>,
    /// Folder for the scratch file of move lists (deleted at the end).
    pub scratch: PathBuf,
    /// Compute the labels by sweeps over the scratch file even where the parents
    /// would fit in memory (for tests and comparisons).
    pub sweeps_only: bool,
    /// Set to stop early (Ctrl-C): the answer is then unknown, and the scratch file is
    /// deleted.
    pub interrupt: Option<&'static AtomicBool>,
}

/// When to stop before a verdict: past the time limit or when interrupted.
struct Stop {
    deadline: Option<Instant>,
    interrupt: Option<&'static AtomicBool>,
}

impl Stop {
    /// Why to stop now, `when` it happens ("while listing"), if it is time to.
    fn reason(&self, when: &str) -> Option<String> {
        if crate::raised(self.interrupt) {
            Some(format!("interrupted {when}"))
        } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
            Some(format!("the time ran out {when}"))
        } else {
            None
        }
    }
}

/// The analysis' answer.
#[derive(Clone, Debug)]
pub struct IndexedResult {
    /// What was proven (unknown when it stopped early: see `stopped`).
    pub verdict: RetroVerdict,
    /// Positions in the index (every spread of the seeds, and the flags; a
    /// position and its exchange counted once).
    pub index_size: u64,
    /// Positions reachable from the root, a position and its exchange counted once (all
    /// of them when the analysis finished).
    pub reached: u64,
    /// Distinct moves listed (each position's moves to distinct positions).
    pub edges: u64,
    /// Reached positions whose move lists were cut short (counted pessimistically).
    pub cut: u64,
    /// Whether every reachable position was listed.
    pub complete: bool,
    /// Why it stopped before a verdict, where it did.
    pub stopped: Option<String>,
    /// Passes over the scratch file, where the parents did not fit in memory (0: they
    /// did).
    pub sweeps: u32,
    /// Wall time.
    pub time: Duration,
}

/// A stage reached, for a progress line.
#[derive(Clone, Debug)]
pub struct IndexedProgress {
    /// What is being done.
    pub stage: &'static str,
    /// Positions reached so far.
    pub reached: u64,
    /// Moves listed so far.
    pub edges: u64,
    /// In a sweep over the scratch file: its number (from 1) and the labels it added;
    /// 0 and 0 otherwise.
    pub sweep: (u32, u64),
    /// Wall time so far.
    pub time: Duration,
}

/// Why the analysis cannot start, or its scratch file failed it.
#[derive(Debug, thiserror::Error)]
pub enum IndexedError {
    /// The index would number more positions than a `u32` can (`u64::MAX`: the count
    /// itself passed 64 bits).
    #[error("{} in the index, which can number at most 2^32", positions_text(*.0))]
    TooLarge(u64),
    /// The index' arrays alone exceed the memory limit.
    #[error("the index of {positions} positions needs {needed_mb} MB before listing a move; the limit is {limit_mb} MB")]
    NoMemory {
        /// Positions in the index.
        positions: u64,
        /// What its arrays take.
        needed_mb: u64,
        /// The limit.
        limit_mb: u64,
    },
    /// The rules count the seeds of a dead position, which the labels cannot hold.
    #[error("the indexed analysis cannot count a dead position's seeds (dead_position = \"count\"): use the method retro")]
    CountedDeadPositions,
    /// The scratch file could not be written or read.
    #[error("the scratch file {path}: {error}")]
    Scratch {
        /// Its path.
        path: String,
        /// What went wrong.
        error: std::io::Error,
    },
}

/// A bit per position of the index.
type Bits = bits::Bits<u32>;

/// A count per position of the index, a byte each, the few large ones in a map.
#[derive(Clone)]
struct Countdown {
    small: Vec<u8>,
    many: HashMap<u32, u32>,
}

impl Countdown {
    fn new(size: u64) -> Countdown {
        Countdown {
            small: vec![0; size as usize],
            many: HashMap::new(),
        }
    }
    fn get(&self, i: u32) -> u32 {
        match self.small[i as usize] {
            MANY_MOVES => self.many[&i],
            n => n as u32,
        }
    }
    fn set(&mut self, i: u32, count: u32) {
        if count >= MANY_MOVES as u32 {
            self.small[i as usize] = MANY_MOVES;
            self.many.insert(i, count);
        } else {
            self.small[i as usize] = count as u8;
        }
    }
    /// Takes one off the count; whether it reached 0.
    fn count_down(&mut self, i: u32) -> bool {
        match &mut self.small[i as usize] {
            &mut MANY_MOVES => {
                let n = self.many.get_mut(&i).expect("large counts are in the map");
                *n -= 1;
                *n == 0
            }
            n => {
                *n -= 1;
                *n == 0
            }
        }
    }
}

/// The error of a failed read or write of the scratch file at `path`.
fn scratch_error(path: &std::path::Path) -> impl Fn(std::io::Error) -> IndexedError + '_ {
    move |error| IndexedError::Scratch {
        path: path.display().to_string(),
        error,
    }
}

/// The scratch file's words from its bytes (little-endian).
fn words(bytes: &[u8]) -> impl Iterator<Item = u32> + '_ {
    bytes
        .chunks_exact(4)
        .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
}

/// Bit 31 of a record's head: its move list was cut short; the other bits count the
/// words after the head but the last: the distinct children (without the retreat), or
/// their count, the children and the position's move tree (under it).
const CUT_BIT: u32 = 1 << 31;

/// A record's distinct children, from the words after its head.
fn children_of(payload: &[u32], retreat: bool) -> &[u32] {
    if retreat {
        &payload[1..1 + payload[0] as usize]
    } else {
        payload
    }
}

fn move_count(head: u32) -> usize {
    (head & !CUT_BIT) as usize
}

fn is_cut(head: u32) -> bool {
    head & CUT_BIT != 0
}

/// The scratch file of move lists, deleted when dropped.
struct Scratch {
    path: PathBuf,
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// One position's listing, as written to the scratch file: its index, then its move
/// count with bit 31 set for a cut list, then the distinct children, then the count
/// again.
fn list_moves(variant: &Variant, index: &Index, position: u32, out: &mut Vec<u32>) {
    if variant.has_retreat() {
        return list_walked_moves(variant, index, position, out);
    }
    let mut children = Vec::new();
    let truncated = distinct_children(variant, index, position as u64, &mut children);
    let count = children.len() as u32;
    let cut = if truncated { CUT_BIT } else { 0 };
    out.extend([position, count | cut]);
    // (The analysis refuses an index past 2^32: every number fits.)
    out.extend(children.iter().map(|&c| c as u32));
    // Repeated last, so the file can be read backwards.
    out.push(count);
}

/// `list_moves` under the retreat: the record holds the count of distinct children,
/// the children, then the move tree walked for the mover (`walked_children`).
fn list_walked_moves(variant: &Variant, index: &Index, position: u32, out: &mut Vec<u32>) {
    let (mut children, mut tree) = (Vec::new(), Vec::new());
    let cut = walked_children(variant, index, position as u64, &mut children, &mut tree);
    let mut payload = vec![children.len() as u32];
    // (The analysis refuses an index past 2^32: every number fits.)
    payload.extend(children.iter().map(|&c| c as u32));
    payload.extend(tree);
    let count = payload.len() as u32;
    out.extend([position, count | if cut { CUT_BIT } else { 0 }]);
    out.extend(payload);
    out.push(count);
}

/// The reachable graph, parents side.
struct Graph {
    reached: Bits,
    cut: Bits,
    /// Distinct moves of each reached position: `MANY_MOVES` or more in `many`.
    moves: Countdown,
    /// Where each index' parents end, from its block's base (see `parents_of`).
    ends: Vec<u32>,
    bases: Vec<u64>,
    parents: Vec<u32>,
    reached_count: u64,
    cut_count: u64,
    /// Whether the records hold move trees (the rules have the retreat).
    retreat: bool,
}

impl Graph {
    fn parents_of(&self, i: u32) -> &[u32] {
        let base = self.bases[(i >> BLOCK_BITS) as usize] as usize;
        let first = i & ((1 << BLOCK_BITS) - 1) == 0;
        let start = if first { 0 } else { self.ends[i as usize - 1] };
        &self.parents[base + start as usize..base + self.ends[i as usize] as usize]
    }

    /// Where the labelling starts: positions whose mover has no move are lost for it,
    /// and where `pessimistic`, cut lists are won (the queue of lost positions first).
    fn labels_seeds(&self, pessimistic: bool) -> (Labels, [Vec<u32>; 2]) {
        let size = self.moves.small.len() as u64;
        let mut labels = Labels {
            lost: Bits::new(size),
            won: Bits::new(size),
            retreat: self.retreat,
            scratch: Default::default(),
        };
        let mut queues = [Vec::new(), Vec::new()];
        for node in self.reached.ones() {
            let cut = self.cut.get(node);
            if self.moves.get(node) == 0 && !cut {
                labels.lost.set(node);
                queues[0].push(node);
            } else if pessimistic && cut {
                labels.won.set(node);
                queues[1].push(node);
                if self.retreat {
                    // (A cut tree may miss either side's decisions.)
                    labels.lost.set(node);
                    queues[0].push(node);
                }
            }
        }
        (labels, queues)
    }

    /// The positions won and lost for their mover (both sides' attractors of the parent
    /// module, seen from the mover). `pessimistic`: a cut list counts as won for its
    /// mover, and as whole when the question is whether it is lost.
    fn labels(&self, pessimistic: bool) -> Labels {
        let (mut labels, [mut lost, mut won]) = self.labels_seeds(pessimistic);
        // Moves not yet known to be won for the opponent, per position.
        let mut waiting = self.moves.clone();
        loop {
            if let Some(node) = lost.pop() {
                // A move into a position lost for its mover wins.
                for &p in self.parents_of(node) {
                    if labels.won.set(p) {
                        won.push(p);
                    }
                }
            } else if let Some(node) = won.pop() {
                for &p in self.parents_of(node) {
                    if !labels.lost.get(p)
                        && waiting.count_down(p)
                        && (pessimistic || !self.cut.get(p))
                    {
                        labels.lost.set(p);
                        lost.push(p);
                    }
                }
            } else {
                return labels;
            }
        }
    }
}

/// Positions (seen from their mover) won for it, and lost for it: a bit each.
struct Labels {
    won: Bits,
    lost: Bits,
    /// Whether the records hold move trees (`settle_walked`), and its scratch space.
    retreat: bool,
    scratch: (Vec<usize>, Vec<bool>),
}

impl Labels {
    /// Labels `position` from its children's labels where they settle it; how many it
    /// gained.
    fn settle(&mut self, position: u32, cut: bool, children: &[u32], pessimistic: bool) -> u64 {
        if self.retreat {
            return self.settle_walked(position, cut, children, pessimistic);
        }
        let mut added = 0;
        if !self.won.get(position) && children.iter().any(|&c| self.lost.get(c)) {
            self.won.set(position);
            added += 1;
        }
        if !self.lost.get(position)
            && !children.is_empty()
            && (pessimistic || !cut)
            && children.iter().all(|&c| self.won.get(c))
        {
            self.lost.set(position);
            added += 1;
        }
        added
    }
}

impl Labels {
    /// `settle` under the retreat, from the record's words after its head (`payload`):
    /// won where the mover can force its move into a child lost for its mover, lost
    /// where the other side can force it into one won; a cut tree neither (exact
    /// labels) or both already (pessimistic).
    fn settle_walked(
        &mut self,
        position: u32,
        cut: bool,
        payload: &[u32],
        pessimistic: bool,
    ) -> u64 {
        if cut {
            debug_assert!(!pessimistic || (self.won.get(position) && self.lost.get(position)));
            return 0;
        }
        let children = children_of(payload, true);
        let tree = &payload[1 + children.len()..];
        let (mut offsets, mut values) = std::mem::take(&mut self.scratch);
        let mut added = 0;
        if !self.won.get(position)
            && forced(
                tree,
                true,
                |k| self.lost.get(children[k]),
                &mut offsets,
                &mut values,
            )
        {
            self.won.set(position);
            added += 1;
        }
        if !self.lost.get(position)
            && !children.is_empty()
            && forced(
                tree,
                false,
                |k| self.won.get(children[k]),
                &mut offsets,
                &mut values,
            )
        {
            self.lost.set(position);
            added += 1;
        }
        self.scratch = (offsets, values);
        added
    }
}

/// What the listing stage left: the graph's counts and the scratch file.
struct Listing {
    graph: Graph,
    edges: u64,
    scratch: Scratch,
}

/// Analyses every position reachable from `board` (the game before it plays no part:
/// a draw holds however it was reached, a win along lines that never repeat).
pub fn solve(
    variant: &Variant,
    board: &Board,
    limits: &IndexedLimits,
    progress: &dyn Fn(&IndexedProgress),
) -> Result<IndexedResult, IndexedError> {
    let started = Instant::now();
    if variant.rules().dead_position() == DeadPosition::Count && variant.fortresses().is_some() {
        return Err(IndexedError::CountedDeadPositions);
    }
    let seeds = (board.side_total(Side::South) + board.side_total(Side::North)) as usize;
    debug_assert!(variant.pits() <= Pits::MAX);
    let index = Index::new(variant, seeds);
    if index.size > u32::MAX as u64 {
        return Err(IndexedError::TooLarge(index.size));
    }
    let fixed = (index.size as f64 * BYTES_PER_INDEX) as u64;
    if fixed > limits.memory {
        return Err(IndexedError::NoMemory {
            positions: index.size,
            needed_mb: fixed >> 20,
            limit_mb: limits.memory >> 20,
        });
    }
    let mut result = IndexedResult {
        verdict: RetroVerdict::Unknown,
        index_size: index.size,
        reached: 0,
        edges: 0,
        cut: 0,
        complete: false,
        stopped: None,
        sweeps: 0,
        time: Duration::ZERO,
    };
    let stop = Stop {
        deadline: limits.time.map(|t| started + t),
        interrupt: limits.interrupt,
    };
    let listing = list(
        variant, &index, board, limits, fixed, &stop, started, progress,
    )?;
    let mut listing = match listing {
        Ok(listing) => listing,
        Err((why, reached, edges)) => {
            result.stopped = Some(why);
            result.reached = reached;
            result.edges = edges;
            result.time = started.elapsed();
            return Ok(result);
        }
    };
    result.reached = listing.graph.reached_count;
    result.edges = listing.edges;
    result.cut = listing.graph.cut_count;
    result.complete = true;
    let (reached, edges) = (result.reached, result.edges);
    let report = |stage| {
        progress(&IndexedProgress {
            stage,
            reached,
            edges,
            sweep: (0, 0),
            time: started.elapsed(),
        })
    };
    let parents_fit = fixed + listing.edges * BYTES_PER_EDGE + result.reached * BYTES_PER_REACHED
        <= limits.memory;
    // (Under the retreat the labels need the move trees, which are on file.)
    let backward = if parents_fit && !limits.sweeps_only && !variant.has_retreat() {
        report("laying out the parents");
        link_parents(&mut listing)?;
        Backward::Parents
    } else {
        // The in-degree counts are not needed without the parents array.
        listing.graph.ends = Vec::new();
        Backward::Sweeps(&listing.scratch.path)
    };
    let graph = &listing.graph;
    let root = index.of(board) as u32;
    let labels = |pessimistic: bool, result: &mut IndexedResult| {
        if let Some(why) = stop.reason("before the labelling") {
            return Ok(Err(why));
        }
        report(if pessimistic {
            "labelling again, cut lists counted as won"
        } else {
            "labelling won and lost positions"
        });
        backward.labels(graph, pessimistic, result, &stop, &|sweep, added| {
            progress(&IndexedProgress {
                stage: "a sweep over the scratch file",
                reached,
                edges,
                sweep: (sweep, added),
                time: started.elapsed(),
            })
        })
    };
    let exact = match labels(false, &mut result)? {
        Ok(exact) => exact,
        Err(why) => {
            result.stopped = Some(why);
            result.time = started.elapsed();
            return Ok(result);
        }
    };
    if exact.won.get(root) {
        result.verdict = RetroVerdict::Win;
    } else if exact.lost.get(root) {
        result.verdict = RetroVerdict::Loss;
    } else if graph.cut_count == 0 {
        // Without cut lists the pessimistic labels are the ones just found.
        result.verdict = RetroVerdict::Draw;
    } else {
        drop(exact);
        match labels(true, &mut result)? {
            Ok(open) if !open.won.get(root) && !open.lost.get(root) => {
                result.verdict = RetroVerdict::Draw
            }
            Ok(_) => result.stopped = Some("cut move lists leave the value open".into()),
            Err(why) => result.stopped = Some(why),
        }
    }
    result.time = started.elapsed();
    Ok(result)
}

/// How the labels are computed backwards.
enum Backward<'a> {
    /// From the parents array in memory: each position looked at once per parent.
    Parents,
    /// By passes over the scratch file, read from its end (the deepest positions
    /// first), until a pass adds nothing: memory for the index alone.
    Sweeps(&'a std::path::Path),
}

impl Backward<'_> {
    fn labels(
        &self,
        graph: &Graph,
        pessimistic: bool,
        result: &mut IndexedResult,
        stop: &Stop,
        progress: &dyn Fn(u32, u64),
    ) -> Result<Result<Labels, String>, IndexedError> {
        let path = match self {
            Backward::Parents => return Ok(Ok(graph.labels(pessimistic))),
            Backward::Sweeps(path) => path,
        };
        let mut labels = graph.labels_seeds(pessimistic).0;
        loop {
            let mut added = 0u64;
            for_each_record_backwards(path, |position, head, children| {
                added += labels.settle(position, is_cut(head), children, pessimistic);
            })
            .map_err(scratch_error(path))?;
            result.sweeps += 1;
            progress(result.sweeps, added);
            if added == 0 {
                return Ok(Ok(labels));
            }
            if let Some(why) = stop.reason("during the passes") {
                return Ok(Err(why));
            }
        }
    }
}

/// Words of the scratch file read at a time when reading it backwards.
const SWEEP_CHUNK_WORDS: u64 = 1 << 22;

/// Calls `visit(position, head, children)` on every record of the scratch file, from
/// the last to the first.
fn for_each_record_backwards(
    path: &std::path::Path,
    mut visit: impl FnMut(u32, u32, &[u32]),
) -> std::io::Result<()> {
    use std::io::{Seek, SeekFrom};
    let mut file = File::open(path)?;
    let mut low = file.metadata()?.len() / 4;
    // Words [low, low + buffer.len()) of the file, not yet visited.
    let mut buffer: Vec<u32> = Vec::new();
    let mut bytes = Vec::new();
    loop {
        while let Some(&count) = buffer.last() {
            let length = count as usize + 3;
            if length > buffer.len() {
                break;
            }
            let start = buffer.len() - length;
            let record = &buffer[start..];
            visit(record[0], record[1], &record[2..length - 1]);
            buffer.truncate(start);
        }
        if low == 0 {
            return if buffer.is_empty() {
                Ok(())
            } else {
                Err(std::io::Error::other(
                    "a record cut short at the file's start",
                ))
            };
        }
        let take = SWEEP_CHUNK_WORDS.min(low);
        low -= take;
        file.seek(SeekFrom::Start(low * 4))?;
        bytes.resize(take as usize * 4, 0);
        file.read_exact(&mut bytes)?;
        let mut earlier: Vec<u32> = words(&bytes).collect();
        earlier.extend_from_slice(&buffer);
        buffer = earlier;
    }
}

/// Stage 1: the reachable positions level by level, or why it stopped (with the counts
/// so far).
#[allow(clippy::too_many_arguments)]
fn list(
    variant: &Variant,
    index: &Index,
    board: &Board,
    limits: &IndexedLimits,
    fixed: u64,
    stop: &Stop,
    started: Instant,
    progress: &dyn Fn(&IndexedProgress),
) -> Result<Result<Listing, (String, u64, u64)>, IndexedError> {
    let path = limits.scratch.join(format!(
        "isolo-ai-retro-{}-{:x}.moves",
        std::process::id(),
        board.hash()
    ));
    let scratch_error = scratch_error(&path);
    let file = File::create(&path).map_err(&scratch_error)?;
    let scratch = Scratch { path: path.clone() };
    let mut out = BufWriter::with_capacity(1 << 22, file);
    let mut graph = Graph {
        reached: Bits::new(index.size),
        cut: Bits::new(index.size),
        moves: Countdown::new(index.size),
        ends: vec![0; index.size as usize],
        bases: Vec::new(),
        parents: Vec::new(),
        reached_count: 1,
        cut_count: 0,
        retreat: variant.has_retreat(),
    };
    let root = index.of(board) as u32;
    graph.reached.set(root);
    let mut level = vec![root];
    let mut edges = 0u64;
    let mut reported = started;
    while !level.is_empty() {
        let mut next = Vec::new();
        for batch in level.chunks(BATCH) {
            let halt = if let Some(why) = stop.reason("while listing") {
                Some(why)
            } else if fixed + graph.reached_count * BYTES_PER_REACHED > limits.memory {
                Some(format!(
                    "the memory limit ({} MB) was reached while listing",
                    limits.memory >> 20
                ))
            } else {
                None
            };
            if let Some(why) = halt {
                return Ok(Err((why, graph.reached_count, edges)));
            }
            let listed: Vec<Vec<u32>> = batch
                .par_chunks(BATCH / 64)
                .map(|part| {
                    let mut out = Vec::new();
                    for &p in part {
                        list_moves(variant, index, p, &mut out);
                    }
                    out
                })
                .collect();
            for records in &listed {
                merge(&mut graph, records, &mut next, &mut edges);
                write_words(&mut out, records).map_err(&scratch_error)?;
            }
            if reported.elapsed() >= PROGRESS_EVERY {
                reported = Instant::now();
                progress(&IndexedProgress {
                    stage: "listing",
                    reached: graph.reached_count,
                    edges,
                    sweep: (0, 0),
                    time: started.elapsed(),
                });
            }
        }
        level = next;
    }
    out.flush().map_err(&scratch_error)?;
    Ok(Ok(Listing {
        graph,
        edges,
        scratch,
    }))
}

/// Counts one batch's moves and parents, and queues the positions first reached.
fn merge(graph: &mut Graph, records: &[u32], next: &mut Vec<u32>, edges: &mut u64) {
    let mut at = 0;
    while at < records.len() {
        let (position, head) = (records[at], records[at + 1]);
        let count = move_count(head);
        let children = children_of(&records[at + 2..at + 2 + count], graph.retreat);
        graph.moves.set(position, children.len() as u32);
        if is_cut(head) {
            graph.cut.set(position);
            graph.cut_count += 1;
        }
        for &child in children {
            graph.ends[child as usize] += 1;
            if graph.reached.set(child) {
                graph.reached_count += 1;
                next.push(child);
            }
        }
        *edges += children.len() as u64;
        at += 3 + count;
    }
}

fn write_words(out: &mut impl Write, words: &[u32]) -> std::io::Result<()> {
    for w in words {
        out.write_all(&w.to_le_bytes())?;
    }
    Ok(())
}

/// Stage 2: every position's parents in one array, from the scratch file.
fn link_parents(listing: &mut Listing) -> Result<(), IndexedError> {
    let graph = &mut listing.graph;
    // Counts become offsets within each block, blocks get 64-bit bases.
    let block = 1usize << BLOCK_BITS;
    let mut total = 0u64;
    for chunk in graph.ends.chunks_mut(block) {
        graph.bases.push(total);
        let mut within = 0u32;
        for slot in chunk.iter_mut() {
            let count = *slot;
            *slot = within;
            within += count;
        }
        total += within as u64;
    }
    graph.parents = vec![0; total as usize];
    let path = &listing.scratch.path;
    for_each_record(path, |parent, _, children| {
        for &child in children {
            let base = graph.bases[(child >> BLOCK_BITS) as usize];
            let slot = &mut graph.ends[child as usize];
            graph.parents[(base + *slot as u64) as usize] = parent;
            *slot += 1;
        }
    })
    .map_err(scratch_error(path))
}

/// Calls `visit(position, head, children)` on every record of the scratch file, first
/// to last.
fn for_each_record(
    path: &std::path::Path,
    mut visit: impl FnMut(u32, u32, &[u32]),
) -> std::io::Result<()> {
    // Read in chunks of its own: a buffered reader would only copy them once more.
    let mut input = File::open(path)?;
    // Words read and not yet visited (a record cut by the end of a chunk waits here).
    let mut buffer: Vec<u32> = Vec::new();
    let mut bytes = vec![0u8; SWEEP_CHUNK_WORDS as usize * 4];
    loop {
        let read = read_up_to(&mut input, &mut bytes)?;
        if read % 4 != 0 {
            return Err(std::io::Error::other("the file ends inside a word"));
        }
        buffer.extend(words(&bytes[..read]));
        let mut at = 0;
        while at + 2 <= buffer.len() {
            let length = move_count(buffer[at + 1]) + 3;
            if at + length > buffer.len() {
                break;
            }
            let record = &buffer[at..at + length];
            visit(record[0], record[1], &record[2..length - 1]);
            at += length;
        }
        buffer.drain(..at);
        if read == 0 {
            return if buffer.is_empty() {
                Ok(())
            } else {
                Err(std::io::Error::other("the file ends inside a record"))
            };
        }
    }
}

/// Fills `bytes` as far as the file goes; how many were read.
fn read_up_to(input: &mut impl Read, bytes: &mut [u8]) -> std::io::Result<usize> {
    let mut filled = 0;
    while filled < bytes.len() {
        match input.read(&mut bytes[filled..])? {
            0 => break,
            n => filled += n,
        }
    }
    Ok(filled)
}
