//! Engine specs (`random`, `greedy`, `ab:depth=6`, `mcts:time-ms=100,c=1.2`, an external
//! program `me=cmd:"./engine --ugi",option.Hash=64`, optionally labelled `fast=ab:depth=4`,
//! any of them on a clock with `tc=10+0.1`) and the bots they make: anything that picks a
//! move.

use std::fmt;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::eval::Weights;
use crate::matches::external::ExternalConfig;
use crate::matches::player::{Forfeit, HalfMove, Player, Reply, Termination, Turn};
use crate::matches::words;
use crate::ranges::{self, Number, Range};
use crate::search::alphabeta::{AlphaBeta, AlphaBetaConfig, ChoiceWalk};
use crate::search::answer::{complete_move_at_random, complete_move_by, EndSearch};
use crate::search::clock::{Clock, TimeControl};
use crate::search::level::Level;
use crate::search::mcts::{Mcts, MctsConfig, Playout};
use crate::search::score::Score;
use crate::search::tt::TableError;
use crate::search::{
    searched_moves, Limits, Past, Progress, SearchRequest, SearchResult, Searcher,
};
use isolo_rules::{Board, LegalMove, Move, Variant};

/// Time per move of a searching engine whose spec gives no limit.
pub const DEFAULT_MOVE_TIME: Duration = Duration::from_millis(1000);

/// Which kind of engine.
#[derive(Clone, Debug, PartialEq)]
pub enum EngineKind {
    /// A random legal move, picked as `RandomPick` says.
    Random(RandomPick),
    /// The move capturing the most seeds now (random among equals).
    Greedy,
    /// Alpha-beta with these settings.
    AlphaBeta(AlphaBetaConfig),
    /// Monte Carlo tree search with these settings.
    Mcts(MctsConfig),
    /// A program speaking UGI (see [`crate::matches::external`]).
    External(ExternalConfig),
}

/// How the random engine picks its move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RandomPick {
    /// Uniformly among the distinct moves (`pick=move`, the default).
    #[default]
    Move,
    /// A random pit that has a move, then one of its distinct results: the move of
    /// MCTS's playouts and `bench --playouts` (`pick=pit`), which lists one pit, not all.
    Pit,
}

/// A parsed engine spec.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineSpec {
    /// The label (`fast` in `fast=ab:depth=4`), or the spec text itself.
    pub label: String,
    /// The spec without its label (`ab:depth=4`).
    pub text: String,
    /// The engine and its settings.
    pub kind: EngineKind,
    /// Its limits per move, as given (see `EngineSpec::move_limits`).
    pub limits: Limits,
    /// Its own clock (`tc=`), which a match's `--tc` does not replace.
    pub clock: Option<TimeControl>,
    /// Its strength level (`level=`; the top unless given).
    pub level: Level,
}

impl fmt::Display for EngineSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.label)
    }
}

pub use crate::ranges::{
    DEFAULT_CONTEMPT_SEEDS, MAX_CONTEMPT_SEEDS, MAX_MOVE_TIME_MS, MAX_QUIESCENCE_PLIES, MAX_THREADS,
};
/// The longest MCTS playout `playout=cutN` may ask for, in plies.
pub const MAX_PLAYOUT_PLIES: u32 = 1_000_000;

/// What is wrong with an engine spec or one of its options.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SpecError {
    #[error("empty label")]
    /// `=spec` with nothing before the `=`.
    EmptyLabel,
    #[error("no engine named (engines: random, greedy, ab, mcts, cmd)")]
    /// No engine name.
    NoEngine,
    #[error("unknown engine '{0}' (engines: random, greedy, ab, mcts, cmd)")]
    /// A name that is not an engine.
    UnknownEngine(String),
    #[error("'{0}' is not key=value")]
    /// An option without `=`.
    NotKeyValue(String),
    #[error("an empty option")]
    /// An empty option (`ab:` or `a,,b`).
    EmptyOption,
    #[error("unknown key `{key}` for engine '{engine}'")]
    /// A key the engine does not take.
    UnknownKey {
        /// The key.
        key: String,
        /// The engine's name.
        engine: String,
    },
    #[error("key `{0}` given twice")]
    /// A key given twice.
    Repeated(String),
    #[error("an external engine needs a name: NAME=cmd:\"PROGRAM ARGS\"")]
    /// `cmd:` without a label.
    Unnamed,
    #[error("cmd: {0}")]
    /// A `cmd:` command that cannot be read.
    BadCommand(String),
    #[error("engine key `{key}`: {problem}")]
    /// A value the key does not accept.
    BadValue {
        /// The key.
        key: String,
        /// What is wrong with its value.
        problem: String,
    },
}

/// A spec that did not parse: the spec's text and what is wrong.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("engine '{spec}': {error}")]
pub struct SpecParseError {
    /// The spec as given.
    pub spec: String,
    /// What is wrong with it.
    pub error: SpecError,
}

/// The value of a `walk` key.
fn choice_walk(key: &str, value: &str) -> Result<ChoiceWalk, SpecError> {
    words::walk_named(value)
        .ok_or_else(|| bad(key, format!("expected vast or all, found '{value}'")))
}

fn bad(key: &str, problem: impl Into<String>) -> SpecError {
    SpecError::BadValue {
        key: key.to_string(),
        problem: problem.into(),
    }
}

/// A number of `range` (the same check, and words, as every front end's).
fn ranged<T: Number>(key: &str, value: &str, range: &Range<T>) -> Result<T, SpecError> {
    range.parse(value).map_err(|e| bad(key, e.to_string()))
}

/// `playout=cutN`: plies of a cut playout.
const PLAYOUT_CUT: Range<u32> = Range::new("playout", 1, MAX_PLAYOUT_PLIES, "plies");

/// The options a searching engine takes, checked one by one: the single place where
/// engine options are read, for `--engine` specs and `analyze`'s flags alike.
fn set_option(
    kind: &mut EngineKind,
    settings: &mut SpecSettings,
    key: &str,
    value: &str,
) -> Result<bool, SpecError> {
    match (kind, key) {
        (EngineKind::AlphaBeta(_) | EngineKind::Mcts(_), "level") => {
            let n = ranged(key, value, &ranges::LEVEL)?;
            settings.level = Level::new(n).expect("a level in range");
        }
        (_, "tc") => {
            settings.clock = Some(
                value
                    .parse::<TimeControl>()
                    .map_err(|e| bad(key, e.problem))?,
            )
        }
        (EngineKind::AlphaBeta(_) | EngineKind::Mcts(_) | EngineKind::External(_), "time-ms") => {
            settings.limits.time = Some(Duration::from_millis(ranged(
                key,
                value,
                &ranges::TIME_MS,
            )?));
        }
        (EngineKind::AlphaBeta(_) | EngineKind::External(_), "depth") => {
            settings.limits.depth = Some(ranged(key, value, &ranges::DEPTH)?);
        }
        (EngineKind::AlphaBeta(_) | EngineKind::External(_), "nodes")
        | (EngineKind::Mcts(_), "iters") => {
            settings.limits.nodes = Some(ranged(key, value, &ranges::NODES)?);
        }
        (EngineKind::External(c), "stall-ms") => {
            c.stall = Some(Duration::from_millis(ranged(
                key,
                value,
                &ranges::TIME_MS,
            )?))
        }
        (EngineKind::External(c), option) if option.starts_with("option.") => {
            let name = &option["option.".len()..];
            if name.is_empty() {
                return Err(bad(key, "option. needs a name (option.Hash=64)"));
            }
            c.options.push((name.to_string(), value.to_string()));
        }
        (EngineKind::Random(pick), "pick") => {
            *pick = match value {
                "move" => RandomPick::Move,
                "pit" => RandomPick::Pit,
                _ => {
                    return Err(bad(
                        key,
                        "expected move (uniform over the distinct moves) or pit (a random pit, then one of its moves)",
                    ))
                }
            }
        }
        (EngineKind::AlphaBeta(c), "threads") => {
            c.threads = ranged(key, value, &ranges::THREADS)?
        }
        (EngineKind::Mcts(c), "threads") => c.threads = ranged(key, value, &ranges::THREADS)?,
        (EngineKind::AlphaBeta(c), "quiescence") => {
            c.quiescence = ranged(key, value, &ranges::QUIESCENCE)?
        }
        (EngineKind::AlphaBeta(c), "qmoves") => {
            c.quiescence_moves = words::quiescence_moves_named(value).ok_or_else(|| {
                bad(key, format!("expected all or first-lap, found '{value}'"))
            })?
        }
        (EngineKind::AlphaBeta(c), "walk") => c.walk = choice_walk(key, value)?,
        (EngineKind::AlphaBeta(c), "contempt") => {
            c.contempt = 100 * ranged(key, value, &ranges::CONTEMPT)?
        }
        (EngineKind::Mcts(c), "walk") => c.walk = choice_walk(key, value)?,
        (EngineKind::AlphaBeta(c), "hash") => {
            let mb = ranged(key, value, &ranges::HASH_MB)?;
            crate::search::tt::check_table_mb(mb).map_err(|e| bad(key, e.to_string()))?;
            c.hash_mb = mb;
        }
        (EngineKind::Mcts(c), "c") => {
            c.exploration = match value.parse::<f64>() {
                Ok(x) if x.is_finite() && x > 0.0 => x,
                _ => {
                    return Err(bad(
                        key,
                        format!("must be a positive finite number, found '{value}'"),
                    ))
                }
            }
        }
        (EngineKind::Mcts(c), "prior") => {
            c.prior = match value.parse::<f64>() {
                Ok(x) if x.is_finite() && x >= 0.0 => x,
                _ => {
                    return Err(bad(
                        key,
                        format!("must be a finite number, 0 or more, found '{value}'"),
                    ))
                }
            }
        }
        (EngineKind::Mcts(c), "playout") => {
            c.playout = match value {
                "random" => Playout::Random,
                cut => match cut.strip_prefix("cut") {
                    Some(plies) => {
                        Playout::Cut(ranged(key, plies, &PLAYOUT_CUT)?)
                    }
                    None => {
                        return Err(bad(
                            key,
                            format!("expected random or cutN, found '{value}'"),
                        ))
                    }
                },
            }
        }
        (EngineKind::Mcts(c), "parallel") => {
            c.parallel = words::parallel_named(value)
                .ok_or_else(|| bad(key, format!("expected root or tree, found '{value}'")))?
        }
        (EngineKind::Mcts(c), "seed") => c.seed = ranged(key, value, &ranges::SEED)?,
        (EngineKind::AlphaBeta(c), "weights") => {
            c.weights = Weights::choose(value).map_err(|e| bad(key, e.to_string()))?
        }
        (EngineKind::Mcts(c), "weights") => {
            c.weights = Weights::choose(value).map_err(|e| bad(key, e.to_string()))?
        }
        _ => return Ok(false),
    }
    Ok(true)
}

/// `key=value` pairs separated by commas.
fn key_values(options: &str) -> Result<Vec<(&str, &str)>, SpecError> {
    options
        .split(',')
        .filter(|_| !options.is_empty())
        .map(|kv| match kv.split_once('=') {
            _ if kv.is_empty() => Err(SpecError::EmptyOption),
            Some((k, v)) if !k.is_empty() && !v.is_empty() => Ok((k, v)),
            _ => Err(SpecError::NotKeyValue(kv.to_string())),
        })
        .collect()
}

/// Applies each option to `kind`, refusing repeated and unknown keys; returns the limits
/// and clock they set.
fn set_options(
    kind: &mut EngineKind,
    name: &str,
    pairs: &[(&str, &str)],
) -> Result<SpecSettings, SpecError> {
    let mut settings = SpecSettings::default();
    for (i, (key, value)) in pairs.iter().enumerate() {
        if pairs[..i].iter().any(|(k, _)| k == key) {
            return Err(SpecError::Repeated(key.to_string()));
        }
        if !set_option(kind, &mut settings, key, value)? {
            return Err(SpecError::UnknownKey {
                key: key.to_string(),
                engine: name.to_string(),
            });
        }
    }
    Ok(settings)
}

/// What a spec sets besides its engine's own configuration.
#[derive(Default)]
struct SpecSettings {
    limits: Limits,
    clock: Option<TimeControl>,
    level: Level,
}

impl EngineSpec {
    /// Parses a spec; an unknown engine or key, a bad or repeated value is an error
    /// naming it.
    pub fn parse(text: &str) -> Result<EngineSpec, SpecParseError> {
        let wrap = |error| SpecParseError {
            spec: text.to_string(),
            error,
        };
        let (label, body) = match text.split_once('=') {
            Some((label, body)) if !label.contains(':') && !label.contains(',') => {
                (label.to_string(), body)
            }
            _ => (text.to_string(), text),
        };
        if label.is_empty() {
            return Err(wrap(SpecError::EmptyLabel));
        }
        let (name, options) = match body.split_once(':') {
            Some((_, "")) => return Err(wrap(SpecError::EmptyOption)),
            Some((name, options)) => (name, options),
            None => (body, ""),
        };
        if name == "cmd" {
            if label == text {
                return Err(wrap(SpecError::Unnamed));
            }
            let mut spec = EngineSpec::parse_external(options).map_err(wrap)?;
            spec.label = label;
            spec.text = body.to_string();
            return Ok(spec);
        }
        let pairs = key_values(options).map_err(wrap)?;
        let mut spec = EngineSpec::from_options(name, &pairs).map_err(wrap)?;
        spec.label = label;
        spec.text = body.to_string();
        Ok(spec)
    }

    /// An engine from its name and options (`("depth", "6")`...), each checked as in a
    /// spec; no default limit is added. The label and text are the options written out.
    pub(crate) fn from_options(
        name: &str,
        pairs: &[(&str, &str)],
    ) -> Result<EngineSpec, SpecError> {
        let mut kind = match name {
            "" => return Err(SpecError::NoEngine),
            "random" => EngineKind::Random(RandomPick::Move),
            "greedy" => EngineKind::Greedy,
            "ab" => EngineKind::AlphaBeta(AlphaBetaConfig::default()),
            "mcts" => EngineKind::Mcts(MctsConfig::default()),
            _ => return Err(SpecError::UnknownEngine(name.to_string())),
        };
        let settings = set_options(&mut kind, name, pairs)?;
        let text = if pairs.is_empty() {
            name.to_string()
        } else {
            let options: Vec<String> = pairs.iter().map(|(k, v)| format!("{k}={v}")).collect();
            format!("{name}:{}", options.join(","))
        };
        Ok(EngineSpec {
            label: text.clone(),
            text,
            kind,
            limits: settings.limits,
            clock: settings.clock,
            level: settings.level,
        })
    }

    /// `cmd:"PROGRAM ARGS",key=value,...` after the `cmd:`: the command in double quotes
    /// (or, unquoted, up to the first comma), split into words at spaces.
    fn parse_external(options: &str) -> Result<EngineSpec, SpecError> {
        let (command, rest) = match options.strip_prefix('"') {
            Some(quoted) => {
                let end = quoted
                    .find('"')
                    .ok_or_else(|| SpecError::BadCommand("no closing quote".into()))?;
                let rest = &quoted[end + 1..];
                match rest.strip_prefix(',') {
                    Some(rest) => (&quoted[..end], rest),
                    None if rest.is_empty() => (&quoted[..end], ""),
                    None => {
                        return Err(SpecError::BadCommand(format!(
                            "expected a comma after the quoted command, found '{rest}'"
                        )))
                    }
                }
            }
            None => options.split_once(',').unwrap_or((options, "")),
        };
        let words: Vec<String> = command.split_whitespace().map(str::to_string).collect();
        if words.is_empty() {
            return Err(SpecError::BadCommand("no program named".into()));
        }
        if options.ends_with(',') {
            return Err(SpecError::EmptyOption);
        }
        let pairs = key_values(rest)?;
        let mut kind = EngineKind::External(ExternalConfig {
            command: words,
            ..ExternalConfig::default()
        });
        let settings = set_options(&mut kind, "cmd", &pairs)?;
        Ok(EngineSpec {
            label: String::new(),
            text: String::new(),
            kind,
            limits: settings.limits,
            clock: settings.clock,
            level: settings.level,
        })
    }

    /// The limits a move is searched with off the clock: as given, or
    /// `DEFAULT_MOVE_TIME` for a searching engine given none.
    pub(crate) fn move_limits(&self) -> Limits {
        let mut limits = self.limits;
        if limits.is_unbounded() && self.searches() {
            limits.time = Some(DEFAULT_MOVE_TIME);
        }
        limits
    }

    /// Whether this engine is a program outside this one.
    pub(crate) fn is_external(&self) -> bool {
        matches!(self.kind, EngineKind::External(_))
    }

    /// Whether every game this engine plays from one position with one opponent is the
    /// same game: alpha-beta on one thread with a depth or node limit and no time limit
    /// or clock, at the top level (the others draw on their seed, and time varies).
    pub fn is_deterministic(&self) -> bool {
        let limits = self.move_limits();
        matches!(&self.kind, EngineKind::AlphaBeta(c) if c.threads == 1)
            && limits.time.is_none()
            && self.clock.is_none()
            && self.level.is_top()
    }

    /// Whether this engine is MCTS (whose levels have a table of their own).
    pub fn is_mcts(&self) -> bool {
        matches!(self.kind, EngineKind::Mcts(_))
    }

    /// Whether this engine searches (and so takes limits).
    pub fn searches(&self) -> bool {
        matches!(self.kind, EngineKind::AlphaBeta(_) | EngineKind::Mcts(_))
    }

    /// Sets the evaluation weights of a searching engine (`None`: the variant's own).
    pub(crate) fn with_weights(mut self, weights: Option<Weights>) -> EngineSpec {
        match &mut self.kind {
            EngineKind::AlphaBeta(c) => c.weights = weights,
            EngineKind::Mcts(c) => c.weights = weights,
            _ => {}
        }
        self
    }

    /// A bot playing by this spec; `seed` drives its random choices. Fails when the
    /// alpha-beta table cannot be allocated, and for an external engine (which plays
    /// through [`crate::matches::external`]).
    pub fn bot(&self, seed: u64) -> Result<Bot, BotError> {
        if self.is_external() {
            return Err(BotError::External(self.label.clone()));
        }
        Ok(Bot {
            spec: self.clone(),
            searcher: self.seeded_searcher(Some(seed))?,
            rng: SmallRng::seed_from_u64(seed),
            mover: None,
            stop: None,
        })
    }

    /// The searcher of a searching engine (its seed as the spec says), for one search.
    pub fn searcher(&self) -> Result<Option<Box<dyn Searcher + Send>>, TableError> {
        self.seeded_searcher(None)
    }

    /// The searcher, its random choices drawn from `seed` where given.
    fn seeded_searcher(
        &self,
        seed: Option<u64>,
    ) -> Result<Option<Box<dyn Searcher + Send>>, TableError> {
        Ok(match &self.kind {
            EngineKind::AlphaBeta(c) => Some(Box::new(AlphaBeta::new(c.clone())?)),
            EngineKind::Mcts(c) => Some(Box::new(Mcts::new(MctsConfig {
                seed: seed.unwrap_or(c.seed),
                ..c.clone()
            }))),
            _ => None,
        })
    }
}

/// Why a spec gives no in-process bot.
#[derive(Debug, thiserror::Error)]
pub enum BotError {
    /// The alpha-beta table cannot be allocated.
    #[error(transparent)]
    Table(#[from] TableError),
    /// An external engine is a program, played through a manager.
    #[error("engine '{0}' is an external program: it plays in match and tournament only")]
    External(String),
}

/// A move choice, with the search behind it when there was one.
pub struct Choice {
    /// The move to play.
    pub played: LegalMove,
    /// The search that chose it (searching engines only).
    pub search: Option<SearchResult>,
    /// The search's score of the move played (at a level below the top, not always the
    /// best line's).
    pub score: Option<Score>,
}

/// Something that picks moves.
pub struct Bot {
    spec: EngineSpec,
    searcher: Option<Box<dyn Searcher + Send>>,
    rng: SmallRng,
    /// The random move of `random:pick=pit`, made when first needed.
    mover: Option<isolo_rules::RandomMover>,
    /// A flag that ends searches early when set (an interrupted match).
    stop: Option<&'static AtomicBool>,
}

impl Bot {
    /// Searches end early once `flag` is set.
    pub fn stop_on(&mut self, flag: &'static AtomicBool) {
        self.stop = Some(flag);
    }

    /// Makes the bot play its next game as `spec.bot(seed)` would, where it keeps no
    /// search state between games (random, greedy); says whether it could.
    pub(crate) fn reseed(&mut self, seed: u64) -> bool {
        if self.searcher.is_some() {
            return false;
        }
        self.rng = SmallRng::seed_from_u64(seed);
        true
    }

    /// The spec this bot plays by.
    pub fn spec(&self) -> &EngineSpec {
        &self.spec
    }

    /// Picks a move in a position with at least one legal move; `past` holds what the
    /// search needs of the game before it. On a `clock` a search takes the time
    /// management's limits (capped by the spec's), and the only legal move is played at
    /// once.
    pub fn choose(
        &mut self,
        variant: &Variant,
        board: &Board,
        past: Past<'_>,
        clock: Option<&Clock>,
        report: &mut dyn FnMut(&Progress),
    ) -> Option<Choice> {
        if self.spec.kind == EngineKind::Random(RandomPick::Pit) {
            let mover = self.mover.get_or_insert_with(Default::default);
            // (Where every pit's listing is cut short, the whole list below decides.)
            if let Some(played) = mover.choose_move(variant, board, &mut self.rng) {
                return Some(Choice {
                    played,
                    search: None,
                    score: None,
                });
            }
        }
        // One move per distinct result: random and greedy choose among positions, not
        // among the take/pass sequences that reach them.
        let (moves, _) = searched_moves(variant, board);
        if moves.is_empty() {
            return None;
        }
        match &self.spec.kind {
            EngineKind::Random(_) => {
                let pick = self.rng.random_range(0..moves.len());
                Some(Choice {
                    played: moves[pick].clone(),
                    search: None,
                    score: None,
                })
            }
            EngineKind::Greedy => {
                let most = moves.iter().map(|m| m.captured).max().unwrap_or(0);
                let best: Vec<&LegalMove> = moves.iter().filter(|m| m.captured == most).collect();
                let pick = self.rng.random_range(0..best.len());
                Some(Choice {
                    played: best[pick].clone(),
                    search: None,
                    score: None,
                })
            }
            EngineKind::AlphaBeta(_) | EngineKind::Mcts(_)
                if clock.is_some() && moves.len() == 1 =>
            {
                Some(Choice {
                    played: moves[0].clone(),
                    search: None,
                    score: None,
                })
            }
            EngineKind::AlphaBeta(_) | EngineKind::Mcts(_) => {
                let searcher = self
                    .searcher
                    .as_mut()
                    .expect("searching engines have a searcher");
                let request = SearchRequest {
                    variant,
                    board: *board,
                    history: past.hashes.to_vec(),
                    quiet_plies: past.quiet_plies,
                    limits: match clock {
                        Some(clock) => clock.limits(self.spec.limits),
                        None => self.spec.move_limits(),
                    },
                    multipv: 1,
                    pv_lines: usize::MAX,
                    stop: self.stop,
                };
                let mcts = matches!(self.spec.kind, EngineKind::Mcts(_));
                let searched = self.spec.level.search(
                    searcher.as_mut(),
                    mcts,
                    &request,
                    &mut self.rng,
                    report,
                );
                let score = searched.played.as_ref().map(|line| line.score);
                // A position with a legal move is never forfeited: should a search end
                // without a line, the first listed move is played.
                let played = searched
                    .played
                    .and_then(|line| variant.play_move(board, &line.mv))
                    .unwrap_or_else(|| moves[0].clone());
                Some(Choice {
                    played,
                    search: Some(searched.result),
                    score,
                })
            }
            EngineKind::External(_) => unreachable!("external engines make no bot"),
        }
    }

    /// The whole move that `partial`, half made from `board` under the retreat, becomes
    /// as this bot decides the rest (RULES.md 3.4): random draws among the options a
    /// legal move follows, greedy keeps the answerer's seeds at their most for the
    /// answerer and their fewest for the mover, a searching engine searches the
    /// positions the move can end in (on a `clock`, within the clock's limits) and
    /// decides as its level does (`Level::complete`). `None`: `partial` is no move half
    /// made.
    pub fn complete(
        &mut self,
        variant: &Variant,
        board: &Board,
        past: Past,
        partial: &Move,
        clock: Option<&Clock>,
    ) -> Option<Move> {
        let whole = match &self.spec.kind {
            EngineKind::Random(_) => {
                complete_move_at_random(variant, board, partial, &mut self.rng)
            }
            EngineKind::Greedy => {
                let answerer_seeds = |end: &Board| end.side_total(end.to_move()) as i32;
                complete_move_by(variant, board, partial, &answerer_seeds)
            }
            EngineKind::AlphaBeta(_) | EngineKind::Mcts(_) => {
                let limits = match clock {
                    Some(clock) => clock.limits(self.spec.limits),
                    None => self.spec.move_limits(),
                };
                let searcher = self
                    .searcher
                    .as_mut()
                    .expect("searching engines have a searcher");
                let search = EndSearch {
                    searcher: searcher.as_mut(),
                    past,
                    limits,
                    stop: self.stop.map(|flag| flag as &AtomicBool),
                };
                let mcts = matches!(self.spec.kind, EngineKind::Mcts(_));
                (self.spec.level).complete(mcts, variant, board, partial, search, &mut self.rng)
            }
            EngineKind::External(_) => unreachable!("external engines make no bot"),
        };
        whole.ok()
    }

    /// The reply to a move half made: the bot's completion of it.
    fn play_on(&mut self, turn: &Turn, half: &HalfMove) -> Result<Option<Reply>, Forfeit> {
        let game = turn.game;
        let clock = turn.own_clock();
        let whole = self.complete(
            game.variant(),
            game.board(),
            Past::of(game),
            &half.mv,
            clock.as_ref(),
        );
        if crate::raised(turn.interrupt) {
            return Ok(None);
        }
        let mv = whole.ok_or_else(|| Forfeit {
            reason: Termination::IllegalMove,
            detail: format!("asked to go on with {}, no move half made", half.mv),
        })?;
        Ok(Some(Reply {
            mv,
            thought: turn.asked.elapsed(),
            played: None,
            answered: None,
        }))
    }
}

impl Player for Bot {
    fn finds_every_move(&self) -> bool {
        true
    }

    fn play(&mut self, turn: &Turn) -> Result<Option<Reply>, Forfeit> {
        let game = turn.game;
        if let Some(half) = turn.half {
            return self.play_on(turn, half);
        }
        let choice = self.choose(
            game.variant(),
            game.board(),
            Past::of(game),
            turn.own_clock().as_ref(),
            &mut |_| {},
        );
        if crate::raised(turn.interrupt) {
            return Ok(None);
        }
        let answered = Instant::now();
        let thought = answered.saturating_duration_since(turn.asked);
        match choice {
            Some(c) => Ok(Some(Reply {
                mv: c.played.mv.clone(),
                thought,
                played: Some(c.played),
                answered: Some(answered),
            })),
            // No move (the game loop leaves that search to bots): the rules' verdict stands,
            // not an interruption, which would end the run.
            None => Err(Forfeit {
                reason: Termination::NoMoves,
                detail: "no legal move".into(),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_by_pit_plays_the_playouts_move() {
        assert_eq!(
            EngineSpec::parse("random:pick=pit").unwrap().kind,
            EngineKind::Random(RandomPick::Pit)
        );
        assert!(EngineSpec::parse("random:pick=all").is_err());
        assert!(EngineSpec::parse("greedy:pick=pit").is_err());
        for name in ["isolo-boys", "igisoro", "isolo-women-capture-ends"] {
            let variant = Variant::load(name).unwrap();
            let mut bot = EngineSpec::parse("random:pick=pit")
                .unwrap()
                .bot(7)
                .unwrap();
            let (mut mover, mut rng) = (
                isolo_rules::RandomMover::default(),
                SmallRng::seed_from_u64(7),
            );
            let mut board = variant.start();
            for _ in 0..30 {
                let expected = mover.choose(&variant, &board, &mut rng, None);
                let Some(choice) = bot.choose(&variant, &board, Past::default(), None, &mut |_| {})
                else {
                    assert_eq!(expected, isolo_rules::RandomMove::NoMove);
                    break;
                };
                let played = variant.play_move(&board, &choice.played.mv).unwrap();
                assert_eq!(played.child, choice.played.child, "{name}: a legal move");
                match expected {
                    isolo_rules::RandomMove::Played { child, .. } => {
                        assert_eq!(child, played.child, "{name}: the playouts' move")
                    }
                    other => panic!("{name}: the playout found {other:?}"),
                }
                board = played.child;
            }
        }
    }

    #[test]
    fn parses_specs_with_labels_and_keys() {
        let spec = EngineSpec::parse("fast=ab:depth=4,threads=2").unwrap();
        assert_eq!(spec.label, "fast");
        assert_eq!(spec.limits.depth, Some(4));
        assert!(matches!(spec.kind, EngineKind::AlphaBeta(ref c) if c.threads == 2));
        let spec = EngineSpec::parse("mcts:time-ms=100,c=1.5").unwrap();
        assert_eq!(spec.label, "mcts:time-ms=100,c=1.5");
        assert_eq!(spec.limits.time, Some(Duration::from_millis(100)));
        assert_eq!(
            EngineSpec::parse("ab").unwrap().move_limits().time,
            Some(DEFAULT_MOVE_TIME)
        );
        let spec = EngineSpec::parse("me=cmd:\"./x ugi --a=b\",option.Hash=8,tc=5+0.05").unwrap();
        assert_eq!(spec.label, "me");
        assert_eq!(spec.clock.unwrap().to_string(), "5+0.05");
        match spec.kind {
            EngineKind::External(c) => {
                assert_eq!(c.command, ["./x", "ugi", "--a=b"]);
                assert_eq!(c.options, [("Hash".to_string(), "8".to_string())]);
            }
            other => panic!("{other:?}"),
        }
        let spec = EngineSpec::parse("ab:weights=hand").unwrap();
        assert!(
            matches!(spec.kind, EngineKind::AlphaBeta(ref c) if c.weights == Some(Weights::default()))
        );
        let spec = EngineSpec::parse("ab:qmoves=first-lap").unwrap();
        assert!(
            matches!(spec.kind, EngineKind::AlphaBeta(ref c) if c.quiescence_moves == crate::search::alphabeta::QuiescenceMoves::FirstLap)
        );
        let spec = EngineSpec::parse("mcts:prior=0.5").unwrap();
        assert!(matches!(spec.kind, EngineKind::Mcts(ref c) if c.prior == 0.5));
        let spec = EngineSpec::parse("mcts:walk=all").unwrap();
        assert!(matches!(spec.kind, EngineKind::Mcts(ref c) if c.walk == ChoiceWalk::All));
        let spec = EngineSpec::parse("ab:walk=all").unwrap();
        assert!(matches!(spec.kind, EngineKind::AlphaBeta(ref c) if c.walk == ChoiceWalk::All));
        let spec = EngineSpec::parse("mcts:weights=auto").unwrap();
        assert!(matches!(spec.kind, EngineKind::Mcts(ref c) if c.weights.is_none()));
        let spec = EngineSpec::parse("me=cmd:./x,nodes=5").unwrap();
        assert_eq!(spec.limits.nodes, Some(5));
        assert_eq!(
            EngineSpec::parse("random").unwrap().kind,
            EngineKind::Random(RandomPick::Move)
        );
    }

    #[test]
    fn bad_specs_name_the_problem() {
        for (text, expected) in [
            ("chess", "unknown engine 'chess'"),
            ("ab:depht=4", "unknown key `depht`"),
            ("mcts:depth=4", "unknown key `depth`"),
            (
                "ab:depth=x",
                "engine key `depth`: 'x' is not a whole number (1..=100 plies)",
            ),
            ("ab:depth", "'depth' is not key=value"),
            ("random:seed=3", "unknown key `seed`"),
            (
                "ab:threads=0",
                "engine key `threads`: must be 1..=256 threads, found 0",
            ),
            (
                "ab:hash=0",
                "engine key `hash`: must be 1..=1048576 MB, found 0",
            ),
            (
                "ab:hash=1048576",
                "MB here (half this machine's memory), found 1048576",
            ),
            (
                "ab:depth=0",
                "engine key `depth`: must be 1..=100 plies, found 0",
            ),
            (
                "ab:quiescence=17",
                "engine key `quiescence`: must be 0..=16 plies, found 17",
            ),
            ("mcts:quiescence=2", "unknown key `quiescence`"),
            (
                "ab:contempt=101",
                "engine key `contempt`: must be 0..=100 seeds, found 101",
            ),
            ("ab:contempt=-1", "engine key `contempt`"),
            ("mcts:contempt=5", "unknown key `contempt`"),
            (
                "ab:weights=/no/such/w.toml",
                "engine key `weights`: weights file /no/such/w.toml",
            ),
            ("random:weights=hand", "unknown key `weights`"),
            (
                "ab:qmoves=some",
                "engine key `qmoves`: expected all or first-lap, found 'some'",
            ),
            (
                "mcts:prior=-1",
                "engine key `prior`: must be a finite number, 0 or more, found '-1'",
            ),
            ("ab:prior=1", "unknown key `prior`"),
            (
                "ab:walk=some",
                "engine key `walk`: expected vast or all, found 'some'",
            ),
            ("ab:nodes=0", "engine key `nodes`: must be at least 1"),
            ("mcts:iters=0", "engine key `iters`: must be at least 1"),
            (
                "mcts:time-ms=0",
                "engine key `time-ms`: must be 1..=86400000 ms, found 0",
            ),
            (
                "mcts:c=NaN",
                "engine key `c`: must be a positive finite number",
            ),
            (
                "mcts:c=-1",
                "engine key `c`: must be a positive finite number",
            ),
            (
                "mcts:c=inf",
                "engine key `c`: must be a positive finite number",
            ),
            (
                "mcts:playout=cut0",
                "engine key `playout`: must be 1..=1000000 plies, found 0",
            ),
            ("ab:depth=3,depth=4", "key `depth` given twice"),
            ("ab:", "an empty option"),
            ("ab:depth=3,,nodes=4", "an empty option"),
            ("ab:depth=", "'depth=' is not key=value"),
            ("=ab", "empty label"),
            ("cmd:./x", "an external engine needs a name"),
            ("x=cmd:\"./x", "cmd: no closing quote"),
            (
                "x=cmd:\"./x\"y",
                "expected a comma after the quoted command",
            ),
            ("x=cmd:\"\"", "cmd: no program named"),
            ("x=cmd:./x,", "an empty option"),
            ("x=cmd:./x,option.=3", "option. needs a name"),
            ("x=cmd:./x,c=3", "unknown key `c` for engine 'cmd'"),
            ("ab:tc=0", "engine key `tc`: the base must be more than 0"),
            (
                "ab:tc=1+x",
                "engine key `tc`: the increment: 'x' is not a number of seconds",
            ),
            ("x=", "no engine named"),
        ] {
            let err = EngineSpec::parse(text).unwrap_err().to_string();
            assert!(err.contains(expected), "{text}: {err}");
        }
    }
}
