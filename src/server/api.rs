//! The JSON API: requests name a game (variant or rules text, start, moves) and get
//! the same fields as the command line's `--json`. Errors are `{"error": "..."}` with
//! the command line's messages and a 4xx status (503 when the search slots are full).

use std::convert::Infallible;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::time::Duration;
use tokio_stream::wrappers::UnboundedReceiverStream;
use tokio_stream::StreamExt;

use super::{assets, AppState, MAX_BODY_BYTES};
use crate::render::svg::{self, board_svg, SvgOptions};
use isolo_engine::matches::engine::{EngineKind, EngineSpec};
use isolo_engine::matches::schedule::game_seed;
use isolo_engine::matches::settings::{SearchSettings, SearcherKind, Setting, SettingError};
use isolo_engine::ranges::{self, Number, Range};
use isolo_engine::review::ReviewBudget;
use isolo_engine::search::wdl::WdlModel;
use isolo_engine::search::{searched_moves, Progress, SearchRequest};
use isolo_engine::TimeControl;
use isolo_rules::game::{describe, in_words};
use isolo_rules::trace::{trace_move, Step, Trace};
use isolo_rules::{Board, CaptureChoice, Game, MoveGen, Rules, Setup, SetupError, Side, Variant};
use rand::rngs::SmallRng;
use rand::SeedableRng;

/// Table size of each search, in MB.
pub const HASH_MB: usize = 32;
/// Most moves one `/api/moves` answer lists (`complete` says when more exist).
pub const MOST_MOVES_LISTED: usize = 2_000;
/// Longest rules text a request may carry, in bytes.
const MAX_RULES_BYTES: usize = 16 * 1024;
/// Search time when a request names no limit, in milliseconds.
const DEFAULT_SEARCH_MS: u64 = 1_000;

pub fn router(state: Arc<AppState>) -> Router {
    Router::new()
        .route("/", get(|| async { assets::page("index.html") }))
        .route("/app.js", get(|| async { assets::page("app.js") }))
        .route("/api.js", get(|| async { assets::page("api.js") }))
        .route("/clock.js", get(|| async { assets::page("clock.js") }))
        .route("/seeds.js", get(|| async { assets::page("seeds.js") }))
        .route("/texts.js", get(|| async { assets::page("texts.js") }))
        .route("/style.css", get(|| async { assets::page("style.css") }))
        .route("/api/variants", get(variants))
        .route("/api/state", post(state_of))
        .route("/api/moves", post(moves))
        .route("/api/play", post(play))
        .route("/api/analyse", post(analyse))
        .route("/api/review", post(review_game))
        .route("/api/svg", post(svg))
        .route("/api/records", get(records))
        .route("/api/records/{game}", get(record))
        .fallback(|| async { ApiError::new(StatusCode::NOT_FOUND, "no such page or API route") })
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            whole_body,
        ))
        .layer(axum::middleware::from_fn(errors_as_json))
        .with_state(state)
}

/// Reads the whole body before the route sees it: refused unread when announced over
/// the limit, refused when it grows over it, and 408 (the connection closed) when it is
/// not complete within the request timeout, so that a client trickling a body cannot
/// hold a connection.
async fn whole_body(
    State(state): State<Arc<AppState>>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let announced = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
    if announced.is_some_and(|bytes| bytes > MAX_BODY_BYTES as u64) {
        return too_large().into_response();
    }
    let (parts, body) = request.into_parts();
    let deadline = state.request_timeout;
    let bytes = match tokio::time::timeout(deadline, read_limited(body)).await {
        Ok(Ok(bytes)) => bytes,
        Ok(Err(refusal)) => return refusal.into_response(),
        Err(_) => {
            let mut answer = ApiError::new(
                StatusCode::REQUEST_TIMEOUT,
                format!(
                    "request body: not complete within {} ms (the server's --request-timeout-ms)",
                    deadline.as_millis()
                ),
            )
            .into_response();
            answer.headers_mut().insert(
                header::CONNECTION,
                header::HeaderValue::from_static("close"),
            );
            return answer;
        }
    };
    next.run(axum::extract::Request::from_parts(parts, Body::from(bytes)))
        .await
}

fn too_large() -> ApiError {
    ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        format!("request body: more than {MAX_BODY_BYTES} bytes"),
    )
}

/// The body's bytes, at most [`MAX_BODY_BYTES`] of them.
async fn read_limited(body: Body) -> Result<Bytes, ApiError> {
    let mut chunks = body.into_data_stream();
    let mut bytes = Vec::new();
    while let Some(chunk) = chunks.next().await {
        let chunk = chunk.map_err(|e| ApiError::bad(format!("request body: {e}")))?;
        if bytes.len() + chunk.len() > MAX_BODY_BYTES {
            return Err(too_large());
        }
        bytes.extend_from_slice(&chunk);
    }
    Ok(Bytes::from(bytes))
}

/// Every error answer as `{"error": ...}`, including those axum makes itself (a method
/// a route does not take), which are plain text or empty.
async fn errors_as_json(request: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let (method, path) = (request.method().clone(), request.uri().path().to_string());
    let response = next.run(request).await;
    let status = response.status();
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|t| t.as_bytes().starts_with(b"application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return response;
    }
    let message = match status {
        StatusCode::METHOD_NOT_ALLOWED => format!("{path} does not take {method}"),
        other => format!(
            "{path}: {}",
            other.canonical_reason().unwrap_or("request refused")
        ),
    };
    let mut answer = ApiError::new(status, message).into_response();
    // (Keeps `Allow` and the like.)
    for (name, value) in response.headers() {
        if name != header::CONTENT_TYPE && name != header::CONTENT_LENGTH {
            answer.headers_mut().insert(name.clone(), value.clone());
        }
    }
    answer
}

/// An error answer: a status and one line.
pub struct ApiError {
    status: StatusCode,
    message: String,
}

impl ApiError {
    fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
        }
    }

    fn bad(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, axum::Json(json!({"error": self.message}))).into_response()
    }
}

type ApiResult = Result<Response, ApiError>;

fn ok(value: Value) -> ApiResult {
    Ok(axum::Json(value).into_response())
}

/// The body as `T`, with serde's message naming what is wrong.
fn parse_body<T: DeserializeOwned>(body: &Bytes) -> Result<T, ApiError> {
    serde_json::from_slice(body).map_err(|e| ApiError::bad(format!("request body: {e}")))
}

/// A request's number in `range`, taken as any JSON value so that a negative,
/// fractional or textual one is refused in the field's words, as every front end refuses
/// it (docs/server.md#ranges).
fn ranged<T: Number>(
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
struct GameSpec {
    /// A variant the server offers (see /api/variants).
    variant: Option<String>,
    /// Or a rules file's text.
    rules: Option<String>,
    /// The start position (default: the variant's start).
    start: Option<String>,
    /// Moves played from the start, separated by spaces or commas.
    moves: Option<String>,
}

impl GameSpec {
    fn variant(&self, state: &AppState) -> Result<Variant, ApiError> {
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
    fn setup(&self) -> Setup<'_> {
        Setup::new(self.start.as_deref(), self.moves.as_deref())
    }

    /// The game after its moves.
    fn game<'v>(&self, variant: &'v Variant) -> Result<Game<'v>, ApiError> {
        self.setup().game(variant).map_err(setup_error)
    }
}

/// A setup's problem after the request's name of its field (`start`, `moves`).
fn setup_error(e: SetupError) -> ApiError {
    ApiError::bad(format!("{}: {e}", e.field))
}

async fn variants(State(state): State<Arc<AppState>>) -> ApiResult {
    let list: Vec<Value> = state
        .choices
        .iter()
        .map(|c| {
            json!({
                "name": c.name,
                "kind": c.kind,
                "columns": c.variant.columns(),
                "summary": c.variant.rules().summary(),
                "rules": c.variant.rules().to_toml(),
                "start": c.variant.format_position(&c.variant.start()),
                "optional_captures": c.variant.rules().capture_choice == CaptureChoice::Optional,
            })
        })
        .collect();
    ok(json!({
        "variants": list,
        "records": state.records.as_ref().map(|r| r.records.len()),
        "limits": {
            "max_time_ms": state.max_time.as_millis() as u64,
            "max_searches": state.max_searches,
            "max_body_bytes": MAX_BODY_BYTES,
            "levels": {
                "least": ranges::LEVEL.least,
                "most": ranges::LEVEL.most,
                "default": ranges::LEVEL.default,
            },
            "multipv": ranges::MULTIPV.most,
            "review_nodes": ranges::DEFAULT_REVIEW_NODES,
            "review_total_ms": review_time_cap(&state).as_millis() as u64,
        },
        // How a pit's seeds are drawn (the page redraws pits while it animates a move):
        // the markup for each count up to the most drawn as dots, and beyond.
        "seeds": {
            "drawn": (0..=svg::MOST_DOTS).map(svg::seeds_markup).collect::<Vec<_>>(),
            "many": svg::MANY_SEEDS,
        },
    }))
}

fn side_pair<T: Into<Value>>(f: impl Fn(Side) -> T) -> Value {
    json!({"S": f(Side::South).into(), "N": f(Side::North).into()})
}

/// Everything the page draws of a game's position.
fn state_json(game: &Game, flipped: bool) -> Value {
    let variant = game.variant();
    let board = game.board();
    let rules = variant.rules();
    let outcome = game.outcome();
    let svg = board_svg(
        variant,
        board,
        &SvgOptions {
            flipped,
            ..SvgOptions::default()
        },
    );
    json!({
        "variant": variant.name(),
        "columns": variant.columns(),
        "start": variant.format_position(game.start()),
        "moves": game.moves().iter().map(|m| m.to_string()).collect::<Vec<_>>(),
        "plies": game.plies(),
        "position": variant.format_position(board),
        "to_move": board.to_move().letter().to_string(),
        // "S" or "N" (the winner), "draw", or null while the game goes on.
        "result": outcome.as_ref().map(|o| o.winner.map_or("draw".to_string(), |s| s.letter().to_string())),
        "end": outcome.as_ref().map(describe),
        "end_words": outcome.as_ref().map(|o| in_words(o, board.to_move())),
        "seeds": side_pair(|s| board.side_total(s)),
        "overture": if rules.overture { side_pair(|s| board.in_overture(s)) } else { Value::Null },
        "pits": side_pair(|s| (1..=variant.pits()).map(|p| board.seeds(s, p)).collect::<Vec<_>>()),
        "optional_captures": rules.capture_choice == CaptureChoice::Optional,
        "min_sow": rules.min_sow,
        "how_to_play": rules.how_to_play(),
        "svg": svg,
    })
}

/// A game's position to show (/api/state, /api/svg), North at the bottom if `flip`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ViewRequest {
    game: GameSpec,
    #[serde(default)]
    flip: bool,
}

async fn state_of(State(state): State<Arc<AppState>>, body: Bytes) -> ApiResult {
    let request: ViewRequest = parse_body(&body)?;
    let variant = request.game.variant(&state)?;
    let game = request.game.game(&variant)?;
    ok(state_json(&game, request.flip))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MovesRequest {
    game: GameSpec,
    /// Only the moves from this pit (the mover's numbering).
    pit: Option<Value>,
    /// One move for each distinct result (where take/pass choices make many).
    #[serde(default)]
    distinct: bool,
}

/// The legal moves, as `moves --json` lists them.
async fn moves(State(state): State<Arc<AppState>>, body: Bytes) -> ApiResult {
    let request: MovesRequest = parse_body(&body)?;
    let variant = request.game.variant(&state)?;
    let game = request.game.game(&variant)?;
    let board = *game.board();
    let pits = Range::new("pit", 1, variant.pits() as u64, "");
    let pit = ranged("pit", &request.pit, &pits)?;
    let pits = pit.map_or(u32::MAX, |p| 1u32 << (p - 1)) & variant.candidate_pits(&board);
    let entry = |mv: String, child: &Board, laps: u32, captured: u32| {
        json!({
            "move": mv,
            "position": variant.format_position(child),
            "laps": laps,
            "captured": captured,
        })
    };
    let mut listed = Vec::new();
    let mut complete = true;
    if game.outcome().is_some() {
        // No move once the game is over.
    } else if request.distinct {
        // As `moves --distinct` and the searchers list them (a bound on turning points
        // keeps vast Igisoro pits cheap; `complete` says when it cut).
        let (moves, cut) = searched_moves(&variant, &board);
        let from_pits = moves.iter().filter(|m| pits & (1 << (m.mv.pit - 1)) != 0);
        for m in from_pits {
            if listed.len() == MOST_MOVES_LISTED {
                complete = false;
                break;
            }
            listed.push(entry(m.mv.to_string(), &m.child, m.laps, m.captured));
        }
        complete &= !cut;
    } else {
        variant.for_each_move_from_while(&board, pits, &mut MoveGen::new(), |m| {
            if listed.len() == MOST_MOVES_LISTED {
                complete = false;
                return false;
            }
            listed.push(entry(m.mv().to_string(), &m.child, m.laps, m.captured));
            true
        });
    }
    let outcome = game.outcome();
    ok(json!({
        "position": variant.format_position(&board),
        "to_move": board.to_move().letter().to_string(),
        "moves": listed,
        "result": outcome.and_then(|o| o.winner).map(|s| s.letter().to_string()),
        "complete": complete,
    }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayRequest {
    game: GameSpec,
    #[serde(rename = "move")]
    mv: String,
    #[serde(default)]
    flip: bool,
}

fn step_json(step: &Step) -> Value {
    match step {
        Step::Lift { pit, seeds } => json!({"kind": "lift", "pit": pit, "seeds": seeds}),
        Step::Sow { pits } => json!({"kind": "sow", "pits": pits}),
        Step::Capture {
            at,
            pits,
            seeds,
            from,
        } => json!({"kind": "capture", "at": at, "pits": pits, "seeds": seeds, "from": from}),
        Step::Pass { at } => json!({"kind": "pass", "at": at}),
        Step::End { at } => json!({"kind": "end", "at": at}),
    }
}

fn trace_json(trace: &Trace) -> Value {
    json!({
        "mover": trace.mover.letter().to_string(),
        "steps": trace.steps.iter().map(step_json).collect::<Vec<_>>(),
        "truncated": trace.truncated,
    })
}

/// Why the mover cannot start a move from `pit`, in a player's words (`None` if they can).
fn why_not_from(variant: &Variant, board: &Board, pit: u8) -> Option<String> {
    let pits = variant.pits();
    if !(1..=pits).contains(&(pit as usize)) {
        return Some(format!("pit {pit} is not 1..{pits}"));
    }
    if variant.candidate_pits(board) & (1 << (pit - 1)) != 0 {
        return None;
    }
    let seeds = board.seeds(board.to_move(), pit as usize);
    let least = variant.rules().min_sow;
    Some(if seeds < least {
        format!(
            "pit {pit} holds {seeds} seed{}: a move starts from a pit with at least {least}",
            if seeds == 1 { "" } else { "s" }
        )
    } else {
        format!("pit {pit} cannot start a move now (in overture only the ng'hana's moves sow every pit)")
    })
}

async fn play(State(state): State<Arc<AppState>>, body: Bytes) -> ApiResult {
    let request: PlayRequest = parse_body(&body)?;
    let variant = request.game.variant(&state)?;
    let mut game = request.game.game(&variant)?;
    let before = *game.board();
    if game.outcome().is_none() {
        if let Ok(mv) = variant.parse_move(&request.mv) {
            if let Some(why) = why_not_from(&variant, &before, mv.pit) {
                return Err(ApiError::bad(format!(
                    "move '{}': {why}",
                    ranges::quote(&request.mv)
                )));
            }
        }
    }
    let legal = game
        .play_text(&request.mv)
        .map_err(|e| ApiError::bad(e.to_string()))?;
    let trace = trace_move(&variant, &before, &legal.mv).ok_or_else(|| {
        ApiError::bad(format!(
            "move '{}' is not legal here",
            ranges::quote(&request.mv)
        ))
    })?;
    ok(json!({
        "move": legal.mv.to_string(),
        "laps": legal.laps,
        "captured": legal.captured,
        "trace": trace_json(&trace),
        "state": state_json(&game, request.flip),
    }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AnalyseRequest {
    game: GameSpec,
    /// `ab` (default) or `mcts`.
    engine: Option<String>,
    time_ms: Option<Value>,
    depth: Option<Value>,
    /// Node (alpha-beta) or iteration (MCTS) limit: with one thread, the same answer as
    /// `analyze --nodes`.
    nodes: Option<Value>,
    /// A clock for the mover, `LEFT+INC` in seconds, as `analyze --tc`.
    tc: Option<String>,
    multipv: Option<Value>,
    seed: Option<Value>,
    /// A strength level, 1..=8: the result's `level_move` is the move the engine plays
    /// at it (`best_move` at 8, the default).
    level: Option<Value>,
}

impl AnalyseRequest {
    /// The seed given: MCTS's, and the one a level's draws derive from.
    fn seed(&self) -> Result<Option<u64>, ApiError> {
        ranged("seed", &self.seed, &ranges::SEED)
    }

    /// The engine, its limits capped by the server's.
    fn spec(&self, state: &AppState) -> Result<EngineSpec, ApiError> {
        let engine = self.engine.as_deref().unwrap_or("ab");
        let searcher = SearcherKind::named(engine).ok_or_else(|| {
            ApiError::bad(format!(
                "engine: '{}' is neither 'ab' nor 'mcts'",
                ranges::quote(engine)
            ))
        })?;
        let cap = state.max_time.as_millis() as u64;
        let times = Range::new("time_ms", 1, cap, "ms (the server's --max-time-ms)");
        let time = ranged("time_ms", &self.time_ms, &times)?.unwrap_or(DEFAULT_SEARCH_MS.min(cap));
        let clock = match &self.tc {
            Some(text) => Some(
                text.parse::<TimeControl>()
                    .map_err(|e| ApiError::bad(format!("tc: {}", e.problem)))?,
            ),
            None => None,
        };
        let settings = SearchSettings {
            searcher,
            time_ms: Some(time),
            threads: Some(state.threads),
            hash_mb: (searcher == SearcherKind::AlphaBeta).then_some(HASH_MB),
            depth: ranged("depth", &self.depth, &ranges::DEPTH)?,
            nodes: ranged("nodes", &self.nodes, &ranges::NODES)?,
            clock,
            seed: self.seed()?,
            level: ranged("level", &self.level, &ranges::LEVEL)?,
            ..SearchSettings::default()
        };
        settings.spec().map_err(setting_refused)
    }
}

/// A refusal of the engine's settings, naming the request's field.
fn setting_refused(e: SettingError) -> ApiError {
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

/// One of the server's search slots, or 503 while all are taken.
fn search_slot(state: &AppState) -> Result<tokio::sync::OwnedSemaphorePermit, ApiError> {
    state.searches.clone().try_acquire_owned().map_err(|_| {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "busy: {} searches are running (the server's --max-searches); try again when one ends",
                state.max_searches
            ),
        )
    })
}

/// A stream of JSON lines from a channel, as `/api/analyse` and `/api/review` answer.
fn ndjson(rx: tokio::sync::mpsc::UnboundedReceiver<String>) -> ApiResult {
    let stream = UnboundedReceiverStream::new(rx).map(Ok::<_, Infallible>);
    Ok(Response::builder()
        .header(header::CONTENT_TYPE, "application/x-ndjson")
        .header(header::CACHE_CONTROL, "no-store")
        .body(Body::from_stream(stream))
        .expect("a valid response"))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReviewRequest {
    game: GameSpec,
    /// Alpha-beta nodes a position (`ranges::REVIEW_NODES`, as `review --nodes`).
    nodes: Option<Value>,
    /// The whole review's time in ms (`ranges::REVIEW_TOTAL_MS`, as `review
    /// --total-ms`), at most the server's [`review_time_cap`].
    total_ms: Option<Value>,
}

/// How many of the server's searches' time cap a whole review may take: a long game is
/// reviewed as far as this allows, not for as long as its positions add up to.
const REVIEW_CAP_SEARCHES: u32 = 20;

/// The longest a review takes on this server.
fn review_time_cap(state: &AppState) -> Duration {
    state.max_time * REVIEW_CAP_SEARCHES
}

/// A streamed line's type and its body's fields, serialised as one object.
#[derive(Serialize)]
struct Tagged<T: Serialize> {
    #[serde(rename = "type")]
    kind: &'static str,
    #[serde(flatten)]
    body: T,
}

/// Streams a game's review as JSON lines: `progress` objects (`done`, `total`
/// positions), then one `result` with the fields of `review --json` (or one `error`).
/// Each position's search is also held to the server's time cap.
async fn review_game(State(state): State<Arc<AppState>>, body: Bytes) -> ApiResult {
    let request: ReviewRequest = parse_body(&body)?;
    let variant = request.game.variant(&state)?;
    let game = request.game.game(&variant)?;
    let (start, moves) = (*game.start(), game.moves().to_vec());
    let nodes = ranged("nodes", &request.nodes, &ranges::REVIEW_NODES)?
        .unwrap_or(ranges::DEFAULT_REVIEW_NODES);
    let cap = review_time_cap(&state);
    let total = ranged("total_ms", &request.total_ms, &ranges::REVIEW_TOTAL_MS)?
        .map_or(cap, |ms| Duration::from_millis(ms).min(cap));
    let settings = SearchSettings {
        nodes: Some(nodes),
        hash_mb: Some(HASH_MB),
        threads: Some(state.threads),
        ..SearchSettings::of(SearcherKind::AlphaBeta)
    };
    let spec = settings.spec().map_err(setting_refused)?;
    let permit = search_slot(&state)?;
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel::<String>();
    let hard_cap = state.max_time;
    tokio::task::spawn_blocking(move || {
        let _permit = permit;
        let line = |value: Value| format!("{value}\n");
        let mut game = Game::new(&variant, start);
        for mv in &moves {
            game.play_move(mv)
                .expect("the request's moves were checked");
        }
        let mut searcher = match spec.searcher() {
            Ok(Some(s)) => s,
            Ok(None) => return,
            Err(e) => {
                let _ = tx.send(line(json!({"type": "error", "error": e.to_string()})));
                return;
            }
        };
        let budget = ReviewBudget {
            position: isolo_engine::search::Limits {
                time: Some(hard_cap),
                ..spec.limits
            },
            total: Some(total),
        };
        let stop = AtomicBool::new(false);
        let reviewed = isolo_engine::review::review(
            &game,
            searcher.as_mut(),
            budget,
            &mut |done, total| {
                let progress = json!({"type": "progress", "done": done, "total": total});
                if tx.send(line(progress)).is_err() {
                    stop.store(true, Ordering::Relaxed); // (the client went away)
                }
            },
            Some(&stop),
        );
        let result = Tagged {
            kind: "result",
            body: reviewed.report(),
        };
        let text = serde_json::to_string(&result).expect("reviews serialise");
        let _ = tx.send(text + "\n");
    });
    ndjson(rx)
}

fn progress_json(p: &Progress, wdl: &WdlModel) -> Value {
    let mut value = p.to_json(wdl);
    value["type"] = json!("progress");
    value
}

/// Streams the search as JSON lines: `progress` objects, then one `result` with the
/// fields of `analyze --json` (or one `error`).
async fn analyse(State(state): State<Arc<AppState>>, body: Bytes) -> ApiResult {
    let request: AnalyseRequest = parse_body(&body)?;
    let variant = request.game.variant(&state)?;
    let game = request.game.game(&variant)?;
    let spec = request.spec(&state)?;
    let multipv = ranged("multipv", &request.multipv, &ranges::MULTIPV)?.unwrap_or(1);
    let (board, history, over) = (*game.board(), game.history(), game.outcome());
    let plies = game.plies() as u64;
    let draw_seed = request.seed()?.unwrap_or(0);
    let permit = search_slot(&state)?;
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel::<String>();
    let line = |value: Value| format!("{value}\n");
    if let Some(outcome) = over {
        let mut value = isolo_engine::search::finished_json(&variant, &board, &outcome);
        value["type"] = json!("result");
        let _ = tx.send(line(value));
    } else {
        let hard_cap = state.max_time;
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            let (_, wdl) = WdlModel::for_variant(&variant);
            let stop = AtomicBool::new(false);
            let mut limits = match &spec.clock {
                Some(tc) => isolo_engine::search::clock::Clock::start(tc).limits(spec.limits),
                None => spec.limits,
            };
            limits.time = Some(limits.time.map_or(hard_cap, |t| t.min(hard_cap)));
            let searcher = spec.searcher().map_err(|e| e.to_string());
            let mut searcher = match searcher {
                Ok(Some(s)) => s,
                Ok(None) => return,
                Err(e) => {
                    let _ = tx.send(line(json!({"type": "error", "error": e})));
                    return;
                }
            };
            let search = SearchRequest {
                variant: &variant,
                board,
                history,
                limits,
                multipv,
                stop: Some(&stop),
            };
            let mut report = |p: &Progress| {
                if tx.send(line(progress_json(p, &wdl))).is_err() {
                    // The client went away: no one reads the rest.
                    stop.store(true, Ordering::Relaxed);
                }
            };
            // A level's draws differ from move to move and replay with the seed.
            let mut draws = SmallRng::seed_from_u64(game_seed(draw_seed, plies));
            let mcts = matches!(spec.kind, EngineKind::Mcts(_));
            let searched =
                spec.level
                    .search(searcher.as_mut(), mcts, &search, &mut draws, &mut report);
            let mut value = searched.result.to_json(&variant);
            value["type"] = json!("result");
            value["level"] = json!(spec.level.number());
            value["level_move"] = json!(searched.played.map(|l| l.mv.to_string()));
            value["position"] = json!(variant.format_position(&board));
            let _ = tx.send(line(value));
        });
    }
    ndjson(rx)
}

/// The position drawn as `show --svg` draws it.
async fn svg(State(state): State<Arc<AppState>>, body: Bytes) -> ApiResult {
    let request: ViewRequest = parse_body(&body)?;
    let variant = request.game.variant(&state)?;
    let game = request.game.game(&variant)?;
    let options = SvgOptions {
        flipped: request.flip,
        ..SvgOptions::default()
    };
    Ok((
        [(header::CONTENT_TYPE, "image/svg+xml")],
        board_svg(&variant, game.board(), &options),
    )
        .into_response())
}

fn records_file(
    state: &AppState,
) -> Result<&isolo_engine::matches::records::RecordsFile, ApiError> {
    state.records.as_ref().ok_or_else(|| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "no records file (start the server with --records FILE)",
        )
    })
}

async fn records(State(state): State<Arc<AppState>>) -> ApiResult {
    let file = records_file(&state)?;
    let games: Vec<Value> = file
        .records
        .iter()
        .map(|r| {
            json!({
                "game": r.game, "south": r.south, "north": r.north,
                "result": r.result.text(), "plies": r.moves.len(),
            })
        })
        .collect();
    ok(json!({"variant": file.variant.name(), "games": games}))
}

async fn record(State(state): State<Arc<AppState>>, Path(game): Path<String>) -> ApiResult {
    let file = records_file(&state)?;
    let number: u64 = game
        .parse()
        .map_err(|_| ApiError::bad(format!("game: '{game}' is not a game number")))?;
    let record = file
        .records
        .iter()
        .find(|r| r.game == number)
        .ok_or_else(|| {
            ApiError::new(
                StatusCode::NOT_FOUND,
                format!("game {number}: not in the records file"),
            )
        })?;
    let variant = &file.variant;
    ok(json!({
        "game": record.game,
        "variant": variant.name(),
        "rules": variant.rules().to_toml(),
        "start": variant.format_position(&record.opening),
        "moves": record.moves.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
        "south": record.south,
        "north": record.north,
        "result": record.result.text(),
    }))
}
