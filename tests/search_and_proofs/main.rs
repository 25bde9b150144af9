//! Search and proofs: the searchers against brute force, the provers, certificates, and the (ignored) strength matches.
//!
//! One test binary for the group: each file is a module, and they share `common`.

#[path = "../common/mod.rs"]
mod common;

mod certificates;
mod checkpoints;
mod distributed;
mod search;
mod solve;
mod strength;
