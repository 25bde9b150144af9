//! The API's wire types: the requests as they arrive (each field a JSON value, checked
//! in the field's words against the engine's ranges), the game they name, and the
//! tagged lines of a stream. The handlers (`api.rs`) read requests through these.

use axum::body::Bytes;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::AppState;
use isolo_engine::matches::engine::EngineSpec;
use isolo_engine::matches::settings::{SearchSettings, SearcherKind, Setting, SettingError};
use isolo_engine::ranges::{self, Number, Range};
use isolo_engine::TimeControl;
use isolo_rules::{Game, Rules, Setup, SetupError, Variant};

/// Table size of each search, in MB.
pub(super) const HASH_MB: usize = 32;

/// An error answer: a status and one line (`{"error": "..."}`).
pub(super) struct ApiError {
    status: StatusCode,
    message: String,
}

impl ApiError {
    pub(super) fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
        }
    }

    pub(super) fn bad(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (
            self.status,
            axum::Json(serde_json::json!({"error": self.message})),
        )
            .into_response()
    }
}

/// Longest rules text a request may carry, in bytes.
const MAX_RULES_BYTES: usize = 16 * 1024;
/// Search time when a request names no limit, in milliseconds.
const DEFAULT_SEARCH_MS: u64 = 1_000;

/// The body as `T`, with serde's message naming what is wrong.
pub(super) fn parse_body<T: DeserializeOwned>(body: &Bytes) -> Result<T, ApiError> {
    serde_json::from_slice(body).map_err(|e| ApiError::bad(format!("request body: {e}")))
}

/// A request's number in `range`, taken as any JSON value so that a negative,
/// fractional or textual one is refused in the field's words, as every front end refuses
/// it (docs/server.md#ranges).
pub(super) fn ranged<T: Number>(
    field: &str,
    value: &Option<Value>,
    range: &Range<T>,
) -> Result<Option<T>, ApiError> {
    range
        .from_json(value.as_ref())
        .map_err(|e| ApiError::bad(format!("{field}: {e}")))
}

/// A game as requests name it.
#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct GameSpec {
    /// A variant the server offers (see /api/variants).
    pub(super) variant: Option<String>,
    /// Or a rules file's text.
    pub(super) rules: Option<String>,
    /// The start position (default: the variant's start).
    pub(super) start: Option<String>,
    /// Moves played from the start, separated by spaces or commas.
    pub(super) moves: Option<String>,
}

impl GameSpec {
    pub(super) fn variant(&self, state: &AppState) -> Result<Variant, ApiError> {
        match (&self.variant, &self.rules) {
            (Some(_), Some(_)) => Err(ApiError::bad("game: give a variant or rules, not both")),
            (None, Some(text)) => {
                if text.len() > MAX_RULES_BYTES {
                    return Err(ApiError::bad(format!(
                        "rules: {} bytes, more than {MAX_RULES_BYTES}",
                        text.len()
                    )));
                }
                let rules = Rules::from_toml(text, "custom")
                    .map_err(|e| ApiError::bad(format!("rules: {e}")))?;
                Variant::new(rules).map_err(|e| ApiError::bad(format!("rules: {e}")))
            }
            (Some(name), None) => state
                .choices
                .iter()
                .find(|c| &c.name == name)
                .map(|c| c.variant.clone())
                .ok_or_else(|| {
                    let names: Vec<&str> = state.choices.iter().map(|c| c.name.as_str()).collect();
                    ApiError::bad(format!(
                        "variant: unknown '{}' (offered: {})",
                        ranges::quote(name),
                        names.join(", ")
                    ))
                }),
            (None, None) => Err(ApiError::bad("game: give a variant or rules")),
        }
    }

    /// The start and moves as the rules read them.
    pub(super) fn setup(&self) -> Setup<'_> {
        Setup::new(self.start.as_deref(), self.moves.as_deref())
    }

    /// The game after its moves.
    pub(super) fn game<'v>(&self, variant: &'v Variant) -> Result<Game<'v>, ApiError> {
        self.setup().game(variant).map_err(setup_error)
    }
}

/// A setup's problem after the request's name of its field (`start`, `moves`).
pub(super) fn setup_error(e: SetupError) -> ApiError {
    ApiError::bad(format!("{}: {e}", e.field))
}

/// A game's position to show (/api/state, /api/svg), North at the bottom if `flip`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ViewRequest {
    pub(super) game: GameSpec,
    #[serde(default)]
    pub(super) flip: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct MovesRequest {
    pub(super) game: GameSpec,
    /// Only the moves from this pit (the mover's numbering).
    pub(super) pit: Option<Value>,
    /// One move for each distinct result (where take/pass choices make many).
    #[serde(default)]
    pub(super) distinct: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct PlayRequest {
    pub(super) game: GameSpec,
    #[serde(rename = "move")]
    pub(super) mv: String,
    #[serde(default)]
    pub(super) flip: bool,
}

/// `/api/decision`: a move `mv` begun (its pit and the choices made so far), for the
/// decision it stops at next.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct DecisionRequest {
    pub(super) game: GameSpec,
    #[serde(rename = "move")]
    pub(super) mv: String,
}

/// `/api/answer` and `/api/complete`: under the retreat, a move `mv` half made (its pit
/// and choices so far), for the engine's answer to the pass it stops at, or the whole
/// move the engine makes of it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct AnswerRequest {
    pub(super) game: GameSpec,
    #[serde(rename = "move")]
    pub(super) mv: String,
    pub(super) engine: Option<String>,
    pub(super) time_ms: Option<Value>,
    /// The engine's strength level, 1..=8 (8, the default: its best): it decides as it
    /// plays at that level.
    pub(super) level: Option<Value>,
    /// The seed of a level's draws, as in `/api/analyse`.
    pub(super) seed: Option<Value>,
}

/// `/api/offer`: the side to move resigns, or offers a draw that the engine answers
/// from its own search of the position (`time_ms` as in `/api/analyse`).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct OfferRequest {
    pub(super) game: GameSpec,
    /// `draw` or `resign`.
    pub(super) offer: String,
    pub(super) time_ms: Option<Value>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct AnalyseRequest {
    pub(super) game: GameSpec,
    /// `ab` (default) or `mcts`.
    pub(super) engine: Option<String>,
    pub(super) time_ms: Option<Value>,
    pub(super) depth: Option<Value>,
    /// Node (alpha-beta) or iteration (MCTS) limit: with one thread, the same answer as
    /// `analyze --nodes`.
    pub(super) nodes: Option<Value>,
    /// A clock for the mover, `LEFT+INC` in seconds, as `analyze --tc`.
    pub(super) tc: Option<String>,
    pub(super) multipv: Option<Value>,
    pub(super) seed: Option<Value>,
    /// A strength level, 1..=8: the result's `level_move` is the move the engine plays
    /// at it (`best_move` at 8, the default).
    pub(super) level: Option<Value>,
}

impl AnalyseRequest {
    /// The seed given: MCTS's, and the one a level's draws derive from.
    pub(super) fn seed(&self) -> Result<Option<u64>, ApiError> {
        ranged("seed", &self.seed, &ranges::SEED)
    }

    /// The engine, its limits capped by the server's.
    pub(super) fn spec(&self, state: &AppState) -> Result<EngineSpec, ApiError> {
        let engine = self.engine.as_deref().unwrap_or("ab");
        let searcher = SearcherKind::named(engine).ok_or_else(|| {
            ApiError::bad(format!(
                "engine: '{}' is neither 'ab' nor 'mcts'",
                ranges::quote(engine)
            ))
        })?;
        let cap = state.max_time.as_millis() as u64;
        let times = Range::new("time_ms", 1, cap, "ms (the server's --max-time-ms)");
        // A search bounded by depth or nodes alone runs to them within the server's cap.
        let bounded = self.depth.is_some() || self.nodes.is_some();
        let default_time = if bounded {
            cap
        } else {
            DEFAULT_SEARCH_MS.min(cap)
        };
        let time = ranged("time_ms", &self.time_ms, &times)?.unwrap_or(default_time);
        let clock = match &self.tc {
            Some(text) => Some(
                text.parse::<TimeControl>()
                    .map_err(|e| ApiError::bad(format!("tc: {}", e.problem)))?,
            ),
            None => None,
        };
        let level = ranged("level", &self.level, &ranges::LEVEL)?;
        // A request for a level's move is play (the engine's contempt); else an analysis.
        let contempt = match level {
            Some(_) => None,
            None => SearchSettings::analysing(searcher).contempt,
        };
        let settings = SearchSettings {
            searcher,
            contempt,
            time_ms: Some(time),
            threads: Some(state.threads),
            hash_mb: (searcher == SearcherKind::AlphaBeta).then_some(HASH_MB),
            depth: ranged("depth", &self.depth, &ranges::DEPTH)?,
            nodes: ranged("nodes", &self.nodes, &ranges::NODES)?,
            clock,
            seed: self.seed()?,
            level,
            ..SearchSettings::default()
        };
        settings.spec().map_err(setting_refused)
    }
}

/// A refusal of the engine's settings, naming the request's field.
pub(super) fn setting_refused(e: SettingError) -> ApiError {
    let field = match e.setting() {
        Setting::Depth => "depth",
        Setting::Nodes => "nodes",
        Setting::TimeMs => "time_ms",
        Setting::Level => "level",
        // (Set by the server, not the request.)
        other => other.key(SearcherKind::AlphaBeta),
    };
    ApiError::bad(format!("{field}: {}", e.problem()))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ReviewRequest {
    pub(super) game: GameSpec,
    /// Alpha-beta nodes a position (`ranges::REVIEW_NODES`, as `review --nodes`).
    pub(super) nodes: Option<Value>,
    /// The whole review's time in ms (`ranges::REVIEW_TOTAL_MS`, as `review
    /// --total-ms`), at most the server's [`AppState::review_time_cap`].
    pub(super) total_ms: Option<Value>,
}

/// A streamed line's type and its body's fields, serialised as one object.
#[derive(Serialize)]
pub(super) struct Tagged<T: Serialize> {
    #[serde(rename = "type")]
    pub(super) kind: &'static str,
    #[serde(flatten)]
    pub(super) body: T,
}
