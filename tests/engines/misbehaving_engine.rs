//! A small UGI engine that misbehaves on purpose, for the match manager's tests. It
//! plays the first legal move, except that at its K-th `go` (counted over its whole
//! life, across games) it does what MODE says:
//!
//! - `crash`: exits without answering;
//! - `illegal`: answers a move that is not legal here (at the first `go` from the K-th
//!   on where some pit number is not a legal move);
//! - `silent`: never answers again (it still reads its input);
//! - `garbage`: writes bytes that are not text;
//! - `nonsense`: answers `bestmove` with something that is no move;
//! - `late:MS`: answers after MS milliseconds;
//! - `chatty`: writes lines outside the protocol before answering (not a forfeit);
//! - `slow-handshake:MS`: waits MS milliseconds before `ugiok` (K is ignored).
//!
//! `misbehaving_engine MODE [K]` (K defaults to 1).

use std::io::{BufRead, Write};

use isolo_engine::search::searched_moves;
use isolo_rules::{Board, Game, Variant};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mode = args.get(1).cloned().unwrap_or_default();
    let mut k: u32 = args.get(2).and_then(|k| k.parse().ok()).unwrap_or(1);
    let (mode, millis) = match mode.split_once(':') {
        Some((m, ms)) => (m.to_string(), ms.parse::<u64>().unwrap_or(0)),
        None => (mode, 0),
    };
    let sleep = || std::thread::sleep(std::time::Duration::from_millis(millis));
    let mut out = std::io::stdout();
    let mut variant = Variant::load("isolo-boys").unwrap();
    let mut board: Board = variant.start();
    let mut gos = 0;
    let mut silent = false;
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { return };
        let words: Vec<&str> = line.split_whitespace().collect();
        if silent {
            continue;
        }
        match words.first().copied() {
            Some("ugi") => {
                if mode == "slow-handshake" {
                    sleep();
                }
                let _ = writeln!(out, "id name misbehaving ({mode})");
                let _ = writeln!(out, "option name Variant type string default isolo-boys");
                let _ = writeln!(out, "ugiok");
            }
            Some("isready") => {
                let _ = writeln!(out, "readyok");
            }
            Some("setoption")
                if words
                    .get(2)
                    .is_some_and(|n| n.eq_ignore_ascii_case("variant")) =>
            {
                variant = Variant::load(words[4..].join(" ").as_str()).unwrap();
                board = variant.start();
            }
            Some("position") => board = position(&variant, &words[1..]),
            Some("go") => {
                gos += 1;
                let (moves, _) = searched_moves(&variant, &board);
                let legal = moves
                    .first()
                    .map(|m| m.mv.to_string())
                    .unwrap_or("none".into());
                let illegal = illegal_move(&variant, &board);
                if gos < k
                    || (gos > k && mode != "illegal")
                    || (mode == "illegal" && illegal.is_none())
                {
                    let _ = writeln!(out, "bestmove {legal}");
                } else {
                    match mode.as_str() {
                        "crash" => std::process::exit(3),
                        "illegal" => {
                            let _ = writeln!(out, "bestmove {}", illegal.unwrap_or(1));
                            k = u32::MAX;
                        }
                        "silent" => silent = true,
                        "garbage" => {
                            let _ = out.write_all(b"\xff\xfe\x00garbage\n");
                        }
                        "nonsense" => {
                            let _ = writeln!(out, "bestmove e2e4");
                        }
                        "late" => {
                            sleep();
                            let _ = writeln!(out, "bestmove {legal}");
                        }
                        "chatty" => {
                            let _ = writeln!(out, "hello, manager");
                            let _ = writeln!(out, "info string thinking hard");
                            let _ = writeln!(out, "bestmove {legal}");
                        }
                        _ => {
                            let _ = writeln!(out, "bestmove {legal}");
                        }
                    }
                }
            }
            Some("quit") => return,
            _ => {}
        }
        let _ = out.flush();
    }
}

/// A pit number that is not a legal move here, if there is one.
fn illegal_move(variant: &Variant, board: &Board) -> Option<u32> {
    (1..=2 * variant.columns() as u32).find(|&p| {
        variant
            .parse_move(&p.to_string())
            .is_ok_and(|mv| variant.play_move(board, &mv).is_none())
    })
}

/// `startpos|fen ROWS SIDE [OVERTURE] [moves M...]`.
fn position(variant: &Variant, words: &[&str]) -> Board {
    let at = words
        .iter()
        .position(|w| *w == "moves")
        .unwrap_or(words.len());
    let start = match words[..at] {
        ["startpos"] => variant.start(),
        _ => variant.parse_position(&words[1..at].join(" ")).unwrap(),
    };
    let mut game = Game::new(variant, start);
    let moves = words.get(at + 1..).unwrap_or(&[]).join(" ");
    game.play_list(&moves).unwrap();
    *game.board()
}
