//! Matches and the protocol: match and tournament runs, external engines, shards, the UGI engine side, the parsers and channels fuzzed, and the (ignored) memory run.
//!
//! One test binary for the group: each file is a module, and they share `common`.

#[path = "../common/mod.rs"]
mod common;

mod external;
mod fuzz;
mod levels;
mod matches;
mod memory;
mod sharding;
mod ugi;
