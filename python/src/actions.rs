//! `ActionGame`: a game played in small integer actions, a take/pass choice or a lap's
//! direction being an action of its own, for OpenSpiel and PettingZoo.
//!
//! Actions `0 .. pits` start a move from pit `action + 1` of the side to move (the pits
//! the rules number, RULES.md notation); action `pits` takes and `pits + 1` passes at an
//! optional capture, or, in rules whose laps may turn (which have forced captures),
//! `pits` sows the lap anticlockwise and `pits + 1` clockwise, and where a clockwise
//! capture may be left (`clockwise_leave`) `pits` sows it on and `pits + 1` leaves it:
//! in all, the order in which the rules list moves. Only actions that begin or continue
//! at least one legal move are offered, so a move begun always ends.

use std::sync::OnceLock;

use pyo3::prelude::*;
use pyo3::types::PyByteArray;

use crate::args::Whole;
use crate::game::Game;
use crate::{input_error, IllegalMove};
use isolo_rules::pit_at;
use isolo_rules::{
    CaptureChoice, Choice, ChoicePoint, Completion, EndReason, LegalMove, Move, MoveGen, MoveStep,
    MoveWalk, Outcome, Side,
};

/// Planes of `ActionGame.observation_planes`: seeds, the pending lap's end, a choice
/// pending, the viewer's overture, the opponent's.
const PLANES: usize = 5;

/// The most choices searched below a take or a pass to see whether a legal move
/// follows; an option whose search gives up is offered (every real position decides
/// within the first few).
const OPTION_SEARCH_CHOICES: usize = 1 << 20;

thread_local! {
    /// The move generator's buffers, kept between actions: a fresh one allocates and
    /// clears its sets, which cost an adapter more than finding the moves.
    static MOVE_GEN: std::cell::RefCell<MoveGen> = std::cell::RefCell::new(MoveGen::new());
}

/// A move begun: its pit and choices so far, stopped at a choice.
#[derive(Clone)]
struct Pending {
    mv: Move,
    /// Where the walk stands.
    point: ChoicePoint,
    /// Whether the first choice action (take, anticlockwise) and whether the second
    /// (pass, clockwise) leads to a legal move.
    open: [bool; 2],
    /// Whether the choice is a lap's direction (else a capture's take or pass, or
    /// whether to leave a clockwise capture).
    direction: bool,
    /// The choices of the first and the second choice action here.
    options: [Choice; 2],
    /// Whether the choice is the opponent's answer to a pass (`retreat`).
    answer: bool,
}

impl Pending {
    /// The position as sown up to the choice, the seeds about to be sown at a direction
    /// counted in the pit they are sown from.
    fn board(&self) -> isolo_rules::Board {
        self.point.board_in_full()
    }

    /// The mover's pit the choice is about: where the lap of a take/pass choice (or of
    /// a pass answered) ended, or where the lap whose direction is chosen is lifted.
    fn pit(&self) -> usize {
        if self.direction {
            self.point.lap_pit() as usize
        } else {
            self.point.end_pit() as usize
        }
    }
}

/// A game played in integer actions (the encoding OpenSpiel and PettingZoo see).
///
/// `ActionGame(game)` continues a copy of `game`. Actions `0 .. pits` start a move from
/// pit `action + 1` of the side to move; `take_action` (= `pits`) and `pass_action`
/// (= `pits + 1`) choose at an optional capture, the same side acting again. A move
/// ends, and the other side acts, when its last choice is made.
#[pyclass(module = "isolo_ai")]
pub struct ActionGame {
    game: Game,
    pending: Option<Pending>,
    /// The pits that begin a legal move here (a bit each) and the outcome, worked out
    /// once: an adapter asks for them several times an action.
    playable: OnceLock<u32>,
    outcome: OnceLock<Option<Outcome>>,
}

impl ActionGame {
    fn with_game(game: Game, pending: Option<Pending>) -> ActionGame {
        ActionGame {
            game,
            pending,
            playable: OnceLock::new(),
            outcome: OnceLock::new(),
        }
    }

    fn pits(&self) -> usize {
        self.game.variant().pits()
    }

    /// Whether captures offer a take/pass choice in these rules.
    fn optional(&self) -> bool {
        self.game.variant().rules().capture_choice() == CaptureChoice::Optional
    }

    /// Whether laps may turn clockwise in these rules, so moves choose directions.
    fn directed(&self) -> bool {
        self.game.variant().has_directions()
    }

    /// Whether the choice actions choose a direction here: at a pending direction, or
    /// with nothing pending where laps turn and captures are forced.
    fn choosing_direction(&self) -> bool {
        match &self.pending {
            Some(pending) => pending.direction,
            None => self.directed() && !self.optional(),
        }
    }

    /// The choice a choice action makes: the first (take, anticlockwise, sow on) or the
    /// second (pass, clockwise, leave); at a pending choice, that point's options.
    fn choice_of(&self, second: bool) -> Choice {
        if let Some(pending) = &self.pending {
            return pending.options[usize::from(second)];
        }
        choice_action(self.choosing_direction(), second)
    }

    /// The side to act: the mover, or the opponent answering a pass inside the move.
    fn acting(&self) -> Side {
        let mover = self.game.board().to_move();
        if self.answering() {
            mover.opponent()
        } else {
            mover
        }
    }

    /// Whether the pending choice is the opponent's answer to a pass (`retreat`).
    fn answering(&self) -> bool {
        self.pending.as_ref().is_some_and(|p| p.answer)
    }

    /// The action of a choice.
    fn action_of(&self, choice: Choice) -> usize {
        let second = matches!(
            choice,
            Choice::Pass | Choice::Clockwise | Choice::Stay | Choice::Leave
        );
        self.pits() + usize::from(second)
    }

    /// Starts the move from `pit`, or plays it when it has no choice to make.
    fn begin(&mut self, pit: u8) -> PyResult<()> {
        let mv = Move {
            pit,
            choices: Vec::new(),
        };
        if !self.optional() && !self.directed() {
            let played = self.game.variant().play_move(self.game.board(), &mv);
            let played = played.ok_or_else(|| illegal(&mv))?;
            self.game.play_generated(&played);
            return Ok(());
        }
        let mut walk = MoveWalk::new();
        let step = self
            .game
            .variant()
            .begin_move(self.game.board(), pit, &mut walk);
        self.reach(mv, step, &mut walk)
    }

    /// The pits that begin a legal move, one bit each (bit `pit - 1`).
    fn playable_pits(&self) -> u32 {
        *self.playable.get_or_init(|| {
            let variant = self.game.variant();
            MOVE_GEN.with_borrow_mut(|gen| variant.playable_pits(self.game.board(), gen))
        })
    }

    /// How the game has ended, `None` while it goes on or a move is being made: as
    /// `isolo_rules::Game::outcome`, from the pits already found.
    fn ended(&self) -> Option<Outcome> {
        *self.outcome.get_or_init(|| {
            if self.pending.is_some() {
                return None;
            }
            let board = self.game.board();
            if board.ends_captured() {
                return Some(Outcome {
                    winner: Some(board.to_move().opponent()),
                    reason: EndReason::EndsCaptured,
                });
            }
            if self.playable_pits() == 0 {
                return Some(Outcome {
                    winner: Some(self.game.board().to_move().opponent()),
                    reason: EndReason::NoMoves,
                });
            }
            self.game.game().outcome_if_moves()
        })
    }

    /// Makes the pending choice: the first option (take, anticlockwise) or the second.
    fn choose(&mut self, second: bool) -> PyResult<()> {
        let choice = self.choice_of(second);
        let pending = self.pending.take().expect("a pending choice");
        let mut mv = pending.mv;
        mv.choices.push(choice);
        let mut walk = MoveWalk::new();
        // The walk again from the pit: the path of turning points tells a loop.
        let step = self
            .game
            .variant()
            .walk_choices(self.game.board(), &mv, &mut walk)
            .ok_or_else(|| illegal(&mv))?;
        self.reach(mv, step, &mut walk)
    }

    /// Where the move `mv` stands after its last action: played if it ended, pending
    /// at its next choice.
    fn reach(&mut self, mv: Move, step: MoveStep, walk: &mut MoveWalk) -> PyResult<()> {
        match step {
            MoveStep::End {
                child,
                laps,
                captured,
            } => {
                let played = LegalMove {
                    mv,
                    child,
                    laps,
                    captured,
                };
                self.game.play_generated(&played);
                Ok(())
            }
            MoveStep::Choice(point) | MoveStep::Answer(point) => {
                let open = self
                    .game
                    .variant()
                    .option_completions(&point, walk, OPTION_SEARCH_CHOICES)
                    .map(|found| found != Completion::None);
                self.pending = Some(Pending {
                    mv,
                    point,
                    open,
                    direction: point.is_direction(),
                    options: [point.option(true), point.option(false)],
                    answer: point.passed(),
                });
                Ok(())
            }
            MoveStep::Dead { .. } => Err(illegal(&mv)),
        }
    }
}

/// The choice of a choice action: the first (take, anticlockwise) or the second (pass,
/// clockwise), of a lap's `direction` or a capture's.
fn choice_action(direction: bool, second: bool) -> Choice {
    match (direction, second) {
        (false, false) => Choice::Take,
        (false, true) => Choice::Pass,
        (true, false) => Choice::Anticlockwise,
        (true, true) => Choice::Clockwise,
    }
}

fn illegal(mv: &Move) -> PyErr {
    IllegalMove::new_err(format!("move '{mv}' leads to no legal move"))
}

/// A player as a side: `0` or `1` (OpenSpiel's), `"S"` or `"N"`, `"South"` or `"North"`,
/// `"player_0"` or `"player_1"` (PettingZoo's agents).
fn side_of(player: &Bound<'_, PyAny>) -> PyResult<Side> {
    let side = if let Ok(number) = player.extract::<i64>() {
        match number {
            0 => Some(Side::South),
            1 => Some(Side::North),
            _ => None,
        }
    } else if let Ok(name) = player.extract::<String>() {
        match name.as_str() {
            "S" | "South" | "player_0" => Some(Side::South),
            "N" | "North" | "player_1" => Some(Side::North),
            _ => None,
        }
    } else {
        None
    };
    side.ok_or_else(|| {
        let shown = player.repr().map(|r| r.to_string()).unwrap_or_default();
        crate::input_error(format!(
            "player: {shown} is not 0 or 1, 'S' or 'N', 'South' or 'North', 'player_0' or 'player_1'"
        ))
    })
}

#[pymethods]
impl ActionGame {
    #[new]
    fn new(game: &Game) -> ActionGame {
        ActionGame::with_game(game.clone(), None)
    }

    /// Number of distinct actions: the pits of a side, then the two options of a choice
    /// (take and pass, or anticlockwise and clockwise).
    #[getter]
    fn num_actions(&self) -> usize {
        self.pits() + 2
    }

    /// The action that takes at an optional capture (sows anticlockwise where laps
    /// turn).
    #[getter]
    fn take_action(&self) -> usize {
        self.pits()
    }

    /// The action that passes at an optional capture (sows clockwise where laps turn).
    #[getter]
    fn pass_action(&self) -> usize {
        self.pits() + 1
    }

    /// Most actions one move can take: its pit and a choice for each lap at most.
    #[getter]
    fn max_actions_per_move(&self) -> usize {
        if self.optional() || self.directed() {
            1 + self.game.variant().rules().max_laps() as usize
        } else {
            1
        }
    }

    /// The legal actions, ascending: the pits that begin a legal move, or at a pending
    /// choice the options that lead to one; none once the game is over.
    fn legal_actions(&self) -> Vec<usize> {
        if let Some(pending) = &self.pending {
            return (0..2)
                .filter(|&k| pending.open[k])
                .map(|k| self.pits() + k)
                .collect();
        }
        if self.ended().is_some() {
            return Vec::new();
        }
        let mut pits = self.playable_pits();
        let mut actions = Vec::new();
        while pits != 0 {
            actions.push(pits.trailing_zeros() as usize);
            pits &= pits - 1;
        }
        actions
    }

    /// Plays `action`; `IllegalMove` if it is not among `legal_actions()`.
    fn apply(&mut self, action: Whole) -> PyResult<()> {
        let legal = self.legal_actions();
        let Some(action) = action.index().filter(|a| legal.contains(a)) else {
            return Err(IllegalMove::new_err(format!(
                "action {action} is not legal here (legal: {legal:?})"
            )));
        };
        self.playable = OnceLock::new();
        self.outcome = OnceLock::new();
        match action.checked_sub(self.pits()) {
            None => self.begin(action as u8 + 1),
            Some(choice) => self.choose(choice == 1),
        }
    }

    /// `action` in the project's notation: a pit's number, `x` (take) or `p` (pass), or
    /// where laps turn `a` (anticlockwise) or `c` (clockwise), `o` (sow on) or `l`
    /// (leave) at a clockwise capture that may be left.
    fn action_to_string(&self, action: Whole) -> PyResult<String> {
        let pits = self.pits();
        match action.index() {
            Some(a) if a < pits => Ok((a + 1).to_string()),
            Some(a) if a == pits || a == pits + 1 => {
                Ok(self.choice_of(a == pits + 1).letter().to_string())
            }
            _ => Err(crate::input_error(format!(
                "action: must be 0..={}, found {action}",
                pits + 1
            ))),
        }
    }

    /// The action a pit's number or a choice's letter (`x`, `p`; `a`, `c` where laps
    /// turn) names.
    fn string_to_action(&self, text: &str) -> PyResult<usize> {
        let pits = self.pits();
        let letters = [self.choice_of(false), self.choice_of(true)].map(|c| c.letter());
        let options = format!("{} or {}", letters[0], letters[1]);
        match text.trim() {
            t if t.len() == 1 && t.starts_with(letters[0]) => Ok(pits),
            t if t.len() == 1 && t.starts_with(letters[1]) => Ok(pits + 1),
            t => t
                .parse::<usize>()
                .ok()
                .filter(|pit| (1..=pits).contains(pit))
                .map(|pit| pit - 1)
                .ok_or_else(|| {
                    crate::input_error(format!(
                        "action '{t}' is not a pit from 1 to {pits}, {options}"
                    ))
                }),
        }
    }

    /// The actions that make `move` (the project's notation, `"11xp"`): its pit's, then
    /// one for each choice. Checked as notation here, as a legal move when played.
    #[pyo3(signature = (r#move))]
    fn move_to_actions(&self, r#move: &str) -> PyResult<Vec<usize>> {
        let mv = self
            .game
            .variant()
            .parse_move(r#move)
            .map_err(crate::input_error)?;
        let choices = mv.choices.iter().map(|&choice| self.action_of(choice));
        Ok(std::iter::once(mv.pit as usize - 1)
            .chain(choices)
            .collect())
    }

    /// The move begun and not yet ended (`"11x"`: its pit and choices so far), or `None`.
    #[getter]
    fn pending(&self) -> Option<String> {
        self.pending.as_ref().map(|p| p.mv.to_string())
    }

    /// The actions of the move begun and not yet ended (empty if none is).
    #[getter]
    fn pending_actions(&self) -> Vec<usize> {
        let Some(pending) = &self.pending else {
            return Vec::new();
        };
        let choices = pending.mv.choices.iter();
        let choice_actions = choices.map(|&choice| self.action_of(choice));
        std::iter::once(pending.mv.pit as usize - 1)
            .chain(choice_actions)
            .collect()
    }

    /// The game as played so far: the moves that ended (a copy).
    #[getter]
    fn game(&self) -> Game {
        self.game.clone()
    }

    /// The side to act: `"S"` or `"N"`.
    #[getter]
    fn to_move(&self) -> char {
        self.acting().letter()
    }

    /// The player to act as OpenSpiel and PettingZoo number them: 0 South, 1 North;
    /// `None` once the game is over.
    #[getter]
    fn player(&self) -> Option<usize> {
        if self.ended().is_some() {
            return None;
        }
        Some(match self.acting() {
            Side::South => 0,
            Side::North => 1,
        })
    }

    /// `None` while the game goes on, else the winner `"S"` or `"N"`, or `"draw"`.
    fn outcome(&self) -> Option<String> {
        let outcome = self.ended()?;
        Some(
            outcome
                .winner
                .map_or("draw".into(), |side| side.letter().to_string()),
        )
    }

    /// The position where the move being made started, in the project's notation.
    #[getter]
    fn position(&self) -> String {
        self.game.variant().format_position(self.game.board())
    }

    /// Numbers in `observation_list`: `6 * columns + 3`.
    #[getter]
    fn observation_size(&self) -> usize {
        let columns = self.game.variant().columns() as usize;
        6 * columns + 3
    }

    /// The state seen by `player` (`0` or `1`, `"S"` or `"N"`, or PettingZoo's agent), for learning: the board as it
    /// stands (mid-move, as sown up to a pending choice) in the layout of
    /// `Game.observation()` with `player`'s rows at the bottom (`4 * columns + 2`
    /// numbers); then 1.0 if a choice is pending; then one number for each pit of the
    /// mover, 1.0 at the pit the pending choice is about (where the lap of a take/pass
    /// choice ended, or whence the lap whose direction is chosen is sown).
    fn observation_list(&self, player: &Bound<'_, PyAny>) -> PyResult<Vec<f32>> {
        let side = side_of(player)?;
        let board = match &self.pending {
            Some(pending) => pending.board(),
            None => *self.game.board(),
        };
        let mut values = self.game.observation_for(&board, side);
        values.push(if self.pending.is_some() { 1.0 } else { 0.0 });
        let ended = self.pending.as_ref().map(Pending::pit);
        values.extend((1..=self.pits()).map(|pit| if Some(pit) == ended { 1.0 } else { 0.0 }));
        Ok(values)
    }

    /// Writes the state seen by `player` into `out`, a `bytearray` of 4 bytes a number
    /// (float32, native byte order): `observation_list`'s numbers, or with `planes`
    /// `observation_planes_list`'s. For an observer that owns its buffer (a NumPy array
    /// over the bytearray): no Python list on the way.
    fn observe_into(
        &self,
        player: &Bound<'_, PyAny>,
        out: &Bound<'_, PyByteArray>,
        planes: bool,
    ) -> PyResult<()> {
        let values = if planes {
            self.observation_planes(player)?
        } else {
            self.observation_list(player)?
        };
        let bytes = 4 * values.len();
        if out.len() != bytes {
            return Err(input_error(format!(
                "out: {} bytes, expected {bytes} ({} float32 numbers)",
                out.len(),
                values.len()
            )));
        }
        // SAFETY: the GIL is held and no Python code runs while the bytes are written,
        // so nothing else reads, writes or resizes the bytearray meanwhile.
        let target = unsafe { out.as_bytes_mut() };
        for (slot, value) in target.chunks_exact_mut(4).zip(values) {
            slot.copy_from_slice(&value.to_ne_bytes());
        }
        Ok(())
    }

    /// The shape of `observation_planes`: `(PLANES, 4, columns)`.
    #[getter]
    fn planes_shape(&self) -> (usize, usize, usize) {
        (PLANES, 4, self.game.variant().columns() as usize)
    }

    /// The numbers of `observation_planes`, flat. The state seen by `player` as planes over
    /// the board, for convolutional nets: `PLANES` planes of `4 x columns` numbers (channel first, each
    /// row by row as `show` draws the board, `player`'s rows at the bottom): 0, each pit's
    /// seeds over all the seeds (as `observation_list`'s board); 1, 1.0 at the mover's pit
    /// the pending choice is about (as `observation_list`); 2, all 1.0 while a choice is pending
    /// (the same side acts again); 3 and 4, all 1.0 while `player`, and while its
    /// opponent, is in the overture.
    #[pyo3(name = "observation_planes_list")]
    fn observation_planes(&self, player: &Bound<'_, PyAny>) -> PyResult<Vec<f32>> {
        let side = side_of(player)?;
        let board = match &self.pending {
            Some(pending) => pending.board(),
            None => *self.game.board(),
        };
        let flat = self.game.observation_for(&board, side);
        let columns = self.game.variant().columns() as usize;
        let cells = 4 * columns;
        let mut planes = Vec::with_capacity(PLANES * cells);
        planes.extend_from_slice(&flat[..cells]);
        // The pit the pending choice is about: the mover's, at the bottom for the mover.
        let mover = self.game.board().to_move();
        let seen_mover = if mover == side {
            Side::South
        } else {
            Side::North
        };
        let ended = self.pending.as_ref().map(|p| p.pit() - 1);
        planes.extend((0..4).flat_map(|row| {
            (0..columns).map(move |col| {
                let (seen_side, lane) = pit_at(row, col, columns);
                f32::from(u8::from(seen_side == seen_mover && Some(lane) == ended))
            })
        }));
        let constant = |on: bool| std::iter::repeat_n(f32::from(u8::from(on)), cells);
        planes.extend(constant(self.pending.is_some()));
        planes.extend(constant(flat[cells] == 1.0));
        planes.extend(constant(flat[cells + 1] == 1.0));
        Ok(planes)
    }

    /// A copy that plays on independently.
    fn clone(&self) -> ActionGame {
        ActionGame {
            game: self.game.clone(),
            pending: self.pending.clone(),
            playable: self.playable.clone(),
            outcome: self.outcome.clone(),
        }
    }

    fn __copy__(&self) -> ActionGame {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> ActionGame {
        self.clone()
    }

    /// The position, then the move being made if one is.
    fn __str__(&self) -> String {
        match &self.pending {
            Some(pending) => format!("{} (move {} begun)", self.position(), pending.mv),
            None => self.position(),
        }
    }

    fn __repr__(&self) -> String {
        format!("ActionGame({:?})", self.__str__())
    }
}
