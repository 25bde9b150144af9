//! The cells of `isolo-ai solve-table`: a preset's start on a narrower board or with
//! fewer seeds, solved within a budget by the provers in turn, its certificate checked
//! with the rules alone.
//!
//! A cell runs the alpha-beta prover first (a quarter of the time, for an exact
//! length), then df-pn to half of it (a proof where alpha-beta found none, and the
//! certificate of either), then retrograde analysis (draws, and small games exactly).

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::prove::alphabeta::{AbVerdict, Prover};
use crate::prove::certificate::{self, CertificateError};
use crate::prove::dfpn::{self, DfpnLimits, DfpnVerdict, Sought};
use crate::prove::pipeline::Root;
use crate::prove::retrograde::{self, Holding, RetroLimits, RetroVerdict};
use crate::search::tt::TableError;
use isolo_rules::{pattern_clockwise, pattern_start};
use isolo_rules::{Board, Game, Rules, Side, Variant};

/// The share of a cell's time the alpha-beta prover gets for an exact length.
const AB_SHARE: u32 = 4;

/// Position lines past which a draw gets no certificate (its two sets can hold
/// millions of positions where retrograde analysis listed tens of millions).
pub const DRAW_CERTIFICATE_CAP: usize = 2_000_000;

/// Positions past which the alpha-beta prover's proof is not walked for a certificate.
pub const TABLE_CERTIFICATE_CAP: usize = 500_000;

/// The budget and tables of each cell.
#[derive(Clone, Debug)]
pub struct CellSettings {
    /// Wall time for all the provers of a cell together.
    pub time: Duration,
    /// Positions df-pn expands at most.
    pub nodes: Option<u64>,
    /// The longest line df-pn follows, in plies.
    pub max_plies: u32,
    /// The longest result the alpha-beta prover looks for, in plies.
    pub ab_plies: u32,
    /// Memory of each prover's table, in MB.
    pub hash_mb: usize,
    /// Search threads.
    pub threads: usize,
    /// Ctrl-C's flag: raised, it stops the provers (the cell is left open).
    pub interrupt: Option<&'static AtomicBool>,
}

/// A cell's value for South, who moves first.
#[derive(Clone, Debug, PartialEq)]
pub enum CellValue {
    /// South wins.
    Win,
    /// South loses.
    Loss,
    /// Neither side can force a win (retrograde analysis).
    Draw,
    /// Nothing proven within the budget.
    Open,
    /// The rules refuse this start (the error).
    Invalid(String),
}

/// A cell's checked certificate.
#[derive(Clone, Debug)]
pub struct CellCertificate {
    /// Its position lines (a draw's: the positions held).
    pub lines: usize,
    /// The certificate, gzip-compressed.
    pub gzip: Vec<u8>,
}

/// One cell of the table.
#[derive(Clone, Debug)]
pub struct Cell {
    /// Board width.
    pub columns: u8,
    /// Seeds where the preset's start has its usual count.
    pub seeds: u8,
    /// The value for South.
    pub value: CellValue,
    /// The exact length, from the alpha-beta prover.
    pub plies: Option<u32>,
    /// The longest line of the checked certificate.
    pub depth: Option<u32>,
    /// Positions searched by all the provers.
    pub nodes: u64,
    /// Wall time.
    pub time: Duration,
    /// The checked certificate, where the proof gave one.
    pub certificate: Option<CellCertificate>,
    /// Whether the interrupt flag was raised while the cell was solved (an open cell
    /// then says nothing of the budget).
    pub interrupted: bool,
}

/// Why a table could not be solved: a table that cannot be had, or a prover's bug.
#[derive(Debug, thiserror::Error)]
pub enum SolveTableError {
    /// A prover's table could not be had.
    #[error("{0}")]
    Table(#[from] TableError),
    /// Two provers found opposite results.
    #[error("internal error (please report): the provers disagree on {0}")]
    ProversDisagree(String),
    /// A certificate fails the rules' check.
    #[error(
        "internal error (please report): the certificate of {position} fails its check: {error}"
    )]
    CertificateFails {
        /// The start of the cell.
        position: String,
        /// What the check found.
        error: CertificateError,
    },
    /// A certificate could not be compressed.
    #[error("certificate: {0}")]
    Compress(#[from] std::io::Error),
}

/// Solves the start of the `family`'s pattern (`pattern_start`) on `columns` columns
/// with `seeds`, under `base` rules otherwise.
pub fn solve_cell(
    base: &Rules,
    family: &str,
    columns: u8,
    seeds: u8,
    settings: &CellSettings,
) -> Result<Cell, SolveTableError> {
    let started = Instant::now();
    let mut cell = Cell {
        columns,
        seeds,
        value: CellValue::Open,
        plies: None,
        depth: None,
        nodes: 0,
        time: Duration::ZERO,
        certificate: None,
        interrupted: false,
    };
    let interrupted = || crate::raised(settings.interrupt);
    let mut rules = base.to_builder();
    rules.columns(columns);
    rules.start(pattern_start(family, columns, seeds).expect("presets have patterns"));
    if !base.clockwise_from().is_empty() {
        // A reading may sow clockwise where its family does not (`igisoro-clockwise`).
        let named = base.same_as_preset().unwrap_or(family);
        rules.clockwise_from(pattern_clockwise(named, columns));
    }
    rules.name(format!("{}, {columns} columns, {seeds} seeds", base.name()));
    // The provers solve the game without the long-game rule (RULES.md 3.6), and their
    // certificates say so.
    rules.long_game_plies(0);
    let variant = match rules.build().and_then(Variant::new) {
        Ok(v) => v,
        Err(e) => {
            cell.value = CellValue::Invalid(e.to_string());
            return Ok(cell);
        }
    };
    let board = variant.start();
    let time = settings.time;
    let mut prover =
        Prover::new(&variant, settings.threads, settings.hash_mb)?.stopping_on(settings.interrupt);
    let ab = prover.solve(&board, &[], settings.ab_plies, Some(time / AB_SHARE));
    cell.nodes += ab.nodes;
    let limits = DfpnLimits {
        nodes: settings.nodes.unwrap_or(u64::MAX),
        time: Some((time / 2).saturating_sub(started.elapsed())),
        max_depth: settings.max_plies,
        table_entries: (settings.hash_mb << 20) / dfpn::BYTES_PER_ENTRY,
        strategy: true,
        threads: settings.threads,
        interrupt: settings.interrupt,
        sought: Sought::Either,
    };
    let proof = dfpn::solve(&variant, &board, &[], limits, &|_| {});
    cell.nodes += proof.nodes;
    let mover_wins = match (ab.verdict, proof.verdict) {
        (AbVerdict::Win(_), DfpnVerdict::Loss) | (AbVerdict::Loss(_), DfpnVerdict::Win) => {
            return Err(SolveTableError::ProversDisagree(
                variant.format_position(&board),
            ))
        }
        (AbVerdict::Win(p), _) => (Some(true), Some(p)),
        (AbVerdict::Loss(p), _) => (Some(false), Some(p)),
        (AbVerdict::Unknown, DfpnVerdict::Win) => (Some(true), None),
        (AbVerdict::Unknown, DfpnVerdict::Loss) => (Some(false), None),
        (AbVerdict::Unknown, DfpnVerdict::Unknown) => (None, None),
    };
    let (wins, plies, strategy) = match mover_wins {
        (Some(wins), plies) => {
            let strategy = match proof.strategy {
                Some(Ok(strategy)) => Some(strategy),
                _ => prover
                    .proof(&board, &[], ab.verdict, TABLE_CERTIFICATE_CAP)
                    .map(|p| p.strategy),
            };
            (wins, plies, strategy)
        }
        (None, _) if interrupted() => {
            cell.interrupted = interrupted();
            cell.time = started.elapsed();
            return Ok(cell);
        }
        (None, _) => {
            let limits = RetroLimits {
                positions: (settings.hash_mb << 20) / retrograde::BYTES_PER_POSITION,
                time: Some(time.saturating_sub(started.elapsed())),
                strategy: true,
                interrupt: settings.interrupt,
            };
            let retro = retrograde::solve(&variant, &board, limits);
            cell.nodes += retro.expanded as u64;
            let wins = match retro.verdict {
                RetroVerdict::Win => true,
                RetroVerdict::Loss => false,
                RetroVerdict::Draw | RetroVerdict::Unknown => {
                    if retro.verdict == RetroVerdict::Draw {
                        cell.value = CellValue::Draw;
                    }
                    if let Some(holds) = retro.holds {
                        cell.certificate = certify_draw(&variant, &board, holds)?;
                    }
                    cell.interrupted = interrupted();
                    cell.time = started.elapsed();
                    return Ok(cell);
                }
            };
            (wins, None, retro.strategy)
        }
    };
    cell.value = if wins {
        CellValue::Win
    } else {
        CellValue::Loss
    };
    cell.plies = plies;
    let winner = if wins { Side::South } else { Side::North };
    if let Some(strategy) = strategy {
        // (Without one, the proof's table was lost: the cell has no certificate.)
        let root = Root::of_game(&Game::new(&variant, board));
        let certificate = root.certificate(&variant, winner, plies, strategy);
        let checked =
            certificate::check(&certificate).map_err(|error| fails(&variant, &board, error))?;
        cell.depth = Some(checked.depth);
        cell.certificate = Some(CellCertificate {
            lines: certificate.strategy.len(),
            gzip: certificate.to_gzip()?,
        });
    }
    cell.interrupted = interrupted();
    cell.time = started.elapsed();
    Ok(cell)
}

fn fails(variant: &Variant, board: &Board, error: CertificateError) -> SolveTableError {
    SolveTableError::CertificateFails {
        position: variant.format_position(board),
        error,
    }
}

/// A draw's checked certificate; none past [`DRAW_CERTIFICATE_CAP`].
fn certify_draw(
    variant: &Variant,
    board: &Board,
    holds: [Holding; 2],
) -> Result<Option<CellCertificate>, SolveTableError> {
    if holds[0].len() + holds[1].len() > DRAW_CERTIFICATE_CAP {
        return Ok(None);
    }
    let certificate = Root::of_game(&Game::new(variant, *board)).draw_certificate(variant, holds);
    certificate::check_draw(&certificate).map_err(|error| fails(variant, board, error))?;
    // (Positions, not lines: under the retreat a position may have several.)
    let held = |holding: &Holding| {
        let mut boards: Vec<u64> = holding.iter().map(|(b, _)| b.hash()).collect();
        boards.sort_unstable();
        boards.dedup();
        boards.len()
    };
    Ok(Some(CellCertificate {
        lines: held(&certificate.holds[0]) + held(&certificate.holds[1]),
        gzip: certificate.to_gzip()?,
    }))
}
