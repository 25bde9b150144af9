//! Proof certificates: a proven win or loss written as the winner's strategy, a proven
//! draw as each side's strategy that never loses, and a checker that needs nothing but
//! the rules to confirm them.
//!
//! A certificate is UTF-8 text, one record a line (gzip-compressed where its file name
//! ends in `.gz`):
//!
//! ```text
//! isolo-ai proof 1
//! rules                          the rules file (as `variants --show` prints it),
//! name = "isolo-boys"            up to the line `end rules`
//! ...
//! end rules
//! start <position>               where the game starts
//! moves <m1 m2 ...>              the moves from there to the proven position (maybe none)
//! winner <S|N>                   the side that wins from the proven position
//! plies <N>                      optional: the exact length the prover reported
//! <position> <move>              the winner's move at each of its positions
//! ...
//! end <count>                    the number of position lines, against truncation
//! ```
//!
//! The checker replays `moves` from `start` to reach the root, then walks every line
//! from the root: where the winner is to move it plays the certificate's move (which
//! must be legal); where the loser is, it generates every distinct position the loser
//! can move to, with no limit. Each line must end with the loser to move and without a
//! legal move, or at a dead position the rules end in the winner's favour. No line may return to a position on itself (the loser could repeat), nor
//! reach a position for the third time counting the game before the root (a draw). So
//! a certificate that checks is a proof whatever search made it.
//!
//! A draw's certificate has `draw` where a win's has `winner`, then two sections:
//!
//! ```text
//! draw
//! holds S                        a set of positions South never has to leave:
//! <position> <move>              where South is to move, South's move, into the set
//! <position> *                   where North is, every North move stays in the set
//! holds N                        the same for North
//! ...
//! end <count>                    the number of position lines of both sections
//! ```
//!
//! The checker confirms that the root is in both sets, that each given move is legal
//! and stays in its set, that every distinct result of the other side's moves at a `*`
//! position is in the set, and that no position appears twice; a dead position the rules
//! end (`dead_position`) ends its line, and may be in a side's set only if the rules
//! do not end it in that side's loss (it may be given as `*`). Then from the root each
//! side can play forever inside its set, never without a move: it never loses, whatever
//! the other plays; the game is drawn (by repetition or a ply limit) or
//! won by it if the other side runs out of moves. Neither side can force a win: a draw,
//! whatever the game before the root.
//!
//! Under the retreat (RULES.md 3.4) the other side answers inside a move: a position may
//! have several lines, a side's decisions in the moves played there whoever moves
//! (`answers.rs` says how they read), and the checker walks each position's moves with
//! the side deciding as they say and the other side every way it may.
//!
//! `format.rs` holds the certificates and their text; `check.rs` the checker.

use std::collections::{HashMap, HashSet};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;

use isolo_rules::{
    Board, Game, Move, MoveGen, PresetComparison, Rules, Side, Variant, DRAW_REPETITIONS,
};

/// Why a certificate proves nothing: its text is not a certificate, or it reads but
/// its check fails. The message names the line or the position at fault.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CertificateError {
    /// The text is not a certificate (a line that does not parse, a missing end, the
    /// wrong kind of certificate).
    #[error("{0}")]
    Malformed(String),
    /// The certificate reads, but the checker refuses it: where and why.
    #[error("{0}")]
    Refused(String),
}

mod answers;
mod check;
mod format;

pub use check::{
    check, check_draw, check_proof, Checked, CheckedDraw, CheckedProof, MOST_UNUSED_LINES,
};
pub use format::{Certificate, DrawCertificate, Proof, FORMAT_LINE};

/// Why a certificate file could not be read, written or confirmed.
#[derive(Debug, thiserror::Error)]
pub enum CertificateFileError {
    /// The file could not be read as a certificate.
    #[error("{}: {reason}", path.display())]
    Unreadable {
        /// The file.
        path: std::path::PathBuf,
        /// What is wrong (the line, where the text is at fault).
        reason: CertificateError,
    },
    /// The file is a certificate that proves nothing.
    #[error("{}: not a proof: {reason}", path.display())]
    NotAProof {
        /// The file.
        path: std::path::PathBuf,
        /// Where the check failed.
        reason: CertificateError,
    },
    /// The file could not be written.
    #[error("{}: {source}", path.display())]
    Unwritable {
        /// The file.
        path: std::path::PathBuf,
        /// What failed.
        source: std::io::Error,
    },
    /// The file written does not check (a bug in the prover that wrote it).
    #[error("the certificate written fails its check: {0}")]
    WrittenFailsCheck(Box<CertificateFileError>),
    /// The file written reads back as the other kind of proof (a bug).
    #[error("{} reads back as another kind of proof", path.display())]
    OtherKind {
        /// The file.
        path: std::path::PathBuf,
    },
}

/// Reads and checks a certificate file of either kind.
pub fn read_and_check(path: &Path) -> Result<CheckedProof, CertificateFileError> {
    let proof = Proof::load(path).map_err(|reason| CertificateFileError::Unreadable {
        path: path.to_path_buf(),
        reason,
    })?;
    check_proof(&proof).map_err(|reason| CertificateFileError::NotAProof {
        path: path.to_path_buf(),
        reason,
    })
}

/// Writes `proof` to `path` (gzip-compressed where the name ends in `.gz`) and checks
/// the file written, as `check-proof` would: what it proves, of the kind written.
pub(crate) fn write_checked(
    path: &Path,
    proof: &Proof,
) -> Result<CheckedProof, CertificateFileError> {
    proof
        .save(path)
        .map_err(|source| CertificateFileError::Unwritable {
            path: path.to_path_buf(),
            source,
        })?;
    let checked =
        read_and_check(path).map_err(|e| CertificateFileError::WrittenFailsCheck(Box::new(e)))?;
    match (proof, &checked) {
        (Proof::Win(_), CheckedProof::Win(_)) | (Proof::Draw(_), CheckedProof::Draw(_)) => {
            Ok(checked)
        }
        _ => Err(CertificateFileError::OtherKind {
            path: path.to_path_buf(),
        }),
    }
}
