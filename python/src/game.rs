//! `Game`: a game on a variant, move by move, with its history (repetitions, undo).

use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::PyBytes;
use self_cell::self_cell;

use crate::args::{move_text, within, Whole};
use crate::variant::{setup_error, AnyVariant, Variant};
use crate::IllegalMove;
use isolo_engine::ranges;
use isolo_rules::pit_at;
use isolo_rules::{move_sequences, searched_moves, Board, LegalMove, Setup, Side};

type RulesGame<'v> = isolo_rules::Game<'v>;

self_cell!(
    /// A game and the variant it borrows, owned together.
    struct Cell {
        owner: Arc<isolo_rules::Variant>,
        #[covariant]
        dependent: RulesGame,
    }
);

/// A game: a variant, a start, the moves played.
///
/// `Game(variant, position=None, moves=None, max_plies=None)` starts at `position` (the
/// variant's start when omitted) and plays `moves` (a string of moves separated by
/// spaces). With `max_plies` the game is drawn once that many moves are played.
#[pyclass(module = "isolo_ai")]
pub struct Game {
    cell: Cell,
}

impl Game {
    pub(crate) fn game(&self) -> &RulesGame<'_> {
        self.cell.borrow_dependent()
    }

    pub(crate) fn variant(&self) -> &isolo_rules::Variant {
        self.cell.borrow_owner()
    }

    pub(crate) fn board(&self) -> &Board {
        self.game().board()
    }

    /// Plays a move the variant made here (see `isolo_rules::Game::play_generated`).
    pub(crate) fn play_generated(&mut self, played: &LegalMove) {
        self.cell
            .with_dependent_mut(|_, game| game.play_generated(played));
    }

    /// `board` seen by `side` for learning (see `observation_list`): `4 * columns + 2`
    /// numbers.
    pub(crate) fn observation_for(&self, board: &Board, side: Side) -> Vec<f32> {
        let seen = match side {
            Side::South => *board,
            Side::North => board.swapped(),
        };
        let total: u32 = [Side::South, Side::North]
            .iter()
            .map(|&s| seen.side_total(s))
            .sum();
        let scale = 1.0 / total.max(1) as f32;
        let mut values: Vec<f32> = self
            .rows(&seen)
            .into_iter()
            .map(|seeds| seeds as f32 * scale)
            .collect();
        for side in [side, side.opponent()] {
            values.push(if board.in_overture(side) { 1.0 } else { 0.0 });
        }
        values
    }

    /// Seeds of each pit, row by row as `show` draws them (North's back row first).
    fn rows(&self, board: &Board) -> Vec<u8> {
        let columns = self.variant().columns() as usize;
        (0..4)
            .flat_map(|row| (0..columns).map(move |col| pit_at(row, col, columns)))
            .map(|(side, lane)| board.seeds(side, lane + 1))
            .collect()
    }
}

#[pymethods]
impl Game {
    #[new]
    #[pyo3(signature = (variant, position=None, moves=None, max_plies=None))]
    fn new(
        variant: AnyVariant,
        position: Option<&str>,
        moves: Option<&str>,
        max_plies: Option<Whole>,
    ) -> PyResult<Game> {
        let setup = Setup {
            max_plies: within("max_plies", max_plies, &ranges::GAME_PLIES)?,
            ..Setup::new(position, moves)
        };
        let cell = Cell::try_new(variant.inner.clone(), |v| setup.game(v)).map_err(setup_error)?;
        Ok(Game { cell })
    }

    /// The variant played.
    #[getter(variant)]
    fn variant_of(&self) -> Variant {
        Variant {
            inner: self.cell.borrow_owner().clone(),
        }
    }

    /// The legal moves here in the project's notation (`7`, `11xp`: a pit, then `x` take
    /// or `p` pass at each optional capture, and the other letters of a move's choices);
    /// none once the game is over.
    ///
    /// By default one move per distinct position reached, the list the engine searches
    /// and `isolo-ai moves --distinct` prints (where take/pass choices run to millions
    /// of sequences, their positions number hundreds; `legal_moves_cut` says whether
    /// the list's bound on a pit's choices left some out). With `sequences=True` every
    /// choice sequence, in the rules' order, as `isolo-ai moves` lists them: at most
    /// `limit`, past which `InputError` refuses the list.
    #[pyo3(signature = (sequences=false, limit=None), text_signature = "($self, sequences=False, limit=100000)")]
    fn legal_moves(&self, sequences: bool, limit: Option<Whole>) -> PyResult<Vec<String>> {
        let range = &ranges::LISTED_SEQUENCES;
        let limit = within("limit", limit, range)?.unwrap_or(isolo_rules::SEQUENCES_LISTED);
        if self.game().outcome_if_moves().is_some() {
            return Ok(Vec::new());
        }
        let (variant, board) = (self.variant(), self.board());
        let moves = if sequences {
            move_sequences(variant, board, limit)
                .map_err(|e| crate::input_error(format!("legal_moves: {e} (limit={limit})")))?
        } else {
            searched_moves(variant, board).0
        };
        Ok(moves.into_iter().map(|m| m.mv.to_string()).collect())
    }

    /// Whether `legal_moves()`' distinct list left out positions some moves reach: a
    /// pit's choices past the bound every front end and the engine share
    /// (`isolo_rules::POINTS_PER_PIT` turning points), those of fewest laps kept.
    #[getter]
    fn legal_moves_cut(&self) -> bool {
        self.game().outcome_if_moves().is_none() && searched_moves(self.variant(), self.board()).1
    }

    /// Plays `move` (the project's notation); `IllegalMove` says why it is refused.
    /// (`move` may also be a pit's number, for a move of no choices.)
    #[pyo3(signature = (r#move), text_signature = "($self, move)")]
    fn play(&mut self, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
        let text = move_text("move", r#move)?;
        self.cell
            .with_dependent_mut(|_, game| game.play_text(&text).map(|_| ()))
            .map_err(|e| IllegalMove::new_err(e.to_string()))
    }

    /// Takes back the last move and returns it; `None` at the start.
    fn undo(&mut self) -> Option<String> {
        self.cell
            .with_dependent_mut(|_, game| game.undo())
            .map(|m| m.to_string())
    }

    /// A copy that plays on independently.
    pub(crate) fn clone(&self) -> Game {
        let owner = self.cell.borrow_owner().clone();
        Game {
            cell: Cell::new(owner, |v| self.game().rebound(v)),
        }
    }

    fn __copy__(&self) -> Game {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Game {
        self.clone()
    }

    /// `None` while the game goes on, else the winner `"S"` or `"N"`, or `"draw"`.
    fn outcome(&self) -> Option<String> {
        let outcome = self.game().outcome()?;
        Some(
            outcome
                .winner
                .map_or("draw".into(), |side| side.letter().to_string()),
        )
    }

    /// Why the game ended, as records and JSON name it: `"no-moves"` (the side to move
    /// has none and loses), `"repetition"`, `"ply-limit"`, `"dead-position"`,
    /// `"ends-captured"` or `"long-game"` (RULES.md 3.6); `None` while it goes on.
    #[getter]
    fn end(&self) -> Option<&'static str> {
        Some(self.game().outcome()?.reason.name())
    }

    /// The position, in the project's notation (`ROWS SIDE [OVERTURE] [FIRST] [WON]`).
    #[getter]
    fn position(&self) -> String {
        self.variant().format_position(self.board())
    }

    /// The starting position, in the project's notation.
    #[getter]
    fn start(&self) -> String {
        self.variant().format_position(self.game().start())
    }

    /// The side to move: `"S"` or `"N"`.
    #[getter]
    fn to_move(&self) -> char {
        self.board().to_move().letter()
    }

    /// Moves after which the game is drawn, or `None` for no cap.
    #[getter]
    fn max_plies(&self) -> Option<usize> {
        self.game().max_plies()
    }

    /// Moves played.
    #[getter]
    fn plies(&self) -> usize {
        self.game().plies()
    }

    /// The moves played, in order.
    #[getter]
    fn moves(&self) -> Vec<String> {
        self.game().moves().iter().map(|m| m.to_string()).collect()
    }

    /// Seeds of each pit as bytes, row by row as `show` draws them (the Python `board`
    /// property shapes them `(4, columns)`).
    fn board_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.rows(self.board()))
    }

    /// The position from the mover's side, for learning: the rows as `show` draws them
    /// with the side to move at the bottom (its board flipped when North moves), each
    /// pit's seeds divided by all the seeds, then 1.0/0.0 for the mover's and the
    /// opponent's overture: `4 * columns + 2` numbers.
    fn observation_list(&self) -> Vec<f32> {
        let board = self.board();
        self.observation_for(board, board.to_move())
    }

    /// How often the current position has occurred, this time included (a third
    /// occurrence draws).
    #[getter]
    fn repetitions(&self) -> usize {
        self.game().repetitions()
    }

    /// Plies in a row without a capture up to now: the long-game rule ends the game
    /// when they reach the rules' `long_game_plies` (RULES.md 3.6).
    #[getter]
    fn plies_without_capture(&self) -> u32 {
        self.game().quiet_plies()
    }

    /// Where the long-game rule nears, what a player is told ("12 more moves without a
    /// capture, either player's, end the game: a draw"); `None` until then.
    #[getter]
    fn long_game_warning(&self) -> Option<String> {
        self.game().long_game_warning()
    }

    fn __repr__(&self) -> String {
        format!(
            "Game({:?}, position={:?}, plies={})",
            self.variant().name(),
            self.position(),
            self.plies()
        )
    }
}

impl Game {
    /// The variant, shared.
    pub fn variant_arc(&self) -> Arc<isolo_rules::Variant> {
        self.cell.borrow_owner().clone()
    }

    /// The game, for the searches.
    pub fn with_game<T>(&self, f: impl FnOnce(&RulesGame<'_>) -> T) -> T {
        f(self.game())
    }

    /// What a search of the position needs, copied. A search works on it with the GIL
    /// released, so the game stays free to change meanwhile.
    pub fn searched(&self) -> Searched {
        let (board, history, quiet_plies, over) =
            self.with_game(|g| (*g.board(), g.history(), g.quiet_plies(), g.outcome()));
        Searched {
            variant: self.variant_arc(),
            board,
            history,
            quiet_plies,
            over,
        }
    }
}

/// A game's position as a search needs it (`Game::searched`).
pub struct Searched {
    /// The rules.
    pub variant: Arc<isolo_rules::Variant>,
    /// The position.
    pub board: Board,
    /// The hashes of the earlier positions.
    pub history: Vec<u64>,
    /// Plies in a row without a capture up to the position (the long-game rule).
    pub quiet_plies: u32,
    /// The outcome, if the game is over.
    pub over: Option<isolo_rules::Outcome>,
}
