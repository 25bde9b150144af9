//! Retrograde analysis spread over ranks (threads of one process, or the processes of
//! an MPI job), for boards whose index does not fit one machine.
//!
//! The positions are those of the indexed analysis (`spread`: every seed spread
//! numbered, seen from the mover), with 64-bit numbers. Runs of `2^CHUNK_BITS`
//! consecutive numbers (positions that mostly share the mover's half-board) are dealt
//! to the ranks in turn; each rank keeps its positions' arrays alone. The analysis:
//!
//! 1. lists the reachable positions level by level: each rank lists its positions of
//!    the level, and each child's number, with its parent's, goes to the child's owner
//!    in batches (one exchange of all ranks with all ranks), who marks it reached, keeps
//!    the parent and queues it for the next level;
//! 2. labels the positions in synchronous rounds from those whose mover has no move
//!    (lost in 0 plies): in round `r`, each position labelled in round `r - 1` tells its
//!    parents' owners; a parent with a lost child is won in `r` plies, one whose every
//!    child is now won is lost in `r` plies. The round of a label is the exact number of
//!    plies to the end under best play (the winner hastening, the loser delaying), the
//!    same however many ranks share the work.
//!
//! Cut move lists and dead positions the rules draw are treated as the indexed analysis
//! treats them (a draw needs a second, pessimistic labelling where lists were cut).
//! Under the retreat (the other side answering inside a move) a parent told of a
//! child's label walks its move tree afresh and asks its children's owners for their
//! labels: won where its mover can force the move into a child lost, lost where the
//! other side can force it into one won.
//! Results are bit for bit the same for any number of ranks: `digest` sums a hash of
//! every labelled position's number and label.

mod checkpoint;
mod parents;
mod proof;
pub(crate) mod transport;

use std::cell::Cell;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::spread::{distinct_children, forced, positions_text, walked_children, SpreadIndex};
use super::RetroVerdict;
use isolo_rules::{Board, DeadPosition, Variant};
use parents::{IoFault, ParentSpill, Parents};
use transport::{InProcess, Transport};

pub use proof::{DistributedProof, CERTIFICATE_INDEX};

/// Consecutive numbers dealt to one rank together (`2^CHUNK_BITS` of them).
const CHUNK_BITS: u32 = 12;
const CHUNK_MASK: u64 = (1 << CHUNK_BITS) - 1;

/// Time between two progress lines of one stage.
const PROGRESS_EVERY: Duration = Duration::from_secs(5);

/// Positions a rank lists between two exchanges.
const BATCH: usize = 1 << 14;

/// Parents a rank tells of a label between two exchanges (and two looks at the clock
/// and the signals: a batch takes well under a quarter of a second).
const LABEL_BATCH: u64 = 1 << 20;

/// What the ranks that did not find a fault say of it.
const FOUND_ELSEWHERE: &str = "found on rank";

/// The largest index the messages can carry (a number and a flag in 64 bits).
const MOST_POSITIONS: u64 = 1 << 62;

/// How far the analysis may go.
#[derive(Clone, Debug, Default)]
pub struct DistributedLimits {
    /// Wall time.
    pub time: Option<Duration>,
    /// Set to stop early (Ctrl-C): the answer is then unknown.
    pub interrupt: Option<&'static AtomicBool>,
    /// Check every label once the exact labels are in (`check`).
    pub check: bool,
    /// The folder of each rank's parents files (`None`: the system's temporary folder);
    /// on a cluster, a disk of each node's own.
    pub scratch: Option<PathBuf>,
    /// Where the exact labels are saved, to resume from (`None`: nowhere).
    pub checkpoints: Option<Checkpoints>,
    /// Read the proof of a win, loss or draw from the labels, for a certificate (on
    /// indexes of at most [`CERTIFICATE_INDEX`] numbers).
    pub proof: bool,
}

/// Where and how often a run saves its exact labels, and resumes from them.
#[derive(Clone, Debug)]
pub struct Checkpoints {
    /// A folder every rank reaches: a run finding a checkpoint of the same problem there
    /// resumes from it, on any number of ranks.
    pub folder: PathBuf,
    /// Time between two checkpoints (a run stopped while labelling saves one too).
    pub every: Duration,
}

/// The time between two checkpoints the front ends ask for.
pub const CHECKPOINT_EVERY: Duration = Duration::from_secs(600);

/// The analysis' answer, the same on every rank.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DistributedResult {
    /// What was proven (unknown when it stopped early: see `stopped`).
    pub verdict: RetroVerdict,
    /// Plies to the end under best play, for a win or a loss.
    pub plies: Option<u32>,
    /// Ranks that shared the work.
    pub ranks: usize,
    /// Positions in the index (a position and its exchange counted once).
    pub index_size: u64,
    /// Positions reachable from the root (all of them when the listing finished).
    pub reached: u64,
    /// Distinct moves listed.
    pub edges: u64,
    /// Reached positions whose move lists were cut short.
    pub cut: u64,
    /// Reached positions won for their mover (exact labels).
    pub won: u64,
    /// Reached positions lost for their mover (exact labels).
    pub lost: u64,
    /// Labelling rounds that added labels (the longest win or loss, in plies, plus 1).
    pub rounds: u32,
    /// A sum of a hash of every labelled position's number, label and plies: equal
    /// results have equal digests, whatever the number of ranks.
    pub digest: u64,
    /// Why it stopped before a verdict, where it did.
    pub stopped: Option<String>,
    /// Positions whose labels the check confirmed (all those reached), where it ran.
    pub checked: Option<u64>,
    /// What each rank was planned to hold.
    pub plan: MemoryPlan,
    /// Bytes of the parents files of all ranks together.
    pub parents_bytes: u64,
    /// The round of the checkpoint the run resumed from.
    pub resumed_at: Option<u32>,
    /// The round of the last checkpoint the run saved.
    pub saved_at: Option<u32>,
    /// Why the last checkpoint (every label, once the labelling ended) could not be
    /// saved, where it could not: the result stands, the folder holds an earlier one.
    pub unsaved: Option<String>,
    /// The proof of the value, where asked and proven (on rank 0 alone).
    pub proof: Option<DistributedProof>,
}

/// A stage reached, for a progress line (given on rank 0).
#[derive(Clone, Debug)]
pub struct DistributedProgress {
    /// What is being done: "listing" or "labelling".
    pub stage: &'static str,
    /// The level listed, or the round labelled.
    pub step: u32,
    /// Positions reached, or labelled, so far (all ranks).
    pub count: u64,
    /// Wall time so far.
    pub time: Duration,
    /// The memory plan, at the stage "plan" (before anything else).
    pub plan: Option<MemoryPlan>,
}

/// What a rank holds, worked out before the run from the index alone: the arrays over
/// its numbers in memory, and its moves on its disk (their number is known once they
/// are listed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemoryPlan {
    /// Numbers the rank with the most owns.
    pub places: u64,
    /// Bytes of its arrays: two bits (reached, cut), two 16-bit counts (moves, children
    /// won), a label and a parents' start, 32 bits each, for each number.
    pub arrays: u64,
    /// Bytes of its buffers, the largest of: a batch's move lists and messages
    /// (estimated), and the window of parents sorted at a time.
    pub buffers: u64,
    /// Bytes of memory a rank may take: 7/8 of the machine's shared by its ranks.
    pub allowed: Option<u64>,
    /// Bytes of disk a move takes while listing (its child's place and its parent).
    pub disk_per_move_listing: u64,
    /// Bytes of disk a move takes once the parents are sorted (its parent alone).
    pub disk_per_move: u64,
}

impl MemoryPlan {
    /// Bytes of memory the plan gives a rank.
    pub fn memory(&self) -> u64 {
        self.arrays + self.buffers
    }
}

/// Why the analysis cannot start.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum DistributedError {
    /// The index would number more positions than the messages can carry (`u64::MAX`:
    /// the count itself passed 64 bits).
    #[error("{} in the index; the distributed analysis numbers at most 2^62", positions_text(*.0))]
    TooLarge(u64),
    /// The rules count the seeds of a dead position, which the labels cannot hold.
    #[error("the distributed analysis cannot count a dead position's seeds (dead_position = \"count\"): use the method retro")]
    CountedDeadPositions,
    /// A label its children contradict (`check`): a fault of the analysis.
    #[error("the check of the labels failed: {0}")]
    CheckFailed(String),
    /// A rank's arrays would not fit its share of the machine's memory.
    #[error("each rank needs {} MB (arrays for {places} numbers and buffers) and may take {} MB here: use more ranks or machines", .needed >> 20, .allowed >> 20)]
    Memory {
        /// Numbers a rank owns.
        places: u64,
        /// Bytes needed.
        needed: u64,
        /// Bytes allowed.
        allowed: u64,
    },
    /// A parents file failed a rank.
    #[error("{0}")]
    Scratch(String),
    /// The checkpoint to resume from cannot be used.
    #[error("{0}")]
    Checkpoint(String),
    /// A proof was asked for on an index too large to gather on one rank.
    #[error("the index numbers {0} positions, and proofs are read from indexes of at most {CERTIFICATE_INDEX}: use the method retro")]
    ProofTooLarge(u64),
    /// The labels give no proof: a fault of the analysis.
    #[error("internal error (please report): the labels give no proof: {0}")]
    NoProof(String),
}

/// Runs the analysis on `ranks` threads of this process.
pub fn solve_in_process(
    variant: &Variant,
    board: &Board,
    ranks: usize,
    limits: &DistributedLimits,
    progress: &(dyn Fn(&DistributedProgress) + Sync),
) -> Result<DistributedResult, DistributedError> {
    let group = InProcess::group(ranks);
    let mut results: Vec<_> = std::thread::scope(|scope| {
        let runs: Vec<_> = group
            .iter()
            .map(|transport| {
                scope.spawn(move || {
                    // (A rank that panics must not leave the others waiting for it.)
                    let _guard = transport.guard();
                    solve(variant, board, transport, limits, progress)
                })
            })
            .collect();
        runs.into_iter()
            .map(|run| run.join().expect("a rank panicked"))
            .collect()
    });
    // (A fault is told by the rank that found it.)
    let finder = results.iter().position(|r| match r {
        Err(
            DistributedError::CheckFailed(why)
            | DistributedError::Scratch(why)
            | DistributedError::Checkpoint(why),
        ) => !why.starts_with(FOUND_ELSEWHERE),
        _ => false,
    });
    results.swap_remove(finder.unwrap_or(0))
}

/// This rank's part of the analysis of every position reachable from `board`; every
/// rank of `transport` calls it with the same arguments.
pub fn solve(
    variant: &Variant,
    board: &Board,
    transport: &dyn Transport,
    limits: &DistributedLimits,
    progress: &(dyn Fn(&DistributedProgress) + Sync),
) -> Result<DistributedResult, DistributedError> {
    let started = Instant::now();
    if variant.rules().dead_position() == DeadPosition::Count && variant.fortresses().is_some() {
        return Err(DistributedError::CountedDeadPositions);
    }
    let index = SpreadIndex::of_board(variant, board);
    if index.size > MOST_POSITIONS {
        return Err(DistributedError::TooLarge(index.size));
    }
    if limits.proof && index.size > CERTIFICATE_INDEX {
        return Err(DistributedError::ProofTooLarge(index.size));
    }
    let plan = memory_plan(&index, transport);
    // (Every rank refuses where one must: machines differ.)
    let short = plan.allowed.filter(|&allowed| plan.memory() > allowed);
    if transport.max(u64::from(short.is_some())) != 0 {
        return Err(DistributedError::Memory {
            places: plan.places,
            needed: plan.memory(),
            allowed: short.or(plan.allowed).unwrap_or(0),
        });
    }
    let stop = Stop {
        deadline: limits.time.map(|t| started + t),
        interrupt: limits.interrupt,
        transport,
    };
    // (A line a level or round where they take long; else one at each stage's start
    // and every `PROGRESS_EVERY`.)
    let shown: Cell<Option<(&str, Instant)>> = Cell::new(None);
    let report = |stage: &'static str, step, count| {
        let due = shown
            .get()
            .is_none_or(|(last, at)| last != stage || at.elapsed() >= PROGRESS_EVERY);
        if transport.rank() == 0 && due {
            shown.set(Some((stage, Instant::now())));
            progress(&DistributedProgress {
                stage,
                step,
                count,
                time: started.elapsed(),
                plan: (stage == "plan").then_some(plan),
            })
        }
    };
    let problem = crate::digest::fingerprint_of(&format!(
        "distributed\n{}\n{}",
        variant.rules().to_toml(),
        variant.format_position(board)
    ));
    let resume = resumable(limits, &problem, index.size);
    // (Every rank refuses where one must: a folder some ranks do not reach, say.)
    let refused = resume.as_ref().err().cloned();
    let resume = match agree_on(transport, refused) {
        Some(why) => return Err(DistributedError::Checkpoint(why)),
        None => resume.unwrap_or_default(),
    };
    report("plan", 0, 0);
    let scratch = limits.scratch.clone().unwrap_or_else(std::env::temp_dir);
    parents::sweep_leftovers(&scratch);
    let mut rank = Rank::new(variant, &index, transport, &scratch);
    let root = index.of(board);
    let mut result = DistributedResult {
        verdict: RetroVerdict::Unknown,
        plies: None,
        ranks: transport.ranks(),
        index_size: index.size,
        reached: 0,
        edges: 0,
        cut: 0,
        won: 0,
        lost: 0,
        rounds: 0,
        digest: 0,
        stopped: None,
        checked: None,
        plan,
        parents_bytes: 0,
        resumed_at: None,
        saved_at: None,
        unsaved: None,
        proof: None,
    };
    let listed = rank.list(root, &stop, &report);
    result.reached = transport.sum(rank.reached_count);
    result.edges = transport.sum(rank.edges);
    result.cut = transport.sum(rank.cut_count);
    if let Err(halt) = listed.and_then(|()| {
        rank.link_parents(&stop);
        stop.reason("while sorting the parents", &rank.fault)
    }) {
        return rank.halted(halt, result);
    }
    result.parents_bytes = transport.sum(rank.parents_bytes());
    rank.saver = limits.checkpoints.as_ref().map(|checkpoints| Saver {
        checkpoints,
        meta: checkpoint::Meta::new(
            &problem,
            index.size,
            transport.ranks(),
            [result.reached, result.edges, result.cut],
        ),
        last: Instant::now(),
    });
    let from = match resume {
        Some(meta) => {
            let listing = (meta.reached, meta.edges, meta.cut);
            if listing != (result.reached, result.edges, result.cut) {
                return Err(DistributedError::Checkpoint(format!(
                    "the checkpoint's listing (positions, moves, cut lists) {listing:?} is not this run's {:?}",
                    (result.reached, result.edges, result.cut)
                )));
            }
            let folder = &limits.checkpoints.as_ref().expect("read").folder;
            if let Err(halt) = rank.restore(folder, &meta, &stop) {
                return match rank.halted(halt, result) {
                    Err(DistributedError::Scratch(why)) => Err(DistributedError::Checkpoint(why)),
                    other => other,
                };
            }
            result.resumed_at = Some(meta.round);
            Some(meta.round)
        }
        None => None,
    };
    let exact = rank.label(false, from, &stop, &report);
    result.saved_at = rank.saved_at;
    result.unsaved = rank.unsaved.take();
    let exact = match exact {
        Ok(rounds) => rounds,
        Err(halt) => return rank.halted(halt, result),
    };
    result.rounds = exact;
    if limits.check {
        report("checking", 0, 0);
        let fault = match rank.check(&stop) {
            Ok(fault) => fault,
            Err(halt) => return rank.halted(halt, result),
        };
        if let Some(why) = agree_on(transport, fault) {
            return Err(DistributedError::CheckFailed(why));
        }
        result.checked = Some(result.reached);
    }
    let (won, lost, digest) = rank.tally();
    result.won = transport.sum(won);
    result.lost = transport.sum(lost);
    result.digest = transport.sum(digest);
    let label = transport.sum(rank.label_of(root).unwrap_or(0) as u64) as u32;
    if label & WON != 0 {
        result.verdict = RetroVerdict::Win;
        result.plies = Some(label >> ROUND_SHIFT);
    } else if label & LOST != 0 {
        result.verdict = RetroVerdict::Loss;
        result.plies = Some(label >> ROUND_SHIFT);
    } else if result.cut == 0 {
        result.verdict = RetroVerdict::Draw;
    } else {
        match rank.label(true, None, &stop, &report) {
            Ok(_) => {
                let label = transport.sum(rank.label_of(root).unwrap_or(0) as u64);
                if label == 0 {
                    result.verdict = RetroVerdict::Draw;
                } else {
                    result.stopped = Some("cut move lists leave the value open".into());
                }
            }
            Err(halt) => return rank.halted(halt, result),
        }
    }
    if limits.proof && result.verdict != RetroVerdict::Unknown {
        if let Some(labels) = rank.gather_labels() {
            let winner = result.verdict.winner(board.to_move());
            let proof = proof::read(variant, &index, board, &labels, winner);
            result.proof = Some(proof.map_err(DistributedError::NoProof)?);
        }
    }
    Ok(result)
}

/// The checkpoint of `problem` to resume from in `limits`' folder, if there is one; the
/// folder made where missing.
fn resumable(
    limits: &DistributedLimits,
    problem: &str,
    index_size: u64,
) -> Result<Option<checkpoint::Meta>, String> {
    let Some(checkpoints) = &limits.checkpoints else {
        return Ok(None);
    };
    let folder = &checkpoints.folder;
    if folder.exists() && !folder.is_dir() {
        return Err(format!(
            "{} is not a folder (the checkpoints are kept in a folder)",
            folder.display()
        ));
    }
    std::fs::create_dir_all(folder)
        .map_err(|e| format!("cannot make the folder {}: {e}", folder.display()))?;
    match checkpoint::read_meta(folder)? {
        Some(meta) if meta.problem != problem => Err(format!(
            "the checkpoint in {} is of another game or position (problem {}, this one {problem})",
            checkpoints.folder.display(),
            meta.problem
        )),
        Some(meta) if meta.index_size != index_size => Err(format!(
            "the checkpoint in {} numbers {} positions, this run's index {index_size}",
            checkpoints.folder.display(),
            meta.index_size
        )),
        meta => Ok(meta),
    }
}

/// The fault of the rank that found one, on every rank (the others say where it was
/// found; the last rank's if several).
fn agree_on(transport: &dyn Transport, fault: Option<String>) -> Option<String> {
    let mine = fault.as_ref().map_or(0, |_| transport.rank() as u64 + 1);
    match transport.max(mine) {
        0 => None,
        finder => Some(fault.unwrap_or_else(|| format!("{FOUND_ELSEWHERE} {}", finder - 1))),
    }
}

/// Estimated messages of a listed move: its child's number and its parent's, in the
/// outgoing and the incoming buffers, and the child in its parent's list.
const BUFFER_WORDS_A_MOVE: u64 = 5;

/// Moves a position is planned to have, for the buffers (Igisoro's 4x4 averages 16).
const PLANNED_MOVES: u64 = 32;

/// The memory plan of a rank of `transport` over `index`.
fn memory_plan(index: &SpreadIndex, transport: &dyn Transport) -> MemoryPlan {
    let owners = Owners {
        ranks: transport.ranks() as u64,
    };
    let places = owners.local_size(0, index.size) as u64;
    let layout = parents::Layout::new(places as usize, index.size);
    let listing = BATCH as u64 * PLANNED_MOVES * BUFFER_WORDS_A_MOVE * 8;
    // (The messages out, sent as one, and in.)
    let labelling = LABEL_BATCH * 8 * 3;
    let ranks_here = transport.ranks_here().max(1) as u64;
    MemoryPlan {
        places,
        arrays: places * BYTES_A_PLACE + places.div_ceil(4),
        buffers: listing
            .max(labelling)
            .max(parents::SORT_WINDOW_BYTES as u64),
        allowed: crate::search::tt::physical_memory_mb().map(|mb| (mb << 20) / 8 * 7 / ranks_here),
        disk_per_move_listing: layout.bucket_record() as u64,
        disk_per_move: layout.width as u64,
    }
}

/// Bytes of the arrays for each number a rank owns, its two bits aside: the counts of
/// moves and of children won, the label and the start of its parents.
const BYTES_A_PLACE: u64 = 2 + 2 + 4 + 4;

/// How a rank saves the exact labels.
struct Saver<'a> {
    checkpoints: &'a Checkpoints,
    /// The checkpoint being written (its round set when saved).
    meta: checkpoint::Meta,
    /// When the last was saved (or the labels began).
    last: Instant,
}

/// Why the ranks stop before a verdict.
enum Halt {
    /// Past the time limit or interrupted: the reason.
    Stopped(String),
    /// A rank's parents file failed.
    Fault,
}

/// When to stop before a verdict: past the time limit, when interrupted, or when a
/// rank's file failed, on any rank (asked of all ranks at once).
struct Stop<'a> {
    deadline: Option<Instant>,
    interrupt: Option<&'static AtomicBool>,
    transport: &'a dyn Transport,
}

impl Stop<'_> {
    /// Whether this rank's clock or interrupt says stop, asked where the ranks work
    /// apart (they agree at the next `reason`, which then stops them all).
    fn due_here(&self) -> bool {
        crate::raised(self.interrupt) || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Why every rank stops now, `when` it happens ("while listing"), if one must
    /// (`fault`: this rank's failure).
    fn reason(&self, when: &str, fault: &Option<IoFault>) -> Result<(), Halt> {
        let interrupted = crate::raised(self.interrupt);
        let late = self.deadline.is_some_and(|d| Instant::now() >= d);
        let code = (fault.is_some() as u64) << 2 | (interrupted as u64) << 1 | late as u64;
        match self.transport.max(code) {
            0 => Ok(()),
            1 => Err(Halt::Stopped(format!("the time ran out {when}"))),
            2 | 3 => Err(Halt::Stopped(format!("interrupted {when}"))),
            _ => Err(Halt::Fault),
        }
    }
}

/// A label's bits: won or lost for the mover, and the round it was given in above them.
const WON: u32 = 1;
const LOST: u32 = 2;
const ROUND_SHIFT: u32 = 2;

/// Which positions a rank owns, and where they are in its arrays.
#[derive(Clone, Copy)]
struct Owners {
    ranks: u64,
}

impl Owners {
    fn owner(self, position: u64) -> usize {
        ((position >> CHUNK_BITS) % self.ranks) as usize
    }

    /// The place of `position` in its owner's arrays.
    fn local(self, position: u64) -> usize {
        (((position >> CHUNK_BITS) / self.ranks) << CHUNK_BITS | position & CHUNK_MASK) as usize
    }

    /// The position at `local` in `rank`'s arrays.
    fn global(self, rank: usize, local: usize) -> u64 {
        let chunk = (local as u64 >> CHUNK_BITS) * self.ranks + rank as u64;
        chunk << CHUNK_BITS | local as u64 & CHUNK_MASK
    }

    /// The length of `rank`'s arrays over an index of `size` (whole chunks).
    fn local_size(self, rank: usize, size: u64) -> usize {
        let chunks = size.div_ceil(1 << CHUNK_BITS);
        let mine = chunks / self.ranks + u64::from((rank as u64) < chunks % self.ranks);
        (mine << CHUNK_BITS) as usize
    }
}

/// A bit per local position.
type Bits = super::bits::Bits<usize>;

/// A count for each place in 16 bits, the rare larger ones kept aside.
struct Counts {
    small: Vec<u16>,
    large: HashMap<usize, u32>,
}

impl Counts {
    fn new(places: usize) -> Counts {
        Counts {
            small: vec![0; places],
            large: HashMap::new(),
        }
    }

    fn get(&self, place: usize) -> u32 {
        match self.small[place] {
            u16::MAX => self.large[&place],
            count => u32::from(count),
        }
    }

    fn set(&mut self, place: usize, count: u32) {
        match u16::try_from(count) {
            Ok(small) if small < u16::MAX => self.small[place] = small,
            _ => {
                self.small[place] = u16::MAX;
                self.large.insert(place, count);
            }
        }
    }

    /// Adds one; the count now.
    fn add_one(&mut self, place: usize) -> u32 {
        let count = self.get(place) + 1;
        self.set(place, count);
        count
    }
}

/// One rank's positions: what it has listed and labelled.
struct Rank<'a> {
    variant: &'a Variant,
    index: &'a SpreadIndex,
    transport: &'a dyn Transport,
    owners: Owners,
    reached: Bits,
    cut: Bits,
    /// Distinct moves of each listed position.
    moves: Counts,
    /// The parents while listing, then sorted by child (the arrays over the index stay
    /// untouched where nothing is reached: the system gives them zeroed, page by page,
    /// as they are written).
    spill: Option<ParentSpill>,
    parents: Option<Parents>,
    labels: Vec<u32>,
    /// Children won for their mover so far, per position.
    won_children: Counts,
    /// This rank's failed read or write, which stops every rank.
    fault: Option<IoFault>,
    /// Saves the exact labels, where asked.
    saver: Option<Saver<'a>>,
    /// The round of the last checkpoint saved.
    saved_at: Option<u32>,
    /// Why the labels, whole, could not be saved.
    unsaved: Option<String>,
    reached_count: u64,
    cut_count: u64,
    edges: u64,
}

impl<'a> Rank<'a> {
    fn new(
        variant: &'a Variant,
        index: &'a SpreadIndex,
        transport: &'a dyn Transport,
        scratch: &std::path::Path,
    ) -> Self {
        let owners = Owners {
            ranks: transport.ranks() as u64,
        };
        let size = owners.local_size(transport.rank(), index.size);
        let tag = format!("rank{}", transport.rank());
        Rank {
            variant,
            index,
            transport,
            owners,
            reached: Bits::new(size as u64),
            cut: Bits::new(size as u64),
            moves: Counts::new(size),
            spill: Some(ParentSpill::new(scratch, &tag, size, index.size)),
            parents: None,
            labels: Vec::new(),
            won_children: Counts::new(0),
            fault: None,
            saver: None,
            saved_at: None,
            unsaved: None,
            reached_count: 0,
            cut_count: 0,
            edges: 0,
        }
    }

    fn ranks(&self) -> usize {
        self.transport.ranks()
    }

    /// The result of ranks that stopped early, or the fault that stopped them.
    fn halted(
        &mut self,
        halt: Halt,
        mut result: DistributedResult,
    ) -> Result<DistributedResult, DistributedError> {
        match halt {
            Halt::Stopped(why) => {
                result.stopped = Some(why);
                Ok(result)
            }
            Halt::Fault => {
                let fault = self.fault.take();
                let why = agree_on(self.transport, fault);
                Err(DistributedError::Scratch(why.unwrap_or_default()))
            }
        }
    }

    /// Bytes of this rank's parents file.
    fn parents_bytes(&self) -> u64 {
        self.parents.as_ref().map_or(0, Parents::bytes)
    }

    /// Stage 1: every position reachable from `root`, level by level.
    fn list(
        &mut self,
        root: u64,
        stop: &Stop,
        report: &dyn Fn(&'static str, u32, u64),
    ) -> Result<(), Halt> {
        let mut level = Vec::new();
        if self.owners.owner(root) == self.transport.rank() {
            self.reached.set(self.owners.local(root));
            self.reached_count += 1;
            level.push(root);
        }
        let mut depth = 0;
        loop {
            let batches = self.transport.max(level.len().div_ceil(BATCH) as u64) as usize;
            let mut next = Vec::new();
            for b in 0..batches {
                stop.reason("while listing", &self.fault)?;
                let batch = level.chunks(BATCH).nth(b).unwrap_or(&[]);
                let outgoing = self.list_batch(batch);
                for words in self.transport.exchange(outgoing) {
                    self.receive_children(&words, &mut next);
                }
            }
            let reached = self.transport.sum(self.reached_count);
            depth += 1;
            report("listing", depth, reached);
            if self.transport.sum(next.len() as u64) == 0 {
                return Ok(());
            }
            level = next;
        }
    }

    /// Lists the moves of `batch` (positions of this rank) on every core: their counts
    /// are kept, each child goes to its owner as (child, parent).
    fn list_batch(&mut self, batch: &[u64]) -> Vec<Vec<u64>> {
        let listed = list_on_every_core(self.variant, self.index, batch);
        let mut outgoing = vec![Vec::new(); self.ranks()];
        for Listed {
            position,
            cut,
            children,
            ..
        } in listed
        {
            let local = self.owners.local(position);
            self.moves.set(local, children.len() as u32);
            if cut {
                self.cut.set(local);
                self.cut_count += 1;
            }
            self.edges += children.len() as u64;
            for child in children {
                outgoing[self.owners.owner(child)].extend([child, position]);
            }
        }
        outgoing
    }

    /// Takes in (child, parent) pairs from a rank: the parents kept, the children first
    /// reached queued in `next`.
    fn receive_children(&mut self, words: &[u64], next: &mut Vec<u64>) {
        let spill = self.spill.as_mut().expect("listing");
        for pair in words.chunks_exact(2) {
            let (child, parent) = (pair[0], pair[1]);
            let local = self.owners.local(child);
            if self.fault.is_none() {
                self.fault = spill.push(local, parent).err();
            }
            if self.reached.set(local) {
                self.reached_count += 1;
                next.push(child);
            }
        }
    }

    /// Stage 2: the parents of each position together (a failure kept in `fault`),
    /// unless this rank's clock or interrupt stops it (the ranks then agree to stop).
    fn link_parents(&mut self, stop: &Stop) {
        if let Some(spill) = self.spill.take() {
            match spill.finish(&|| stop.due_here()) {
                Ok(parents) => self.parents = parents,
                Err(why) => self.fault = self.fault.take().or(Some(why)),
            }
        }
    }

    /// The label of `position` if this rank owns it (0: none).
    fn label_of(&self, position: u64) -> Option<u32> {
        (self.owners.owner(position) == self.transport.rank())
            .then(|| self.labels[self.owners.local(position)])
    }

    /// Stage 3: the labels, round by round (`pessimistic`: a cut list counts as won
    /// for its mover, and as whole when the question is whether it is lost), from the
    /// labels of rounds up to `from` where they were restored; the rounds that added
    /// labels. The exact labels are saved where asked: every `Checkpoints::every`, when
    /// the ranks stop, and once whole.
    fn label(
        &mut self,
        pessimistic: bool,
        from: Option<u32>,
        stop: &Stop,
        report: &dyn Fn(&'static str, u32, u64),
    ) -> Result<u32, Halt> {
        // Positions labelled in the last round, each with the label it gained.
        let mut newly: Vec<(usize, u32)> = Vec::new();
        let retreat = self.variant.has_retreat();
        let mut round = from.unwrap_or(0);
        // Labels of the rounds before `from`, restored.
        let mut restored = 0;
        if from.is_some() {
            for i in self.reached.ones() {
                let label = self.labels[i];
                if label != 0 && label >> ROUND_SHIFT == round {
                    newly.push((i, label & (WON | LOST)));
                } else if label != 0 {
                    restored += 1;
                }
            }
        } else {
            let places = self.moves.small.len();
            self.labels = vec![0; places];
            self.won_children = Counts::new(places);
            for i in self.reached.ones() {
                let cut = self.cut.get(i);
                if self.moves.get(i) == 0 && !cut {
                    self.labels[i] = LOST;
                    newly.push((i, LOST));
                } else if pessimistic && cut && retreat {
                    // (A tree cut short may miss either side's decisions.)
                    self.labels[i] = WON | LOST;
                    newly.extend([(i, WON), (i, LOST)]);
                } else if pessimistic && cut {
                    self.labels[i] = WON;
                    newly.push((i, WON));
                }
            }
        }
        let mut labelled = self.transport.sum(restored);
        loop {
            let added = self.transport.sum(newly.len() as u64);
            if added == 0 {
                if !pessimistic && self.saver.is_some() {
                    // (The exact labels whole: a later run, to check them say, needs
                    // no labelling. Where they cannot be saved the labels stand, and
                    // the failure is told beside the result.)
                    if let Err(Halt::Fault) = self.save(round, labelled, true, report) {
                        self.unsaved = agree_on(self.transport, self.fault.take());
                    }
                }
                return Ok(round);
            }
            labelled += added;
            report("labelling", round, labelled);
            if !pessimistic {
                self.save_if_due(round, labelled, report)?;
            }
            round += 1;
            newly.sort_unstable();
            let (mut gained, mut touched) = (Vec::new(), Vec::new());
            let take = |rank: &mut Self, incoming: &[Vec<u64>]| match retreat {
                true => rank.touch(incoming, pessimistic, &mut touched),
                false => rank.take_news(incoming, round, pessimistic, &mut gained),
            };
            let told = self.tell_parents(&newly, "while labelling", stop, take);
            let told = match retreat {
                true => told.and_then(|()| self.settle_walked(touched, round, stop, &mut gained)),
                false => told,
            };
            if let Err(halt) = told {
                if matches!(halt, Halt::Stopped(_)) && !pessimistic && self.saver.is_some() {
                    // (The labels of the round under way are left out.)
                    self.save(round - 1, labelled, false, report)?;
                }
                return Err(halt);
            }
            newly = gained;
        }
    }

    /// Saves the labels of rounds up to `round` (all there are) if the checkpoints'
    /// time has come (on rank 0's clock).
    fn save_if_due(
        &mut self,
        round: u32,
        labelled: u64,
        report: &dyn Fn(&'static str, u32, u64),
    ) -> Result<(), Halt> {
        let Some(saver) = &self.saver else {
            return Ok(());
        };
        let due = saver.last.elapsed() >= saver.checkpoints.every;
        if self
            .transport
            .max(u64::from(due && self.transport.rank() == 0))
            == 1
        {
            self.save(round, labelled, false, report)?;
        }
        Ok(())
    }

    /// Saves the labels of rounds up to `round` (`labelled` of them, all ranks;
    /// `whole`: every exact label): each rank its part, then rank 0 the description
    /// with every part's records and hash.
    fn save(
        &mut self,
        round: u32,
        labelled: u64,
        whole: bool,
        report: &dyn Fn(&'static str, u32, u64),
    ) -> Result<(), Halt> {
        let (rank, ranks) = (self.transport.rank(), self.transport.ranks());
        let saver = self.saver.as_mut().expect("asked to save");
        let folder = &saver.checkpoints.folder;
        let owners = self.owners;
        let labels = &self.labels;
        let saved = |i: usize| {
            let label = labels[i];
            (label != 0 && label >> ROUND_SHIFT <= round).then(|| (owners.global(rank, i), label))
        };
        let mut digest = 0u64;
        let mine = self
            .reached
            .ones()
            .filter_map(saved)
            .inspect(|&(n, label)| {
                digest = digest.wrapping_add(checkpoint::label_hash(n, label));
            });
        let written = checkpoint::write_part(folder, round, rank, ranks, mine);
        let part = written.as_ref().map_or([0, 0], |p| [p.records, p.hash]);
        let mut written = written.map(|_| ());
        let failed = self.transport.max(u64::from(written.is_err())) != 0;
        let mut outgoing = vec![Vec::new(); ranks];
        outgoing[0] = part.to_vec();
        let parts = self.transport.exchange(outgoing);
        let digest = self.transport.sum(digest);
        if !failed && rank == 0 {
            let meta = &mut saver.meta;
            meta.round = round;
            meta.whole = whole;
            meta.parts = parts
                .iter()
                .map(|words| checkpoint::Part {
                    records: words[0],
                    hash: words[1],
                })
                .collect();
            meta.labelled = meta.parts.iter().map(|p| p.records).sum();
            meta.digest = format!("{digest:016x}");
            written = checkpoint::write_meta(folder, meta);
        }
        if let Err(why) = written {
            self.fault.get_or_insert(why);
        }
        if self.transport.max(u64::from(self.fault.is_some())) != 0 {
            return Err(Halt::Fault);
        }
        saver.last = Instant::now();
        self.saved_at = Some(round);
        report("checkpoint", round, labelled);
        Ok(())
    }

    /// Takes in the labels of this rank's positions from the checkpoint `meta` in
    /// `folder`, and counts each position's children won before its round.
    fn restore(
        &mut self,
        folder: &std::path::Path,
        meta: &checkpoint::Meta,
        stop: &Stop,
    ) -> Result<(), Halt> {
        let places = self.moves.small.len();
        self.labels = vec![0; places];
        self.won_children = Counts::new(places);
        let rank = self.transport.rank();
        let (owners, labels, reached) = (self.owners, &mut self.labels, &self.reached);
        let mut digest = 0u64;
        let read = checkpoint::read_parts(folder, meta, |number, label| {
            if owners.owner(number) != rank {
                return Ok(());
            }
            let local = owners.local(number);
            if !reached.get(local) {
                return Err(format!("position {number} is labelled but not reached"));
            }
            labels[local] = label;
            digest = digest.wrapping_add(checkpoint::label_hash(number, label));
            Ok(())
        });
        if let Err(why) = read {
            self.fault.get_or_insert(why);
        }
        stop.reason("while restoring the checkpoint", &self.fault)?;
        let digest = format!("{:016x}", self.transport.sum(digest));
        if digest != meta.digest {
            let why = format!(
                "the checkpoint's labels sum to {digest}, not to its digest {}",
                meta.digest
            );
            self.fault.get_or_insert(why);
        }
        stop.reason("while restoring the checkpoint", &self.fault)?;
        if self.variant.has_retreat() {
            // (Move trees are walked afresh as their children gain labels: no counts.)
            return Ok(());
        }
        let won: Vec<(usize, u32)> = self
            .reached
            .ones()
            .filter(|&i| self.labels[i] & WON != 0 && self.labels[i] >> ROUND_SHIFT < meta.round)
            .map(|i| (i, WON))
            .collect();
        self.tell_parents(
            &won,
            "while restoring the checkpoint",
            stop,
            |rank, incoming| {
                for message in incoming.iter().flatten() {
                    rank.won_children.add_one(rank.owners.local(message >> 1));
                }
            },
        )
    }

    /// Tells the parents of `labelled` positions (in place order, with the labels they
    /// gained) what they gained, in batches of `LABEL_BATCH` parents, each exchanged and
    /// given to `take` on arrival: a parent's number and whether its child is lost. The
    /// ranks stop between batches where they must (`when`: "while labelling").
    fn tell_parents(
        &mut self,
        labelled: &[(usize, u32)],
        when: &str,
        stop: &Stop,
        mut take: impl FnMut(&mut Self, &[Vec<u64>]),
    ) -> Result<(), Halt> {
        let places: Vec<usize> = labelled.iter().map(|&(place, _)| place).collect();
        let parts = self.parents().batches(&places, LABEL_BATCH);
        let batches = self.transport.max(parts.len() as u64);
        for b in 0..batches as usize {
            stop.reason(when, &self.fault)?;
            let runs = parts.get(b).map_or(&[][..], Vec::as_slice);
            let mut outgoing = vec![Vec::new(); self.ranks()];
            let owners = self.owners;
            let told = self.parents().for_each(runs, |k, parent| {
                let flag = u64::from(labelled[k].1 == LOST);
                outgoing[owners.owner(parent)].push(parent << 1 | flag);
            });
            if let Err(why) = told {
                self.fault.get_or_insert(why);
            }
            let incoming = self.transport.exchange(outgoing);
            take(self, &incoming);
        }
        Ok(())
    }

    /// The parents, sorted by child once listed.
    fn parents(&self) -> &Parents {
        self.parents.as_ref().expect("parents sorted")
    }

    /// Labels the parents that `incoming` messages make won or lost in `round`, noted
    /// in `gained`: a lost child makes a parent won; then the won children count down.
    fn take_news(
        &mut self,
        incoming: &[Vec<u64>],
        round: u32,
        pessimistic: bool,
        gained: &mut Vec<(usize, u32)>,
    ) {
        let label = round << ROUND_SHIFT;
        for message in incoming.iter().flatten().filter(|&&m| m & 1 == 1) {
            let p = self.owners.local(message >> 1);
            if self.labels[p] & WON == 0 {
                self.labels[p] |= WON | if self.labels[p] == 0 { label } else { 0 };
                gained.push((p, WON));
            }
        }
        for message in incoming.iter().flatten().filter(|&&m| m & 1 == 0) {
            let p = self.owners.local(message >> 1);
            if self.labels[p] & LOST == 0 {
                let all = self.won_children.add_one(p) == self.moves.get(p);
                if all && (pessimistic || !self.cut.get(p)) {
                    self.labels[p] |= LOST | if self.labels[p] == 0 { label } else { 0 };
                    gained.push((p, LOST));
                }
            }
        }
    }

    /// Under the retreat: the parents named in `incoming` messages that may yet gain a
    /// label, noted in `touched`.
    fn touch(&self, incoming: &[Vec<u64>], pessimistic: bool, touched: &mut Vec<usize>) {
        for message in incoming.iter().flatten() {
            let p = self.owners.local(message >> 1);
            let label = self.labels[p];
            let open = match pessimistic {
                true => label & (WON | LOST) != WON | LOST,
                false => label == 0 && !self.cut.get(p),
            };
            if open {
                touched.push(p);
            }
        }
    }

    /// Under the retreat: labels in `round` the `touched` positions their children's
    /// labels (of the rounds before) now settle, noted in `gained`: won where the mover
    /// can force its move into a child lost for its mover, lost where the other side can
    /// force it into one won for its mover. Their moves are walked afresh, in batches,
    /// and their children's labels asked of the owners.
    fn settle_walked(
        &mut self,
        mut touched: Vec<usize>,
        round: u32,
        stop: &Stop,
        gained: &mut Vec<(usize, u32)>,
    ) -> Result<(), Halt> {
        touched.sort_unstable();
        touched.dedup();
        let rank = self.transport.rank();
        let numbers: Vec<u64> = touched
            .iter()
            .map(|&p| self.owners.global(rank, p))
            .collect();
        let batches = self.transport.max(numbers.len().div_ceil(BATCH) as u64) as usize;
        let mut settled = Vec::new();
        let (mut offsets, mut values) = (Vec::new(), Vec::new());
        for b in 0..batches {
            stop.reason("while labelling", &self.fault)?;
            let batch = numbers.chunks(BATCH).nth(b).unwrap_or(&[]);
            let listed = list_on_every_core(self.variant, self.index, batch);
            let labels = self.children_labels(&listed);
            for (moves, children) in listed.iter().zip(&labels) {
                let place = self.owners.local(moves.position);
                let label = self.labels[place];
                let lost = |k: usize| children[k] & LOST != 0;
                if label & WON == 0 && forced(&moves.tree, true, lost, &mut offsets, &mut values) {
                    settled.push((place, WON));
                }
                let won = |k: usize| children[k] & WON != 0;
                if label & LOST == 0
                    && !moves.children.is_empty()
                    && forced(&moves.tree, false, won, &mut offsets, &mut values)
                {
                    settled.push((place, LOST));
                }
            }
        }
        // (Given only now: every rank has answered with the labels of the rounds before.)
        let label = round << ROUND_SHIFT;
        for (p, gain) in settled {
            self.labels[p] |= gain | if self.labels[p] == 0 { label } else { 0 };
            gained.push((p, gain));
        }
        Ok(())
    }

    /// Checks every label of this rank's positions against its children's, the moves
    /// generated afresh and the children's labels asked of their owners: a win in `r`
    /// plies has a child lost in `r - 1` and none lost sooner; a loss in `r` has only
    /// children won, the latest in `r - 1`, and a whole move list; a position without a
    /// label has no lost child, and a child not won or a cut list (under the retreat,
    /// the same forced through the move trees: `walked_label_fault`). The first fault
    /// found, in words (the ranks stop between batches where they must).
    fn check(&self, stop: &Stop) -> Result<Option<String>, Halt> {
        let rank = self.transport.rank();
        let mine: Vec<u64> = self
            .reached
            .ones()
            .map(|local| self.owners.global(rank, local))
            .collect();
        let batches = self.transport.max(mine.len().div_ceil(BATCH) as u64) as usize;
        let mut fault = None;
        for b in 0..batches {
            stop.reason("while checking the labels", &None)?;
            let batch = mine.chunks(BATCH).nth(b).unwrap_or(&[]);
            let listed = list_on_every_core(self.variant, self.index, batch);
            let labels = self.children_labels(&listed);
            for (moves, children) in listed.iter().zip(&labels) {
                let label = self.labels[self.owners.local(moves.position)];
                let found = match self.variant.has_retreat() {
                    true => walked_label_fault(label, moves.cut, children, &moves.tree),
                    false => label_fault(label, moves.cut, children),
                };
                if fault.is_none() {
                    fault = found.map(|why| {
                        let board = self.index.board(moves.position);
                        format!("{} ({why})", self.variant.format_position(&board))
                    });
                }
            }
        }
        Ok(fault)
    }

    /// The labels of the children of every position of `listed`, asked of their owners
    /// (every rank asks at once).
    fn children_labels(&self, listed: &[Listed]) -> Vec<Vec<u32>> {
        let mut asked = vec![Vec::new(); self.ranks()];
        for moves in listed {
            for &child in &moves.children {
                asked[self.owners.owner(child)].push(child);
            }
        }
        let questions = self.transport.exchange(asked);
        let answers = questions
            .iter()
            .map(|children| {
                let label = |&c: &u64| self.labels[self.owners.local(c)] as u64;
                children.iter().map(label).collect()
            })
            .collect();
        let answers = self.transport.exchange(answers);
        let mut next = vec![0usize; self.ranks()];
        let mut label_of = |child: &u64| {
            let owner = self.owners.owner(*child);
            next[owner] += 1;
            answers[owner][next[owner] - 1] as u32
        };
        listed
            .iter()
            .map(|moves| moves.children.iter().map(&mut label_of).collect())
            .collect()
    }

    /// Every reached position's label, gathered on rank 0 (`None` on the others).
    fn gather_labels(&self) -> Option<proof::Labels> {
        let rank = self.transport.rank();
        let mut outgoing = vec![Vec::new(); self.ranks()];
        outgoing[0] = self
            .reached
            .ones()
            .flat_map(|local| [self.owners.global(rank, local), self.labels[local] as u64])
            .collect();
        let incoming = self.transport.exchange(outgoing);
        (rank == 0).then(|| {
            let pairs = incoming.iter().flat_map(|words| words.chunks_exact(2));
            pairs.map(|pair| (pair[0], pair[1] as u32)).collect()
        })
    }

    /// This rank's positions won and lost for their mover, and the sum of their hashes.
    fn tally(&self) -> (u64, u64, u64) {
        let rank = self.transport.rank();
        let (mut won, mut lost, mut digest) = (0, 0, 0u64);
        for local in self.reached.ones() {
            let label = self.labels[local];
            if label == 0 {
                continue;
            }
            won += u64::from(label & WON != 0);
            lost += u64::from(label & LOST != 0);
            let position = self.owners.global(rank, local);
            digest = digest.wrapping_add(checkpoint::label_hash(position, label));
        }
        (won, lost, digest)
    }
}

/// A position's moves, generated afresh.
struct Listed {
    position: u64,
    /// Whether its moves were cut short.
    cut: bool,
    /// Its distinct children.
    children: Vec<u64>,
    /// Under the retreat, its moves walked for its mover, as `walked_children` writes
    /// them (the leaves: places in `children`); else empty.
    tree: Vec<u32>,
}

/// The moves of each position of `batch`, generated on every core.
fn list_on_every_core(variant: &Variant, index: &SpreadIndex, batch: &[u64]) -> Vec<Listed> {
    let retreat = variant.has_retreat();
    batch
        .par_iter()
        .map(|&position| {
            let (mut children, mut tree) = (Vec::new(), Vec::new());
            let cut = match retreat {
                true => walked_children(variant, index, position, &mut children, &mut tree),
                false => distinct_children(variant, index, position, &mut children),
            };
            Listed {
                position,
                cut,
                children,
                tree,
            }
        })
        .collect()
}

/// What is wrong with a position's exact `label` given its children's and whether its
/// move list was `cut`, if anything.
fn label_fault(label: u32, cut: bool, children: &[u32]) -> Option<String> {
    let round = |l: u32| l >> ROUND_SHIFT;
    let first_lost = children
        .iter()
        .filter(|&&l| l & LOST != 0)
        .map(|&l| round(l))
        .min();
    let all_won = children.iter().all(|&l| l & WON != 0);
    if label & WON != 0 {
        let r = round(label);
        return match first_lost {
            None => Some(format!("won in {r} plies without a lost child")),
            Some(first) if first + 1 != r => {
                Some(format!("won in {r} plies, a child lost in {first}"))
            }
            _ => None,
        };
    }
    if label & LOST != 0 {
        let r = round(label);
        let latest = children.iter().map(|&l| round(l)).max();
        return if cut {
            Some("lost with a cut move list".into())
        } else if !all_won {
            Some(format!("lost in {r} plies with a child not won"))
        } else if latest.map_or(r != 0, |l| l + 1 != r) {
            Some(format!(
                "lost in {r} plies, its latest child won in {latest:?}"
            ))
        } else {
            None
        };
    }
    if first_lost.is_some() {
        Some("no label with a lost child".into())
    } else if all_won && !cut {
        Some("no label with every child won".into())
    } else {
        None
    }
}

/// `label_fault` under the retreat, where `tree` (as `walked_children` writes it) gives
/// the move's decisions: a win in `r` plies is one the mover can force into children
/// lost within `r - 1` plies and not within `r - 2`; a loss the same for the other side
/// into children won; a position without a label, one neither side can force at all.
fn walked_label_fault(label: u32, cut: bool, children: &[u32], tree: &[u32]) -> Option<String> {
    let (mut offsets, mut values) = (Vec::new(), Vec::new());
    let round = |l: u32| l >> ROUND_SHIFT;
    // Whether the mover (or the other side) can force a child labelled `bit` within
    // `plies` (`None`: ever).
    let mut forces = |mover: bool, bit: u32, plies: Option<u32>| {
        let leaf =
            |k: usize| children[k] & bit != 0 && plies.is_none_or(|p| round(children[k]) <= p);
        forced(tree, mover, leaf, &mut offsets, &mut values)
    };
    let r = round(label);
    if label & WON != 0 {
        let sooner = r >= 2 && forces(true, LOST, Some(r - 2));
        return match r >= 1 && forces(true, LOST, Some(r - 1)) && !sooner {
            true => None,
            false => Some(format!("won in {r} plies, not forced so")),
        };
    }
    if label & LOST != 0 {
        if cut {
            return Some("lost with a cut move tree".into());
        }
        let exact = match r {
            0 => children.is_empty(),
            _ => {
                let sooner = r >= 2 && forces(false, WON, Some(r - 2));
                !children.is_empty() && forces(false, WON, Some(r - 1)) && !sooner
            }
        };
        return (!exact).then(|| format!("lost in {r} plies, not forced so"));
    }
    if forces(true, LOST, None) {
        Some("no label where the mover can force a lost child".into())
    } else if !cut && (children.is_empty() || forces(false, WON, None)) {
        Some("no label where the other side can force a won child".into())
    } else {
        None
    }
}

/// A 64-bit mix (SplitMix64's finaliser), for digests.
fn mix(mut x: u64) -> u64 {
    x = (x ^ x >> 30).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ x >> 27).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ x >> 31
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn owners_place_every_position_once() {
        for ranks in 1..=4u64 {
            let owners = Owners { ranks };
            let size = 5 * (1 << CHUNK_BITS) + 17;
            let total: usize = (0..ranks as usize)
                .map(|r| owners.local_size(r, size))
                .sum();
            assert!(total as u64 >= size);
            for position in (0..size).step_by(97) {
                let (rank, local) = (owners.owner(position), owners.local(position));
                assert!(local < owners.local_size(rank, size));
                assert_eq!(owners.global(rank, local), position);
            }
        }
    }

    #[test]
    fn the_check_confirms_the_labels_and_finds_a_flipped_one() {
        let fault = flipped_fault("igisoro");
        assert!(
            fault.contains("won in") && fault.contains("without a lost child"),
            "{fault}"
        );
        // Under the retreat, the move trees walked.
        let fault = flipped_fault("igisoro-retreat");
        assert!(
            fault.contains("won in") && fault.contains("not forced so"),
            "{fault}"
        );
    }

    /// The check's fault on Igisoro's 2x2 board under `rules` with a lost position's
    /// label flipped to won, the check of the labels as found passing.
    fn flipped_fault(rules: &str) -> String {
        let rules = (Variant::load(rules).unwrap().rules().to_builder())
            .columns(2)
            .start(isolo_rules::pattern_start("igisoro", 2, 2).unwrap())
            .build()
            .unwrap();
        let variant = Variant::new(rules).unwrap();
        let board = variant.start();
        let index = SpreadIndex::of_board(&variant, &board);
        let group = InProcess::group(2);
        let found: Vec<(Option<String>, Option<String>)> = std::thread::scope(|scope| {
            let runs: Vec<_> = group
                .iter()
                .map(|transport| {
                    let (variant, index) = (&variant, &index);
                    scope.spawn(move || {
                        let stop = Stop {
                            deadline: None,
                            interrupt: None,
                            transport,
                        };
                        let scratch = std::env::temp_dir();
                        let mut rank = Rank::new(variant, index, transport, &scratch);
                        assert!(rank.list(index.of(&board), &stop, &|_, _, _| {}).is_ok());
                        rank.link_parents(&stop);
                        assert!(rank.label(false, None, &stop, &|_, _, _| {}).is_ok());
                        let clean = rank.check(&stop).ok().flatten();
                        if transport.rank() == 0 {
                            let lost = rank.reached.ones().find(|&i| rank.labels[i] & LOST != 0);
                            rank.labels[lost.expect("a lost position")] ^= WON | LOST;
                        }
                        (clean, rank.check(&stop).ok().flatten())
                    })
                })
                .collect();
            runs.into_iter().map(|r| r.join().unwrap()).collect()
        });
        assert!(found.iter().all(|(clean, _)| clean.is_none()), "{found:?}");
        found[0].1.clone().expect("the flip found")
    }
}
