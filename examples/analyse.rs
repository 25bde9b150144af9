//! Analyse a position with the library: load a preset, play two moves on the game
//! model, search with alpha-beta for a second and print the best line and its score.
//!
//! `cargo run --release --example analyse`

use std::time::Duration;

use isolo_engine::search::alphabeta::{AlphaBeta, AlphaBetaConfig};
use isolo_engine::search::{Limits, SearchRequest, Searcher};
use isolo_rules::{Game, Variant};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let boys = Variant::load("isolo-boys")?;
    let mut game = Game::new(&boys, boys.start());
    game.play_list("7 13")?;
    let mut searcher = AlphaBeta::new(AlphaBetaConfig::default())?;
    let request = SearchRequest {
        variant: &boys,
        board: *game.board(),
        history: game.history(),
        quiet_plies: 0,
        limits: Limits {
            time: Some(Duration::from_secs(1)),
            ..Limits::default()
        },
        multipv: 1,
        pv_lines: usize::MAX,
        stop: None,
    };
    let result = searcher.search(&request, &mut |p| {
        println!("depth {:2}  score {}", p.depth, p.score);
    });
    let best = result.best().ok_or("the game is over")?;
    let line: Vec<String> = best.pv.iter().map(|m| m.to_string()).collect();
    println!("{}", boys.format_position(game.board()));
    println!(
        "best move {}  score {}  line {}",
        best.mv,
        best.score,
        line.join(" ")
    );
    Ok(())
}
