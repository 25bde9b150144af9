//! The JSON API: requests name a game (variant or rules text, start, moves) and get
//! the same fields as the command line's `--json`. Errors are `{"error": "..."}` with
//! the command line's messages and a 4xx status (503 when the search slots are full).

use isolo_rules::Listing;
use std::convert::Infallible;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::extract::{Path, Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use serde_json::{json, Value};
use std::time::Duration;
use tokio_stream::wrappers::UnboundedReceiverStream;
use tokio_stream::StreamExt;

use super::wire::ApiError;
use super::wire::{
    parse_body, ranged, setting_refused, AnalyseRequest, AnswerRequest, DecisionRequest,
    MovesRequest, OfferRequest, PlayRequest, ReviewRequest, Tagged, ViewRequest,
};
use super::{assets, AppState, MAX_BODY_BYTES};
use crate::render::svg::{self, board_svg, SvgOptions};
use isolo_engine::matches::engine::EngineKind;
use isolo_engine::matches::records::{
    RecordsError, RecordsPages, RECORDS_PAGE_DEFAULT, RECORDS_PAGE_MOST,
};
use isolo_engine::matches::schedule::game_seed;
use isolo_engine::matches::settings::SearchSettings;
use isolo_engine::ranges::{self, Range};
use isolo_engine::review::ReviewBudget;
use isolo_engine::search::answer::{AnswerError, EndSearch};
use isolo_engine::search::level::{
    Level, FIRST_GAME_LEVEL, FIRST_GAME_VARIANT, LOWEST_LEVEL, TOP_LEVEL,
};
use isolo_engine::search::stopping::watching;
use isolo_engine::search::wdl::{answer_draw_offer, WdlModel};
use isolo_engine::search::Past;
use isolo_engine::search::{searched_moves, Progress, SearchRequest};
use isolo_rules::{describe, flag_fall_in_words, flag_fall_winner};
use isolo_rules::{in_words, resignation_in_words};
use isolo_rules::{trace_move, trace_to_decision, Trace, TraceStep};
use isolo_rules::{Board, CaptureChoice, Game, MoveGen, Side, Variant};
use rand::rngs::SmallRng;
use rand::SeedableRng;

/// Most moves one `/api/moves` answer lists (`complete` says when more exist).
pub(crate) const MOST_MOVES_LISTED: usize = 2_000;

pub(crate) fn router(state: Arc<AppState>) -> Router {
    Router::new()
        .route("/", get(|| async { assets::page("index.html") }))
        .route("/app.js", get(|| async { assets::page("app.js") }))
        .route("/api.js", get(|| async { assets::page("api.js") }))
        .route("/clock.js", get(|| async { assets::page("clock.js") }))
        .route("/seeds.js", get(|| async { assets::page("seeds.js") }))
        .route("/answers.js", get(|| async { assets::page("answers.js") }))
        .route("/texts.js", get(|| async { assets::page("texts.js") }))
        .route("/style.css", get(|| async { assets::page("style.css") }))
        .route("/api/variants", get(variants))
        .route("/api/state", post(state_of))
        .route("/api/moves", post(moves))
        .route("/api/play", post(play))
        .route("/api/analyse", post(analyse))
        .route("/api/offer", post(offer))
        .route("/api/decision", post(decision))
        .route("/api/answer", post(answer))
        .route("/api/complete", post(complete))
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
        .layer(axum::middleware::from_fn(plain_requests))
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

/// The most bytes a request's header fields may take together (names, values and their
/// separators): more are refused with 431 here, whatever size the connection layer let
/// through (its buffer, about 400 KB, depends on how the bytes arrive).
pub(crate) const MAX_HEADER_BYTES: usize = 64 * 1024;

/// Refuses, before any route, a path with bytes that are not ASCII (400: a client must
/// percent-encode them) and header fields over [`MAX_HEADER_BYTES`] (431).
async fn plain_requests(request: axum::extract::Request, next: axum::middleware::Next) -> Response {
    if !request.uri().path().is_ascii() {
        let why = "the path holds bytes that are not ASCII: percent-encode them";
        return ApiError::bad(why).into_response();
    }
    let fields = request.headers().iter();
    let bytes: usize = fields
        .map(|(name, value)| name.as_str().len() + value.len() + 4)
        .sum();
    if bytes > MAX_HEADER_BYTES {
        let status = StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE;
        let why = format!("the header fields take {bytes} bytes, more than {MAX_HEADER_BYTES}");
        return ApiError::new(status, why).into_response();
    }
    next.run(request).await
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

type ApiResult = Result<Response, ApiError>;

fn ok(value: Value) -> ApiResult {
    Ok(axum::Json(value).into_response())
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
                "title": c.variant.rules().title(),
                "summary": c.variant.rules().summary(),
                "rules": c.variant.rules().to_toml(),
                "start": c.variant.format_position(&c.variant.start()),
                "optional_captures": c.variant.rules().capture_choice() == CaptureChoice::Optional,
                "directions": c.variant.has_directions(),
            })
        })
        .collect();
    // The first game offered: the recommended variant where the server has it.
    let first_variant = state
        .choices
        .iter()
        .find(|c| c.name == FIRST_GAME_VARIANT)
        .or(state.choices.first())
        .map(|c| c.name.clone());
    ok(json!({
        "variants": list,
        "first_game": {"variant": first_variant, "level": FIRST_GAME_LEVEL},
        "records": state.records.as_ref().map(|r| r.games),
        "limits": {
            "max_time_ms": state.max_time.as_millis() as u64,
            "max_searches": state.max_searches,
            "max_body_bytes": MAX_BODY_BYTES,
            "levels": {
                "least": ranges::LEVEL.least,
                "most": ranges::LEVEL.most,
                "default": ranges::LEVEL.default,
                "names": (LOWEST_LEVEL..=TOP_LEVEL)
                    .filter_map(Level::new)
                    .map(Level::name)
                    .collect::<Vec<_>>(),
            },
            "multipv": ranges::MULTIPV.most,
            "review_nodes": ranges::DEFAULT_REVIEW_NODES,
            "review_total_ms": state.review_time_cap().as_millis() as u64,
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
        "title": rules.title(),
        "columns": variant.columns(),
        "start": variant.format_position(game.start()),
        "moves": game.moves().iter().map(|m| m.to_string()).collect::<Vec<_>>(),
        "plies": game.plies(),
        "position": variant.format_position(board),
        "to_move": board.to_move().letter().to_string(),
        // "S" or "N" (the winner), "draw", or null while the game goes on.
        "result": outcome.as_ref().map(|o| result_letter(o.winner)),
        "end": outcome.as_ref().map(describe),
        "end_words": outcome.as_ref().map(|o| in_words(o, variant, board)),
        "sealed": game.sealed_by_last_move(),
        // Where the long-game rule nears: how many moves without a capture are left.
        "long_game": game.long_game_warning(),
        // What each side's flag falling here would decide (a draw against a side that
        // can never win), for the page's clocks.
        "flag_fall": side_pair(|s| json!({
            "words": flag_fall_in_words(variant, board, s),
            "result": result_letter(flag_fall_winner(variant, board, s)),
        })),
        // What is proven of the game's start, where it is the variant's own.
        "verdict": (game.start() == &variant.start())
            .then(|| isolo_engine::prove::known::start_in_words(variant))
            .flatten(),
        "seeds": side_pair(|s| board.side_total(s)),
        "overture": if rules.overture() { side_pair(|s| board.in_overture(s)) } else { Value::Null },
        "pits": side_pair(|s| (1..=variant.pits()).map(|p| board.seeds(s, p)).collect::<Vec<_>>()),
        "optional_captures": rules.capture_choice() == CaptureChoice::Optional,
        "directions": variant.has_directions(),
        "min_sow": rules.min_sow(),
        "how_to_play": rules.how_to_play(),
        "levels": levels_json(variant),
        "svg": svg,
    })
}

/// A result as the page reads it: the winner's letter, or `draw`.
fn result_letter(winner: Option<Side>) -> String {
    winner.map_or("draw".to_string(), |s| s.letter().to_string())
}

/// Each level in words under each searcher: `{"ab": [...], "mcts": [...]}`, level 1
/// first ("level 4, improver: 77% of the points against level 3 in this game").
fn levels_json(variant: &Variant) -> Value {
    let words = |mcts| {
        (LOWEST_LEVEL..=TOP_LEVEL)
            .filter_map(Level::new)
            .map(|level| level.describe(variant, mcts))
            .collect::<Vec<_>>()
    };
    json!({"ab": words(false), "mcts": words(true)})
}

async fn state_of(State(state): State<Arc<AppState>>, body: Bytes) -> ApiResult {
    let request: ViewRequest = parse_body(&body)?;
    let variant = request.game.variant(&state)?;
    let game = request.game.game(&variant)?;
    ok(state_json(&game, request.flip))
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
        variant.visit_moves(&board, pits, Listing::Sequences, &mut MoveGen::new(), |m| {
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

fn step_json(step: &TraceStep) -> Value {
    match step {
        TraceStep::Lift { pit, seeds } => json!({"kind": "lift", "pit": pit, "seeds": seeds}),
        TraceStep::Sow { pits } => json!({"kind": "sow", "pits": pits}),
        TraceStep::Capture {
            at,
            pits,
            seeds,
            from,
        } => json!({"kind": "capture", "at": at, "pits": pits, "seeds": seeds, "from": from}),
        TraceStep::Pass { at } => json!({"kind": "pass", "at": at}),
        TraceStep::Retreat { from, to, seeds } => {
            json!({"kind": "retreat", "from": from, "to": to, "seeds": seeds})
        }
        TraceStep::Leave { pit, seeds } => json!({"kind": "leave", "pit": pit, "seeds": seeds}),
        TraceStep::End { at } => json!({"kind": "end", "at": at}),
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
    let least = variant.rules().min_sow();
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

/// The engine's answer (`r` or `s`) to the pass at the end of a move begun under the
/// retreat (RULES.md 3.4), for a person playing against it.
async fn answer(State(state): State<Arc<AppState>>, body: Bytes) -> ApiResult {
    let request: AnswerRequest = parse_body(&body)?;
    half_move_search(&state, request, |job| {
        let answer = job.answer();
        answer.map(|a| json!({"answer": a.letter().to_string()}))
    })
    .await
}

/// The decision a move begun stops at next, as a player is shown it before deciding:
/// what is decided, by whom, the lap's end, the pits and seeds at stake, the question
/// in words and the board as sown so far.
async fn decision(State(state): State<Arc<AppState>>, body: Bytes) -> ApiResult {
    let request: DecisionRequest = parse_body(&body)?;
    let variant = request.game.variant(&state)?;
    let game = request.game.game(&variant)?;
    let quoted = ranges::quote(&request.mv);
    if game.outcome().is_some() {
        return Err(ApiError::bad(
            "the game is over: no move is made".to_string(),
        ));
    }
    let half = variant
        .parse_move(&request.mv)
        .map_err(|e| ApiError::bad(e.to_string()))?;
    // The decision with the move's steps up to it; past the seeds a retelling shows, the
    // decision alone (the page then shows its board without the steps).
    let (d, trace) = match trace_to_decision(&variant, game.board(), &half) {
        Some(told) => (Some(told.decision), Some(trace_json(&told.trace))),
        None => (variant.decision_at(game.board(), &half), None),
    };
    let Some(d) = d else {
        return Err(ApiError::bad(format!(
            "move '{quoted}' stops at no decision here: it is whole, or no legal move begins so"
        )));
    };
    let lap_ends = d
        .lap_ends
        .map(|[a, c]| json!({"anticlockwise": a, "clockwise": c}));
    // (The opponent's pits each way's lap would capture, lit beside the lap's ends.)
    let lap_stakes = (d.lap_outcomes.as_ref())
        .map(|[a, c]| json!({"anticlockwise": a.stake(), "clockwise": c.stake()}));
    let board = d.board;
    ok(json!({
        "kind": d.kind.name(),
        "decider": d.decider.letter().to_string(),
        "mover": d.mover.letter().to_string(),
        "laps": d.laps,
        "end": d.end_pit,
        "lap_pit": d.lap_pit,
        "stake": d.stake,
        "seeds": d.seeds,
        "question": d.question(),
        "lap_ends": lap_ends,
        "lap_stakes": lap_stakes,
        "trace": trace,
        "pits": side_pair(|s| (1..=variant.pits()).map(|p| board.seeds(s, p)).collect::<Vec<_>>()),
    }))
}

/// The whole move the engine makes of a move half made under the retreat (RULES.md
/// 3.4): the rest of its own move after a person's answer it did not expect.
async fn complete(State(state): State<Arc<AppState>>, body: Bytes) -> ApiResult {
    let request: AnswerRequest = parse_body(&body)?;
    half_move_search(&state, request, |job| {
        let whole = job.complete();
        whole.map(|m| json!({"move": m.to_string(), "answers": answers_json(Some(&m))}))
    })
    .await
}

/// The opponent's answers inside the engine's move `mv` (the retreat, RULES.md 3.4),
/// each with the move up to it: where the page asks the person to answer.
fn answers_json(mv: Option<&isolo_rules::Move>) -> Value {
    let answers = mv.map(|m| m.answers()).unwrap_or_default();
    let listed = answers.iter().map(|(before, answer)| {
        json!({"before": before.to_string(), "expected": answer.letter().to_string()})
    });
    Value::Array(listed.collect())
}

/// What a search about a move half made is given: the level it decides at (with
/// MCTS or not, and the level's draws), the position and move, and how to search the
/// positions the move can end in.
struct HalfMoveJob<'a> {
    level: Level,
    mcts: bool,
    draws: &'a mut SmallRng,
    variant: &'a isolo_rules::Variant,
    board: &'a isolo_rules::Board,
    partial: &'a isolo_rules::Move,
    search: EndSearch<'a>,
}

impl HalfMoveJob<'_> {
    /// The engine's answer at its level to the pass that ends the move.
    fn answer(self) -> Result<isolo_rules::Choice, AnswerError> {
        let (variant, board, partial) = (self.variant, self.board, self.partial);
        (self.level).answer(self.mcts, variant, board, partial, self.search, self.draws)
    }

    /// The whole move the engine makes of the move at its level.
    fn complete(self) -> Result<isolo_rules::Move, AnswerError> {
        let (variant, board, partial) = (self.variant, self.board, self.partial);
        (self.level).complete(self.mcts, variant, board, partial, self.search, self.draws)
    }
}

/// Runs `work` on a search slot for the move half made in `request`, with the engine
/// and time it asks for.
async fn half_move_search(
    state: &Arc<AppState>,
    request: AnswerRequest,
    work: impl FnOnce(HalfMoveJob) -> Result<Value, AnswerError> + Send + 'static,
) -> ApiResult {
    let variant = request.game.variant(state)?;
    let game = request.game.game(&variant)?;
    let partial = variant
        .parse_move(&request.mv)
        .map_err(|e| ApiError::bad(e.to_string()))?;
    let (board, history, plies) = (*game.board(), game.history(), game.plies() as u64);
    let quiet_plies = game.quiet_plies();
    let analyse = AnalyseRequest {
        game: request.game,
        engine: request.engine,
        time_ms: request.time_ms,
        depth: None,
        nodes: None,
        tc: None,
        multipv: None,
        seed: request.seed,
        level: request.level,
    };
    let spec = analyse.spec(state)?;
    // A level's draws differ from move to move and replay with the seed.
    let mut draws = SmallRng::seed_from_u64(game_seed(analyse.seed()?.unwrap_or(0), plies));
    let permit = search_slot(state)?;
    let found = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        let mut searcher = match spec.searcher() {
            Ok(Some(searcher)) => searcher,
            Ok(None) => return Err(ApiError::bad("engine: not a searcher")),
            Err(e) => return Err(ApiError::bad(format!("engine: {e}"))),
        };
        work(HalfMoveJob {
            level: spec.level,
            mcts: matches!(spec.kind, EngineKind::Mcts(_)),
            draws: &mut draws,
            variant: &variant,
            board: &board,
            partial: &partial,
            search: EndSearch {
                searcher: searcher.as_mut(),
                past: Past {
                    hashes: &history,
                    quiet_plies,
                },
                limits: spec.limits,
                stop: None,
            },
        })
        .map_err(|e| ApiError::bad(e.to_string()))
    })
    .await
    .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))??;
    ok(found)
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
    let cap = state.review_time_cap();
    let total = ranged("total_ms", &request.total_ms, &ranges::REVIEW_TOTAL_MS)?
        .map_or(cap, |ms| Duration::from_millis(ms).min(cap));
    // The review command's settings (one thread, its table), so that the page and the
    // terminal class a game's moves alike.
    let settings = SearchSettings {
        nodes: Some(nodes),
        ..SearchSettings::reviewing()
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
        let reviewed = until_client_leaves(&tx, &stop, || {
            isolo_engine::review::review(
                &game,
                searcher.as_mut(),
                budget,
                &mut |done, total| {
                    let progress = json!({"type": "progress", "done": done, "total": total});
                    let _ = tx.send(line(progress));
                },
                Some(&stop),
            )
        });
        let result = Tagged {
            kind: "result",
            body: reviewed.report(),
        };
        let text = serde_json::to_string(&result).expect("reviews serialise");
        let _ = tx.send(text + "\n");
    });
    ndjson(rx)
}

/// Runs a streamed job with `stop` raised as soon as its client has left (the stream's
/// receiver dropped), so that work no one reads ends at once and frees its slot.
fn until_client_leaves<R>(
    tx: &tokio::sync::mpsc::UnboundedSender<String>,
    stop: &AtomicBool,
    work: impl FnOnce() -> R,
) -> R {
    watching(
        || tx.is_closed(),
        || stop.store(true, Ordering::Relaxed),
        work,
    )
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
    let quiet_plies = game.quiet_plies();
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
                quiet_plies,
                limits,
                multipv,
                pv_lines: usize::MAX,
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
            let searched = until_client_leaves(&tx, &stop, || {
                spec.level
                    .search(searcher.as_mut(), mcts, &search, &mut draws, &mut report)
            });
            let mut value = searched.result.to_json(&variant, &board);
            value["type"] = json!("result");
            value["level"] = json!(spec.level.number());
            value["level_move"] = json!(searched.played.as_ref().map(|l| l.mv.to_string()));
            let best = || searched.result.best().map(|b| b.mv.clone());
            let played = searched.played.map(|l| l.mv).or_else(best);
            value["answers"] = answers_json(played.as_ref());
            value["position"] = json!(variant.format_position(&board));
            let _ = tx.send(line(value));
        });
    }
    ndjson(rx)
}

/// The side to move resigns, or offers a draw: `{"accepted", "words"}`. A draw is
/// answered by the engine's full-strength search of the position (`answer_draw_offer`),
/// in a search slot; a resignation is always accepted.
async fn offer(State(state): State<Arc<AppState>>, body: Bytes) -> ApiResult {
    let request: OfferRequest = parse_body(&body)?;
    let variant = request.game.variant(&state)?;
    let game = request.game.game(&variant)?;
    if let Some(outcome) = game.outcome() {
        let words = in_words(&outcome, &variant, game.board());
        return Err(ApiError::bad(format!("the game is over: {words}")));
    }
    let offerer = game.board().to_move();
    match request.offer.as_str() {
        "resign" => {
            let (words, result) = (resignation_in_words(offerer), offerer.opponent().letter());
            return ok(json!({"accepted": true, "words": words, "result": result.to_string()}));
        }
        "draw" => {}
        other => {
            let other = ranges::quote(other);
            return Err(ApiError::bad(format!(
                "offer: '{other}' is neither 'draw' nor 'resign'"
            )));
        }
    }
    let analyse = AnalyseRequest {
        game: request.game,
        engine: None,
        time_ms: request.time_ms,
        depth: None,
        nodes: None,
        tc: None,
        multipv: None,
        seed: None,
        level: None,
    };
    let spec = analyse.spec(&state)?;
    let (board, history, quiet_plies) = (*game.board(), game.history(), game.quiet_plies());
    let permit = search_slot(&state)?;
    let answer = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        let mut searcher = match spec.searcher() {
            Ok(Some(searcher)) => searcher,
            _ => return Err(ApiError::bad("engine: no searcher")),
        };
        let search = SearchRequest {
            variant: &variant,
            board,
            history,
            quiet_plies,
            limits: spec.limits,
            multipv: 1,
            pv_lines: 1,
            stop: None,
        };
        let result = searcher.search(&search, &mut |_| {});
        let score = result.best().map(|line| line.score);
        let score = score.ok_or_else(|| ApiError::bad("the side to move has no legal move"))?;
        Ok(answer_draw_offer(&variant, score))
    })
    .await
    .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))??;
    let result = answer.accepted.then_some("draw");
    ok(json!({"accepted": answer.accepted, "words": answer.words, "result": result}))
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

fn records_file(state: &AppState) -> Result<&RecordsPages, ApiError> {
    state.records.as_ref().ok_or_else(|| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "no records file (start the server with --records FILE)",
        )
    })
}

/// Reads the records file off the async threads (a page is a few hundred lines).
async fn read_records<T: Send + 'static>(
    state: Arc<AppState>,
    read: impl FnOnce(&RecordsPages) -> Result<T, RecordsError> + Send + 'static,
) -> Result<T, ApiError> {
    let internal = |e: String| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e);
    tokio::task::spawn_blocking(move || {
        let file = records_file(&state)?;
        read(file).map_err(|e| internal(e.to_string()))
    })
    .await
    .map_err(|e| internal(e.to_string()))?
}

/// A page of the records file's games: `offset` (from 0, in file order) and `limit`
/// (1 to `RECORDS_PAGE_MOST`) from the query.
async fn records(
    State(state): State<Arc<AppState>>,
    Query(query): Query<std::collections::HashMap<String, String>>,
) -> ApiResult {
    let number = |key: &str, default: u64, range: std::ops::RangeInclusive<u64>| {
        let Some(text) = query.get(key) else {
            return Ok(default);
        };
        let given = text.parse::<u64>().ok().filter(|n| range.contains(n));
        given.ok_or_else(|| {
            let (least, most) = (range.start(), range.end());
            let text = isolo_rules::quote(text);
            ApiError::bad(format!(
                "{key}: '{text}' is not a number from {least} to {most}"
            ))
        })
    };
    let offset = number("offset", 0, 0..=u64::MAX)?;
    let most = RECORDS_PAGE_MOST as u64;
    let limit = number("limit", RECORDS_PAGE_DEFAULT as u64, 1..=most)?;
    let file = records_file(&state)?;
    let (variant, total, chained) = (file.variant.name().to_string(), file.games, file.chained);
    let games = read_records(state, move |file| file.page(offset, limit as usize)).await?;
    let end = offset.saturating_add(games.len() as u64);
    ok(json!({
        "variant": variant,
        "total": total,
        "chained": chained,
        "offset": offset,
        "limit": limit,
        "next": (end < total).then_some(end),
        "games": games,
    }))
}

async fn record(State(state): State<Arc<AppState>>, Path(game): Path<String>) -> ApiResult {
    let number: u64 = game.parse().map_err(|_| {
        ApiError::bad(format!(
            "game: '{}' is not a game number",
            isolo_rules::quote(&game)
        ))
    })?;
    let variant = records_file(&state)?.variant.clone();
    let record = read_records(state, move |file| file.game(number))
        .await?
        .ok_or_else(|| {
            ApiError::new(
                StatusCode::NOT_FOUND,
                format!("game {number}: not in the records file"),
            )
        })?;
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
