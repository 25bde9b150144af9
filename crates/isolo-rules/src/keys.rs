//! Maps and sets keyed by position hashes. The hashes are well mixed already, so the
//! key is its own hash: no SipHash round per lookup (which had been a fifth of df-pn's
//! time).

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// A hasher for keys that are hashes already: the key is its own hash.
#[derive(Clone, Copy, Debug, Default)]
pub struct HashIsKey(u64);

impl Hasher for HashIsKey {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }

    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
}

/// What builds a `HashIsKey`.
pub(crate) type KeyHashing = BuildHasherDefault<HashIsKey>;

/// A map from position hashes.
pub type KeyMap<V> = HashMap<u64, V, KeyHashing>;

/// A set of position hashes.
pub type KeySet = HashSet<u64, KeyHashing>;
