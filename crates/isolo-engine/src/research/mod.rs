//! Research: [`compare`] (the first player's advantage under several rule sets) and
//! [`tune`] (evaluation weights fitted to self-play).

pub mod compare;
pub mod tune;
