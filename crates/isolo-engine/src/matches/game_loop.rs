//! One game between two players, as a match manager plays it: the rules' [`Game`] model
//! adjudicates the rules' endings (no legal move, third repetition, ply cap); the manager
//! keeps the clocks and adjudicates what a player does wrong (an illegal move, a crash,
//! a reply too late or never, output that is not the protocol) as a loss for it.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::matches::player::{Forfeit, HalfMove, Player, Reply, Termination, Turn};
use crate::search::answer::settle_answers;
use crate::search::clock::{Clock, TimeControl};
use isolo_rules::{flag_fall_winner, Board, Game, LegalMove, Move, Side, Variant};

pub use crate::ranges::DEFAULT_GAME_PLIES;
/// How far past its clock a reply may come before it loses on time, by default.
pub const DEFAULT_TIME_MARGIN: Duration = Duration::from_millis(50);

/// The time controls of a game: each side's (or none), and the margin past a clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControls {
    /// South's and North's time controls.
    pub sides: [Option<TimeControl>; 2],
    /// How far past its clock a reply may come before it loses on time.
    pub margin: Duration,
}

impl Default for TimeControls {
    fn default() -> TimeControls {
        TimeControls {
            sides: [None, None],
            margin: DEFAULT_TIME_MARGIN,
        }
    }
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// The moves played.
    pub moves: Vec<Move>,
    /// The winner, or `None` for a draw.
    pub winner: Option<Side>,
    /// How the game ended.
    pub reason: Termination,
    /// What the forfeiting player did, after a forfeit.
    pub detail: Option<String>,
    /// Each move's time in milliseconds.
    pub move_ms: Vec<u64>,
    /// The mover's clock after each move (increment added), in milliseconds, where
    /// either side is on a clock (`None` for a side without one); empty without clocks.
    pub clock_ms: Vec<Option<u64>>,
    /// How long it took.
    pub time: Duration,
}

/// Plays `south` against `north` from `start` (either may move first); `None` if
/// `interrupt` was set before the game ended.
pub fn play_game(
    variant: &Variant,
    start: Board,
    players: [&mut dyn Player; 2],
    max_plies: usize,
    controls: &TimeControls,
    interrupt: Option<&AtomicBool>,
) -> Option<GameRecord> {
    let started = Instant::now();
    let [south, north] = players;
    let mut game = Game::new(variant, start).with_max_plies(max_plies);
    let mut clocks = controls.sides.map(|c| c.as_ref().map(Clock::start));
    let clocked = clocks.iter().any(Option::is_some);
    let mut move_ms = Vec::with_capacity(max_plies.min(isolo_rules::RESERVED_PLIES));
    let mut clock_ms = Vec::new();
    let mut asked = started;
    let ended = |winner, reason, detail, move_ms, clock_ms, game: Game| GameRecord {
        moves: game.into_moves(),
        winner,
        reason,
        detail,
        move_ms,
        clock_ms,
        time: started.elapsed(),
    };
    loop {
        let mover = game.board().to_move();
        let player = match mover {
            Side::South => &mut *south,
            Side::North => &mut *north,
        };
        // A bot that finds every move is asked first, and the search for a legal move is
        // left to it, unless the game would end anyway (a repetition, the ply cap).
        let bot_decides = player.finds_every_move() && game.outcome_if_moves().is_none();
        if !bot_decides {
            if let Some(outcome) = game.outcome() {
                let reason = outcome.reason.into();
                return Some(ended(outcome.winner, reason, None, move_ms, clock_ms, game));
            }
        }
        if crate::raised(interrupt) {
            return None;
        }
        let turn = Turn {
            game: &game,
            clocks,
            margin: controls.margin,
            interrupt,
            asked,
            half: None,
        };
        let played = player.play(&turn).and_then(|reply| match reply {
            Some(reply) => judge(&game, &turn, reply).map(Some),
            None => Ok(None),
        });
        // Under the retreat the answers in the move are the other side's to give.
        let played = match played {
            Ok(Some((reply, legal))) if game.variant().has_retreat() => {
                let players = [&mut *south, &mut *north];
                let asking = Asking {
                    game: &game,
                    margin: controls.margin,
                    interrupt,
                };
                match asking.settle_answers(players, &mut clocks, reply, legal) {
                    Err((side, f)) if side != mover => {
                        return Some(ended(
                            forfeit_winner(&game, side, &f),
                            f.reason,
                            Some(f.detail),
                            move_ms,
                            clock_ms,
                            game,
                        ))
                    }
                    settled => settled,
                }
            }
            other => other.map_err(|f| (mover, f)),
        };
        let (reply, legal) = match played {
            Ok(Some(judged)) => judged,
            // No move: the rules' verdict, as if the manager had looked first.
            Err((_, f)) if bot_decides && f.reason == Termination::NoMoves => {
                let outcome = game.outcome().expect("a side without a move has lost");
                return Some(ended(
                    outcome.winner,
                    outcome.reason.into(),
                    None,
                    move_ms,
                    clock_ms,
                    game,
                ));
            }
            Ok(None) => return None,
            Err((_, f)) => {
                let winner = forfeit_winner(&game, mover, &f);
                return Some(ended(
                    winner,
                    f.reason,
                    Some(f.detail),
                    move_ms,
                    clock_ms,
                    game,
                ));
            }
        };
        asked = reply.answered.unwrap_or_else(Instant::now);
        move_ms.push(reply.thought.as_millis() as u64);
        let clock = clocks[mover as usize].as_mut().map(|c| {
            c.spend(reply.thought);
            c.left.as_millis() as u64
        });
        // (Without clocks there is nothing to keep: `clock_ms` stays empty.)
        if clocked {
            clock_ms.push(clock);
        }
        // Judged legal, and the game was going on: played as judged, not replayed.
        game.play_generated(&legal);
    }
}

/// Who wins when `side` forfeits at the game's position: its opponent, except that
/// running out of time against a side that can never win there draws
/// (`flag_fall_winner`).
fn forfeit_winner(game: &Game, side: Side, forfeit: &Forfeit) -> Option<Side> {
    match forfeit.reason {
        Termination::TimeForfeit => flag_fall_winner(game.variant(), game.board(), side),
        _ => Some(side.opponent()),
    }
}

/// A reply's move is legal and came in time (with the move as played), or the forfeit
/// it earns.
fn judge(game: &Game, turn: &Turn, mut reply: Reply) -> Result<(Reply, LegalMove), Forfeit> {
    check_time(turn, &reply)?;
    if let Some(legal) = reply.played.take() {
        debug_assert_eq!(
            game.variant()
                .play_move(game.board(), &reply.mv)
                .map(|m| m.child),
            Some(legal.child),
            "a bot's move is what the rules make of it"
        );
        return Ok((reply, legal));
    }
    match game.variant().play_move(game.board(), &reply.mv) {
        Some(legal) => Ok((reply, legal)),
        None => Err(Forfeit {
            reason: Termination::IllegalMove,
            detail: format!("played {}, not a legal move here", reply.mv),
        }),
    }
}

/// Why settling a move's answers stopped short: the match was interrupted, or a side
/// forfeited.
enum Halted {
    Interrupted,
    Forfeit((Side, Forfeit)),
}

/// What asking for the decisions inside a move needs.
struct Asking<'a> {
    game: &'a Game<'a>,
    margin: Duration,
    interrupt: Option<&'a AtomicBool>,
}

impl Asking<'_> {
    /// Under the retreat (RULES.md 3.4), settles the answers in the mover's move: the
    /// answers its reply carries are only its plan, so the opponent is asked for each
    /// one, and where it answers otherwise the mover is asked for the rest of the move.
    /// The answerer's time comes off its clock at once (no increment); the mover's adds
    /// to the reply's. A forfeit names the side that earned it.
    fn settle_answers<'p>(
        &self,
        mut players: [&mut (dyn Player + 'p); 2],
        clocks: &mut [Option<Clock>; 2],
        mut reply: Reply,
        legal: LegalMove,
    ) -> Result<Option<(Reply, LegalMove)>, (Side, Forfeit)> {
        let answerer = self.game.board().to_move().opponent();
        let mut thought = reply.thought;
        let mut ask = |partial: &Move, answering: bool| {
            let half = HalfMove {
                mv: partial.clone(),
                answering,
            };
            let answered = self
                .ask(&mut players, clocks, thought, &half)
                .map_err(Halted::Forfeit)?
                .ok_or(Halted::Interrupted)?;
            match (answering, clocks[answerer as usize].as_mut()) {
                (true, Some(c)) => c.left = c.left.saturating_sub(answered.thought),
                (true, None) => {}
                (false, _) => thought += answered.thought,
            }
            Ok(answered.mv)
        };
        let (variant, board) = (self.game.variant(), self.game.board());
        let plan = match settle_answers(variant, board, reply.mv.clone(), &mut ask) {
            Ok(plan) => plan,
            Err(Halted::Interrupted) => return Ok(None),
            Err(Halted::Forfeit(forfeit)) => return Err(forfeit),
        };
        let legal = match reply.mv == plan {
            true => legal,
            false => variant
                .play_move(board, &plan)
                .expect("each completion was judged legal"),
        };
        reply.mv = plan;
        reply.thought = thought;
        reply.played = None;
        reply.answered = None;
        Ok(Some((reply, legal)))
    }

    /// Asks the side that decides in `half` to go on with it (the mover's clock less
    /// `mover_spent`, the time its move has taken so far), and judges the reply.
    fn ask<'p>(
        &self,
        players: &mut [&mut (dyn Player + 'p); 2],
        clocks: &[Option<Clock>; 2],
        mover_spent: Duration,
        half: &HalfMove,
    ) -> Result<Option<Reply>, (Side, Forfeit)> {
        let mover = self.game.board().to_move();
        let mut clocks = *clocks;
        if let Some(c) = clocks[mover as usize].as_mut() {
            c.left = c.left.saturating_sub(mover_spent);
        }
        let turn = Turn {
            game: self.game,
            clocks,
            margin: self.margin,
            interrupt: self.interrupt,
            asked: Instant::now(),
            half: Some(half),
        };
        let decider = turn.decider();
        let reply = match players[decider as usize].play(&turn) {
            Ok(Some(reply)) => reply,
            Ok(None) => return Ok(None),
            Err(f) => return Err((decider, f)),
        };
        judge_half(self.game, &turn, half, reply)
            .map(Some)
            .map_err(|f| (decider, f))
    }
}

/// A reply to a move half made came in time and is a legal whole move that begins with
/// the letters given, or the forfeit it earns.
fn judge_half(game: &Game, turn: &Turn, half: &HalfMove, reply: Reply) -> Result<Reply, Forfeit> {
    check_time(turn, &reply)?;
    let legal = reply.mv.goes_on_from(&half.mv)
        && game.variant().play_move(game.board(), &reply.mv).is_some();
    if !legal {
        return Err(Forfeit {
            reason: Termination::IllegalMove,
            detail: format!(
                "played {} for the move half made {}, not a legal completion",
                reply.mv, half.mv
            ),
        });
    }
    Ok(reply)
}

/// A reply came within the decider's clock plus the margin, or the forfeit it earns.
fn check_time(turn: &Turn, reply: &Reply) -> Result<(), Forfeit> {
    match turn.own_clock() {
        Some(clock) if reply.thought > clock.left + turn.margin => Err(Forfeit {
            reason: Termination::TimeForfeit,
            detail: format!(
                "took {} ms with {} ms on its clock (margin {} ms)",
                reply.thought.as_millis(),
                clock.left.as_millis(),
                turn.margin.as_millis()
            ),
        }),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matches::engine::{Bot, EngineSpec};

    fn retreat_variant() -> Variant {
        let text = "name = \"r\"\nbase = \"igisoro\"\nretreat = \"front-to-back\"\n";
        Variant::new(isolo_rules::Rules::from_toml(text, "r").unwrap()).unwrap()
    }

    /// A bot that notes each move half made it is asked to go on with, and can be told
    /// to answer them with a move that is no completion.
    struct Noting {
        bot: Bot,
        asked: Vec<(Side, HalfMove)>,
        garbles: bool,
    }

    impl Player for Noting {
        fn finds_every_move(&self) -> bool {
            true
        }

        fn play(&mut self, turn: &Turn) -> Result<Option<Reply>, Forfeit> {
            if let Some(half) = turn.half {
                self.asked.push((turn.decider(), half.clone()));
                if self.garbles {
                    let mut reply = self.bot.play(turn)?.expect("not interrupted");
                    reply.mv.choices.truncate(half.mv.choices.len());
                    return Ok(Some(reply));
                }
            }
            self.bot.play(turn)
        }
    }

    fn noting(spec: &str, garbles: bool) -> Noting {
        Noting {
            bot: EngineSpec::parse(spec).unwrap().bot(3).unwrap(),
            asked: Vec::new(),
            garbles,
        }
    }

    /// Each answer in a move is asked of the mover's opponent, the mover goes on after an
    /// answer its plan did not expect, and the game's moves replay as the rules' own.
    #[test]
    fn the_opponent_answers_each_pass_and_the_mover_goes_on() {
        let variant = retreat_variant();
        let (mut answers, mut resumed) = (0, 0);
        let pairs = [
            ("ab:depth=1", "greedy"),
            ("random", "ab:depth=2"),
            ("random", "random"),
        ];
        for (south, north) in pairs {
            let (mut s, mut n) = (noting(south, false), noting(north, false));
            let record = play_game(
                &variant,
                variant.start(),
                [&mut s, &mut n],
                300,
                &TimeControls::default(),
                None,
            )
            .unwrap();
            let mut game = Game::new(&variant, variant.start());
            for mv in &record.moves {
                game.play_move(mv).expect("a legal move");
            }
            for (player, side) in [(&s, Side::South), (&n, Side::North)] {
                for (decider, half) in &player.asked {
                    assert_eq!(*decider, side);
                    match half.answering {
                        true => answers += 1,
                        false => resumed += 1,
                    }
                }
            }
        }
        assert!(
            answers >= 3 && resumed >= 1,
            "{answers} answers, {resumed} resumed"
        );
    }

    /// An answer that is no completion of the move half made loses the answerer the game.
    #[test]
    fn a_bad_answer_forfeits() {
        let variant = retreat_variant();
        let (mut s, mut n) = (noting("random", true), noting("random", true));
        let record = play_game(
            &variant,
            variant.start(),
            [&mut s, &mut n],
            1000,
            &TimeControls::default(),
            None,
        )
        .unwrap();
        let (decider, half) = s.asked.iter().chain(&n.asked).next().expect("one asked");
        assert_eq!(record.reason, Termination::IllegalMove);
        assert_eq!(record.winner, Some(decider.opponent()));
        assert!(half.answering, "the first asked is an answer");
        assert!(record.detail.as_ref().unwrap().contains("half made"));
        // The records' check accepts the answerer's forfeit, and only under the retreat.
        let written = crate::matches::records::Record {
            game: 0,
            opening: variant.start(),
            south: "s".into(),
            north: "n".into(),
            moves: record.moves.clone(),
            result: crate::matches::records::GameResult::of_winner(record.winner),
            reason: record.reason,
            detail: record.detail.clone(),
            seed: 0,
            time_ms: 0,
            move_ms: Vec::new(),
            clock_ms: Vec::new(),
        };
        assert!(crate::matches::records::replay(&variant, 1000, &written).is_ok());
        let plain = Variant::load("igisoro").unwrap();
        let replayed = crate::matches::records::replay(&plain, 1000, &written);
        assert!(replayed
            .unwrap_err()
            .to_string()
            .contains("the side to move"));
    }
}
