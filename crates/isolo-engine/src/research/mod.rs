//! Research: [`compare`] (the first player's advantage under several rule sets),
//! [`readings`] (the presets' alternative readings of docs/RESULTS.md),
//! [`solve_table`] (starts on narrower boards and with fewer seeds, solved) and [`tune`]
//! (evaluation weights fitted to self-play) and [`wdl`] (the win/draw/loss model fitted
//! to self-play).

pub mod compare;
pub mod readings;
pub mod solve_table;
pub mod tune;
pub mod wdl;
