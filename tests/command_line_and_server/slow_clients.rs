//! The server under a bounded load of slow and silent clients on localhost while
//! analyses run: connections that send half a header, trickle a body, say nothing, or
//! never read their answers are closed after `--request-timeout-ms`; connections over
//! `--max-connections` are answered 503 in JSON; the analyses and ordinary requests are
//! answered meanwhile, and the server's threads stay bounded.

use crate::common;

use std::io::{ErrorKind, Read, Write};
use std::net::TcpStream;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use common::server::Server;
use serde_json::{json, Value};

/// The server's timeout in these tests, in milliseconds.
const TIMEOUT_MS: u64 = 1_000;
/// Longer than any wait the test allows the server (the timeout, twice, and slack).
const PATIENCE: Duration = Duration::from_secs(8);

fn connect(server: &Server) -> TcpStream {
    let stream = TcpStream::connect(server.host()).unwrap();
    stream.set_read_timeout(Some(PATIENCE)).unwrap();
    stream
}

/// Reads until the server closes the connection; what it sent and how long it took.
fn until_closed(mut stream: TcpStream) -> (String, Duration) {
    let start = Instant::now();
    let mut answer = Vec::new();
    let mut chunk = [0u8; 64 * 1024];
    loop {
        match stream.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => answer.extend_from_slice(&chunk[..n]),
            // (A signal to this process, such as another test's child ending, cuts a
            // read short: it is tried again, as `read_to_end` would.)
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) if e.kind() == ErrorKind::ConnectionReset => break,
            Err(e) => panic!("the server kept the connection open ({e})"),
        }
    }
    (
        String::from_utf8_lossy(&answer).into_owned(),
        start.elapsed(),
    )
}

fn analysis(server: &Server, time_ms: u64) -> JoinHandle<(u16, String)> {
    let url = server.at("api/analyse");
    std::thread::spawn(move || {
        let body = json!({"game": {"variant": "igisoro"}, "time_ms": time_ms});
        let mut response = ureq::post(&url).send_json(&body).unwrap();
        let status = response.status().as_u16();
        (status, response.body_mut().read_to_string().unwrap())
    })
}

fn variants_answer(server: &Server) -> u16 {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(PATIENCE))
        .build()
        .into();
    agent
        .get(&server.at("api/variants"))
        .call()
        .map_or(0, |r| r.status().as_u16())
}

/// A client that sends part of a request, slowly or not at all.
enum Slow {
    HalfHeader,
    TrickledBody,
    Silent,
}

impl Slow {
    fn start(&self, server: &Server) -> JoinHandle<(String, Duration)> {
        let mut stream = connect(server);
        let opening: &[u8] = match self {
            Slow::HalfHeader => b"POST /api/moves HTTP/1.1\r\nHost: x\r\nContent-Le",
            Slow::TrickledBody => {
                b"POST /api/moves HTTP/1.1\r\nHost: x\r\nContent-Length: 400\r\n\r\n{\"game\""
            }
            Slow::Silent => b"",
        };
        stream.write_all(opening).unwrap();
        let trickle = matches!(self, Slow::TrickledBody);
        std::thread::spawn(move || {
            if trickle {
                let mut writer = stream.try_clone().unwrap();
                std::thread::spawn(move || {
                    // One byte each 200 ms: the body is never complete in time.
                    while writer.write_all(b" ").is_ok() {
                        std::thread::sleep(Duration::from_millis(200));
                    }
                });
            }
            until_closed(stream)
        })
    }
}

/// Pipelines many requests for the page's script and reads none of the answers until
/// the server gives up writing; how much it sent of what was asked.
fn never_reading(server: &Server) -> JoinHandle<(usize, usize, Duration)> {
    const REQUESTS: usize = 2_000;
    let mut stream = connect(server);
    let request = b"GET /app.js HTTP/1.1\r\nHost: x\r\n\r\n";
    let writer = stream.try_clone().unwrap();
    std::thread::spawn(move || {
        let mut writer = writer;
        for _ in 0..REQUESTS {
            if writer.write_all(request).is_err() {
                break;
            }
        }
    });
    std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(3 * TIMEOUT_MS));
        let start = Instant::now();
        let mut received = 0;
        let mut chunk = [0u8; 64 * 1024];
        loop {
            match stream.read(&mut chunk) {
                Ok(0) => break,
                Ok(n) => received += n,
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) if e.kind() == ErrorKind::ConnectionReset => break,
                Err(e) => panic!("the server kept the unread connection open ({e})"),
            }
        }
        let script = include_str!("../../src/server/web/app.js").len();
        (received, REQUESTS * script, start.elapsed())
    })
}

#[test]
fn slow_and_silent_clients_are_closed_and_the_rest_is_served() {
    let timeout = TIMEOUT_MS.to_string();
    let server = Server::start(&[
        "--request-timeout-ms",
        &timeout,
        "--max-connections",
        "24",
        "--max-searches",
        "2",
    ]);
    let analyses = [analysis(&server, 2_500), analysis(&server, 2_500)];
    let kinds = [Slow::HalfHeader, Slow::TrickledBody, Slow::Silent];
    let slow: Vec<_> = (0..15).map(|k| kinds[k % 3].start(&server)).collect();
    let unread = never_reading(&server);
    std::thread::sleep(Duration::from_millis(200));

    // 2 analyses, 15 slow clients and one that reads nothing: under the cap of 24.
    assert_eq!(
        variants_answer(&server),
        200,
        "an ordinary request is served"
    );
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    // A search is a thread with two watchers: one for its client leaving, one carrying
    // the stop into its move generation.
    let bounded = |threads: usize| threads <= cores + 2 * 3 + 4;
    let threads = server.threads();
    assert!(
        bounded(threads),
        "{threads} threads under load: the runtime's {cores}, 2 searches with their watchers and a few more at most"
    );
    let over_cap: Vec<TcpStream> = (0..12).map(|_| connect(&server)).collect();
    let refused = over_cap
        .into_iter()
        .map(until_closed)
        .filter(|(answer, _)| {
            answer.starts_with("HTTP/1.1 503")
                && answer.contains(r#"{"error":"busy: 24 connections are open"#)
        })
        .count();
    assert!(
        refused >= 6,
        "{refused} of the 12 over the cap refused in JSON"
    );

    let limit = Duration::from_millis(2 * TIMEOUT_MS) + Duration::from_millis(1_500);
    for (k, client) in slow.into_iter().enumerate() {
        let (answer, waited) = client.join().unwrap();
        assert!(waited < limit, "slow client {k} held for {waited:?}");
        if matches!(kinds[k % 3], Slow::TrickledBody) {
            assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
            assert!(answer.contains("request body: not complete within 1000 ms"));
        } else {
            assert_eq!(answer, "", "closed without an answer");
        }
    }
    let (received, asked, waited) = unread.join().unwrap();
    assert!(
        received < asked && waited < limit,
        "the unread connection: {received} of {asked} bytes, closed after {waited:?}"
    );
    for analysis in analyses {
        let (status, text) = analysis.join().unwrap();
        assert_eq!(status, 200, "{text}");
        let last: Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
        assert_eq!(last["type"], "result", "{text}");
    }
    let threads = server.threads();
    assert!(bounded(threads), "{threads} threads once the load is gone");
    assert_eq!(
        variants_answer(&server),
        200,
        "served again once they are gone"
    );
}
