//! `isolo-ai play`: a human plays the engine in the terminal.

use std::io::{self, BufRead};

use clap::Args;

use super::{emit, CliError, CliResult, PositionArgs};
use crate::engine::EngineSpec;
use crate::rules::{Board, LegalMove, Side, Variant};
use crate::search::{searched_moves, Progress};

/// Occurrences of a position (same side to move) that draw the game (RULES.md 3.6).
const DRAW_REPETITIONS: usize = 3;

#[derive(Args, Debug)]
pub struct PlayArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// The engine to play against (random, greedy, ab:time-ms=1000, mcts:iters=20000, ...)
    #[arg(long, default_value = "ab:time-ms=1000")]
    pub engine: String,
    /// The side you play: S or N
    #[arg(long = "as", default_value = "S")]
    pub side: String,
    /// Seed for the engine's random choices
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

const HELP: &str = "Type a pit number to move (with x/p letters for capture choices where they are optional), or: moves, hint, undo, quit\n";

/// The game so far: every position, the moves between them.
struct Game {
    boards: Vec<Board>,
    moves: Vec<String>,
}

impl Game {
    fn board(&self) -> &Board {
        self.boards.last().expect("a game has a position")
    }

    fn history(&self) -> Vec<u64> {
        self.boards[..self.boards.len() - 1]
            .iter()
            .map(|b| b.hash())
            .collect()
    }

    fn play(&mut self, played: &LegalMove) {
        self.moves.push(played.mv.to_string());
        self.boards.push(played.child);
    }

    fn repetitions(&self) -> usize {
        let now = self.board().hash();
        self.boards.iter().filter(|b| b.hash() == now).count()
    }
}

pub fn run(args: &PlayArgs) -> CliResult {
    let (variant, start) = args.position.load()?;
    let human = match args.side.as_str() {
        "S" => Side::South,
        "N" => Side::North,
        other => return Err(CliError(format!("--as: expected S or N, found '{other}'"))),
    };
    let spec = EngineSpec::parse(&args.engine).map_err(|e| CliError(format!("--engine: {e}")))?;
    let mut bot = spec
        .bot(args.seed)
        .map_err(|e| CliError(format!("--engine: {e}")))?;
    let mut game = Game {
        boards: vec![start],
        moves: Vec::new(),
    };
    let stdin = io::stdin();
    let mut lines = stdin.lock().lines();
    emit(&format!("You play {human} against {spec}. {HELP}"))?;
    loop {
        let board = *game.board();
        emit(&super::show::draw(&variant, &board))?;
        if variant.winner(&board).is_some() {
            let winner = board.to_move().opponent();
            let verdict = if winner == human {
                "You win"
            } else {
                "The engine wins"
            };
            return emit(&format!(
                "{verdict}: {} has no legal move.\n",
                board.to_move()
            ));
        }
        if game.repetitions() >= DRAW_REPETITIONS {
            return emit("Draw: the position has occurred three times.\n");
        }
        if board.to_move() != human {
            let choice = bot.choose(&variant, &board, &game.history(), &mut |_: &Progress| {});
            let Some(choice) = choice else {
                return Err(CliError("the engine found no move".into()));
            };
            let score = choice
                .search
                .as_ref()
                .and_then(|r| r.best())
                .map(|l| format!(" (score {} for it)", l.score));
            emit(&format!(
                "Engine plays {}{}\n",
                choice.played.mv,
                score.unwrap_or_default()
            ))?;
            game.play(&choice.played);
            continue;
        }
        emit(&format!("Your move ({human}): "))?;
        let Some(line) = lines.next() else {
            return emit("\nEnd of input: game abandoned.\n");
        };
        let line = line.map_err(|e| CliError(format!("cannot read input: {e}")))?;
        match line.trim() {
            "" => continue,
            "quit" | "q" => return emit("Game abandoned.\n"),
            "help" | "?" => emit(HELP)?,
            "moves" => emit(&list_moves(&variant, &board))?,
            "hint" => {
                let choice = bot.choose(&variant, &board, &game.history(), &mut |_: &Progress| {});
                if let Some(choice) = choice {
                    let score = choice
                        .search
                        .as_ref()
                        .and_then(|r| r.best())
                        .map(|l| format!(" (score {})", l.score));
                    emit(&format!(
                        "Hint: {}{}\n",
                        choice.played.mv,
                        score.unwrap_or_default()
                    ))?;
                }
            }
            "undo" => undo(&mut game, human)?,
            text => match variant.play_text(&board, text) {
                Ok(played) => game.play(&played),
                Err(e) => emit(&format!("{e}. Try again.\n"))?,
            },
        }
    }
}

/// The legal moves, one for each position they reach (take/pass sequences can run to
/// millions).
fn list_moves(variant: &Variant, board: &Board) -> String {
    let (moves, truncated) = searched_moves(variant, board);
    let more = if truncated { ", ... (more)" } else { "" };
    let moves: Vec<String> = moves
        .iter()
        .map(|m| {
            if m.captured > 0 {
                format!("{} (takes {})", m.mv, m.captured)
            } else {
                m.mv.to_string()
            }
        })
        .collect();
    format!("Legal moves: {}{more}\n", moves.join(", "))
}

/// Takes back moves until it is the human's turn again with one human move undone.
fn undo(game: &mut Game, human: Side) -> CliResult {
    let mut taken = Vec::new();
    while game.boards.len() > 1 {
        game.boards.pop();
        taken.push(game.moves.pop().unwrap_or_default());
        if game.board().to_move() == human {
            break;
        }
    }
    if taken.is_empty() {
        emit("Nothing to undo.\n")
    } else {
        taken.reverse();
        emit(&format!("Took back: {}\n", taken.join(" ")))
    }
}
