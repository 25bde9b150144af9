#![forbid(unsafe_code)]
#![warn(unreachable_pub)]
//! The `isolo-ai` binary: argument parsing and dispatch only.

use std::process::ExitCode;

use clap::error::ErrorKind;
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

mod cli;
mod render;
#[cfg(feature = "server")]
mod server;

use cli::CliResult;

/// AI opponent and analysis engine for Isolo and Igisoro, four-row mancala games.
#[derive(Parser, Debug)]
#[command(name = "isolo-ai", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// List the presets, or print one rules set as TOML
    Variants(cli::variants::VariantsArgs),
    /// Draw a position for a terminal (or as SVG)
    Show(cli::show::ShowArgs),
    /// Serve a web page that plays and analyses in the browser, and its JSON API
    #[cfg(feature = "server")]
    Serve(cli::serve::ServeArgs),
    /// List every legal move with the position it leads to
    Moves(cli::moves::MovesArgs),
    /// Play a list of moves and print the position reached
    Apply(cli::apply::ApplyArgs),
    /// Count the leaves of the game tree to a depth
    Perft(cli::perft::PerftArgs),
    /// Search a position: best move, score (exact for proven results) and line
    Analyze(cli::analyze::AnalyzeArgs),
    /// Search a fixed position set: node-count signature and speed
    Bench(cli::bench::BenchArgs),
    /// Play against the engine in the terminal
    Play(cli::play::PlayArgs),
    /// Play a match between two engines: Elo, LOS, SPRT, records
    Match(cli::matches::MatchArgs),
    /// Play a round robin or gauntlet of three or more engines: crosstable and ratings
    Tournament(cli::tournament::TournamentArgs),
    /// Combine the records of a sharded match or tournament (--shard K/N) and summarise
    Merge(cli::merge::MergeArgs),
    /// Build an opening suite of balanced positions reached by random plies
    Openings(cli::openings::OpeningsArgs),
    /// Check every move of a records file, or show one game move by move
    Replay(cli::replay::ReplayArgs),
    /// Review a game: each move against the engine's best, classes, accuracy
    Review(cli::review::ReviewArgs),
    /// Prove a position's value: win or loss in exactly N plies, or unknown
    Solve(cli::solve::SolveArgs),
    /// Solve a preset's start over board widths and seed counts: a Markdown and CSV table
    SolveTable(cli::solve_table::SolveTableArgs),
    /// Check a proof certificate (solve --certificate) with the rules alone, no search
    CheckProof(cli::check_proof::CheckProofArgs),
    /// Compare rule variants: who is favoured, game lengths, loops, with 95% intervals
    Compare(cli::compare::CompareArgs),
    /// Regenerate docs/RESULTS.md: every preset and reading, solved or compared
    Results(cli::results::ResultsArgs),
    /// Fit the evaluation weights to self-play results (Texel tuning)
    Tune(cli::tune::TuneArgs),
    /// Fit the win/draw/loss model to self-play results and measure its calibration
    FitWdl(cli::fit_wdl::FitWdlArgs),
    /// Speak UGI (the Universal Game Interface) on standard input and output
    Ugi(cli::ugi::UgiArgs),
}

/// Exit code for bad input of any kind.
const BAD_INPUT: u8 = 2;

fn main() -> ExitCode {
    std::panic::set_hook(Box::new(|info| {
        eprintln!("error: internal error (please report): {info}");
    }));
    let parsed = command()
        .try_get_matches()
        .and_then(|matches| Cli::from_arg_matches(&matches));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => {
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                eprintln!("error: no subcommand given (try 'isolo-ai --help')");
            } else {
                eprintln!("{}", first_paragraph(&e.render().to_string()));
            }
            return ExitCode::from(BAD_INPUT);
        }
    };
    match dispatch(&cli.command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(BAD_INPUT)
        }
    }
}

/// The command line, where every flag's value may start with a minus sign (`--depth -1`):
/// its own check then says what is wrong with it, rather than clap's "unexpected
/// argument".
fn command() -> clap::Command {
    fn values_may_be_negative(command: clap::Command) -> clap::Command {
        command
            .mut_args(|arg| {
                if arg.get_action().takes_values() {
                    arg.allow_negative_numbers(true)
                } else {
                    arg
                }
            })
            .mut_subcommands(values_may_be_negative)
    }
    values_may_be_negative(Cli::command())
}

/// Clap's message up to its first blank line, joined into one line.
fn first_paragraph(rendered: &str) -> String {
    let lines: Vec<&str> = rendered
        .lines()
        .map(str::trim)
        .take_while(|l| !l.is_empty())
        .collect();
    if lines.is_empty() {
        "error: bad arguments (try 'isolo-ai --help')".to_string()
    } else {
        lines.join(" ")
    }
}

fn dispatch(command: &Command) -> CliResult {
    match command {
        Command::Variants(args) => cli::variants::run(args),
        Command::Show(args) => cli::show::run(args),
        #[cfg(feature = "server")]
        Command::Serve(args) => cli::serve::run(args),
        Command::Moves(args) => cli::moves::run(args),
        Command::Apply(args) => cli::apply::run(args),
        Command::Perft(args) => cli::perft::run(args),
        Command::Analyze(args) => cli::analyze::run(args),
        Command::Bench(args) => cli::bench::run(args),
        Command::Play(args) => cli::play::run(args),
        Command::Match(args) => cli::matches::run(args),
        Command::Tournament(args) => cli::tournament::run(args),
        Command::Merge(args) => cli::merge::run(args),
        Command::Openings(args) => cli::openings::run(args),
        Command::Replay(args) => cli::replay::run(args),
        Command::Review(args) => cli::review::run(args),
        Command::Solve(args) => cli::solve::run(args),
        Command::SolveTable(args) => cli::solve_table::run(args),
        Command::CheckProof(args) => cli::check_proof::run(args),
        Command::Compare(args) => cli::compare::run(args),
        Command::Results(args) => cli::results::run(args),
        Command::Tune(args) => cli::tune::run(args),
        Command::FitWdl(args) => cli::fit_wdl::run(args),
        Command::Ugi(args) => cli::ugi::run(args),
    }
}

#[cfg(test)]
mod tests {
    use clap::builder::ValueParser;
    use clap::value_parser;

    /// Every (subcommand, flag) whose value is a number.
    fn numeric_flags() -> Vec<(String, String)> {
        let numbers = [
            ValueParser::from(value_parser!(u16)).type_id(),
            ValueParser::from(value_parser!(u32)).type_id(),
            ValueParser::from(value_parser!(u64)).type_id(),
            ValueParser::from(value_parser!(usize)).type_id(),
            ValueParser::from(value_parser!(i32)).type_id(),
            ValueParser::from(value_parser!(f64)).type_id(),
        ];
        let mut found = Vec::new();
        for sub in super::command().get_subcommands() {
            for arg in sub.get_arguments() {
                if numbers.contains(&arg.get_value_parser().type_id()) {
                    let long = arg.get_long().expect("numeric flags are long flags");
                    found.push((sub.get_name().to_string(), format!("--{long}")));
                }
            }
        }
        found
    }

    /// The rows of the flags' table in docs/commands.md#ranges: flag, range, commands.
    fn documented_ranges() -> Vec<(String, String, Vec<String>)> {
        let doc = include_str!("../docs/commands.md");
        let section = &doc[doc.find("\n## Ranges").expect("a Ranges section")..];
        let ticked = |cell: &str| cell.trim().trim_matches('`').to_string();
        section
            .lines()
            .skip_while(|l| !l.starts_with("| Flag"))
            .skip(2)
            .take_while(|l| l.starts_with('|'))
            .map(|line| {
                let cells: Vec<&str> = line.trim_matches('|').split('|').collect();
                let commands = cells[2]
                    .split(',')
                    .map(|c| ticked(c.split('(').next().unwrap_or(c)))
                    .collect();
                (ticked(cells[0]), cells[1].trim().to_string(), commands)
            })
            .collect()
    }

    /// The first `A..=B` or `at least A` of a range's text: its bounds.
    fn bounds(range: &str) -> (f64, Option<f64>) {
        let number = |t: &str| {
            let digits: String = t.chars().take_while(|c| c.is_ascii_digit()).collect();
            digits.parse::<f64>().expect("a bound")
        };
        if let Some(at) = range.find("at least ") {
            return (number(&range[at + "at least ".len()..]), None);
        }
        let dots = range.find("..=").expect("A..=B or at least A");
        let start = range[..dots]
            .rfind(|c: char| !c.is_ascii_digit())
            .map_or(0, |i| i + 1);
        (
            number(&range[start..dots]),
            Some(number(&range[dots + 3..])),
        )
    }

    /// Whether clap takes `value` for `flag` of `command` (other errors, such as a
    /// missing `--variant`, do not count).
    fn takes(command: &str, flag: &str, value: &str) -> bool {
        match super::command().try_get_matches_from(["isolo-ai", command, flag, value]) {
            Ok(_) => true,
            Err(e) => e.kind() != clap::error::ErrorKind::ValueValidation,
        }
    }

    #[test]
    fn every_numeric_flag_has_its_documented_range() {
        let rows = documented_ranges();
        let numeric = numeric_flags();
        for (command, flag) in &numeric {
            let matching: Vec<_> = rows
                .iter()
                .filter(|(f, _, cs)| f == flag && cs.contains(command))
                .collect();
            assert_eq!(matching.len(), 1, "{command} {flag}: rows {matching:?}");
            let (least, most) = bounds(&matching[0].1);
            let text = |x: f64| format!("{x}");
            assert!(
                takes(command, flag, &text(least)),
                "{command} {flag} {least}"
            );
            assert!(
                !takes(command, flag, &text(least - 1.0)),
                "{command} {flag} below"
            );
            match most {
                Some(most) => {
                    assert!(takes(command, flag, &text(most)), "{command} {flag} {most}");
                    assert!(
                        !takes(command, flag, &text(most + 1.0)),
                        "{command} {flag} above"
                    );
                }
                None => assert!(!takes(command, flag, "99999999999999999999999")),
            }
        }
        for (flag, _, commands) in &rows {
            for command in commands {
                let pair = (command.clone(), flag.clone());
                assert!(
                    numeric.contains(&pair),
                    "docs name {command} {flag}, which takes no number"
                );
            }
        }
    }
}
