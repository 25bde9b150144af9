//! A searching engine's settings as typed values: the one way the front ends (the
//! command line's flags, UGI's options, the web API's fields, Python's arguments) make
//! an engine. Each value is checked against its range in [`crate::ranges`], as a spec's
//! key is; no spec text is written and read back. The spec's text is written out from
//! the values, for display and records.

use crate::eval::{Weights, WeightsError};
use crate::matches::engine::{EngineKind, EngineSpec};
pub(crate) use crate::matches::words::{parallel_name, quiescence_moves_name, walk_name};
pub use crate::matches::words::{parallel_named, quiescence_moves_named, walk_named};
use crate::ranges::{self, Number, Range, RangeError};
use crate::search::alphabeta::{AlphaBetaConfig, QuiescenceMoves};
use crate::search::clock::TimeControl;
use crate::search::level::Level;
use crate::search::mcts::{MctsConfig, Parallelism};
use crate::search::tt::{check_table_mb, TableError};
use crate::search::{ChoiceWalk, Limits};

/// Which searcher.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SearcherKind {
    /// Alpha-beta (`ab`).
    #[default]
    AlphaBeta,
    /// Monte Carlo tree search (`mcts`).
    Mcts,
}

impl SearcherKind {
    /// The spec's name: `ab` or `mcts`.
    pub fn name(self) -> &'static str {
        match self {
            SearcherKind::AlphaBeta => "ab",
            SearcherKind::Mcts => "mcts",
        }
    }

    /// The searcher a spec's name names.
    pub fn named(name: &str) -> Option<SearcherKind> {
        match name {
            "ab" => Some(SearcherKind::AlphaBeta),
            "mcts" => Some(SearcherKind::Mcts),
            _ => None,
        }
    }
}

/// One of the settings, as a refusal names it: each front end spells it its own way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Setting {
    /// `depth`.
    Depth,
    /// `nodes` (MCTS: iterations).
    Nodes,
    /// `time_ms`.
    TimeMs,
    /// `threads`.
    Threads,
    /// `hash_mb`.
    Hash,
    /// `level`.
    Level,
    /// `contempt`.
    Contempt,
    /// `quiescence`.
    Quiescence,
    /// `quiescence_moves`.
    QuiescenceMoves,
    /// `parallel`.
    Parallel,
    /// `weights`.
    Weights,
}

impl Setting {
    /// The engine spec's key for it.
    pub fn key(self, searcher: SearcherKind) -> &'static str {
        match self {
            Setting::Depth => "depth",
            Setting::Nodes if searcher == SearcherKind::Mcts => "iters",
            Setting::Nodes => "nodes",
            Setting::TimeMs => "time-ms",
            Setting::Threads => "threads",
            Setting::Hash => "hash",
            Setting::Level => "level",
            Setting::Contempt => "contempt",
            Setting::Quiescence => "quiescence",
            Setting::QuiescenceMoves => "qmoves",
            Setting::Parallel => "parallel",
            Setting::Weights => "weights",
        }
    }
}

/// Why settings make no engine.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SettingError {
    /// A value outside its range.
    #[error("{}: {error}", setting.key(SearcherKind::AlphaBeta))]
    Range {
        /// The setting.
        setting: Setting,
        /// What is wrong.
        error: RangeError,
    },
    /// A table the machine cannot hold.
    #[error("hash: {0}")]
    Table(TableError),
    /// Weights that cannot be read.
    #[error("weights: {0}")]
    Weights(WeightsError),
    /// A setting the searcher takes no part in.
    #[error("{}: does not apply to engine {}", setting.key(*searcher), searcher.name())]
    NotFor {
        /// The setting.
        setting: Setting,
        /// The searcher.
        searcher: SearcherKind,
    },
}

impl SettingError {
    /// The setting refused.
    pub fn setting(&self) -> Setting {
        match self {
            SettingError::Range { setting, .. } | SettingError::NotFor { setting, .. } => *setting,
            SettingError::Table(_) => Setting::Hash,
            SettingError::Weights(_) => Setting::Weights,
        }
    }

    /// What is wrong, without the setting's name (each front end puts its own first).
    pub fn problem(&self) -> String {
        match self {
            SettingError::Range { error, .. } => error.to_string(),
            SettingError::Table(error) => error.to_string(),
            SettingError::Weights(error) => error.to_string(),
            SettingError::NotFor { searcher, .. } => {
                format!("does not apply to engine {}", searcher.name())
            }
        }
    }
}

/// A searching engine's settings; `None` is the engine's default.
#[derive(Clone, Debug, Default)]
pub struct SearchSettings {
    /// The searcher.
    pub searcher: SearcherKind,
    /// Depth limit in plies (alpha-beta).
    pub depth: Option<u32>,
    /// Node limit (alpha-beta) or iteration limit (MCTS).
    pub nodes: Option<u64>,
    /// Time limit per move, in milliseconds.
    pub time_ms: Option<u64>,
    /// Think as a move on this clock would.
    pub clock: Option<TimeControl>,
    /// Search threads.
    pub threads: Option<usize>,
    /// Transposition table size in MB (alpha-beta).
    pub hash_mb: Option<usize>,
    /// MCTS's seed; alpha-beta makes no random choice and ignores it.
    pub seed: Option<u64>,
    /// Strength level.
    pub level: Option<u8>,
    /// Seeds a fortress's draw costs the side to move (alpha-beta).
    pub contempt: Option<i32>,
    /// Plies of captures past the horizon (alpha-beta).
    pub quiescence: Option<u32>,
    /// Which captures the quiescence search tries (alpha-beta).
    pub quiescence_moves: Option<QuiescenceMoves>,
    /// Which pits' moves are walked a choice at a time.
    pub walk: Option<ChoiceWalk>,
    /// How MCTS threads share the work.
    pub parallel: Option<Parallelism>,
    /// Evaluation weights as a spec names them: `auto` (the variant's own, as `None`),
    /// `hand` or a TOML file's path.
    pub weights: Option<String>,
}

/// `value`, if given, checked against `range` as `setting`.
fn checked<T: Number>(
    setting: Setting,
    value: Option<T>,
    range: &Range<T>,
) -> Result<Option<T>, SettingError> {
    value
        .map(|v| range.check(v))
        .transpose()
        .map_err(|error| SettingError::Range { setting, error })
}

impl SearchSettings {
    /// Settings of `searcher`, every value its default.
    pub fn of(searcher: SearcherKind) -> SearchSettings {
        SearchSettings {
            searcher,
            ..SearchSettings::default()
        }
    }

    /// The settings of a review's searcher (every front end's): alpha-beta without
    /// contempt, so that a fortress's draw is worth nothing to either side and the
    /// positions on both sides of a move are scored alike (with contempt each mover
    /// would count the draw against itself, and a move into a fortress would score
    /// above the best).
    pub fn reviewing() -> SearchSettings {
        SearchSettings {
            contempt: Some(0),
            ..SearchSettings::of(SearcherKind::AlphaBeta)
        }
    }

    /// The default settings of an analysis with `searcher` (every front end's): for
    /// alpha-beta without contempt, so that a fortress's draw reads as a draw, not as the
    /// seeds of contempt a player would pay for it.
    pub fn analysing(searcher: SearcherKind) -> SearchSettings {
        SearchSettings {
            contempt: (searcher == SearcherKind::AlphaBeta).then_some(0),
            ..SearchSettings::of(searcher)
        }
    }

    /// The first setting given that the searcher takes no part in.
    fn foreign(&self) -> Option<Setting> {
        let mcts = self.searcher == SearcherKind::Mcts;
        let given = [
            (mcts && self.depth.is_some(), Setting::Depth),
            (mcts && self.hash_mb.is_some(), Setting::Hash),
            (mcts && self.contempt.is_some(), Setting::Contempt),
            (mcts && self.quiescence.is_some(), Setting::Quiescence),
            (
                mcts && self.quiescence_moves.is_some(),
                Setting::QuiescenceMoves,
            ),
            (!mcts && self.parallel.is_some(), Setting::Parallel),
        ];
        given.iter().find(|(g, _)| *g).map(|&(_, setting)| setting)
    }

    /// The engine, each value checked against its range (and the table against this
    /// machine's memory); no default limit is added.
    pub fn spec(&self) -> Result<EngineSpec, SettingError> {
        if let Some(setting) = self.foreign() {
            return Err(SettingError::NotFor {
                setting,
                searcher: self.searcher,
            });
        }
        let limits = Limits {
            depth: checked(Setting::Depth, self.depth, &ranges::DEPTH)?,
            nodes: checked(Setting::Nodes, self.nodes, &ranges::NODES)?,
            time: checked(Setting::TimeMs, self.time_ms, &ranges::TIME_MS)?
                .map(std::time::Duration::from_millis),
            ..Limits::default()
        };
        let threads = checked(Setting::Threads, self.threads, &ranges::THREADS)?;
        let level = checked(Setting::Level, self.level, &ranges::LEVEL)?
            .and_then(Level::new)
            .unwrap_or_default();
        let weights = match &self.weights {
            Some(choice) => Weights::choose(choice).map_err(SettingError::Weights)?,
            None => None,
        };
        let kind = match self.searcher {
            SearcherKind::AlphaBeta => EngineKind::AlphaBeta(self.alpha_beta(threads, weights)?),
            SearcherKind::Mcts => EngineKind::Mcts(self.mcts(threads, weights)),
        };
        let text = self.text();
        Ok(EngineSpec {
            label: text.clone(),
            text,
            kind,
            limits,
            clock: self.clock,
            level,
        })
    }

    fn alpha_beta(
        &self,
        threads: Option<usize>,
        weights: Option<Weights>,
    ) -> Result<AlphaBetaConfig, SettingError> {
        let defaults = AlphaBetaConfig::default();
        let hash_mb = checked(Setting::Hash, self.hash_mb, &ranges::HASH_MB)?;
        if let Some(mb) = hash_mb {
            check_table_mb(mb).map_err(SettingError::Table)?;
        }
        let contempt = checked(Setting::Contempt, self.contempt, &ranges::CONTEMPT)?;
        let quiescence = checked(Setting::Quiescence, self.quiescence, &ranges::QUIESCENCE)?;
        Ok(AlphaBetaConfig {
            threads: threads.unwrap_or(defaults.threads),
            hash_mb: hash_mb.unwrap_or(defaults.hash_mb),
            weights,
            quiescence: quiescence.unwrap_or(defaults.quiescence),
            quiescence_moves: self.quiescence_moves.unwrap_or(defaults.quiescence_moves),
            walk: self.walk.unwrap_or(defaults.walk),
            contempt: contempt.map_or(defaults.contempt, |seeds| 100 * seeds),
        })
    }

    fn mcts(&self, threads: Option<usize>, weights: Option<Weights>) -> MctsConfig {
        let defaults = MctsConfig::default();
        MctsConfig {
            threads: threads.unwrap_or(defaults.threads),
            seed: self.seed.unwrap_or(defaults.seed),
            weights,
            parallel: self.parallel.unwrap_or(defaults.parallel),
            walk: self.walk.unwrap_or(defaults.walk),
            ..defaults
        }
    }

    /// The spec these settings are, written out (`ab:depth=6,threads=2`).
    fn text(&self) -> String {
        let mcts = self.searcher == SearcherKind::Mcts;
        let mut keys: Vec<String> = Vec::new();
        let mut put = |key: &str, value: Option<String>| {
            if let Some(value) = value {
                keys.push(format!("{key}={value}"));
            }
        };
        let shown = |v: Option<u64>| v.map(|v| v.to_string());
        put("level", self.level.map(|l| l.to_string()));
        put("tc", self.clock.map(|c| c.to_string()));
        put("time-ms", shown(self.time_ms));
        put("depth", self.depth.map(|d| d.to_string()));
        put(Setting::Nodes.key(self.searcher), shown(self.nodes));
        put("threads", self.threads.map(|t| t.to_string()));
        put("hash", self.hash_mb.map(|h| h.to_string()));
        put("quiescence", self.quiescence.map(|q| q.to_string()));
        put(
            "qmoves",
            self.quiescence_moves
                .map(|q| quiescence_moves_name(q).to_string()),
        );
        put("walk", self.walk.map(|w| walk_name(w).to_string()));
        put("contempt", self.contempt.map(|c| c.to_string()));
        put(
            "parallel",
            self.parallel.map(|p| parallel_name(p).to_string()),
        );
        put("seed", shown(self.seed.filter(|_| mcts)));
        put("weights", self.weights.clone());
        if keys.is_empty() {
            self.searcher.name().to_string()
        } else {
            format!("{}:{}", self.searcher.name(), keys.join(","))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec_of(text: &str) -> EngineSpec {
        EngineSpec::parse(text).unwrap()
    }

    #[test]
    fn typed_settings_make_the_engine_their_text_makes() {
        let ab = SearchSettings {
            depth: Some(6),
            threads: Some(2),
            hash_mb: Some(8),
            contempt: Some(3),
            quiescence: Some(4),
            quiescence_moves: Some(QuiescenceMoves::FirstLap),
            walk: Some(ChoiceWalk::All),
            level: Some(5),
            seed: Some(9),
            ..SearchSettings::default()
        };
        let made = ab.spec().unwrap();
        assert_eq!(
            made.text,
            "ab:level=5,depth=6,threads=2,hash=8,quiescence=4,qmoves=first-lap,walk=all,contempt=3"
        );
        let parsed = spec_of(&made.text);
        assert_eq!(
            (made.kind, made.limits, made.level),
            (parsed.kind, parsed.limits, parsed.level)
        );
        let mcts = SearchSettings {
            nodes: Some(500),
            seed: Some(4),
            parallel: Some(Parallelism::Tree),
            time_ms: Some(20),
            ..SearchSettings::of(SearcherKind::Mcts)
        };
        let made = mcts.spec().unwrap();
        assert_eq!(made.text, "mcts:time-ms=20,iters=500,parallel=tree,seed=4");
        let parsed = spec_of(&made.text);
        assert_eq!((made.kind, made.limits), (parsed.kind, parsed.limits));
        assert_eq!(SearchSettings::default().spec().unwrap().text, "ab");
    }

    #[test]
    fn a_value_out_of_range_is_refused_in_the_shared_words() {
        let refused = |settings: SearchSettings| settings.spec().unwrap_err();
        let error = refused(SearchSettings {
            depth: Some(0),
            ..SearchSettings::default()
        });
        assert_eq!(error.setting(), Setting::Depth);
        assert_eq!(error.problem(), "must be 1..=100 plies, found 0");
        let error = refused(SearchSettings {
            hash_mb: Some(ranges::MAX_HASH_MB),
            ..SearchSettings::default()
        });
        assert_eq!(error.setting(), Setting::Hash);
        assert!(
            error.problem().contains("half this machine's memory"),
            "{error}"
        );
        let error = refused(SearchSettings {
            hash_mb: Some(8),
            ..SearchSettings::of(SearcherKind::Mcts)
        });
        assert_eq!(error.problem(), "does not apply to engine mcts");
        assert_eq!(error.to_string(), "hash: does not apply to engine mcts");
    }
}
