//! Moves that both sides decide, under the retreat (RULES.md 3.4): in `play`, the
//! human is asked for each answer to the engine's passes, and the engine for each
//! answer to the human's, as matches ask each player (`search::answer`).

use std::io;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

use isolo_engine::channel::Line;
use isolo_engine::matches::engine::Bot;
use isolo_engine::search::answer::settle_answers;
use isolo_engine::search::clock::Clock;
use isolo_engine::search::Past;
use isolo_rules::{Board, Choice, Decision, DecisionKind, Move, MoveStep, MoveWalk, Side, Variant};

use super::{next_line, Typed};
use crate::cli::{emit, emit_prose, CliError};

/// Why a move was not settled: the game stops there.
pub(super) enum Stop {
    /// The human typed `quit`.
    Quit,
    /// Standard input ended.
    End,
    /// This side's clock ran out.
    FlagFell(Side),
    /// Ctrl-C, with the clocks as they stood.
    Interrupted([Option<Clock>; 2]),
    /// The engine failed, or output or input did.
    Failed(CliError),
}

impl From<CliError> for Stop {
    fn from(e: CliError) -> Self {
        Stop::Failed(e)
    }
}

/// The engine and the human at the table: the engine as it plays and at full strength
/// (for hints), both clocks (South's, North's), the human's input and Ctrl-C.
pub(super) struct Seats {
    pub bot: Bot,
    pub hinter: Bot,
    pub clocks: [Option<Clock>; 2],
    pub lines: Receiver<io::Result<Line>>,
    pub interrupt: &'static AtomicBool,
    /// Whether the clock line above a prompt is redrawn while the human thinks (a
    /// terminal, on a clock).
    pub live_clock: bool,
}

/// The turn a move is made in: when it began, and whether the clocks run (from the
/// game's first move on).
#[derive(Clone, Copy)]
pub(super) struct Turn {
    pub started: Instant,
    pub timed: bool,
}

/// What asking each side inside a move needs: the position the move is made from and
/// the game's positions before it, the human's side, and the seats.
pub(super) struct MidMove<'a> {
    variant: &'a Variant,
    board: Board,
    past: Past<'a>,
    human: Side,
    seats: &'a mut Seats,
    turn: Turn,
    /// The time the side not to move spent answering, which the mover's clock does
    /// not pay.
    pub answering_time: Duration,
}

const ANSWER_HELP: &str = "Type r to retreat (your front pit's seeds go to the pit behind it, out of the capture's reach) or s to stay, or: hint, quit\n";

const REST_HELP: &str = "Type the rest of your move's letters (x/p for a capture, a/c for a lap's direction, o/l to sow a clockwise capture on or leave it; under the retreat r/s for the engine's answers you expect), or the whole move, or: hint, quit\n";

impl<'a> MidMove<'a> {
    /// Asking each side inside the move from `board` (`past`: the game before it), made
    /// in `turn`.
    pub(super) fn new(
        variant: &'a Variant,
        board: Board,
        past: Past<'a>,
        human: Side,
        seats: &'a mut Seats,
        turn: Turn,
    ) -> MidMove<'a> {
        MidMove {
            variant,
            board,
            past,
            human,
            seats,
            turn,
            answering_time: Duration::ZERO,
        }
    }

    /// The engine's move `plan`, its answers only what it expects, as the human
    /// answers each of its passes; where the human answers otherwise the engine goes on
    /// from there.
    pub(super) fn settle_engine_move(&mut self, plan: Move) -> Result<Move, Stop> {
        let (variant, board) = (self.variant, self.board);
        settle_answers(variant, &board, plan, &mut |partial, answering| {
            if answering {
                let answer = self.human_answers(partial)?;
                let mut answered = partial.clone();
                // (`settle_answers` reads only the answer; the engine decides the rest.)
                answered.choices.push(answer);
                Ok(answered)
            } else {
                self.engine_completes(partial, false)
            }
        })
    }

    /// The human's move begun as `typed` (a whole move, or one half made), the engine
    /// asked for each answer to its passes, the human for the rest of the move wherever
    /// it is not yet whole.
    pub(super) fn settle_human_move(&mut self, mut typed: Move) -> Result<Move, Stop> {
        let mut settled = 0;
        loop {
            let planned = (typed.choices.iter().skip(settled))
                .position(|c| c.is_answer())
                .map(|i| i + settled);
            let at = match planned {
                Some(at) => at,
                None => match self.step(&typed) {
                    None => return Ok(typed),
                    Some(MoveStep::Answer(_)) => typed.choices.len(),
                    Some(_) => {
                        typed = self.human_goes_on(&typed)?;
                        continue;
                    }
                },
            };
            let partial = Move {
                pit: typed.pit,
                choices: typed.choices[..at].to_vec(),
            };
            let answer = self.engine_completes(&partial, true)?.choices[at];
            emit_prose(&format!(
                "The engine {} (after {partial}).\n",
                if answer == Choice::Retreat {
                    "retreats: its front pit's seeds go to the pit behind it"
                } else {
                    "stays"
                }
            ))?;
            settled = at + 1;
            if typed.choices.get(at) == Some(&answer) {
                continue;
            }
            typed = partial;
            typed.choices.push(answer);
            if self.variant.play_move(&self.board, &typed).is_none() {
                typed = self.human_goes_on(&typed)?;
            }
        }
    }

    /// Where `partial` stops, a decision still to come; `None` once it is whole.
    fn step(&self, partial: &Move) -> Option<MoveStep> {
        (self.variant).move_begun(&self.board, partial, &mut MoveWalk::new())
    }

    /// The engine's whole move from `partial`, it answering (`answering`) or going on
    /// with its own move; an answer's time comes off its clock (no increment), else it
    /// counts in its move's.
    fn engine_completes(&mut self, partial: &Move, answering: bool) -> Result<Move, Stop> {
        let engine = self.human.opponent();
        let started = Instant::now();
        let clock = self.seats.clocks[engine as usize];
        let whole = self.seats.bot.complete(
            self.variant,
            &self.board,
            self.past,
            partial,
            clock.as_ref(),
        );
        if self.seats.interrupt.load(Ordering::Relaxed) {
            return Err(Stop::Interrupted(self.seats.clocks));
        }
        if answering && self.turn.timed {
            self.spend_answering(engine, started.elapsed())?;
        }
        whole.ok_or_else(|| {
            Stop::Failed(CliError(format!("the engine could not complete {partial}")))
        })
    }

    /// Takes an answer's `spent` time off `side`'s clock, with no increment.
    fn spend_answering(&mut self, side: Side, spent: Duration) -> Result<(), Stop> {
        self.answering_time += spent;
        let Some(clock) = self.seats.clocks[side as usize].as_mut() else {
            return Ok(());
        };
        if spent > clock.left {
            return Err(Stop::FlagFell(side));
        }
        clock.left -= spent;
        Ok(())
    }

    /// The human's answer to the engine's pass that ends `partial`, asked with the
    /// board as sown up to it.
    fn human_answers(&mut self, partial: &Move) -> Result<Choice, Stop> {
        let decision = self.variant.decision_at(&self.board, partial);
        let Some(decision) = decision.filter(|d| d.kind == DecisionKind::Answer) else {
            return Err(Stop::Failed(CliError(format!(
                "the engine's move {partial} does not stop at an answer"
            ))));
        };
        emit_prose(&format!(
            "The engine's move so far, {partial}; the board as sown so far:\n"
        ))?;
        self.show_decision(&decision)?;
        let started = Instant::now();
        loop {
            self.prompt("Your answer (r/s): ", Some(started))?;
            let line = self.read_line(Some(started))?;
            match line.as_str() {
                "r" | "retreat" => break self.answered(started, Choice::Retreat),
                "s" | "stay" => break self.answered(started, Choice::Stay),
                "hint" => {
                    let hint = self.hint(partial);
                    let answer = hint.map(|whole| whole.choices[partial.choices.len()]);
                    match answer {
                        Some(Choice::Retreat) => emit("Hint: r (retreat)\n")?,
                        Some(_) => emit("Hint: s (stay)\n")?,
                        None => emit("No hint.\n")?,
                    }
                }
                _ => emit_prose(ANSWER_HELP)?,
            }
        }
    }

    /// A decision as the page shows it: the board as sown up to it, and its question
    /// naming the lap's end and the pits and seeds at stake.
    fn show_decision(&self, decision: &Decision) -> Result<(), Stop> {
        let board = &decision.board;
        emit(&crate::cli::show::draw_pits_for(
            self.variant,
            board,
            self.human,
        ))?;
        emit_prose(&format!("{}\n", decision.question()))?;
        Ok(())
    }

    /// `answer`, its time since `started` taken off the human's clock.
    fn answered(&mut self, started: Instant, answer: Choice) -> Result<Choice, Stop> {
        if self.turn.timed {
            self.spend_answering(self.human, started.elapsed())?;
        }
        Ok(answer)
    }

    /// The clocks as they stand now inside the move: the human's running since the
    /// answer it gives was asked (`answer_asked`), else since its turn began, less the
    /// engine's answers meanwhile; as they stood before the game's first move.
    fn clocks_now(&self, answer_asked: Option<Instant>) -> [Option<Clock>; 2] {
        let mut clocks = self.seats.clocks;
        if let (true, Some(clock)) = (self.turn.timed, clocks[self.human as usize].as_mut()) {
            let spent = match answer_asked {
                Some(asked) => asked.elapsed(),
                None => (self.turn.started.elapsed()).saturating_sub(self.answering_time),
            };
            clock.left = clock.left.saturating_sub(spent).max(super::LEAST_LEFT);
        }
        clocks
    }

    /// `text` asked, under the clocks' line where there are clocks (redrawn while the
    /// human thinks, in a terminal).
    fn prompt(&self, text: &str, answer_asked: Option<Instant>) -> Result<(), Stop> {
        if self.seats.clocks[0].is_some() {
            emit(&super::clock_line(
                &self.clocks_now(answer_asked),
                self.turn.timed,
            ))?;
        }
        emit(text)?;
        Ok(())
    }

    /// The human's move from `partial` on, typed as its remaining letters or as the
    /// whole move; asked again until it is a legal move or one half made that goes on
    /// from `partial`.
    fn human_goes_on(&mut self, partial: &Move) -> Result<Move, Stop> {
        if let Some(decision) = self.variant.decision_at(&self.board, partial) {
            emit_prose(&format!(
                "Your move so far, {partial}; the board as sown so far:\n"
            ))?;
            self.show_decision(&decision)?;
        }
        loop {
            self.prompt(&format!("Your move goes on from {partial}: "), None)?;
            let line = self.read_line(None)?;
            if line == "hint" {
                match self.hint(partial) {
                    Some(whole) => emit(&format!("Hint: {whole}\n"))?,
                    None => emit("No hint.\n")?,
                }
                continue;
            }
            let whole_typed = line.starts_with(|c: char| c.is_ascii_digit());
            let text = if whole_typed {
                line
            } else {
                format!("{partial}{line}")
            };
            let typed = match self.variant.parse_move(&text) {
                Ok(typed) => typed,
                Err(e) => {
                    emit_prose(&format!("{e}. {REST_HELP}"))?;
                    continue;
                }
            };
            let legal = self.variant.play_move(&self.board, &typed).is_some()
                || self.step(&typed).is_some();
            if typed.goes_on_from(partial) && legal {
                return Ok(typed);
            }
            emit_prose(&format!(
                "{typed} does not go on legally from {partial}. {REST_HELP}"
            ))?;
        }
    }

    /// The engine's completion of `partial` at full strength, for a hint.
    fn hint(&mut self, partial: &Move) -> Option<Move> {
        (self.seats.hinter).complete(self.variant, &self.board, self.past, partial, None)
    }

    /// The human's next line, lower-cased and trimmed, its clock running since the
    /// answer was asked (`answer_asked`), else since its turn began (less the engine's
    /// answers); blank and dropped lines are asked again.
    fn read_line(&mut self, answer_asked: Option<Instant>) -> Result<String, Stop> {
        loop {
            // (The clock at the turn's start, and the time that does not count added.)
            let clock = self.seats.clocks[self.human as usize]
                .filter(|_| self.turn.timed)
                .map(|mut c| {
                    if answer_asked.is_none() {
                        c.left += self.answering_time;
                    }
                    c
                });
            let since = answer_asked.unwrap_or(self.turn.started);
            let mut shown = String::new();
            let live = self.seats.live_clock && self.turn.timed;
            let mut tick = || {
                if live {
                    let now = super::clock_line(&self.clocks_now(answer_asked), true);
                    if now != shown {
                        super::redraw_line_above(&now);
                        shown = now;
                    }
                }
            };
            match next_line(
                &self.seats.lines,
                self.seats.interrupt,
                clock,
                since,
                &mut tick,
            ) {
                Typed::Line(line) => {
                    let line = line.trim().to_ascii_lowercase();
                    match line.as_str() {
                        "" => emit("? ")?,
                        "quit" | "q" => return Err(Stop::Quit),
                        _ => return Ok(line),
                    }
                }
                Typed::Dropped(problem) => emit_prose(&format!("{problem}. Try again.\n"))?,
                Typed::End => return Err(Stop::End),
                Typed::Error(e) => {
                    return Err(Stop::Failed(CliError(format!("cannot read input: {e}"))))
                }
                Typed::FlagFell => return Err(Stop::FlagFell(self.human)),
                Typed::Interrupted => return Err(Stop::Interrupted(self.clocks_now(answer_asked))),
            }
        }
    }
}
