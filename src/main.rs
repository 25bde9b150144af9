//! The `isolo-ai` binary: argument parsing and dispatch only.

use std::process::ExitCode;

use clap::error::ErrorKind;
use clap::{Parser, Subcommand};

mod cli;
mod render;
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
    /// Speak UGI (the Universal Game Interface) on standard input and output
    Ugi(cli::ugi::UgiArgs),
}

/// Exit code for bad input of any kind.
const BAD_INPUT: u8 = 2;

fn main() -> ExitCode {
    std::panic::set_hook(Box::new(|info| {
        eprintln!("error: internal error (please report): {info}");
    }));
    let cli = match Cli::try_parse() {
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
        Command::Solve(args) => cli::solve::run(args),
        Command::SolveTable(args) => cli::solve_table::run(args),
        Command::CheckProof(args) => cli::check_proof::run(args),
        Command::Compare(args) => cli::compare::run(args),
        Command::Results(args) => cli::results::run(args),
        Command::Tune(args) => cli::tune::run(args),
        Command::Ugi(args) => cli::ugi::run(args),
    }
}
