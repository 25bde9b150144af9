//! The digest of records files and proof states: FNV-1a, 64 bits, as 16 hex digits. A
//! leaf, so that the provers and the records share it without importing each other.

/// FNV-1a (64 bits, hex) of `text`: a header's fingerprint (its JSON with an empty
/// fingerprint and no shard), a records game's chained digest, a proof state's key.
pub fn fingerprint_of(text: &str) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in text.bytes() {
        hash ^= byte as u64;
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{hash:016x}")
}
