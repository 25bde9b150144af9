//! A board with a history, for make/unmake along a game or a search path.

use super::Variant;
use crate::board::Board;
use crate::notation::NotationError;
use crate::variant::LegalMove;

/// A board with a history, for make/unmake along a game or a search path.
#[derive(Clone, Debug)]
pub struct Position<'v> {
    variant: &'v Variant,
    board: Board,
    stack: Vec<Board>,
}

impl<'v> Position<'v> {
    /// A position at `board` with nothing to unmake.
    pub fn new(variant: &'v Variant, board: Board) -> Position<'v> {
        Position {
            variant,
            board,
            stack: Vec::new(),
        }
    }
    /// The variant.
    pub fn variant(&self) -> &'v Variant {
        self.variant
    }
    /// The current board.
    pub fn board(&self) -> &Board {
        &self.board
    }
    /// Plies made and not unmade.
    pub fn ply(&self) -> usize {
        self.stack.len()
    }
    /// Makes a move given by the position it leads to (from the generator).
    pub fn make(&mut self, child: Board) {
        self.stack.push(self.board);
        self.board = child;
    }
    /// Parses and makes a move.
    pub fn play_text(&mut self, text: &str) -> Result<LegalMove, NotationError> {
        let played = self.variant.play_text(&self.board, text)?;
        self.make(played.child);
        Ok(played)
    }
    /// Restores the position before the last make; false if nothing to unmake.
    pub fn unmake(&mut self) -> bool {
        match self.stack.pop() {
            Some(previous) => {
                self.board = previous;
                true
            }
            None => false,
        }
    }
}
