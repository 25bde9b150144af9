//! The provers: exact results, never guesses. [`alphabeta`] (iterative deepening to the
//! exact length of a win or loss), [`dfpn`] (proof-number search for long proofs),
//! [`retrograde`] (the whole reachable game, the prover of draws) and its indexed form,
//! and the [`certificate`]s that let the rules alone check a result.

pub mod alphabeta;
pub mod certificate;
pub mod dfpn;
pub mod known;
mod move_tree;
pub mod pipeline;
pub mod retrograde;
