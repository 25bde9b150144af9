//! The command line: one module per subcommand. Each turns its arguments into calls on
//! the library and its results into text or JSON; errors become one line and exit 2.

pub(crate) mod analyze;
pub(crate) mod apply;
pub(crate) mod bench;
pub(crate) mod check_proof;
pub(crate) mod compare;
pub(crate) mod fit_wdl;
pub(crate) mod interrupt;
pub(crate) mod matches;
pub(crate) mod merge;
pub(crate) mod moves;
pub(crate) mod openings;
pub(crate) mod perft;
pub(crate) mod play;
pub(crate) mod ranges;
pub(crate) mod replay;
pub(crate) mod results;
pub(crate) mod review;
#[cfg(feature = "server")]
pub(crate) mod serve;
pub(crate) mod show;
pub(crate) mod solve;
pub(crate) mod solve_table;
pub(crate) mod tournament;
pub(crate) mod tune;
pub(crate) mod ugi;
pub(crate) mod variants;

use std::fmt;
use std::io::{self, Write};

use clap::Args;

use isolo_engine::matches::openings::OpeningsError;
use isolo_engine::matches::records::RecordsError;
use isolo_rules::{
    Board, Game, NotationError, RulesError, Setup, SetupError, SetupField, Side, Variant,
};

/// A user-facing error: printed as one line, exit code 2.
#[derive(Debug)]
pub(crate) struct CliError(pub String);

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<RulesError> for CliError {
    fn from(e: RulesError) -> Self {
        CliError(e.to_string())
    }
}

impl From<NotationError> for CliError {
    fn from(e: NotationError) -> Self {
        CliError(e.to_string())
    }
}

impl From<RecordsError> for CliError {
    fn from(e: RecordsError) -> Self {
        CliError(e.to_string())
    }
}

impl From<OpeningsError> for CliError {
    fn from(e: OpeningsError) -> Self {
        CliError(e.to_string())
    }
}

pub(crate) type CliResult = Result<(), CliError>;

/// `--variant` and `--position`, shared by every command that takes a position.
#[derive(Args, Debug, Clone)]
pub(crate) struct PositionArgs {
    /// A preset or named reading (`isolo-ai variants` lists them) or the path of a rules file
    #[arg(long, value_name = "NAME|FILE")]
    pub variant: String,
    // (Not a doc comment: rustdoc would read the brackets as a link.)
    #[arg(
        long,
        value_name = "POSITION",
        allow_hyphen_values = true,
        help = "Position in RULES.md notation (\"ROWS SIDE [OVERTURE] [FIRST] [WON]\"); default: the variant's start"
    )]
    pub position: Option<String>,
}

impl PositionArgs {
    /// The variant and the position (its start when none is given).
    pub(crate) fn load(&self) -> Result<(Variant, Board), CliError> {
        let variant = Variant::load(&self.variant)?;
        let board = start_position(&variant, self.position.as_deref())?;
        Ok((variant, board))
    }

    /// The game from the position (its start when none is given) after `moves`
    /// (`--moves`): an illegal move names itself, its index and the legal moves there,
    /// and no move is played once the game is over.
    pub(crate) fn game<'v>(
        &self,
        variant: &'v Variant,
        moves: Option<&str>,
    ) -> Result<Game<'v>, CliError> {
        Setup::new(self.position.as_deref(), moves)
            .game(variant)
            .map_err(setup_error)
    }
}

/// `--position` read under `variant`, or its start when none is given.
pub(crate) fn start_position(variant: &Variant, position: Option<&str>) -> Result<Board, CliError> {
    Setup::new(position, None)
        .start(variant)
        .map_err(setup_error)
}

/// A setup's problem after the flag of its field.
fn setup_error(e: SetupError) -> CliError {
    let flag = match e.field {
        SetupField::Start => "--position",
        SetupField::Moves => "--moves",
    };
    CliError(format!("{flag}: {e}"))
}

/// A self-play command's games at once (`--threads`, clamped to the games; default the
/// cores) and its openings (`--openings`, default the start): `tune`, `fit-wdl`.
pub(crate) fn self_play_inputs(
    variant: &Variant,
    threads: Option<usize>,
    games: usize,
    openings: Option<&str>,
) -> Result<(usize, Vec<Board>), CliError> {
    let threads = match threads {
        Some(t) => ranges::workers("--threads", t, games as u64, "games"),
        None => ranges::cores(),
    };
    let openings = match openings {
        Some(path) => isolo_engine::matches::openings::load_suite(variant, path)?,
        None => vec![variant.start()],
    };
    Ok((threads, openings))
}

/// Checks `--hash` against what this machine allows (its range is checked at parsing).
pub(crate) fn check_hash(hash_mb: usize) -> CliResult {
    isolo_engine::search::tt::check_table_mb(hash_mb).map_err(|e| CliError(format!("--hash: {e}")))
}

/// Checks before any work that `path` can be written for `flag`: its folder exists and
/// it is a regular file or none yet (a folder, a named pipe, which would wait for a
/// reader, or a device is refused). Nothing is left behind: a file created to check is
/// removed.
pub(crate) fn check_output(flag: &str, path: impl AsRef<std::path::Path>) -> CliResult {
    let target = path.as_ref();
    let path = target.display();
    if target.is_dir() {
        return Err(CliError(format!("{flag}: {path} is a folder, not a file")));
    }
    let existed = target.exists();
    if existed && !target.is_file() {
        return Err(CliError(format!(
            "{flag}: {path} is not a regular file (a pipe or a device)"
        )));
    }
    std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .open(target)
        .map_err(|e| CliError(format!("{flag}: cannot write {path}: {e}")))?;
    if !existed {
        let _ = std::fs::remove_file(target);
    }
    Ok(())
}

/// A progress bar on stderr counting `what` (hidden when stderr is not a terminal).
pub(crate) fn progress(total: u64, what: &str) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::new(total);
    let template = format!("{{bar:30}} {{pos}}/{{len}} {what}  {{msg}}  eta {{eta}}");
    bar.set_style(
        indicatif::ProgressStyle::with_template(&template)
            .expect("a valid template")
            .progress_chars("=> "),
    );
    bar
}

/// "1 seed", "2 seeds".
pub(crate) fn plural(count: u64, one: &str, many: &str) -> String {
    format!("{count} {}", if count == 1 { one } else { many })
}

/// `--shard K/N`, checked; a shard needs `--out`, the records merge combines.
pub(crate) fn shard_option(
    text: Option<&str>,
    has_out: bool,
) -> Result<Option<isolo_engine::matches::schedule::Shard>, CliError> {
    let Some(text) = text else {
        return Ok(None);
    };
    let shard = text
        .parse()
        .map_err(|e| CliError(format!("--shard: {e}")))?;
    if !has_out {
        return Err(CliError(
            "--shard needs --out FILE: a shard's records are what merge combines".into(),
        ));
    }
    Ok(Some(shard))
}

/// "S" or "N".
pub(crate) fn side_letter(side: Side) -> String {
    side.letter().to_string()
}

/// What a write to stdout comes to: a closed pipe (`| head`) ends output quietly, any
/// other failure is an error.
pub(crate) fn written(result: io::Result<()>) -> CliResult {
    match result {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(CliError(format!("cannot write output: {e}"))),
    }
}

/// Writes to stdout; a closed pipe (`| head`) ends output quietly.
pub(crate) fn emit(text: &str) -> CliResult {
    let mut out = io::stdout().lock();
    written(out.write_all(text.as_bytes()).and_then(|_| out.flush()))
}

/// Columns assumed where stdout is not a terminal.
const DEFAULT_WIDTH: usize = 80;
/// The narrowest width prose is wrapped to, however narrow the terminal says it is.
const MIN_WIDTH: usize = 20;

/// The terminal's width in columns; where stdout is no terminal, `COLUMNS` if set (as
/// `ls` reads it), else `DEFAULT_WIDTH`.
pub(crate) fn terminal_width() -> usize {
    let columns = console::Term::stdout()
        .size_checked()
        .map(|(_, c)| usize::from(c));
    let told = || std::env::var("COLUMNS").ok()?.parse::<usize>().ok();
    columns
        .or_else(told)
        .unwrap_or(DEFAULT_WIDTH)
        .max(MIN_WIDTH)
}

/// `text` with each line longer than `width` broken at word ends; a continued line
/// keeps the line's indent, and a word longer than a line keeps a line of its own.
pub(crate) fn wrap(text: &str, width: usize) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / width.max(1));
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        if line.chars().count() <= width {
            out.push_str(line);
            continue;
        }
        let indent = &line[..line.len() - line.trim_start_matches(' ').len()];
        let mut used = 0;
        for (j, word) in line[indent.len()..].split(' ').enumerate() {
            let length = word.chars().count();
            if j == 0 || used + 1 + length > width {
                if j > 0 {
                    out.push('\n');
                }
                out.push_str(indent);
                out.push_str(word);
                used = indent.len() + length;
            } else {
                out.push(' ');
                out.push_str(word);
                used += 1 + length;
            }
        }
    }
    out
}

/// Prose written to stdout wrapped at word ends to the terminal's width.
pub(crate) fn emit_prose(text: &str) -> CliResult {
    emit(&wrap(text, terminal_width()))
}

/// A shell command broken at its spaces into lines of at most `width` columns where
/// its words allow, each but the last ending in ` \`: the shell joins them again, also
/// inside double quotes (a long list of moves), never inside single quotes, where it
/// does not break.
pub(crate) fn wrap_command(command: &str, width: usize) -> String {
    let room = width.saturating_sub(2).max(MIN_WIDTH);
    let mut pieces = vec![String::new()];
    let mut single = false;
    for c in command.chars() {
        if c == ' ' && !single {
            pieces.push(String::new());
            continue;
        }
        single ^= c == '\'';
        pieces.last_mut().expect("a piece").push(c);
    }
    let mut out = String::with_capacity(command.len() + command.len() / room);
    let mut used = 0;
    for (i, piece) in pieces.iter().enumerate() {
        let length = piece.chars().count();
        if i > 0 && used + 1 + length > room {
            out.push_str(" \\\n");
            used = 0;
        } else if i > 0 {
            out.push(' ');
            used += 1;
        }
        out.push_str(piece);
        used += length;
    }
    out
}

/// A report as pretty JSON plus a newline, written as it is serialised (no value tree
/// in between, so a large report takes no more memory than its text).
pub(crate) fn emit_serialized(report: &impl serde::Serialize) -> CliResult {
    let mut out = io::BufWriter::new(io::stdout().lock());
    let result = serde_json::to_writer_pretty(&mut out, report)
        .map_err(io::Error::from)
        .and_then(|()| out.write_all(b"\n"))
        .and_then(|()| out.flush());
    written(result)
}

/// Pretty JSON plus a newline.
pub(crate) fn emit_json(value: &serde_json::Value) -> CliResult {
    emit(&format!(
        "{}\n",
        serde_json::to_string_pretty(value).expect("JSON values serialise")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prose_breaks_at_word_ends_and_keeps_its_indent() {
        let line =
            "Lap 1 ends in your pit 12: take North's pits 13 and 4 (7 seeds), or pass and relay?";
        let wrapped = wrap(line, 40);
        assert!(
            wrapped.lines().all(|l| l.chars().count() <= 40),
            "{wrapped}"
        );
        assert_eq!(wrapped.replace('\n', " "), line);
        assert_eq!(wrap("  one two three", 9), "  one two\n  three");
        assert_eq!(wrap("short\n\nlines stay", 80), "short\n\nlines stay");
        assert_eq!(wrap("Your move (South): ", 80), "Your move (South): ");
    }

    #[test]
    fn a_command_breaks_where_the_shell_joins_it_again() {
        let moves: Vec<String> = (1..60).map(|i| (i % 16 + 1).to_string()).collect();
        let command = format!(
            "isolo-ai review --variant igisoro --position '6,1,0,6/0,0,0,0/1,1,1,1/4,4,4,4 S' --moves \"{}\"",
            moves.join(" ")
        );
        let wrapped = wrap_command(&command, 40);
        assert!(
            wrapped.lines().all(|l| l.chars().count() <= 40),
            "{wrapped}"
        );
        // The shell's reading: a backslash-newline is removed, also inside double quotes.
        assert_eq!(wrapped.replace(" \\\n", " "), command);
        assert!(
            wrapped.contains("'6,1,0,6/0,0,0,0/1,1,1,1/4,4,4,4 S'"),
            "{wrapped}"
        );
    }
}
