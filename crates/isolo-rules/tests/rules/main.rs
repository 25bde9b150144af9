//! The rules: perft, rule cases drawn in ASCII, the fast board against the naive reference, move traces, notation and inputs, and the parsers fuzzed.
//!
//! One test binary for the group: each file is a module, and they share `common`.

#[path = "../support/mod.rs"]
mod common;

mod fuzz;
mod notation_and_inputs;
mod perft;
mod reference_equivalence;
mod rule_cases;
mod trace;
