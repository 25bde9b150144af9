//! `isolo-ai play`: a human plays the engine in the terminal.

use isolo_engine::search::wdl::{answer_draw_offer, chances_reason, wdl_of};
use std::io::{self, IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;

use clap::Args;

use super::{emit, emit_prose, terminal_width, wrap_command};
use super::{CliError, CliResult, PositionArgs};
use std::time::Instant;

use isolo_engine::channel::{self, Line};
use isolo_engine::matches::engine::EngineSpec;
use isolo_engine::search::clock::{Clock, TimeControl};
use isolo_engine::search::level::Level;
use isolo_engine::search::{searched_moves, Past, Progress};
use isolo_rules::{flag_fall_in_words, resignation_in_words};
use isolo_rules::{Board, Game, Move, MoveWalk, Outcome, Side, Variant};

mod mid_move;
use mid_move::{MidMove, Seats, Stop, Turn};

#[derive(Args, Debug)]
pub(crate) struct PlayArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// The engine to play against (random, greedy, ab:time-ms=1000, mcts:iters=20000, ...)
    #[arg(long, default_value = "ab:time-ms=1000")]
    pub engine: String,
    /// The side you play: S or N
    #[arg(long = "as", default_value = "S")]
    pub side: String,
    /// Seed for the engine's random choices
    #[arg(long, default_value_t = 0, value_parser = super::ranges::SEED)]
    pub seed: u64,
    /// The engine's strength level, 1 (weakest) to 8 (full strength, the default): as
    /// the engine key level=N
    #[arg(long, value_parser = super::ranges::LEVEL)]
    pub level: Option<u8>,
    /// Play on a clock, both sides: SECONDS+INCREMENT (e.g. 300+5); the engine manages
    /// its time, and a side whose clock runs out loses
    #[arg(long, value_name = "BASE+INC")]
    pub tc: Option<String>,
    /// Moves played first, from the position (or the start): the game goes on after
    /// them, and they stay in its record and its review
    #[arg(long, value_name = "\"M1 M2 ...\"", allow_hyphen_values = true)]
    pub moves: Option<String>,
    /// With --tc, the time left on each clock, South's then North's, in seconds (e.g.
    /// 312.7,300): a game continued as it stood
    #[arg(long, value_name = "SOUTH,NORTH")]
    pub left: Option<String>,
}

const HELP: &str = "Type a pit number to move (with x/p letters for capture choices where they are optional, a/c for a lap's direction where laps may turn), or: moves, hint, undo, draw (offer one), resign, quit\n";

const RETREAT_HELP: &str = "Under the retreat, type your move up to a pass (7p) or with the answers you expect (7ps): the engine answers each pass, and where it answers otherwise you go on from there. You are asked for your answer to each of the engine's passes.\n";

pub(crate) fn run(args: &PlayArgs) -> CliResult {
    let variant = Variant::load(&args.position.variant)?;
    let mut game = args.position.game(&variant, args.moves.as_deref())?;
    let human = match args.side.to_ascii_uppercase().as_str() {
        "S" => Side::South,
        "N" => Side::North,
        other => return Err(CliError(format!("--as: expected S or N, found '{other}'"))),
    };
    let mut spec =
        EngineSpec::parse(&args.engine).map_err(|e| CliError(format!("--engine: {e}")))?;
    if let Some(n) = args.level {
        if !spec.level.is_top() {
            return Err(CliError(format!(
                "--level: the engine '{}' has a level of its own (level={}); give it once",
                args.engine,
                spec.level.number()
            )));
        }
        if !spec.searches() {
            return Err(CliError(format!(
                "--level: engine '{spec}' has no levels (ab and mcts have)"
            )));
        }
        spec.level = Level::new(n).expect("a level in range");
    }
    let at_level = if spec.level.is_top() {
        String::new()
    } else {
        format!(" at {}", spec.level.describe(&variant, spec.is_mcts()))
    };
    let mut bot = spec
        .bot(args.seed)
        .map_err(|e| CliError(format!("--engine: {e}")))?;
    let full_strength = EngineSpec {
        level: Level::default(),
        ..spec.clone()
    };
    let mut hinter = full_strength
        .bot(args.seed)
        .map_err(|e| CliError(format!("--engine: {e}")))?;
    let control = match &args.tc {
        Some(text) => Some(
            text.parse::<TimeControl>()
                .map_err(|e| CliError(format!("--tc: {e}")))?,
        ),
        None => None,
    };
    let interrupt = super::interrupt::flag();
    bot.stop_on(interrupt);
    hinter.stop_on(interrupt);
    let mut clocks = [control.map(|c| Clock::start(&c)); 2];
    if let Some(text) = &args.left {
        set_left(&mut clocks, text)?;
    }
    let mut seats = Seats {
        bot,
        hinter,
        clocks,
        lines: read_lines_in_background(),
        interrupt,
        // In a terminal the clock line above the prompt is redrawn while the player
        // thinks.
        live_clock: control.is_some() && io::stdout().is_terminal(),
    };
    // Under the retreat each side is asked for its answers inside the other's move.
    let answers = variant.move_letters().answers;
    let on_clock = control
        .map(|c| format!(", {c} s on each clock"))
        .unwrap_or_default();
    emit_prose(&format!(
        "You play {human} against {spec}{at_level}{on_clock}. {HELP}"
    ))?;
    if answers {
        emit_prose(RETREAT_HELP)?;
    }
    if game.plies() == 0 && game.start() == &variant.start() {
        if let Some(words) = isolo_engine::prove::known::start_in_words(&variant) {
            emit_prose(&format!("Note: {words}.\n"))?;
        }
    }
    let mut thinking = Instant::now();
    // The board is drawn once a position: a hint, a list of moves or a refused move
    // stays on the screen under it.
    let mut drawn_at = None;
    loop {
        let board = *game.board();
        // (The clocks start with the game's first move, as on the page: the first
        // mover's stands till then.)
        let timed = game.plies() > 0;
        if drawn_at != Some(game.plies()) {
            drawn_at = Some(game.plies());
            emit(&super::show::draw_for(
                &variant,
                &board,
                game.outcome().as_ref(),
                human,
            ))?;
            // (A game that ended there says why in its own words.)
            let sealed = game.outcome().is_none().then(|| game.sealed_by_last_move());
            if let Some(words) = sealed.flatten() {
                emit_prose(&format!("Note: {words}.\n"))?;
            }
            if let Some(words) = game.long_game_warning() {
                emit_prose(&format!("Note: {words}.\n"))?;
            }
        }
        // (While the player thinks their clock runs: a line after a hint shows it; a
        // clock just started shows what it started with.)
        let clocks = if timed && board.to_move() == human && thinking.elapsed() >= INPUT_POLL {
            clocks_now(&seats.clocks, human, thinking)
        } else {
            seats.clocks
        };
        if control.is_some() {
            emit(&clock_line(&clocks, timed))?;
        }
        if let Some(outcome) = game.outcome() {
            return finished(args, &variant, &game, &outcome, human);
        }
        if board.to_move() != human {
            let started = Instant::now();
            let own = seats.clocks[board.to_move() as usize];
            let choice = seats.bot.choose(
                &variant,
                &board,
                Past::of(&game),
                own.as_ref(),
                &mut |_: &Progress| {},
            );
            if interrupt.load(Ordering::Relaxed) {
                let clocks = if timed {
                    clocks_now(&seats.clocks, board.to_move(), started)
                } else {
                    seats.clocks
                };
                return interrupted(args, &game, &clocks);
            }
            let Some(choice) = choice else {
                return Err(CliError("the engine found no move".into()));
            };
            let plan = choice.played.mv.clone();
            let (played, answering) = if answers {
                let turn = Turn { started, timed };
                let mut mid =
                    MidMove::new(&variant, board, Past::of(&game), human, &mut seats, turn);
                match mid.settle_engine_move(plan.clone()) {
                    Ok(played) => (played, mid.answering_time),
                    Err(stop) => return stopped(args, &game, stop),
                }
            } else {
                (plan.clone(), Duration::ZERO)
            };
            let spent = started.elapsed().saturating_sub(answering);
            if timed && !charge(&mut seats.clocks, board.to_move(), spent) {
                return flag_fell(args, &game, &board, board.to_move());
            }
            // The score is the engine's plan's: under the retreat you may answer
            // otherwise.
            let score = choice.score.filter(|_| played == plan).map(|s| {
                let chances = chances_with_reason(&variant, s);
                let seeds = board.side_total(Side::South) + board.side_total(Side::North);
                format!(" ({} for it; its chances: {chances})", s.in_words(seeds))
            });
            let sown = variant
                .play_move(&board, &played)
                .map(|m| sown_words(m.laps, m.captured));
            emit_prose(&format!(
                "Engine plays {played}{}{}\n",
                score.unwrap_or_default(),
                sown.unwrap_or_default()
            ))?;
            game.play_move(&played)
                .map_err(|e| CliError(format!("the engine's move: {e}")))?;
            thinking = Instant::now();
            continue;
        }
        emit(&format!("Your move ({human}): "))?;
        let mut shown = clock_line(&clocks, timed);
        let live_clock = seats.live_clock && timed;
        let mut tick = || {
            if live_clock {
                let now = clock_line(&clocks_now(&seats.clocks, human, thinking), timed);
                if now != shown {
                    redraw_line_above(&now);
                    shown = now;
                }
            }
        };
        let line = match next_line(
            &seats.lines,
            interrupt,
            seats.clocks[human as usize].filter(|_| timed),
            thinking,
            &mut tick,
        ) {
            Typed::Line(line) => line,
            Typed::Dropped(problem) => {
                emit_prose(&format!("{problem}. Try again.\n"))?;
                continue;
            }
            Typed::End => return ended(args, &game, "\nEnd of input: game abandoned."),
            Typed::Error(e) => return Err(CliError(format!("cannot read input: {e}"))),
            Typed::FlagFell => return flag_fell(args, &game, &board, human),
            Typed::Interrupted => {
                let clocks = if timed {
                    clocks_now(&seats.clocks, human, thinking)
                } else {
                    seats.clocks
                };
                return interrupted(args, &game, &clocks);
            }
        };
        match line.trim().to_ascii_lowercase().as_str() {
            "" => continue,
            "quit" | "q" => return ended(args, &game, "Game abandoned."),
            "resign" => {
                let words = format!("{}.", resignation_in_words(human));
                return ended(args, &game, &words);
            }
            "draw" => {
                // The engine's own chances decide, searched as a hint is.
                let past = Past::of(&game);
                let choice = (seats.hinter).choose(&variant, &board, past, None, &mut |_| {});
                let Some(score) = choice.and_then(|c| c.score) else {
                    emit_prose("The engine declines your draw offer.\n")?;
                    continue;
                };
                let answer = answer_draw_offer(&variant, score);
                if answer.accepted {
                    return ended(args, &game, &answer.words);
                }
                emit_prose(&format!("{}\n", answer.words))?;
            }
            "help" | "?" => emit_prose(HELP)?,
            "moves" => emit(&list_moves(&variant, &board))?,
            "hint" => {
                // (A hint is the engine's best, whatever level it plays at.)
                let past = Past::of(&game);
                let choice =
                    seats
                        .hinter
                        .choose(&variant, &board, past, None, &mut |_: &Progress| {});
                if let Some(choice) = choice {
                    let score = choice.score.map(|s| {
                        let chances = chances_with_reason(&variant, s);
                        let seeds = board.side_total(Side::South) + board.side_total(Side::North);
                        format!(" ({} for you; your chances: {chances})", s.in_words(seeds))
                    });
                    emit_prose(&format!(
                        "Hint: {}{}\n",
                        choice.played.mv,
                        score.unwrap_or_default()
                    ))?;
                }
            }
            "undo" => undo(&mut game, human)?,
            text => {
                // A move begun is asked on, decision by decision (under the retreat
                // with the engine's answers).
                let split = begun_move(&variant, &board, text);
                let answering = if let Some(typed) = split {
                    let turn = Turn {
                        started: thinking,
                        timed,
                    };
                    let mut mid =
                        MidMove::new(&variant, board, Past::of(&game), human, &mut seats, turn);
                    let whole = match mid.settle_human_move(typed.clone()) {
                        Ok(whole) => whole,
                        Err(stop) => return stopped(args, &game, stop),
                    };
                    let answering = mid.answering_time;
                    if whole != typed {
                        emit_prose(&format!("You play {whole}\n"))?;
                    }
                    game.play_move(&whole)
                        .map_err(|e| CliError(format!("your move {whole}: {e}")))?;
                    answering
                } else if let Err(e) = game.play_text(text) {
                    emit_prose(&format!("{e}. Try again.\n"))?;
                    continue;
                } else {
                    Duration::ZERO
                };
                let spent = thinking.elapsed().saturating_sub(answering);
                if timed && !charge(&mut seats.clocks, human, spent) {
                    return flag_fell(args, &game, &board, human);
                }
            }
        }
    }
}

/// How often the wait for the human looks at the clock and at Ctrl-C.
const INPUT_POLL: Duration = Duration::from_millis(100);

/// What came of waiting for the human's next line.
enum Typed {
    Line(String),
    /// A line dropped by the bounded reader (too long, or not text): what to say.
    Dropped(String),
    End,
    Error(io::Error),
    /// The human's clock ran out while they were thinking.
    FlagFell,
    Interrupted,
}

/// Standard input's lines, read on a thread of their own so the game can watch the
/// clock and Ctrl-C while the human thinks; through the bounded reader that UGI uses, so
/// no line is held past its cap and one that is not text does not end the game.
fn read_lines_in_background() -> Receiver<io::Result<Line>> {
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        let mut input = io::stdin().lock();
        loop {
            let line = channel::read_line(&mut input);
            let end = matches!(line, Ok(Line::End) | Err(_));
            if end || send.send(line).is_err() {
                break;
            }
        }
    });
    receive
}

/// Rewrites the line above the cursor with `text` (its newline dropped) and puts the
/// cursor back where it was, so what the player is typing stays as it is.
fn redraw_line_above(text: &str) {
    let mut out = io::stdout().lock();
    // (A clock that cannot be redrawn is only a stale clock: the game goes on.)
    let _ = write!(out, "\x1b7\x1b[1A\r\x1b[2K{}\x1b8", text.trim_end());
    let _ = out.flush();
}

/// The human's next line, unless their clock (started at `thinking`) runs out or
/// Ctrl-C comes first; `tick` is called every `INPUT_POLL` while they think.
fn next_line(
    lines: &Receiver<io::Result<Line>>,
    interrupt: &AtomicBool,
    clock: Option<Clock>,
    thinking: Instant,
    tick: &mut dyn FnMut(),
) -> Typed {
    loop {
        if interrupt.load(Ordering::Relaxed) {
            return Typed::Interrupted;
        }
        if clock.is_some_and(|c| thinking.elapsed() > c.left) {
            return Typed::FlagFell;
        }
        match lines.recv_timeout(INPUT_POLL) {
            Ok(Ok(Line::Text(line))) => return Typed::Line(line),
            Ok(Ok(dropped)) => return Typed::Dropped(dropped.problem().unwrap_or_default()),
            Ok(Err(e)) => return Typed::Error(e),
            Err(RecvTimeoutError::Disconnected) => return Typed::End,
            Err(RecvTimeoutError::Timeout) => tick(),
        }
    }
}

/// The end of the game in words, who won, its moves and the command that reviews it.
fn finished(
    args: &PlayArgs,
    variant: &Variant,
    game: &Game,
    outcome: &Outcome,
    human: Side,
) -> CliResult {
    let verdict = match outcome.winner {
        Some(winner) if winner == human => " You win.",
        Some(_) => " The engine wins.",
        None => "",
    };
    let words = isolo_rules::in_words(outcome, variant, game.board());
    ended(args, game, &format!("Game over. {words}.{verdict}"))
}

/// A game's end (`words`), however it came: its moves and the command that reviews it.
fn ended(args: &PlayArgs, game: &Game, words: &str) -> CliResult {
    let moves = moves_text(game);
    let start = start_option(args);
    let review = if game.plies() == 0 {
        String::new()
    } else {
        let command = format!(
            "Review it: isolo-ai review --variant {}{start} --moves \"{moves}\"",
            shell_quote(&args.position.variant),
        );
        format!("{}\n", wrap_command(&command, terminal_width()))
    };
    emit_prose(&format!("{words}\nMoves: {moves}\n"))?;
    emit(&review)
}

/// What a move sowed, for the line that reports it: `: 3 laps, 5 seeds captured`.
fn sown_words(laps: u32, captured: u32) -> String {
    let laps = super::plural(laps.into(), "lap", "laps");
    if captured == 0 {
        format!(": {laps}")
    } else {
        let seeds = super::plural(captured.into(), "seed", "seeds");
        format!(": {laps}, {seeds} captured")
    }
}

/// The game's moves, or "none".
fn moves_text(game: &Game) -> String {
    let moves: Vec<String> = game.moves().iter().map(|m| m.to_string()).collect();
    if moves.is_empty() {
        "none".to_string()
    } else {
        moves.join(" ")
    }
}

/// `text` as one shell word: as it is when plain, else in single quotes.
fn shell_quote(text: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_./:=,+".contains(c);
    if !text.is_empty() && text.chars().all(plain) {
        text.to_string()
    } else {
        format!("'{}'", text.replace('\'', "'\\''"))
    }
}

/// ` --position P` where the game was given a start position (`P` quoted for a
/// shell), else nothing: the commands that go on from a game or review it.
fn start_option(args: &PlayArgs) -> String {
    let start = args.position.position.as_ref();
    start.map_or_else(String::new, |p| format!(" --position {}", shell_quote(p)))
}

/// `--left SOUTH,NORTH`: the seconds left on each clock (which `--tc` must have set).
fn set_left(clocks: &mut [Option<Clock>; 2], text: &str) -> Result<(), CliError> {
    let bad = |why: &str| CliError(format!("--left: {why} (e.g. 312.7,300)"));
    let parts: Vec<&str> = text.split(',').collect();
    if parts.len() != 2 {
        return Err(bad(
            "expected South's and North's seconds left, comma-separated",
        ));
    }
    for (clock, part) in clocks.iter_mut().zip(parts) {
        let clock = clock.as_mut().ok_or_else(|| bad("it needs --tc"))?;
        let seconds: f64 = part.trim().parse().map_err(|_| {
            bad(&format!(
                "'{}' is not a number of seconds",
                isolo_rules::quote(part)
            ))
        })?;
        if !(0.0..=MAX_LEFT_SECONDS).contains(&seconds) || seconds == 0.0 {
            return Err(bad(&format!(
                "{seconds} s is not a time left (above 0, at most {MAX_LEFT_SECONDS} s)"
            )));
        }
        clock.left = Duration::from_secs_f64(seconds);
    }
    Ok(())
}

/// The most seconds `--left` puts on a clock: a week.
const MAX_LEFT_SECONDS: f64 = 7.0 * 24.0 * 3600.0;

/// The command that goes on from `game` with every setting of this one: the variant
/// (or rules file), the game's start and its moves (so its record and review stay
/// whole), the engine, its level, the clock with the time each side has left, the seed
/// and the side.
fn continue_command(args: &PlayArgs, game: &Game, clocks: &[Option<Clock>; 2]) -> String {
    let mut command = format!(
        "isolo-ai play --variant {}",
        shell_quote(&args.position.variant)
    );
    command.push_str(&start_option(args));
    if game.plies() > 0 {
        command.push_str(&format!(" --moves {}", shell_quote(&moves_text(game))));
    }
    command.push_str(&format!(" --engine {}", shell_quote(&args.engine)));
    if let Some(level) = args.level {
        command.push_str(&format!(" --level {level}"));
    }
    if let Some(tc) = &args.tc {
        command.push_str(&format!(" --tc {}", shell_quote(tc)));
    }
    if let [Some(south), Some(north)] = clocks {
        let seconds = |c: &Clock| format!("{:.1}", c.left.as_secs_f64());
        command.push_str(&format!(" --left {},{}", seconds(south), seconds(north)));
    }
    command.push_str(&format!(" --seed {} --as {}", args.seed, args.side));
    command
}

/// After Ctrl-C: the game so far, and how to go on from it; the interrupted status.
fn interrupted(args: &PlayArgs, game: &Game, clocks: &[Option<Clock>; 2]) -> CliResult {
    emit_prose(&format!(
        "\nGame interrupted after {}. Moves: {}\n",
        super::plural(game.plies() as u64, "ply", "plies"),
        moves_text(game),
    ))?;
    let command = format!("Continue with: {}", continue_command(args, game, clocks));
    emit(&format!("{}\n", wrap_command(&command, terminal_width())))?;
    std::process::exit(super::interrupt::exit_status())
}

/// The least a clock shows as left when a game is cut: a tenth of a second, which a
/// continued game can start with.
const LEAST_LEFT: Duration = Duration::from_millis(100);

/// The clocks as they stand `since` the side to move began thinking: its running time
/// taken off (never below `LEAST_LEFT`).
fn clocks_now(clocks: &[Option<Clock>; 2], to_move: Side, since: Instant) -> [Option<Clock>; 2] {
    let mut now = *clocks;
    if let Some(clock) = now[to_move as usize].as_mut() {
        clock.left = clock.left.saturating_sub(since.elapsed()).max(LEAST_LEFT);
    }
    now
}

/// The move `text` begins: a legal move, or one begun that is asked on decision by
/// decision (under the retreat, the sides deciding in turn); `None` for anything else
/// (the game's own error explains it).
fn begun_move(variant: &Variant, board: &Board, text: &str) -> Option<Move> {
    let typed = variant.parse_move(text).ok()?;
    let whole = variant.play_move(board, &typed).is_some();
    (whole
        || variant
            .move_begun(board, &typed, &mut MoveWalk::new())
            .is_some())
    .then_some(typed)
}

/// The chances of a score in words, with why where they say a draw beside a lead
/// (`chances_reason`): "win 0%, draw 100%, loss 0%: in the engine's games under these rules...".
fn chances_with_reason(variant: &Variant, score: isolo_engine::search::Score) -> String {
    let chances = wdl_of(variant, score).chances_text();
    match chances_reason(variant, score) {
        Some(reason) => format!("{chances}: {reason}"),
        None => chances,
    }
}

/// The end of a game whose `side` ran out of time at `board`: a loss, or a draw where
/// the other side could never win there (`flag_fall_in_words`).
fn flag_fell(args: &PlayArgs, game: &Game, board: &Board, side: Side) -> CliResult {
    let words = flag_fall_in_words(game.variant(), board, side);
    ended(args, game, &format!("\n{words}."))
}

/// How a game stopped in the middle of a move ends.
fn stopped(args: &PlayArgs, game: &Game, stop: Stop) -> CliResult {
    match stop {
        Stop::Quit => ended(args, game, "Game abandoned."),
        Stop::End => ended(args, game, "\nEnd of input: game abandoned."),
        Stop::FlagFell(side) => flag_fell(args, game, game.board(), side),
        Stop::Interrupted(clocks) => interrupted(args, game, &clocks),
        Stop::Failed(e) => Err(e),
    }
}

/// Charges `spent` to `side`'s clock and adds its increment; false if the clock ran
/// out.
fn charge(clocks: &mut [Option<Clock>; 2], side: Side, spent: Duration) -> bool {
    let Some(clock) = clocks[side as usize].as_mut() else {
        return true;
    };
    if spent > clock.left {
        return false;
    }
    clock.spend(spent);
    true
}

/// `Clocks: South 4:58.2, North 5:00.0`, and before the game's first move (`timed`
/// false) that they start with it.
fn clock_line(clocks: &[Option<Clock>; 2], timed: bool) -> String {
    let shown = |c: &Option<Clock>| {
        let tenths = c.map_or(0, |c| c.left.as_millis() / 100);
        format!("{}:{:02}.{}", tenths / 600, tenths / 10 % 60, tenths % 10)
    };
    let waiting = if timed {
        ""
    } else {
        " (they start with the first move)"
    };
    format!(
        "Clocks: South {}, North {}{waiting}\n",
        shown(&clocks[0]),
        shown(&clocks[1])
    )
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
    emit_prose(&format!("Took back: {}\n", taken.join(" ")))
}
