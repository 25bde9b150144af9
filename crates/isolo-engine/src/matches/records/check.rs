//! The checks that a file's games are its run's: in order, each once, as scheduled.

use super::*;

/// The check that a file's records are games `0..n` of `schedule`'s shard, each once,
/// in order, each played by the engines, from the opening and with the seed the
/// schedule gives, made a record at a time; the error names the first game that is
/// duplicated, missing, out of range or does not match.
pub struct SequenceCheck<'a> {
    schedule: &'a Schedule,
    engines: &'a [String],
    expected: Box<dyn Iterator<Item = u64> + Send + 'a>,
    previous: Option<u64>,
}

impl<'a> SequenceCheck<'a> {
    /// A check of the games of `schedule`'s shard, from its first.
    pub fn new(schedule: &'a Schedule, engines: &'a [String]) -> SequenceCheck<'a> {
        SequenceCheck {
            schedule,
            engines,
            expected: Box::new(schedule.games()),
            previous: None,
        }
    }

    /// Checks the next record; the error names what is wrong.
    pub fn next(&mut self, r: &Record) -> Result<(), RecordsError> {
        self.next_text(r).map_err(RecordsError::Sequence)
    }

    fn next_text(&mut self, r: &Record) -> Result<(), String> {
        let Some(expected) = self.expected.next() else {
            return Err(match self.previous {
                Some(p) if r.game <= p => format!("game {} is recorded twice", r.game),
                _ => format!("game {} is beyond the games this file plays", r.game),
            });
        };
        game_in_place(r, expected, self.previous, self.schedule)?;
        self.previous = Some(r.game);
        job_as_scheduled(r, self.schedule, self.engines)
    }
}

/// Checks that a record was played by the engines, from the opening and with the seed
/// that its schedule gives its game.
pub(crate) fn check_job(
    r: &Record,
    schedule: &Schedule,
    engines: &[String],
) -> Result<(), RecordsError> {
    job_as_scheduled(r, schedule, engines).map_err(RecordsError::Sequence)
}

fn job_as_scheduled(r: &Record, schedule: &Schedule, engines: &[String]) -> Result<(), String> {
    let job: Job = schedule.job(r.game);
    let (south, north) = (&engines[job.south], &engines[job.north]);
    if r.south != *south || r.north != *north || r.seed != job.seed || r.opening != job.opening {
        return Err(format!(
            "game {} does not match the schedule (engines, opening or seed differ)",
            r.game
        ));
    }
    Ok(())
}

/// Checks that a record holds game `expected` of the schedule's shard, coming after game
/// `previous`; the error names what is wrong.
pub(crate) fn check_game(
    r: &Record,
    expected: u64,
    previous: Option<u64>,
    schedule: &Schedule,
) -> Result<(), RecordsError> {
    game_in_place(r, expected, previous, schedule).map_err(RecordsError::Sequence)
}

fn game_in_place(
    r: &Record,
    expected: u64,
    previous: Option<u64>,
    schedule: &Schedule,
) -> Result<(), String> {
    let total = schedule.len();
    let shard = schedule.shard();
    if r.game == expected {
        return Ok(());
    }
    if r.game >= total {
        return Err(format!(
            "game {} is beyond the schedule's {total} games",
            r.game
        ));
    }
    if previous.is_some_and(|p| r.game <= p) {
        return Err(format!("game {} is recorded twice", r.game));
    }
    let owner = schedule.shard_of(r.game, shard.count);
    if owner != shard.index {
        return Err(format!(
            "game {} belongs to shard {}/{}, not to this file's {shard}",
            r.game,
            owner + 1,
            shard.count
        ));
    }
    let context = match previous {
        None => format!("the records start at game {}", r.game),
        Some(p) => format!("the records go from game {p} to game {}", r.game),
    };
    Err(format!("game {expected} is missing ({context})"))
}
