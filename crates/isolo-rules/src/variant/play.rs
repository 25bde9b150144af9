//! A move played by name: the legal move a [`Move`] names, found by walking only that
//! move's pit and choices.

use super::{LegalMove, Listing, MoveGen, MoveStep, MoveWalk, Variant};
use crate::board::Board;
use crate::notation::Move;
use crate::rules_file::CaptureChoice;

impl Variant {
    /// The legal move `mv`, or `None` if it is not legal here. Plays only that move's
    /// choices, so it costs one move however many sequences the position has.
    pub fn play_move(&self, board: &Board, mv: &Move) -> Option<LegalMove> {
        let pit = mv
            .pit
            .checked_sub(1)
            .filter(|&p| (p as usize) < self.pits())?;
        if self.candidate_pits(board) & (1 << pit) == 0 {
            return None;
        }
        if self.has_directions() {
            // Few sequences a pit: find this one among them.
            let mut found = None;
            let listing = Listing::Sequences;
            self.visit_moves(board, 1 << pit, listing, &mut MoveGen::new(), |m| {
                if m.choices != mv.choices.as_slice() {
                    return true;
                }
                found = Some(m.to_legal_move());
                false
            });
            return found;
        }
        match self.rules.capture_choice {
            CaptureChoice::Optional => {
                let MoveStep::End {
                    child,
                    laps,
                    captured,
                } = self.walk_choices(board, mv, &mut MoveWalk::new())?
                else {
                    return None;
                };
                Some(LegalMove {
                    mv: mv.clone(),
                    child,
                    laps,
                    captured,
                })
            }
            CaptureChoice::Forced if mv.choices.is_empty() => {
                let mut found = None;
                let listing = Listing::Sequences;
                self.visit_moves(board, 1 << pit, listing, &mut MoveGen::new(), |m| {
                    found = Some(m.to_legal_move());
                    false
                });
                found
            }
            CaptureChoice::Forced => None,
        }
    }
}
