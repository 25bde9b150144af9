//! The digest chained through a records file's games (format 2): each game's line ends
//! with a digest of the digest before it (for the first game, of the header's fingerprint
//! and shard) and of the line itself without its digest. A game edited, replaced,
//! removed, moved or copied from another file breaks the chain at that game, unless
//! whoever edited it also computed every later digest again: the chain has no secret, so
//! it catches mistakes and hand edits, not a forger who runs the algorithm.

use crate::digest::fingerprint_of;

/// The records format whose games carry a chained digest.
pub const CHAINED_FORMAT: u32 = 2;

/// What a reader says of a file of format 1, whose games carry no digest.
pub const UNCHAINED_NOTE: &str =
    "no digests (records format 1: a game replaced by another that replays is not detected)";

/// The state of a file's chain: the last digest written or read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chain {
    last: String,
}

impl Chain {
    /// The chain of a file whose header has `fingerprint` and names `shard` (`None`: a
    /// whole run), so that the games of one shard do not chain into another's.
    pub fn start(fingerprint: &str, shard: Option<&str>) -> Chain {
        Chain {
            last: fingerprint_of(&format!(
                "isolo-ai records chain\n{fingerprint}\n{}",
                shard.unwrap_or("whole")
            )),
        }
    }

    /// The digest of the next game, whose line without its digest is `unsealed`; the
    /// chain moves on to it.
    pub fn seal(&mut self, unsealed: &str) -> String {
        self.last = fingerprint_of(&format!("{}\n{unsealed}", self.last));
        self.last.clone()
    }

    /// Checks the digest `found` on the next game's line (`unsealed` without it) and
    /// moves on; the error says what is wrong.
    pub fn check(&mut self, unsealed: &str, found: Option<&str>) -> Result<(), String> {
        let expected = self.seal(unsealed);
        match found {
            Some(digest) if digest == expected => Ok(()),
            Some(digest) => Err(format!(
                "digest {digest} does not follow the games before it (expected {expected}): the game was edited, replaced or moved, or a game before it removed"
            )),
            None => Err("no digest (every game of a format 2 file has one)".into()),
        }
    }
}

/// Whether a file of records format `version` chains its games; an error for a format
/// this version does not read.
pub(crate) fn is_chained(version: u32) -> Result<bool, String> {
    match version {
        1 => Ok(false),
        CHAINED_FORMAT => Ok(true),
        v => Err(format!(
            "records format {v}; this version reads formats 1 and {CHAINED_FORMAT}"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chain_checks_what_it_sealed_and_nothing_else() {
        let mut writer = Chain::start("0123456789abcdef", None);
        let digests: Vec<String> = ["a", "b", "c"].iter().map(|l| writer.seal(l)).collect();
        let mut reader = Chain::start("0123456789abcdef", None);
        for (line, digest) in ["a", "b", "c"].iter().zip(&digests) {
            reader.check(line, Some(digest)).unwrap();
        }
        let mut swapped = Chain::start("0123456789abcdef", None);
        assert!(swapped.check("b", Some(&digests[0])).is_err());
        let mut shard = Chain::start("0123456789abcdef", Some("1/2"));
        assert!(shard.check("a", Some(&digests[0])).is_err());
        let mut missing = Chain::start("0123456789abcdef", None);
        assert!(
            missing.check("b", Some(&digests[1])).is_err(),
            "a game removed"
        );
        assert!(Chain::start("x", None).check("a", None).is_err());
    }
}
