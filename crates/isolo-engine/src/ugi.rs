//! The engine side of UGI (the Universal Game Interface of the cutegames manager: UCI's
//! commands plus `query`), with the notation of RULES.md. A manager or GUI writes
//! commands, one a line; the engine answers on its output. A search runs on its own
//! thread, so `stop`, `isready` and `quit` are obeyed while it runs.
//!
//! Scores are from the side to move: `score seeds +3.40` (an estimate), `score win N` or
//! `score loss N` (proven, N plies to the end), `score draw`. Player 1 is South.

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use crate::channel::{self, Line};
use crate::eval::Weights;
use crate::matches::schedule::game_seed;
use crate::matches::settings::{SearchSettings, SearcherKind};
use crate::ranges::{self, Number, Range};
use crate::review::ReviewBudget;
use crate::search::answer::EndSearch;
use crate::search::clock::Clock;
use crate::search::level::Level;
use crate::search::wdl::WdlModel;
use crate::search::{searched_moves, Limits, Progress, Score, SearchRequest, Searcher};
use isolo_rules::{Board, Game, Interrupt, Move, Side, Variant};
use rand::rngs::SmallRng;
use rand::SeedableRng;

/// The engine's name in `id name`.
pub const ENGINE_NAME: &str = concat!("isolo-ai ", env!("CARGO_PKG_VERSION"));
/// The variant before any `setoption name Variant`.
pub const DEFAULT_VARIANT: &str = "isolo-boys";
/// "Until stopped": a year.
const INFINITE: Duration = Duration::from_secs(365 * 24 * 3600);

/// Where answers go: shared by the command loop and the search thread, one whole line
/// at a time.
pub type Output = Arc<Mutex<dyn Write + Send>>;

fn say(out: &Output, line: &str) {
    let mut out = out.lock().expect("output lock");
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

fn error(out: &Output, message: &str) {
    // (What the other side sent may hold control bytes: they are written as escapes.)
    let message = isolo_rules::escape_controls(message);
    say(out, &format!("info string error: {message}"));
}

/// The settings `setoption` changes.
#[derive(Clone, Debug)]
struct Settings {
    variant: Arc<Variant>,
    engine: SearcherKind,
    hash_mb: usize,
    threads: usize,
    multipv: usize,
    weights: Option<Weights>,
    seed: u64,
    /// Seeds a fortress's draw costs the engine (alpha-beta).
    contempt: i32,
    /// The strength level `Level` sets, played when `LimitStrength` is on.
    level: Level,
    limit_strength: bool,
    /// Whether `info` lines carry `wdl W D L` (per mille, the side to move's view).
    show_wdl: bool,
}

impl Settings {
    /// The level searches play at: `Level` with `LimitStrength` on, else the top.
    fn playing_level(&self) -> Level {
        if self.limit_strength {
            self.level
        } else {
            Level::default()
        }
    }
}

/// A search on its thread, and how to stop it.
struct Running {
    stop: Arc<AtomicBool>,
    /// Hands back the searcher, if the job used one (a perft does not).
    thread: JoinHandle<Option<Box<dyn Searcher + Send>>>,
    /// Set just before the search says `bestmove`.
    answered: Arc<AtomicBool>,
    /// The session's `generation` when it started.
    generation: u64,
}

/// The engine's state between commands.
struct Session {
    out: Output,
    settings: Settings,
    board: Board,
    /// Hashes of the positions before `board`, for repetitions.
    history: Vec<u64>,
    /// Plies in a row without a capture up to `board`, for the long-game rule.
    quiet_plies: u32,
    /// The game `position` set: its start and moves (`board` is where they lead), for
    /// `review`.
    game_start: Board,
    game_moves: Vec<Move>,
    /// A move half made under the retreat, last in `position`'s moves: from `board`, the
    /// letters so far, and whether the mover's opponent decides next (its answer).
    half: Option<(Move, bool)>,
    /// The searcher, kept between searches (alpha-beta's table lives across a game);
    /// `None` while a search has it or after a setting changed.
    searcher: Option<Box<dyn Searcher + Send>>,
    /// Counts the changes that make a searcher stale.
    generation: u64,
    running: Option<Running>,
    /// Searches started, for the seed of each one's level draws.
    searches: u64,
}

/// Runs the protocol until `quit` or the end of `input`.
pub fn run(input: impl BufRead, out: Output) {
    let variant = Arc::new(Variant::load(DEFAULT_VARIANT).expect("the presets load"));
    let mut session = Session {
        out,
        board: variant.start(),
        history: Vec::new(),
        quiet_plies: 0,
        game_start: variant.start(),
        game_moves: Vec::new(),
        half: None,
        settings: Settings {
            variant,
            engine: SearcherKind::AlphaBeta,
            hash_mb: ranges::DEFAULT_HASH_MB,
            threads: 1,
            multipv: 1,
            weights: None,
            seed: 0,
            contempt: ranges::CONTEMPT.default.unwrap_or_default(),
            level: Level::default(),
            limit_strength: false,
            show_wdl: true,
        },
        searcher: None,
        generation: 0,
        running: None,
        searches: 0,
    };
    let mut input = input;
    loop {
        let line = match channel::read_line(&mut input) {
            Ok(Line::Text(line)) => line,
            Ok(dropped @ (Line::NotText | Line::TooLong)) => {
                error(&session.out, &dropped.problem().unwrap_or_default());
                continue;
            }
            Ok(Line::End) | Err(_) => break,
        };
        if !session.handle(line.trim()) {
            break;
        }
    }
    session.finish_search();
}

/// A `setoption` number of `range`, refused in the option's name.
fn option_number<T: Number>(name: &str, value: &str, range: &Range<T>) -> Result<T, String> {
    range.parse(value).map_err(|e| format!("{name}: {e}"))
}

/// The value after `words[i]` of a `go` (or `review`) command, in `range`; the refusal
/// names the command and the parameter.
fn go_value<T: Number>(
    command: &str,
    words: &[&str],
    i: usize,
    range: &Range<T>,
) -> Result<T, String> {
    let word = words.get(i + 1).copied().unwrap_or("");
    range
        .parse(word)
        .map_err(|e| format!("{command}: {}: {e}", ranges::quote(words[i])))
}

/// The `option` line of a spin option over `range`.
fn spin<T: Number>(name: &str, range: &Range<T>) -> String {
    let default = range.default.unwrap_or(range.least);
    format!(
        "option name {name} type spin default {default} min {} max {}",
        range.least, range.most
    )
}

impl Session {
    /// Handles one command; false on `quit`.
    fn handle(&mut self, line: &str) -> bool {
        // A search that has said bestmove hands its searcher back (at once: saying it is
        // the last thing its thread does).
        if self
            .running
            .as_ref()
            .is_some_and(|r| r.answered.load(Ordering::SeqCst))
        {
            self.finish_search();
        }
        let mut words = line.split_whitespace();
        let Some(command) = words.next() else {
            return true;
        };
        let rest: Vec<&str> = words.collect();
        match command {
            "ugi" => self.identify(),
            "isready" => say(&self.out, "readyok"),
            // These change what the next search sees; a running one keeps its own copy.
            "setoption" => self.report(|s| s.set_option(&rest)),
            "uginewgame" => self.report(|s| {
                s.discard_searcher();
                s.back_to_start();
                Ok(())
            }),
            "position" => self.report(|s| s.set_position(&rest)),
            "go" => self.go(&rest),
            "stop" => self.finish_search(),
            "query" => self.query(&rest),
            "perft" => self.perft(&rest),
            "review" => self.review(&rest),
            "moves" => self.list_moves(),
            "quit" => {
                self.finish_search();
                return false;
            }
            other => error(&self.out, &format!("unknown command '{other}'")),
        }
        true
    }

    /// Runs a command, answering its error.
    fn report(&mut self, act: impl FnOnce(&mut Session) -> Result<(), String>) {
        if let Err(e) = act(self) {
            error(&self.out, &e);
        }
    }

    /// Forgets the searcher (its settings or its game changed), also the one a running
    /// search will hand back.
    fn discard_searcher(&mut self) {
        self.searcher = None;
        self.generation += 1;
    }

    fn identify(&self) {
        say(&self.out, &format!("id name {ENGINE_NAME}"));
        say(&self.out, "id author the isolo-ai developers");
        for option in [
            format!("option name Variant type string default {DEFAULT_VARIANT}"),
            "option name Engine type combo default ab var ab var mcts".to_string(),
            format!(
                "option name Hash type spin default {} min 1 max {}",
                ranges::DEFAULT_HASH_MB,
                crate::search::tt::max_table_mb()
            ),
            spin("Threads", &ranges::THREADS),
            spin("MultiPV", &ranges::MULTIPV),
            spin("Level", &ranges::LEVEL),
            "option name LimitStrength type check default false".to_string(),
            "option name ShowWDL type check default true".to_string(),
            "option name Weights type string default <empty>".to_string(),
            "option name Seed type string default 0".to_string(),
            spin("Contempt", &ranges::CONTEMPT),
        ] {
            say(&self.out, &option);
        }
        say(&self.out, "ugiok");
    }

    /// `setoption name NAME value VALUE` (names are case-insensitive). The searcher is
    /// built at once, its table allocated, so that settings this machine cannot give
    /// (a `Hash` in range that it cannot allocate) are refused here and the settings
    /// kept as they were, rather than at `go`, which must answer `bestmove`.
    fn set_option(&mut self, words: &[&str]) -> Result<(), String> {
        let before = self.settings.clone();
        self.apply_option(words)?;
        match self.new_searcher() {
            Ok(searcher) => {
                self.searcher = Some(searcher);
                Ok(())
            }
            Err(e) => {
                self.settings = before;
                Err(e)
            }
        }
    }

    /// Changes the setting `words` names, and forgets the searcher.
    fn apply_option(&mut self, words: &[&str]) -> Result<(), String> {
        let text = words.join(" ");
        let body = text
            .strip_prefix("name ")
            .ok_or("setoption: expected 'name NAME value VALUE'")?;
        // "name Level value" with nothing after it gives an empty value, not a name.
        let (name, value) = match body.split_once(" value ") {
            Some((n, v)) => (n.trim(), v.trim()),
            None => (body.strip_suffix(" value").unwrap_or(body).trim(), ""),
        };
        let check = |what: &str, value: &str| match value {
            "true" => Ok(true),
            "false" => Ok(false),
            _ => Err(format!("{what}: expected true or false, found '{value}'")),
        };
        match name.to_ascii_lowercase().as_str() {
            "variant" => {
                let variant = Variant::load(value).map_err(|e| format!("Variant: {e}"))?;
                self.settings.variant = Arc::new(variant);
                self.back_to_start();
            }
            "engine" => {
                self.settings.engine = SearcherKind::named(value).ok_or_else(|| {
                    format!(
                        "Engine: expected ab or mcts, found '{}'",
                        ranges::quote(value)
                    )
                })?
            }
            "hash" => {
                let mb = option_number("Hash", value, &ranges::HASH_MB)?;
                crate::search::tt::check_table_mb(mb).map_err(|e| format!("Hash: {e}"))?;
                self.settings.hash_mb = mb;
            }
            "threads" => self.settings.threads = option_number("Threads", value, &ranges::THREADS)?,
            "contempt" => {
                self.settings.contempt = option_number("Contempt", value, &ranges::CONTEMPT)?
            }
            "multipv" => self.settings.multipv = option_number("MultiPV", value, &ranges::MULTIPV)?,
            "level" => {
                let n = option_number("Level", value, &ranges::LEVEL)?;
                self.settings.level = Level::new(n).expect("a level in range");
            }
            "limitstrength" => self.settings.limit_strength = check("LimitStrength", value)?,
            "showwdl" => self.settings.show_wdl = check("ShowWDL", value)?,
            "weights" => {
                self.settings.weights = match value {
                    "" | "<empty>" => None,
                    choice => Weights::choose(choice).map_err(|e| e.to_string())?,
                }
            }
            "seed" => self.settings.seed = option_number("Seed", value, &ranges::SEED)?,
            other => return Err(format!("unknown option '{}'", ranges::quote(other))),
        }
        self.discard_searcher();
        Ok(())
    }

    /// `position startpos|fen ROWS SIDE [OVERTURE] [FIRST] [WON] [moves M...]`.
    fn set_position(&mut self, words: &[&str]) -> Result<(), String> {
        let variant = Arc::clone(&self.settings.variant);
        let moves_at = words.iter().position(|w| *w == "moves");
        let (spec, moves) = match moves_at {
            Some(i) => (&words[..i], &words[i + 1..]),
            None => (words, &[][..]),
        };
        let start = match spec {
            ["startpos"] => variant.start(),
            ["fen", fields @ ..] if !fields.is_empty() => variant
                .parse_position(&fields.join(" "))
                .map_err(|e| format!("position: {e}"))?,
            _ => {
                return Err(
                    "position: expected 'startpos' or 'fen ROWS SIDE [OVERTURE] [FIRST] [WON]'"
                        .into(),
                )
            }
        };
        let mut game = Game::new(&variant, start);
        let mut half = None;
        if let Err(e) = game.play_list(&moves.join(" ")) {
            // The last move may be half made (docs/UGI.md, "Moves half made").
            half = half_made_last(&game, moves, &e);
            if half.is_none() {
                return Err(format!("position: {e}"));
            }
        }
        self.half = half;
        self.board = *game.board();
        self.history = game.history();
        self.quiet_plies = game.quiet_plies();
        self.game_start = start;
        self.game_moves = game.into_moves();
        Ok(())
    }

    /// The variant's start, no move played.
    fn back_to_start(&mut self) {
        self.board = self.settings.variant.start();
        self.history.clear();
        self.quiet_plies = 0;
        self.game_start = self.board;
        self.game_moves.clear();
        self.half = None;
    }

    /// The side whose decision `go` asks for: the side to move, or the side answering
    /// its pass in a move half made.
    fn decider(&self) -> Side {
        match self.half {
            Some((_, true)) => self.board.to_move().opponent(),
            _ => self.board.to_move(),
        }
    }

    /// `review [nodes N] [depth D] [movetime T] [totaltime T]` (an extension): the game
    /// of the last `position` reviewed on the search thread (`totaltime`: in all, ms),
    /// one `info string review` line a move, then each side's accuracy and `info string
    /// review end`; `stop` cuts it short.
    fn review(&mut self, words: &[&str]) {
        if self.running.is_some() {
            return error(&self.out, "a search is running: send stop first");
        }
        let budgets = ["nodes", "depth", "movetime", "totaltime"];
        if let Some(other) = words.iter().step_by(2).find(|w| !budgets.contains(w)) {
            return error(&self.out, &format!("review: unknown parameter '{other}'"));
        }
        // The whole review's time apart, the rest a position's limits.
        let (mut position, mut total) = (Vec::new(), None);
        for pair in words.chunks(2) {
            if pair[0] == "totaltime" {
                match go_value("review", pair, 0, &ranges::REVIEW_TOTAL_MS) {
                    Ok(ms) => total = Some(Duration::from_millis(ms)),
                    Err(e) => return error(&self.out, &e),
                }
            } else {
                position.extend_from_slice(pair);
            }
        }
        if position.is_empty() {
            return error(
                &self.out,
                "review: give nodes, depth or movetime a position",
            );
        }
        let budget = match self.limits("review", &position) {
            Ok((limits, _, _)) => ReviewBudget {
                position: limits,
                total,
            },
            Err(e) => return error(&self.out, &e),
        };
        let mut searcher = match self.ready_searcher() {
            Ok(searcher) => searcher,
            Err(e) => return error(&self.out, &e),
        };
        let stop = Arc::new(AtomicBool::new(false));
        let answered = Arc::new(AtomicBool::new(false));
        let (out, variant) = (Arc::clone(&self.out), Arc::clone(&self.settings.variant));
        let (start, moves) = (self.game_start, self.game_moves.clone());
        let (done, halt) = (Arc::clone(&answered), Arc::clone(&stop));
        let thread = std::thread::spawn(move || {
            let mut game = Game::new(&variant, start);
            for mv in &moves {
                game.play_move(mv).expect("position checked the moves");
            }
            let reviewed = crate::review::review(
                &game,
                searcher.as_mut(),
                budget,
                &mut |_, _| {},
                Some(&halt),
            );
            for line in review_lines(&reviewed) {
                say(&out, &line);
            }
            done.store(true, Ordering::SeqCst);
            say(&out, "info string review end");
            Some(searcher)
        });
        self.running = Some(Running {
            stop,
            thread,
            answered,
            generation: self.generation,
        });
    }

    /// How the game stands by the rules, for `query`.
    fn outcome(&self) -> Option<isolo_rules::Outcome> {
        let history = self.history.iter().copied();
        let variant = &self.settings.variant;
        isolo_rules::rules_outcome(variant, &self.board, history)
            .or_else(|| isolo_rules::long_game_outcome(variant, &self.board, self.quiet_plies))
    }

    /// `query gameover|p1turn|result`.
    fn query(&self, words: &[&str]) {
        let answer = match words {
            ["gameover"] => self.outcome().is_some().to_string(),
            ["p1turn"] => (self.decider() == Side::South).to_string(),
            ["result"] => match self.outcome() {
                None => "none".into(),
                Some(o) => match o.winner {
                    Some(Side::South) => "p1win".into(),
                    Some(Side::North) => "p2win".into(),
                    None => "draw".into(),
                },
            },
            _ => return error(&self.out, "query: expected gameover, p1turn or result"),
        };
        say(&self.out, &format!("response {answer}"));
    }

    /// `perft N` (an extension): the leaf count to depth N, counted on a thread of its
    /// own so that `stop` (or `quit`) ends a deep one: `info string perft N nodes X`, or
    /// `info string perft N stopped`.
    fn perft(&mut self, words: &[&str]) {
        if self.running.is_some() {
            return error(&self.out, "a search is running: send stop first");
        }
        let depth = match words {
            [] => ranges::PERFT_DEPTH.parse(""),
            [n] => ranges::PERFT_DEPTH.parse(n),
            _ => return error(&self.out, "perft: expected one depth"),
        };
        let depth = match depth {
            Ok(depth) => depth,
            Err(e) => return error(&self.out, &format!("perft: depth: {e}")),
        };
        let stop = Arc::new(AtomicBool::new(false));
        let answered = Arc::new(AtomicBool::new(false));
        let (out, variant, board) = (
            Arc::clone(&self.out),
            Arc::clone(&self.settings.variant),
            self.board,
        );
        let (done, halt) = (Arc::clone(&answered), Arc::clone(&stop));
        let thread = std::thread::spawn(move || {
            let counted =
                isolo_rules::perft_until(&variant, &board, depth, &Interrupt::new(halt, None));
            done.store(true, Ordering::SeqCst);
            match counted {
                Some(nodes) => say(&out, &format!("info string perft {depth} nodes {nodes}")),
                None => say(&out, &format!("info string perft {depth} stopped")),
            }
            None
        });
        self.running = Some(Running {
            stop,
            thread,
            answered,
            generation: self.generation,
        });
    }

    /// `moves` (an extension): the searchers' list, one move per position.
    fn list_moves(&self) {
        let (moves, cut) = searched_moves(&self.settings.variant, &self.board);
        let list: Vec<String> = moves.iter().map(|m| m.mv.to_string()).collect();
        let more = if cut { " ..." } else { "" };
        say(
            &self.out,
            &format!("info string moves {}{more}", list.join(" ")),
        );
    }

    /// The limits of a `go` command (or of `review`, `command` naming it in errors), and
    /// whether they come from the clock alone (a move on the clock is not worth thinking
    /// over when it is the only one) and whether the search is `infinite` (its
    /// `bestmove` waits for `stop`).
    fn limits(&self, command: &str, words: &[&str]) -> Result<(Limits, bool, bool), String> {
        let mut limits = Limits::default();
        let mut clock = [None, None];
        let mut increment = [0u64, 0u64];
        let mut infinite = false;
        let mut i = 0;
        // Each value in its documented range (docs/UGI.md#ranges), or the command is refused.
        let number = |i: usize, range: &Range<u64>| go_value(command, words, i, range);
        let clock_ms = |i: usize| number(i, &ranges::CLOCK_MS);
        let mut seen: Vec<&str> = Vec::new();
        while i < words.len() {
            if seen.contains(&words[i]) {
                let twice = ranges::quote(words[i]);
                return Err(format!("{command}: '{twice}' given twice"));
            }
            seen.push(words[i]);
            match words[i] {
                "infinite" => {
                    infinite = true;
                    i += 1;
                    continue;
                }
                "p1time" => clock[0] = Some(clock_ms(i)?),
                "p2time" => clock[1] = Some(clock_ms(i)?),
                "p1inc" => increment[0] = clock_ms(i)?,
                "p2inc" => increment[1] = clock_ms(i)?,
                "movetime" => {
                    let ms = number(i, &ranges::TIME_MS)?;
                    limits.time = Some(Duration::from_millis(ms));
                }
                "nodes" => {
                    // (A review's nodes are a position's, within its own range.)
                    let range = if command == "review" {
                        &ranges::REVIEW_NODES
                    } else {
                        &ranges::NODES
                    };
                    limits.nodes = Some(number(i, range)?);
                }
                "depth" => limits.depth = Some(go_value(command, words, i, &ranges::DEPTH)?),
                other => {
                    let other = ranges::quote(other);
                    return Err(format!("{command}: unknown parameter '{other}'"));
                }
            }
            i += 2;
        }
        let mover = self.decider() as usize;
        let clocked = limits.is_unbounded() && !infinite && clock[mover].is_some();
        if let (None, Some(left)) = (limits.time, clock[mover]) {
            let clock = Clock {
                left: Duration::from_millis(left),
                increment: Duration::from_millis(increment[mover]),
            };
            limits = clock.limits(limits);
        }
        if infinite || limits.is_unbounded() {
            limits.time = Some(INFINITE);
        }
        Ok((limits, clocked, infinite))
    }

    /// `go ...`: starts a search on its own thread.
    fn go(&mut self, words: &[&str]) {
        if self.running.is_some() {
            return error(&self.out, "a search is running: send stop first");
        }
        let (limits, clocked, infinite) = match self.limits("go", words) {
            Ok(found) => found,
            Err(e) => return error(&self.out, &e),
        };
        let searcher = match self.ready_searcher() {
            Ok(searcher) => searcher,
            Err(e) => return error(&self.out, &e),
        };
        let stop = Arc::new(AtomicBool::new(false));
        let answered = Arc::new(AtomicBool::new(false));
        let job = SearchJob {
            answered: Arc::clone(&answered),
            out: Arc::clone(&self.out),
            variant: Arc::clone(&self.settings.variant),
            board: self.board,
            history: self.history.clone(),
            quiet_plies: self.quiet_plies,
            half: self.half.as_ref().map(|(mv, _)| mv.clone()),
            limits,
            clocked,
            infinite,
            multipv: self.settings.multipv,
            level: self.settings.playing_level(),
            mcts: self.settings.engine == SearcherKind::Mcts,
            wdl: self
                .settings
                .show_wdl
                .then(|| WdlModel::for_variant(&self.settings.variant).1),
            draws: SmallRng::seed_from_u64(game_seed(self.settings.seed, self.searches)),
            stop: Arc::clone(&stop),
            over: self.outcome().is_some(),
        };
        self.searches += 1;
        let thread = std::thread::spawn(move || Some(job.run(searcher)));
        self.running = Some(Running {
            stop,
            thread,
            answered,
            generation: self.generation,
        });
    }

    /// The searcher kept from the last search, or a new one for the settings.
    fn ready_searcher(&mut self) -> Result<Box<dyn Searcher + Send>, String> {
        match self.searcher.take() {
            Some(searcher) => Ok(searcher),
            None => self.new_searcher(),
        }
    }

    fn new_searcher(&self) -> Result<Box<dyn Searcher + Send>, String> {
        let s = &self.settings;
        let searcher = s.engine;
        let alpha_beta = searcher == SearcherKind::AlphaBeta;
        let settings = SearchSettings {
            threads: Some(s.threads),
            hash_mb: alpha_beta.then_some(s.hash_mb),
            contempt: alpha_beta.then_some(s.contempt),
            seed: Some(s.seed),
            ..SearchSettings::of(searcher)
        };
        let spec = settings
            .spec()
            .map_err(|e| e.to_string())?
            .with_weights(s.weights.clone());
        spec.searcher()
            .map_err(|e| e.to_string())?
            .ok_or_else(|| "the engine does not search".to_string())
    }

    /// Stops a running search, waits for its `bestmove`, and keeps its searcher.
    fn finish_search(&mut self) {
        if let Some(running) = self.running.take() {
            running.stop.store(true, Ordering::Relaxed);
            if let Ok(Some(searcher)) = running.thread.join() {
                if running.generation == self.generation {
                    self.searcher = Some(searcher);
                }
            }
        }
    }
}

/// What a search thread needs.
/// How often a finished `go infinite` looks for `stop`.
const INFINITE_POLL: Duration = Duration::from_millis(5);

struct SearchJob {
    out: Output,
    variant: Arc<Variant>,
    board: Board,
    history: Vec<u64>,
    quiet_plies: u32,
    /// A move half made from `board`, to be completed rather than a move searched.
    half: Option<Move>,
    limits: Limits,
    /// Whether the time came from the clock alone.
    clocked: bool,
    /// Whether `bestmove` waits for `stop` (`go infinite`), whenever the search ends:
    /// a level's small budget, or a proven result, ends it early.
    infinite: bool,
    multipv: usize,
    /// The level played, whether the searcher is MCTS, and the level's random draws.
    level: Level,
    mcts: bool,
    /// The model of `wdl` in `info` lines, when `ShowWDL` is on.
    wdl: Option<WdlModel>,
    draws: SmallRng,
    stop: Arc<AtomicBool>,
    answered: Arc<AtomicBool>,
    /// Whether the game has ended by the rules (as `query gameover` says): nothing is
    /// searched, and the answer is `bestmove none`.
    over: bool,
}

impl SearchJob {
    /// Says `bestmove`, marking the search answered first, so the next command finds it
    /// done.
    fn answer(&self, mv: &str) {
        while self.infinite && !self.stop.load(Ordering::Relaxed) {
            std::thread::sleep(INFINITE_POLL);
        }
        self.answered.store(true, Ordering::SeqCst);
        say(&self.out, &format!("bestmove {mv}"));
    }

    /// Searches, reporting `info` lines, and ends with `bestmove`; hands the searcher
    /// back.
    fn run(mut self, mut searcher: Box<dyn Searcher + Send>) -> Box<dyn Searcher + Send> {
        if let Some(half) = self.half.take() {
            self.complete(searcher.as_mut(), &half);
            return searcher;
        }
        if self.over {
            self.answer("none");
            return searcher;
        }
        let (moves, cut) = searched_moves(&self.variant, &self.board);
        if moves.is_empty() {
            self.answer("none");
            return searcher;
        }
        if self.clocked && moves.len() == 1 && !cut {
            say(&self.out, "info string the only move: played at once");
            self.answer(&moves[0].mv.to_string());
            return searcher;
        }
        let request = SearchRequest {
            variant: &self.variant,
            board: self.board,
            history: self.history.clone(),
            quiet_plies: self.quiet_plies,
            limits: self.limits,
            multipv: self.multipv,
            pv_lines: usize::MAX,
            stop: Some(&self.stop),
        };
        let out = Arc::clone(&self.out);
        let wdl = self.wdl;
        let searched = self.level.search(
            searcher.as_mut(),
            self.mcts,
            &request,
            &mut self.draws,
            &mut |p: &Progress| {
                let counts = Counts {
                    nodes: p.nodes,
                    time: p.time,
                    hashfull: p.hashfull,
                };
                say(&out, &info_line(p.depth, 1, p.score, wdl, &counts, &p.pv));
            },
        );
        let result = searched.result;
        let counts = Counts {
            nodes: result.nodes,
            time: result.time,
            hashfull: result.hashfull,
        };
        for (k, line) in result.lines.iter().enumerate() {
            say(
                &self.out,
                &info_line(result.depth, k + 1, line.score, wdl, &counts, &line.pv),
            );
        }
        let played = searched.played.as_ref();
        if let (Some(played), Some(best)) = (played, result.best()) {
            if !self.level.is_top() {
                let level = self.level.number();
                say(
                    &self.out,
                    &format!(
                        "info string level {level}: plays {} (best {})",
                        played.mv, best.mv
                    ),
                );
            }
        }
        match played {
            Some(line) => self.answer(&line.mv.to_string()),
            None => self.answer("none"),
        }
        searcher
    }

    /// Says `bestmove` with the whole move that `half` becomes, the side deciding next
    /// at the level played, the other at its best (`Level::complete`); `go infinite`
    /// takes the default move time for it, and its `bestmove` still waits for `stop`.
    fn complete(&mut self, searcher: &mut dyn Searcher, half: &Move) {
        let limits = match self.limits.time {
            Some(INFINITE) => Limits {
                time: Some(crate::matches::engine::DEFAULT_MOVE_TIME),
                ..self.limits
            },
            _ => self.limits,
        };
        let search = EndSearch {
            searcher,
            past: crate::search::Past {
                hashes: &self.history,
                quiet_plies: self.quiet_plies,
            },
            limits,
            stop: Some(&self.stop),
        };
        let whole = (self.level).complete(
            self.mcts,
            &self.variant,
            &self.board,
            half,
            search,
            &mut self.draws,
        );
        match whole {
            Ok(whole) => {
                say(
                    &self.out,
                    &format!("info string completes {half} as {whole}"),
                );
                self.answer(&whole.to_string());
            }
            Err(e) => {
                error(&self.out, &e.to_string());
                self.answer("none");
            }
        }
    }
}

/// The move half made under the retreat that ends `moves`, where playing the list
/// stopped at its last move with `error` (the game stands before it): the move and
/// whether the opponent answers next.
fn half_made_last(
    game: &Game,
    moves: &[&str],
    error: &isolo_rules::GameError,
) -> Option<(Move, bool)> {
    let at_last =
        matches!(error, isolo_rules::GameError::InList { index, count, .. } if index == count);
    if !at_last || game.outcome().is_some() {
        return None;
    }
    let variant = game.variant();
    let mv = variant.parse_move(moves.last()?).ok()?;
    match variant.half_made(game.board(), &mv, &mut isolo_rules::MoveWalk::new())? {
        isolo_rules::MoveStep::Answer(_) => Some((mv, true)),
        _ => Some((mv, false)),
    }
}

/// The `info string review` lines of a review: one a move, then the accuracy.
fn review_lines(review: &crate::review::Review) -> Vec<String> {
    let mut lines: Vec<String> = review
        .moves
        .iter()
        .map(|m| {
            let turn = m
                .turning_point
                .map(|t| format!(" turning {}", t.text()))
                .unwrap_or_default();
            format!(
                "info string review ply {} side {} move {} best {} class {} loss {:.3} score {} best_score {}{turn}",
                m.ply,
                m.side.letter(),
                m.mv,
                m.best,
                m.class.name(),
                m.loss,
                score_text(m.score),
                score_text(m.best_score),
            )
        })
        .collect();
    let accuracy = |side| {
        review
            .accuracy(side)
            .map_or("-".to_string(), |a| format!("{a:.1}"))
    };
    lines.push(format!(
        "info string review accuracy S {} N {}{}",
        accuracy(Side::South),
        accuracy(Side::North),
        if review.interrupted { " (stopped)" } else { "" }
    ));
    lines
}

/// `score seeds +3.40`, `score win 5`, `score loss 4` or `score draw`.
pub(crate) fn score_text(score: Score) -> String {
    match score {
        Score::Win(n) => format!("win {n}"),
        Score::Loss(n) => format!("loss {n}"),
        Score::Draw => "draw".into(),
        Score::Eval(v) => format!("seeds {:+.2}", v as f64 / 100.0),
    }
}

/// What a search has spent, for `info` lines.
struct Counts {
    nodes: u64,
    time: Duration,
    hashfull: u32,
}

/// An `info` line; `seldepth` is the depth (the searchers extend no line past it), and
/// `wdl W D L` follows the score when a model is given.
fn info_line(
    depth: u32,
    multipv: usize,
    score: Score,
    wdl: Option<WdlModel>,
    counts: &Counts,
    pv: &[isolo_rules::Move],
) -> String {
    let ms = counts.time.as_millis() as u64;
    let nps = (counts.nodes as u128 * 1_000_000 / counts.time.as_micros().max(1)) as u64;
    let pv: Vec<String> = pv.iter().map(|m| m.to_string()).collect();
    let wdl = wdl.map_or(String::new(), |model| {
        let w = model.wdl(score);
        format!(" wdl {} {} {}", w.win, w.draw, w.loss)
    });
    format!(
        "info depth {depth} seldepth {depth} multipv {multipv} score {}{wdl} nodes {} nps {nps} time {ms} hashfull {} pv {}",
        score_text(score),
        counts.nodes,
        counts.hashfull,
        pv.join(" ")
    )
}
