//! External engines: programs that speak UGI (see [`crate::ugi`] for our own side of the
//! protocol), started and driven by a match. The manager gives every engine the position
//! as `position startpos|fen ... moves ...` and a `go` with both clocks (or the engine's
//! own `movetime`, `depth` or `nodes`), and holds every answer to account: a reply that
//! is not a legal move, a crash, silence past the clock, or output that is not the
//! protocol forfeits the game (see [`crate::matches::player::Termination`]).

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use crate::matches::player::{Forfeit, Reply, Termination, Turn};
use crate::search::clock::Clock;
use crate::search::Limits;
use isolo_rules::{Move, Side, Variant};

/// How long a program may take to answer `ugi` with `ugiok`, and `isready` with
/// `readyok`, unless the match says otherwise.
pub const DEFAULT_HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);
/// After its time is up (clock or movetime plus the margin), how much longer an engine
/// is waited for before it is declared stalled and restarted (a reply in this window
/// still loses on time, but the engine is kept).
pub const STALL_GRACE: Duration = Duration::from_secs(1);
/// How long a search limited only by depth or nodes may go without a reply before the
/// engine is stalled (a spec's `stall-ms` changes it).
pub const UNTIMED_STALL: Duration = Duration::from_secs(60);
/// The longest line read from an engine; a longer one is bad output.
const MAX_LINE_BYTES: u64 = 64 * 1024;
/// How often a wait looks at the interrupt flag.
const INTERRUPT_POLL: Duration = Duration::from_millis(20);
/// How long a program is given to end after `quit` before it is killed.
const QUIT_WAIT: Duration = Duration::from_millis(300);

/// How to start and set up an external engine.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ExternalConfig {
    /// The program and its arguments.
    pub command: Vec<String>,
    /// `setoption` name and value pairs sent after the handshake, in order.
    pub options: Vec<(String, String)>,
    /// How long a search without a time limit may go unanswered (default `UNTIMED_STALL`).
    pub stall: Option<Duration>,
}

message_error! {
    /// An external engine that cannot be started or does not complete the handshake.
    EngineStartError
}

/// Starts the program and completes the handshake once, then ends it: a match checks
/// this before it plays, so an engine that cannot play is refused, naming it, rather
/// than forfeiting every game.
pub fn check_handshake(
    label: &str,
    config: &ExternalConfig,
    variant: &str,
    handshake: Duration,
) -> Result<(), EngineStartError> {
    ExternalEngine::start(label, config, variant, None, handshake)
        .map(drop)
        .map_err(|f| EngineStartError(f.detail))
}

/// What the reader thread saw: a line (with when it arrived), a line that is not text,
/// or the end of the output.
enum Output {
    Line(Instant, String),
    Bad(String),
    End,
}

/// Reads the engine's output on its own thread, so waits can time out.
fn read_output(stdout: impl Read + Send + 'static) -> Receiver<Output> {
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        let mut reader = BufReader::new(stdout);
        loop {
            let mut bytes = Vec::new();
            let read = (&mut reader)
                .take(MAX_LINE_BYTES + 1)
                .read_until(b'\n', &mut bytes);
            let now = Instant::now();
            let message = match read {
                Ok(0) | Err(_) => {
                    let _ = send.send(Output::End);
                    return;
                }
                Ok(_) if bytes.len() as u64 > MAX_LINE_BYTES => {
                    Output::Bad(format!("a line longer than {MAX_LINE_BYTES} bytes"))
                }
                Ok(_) => match String::from_utf8(bytes) {
                    Ok(text) => Output::Line(now, text.trim_end_matches(['\n', '\r']).into()),
                    Err(_) => Output::Bad("a line that is not UTF-8 text".into()),
                },
            };
            if send.send(message).is_err() {
                return;
            }
        }
    });
    receive
}

/// What ended a wait for a line.
enum WaitEnd {
    /// The deadline passed.
    Timeout,
    /// The match was interrupted.
    Interrupted,
    /// The forfeit the engine's output caused.
    Forfeit(Forfeit),
}

/// A running external engine.
pub struct ExternalEngine {
    label: String,
    child: Child,
    stdin: ChildStdin,
    output: Receiver<Output>,
    log: Option<File>,
    /// The options the engine declared in its handshake (lower case).
    declared: Vec<String>,
    /// Whether `uginewgame` has been sent for the game in progress.
    in_game: bool,
}

impl Drop for ExternalEngine {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        if self.wait_for_exit().is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// Where an engine's logs go: `DIR/LABEL-SLOT.log` for its standard error and
/// `DIR/LABEL-SLOT.ugi.log` for the protocol both ways.
pub(crate) fn log_paths(dir: &Path, label: &str, slot: usize) -> (PathBuf, PathBuf) {
    let safe: String = label
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    (
        dir.join(format!("{safe}-{slot}.log")),
        dir.join(format!("{safe}-{slot}.ugi.log")),
    )
}

fn append(path: &Path) -> std::io::Result<File> {
    OpenOptions::new().create(true).append(true).open(path)
}

fn forfeit(reason: Termination, detail: String) -> WaitEnd {
    WaitEnd::Forfeit(Forfeit { reason, detail })
}

impl ExternalEngine {
    /// Starts the program and completes the handshake: `ugi` ... `ugiok`, the options,
    /// `isready` ... `readyok`. `variant` is sent as the `Variant` option when the
    /// engine declares one.
    pub fn start(
        label: &str,
        config: &ExternalConfig,
        variant: &str,
        log_dir: Option<(&Path, usize)>,
        handshake: Duration,
    ) -> Result<ExternalEngine, Forfeit> {
        let (stderr, log) = match log_dir {
            Some((dir, slot)) => {
                let (err_path, ugi_path) = log_paths(dir, label, slot);
                let open = |p: &Path| {
                    append(p).map_err(|e| Forfeit {
                        reason: Termination::Crash,
                        detail: format!("cannot open the log {}: {e}", p.display()),
                    })
                };
                (Stdio::from(open(&err_path)?), Some(open(&ugi_path)?))
            }
            None => (Stdio::null(), None),
        };
        let mut child = Command::new(&config.command[0])
            .args(&config.command[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .map_err(|e| Forfeit {
                reason: Termination::Crash,
                detail: format!("cannot start '{}': {e}", config.command[0]),
            })?;
        let stdin = child.stdin.take().expect("stdin is piped");
        let output = read_output(child.stdout.take().expect("stdout is piped"));
        let mut engine = ExternalEngine {
            label: label.to_string(),
            child,
            stdin,
            output,
            log,
            declared: Vec::new(),
            in_game: false,
        };
        engine.log_note(&format!("started {}", config.command.join(" ")));
        engine.handshake(config, variant, handshake)?;
        Ok(engine)
    }

    fn handshake(
        &mut self,
        config: &ExternalConfig,
        variant: &str,
        timeout: Duration,
    ) -> Result<(), Forfeit> {
        self.send("ugi")?;
        let deadline = Instant::now() + timeout;
        loop {
            let line = self.expect_line(deadline, None, "ugiok")?;
            let mut words = line.split_whitespace();
            match words.next() {
                Some("ugiok") => break,
                Some("option") => {
                    if let (Some("name"), Some(name)) = (words.next(), words.next()) {
                        self.declared.push(name.to_ascii_lowercase());
                    }
                }
                _ => {}
            }
        }
        if self.declared.iter().any(|n| n == "variant") {
            self.send(&format!("setoption name Variant value {variant}"))?;
        }
        for (name, value) in &config.options {
            self.send(&format!("setoption name {name} value {value}"))?;
        }
        self.ready(timeout)
    }

    /// `isready` ... `readyok`.
    fn ready(&mut self, timeout: Duration) -> Result<(), Forfeit> {
        self.send("isready")?;
        let deadline = Instant::now() + timeout;
        while self.expect_line(deadline, None, "readyok")?.trim() != "readyok" {}
        Ok(())
    }

    /// The next line before `deadline`, as a forfeit when there is none: the engine
    /// stalled (`waiting_for` names what it owed), crashed, or wrote something unreadable.
    fn expect_line(
        &mut self,
        deadline: Instant,
        interrupt: Option<&AtomicBool>,
        waiting_for: &str,
    ) -> Result<String, Forfeit> {
        match self.next_line(deadline, interrupt) {
            Ok((_, line)) => Ok(line),
            Err(WaitEnd::Forfeit(f)) => Err(f),
            Err(WaitEnd::Timeout) | Err(WaitEnd::Interrupted) => Err(Forfeit {
                reason: Termination::Stall,
                detail: format!("no {waiting_for} in time"),
            }),
        }
    }

    /// The next line and when it arrived.
    fn next_line(
        &mut self,
        deadline: Instant,
        interrupt: Option<&AtomicBool>,
    ) -> Result<(Instant, String), WaitEnd> {
        loop {
            if crate::raised(interrupt) {
                return Err(WaitEnd::Interrupted);
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(WaitEnd::Timeout);
            }
            let wait = (deadline - now).min(INTERRUPT_POLL);
            match self.output.recv_timeout(wait) {
                Ok(Output::Line(at, line)) => {
                    self.log_line('<', &line);
                    return Ok((at, line));
                }
                Ok(Output::Bad(what)) => {
                    self.log_note(&format!("bad output: {what}"));
                    return Err(forfeit(Termination::BadOutput, format!("wrote {what}")));
                }
                Ok(Output::End) | Err(RecvTimeoutError::Disconnected) => {
                    let status = self.exit_status();
                    self.log_note(&format!("ended: {status}"));
                    return Err(forfeit(Termination::Crash, format!("ended ({status})")));
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }

    /// How the program ended, waiting briefly for its status.
    fn exit_status(&mut self) -> String {
        self.wait_for_exit()
            .map_or_else(|| "closed its output".into(), |status| status.to_string())
    }

    /// The program's exit status, if it ends within `QUIT_WAIT`.
    fn wait_for_exit(&mut self) -> Option<std::process::ExitStatus> {
        let until = Instant::now() + QUIT_WAIT;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return Some(status),
                Ok(None) if Instant::now() < until => std::thread::sleep(Duration::from_millis(5)),
                _ => return None,
            }
        }
    }

    fn send(&mut self, line: &str) -> Result<(), Forfeit> {
        self.log_line('>', line);
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| Forfeit {
                reason: Termination::Crash,
                detail: format!("cannot be written to: {e}"),
            })
    }

    fn log_line(&mut self, direction: char, line: &str) {
        if let Some(log) = self.log.as_mut() {
            let _ = writeln!(log, "{direction} {line}");
        }
    }

    fn log_note(&mut self, note: &str) {
        let label = self.label.clone();
        if let Some(log) = self.log.as_mut() {
            let _ = writeln!(log, "# {label}: {note}");
        }
    }

    /// Starts a game: `uginewgame`, `isready` ... `readyok`.
    pub fn new_game(&mut self, timeout: Duration) -> Result<(), Forfeit> {
        self.send("uginewgame")?;
        self.ready(timeout)?;
        self.in_game = true;
        Ok(())
    }

    /// Whether `new_game` has been sent for the game in progress.
    pub(crate) fn in_game(&self) -> bool {
        self.in_game
    }

    /// Marks the game over, so the next one starts with `uginewgame`.
    pub(crate) fn end_game(&mut self) {
        self.in_game = false;
    }

    /// Asks for a move in `turn` and waits for `bestmove`: on a clock until the time
    /// left plus `margin` (and `STALL_GRACE` more before the engine counts as stalled),
    /// else until its own limits allow. `Ok(None)`: interrupted.
    pub fn play(
        &mut self,
        turn: &Turn,
        limits: &Limits,
        stall: Option<Duration>,
    ) -> Result<Option<Reply>, Forfeit> {
        let game = turn.game;
        let variant = game.variant();
        let half = turn.half.map(|h| &h.mv);
        self.send(&position_command(variant, game.start(), game.moves(), half))?;
        let (go, allowed) = go_command(turn.clocks, turn.decider(), limits, stall);
        self.send(&go)?;
        let sent = Instant::now();
        let deadline = sent + allowed + turn.margin + STALL_GRACE;
        loop {
            let (at, line) = match self.next_line(deadline, turn.interrupt) {
                Ok(found) => found,
                Err(WaitEnd::Interrupted) => return Ok(None),
                Err(WaitEnd::Forfeit(f)) => return Err(f),
                Err(WaitEnd::Timeout) => {
                    return Err(Forfeit {
                        reason: Termination::Stall,
                        detail: format!(
                            "no bestmove {} ms after go (allowed {} ms and a {} ms margin)",
                            sent.elapsed().as_millis(),
                            allowed.as_millis(),
                            turn.margin.as_millis()
                        ),
                    })
                }
            };
            let mut words = line.split_whitespace();
            match words.next() {
                Some("bestmove") => {}
                // Analysis output, and anything else an engine may say, is not a reply.
                _ => continue,
            }
            let text = words.next().unwrap_or("");
            let mv = variant.parse_move(text).map_err(|e| Forfeit {
                reason: Termination::BadOutput,
                detail: format!("answered 'bestmove {text}': {e}"),
            })?;
            return Ok(Some(Reply {
                mv,
                thought: at.saturating_duration_since(sent),
                played: None,
                answered: None,
            }));
        }
    }
}

/// `position startpos|fen ROWS SIDE [OVERTURE] [FIRST] [WON] [moves M...]`, the last of
/// the moves `half` where a move half made is to be gone on with (docs/UGI.md).
fn position_command(
    variant: &Variant,
    start: &isolo_rules::Board,
    moves: &[Move],
    half: Option<&Move>,
) -> String {
    let mut command = if *start == variant.start() {
        "position startpos".to_string()
    } else {
        format!("position fen {}", variant.format_position(start))
    };
    if !moves.is_empty() || half.is_some() {
        command.push_str(" moves");
        for mv in moves.iter().chain(half) {
            command.push(' ');
            command.push_str(&mv.to_string());
        }
    }
    command
}

/// The movetime sent to an external engine given no limit and no clock (matches.md).
pub const UNLIMITED_MOVETIME: Duration = Duration::from_millis(1000);

/// The `go` command for the side to move, and the time its reply may take before the
/// margin: the clock left, the movetime, or the stall limit of an untimed search.
fn go_command(
    clocks: [Option<Clock>; 2],
    mover: Side,
    limits: &Limits,
    stall: Option<Duration>,
) -> (String, Duration) {
    if let Some(own) = clocks[mover as usize] {
        let mut go = "go".to_string();
        for (side, clock) in [(1, clocks[0]), (2, clocks[1])] {
            if let Some(c) = clock {
                go.push_str(&format!(
                    " p{side}time {} p{side}inc {}",
                    c.left.as_millis(),
                    c.increment.as_millis()
                ));
            }
        }
        return (go, own.left);
    }
    let mut go = "go".to_string();
    // No limit at all: a bare `go` may search until `stop`, which a match never sends.
    let mut limits = *limits;
    if limits.depth.is_none() && limits.nodes.is_none() && limits.time.is_none() {
        limits.time = Some(UNLIMITED_MOVETIME);
    }
    if let Some(depth) = limits.depth {
        go.push_str(&format!(" depth {depth}"));
    }
    if let Some(nodes) = limits.nodes {
        go.push_str(&format!(" nodes {nodes}"));
    }
    if let Some(time) = limits.time {
        go.push_str(&format!(" movetime {}", time.as_millis()));
        return (go, time);
    }
    (go, stall.unwrap_or(UNTIMED_STALL))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_engine_given_no_limit_searches_a_second() {
        let none = Limits::default();
        let (go, allowed) = go_command([None, None], Side::South, &none, None);
        assert_eq!(
            (go.as_str(), allowed),
            ("go movetime 1000", UNLIMITED_MOVETIME)
        );
        let deep = Limits {
            depth: Some(4),
            ..Limits::default()
        };
        assert_eq!(
            go_command([None, None], Side::South, &deep, None).0,
            "go depth 4"
        );
    }
}
