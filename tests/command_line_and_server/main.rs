//! The command line as a process, hostile inputs, the web server, and the documents' links.
//!
//! One test binary for the group: each file is a module, and they share `common`.

#[path = "../common/mod.rs"]
mod common;

mod architecture;
mod cli;
mod contract;
mod docs;
mod hostile;
mod interrupts;
mod serve;
mod slow_clients;
mod vast_moves;
