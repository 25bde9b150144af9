//! Fuzzing the API's request bodies in process, through the whole router (its body
//! reader, its error layer, every route's parser): arbitrary bytes, arbitrary text, and
//! JSON built from the requests' own field names with values of every type. Each answer
//! is a success or a typed refusal (`{"error": ...}` with a 4xx or 503), never a panic
//! or a 500. Seeds are fixed; set PROPTEST_RNG_SEED to explore others.

use std::sync::{Arc, LazyLock};
use std::time::Duration;

use axum::body::{to_bytes, Body};
use axum::http::{header, Request, StatusCode};
use proptest::prelude::*;
use serde_json::{Map, Value};
use tokio::sync::Semaphore;
use tower::ServiceExt;

use super::{api, AppState, Choice, MAX_BODY_BYTES};
use isolo_rules::{Variant, PRESETS, READINGS};

/// Routes that take a body.
const ROUTES: [&str; 6] = ["state", "moves", "play", "decision", "analyse", "svg"];

/// Field names the requests take, and a few they do not.
const FIELDS: [&str; 19] = [
    "game", "variant", "rules", "start", "moves", "move", "pit", "distinct", "flip", "engine",
    "time_ms", "depth", "nodes", "tc", "multipv", "seed", "columns", "", "x",
];

/// Strings near the requests' vocabulary: names, positions, moves, rules, clocks.
const WORDS: [&str; 16] = [
    "igisoro",
    "isolo-boys",
    "isolo-women",
    "ab",
    "mcts",
    "1",
    "11xp",
    "1 3 7 2",
    "99 99 99",
    "2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 S",
    "columns = 4",
    "seeds = 2\ncolumns = 3",
    "1+0.1",
    "0+0",
    "-1",
    "",
];

/// The server's state, built once for all cases.
fn state() -> Arc<AppState> {
    static STATE: LazyLock<Arc<AppState>> = LazyLock::new(build_state);
    STATE.clone()
}

fn build_state() -> Arc<AppState> {
    let choices = [(&PRESETS[..], "preset"), (&READINGS[..], "reading")]
        .into_iter()
        .flat_map(|(names, kind)| {
            names.iter().map(move |name| Choice {
                name: name.to_string(),
                kind,
                variant: Variant::load(name).unwrap(),
            })
        })
        .collect();
    Arc::new(AppState {
        choices,
        records: None,
        searches: Arc::new(Semaphore::new(4)),
        max_searches: 4,
        // Short searches: the fuzz is about the parsers.
        max_time: Duration::from_millis(20),
        request_timeout: Duration::from_secs(10),
        threads: 1,
    })
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        (0u64..40).prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        proptest::sample::select(&WORDS[..]).prop_map(Value::from),
        ".{0,30}".prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 24, 5, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            proptest::collection::vec((proptest::sample::select(&FIELDS[..]), inner), 0..5)
                .prop_map(|pairs| {
                    Value::Object(
                        pairs
                            .into_iter()
                            .map(|(k, v)| (k.to_string(), v))
                            .collect::<Map<_, _>>(),
                    )
                }),
        ]
    })
}

fn body() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        proptest::collection::vec(any::<u8>(), 0..300),
        ".{0,200}".prop_map(String::into_bytes),
        json_value().prop_map(|v| v.to_string().into_bytes()),
        // A request with a well-formed game (and maybe a move), so that the fields
        // beside it are reached.
        (
            proptest::sample::select(&WORDS[..3]),
            json_value(),
            proptest::option::of(proptest::sample::select(&WORDS[..])),
        )
            .prop_map(|(name, extra, mv)| {
                let mut request = match extra {
                    Value::Object(fields) => fields,
                    _ => Map::new(),
                };
                request.insert("game".into(), serde_json::json!({"variant": name}));
                if let Some(mv) = mv {
                    request.insert("move".into(), Value::from(mv));
                }
                Value::Object(request).to_string().into_bytes()
            }),
    ]
}

/// Posts `bytes` to `/api/ROUTE` and reads the whole answer.
async fn post(state: &Arc<AppState>, route: &str, bytes: Vec<u8>) -> (StatusCode, String, Vec<u8>) {
    let request = Request::post(format!("/api/{route}"))
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(bytes))
        .unwrap();
    let response = api::router(state.clone()).oneshot(request).await.unwrap();
    let status = response.status();
    let kind = response
        .headers()
        .get(header::CONTENT_TYPE)
        .map_or(String::new(), |t| t.to_str().unwrap_or("").to_string());
    let answer = to_bytes(response.into_body(), 16 * MAX_BODY_BYTES)
        .await
        .unwrap();
    (status, kind, answer.to_vec())
}

/// A success in its route's form, or a refusal in the API's.
fn check_answer(route: &str, status: StatusCode, kind: &str, answer: &[u8]) -> Result<(), String> {
    let text = String::from_utf8_lossy(answer);
    if status.is_success() {
        let lines_are_json = || {
            text.lines()
                .all(|l| serde_json::from_str::<Value>(l).is_ok())
        };
        let fine = match route {
            "svg" => text.starts_with("<svg"),
            "analyse" => lines_are_json() && text.contains("\"type\":\"result\""),
            _ => serde_json::from_slice::<Value>(answer).is_ok(),
        };
        return if fine {
            Ok(())
        } else {
            Err(format!("{route}: {status}, {text}"))
        };
    }
    let refusal = status.is_client_error() || status == StatusCode::SERVICE_UNAVAILABLE;
    let error = serde_json::from_slice::<Value>(answer)
        .ok()
        .and_then(|v| v.get("error")?.as_str().map(str::len));
    match (refusal, kind.starts_with("application/json"), error) {
        (true, true, Some(len)) if len > 0 => Ok(()),
        _ => Err(format!("{route}: {status} {kind}: {text}")),
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 1000,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x0a91_b0d5),
        ..ProptestConfig::default()
    })]

    #[test]
    fn every_route_answers_any_body_with_a_result_or_a_typed_refusal(
        route in proptest::sample::select(&ROUTES[..]),
        bytes in body(),
    ) {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        let (status, kind, answer) = runtime.block_on(post(&state(), route, bytes));
        prop_assert!(check_answer(route, status, &kind, &answer).is_ok(), "{:?}", check_answer(route, status, &kind, &answer));
    }
}
