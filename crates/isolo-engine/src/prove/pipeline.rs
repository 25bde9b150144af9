//! The solve pipeline behind `isolo-ai solve`: the provers run in turn on one position
//! (the alpha-beta prover, df-pn, retrograde analysis, or the indexed retrograde
//! analysis alone), each given its share of the time; a proof's certificate written and
//! checked; df-pn's tables kept across runs. It returns one [`SolveReport`], which
//! serialises to `solve --json`.
//!
//! With [`Method::Auto`] the alpha-beta prover has a quarter of the time, df-pn runs to
//! half of it, and retrograde analysis takes the rest; each later report says why the
//! provers before it found nothing.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde::{Serialize, Serializer};
use serde_json::json;

use crate::digest::fingerprint_of;
use crate::prove::alphabeta::{AbVerdict, Prover, Solution};
use crate::prove::certificate::{
    write_checked, Certificate, CertificateFileError, CheckedProof, DrawCertificate, Proof,
};
use crate::prove::dfpn::{self, DfpnLimits, DfpnProgress, DfpnResult, DfpnVerdict, Sought};
use crate::prove::retrograde::distributed::{
    self, DistributedLimits, DistributedProgress, DistributedProof,
};
use crate::prove::retrograde::indexed::{self, IndexedLimits, IndexedProgress};
use crate::prove::retrograde::{self, Holding, RetroLimits, RetroResult, RetroVerdict};
use crate::ranges::MAX_THREADS;
use crate::search::alphabeta::MAX_DEPTH;
use crate::search::stopping::HARD_STOP_MARGIN;
use crate::search::tt::TableError;
use crate::search::{nodes_per_second, Progress};
use isolo_rules::dead_position_outcome;
use isolo_rules::{Board, Game, Move, Side, Variant};

/// Why `verify` checks nothing on an unknown result.
pub const NOTHING_TO_VERIFY: &str = "the result is unknown, so there is no proof to verify";

/// Why a proven line was not verified: the solve's time ran out first.
pub const VERIFY_OUT_OF_TIME: &str =
    "the time limit ran out before the line was verified (a larger --time-ms gives it time)";

/// Positions past which the alpha-beta prover's proof size is not counted.
pub const PROOF_SIZE_CAP: usize = 200_000;

/// Positions past which the alpha-beta prover writes no certificate (its walk re-proves
/// every winner's position).
pub const AB_CERTIFICATE_CAP: usize = 2_000_000;

pub use crate::ranges::{DEFAULT_PROOF_PLIES, DFPN_MAX_PLIES};

/// The time the pipeline takes at most unless told otherwise: a minute.
pub const DEFAULT_TIME_MS: u64 = 60_000;

/// The time limit of `solve`'s `time-ms` setting ([`crate::ranges::SOLVE_TIME_MS`]):
/// 0 means none.
pub fn time_limit(ms: u64) -> Option<Duration> {
    (ms > 0).then(|| Duration::from_millis(ms))
}

/// The tables' memory unless told otherwise, in MB.
pub const DEFAULT_HASH_MB: usize = 256;

/// Which prover runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// The iterative-deepening alpha-beta prover: exact lengths.
    Ab,
    /// Depth-first proof-number search: deep wins and losses, no length.
    Dfpn,
    /// Retrograde analysis of the reachable positions: draws, and small games exactly.
    Retro,
    /// Retrograde analysis over arrays indexed by every spread of the seeds.
    Indexed,
    /// The indexed positions dealt to ranks (`threads` threads of this process, or the
    /// processes of an MPI job), labelled in rounds: each win's and loss's exact length.
    Distributed,
    /// Alpha-beta for a quarter of the time, df-pn to half of it, then retrograde.
    Auto,
}

impl Method {
    /// Every method, in the order the command line lists them.
    pub const ALL: [Method; 6] = [
        Method::Ab,
        Method::Dfpn,
        Method::Retro,
        Method::Indexed,
        Method::Distributed,
        Method::Auto,
    ];

    /// The method `name` names (`ab`, `dfpn`, `retro`, `indexed`, `distributed`,
    /// `auto`).
    pub fn named(name: &str) -> Option<Method> {
        Method::ALL.into_iter().find(|m| m.name() == name)
    }

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Method::Ab => "ab",
            Method::Dfpn => "dfpn",
            Method::Retro => "retro",
            Method::Indexed => "indexed",
            Method::Distributed => "distributed",
            Method::Auto => "auto",
        }
    }

    /// The longest `max_plies` the method takes.
    pub(crate) fn most_plies(self) -> u32 {
        match self {
            Method::Ab => MAX_DEPTH,
            Method::Dfpn | Method::Retro | Method::Indexed | Method::Distributed | Method::Auto => {
                DFPN_MAX_PLIES
            }
        }
    }
}

/// How to solve: the method and its limits.
#[derive(Clone, Debug)]
pub struct SolveSettings {
    /// Which prover runs.
    pub method: Method,
    /// Longest result looked for, in plies.
    pub max_plies: u32,
    /// Wall time for all the provers together.
    pub time: Option<Duration>,
    /// Search threads.
    pub threads: usize,
    /// Memory of the tables, in MB.
    pub hash_mb: usize,
    /// Replay the alpha-beta prover's line and check every defence along it.
    pub verify: bool,
    /// Positions df-pn expands at most.
    pub nodes: Option<u64>,
    /// After a df-pn or retrograde proof, find its exact length with the alpha-beta
    /// prover.
    pub exact_length: bool,
    /// What df-pn looks for.
    pub sought: Sought,
    /// Where to write the proof's certificate (checked once written).
    pub certificate: Option<PathBuf>,
    /// Where df-pn's tables are kept across runs (a file), or the distributed
    /// analysis' checkpoints (a folder).
    pub resume: Option<PathBuf>,
    /// The folder of the indexed analysis' scratch file.
    pub scratch: PathBuf,
    /// Set to stop early (Ctrl-C).
    pub interrupt: Option<&'static AtomicBool>,
}

impl Default for SolveSettings {
    fn default() -> SolveSettings {
        SolveSettings {
            method: Method::Auto,
            max_plies: DEFAULT_PROOF_PLIES,
            time: Some(Duration::from_millis(DEFAULT_TIME_MS)),
            threads: 1,
            hash_mb: DEFAULT_HASH_MB,
            verify: false,
            nodes: None,
            exact_length: false,
            sought: Sought::Either,
            certificate: None,
            resume: None,
            scratch: std::env::temp_dir(),
            interrupt: None,
        }
    }
}

/// The share of the machine's memory the indexed analysis may take (its arrays are its
/// whole cost, and nothing else runs beside it).
const INDEXED_MEMORY_SHARE: (u64, u64) = (7, 8);

/// A setting of [`SolveSettings`] (or the game's moves), as a refusal names it: each
/// front end words it in its own options' names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProofSetting {
    /// `threads`.
    Threads,
    /// `nodes`.
    Nodes,
    /// `exact_length`.
    ExactLength,
    /// `verify`.
    Verify,
    /// `sought` other than either result.
    Sought,
    /// `certificate`.
    Certificate,
    /// `resume`.
    Resume,
    /// Moves played before the position ([`Root::moves`]).
    Moves,
}

/// Settings the pipeline cannot honour, found before any prover starts.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// `threads` is 0 or more than one search may use ([`MAX_THREADS`]).
    #[error("threads must be 1..={MAX_THREADS}, found {0}")]
    Threads(usize),
    /// `hash_mb` is no table this machine allows (methods other than indexed).
    #[error(transparent)]
    Hash(#[from] TableError),
    /// `max_plies` is 0 or beyond what the method looks for.
    #[error("max_plies must be 1..={most} with method {}", method.name())]
    MaxPlies {
        /// The method.
        method: Method,
        /// Its longest `max_plies`.
        most: u32,
    },
    /// The indexed analysis' arrays would take more than its share of the memory.
    #[error("the indexed analysis may take 1..={most_mb} MB here, found {given_mb}")]
    IndexedHash {
        /// The most it may take.
        most_mb: u64,
        /// `hash_mb`.
        given_mb: usize,
    },
    /// The method takes no part in a setting.
    #[error("method {} takes no {setting:?}", method.name())]
    NotForMethod {
        /// The method.
        method: Method,
        /// The setting given.
        setting: ProofSetting,
    },
}

impl SolveSettings {
    /// What the pipeline would refuse in these settings for `root`, if anything: the
    /// first problem found.
    pub fn refusal(&self, root: &Root) -> Option<Refusal> {
        let method = self.method;
        let not_for = |setting| Some(Refusal::NotForMethod { method, setting });
        if !(1..=MAX_THREADS).contains(&self.threads) {
            return Some(Refusal::Threads(self.threads));
        }
        if matches!(method, Method::Indexed | Method::Distributed) {
            let indexed = method == Method::Indexed;
            if indexed {
                let most_mb = crate::search::tt::physical_memory_mb()
                    .map(|mb| mb * INDEXED_MEMORY_SHARE.0 / INDEXED_MEMORY_SHARE.1)
                    .unwrap_or(crate::search::tt::max_table_mb() as u64);
                if self.hash_mb == 0 || self.hash_mb as u64 > most_mb {
                    return Some(Refusal::IndexedHash {
                        most_mb,
                        given_mb: self.hash_mb,
                    });
                }
            }
            // (The distributed analysis' threads are its ranks, and `verify` checks its
            // labels; the indexed one has neither.)
            let unused = [
                (indexed && self.threads != 1, ProofSetting::Threads),
                (self.nodes.is_some(), ProofSetting::Nodes),
                (self.exact_length, ProofSetting::ExactLength),
                (self.sought != Sought::Either, ProofSetting::Sought),
                (indexed && self.verify, ProofSetting::Verify),
                (indexed && self.resume.is_some(), ProofSetting::Resume),
                (
                    indexed && self.certificate.is_some(),
                    ProofSetting::Certificate,
                ),
                (!root.moves.is_empty(), ProofSetting::Moves),
            ];
            return unused
                .iter()
                .find(|(given, _)| *given)
                .and_then(|&(_, setting)| not_for(setting));
        }
        if let Err(e) = crate::search::tt::check_table_mb(self.hash_mb) {
            return Some(e.into());
        }
        let most = method.most_plies();
        if !(1..=most).contains(&self.max_plies) {
            return Some(Refusal::MaxPlies { method, most });
        }
        let dfpn = matches!(method, Method::Dfpn | Method::Auto);
        if method == Method::Retro && self.nodes.is_some() {
            return not_for(ProofSetting::Nodes);
        }
        if !dfpn && self.resume.is_some() {
            return not_for(ProofSetting::Resume);
        }
        if method != Method::Dfpn && self.sought != Sought::Either {
            return not_for(ProofSetting::Sought);
        }
        if method == Method::Ab && self.nodes.is_some() {
            return not_for(ProofSetting::Nodes);
        }
        if method == Method::Ab && self.exact_length {
            return not_for(ProofSetting::ExactLength);
        }
        None
    }
}

/// The position to prove and the game that led to it.
#[derive(Clone, Debug)]
pub struct Root {
    /// The game's start.
    pub start: Board,
    /// The moves from the start.
    pub moves: Vec<Move>,
    /// The position to prove.
    pub board: Board,
    /// The game's earlier positions' hashes (for repetitions).
    pub history: Vec<u64>,
}

impl Root {
    /// The current position of `game`, with the game that led to it.
    pub fn of_game(game: &Game) -> Root {
        Root {
            start: *game.start(),
            moves: game.moves().to_vec(),
            board: *game.board(),
            history: game.history(),
        }
    }

    /// The certificate of a proof from this position: the game to it, the winner and
    /// its strategy.
    pub(crate) fn certificate(
        &self,
        variant: &Variant,
        winner: Side,
        plies: Option<u32>,
        strategy: Vec<(Board, Move)>,
    ) -> Certificate {
        Certificate {
            rules: variant.rules().clone(),
            start: self.start,
            moves: self.moves.clone(),
            winner,
            plies,
            strategy,
        }
    }

    /// The certificate of a draw from this position: the game to it and the positions
    /// each side holds to.
    pub(crate) fn draw_certificate(
        &self,
        variant: &Variant,
        holds: [Holding; 2],
    ) -> DrawCertificate {
        DrawCertificate {
            rules: variant.rules().clone(),
            start: self.start,
            moves: self.moves.clone(),
            holds,
        }
    }
}

/// What the pipeline reports as it goes.
pub enum SolveEvent<'a> {
    /// The alpha-beta prover completed a depth.
    Depth(&'a Progress),
    /// df-pn's progress.
    Dfpn(&'a DfpnProgress),
    /// The indexed analysis' progress.
    Indexed(&'a IndexedProgress),
    /// The distributed analysis' progress (its first rank's).
    Distributed(&'a DistributedProgress),
    /// A line for the user: a prover hands over to the next, a search is resumed or
    /// saved.
    Note(String),
}

/// Why the pipeline could not run or finish.
#[derive(Debug, thiserror::Error)]
pub enum SolveError {
    /// The transposition table could not be had.
    #[error("{0}")]
    Table(#[from] TableError),
    /// A saved df-pn search could not be read.
    #[error("{}: {reason}", path.display())]
    ResumeRead {
        /// The file.
        path: PathBuf,
        /// What failed.
        reason: String,
    },
    /// The df-pn search could not be saved.
    #[error("{}: cannot save: {source}", path.display())]
    ResumeSave {
        /// The file.
        path: PathBuf,
        /// What failed.
        source: std::io::Error,
    },
    /// The proof's strategy could not be had, so no certificate was written.
    #[error("not written: {0}")]
    CertificateNotWritten(String),
    /// The certificate could not be written, or the file written fails its check.
    #[error(transparent)]
    Certificate(#[from] CertificateFileError),
    /// The indexed analysis could not run.
    #[error("{0}")]
    Indexed(String),
    /// The distributed analysis could not run.
    #[error(transparent)]
    Distributed(#[from] distributed::DistributedError),
    /// The settings cannot be honoured ([`SolveSettings::refusal`]).
    #[error(transparent)]
    Refused(#[from] Refusal),
}

/// The result a report states.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ProvenResult {
    /// A win for the side to move.
    Win,
    /// A loss for the side to move.
    Loss,
    /// A draw: neither side can force a win.
    Draw,
    /// Nothing proven within the limits.
    Unknown,
}

/// A certificate written and checked.
#[derive(Clone, Debug)]
pub struct CertificateReport {
    /// The file.
    pub path: PathBuf,
    /// Its size in bytes.
    pub bytes: u64,
    /// What the check of the file written established.
    pub checked: CheckedProof,
}

impl Serialize for CertificateReport {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut value = self.checked.to_json();
        value["path"] = json!(self.path.display().to_string());
        value["bytes"] = json!(self.bytes);
        value.serialize(serializer)
    }
}

/// Moves as their text.
fn moves_as_text<S: Serializer>(moves: &[Move], serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_seq(moves.iter().map(|m| m.to_string()))
}

/// A move as its text.
fn move_as_text<S: Serializer>(mv: &Option<Move>, serializer: S) -> Result<S::Ok, S::Error> {
    match mv {
        Some(m) => serializer.serialize_some(&m.to_string()),
        None => serializer.serialize_none(),
    }
}

pub use crate::search::plies_text;

/// What the alpha-beta prover established.
#[derive(Clone, Debug, Serialize)]
pub struct AbReport {
    /// The result.
    pub result: ProvenResult,
    /// Its exact length.
    pub plies: Option<u32>,
    /// The first move of the line.
    #[serde(serialize_with = "move_as_text")]
    pub best_move: Option<Move>,
    /// The line: the shortest win, the longest defence.
    #[serde(serialize_with = "moves_as_text")]
    pub pv: Vec<Move>,
    /// Nodes searched.
    pub nodes: u64,
    /// Nodes a second.
    pub nps: u64,
    /// Wall time.
    pub time_ms: u64,
    /// The deepest depth completed.
    pub depth: u32,
    /// `ab`.
    pub method: &'static str,
    /// Whether Ctrl-C (the interrupt flag) ended the search before its limits.
    pub interrupted: bool,
    /// Distinct positions of the proof (`None` past [`PROOF_SIZE_CAP`] or unknown).
    pub proof_size: Option<usize>,
    /// The certificate written, if one was asked for.
    pub certificate: Option<CertificateReport>,
    /// Whether the line verified, if verification was asked for and there was a proof.
    pub verified: Option<bool>,
    /// Why it did not verify, or why there was nothing to verify.
    pub verify_error: Option<String>,
    /// Why the prover found nothing (for an unknown result).
    #[serde(skip)]
    pub unknown: String,
    /// Whether a certificate was asked for when the result was unknown.
    #[serde(skip)]
    pub certificate_asked: bool,
}

/// What df-pn established.
#[derive(Clone, Debug, Serialize)]
pub struct DfpnReport {
    /// The result.
    pub result: ProvenResult,
    /// Its exact length, where `exact_length` found it.
    pub plies: Option<u32>,
    /// Whether `plies` is known.
    pub length_exact: bool,
    /// For a win, a winning move.
    #[serde(serialize_with = "move_as_text")]
    pub best_move: Option<Move>,
    /// Always empty: df-pn gives no line.
    #[serde(serialize_with = "moves_as_text")]
    pub pv: Vec<Move>,
    /// Positions expanded.
    pub nodes: u64,
    /// Positions a second.
    pub nps: u64,
    /// Wall time.
    pub time_ms: u64,
    /// `dfpn`.
    pub method: &'static str,
    /// Whether Ctrl-C (the interrupt flag) ended the search before its limits.
    pub interrupted: bool,
    /// What it looked for: `either`, `win` or `loss`.
    pub sought: &'static str,
    /// Why the alpha-beta prover found nothing, where it ran first.
    pub alpha_beta: Option<String>,
    /// Table entries at the end.
    pub table_entries: usize,
    /// The certificate written, if one was asked for.
    pub certificate: Option<CertificateReport>,
    /// `Some(false)` when verification was asked for: df-pn gives no line.
    pub verified: Option<bool>,
    /// Why nothing was verified.
    pub verify_error: Option<&'static str>,
    /// Why df-pn found nothing (for an unknown result).
    #[serde(skip)]
    pub unknown: String,
    /// Whether a certificate was asked for when the result was unknown.
    #[serde(skip)]
    pub certificate_asked: bool,
}

/// What retrograde analysis established.
#[derive(Clone, Debug, Serialize)]
pub struct RetroReport {
    /// The result.
    pub result: ProvenResult,
    /// A win's length, where `exact_length` found it.
    pub plies: Option<u32>,
    /// Whether `plies` is known.
    pub length_exact: bool,
    /// Always none: retrograde analysis gives no line.
    #[serde(serialize_with = "move_as_text")]
    pub best_move: Option<Move>,
    /// Always empty.
    #[serde(serialize_with = "moves_as_text")]
    pub pv: Vec<Move>,
    /// Positions listed.
    pub nodes: usize,
    /// `Some(false)` when verification was asked for.
    pub verified: Option<bool>,
    /// Why nothing was verified.
    pub verify_error: Option<&'static str>,
    /// Positions listed.
    pub positions: usize,
    /// Positions reached but not listed.
    pub frontier: usize,
    /// Whether every reachable position was listed.
    pub complete: bool,
    /// Wall time.
    pub time_ms: u64,
    /// `retro`.
    pub method: &'static str,
    /// Whether Ctrl-C (the interrupt flag) ended the search before its limits.
    pub interrupted: bool,
    /// Why the provers before it found nothing, where they ran.
    pub earlier_provers: Option<String>,
    /// The certificate written, if one was asked for.
    pub certificate: Option<CertificateReport>,
    /// Whether a certificate was asked for when the result was unknown.
    #[serde(skip)]
    pub certificate_asked: bool,
}

/// What the indexed retrograde analysis established.
#[derive(Clone, Debug, Serialize)]
pub struct IndexedReport {
    /// The result.
    pub result: ProvenResult,
    /// Always none: the length is not computed.
    pub plies: Option<u32>,
    /// Always false.
    pub length_exact: bool,
    /// Always none.
    #[serde(serialize_with = "move_as_text")]
    pub best_move: Option<Move>,
    /// Always empty.
    #[serde(serialize_with = "moves_as_text")]
    pub pv: Vec<Move>,
    /// Positions reached (a position and its exchange counted once).
    pub nodes: u64,
    /// The same.
    pub positions: u64,
    /// Moves listed.
    pub moves_listed: u64,
    /// Positions the index numbers.
    pub index_size: u64,
    /// Move lists cut by the take/pass limit.
    pub cut_lists: u64,
    /// Passes over the scratch file.
    pub sweeps: u32,
    /// Whether every reachable position was listed.
    pub complete: bool,
    /// Why it stopped early, if it did.
    pub stopped: Option<String>,
    /// Wall time.
    pub time_ms: u64,
    /// `indexed`.
    pub method: &'static str,
    /// Whether Ctrl-C (the interrupt flag) ended the search before its limits.
    pub interrupted: bool,
}

/// What the distributed retrograde analysis established.
#[derive(Clone, Debug, Serialize)]
pub struct DistributedReport {
    /// The result.
    pub result: ProvenResult,
    /// A win's or a loss's exact length (plies to the end under best play).
    pub plies: Option<u32>,
    /// True where `plies` is given.
    pub length_exact: bool,
    /// After a win with a certificate, the winner's first move in it; else none (no
    /// strategy is kept).
    #[serde(serialize_with = "move_as_text")]
    pub best_move: Option<Move>,
    /// Always empty.
    #[serde(serialize_with = "moves_as_text")]
    pub pv: Vec<Move>,
    /// Positions reached (a position and its exchange counted once).
    pub nodes: u64,
    /// The same.
    pub positions: u64,
    /// Moves listed.
    pub moves_listed: u64,
    /// Positions the index numbers.
    pub index_size: u64,
    /// Move lists cut by the take/pass limit.
    pub cut_lists: u64,
    /// Reached positions won for their mover.
    pub won_positions: u64,
    /// Reached positions lost for their mover.
    pub lost_positions: u64,
    /// Labelling rounds (the longest win or loss in plies, plus 1).
    pub rounds: u32,
    /// Ranks that shared the work.
    pub ranks: usize,
    /// This process' rank (0 unless it is one of an MPI job's: only rank 0 reports).
    #[serde(skip)]
    pub rank: usize,
    /// The round of the checkpoint this run resumed from (`resume`).
    pub resumed_at_round: Option<u32>,
    /// The round of the last checkpoint this run saved (`resume`).
    pub checkpoint_round: Option<u32>,
    /// Why the checkpoint of every label could not be saved, where it could not (the
    /// result stands; the folder keeps `checkpoint_round`'s).
    pub checkpoint_failed: Option<String>,
    /// Memory each rank was planned to take (its arrays and buffers), in MB.
    pub planned_memory_mb: u64,
    /// The parents files of all ranks, in MB.
    pub parents_file_mb: u64,
    /// A digest of every label: equal for equal results, whatever the ranks.
    pub digest: String,
    /// Whether every label was checked against its children's (`verify`): true once
    /// checked, none where not asked (a failed check is an error).
    pub verified: Option<bool>,
    /// Positions whose labels the check confirmed.
    pub checked_positions: Option<u64>,
    /// Why it stopped early, if it did.
    pub stopped: Option<String>,
    /// Wall time.
    pub time_ms: u64,
    /// `distributed`.
    pub method: &'static str,
    /// Whether Ctrl-C (the interrupt flag) ended the search before its limits.
    pub interrupted: bool,
    /// The certificate written (by rank 0), if one was asked for.
    pub certificate: Option<CertificateReport>,
    /// Whether a certificate was asked for when the result was unknown.
    #[serde(skip)]
    pub certificate_asked: bool,
}

/// The answer of [`solve`]: the report of the prover that answered. Serialises as
/// `solve --json` prints it.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum SolveReport {
    /// The alpha-beta prover answered.
    Ab(AbReport),
    /// df-pn answered.
    Dfpn(DfpnReport),
    /// Retrograde analysis answered.
    Retro(RetroReport),
    /// The indexed retrograde analysis answered.
    Indexed(IndexedReport),
    /// The distributed retrograde analysis answered.
    Distributed(DistributedReport),
}

impl SolveReport {
    /// Whether Ctrl-C ended the search before its limits.
    pub fn interrupted(&self) -> bool {
        match self {
            SolveReport::Ab(r) => r.interrupted,
            SolveReport::Dfpn(r) => r.interrupted,
            SolveReport::Retro(r) => r.interrupted,
            SolveReport::Indexed(r) => r.interrupted,
            SolveReport::Distributed(r) => r.interrupted,
        }
    }

    /// The result stated.
    pub fn outcome(&self) -> ProvenResult {
        match self {
            SolveReport::Ab(r) => r.result,
            SolveReport::Dfpn(r) => r.result,
            SolveReport::Retro(r) => r.result,
            SolveReport::Indexed(r) => r.result,
            SolveReport::Distributed(r) => r.result,
        }
    }
}

/// The events' sink.
type Events<'a> = &'a (dyn Fn(SolveEvent) + Sync);

/// Solves `root` as `settings` say; settings it cannot honour are refused before any
/// prover starts ([`SolveSettings::refusal`]).
pub fn solve(
    variant: &Variant,
    root: &Root,
    settings: &SolveSettings,
    events: Events,
) -> Result<SolveReport, SolveError> {
    if let Some(refusal) = settings.refusal(root) {
        return Err(refusal.into());
    }
    let report = solve_by_method(variant, root, settings, events)?;
    if variant.rules().long_game_plies() > 0 {
        events(SolveEvent::Note(without_long_game_note(variant.rules())));
    }
    Ok(report)
}

/// `solve` by the method the settings name, its settings checked.
fn solve_by_method(
    variant: &Variant,
    root: &Root,
    settings: &SolveSettings,
    events: Events,
) -> Result<SolveReport, SolveError> {
    if settings.method == Method::Indexed {
        return solve_indexed(variant, root, settings, events).map(SolveReport::Indexed);
    }
    if settings.method == Method::Distributed {
        return solve_distributed(variant, root, settings, events).map(SolveReport::Distributed);
    }
    let started = Instant::now();
    let time = settings.time;
    let left = |share: u32| time.map(|t| (t / share).saturating_sub(started.elapsed()));
    let mut before = None;
    if let Some(end) = dead_position_outcome(variant, &root.board) {
        if settings.method == Method::Auto {
            // The rules end the game here: retrograde analysis lists one position.
            let words = isolo_rules::in_words(&end, variant, &root.board);
            events(SolveEvent::Note(format!("{words}; retrograde analysis")));
            return solve_retro(variant, root, settings, time, None).map(SolveReport::Retro);
        }
    }
    if matches!(settings.method, Method::Ab | Method::Auto) {
        let ab_time = if settings.method == Method::Ab {
            time
        } else {
            left(4)
        };
        match solve_ab(variant, root, settings, ab_time, events)? {
            Ok(report) => return Ok(SolveReport::Ab(report)),
            Err(why) => before = Some(why),
        }
    }
    if matches!(settings.method, Method::Dfpn | Method::Auto) {
        let dfpn_time = if settings.method == Method::Dfpn {
            left(1)
        } else {
            left(2)
        };
        match solve_dfpn(variant, root, settings, dfpn_time, before, events)? {
            Ok(report) => return Ok(SolveReport::Dfpn(report)),
            Err(why) => before = Some(why),
        }
    }
    solve_retro(variant, root, settings, left(1), before).map(SolveReport::Retro)
}

/// The alpha-beta prover's report, or (when it proved nothing and df-pn is to follow)
/// why it found nothing, for df-pn's report.
fn solve_ab(
    variant: &Variant,
    root: &Root,
    settings: &SolveSettings,
    time: Option<Duration>,
    events: Events,
) -> Result<Result<AbReport, String>, SolveError> {
    let max_plies = settings.max_plies.min(MAX_DEPTH);
    // The proof's size, certificate and check come within the solve's time too.
    let deadline = settings.time.map(|t| Instant::now() + t + HARD_STOP_MARGIN);
    let mut prover = Prover::new(variant, settings.threads, settings.hash_mb)?
        .stopping_on(settings.interrupt)
        .until(deadline);
    let (board, history) = (&root.board, &root.history);
    let solution = prover.solve_reporting(board, history, max_plies, time, &mut |p| {
        events(SolveEvent::Depth(p))
    });
    let proven = solution.verdict != AbVerdict::Unknown;
    if !proven && settings.method == Method::Auto && !interrupted(settings) {
        let why = ab_unknown_text(&solution, max_plies);
        events(SolveEvent::Note(format!(
            "alpha-beta: {}; df-pn next",
            why.trim_end()
        )));
        return Ok(Err(why));
    }
    let winner = match solution.verdict {
        AbVerdict::Win(_) => Some(board.to_move()),
        AbVerdict::Loss(_) => Some(board.to_move().opponent()),
        AbVerdict::Unknown => None,
    };
    let (result, plies) = match solution.verdict {
        AbVerdict::Win(p) => (ProvenResult::Win, Some(p)),
        AbVerdict::Loss(p) => (ProvenResult::Loss, Some(p)),
        AbVerdict::Unknown => (ProvenResult::Unknown, None),
    };
    let (proof_size, certificate) = match &settings.certificate {
        Some(path) => {
            let proof = prover.proof(board, history, solution.verdict, AB_CERTIFICATE_CAP);
            let size = proof.as_ref().map(|p| p.positions);
            let strategy = proof.map(|p| p.strategy).ok_or(if prover.out_of_time() {
                "the time limit ran out before the proof was written (a larger --time-ms gives it time)".to_string()
            } else {
                format!("the proof has over {AB_CERTIFICATE_CAP} positions, too many for the alpha-beta prover to write (--method dfpn writes larger ones)")
            });
            (size, certify(path, variant, root, winner, plies, strategy)?)
        }
        None => (
            prover.proof_size(board, history, solution.verdict, PROOF_SIZE_CAP),
            None,
        ),
    };
    let verified = (settings.verify && proven).then(|| {
        let checked = prover.verify(board, history, solution.verdict, &solution.pv);
        if prover.out_of_time() {
            Err(VERIFY_OUT_OF_TIME.to_string())
        } else {
            checked
        }
    });
    let verify_error = match &verified {
        Some(Err(e)) => Some(e.clone()),
        None if settings.verify => Some(NOTHING_TO_VERIFY.to_string()),
        _ => None,
    };
    Ok(Ok(AbReport {
        result,
        plies,
        best_move: solution.best_move.clone(),
        pv: solution.pv.clone(),
        nodes: solution.nodes,
        nps: nodes_per_second(solution.nodes, solution.time),
        time_ms: solution.time.as_millis() as u64,
        depth: solution.depth,
        method: Method::Ab.name(),
        interrupted: interrupted(settings),
        proof_size,
        certificate,
        verified: verified.as_ref().map(|v| v.is_ok()),
        verify_error,
        unknown: if interrupted(settings) {
            format!(
                "unknown: interrupted at depth {} of {max_plies} (no win or loss within {})\n",
                solution.depth,
                plies_text(solution.depth)
            )
        } else {
            ab_unknown_text(&solution, max_plies)
        },
        certificate_asked: settings.certificate.is_some(),
    }))
}

/// Whether Ctrl-C has asked the pipeline to stop: the prover running reports what it
/// has and no later prover starts.
fn interrupted(settings: &SolveSettings) -> bool {
    settings
        .interrupt
        .is_some_and(|flag| flag.load(Ordering::Relaxed))
}

/// Why the alpha-beta prover found nothing.
fn ab_unknown_text(solution: &Solution, max_plies: u32) -> String {
    if solution.depth < max_plies {
        format!(
            "unknown: time ran out at depth {} of {} (no win or loss within {})\n",
            solution.depth,
            max_plies,
            plies_text(solution.depth)
        )
    } else {
        format!("unknown: no proof within {}\n", plies_text(max_plies))
    }
}

/// The exact length of a proven result, by the alpha-beta prover within `time`.
fn exact_length(
    variant: &Variant,
    root: &Root,
    settings: &SolveSettings,
    time: Option<Duration>,
) -> Result<Option<u32>, SolveError> {
    let plies = settings.max_plies.min(MAX_DEPTH);
    let mut prover =
        Prover::new(variant, settings.threads, settings.hash_mb)?.stopping_on(settings.interrupt);
    Ok(
        match prover
            .solve(&root.board, &root.history, plies, time)
            .verdict
        {
            AbVerdict::Win(p) | AbVerdict::Loss(p) => Some(p),
            AbVerdict::Unknown => None,
        },
    )
}

/// df-pn's report (with, where asked, a proof's length), or (when it proved nothing
/// and retrograde analysis is to follow) why the provers so far found nothing.
fn solve_dfpn(
    variant: &Variant,
    root: &Root,
    settings: &SolveSettings,
    time: Option<Duration>,
    before: Option<String>,
    events: Events,
) -> Result<Result<DfpnReport, String>, SolveError> {
    let limits = DfpnLimits {
        nodes: settings.nodes.unwrap_or(u64::MAX),
        time,
        max_depth: settings.max_plies,
        table_entries: (settings.hash_mb << 20) / dfpn::BYTES_PER_ENTRY,
        strategy: settings.certificate.is_some(),
        threads: settings.threads,
        interrupt: settings.interrupt,
        sought: settings.sought,
    };
    let (board, history) = (&root.board, &root.history);
    let started = Instant::now();
    let digest = search_digest(variant, root, settings.max_plies);
    let mut state = match &settings.resume {
        Some(path) if path.exists() => load_state(path, &digest, events, limits.table_entries)?,
        _ => dfpn::DfpnState::default(),
    };
    let report = |p: &DfpnProgress| events(SolveEvent::Dfpn(p));
    let result = dfpn::solve_from(variant, board, history, limits, &report, &mut state);
    if let Some(path) = &settings.resume {
        save_state(path, &state, &digest, result.verdict, events)?;
    }
    if result.verdict == DfpnVerdict::Unknown
        && settings.method == Method::Auto
        && !interrupted(settings)
    {
        let mut why = before.unwrap_or_default();
        why.push_str(&dfpn_unknown_text(
            &result,
            settings.max_plies,
            settings.sought,
        ));
        events(SolveEvent::Note(
            "df-pn: no proof; retrograde analysis next".into(),
        ));
        return Ok(Err(why));
    }
    let length = match result.verdict {
        DfpnVerdict::Unknown => None,
        _ if settings.exact_length => {
            let left = time.map(|t| t.saturating_sub(started.elapsed()));
            exact_length(variant, root, settings, left)?
        }
        _ => None,
    };
    let certificate = match &settings.certificate {
        Some(path) => {
            let winner = match result.verdict {
                DfpnVerdict::Win => Some(board.to_move()),
                DfpnVerdict::Loss => Some(board.to_move().opponent()),
                DfpnVerdict::Unknown => None,
            };
            let strategy = result.strategy.clone().unwrap_or(Ok(Vec::new()));
            certify(path, variant, root, winner, length, strategy)?
        }
        None => None,
    };
    let result_name = match result.verdict {
        DfpnVerdict::Win => ProvenResult::Win,
        DfpnVerdict::Loss => ProvenResult::Loss,
        DfpnVerdict::Unknown => ProvenResult::Unknown,
    };
    let verify_error = settings.verify.then_some(match result.verdict {
        DfpnVerdict::Unknown => NOTHING_TO_VERIFY,
        _ => "df-pn gives no line to verify (the alpha-beta prover does: --method ab)",
    });
    Ok(Ok(DfpnReport {
        result: result_name,
        plies: length,
        length_exact: length.is_some(),
        best_move: result.best_move.clone(),
        pv: Vec::new(),
        nodes: result.nodes,
        nps: nodes_per_second(result.nodes, result.time),
        time_ms: result.time.as_millis() as u64,
        method: Method::Dfpn.name(),
        interrupted: interrupted(settings),
        sought: settings.sought.name(),
        alpha_beta: before.as_deref().map(|b| b.trim_end().to_string()),
        table_entries: result.table_entries,
        certificate,
        verified: settings.verify.then_some(false),
        verify_error,
        unknown: format!(
            "{}{}",
            before.unwrap_or_default(),
            if interrupted(settings) {
                "unknown: df-pn was interrupted before a proof\n".to_string()
            } else {
                dfpn_unknown_text(&result, settings.max_plies, settings.sought)
            }
        ),
        certificate_asked: settings.certificate.is_some(),
    }))
}

/// What a proof of the game without the long-game rule says of the game with it
/// (RULES.md 3.6): under a draw, a draw holds, and a win or loss within fewer plies
/// than are left before the rule (no streak of plies without a capture can reach it).
fn without_long_game_note(rules: &isolo_rules::Rules) -> String {
    let plies = rules.long_game_plies();
    let holds = match rules.long_game_ending() {
        isolo_rules::LongGameEnding::Draw => "a draw holds under it, and",
        isolo_rules::LongGameEnding::Count => "under it (counted), only",
    };
    format!(
        "the provers play without the long-game rule ({plies} plies without a capture): \
         {holds} a win or loss within fewer plies than are left before it; a certificate \
         is checked under the rule"
    )
}

/// What a saved df-pn search was searching: its rules, position, game and line limit.
fn search_digest(variant: &Variant, root: &Root, max_plies: u32) -> String {
    let history: Vec<String> = root.history.iter().map(|h| format!("{h:x}")).collect();
    let text = format!(
        "{}\n{}\n{}\n{max_plies}",
        variant.rules().to_toml(),
        variant.format_position(&root.board),
        history.join(",")
    );
    fingerprint_of(&text)
}

/// The saved search in `path`, refused where the table (`table_entries`, from
/// `--hash`) could not hold it: loading it would drop entries without a word.
fn load_state(
    path: &Path,
    digest: &str,
    events: Events,
    table_entries: usize,
) -> Result<dfpn::DfpnState, SolveError> {
    let fail = |reason: String| SolveError::ResumeRead {
        path: path.to_path_buf(),
        reason,
    };
    let file =
        isolo_rules::open_regular_file(path).map_err(|e| fail(format!("cannot read: {e}")))?;
    let state = dfpn::DfpnState::load(&mut std::io::BufReader::new(file), digest)
        .map_err(|e| fail(e.to_string()))?;
    if state.entries() > table_entries {
        let mb = (state.entries() * dfpn::BYTES_PER_ENTRY).div_ceil(1 << 20);
        return Err(fail(format!(
            "the saved search has {} table entries, more than --hash holds ({table_entries}); give --hash {} or more",
            state.entries(),
            mb.next_power_of_two()
        )));
    }
    events(SolveEvent::Note(format!(
        "df-pn: resuming from {} ({} table entries)",
        path.display(),
        state.entries()
    )));
    Ok(state)
}

/// Saves the search (through a temporary file, so an interrupted save loses nothing).
fn save_state(
    path: &Path,
    state: &dfpn::DfpnState,
    digest: &str,
    verdict: DfpnVerdict,
    events: Events,
) -> Result<(), SolveError> {
    let fail = |source: std::io::Error| SolveError::ResumeSave {
        path: path.to_path_buf(),
        source,
    };
    // (A full disk: nothing half written is left behind.)
    isolo_rules::write_file_whole(path, |out| state.save(out, digest)).map_err(fail)?;
    let next = match verdict {
        DfpnVerdict::Unknown => "; run the same command again to continue",
        _ => "",
    };
    events(SolveEvent::Note(format!(
        "df-pn: search saved to {} ({} table entries){next}",
        path.display(),
        state.entries()
    )));
    Ok(())
}

/// Why df-pn proved nothing, looking for `sought`.
fn dfpn_unknown_text(result: &DfpnResult, max_plies: u32, sought: Sought) -> String {
    let (unproven, unwon, not_sought) = match sought {
        Sought::Either => ("no proof", "no win for either side", ""),
        Sought::Win => (
            "no win for the side to move",
            "no win for the side to move",
            "; a loss was not looked for",
        ),
        Sought::Loss => (
            "no loss for the side to move",
            "no win for its opponent",
            "; a win was not looked for",
        ),
    };
    if result.out_of_budget {
        format!("unknown: df-pn found {unproven} before its time or node limit{not_sought}\n")
    } else {
        format!(
            "unknown: df-pn found {unwon} (lines of at most {}, a repetition counting as no win){not_sought}\n",
            plies_text(max_plies)
        )
    }
}

/// Retrograde analysis' report (with, where asked, a win's length); `before` says why
/// the provers before it found nothing.
fn solve_retro(
    variant: &Variant,
    root: &Root,
    settings: &SolveSettings,
    time: Option<Duration>,
    before: Option<String>,
) -> Result<RetroReport, SolveError> {
    // Its wins ignore the game before the root; where there is one, the win is kept
    // only if its strategy checks against that game.
    let limits = RetroLimits {
        positions: (settings.hash_mb << 20) / retrograde::BYTES_PER_POSITION,
        time,
        strategy: settings.certificate.is_some() || !root.history.is_empty(),
        interrupt: settings.interrupt,
    };
    let board = &root.board;
    let mut result = retrograde::solve(variant, board, limits);
    if !root.history.is_empty() && !retro_win_holds(variant, root, &result) {
        result.verdict = RetroVerdict::Unknown;
        result.strategy = None;
    }
    let winner = result.verdict.winner(board.to_move());
    let length = match winner {
        Some(_) if settings.exact_length => exact_length(variant, root, settings, None)?,
        _ => None,
    };
    let certificate = match &settings.certificate {
        Some(path) if result.verdict == RetroVerdict::Draw => {
            let holds = result
                .holds
                .clone()
                .expect("a draw's strategies were asked for");
            Some(certify_draw(path, variant, root, holds)?)
        }
        Some(path) => {
            let strategy = result.strategy.clone().unwrap_or_default();
            certify(path, variant, root, winner, length, Ok(strategy))?
        }
        None => None,
    };
    let verify_error = settings.verify.then_some(match result.verdict {
        RetroVerdict::Unknown => NOTHING_TO_VERIFY,
        _ => {
            "retrograde analysis gives no line to verify (the alpha-beta prover does: --method ab)"
        }
    });
    Ok(RetroReport {
        result: retro_outcome(result.verdict),
        plies: length,
        length_exact: length.is_some(),
        best_move: None,
        pv: Vec::new(),
        nodes: result.expanded,
        verified: settings.verify.then_some(false),
        verify_error,
        positions: result.expanded,
        frontier: result.frontier,
        complete: result.complete,
        time_ms: result.time.as_millis() as u64,
        method: Method::Retro.name(),
        interrupted: interrupted(settings),
        earlier_provers: before.as_deref().map(|b| b.trim_end().to_string()),
        certificate,
        certificate_asked: settings.certificate.is_some(),
    })
}

/// A retrograde verdict as a report states it.
fn retro_outcome(verdict: RetroVerdict) -> ProvenResult {
    match verdict {
        RetroVerdict::Win => ProvenResult::Win,
        RetroVerdict::Loss => ProvenResult::Loss,
        RetroVerdict::Draw => ProvenResult::Draw,
        RetroVerdict::Unknown => ProvenResult::Unknown,
    }
}

/// The indexed retrograde analysis' report.
fn solve_indexed(
    variant: &Variant,
    root: &Root,
    settings: &SolveSettings,
    events: Events,
) -> Result<IndexedReport, SolveError> {
    let limits = IndexedLimits {
        memory: (settings.hash_mb as u64) << 20,
        time: settings.time,
        scratch: settings.scratch.clone(),
        sweeps_only: false,
        interrupt: settings.interrupt,
    };
    let report = |p: &IndexedProgress| events(SolveEvent::Indexed(p));
    let result = indexed::solve(variant, &root.board, &limits, &report)
        .map_err(|e| SolveError::Indexed(e.to_string()))?;
    Ok(IndexedReport {
        result: retro_outcome(result.verdict),
        plies: None,
        length_exact: false,
        best_move: None,
        pv: Vec::new(),
        nodes: result.reached,
        positions: result.reached,
        moves_listed: result.edges,
        index_size: result.index_size,
        cut_lists: result.cut,
        sweeps: result.sweeps,
        complete: result.complete,
        stopped: result.stopped,
        time_ms: result.time.as_millis() as u64,
        method: Method::Indexed.name(),
        interrupted: interrupted(settings),
    })
}

/// The distributed retrograde analysis' report: its ranks the processes of the MPI
/// job this one was launched in (the `mpi` feature), else `threads` threads of this
/// process.
fn solve_distributed(
    variant: &Variant,
    root: &Root,
    settings: &SolveSettings,
    events: Events,
) -> Result<DistributedReport, SolveError> {
    let started = Instant::now();
    let limits = DistributedLimits {
        time: settings.time,
        interrupt: settings.interrupt,
        check: settings.verify,
        scratch: Some(settings.scratch.clone()),
        checkpoints: settings
            .resume
            .as_ref()
            .map(|folder| distributed::Checkpoints {
                folder: folder.clone(),
                every: distributed::CHECKPOINT_EVERY,
            }),
        proof: settings.certificate.is_some(),
    };
    let report = |p: &DistributedProgress| events(SolveEvent::Distributed(p));
    #[cfg(feature = "mpi")]
    let job = distributed::transport::Mpi::launched();
    #[cfg(not(feature = "mpi"))]
    let job: Option<distributed::transport::InProcess> = None;
    let (result, rank) = match &job {
        Some(transport) => {
            use distributed::transport::Transport;
            let result = distributed::solve(variant, &root.board, transport, &limits, &report);
            (result?, transport.rank())
        }
        None => {
            let ranks = settings.threads;
            let board = &root.board;
            let result = distributed::solve_in_process(variant, board, ranks, &limits, &report);
            (result?, 0)
        }
    };
    let (certificate, best_move) = match (&settings.certificate, &result.proof) {
        (Some(path), Some(proof)) => certify_distributed(path, variant, root, proof, result.plies)?,
        _ => (None, None),
    };
    Ok(DistributedReport {
        result: retro_outcome(result.verdict),
        plies: result.plies,
        length_exact: result.plies.is_some(),
        best_move,
        pv: Vec::new(),
        nodes: result.reached,
        positions: result.reached,
        moves_listed: result.edges,
        index_size: result.index_size,
        cut_lists: result.cut,
        won_positions: result.won,
        lost_positions: result.lost,
        rounds: result.rounds,
        ranks: result.ranks,
        rank,
        resumed_at_round: result.resumed_at,
        checkpoint_round: result.saved_at,
        checkpoint_failed: result.unsaved,
        planned_memory_mb: result.plan.memory().div_ceil(1 << 20),
        parents_file_mb: result.parents_bytes.div_ceil(1 << 20),
        digest: format!("{:016x}", result.digest),
        verified: result.checked.map(|_| true),
        checked_positions: result.checked,
        stopped: result.stopped,
        time_ms: started.elapsed().as_millis() as u64,
        method: Method::Distributed.name(),
        interrupted: interrupted(settings),
        certificate,
        certificate_asked: settings.certificate.is_some() && rank == 0,
    })
}

/// Writes the certificate of the distributed analysis' proof and checks the file
/// written; with the winner's first move after a win.
fn certify_distributed(
    path: &Path,
    variant: &Variant,
    root: &Root,
    proof: &DistributedProof,
    plies: Option<u32>,
) -> Result<(Option<CertificateReport>, Option<Move>), SolveError> {
    match proof {
        DistributedProof::Win { winner, strategy } => {
            let first = strategy.first().filter(|(board, _)| *board == root.board);
            let best_move = first.map(|(_, mv)| mv.clone());
            let report = certify(
                path,
                variant,
                root,
                Some(*winner),
                plies,
                Ok(strategy.clone()),
            )?;
            Ok((report, best_move))
        }
        DistributedProof::Draw(holds) => {
            let report = certify_draw(path, variant, root, holds.clone())?;
            Ok((Some(report), None))
        }
    }
}

/// Whether a retrograde win or loss (anything else passes) holds after the game
/// before the root: its strategy, checked as a certificate would be.
fn retro_win_holds(variant: &Variant, root: &Root, result: &RetroResult) -> bool {
    let Some(winner) = result.verdict.winner(root.board.to_move()) else {
        return true;
    };
    let strategy = result.strategy.clone().unwrap_or_default();
    crate::prove::certificate::check(&root.certificate(variant, winner, None, strategy)).is_ok()
}

/// Writes the certificate of a proven draw and checks the file written.
fn certify_draw(
    path: &Path,
    variant: &Variant,
    root: &Root,
    holds: [Holding; 2],
) -> Result<CertificateReport, SolveError> {
    let proof = Proof::Draw(root.draw_certificate(variant, holds));
    written(path, write_checked(path, &proof)?)
}

/// Writes the certificate of a proven result (`winner`: `None` for an unknown result,
/// which has none: then `None`) and checks the file written, as check-proof does.
fn certify(
    path: &Path,
    variant: &Variant,
    root: &Root,
    winner: Option<Side>,
    plies: Option<u32>,
    strategy: Result<Vec<(Board, Move)>, String>,
) -> Result<Option<CertificateReport>, SolveError> {
    let Some(winner) = winner else {
        return Ok(None);
    };
    let strategy = strategy.map_err(SolveError::CertificateNotWritten)?;
    let proof = Proof::Win(root.certificate(variant, winner, plies, strategy));
    written(path, write_checked(path, &proof)?).map(Some)
}

/// The report of a certificate written at `path` and checked.
fn written(path: &Path, checked: CheckedProof) -> Result<CertificateReport, SolveError> {
    Ok(CertificateReport {
        path: path.to_path_buf(),
        bytes: std::fs::metadata(path).map(|m| m.len()).unwrap_or(0),
        checked,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refusal(settings: SolveSettings, moves: usize) -> Option<Refusal> {
        let variant = Variant::load("isolo-boys").unwrap();
        let mut game = Game::new(&variant, variant.start());
        for _ in 0..moves {
            let first = variant.legal_moves(game.board())[0].clone();
            game.play_generated(&first);
        }
        settings.refusal(&Root::of_game(&game))
    }

    fn with(method: Method) -> SolveSettings {
        SolveSettings {
            method,
            ..SolveSettings::default()
        }
    }

    #[test]
    fn the_defaults_of_every_method_but_indexed_are_accepted() {
        for method in [Method::Ab, Method::Dfpn, Method::Retro, Method::Auto] {
            assert_eq!(refusal(with(method), 1), None, "{method:?}");
        }
        let indexed = SolveSettings {
            hash_mb: 64,
            ..with(Method::Indexed)
        };
        assert_eq!(refusal(indexed, 0), None);
    }

    #[test]
    fn settings_no_prover_can_honour_are_refused_before_it_starts() {
        let cases = [
            (
                SolveSettings {
                    threads: 0,
                    ..with(Method::Dfpn)
                },
                Refusal::Threads(0),
            ),
            (
                SolveSettings {
                    threads: MAX_THREADS + 1,
                    ..with(Method::Ab)
                },
                Refusal::Threads(MAX_THREADS + 1),
            ),
            (
                SolveSettings {
                    hash_mb: 0,
                    ..with(Method::Retro)
                },
                Refusal::Hash(TableError::Empty),
            ),
            (
                SolveSettings {
                    max_plies: 0,
                    ..with(Method::Dfpn)
                },
                Refusal::MaxPlies {
                    method: Method::Dfpn,
                    most: Method::Dfpn.most_plies(),
                },
            ),
        ];
        for (settings, expected) in cases {
            assert_eq!(refusal(settings, 0), Some(expected));
        }
        let huge = SolveSettings {
            hash_mb: usize::MAX >> 21,
            ..with(Method::Dfpn)
        };
        assert!(matches!(
            refusal(huge, 0),
            Some(Refusal::Hash(TableError::TooLarge { .. }))
        ));
    }

    #[test]
    fn a_method_refuses_the_settings_it_takes_no_part_in() {
        let not_for = |method, setting| Some(Refusal::NotForMethod { method, setting });
        let indexed = SolveSettings {
            hash_mb: 64,
            ..with(Method::Indexed)
        };
        assert_eq!(
            refusal(indexed.clone(), 1),
            not_for(Method::Indexed, ProofSetting::Moves)
        );
        let threads = SolveSettings {
            threads: 2,
            ..indexed
        };
        assert_eq!(
            refusal(threads, 0),
            not_for(Method::Indexed, ProofSetting::Threads)
        );
        let nodes = |method| SolveSettings {
            nodes: Some(10),
            ..with(method)
        };
        assert_eq!(
            refusal(nodes(Method::Ab), 0),
            not_for(Method::Ab, ProofSetting::Nodes)
        );
        assert_eq!(
            refusal(nodes(Method::Retro), 0),
            not_for(Method::Retro, ProofSetting::Nodes)
        );
        assert_eq!(refusal(nodes(Method::Dfpn), 0), None);
        let win = SolveSettings {
            sought: Sought::Win,
            ..with(Method::Auto)
        };
        assert_eq!(refusal(win, 0), not_for(Method::Auto, ProofSetting::Sought));
        let resume = SolveSettings {
            resume: Some("r".into()),
            ..with(Method::Retro)
        };
        assert_eq!(
            refusal(resume, 0),
            not_for(Method::Retro, ProofSetting::Resume)
        );
    }
}
