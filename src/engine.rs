//! Engine specs (`random`, `greedy`, `ab:depth=6`, `mcts:time-ms=100,c=1.2`, optionally
//! labelled `fast=ab:depth=4`) and the bots they make: anything that picks a move.

use std::fmt;
use std::time::Duration;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::eval::Weights;
use crate::rules::{Board, LegalMove, Variant};
use crate::search::alphabeta::{AlphaBeta, AlphaBetaConfig};
use crate::search::mcts::{Mcts, MctsConfig, Parallelism, Playout};
use crate::search::{searched_moves, Limits, Progress, SearchRequest, SearchResult, Searcher};

/// Time per move of a searching engine whose spec gives no limit.
pub const DEFAULT_MOVE_TIME: Duration = Duration::from_millis(1000);

/// Which kind of engine.
#[derive(Clone, Debug, PartialEq)]
pub enum EngineKind {
    /// A uniformly random legal move.
    Random,
    /// The move capturing the most seeds now (random among equals).
    Greedy,
    AlphaBeta(AlphaBetaConfig),
    Mcts(MctsConfig),
}

/// A parsed engine spec.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineSpec {
    /// The label (`fast` in `fast=ab:depth=4`), or the spec text itself.
    pub label: String,
    /// The spec without its label (`ab:depth=4`).
    pub text: String,
    pub kind: EngineKind,
    pub limits: Limits,
}

impl fmt::Display for EngineSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.label)
    }
}

fn number<T: std::str::FromStr>(key: &str, value: &str) -> Result<T, String> {
    value
        .parse()
        .map_err(|_| format!("engine key `{key}`: '{value}' is not a valid number"))
}

impl EngineSpec {
    /// Parses a spec; an unknown engine or key is an error naming it.
    pub fn parse(text: &str) -> Result<EngineSpec, String> {
        let (label, body) = match text.split_once('=') {
            Some((label, body)) if !label.contains(':') && !label.contains(',') => {
                (label.to_string(), body)
            }
            _ => (text.to_string(), text),
        };
        if label.is_empty() {
            return Err(format!("engine '{text}': empty label"));
        }
        let (name, options) = body.split_once(':').unwrap_or((body, ""));
        let pairs: Vec<(&str, &str)> = options
            .split(',')
            .filter(|s| !s.is_empty())
            .map(|kv| {
                kv.split_once('=')
                    .ok_or_else(|| format!("engine '{text}': '{kv}' is not key=value"))
            })
            .collect::<Result<_, _>>()?;
        let mut limits = Limits::default();
        let mut kind = match name {
            "random" => EngineKind::Random,
            "greedy" => EngineKind::Greedy,
            "ab" => EngineKind::AlphaBeta(AlphaBetaConfig::default()),
            "mcts" => EngineKind::Mcts(MctsConfig::default()),
            _ => {
                return Err(format!(
                    "unknown engine '{name}' in '{text}' (engines: random, greedy, ab, mcts)"
                ))
            }
        };
        for (key, value) in pairs {
            let accepted = match (&mut kind, key) {
                (EngineKind::AlphaBeta(_) | EngineKind::Mcts(_), "time-ms") => {
                    limits.time = Some(Duration::from_millis(number(key, value)?));
                    true
                }
                (EngineKind::AlphaBeta(_), "depth") => {
                    limits.depth = Some(number(key, value)?);
                    true
                }
                (EngineKind::AlphaBeta(_), "nodes") | (EngineKind::Mcts(_), "iters") => {
                    limits.nodes = Some(number(key, value)?);
                    true
                }
                (EngineKind::AlphaBeta(c), "threads") => {
                    c.threads = number(key, value)?;
                    true
                }
                (EngineKind::Mcts(c), "threads") => {
                    c.threads = number(key, value)?;
                    true
                }
                (EngineKind::AlphaBeta(c), "hash") => {
                    c.hash_mb = number(key, value)?;
                    true
                }
                (EngineKind::Mcts(c), "c") => {
                    c.exploration = number(key, value)?;
                    true
                }
                (EngineKind::Mcts(c), "playout") => {
                    c.playout = match value {
                        "random" => Playout::Random,
                        cut => match cut.strip_prefix("cut") {
                            Some(plies) => Playout::Cut(number(key, plies)?),
                            None => {
                                return Err(format!(
                                "engine key `playout`: expected random or cutN, found '{value}'"
                            ))
                            }
                        },
                    };
                    true
                }
                (EngineKind::Mcts(c), "parallel") => {
                    c.parallel = match value {
                        "root" => Parallelism::Root,
                        "tree" => Parallelism::Tree,
                        _ => {
                            return Err(format!(
                                "engine key `parallel`: expected root or tree, found '{value}'"
                            ))
                        }
                    };
                    true
                }
                (EngineKind::Mcts(c), "seed") => {
                    c.seed = number(key, value)?;
                    true
                }
                _ => false,
            };
            if !accepted {
                return Err(format!(
                    "engine '{text}': unknown key `{key}` for engine '{name}'"
                ));
            }
        }
        match &kind {
            EngineKind::AlphaBeta(c) if c.threads == 0 || c.hash_mb == 0 => {
                return Err(format!(
                    "engine '{text}': threads and hash must be at least 1"
                ))
            }
            EngineKind::Mcts(c) if c.threads == 0 => {
                return Err(format!("engine '{text}': threads must be at least 1"))
            }
            _ => {}
        }
        if limits.is_unbounded() && matches!(kind, EngineKind::AlphaBeta(_) | EngineKind::Mcts(_)) {
            limits.time = Some(DEFAULT_MOVE_TIME);
        }
        Ok(EngineSpec {
            label,
            text: body.to_string(),
            kind,
            limits,
        })
    }

    /// Sets the evaluation weights of a searching engine.
    pub fn with_weights(mut self, weights: Weights) -> EngineSpec {
        match &mut self.kind {
            EngineKind::AlphaBeta(c) => c.weights = weights,
            EngineKind::Mcts(c) => c.weights = weights,
            _ => {}
        }
        self
    }

    /// A bot playing by this spec; `seed` drives its random choices.
    pub fn bot(&self, seed: u64) -> Bot {
        let searcher: Option<Box<dyn Searcher + Send>> = match &self.kind {
            EngineKind::AlphaBeta(c) => Some(Box::new(AlphaBeta::new(c.clone()))),
            EngineKind::Mcts(c) => Some(Box::new(Mcts::new(MctsConfig { seed, ..c.clone() }))),
            _ => None,
        };
        Bot {
            spec: self.clone(),
            searcher,
            rng: SmallRng::seed_from_u64(seed),
        }
    }
}

/// A move choice, with the search behind it when there was one.
pub struct Choice {
    pub played: LegalMove,
    pub search: Option<SearchResult>,
}

/// Something that picks moves.
pub struct Bot {
    spec: EngineSpec,
    searcher: Option<Box<dyn Searcher + Send>>,
    rng: SmallRng,
}

impl Bot {
    pub fn spec(&self) -> &EngineSpec {
        &self.spec
    }

    /// Picks a move in a position with at least one legal move; `history` holds the
    /// hashes of the game's earlier positions.
    pub fn choose(
        &mut self,
        variant: &Variant,
        board: &Board,
        history: &[u64],
        report: &mut dyn FnMut(&Progress),
    ) -> Option<Choice> {
        // One move per distinct result: random and greedy choose among positions, not
        // among the take/pass sequences that reach them.
        let (moves, _) = searched_moves(variant, board);
        if moves.is_empty() {
            return None;
        }
        match &self.spec.kind {
            EngineKind::Random => {
                let pick = self.rng.random_range(0..moves.len());
                Some(Choice {
                    played: moves[pick].clone(),
                    search: None,
                })
            }
            EngineKind::Greedy => {
                let most = moves.iter().map(|m| m.captured).max().unwrap_or(0);
                let best: Vec<&LegalMove> = moves.iter().filter(|m| m.captured == most).collect();
                let pick = self.rng.random_range(0..best.len());
                Some(Choice {
                    played: best[pick].clone(),
                    search: None,
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
                    history: history.to_vec(),
                    limits: self.spec.limits,
                    multipv: 1,
                };
                let result = searcher.search(&request, report);
                let played = variant.play_move(board, &result.best()?.mv)?;
                Some(Choice {
                    played,
                    search: Some(result),
                })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
            EngineSpec::parse("ab").unwrap().limits.time,
            Some(DEFAULT_MOVE_TIME)
        );
        assert_eq!(
            EngineSpec::parse("random").unwrap().kind,
            EngineKind::Random
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
                "engine key `depth`: 'x' is not a valid number",
            ),
            ("ab:depth", "'depth' is not key=value"),
            ("random:seed=3", "unknown key `seed`"),
            ("ab:threads=0", "threads and hash must be at least 1"),
        ] {
            let err = EngineSpec::parse(text).unwrap_err();
            assert!(err.contains(expected), "{text}: {err}");
        }
    }
}
