//! `isolo-ai play`: a human plays the engine in the terminal.

use std::io::{self, BufRead};

use clap::Args;

use super::{emit, CliError, CliResult, PositionArgs};
use isolo_ai::engine::EngineSpec;
use isolo_ai::rules::{Board, Game, Outcome, Side, Variant};
use isolo_ai::search::{searched_moves, Progress};

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

pub fn run(args: &PlayArgs) -> CliResult {
    let (variant, start) = args.position.load()?;
    let human = match args.side.to_ascii_uppercase().as_str() {
        "S" => Side::South,
        "N" => Side::North,
        other => return Err(CliError(format!("--as: expected S or N, found '{other}'"))),
    };
    let spec = EngineSpec::parse(&args.engine).map_err(|e| CliError(format!("--engine: {e}")))?;
    let mut bot = spec
        .bot(args.seed)
        .map_err(|e| CliError(format!("--engine: {e}")))?;
    let mut game = Game::new(&variant, start);
    let stdin = io::stdin();
    let mut lines = stdin.lock().lines();
    emit(&format!("You play {human} against {spec}. {HELP}"))?;
    loop {
        let board = *game.board();
        emit(&super::show::draw(&variant, &board))?;
        match game.outcome() {
            Some(Outcome {
                winner: Some(winner),
                ..
            }) => {
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
            Some(_) => return emit("Draw: the position has occurred three times.\n"),
            None => {}
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
            game.play_move(&choice.played.mv)
                .map_err(|e| CliError(format!("the engine's move: {e}")))?;
            continue;
        }
        emit(&format!("Your move ({human}): "))?;
        let Some(line) = lines.next() else {
            return emit("\nEnd of input: game abandoned.\n");
        };
        let line = line.map_err(|e| CliError(format!("cannot read input: {e}")))?;
        match line.trim().to_ascii_lowercase().as_str() {
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
            text => {
                if let Err(e) = game.play_text(text) {
                    emit(&format!("{e}. Try again.\n"))?;
                }
            }
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

/// Takes back the human's last move and the engine's replies to it; an engine's move
/// made before the human's first is never taken back.
fn undo(game: &mut Game, human: Side) -> CliResult {
    let Some(last_own) = (0..game.plies())
        .rev()
        .find(|&ply| game.positions()[ply].to_move() == human)
    else {
        return emit("Nothing to undo.\n");
    };
    let mut taken = Vec::new();
    while game.plies() > last_own {
        taken.extend(game.undo());
    }
    taken.reverse();
    let taken: Vec<String> = taken.iter().map(|m| m.to_string()).collect();
    emit(&format!("Took back: {}\n", taken.join(" ")))
}
