//! Fuzzing the engine's parsers and channels: engine specs, SPRT bounds, shards, time
//! controls, certificates, records lines and UGI commands get arbitrary text (and bytes);
//! each answers with a typed error or a value, never a panic, and the UGI engine goes
//! on answering. Seeds are fixed; set PROPTEST_RNG_SEED to explore others.

use std::io::{BufReader, Cursor, Write};
use std::sync::{Arc, Mutex};

use proptest::prelude::*;

use isolo_engine::matches::records::{self, Header, RecordsReader};
use isolo_engine::matches::schedule::{Schedule, Shard};
use isolo_engine::prove::certificate::{Proof, FORMAT_LINE};
use isolo_engine::search::clock::TimeControl;
use isolo_engine::stats::Sprt;
use isolo_engine::{ugi, EngineSpec};
use isolo_rules::Variant;

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x00f2_22ed),
        ..ProptestConfig::default()
    }
}

fn any_text() -> impl Strategy<Value = String> {
    proptest::collection::vec(any::<u8>(), 0..200)
        .prop_map(|b| String::from_utf8_lossy(&b).into_owned())
}

/// Text near an engine spec's grammar, to get past its first checks.
fn spec_like() -> impl Strategy<Value = String> {
    proptest::string::string_regex(
        "([a-z]{1,6}=)?(ab|mcts|random|greedy|cmd|x)(:([a-z.-]{1,10}=[0-9a-z.+-]{0,12},?){0,4})?",
    )
    .unwrap()
}

/// UGI commands: the protocol's words and arbitrary ones, with arguments, but never
/// `go` (a search would only make the test slow; searches have tests of their own).
fn ugi_line() -> impl Strategy<Value = String> {
    let word = prop_oneof![
        Just("ugi".to_string()),
        Just("isready".to_string()),
        Just("uginewgame".to_string()),
        Just("position".to_string()),
        Just("setoption".to_string()),
        Just("query".to_string()),
        Just("perft".to_string()),
        Just("stop".to_string()),
        proptest::string::string_regex("[a-z]{1,8}").unwrap(),
    ];
    let argument = prop_oneof![
        Just("startpos".to_string()),
        Just("fen".to_string()),
        Just("moves".to_string()),
        Just("name".to_string()),
        Just("value".to_string()),
        Just("Variant".to_string()),
        Just("Hash".to_string()),
        Just("Threads".to_string()),
        Just("MultiPV".to_string()),
        proptest::string::string_regex("[0-9a-zA-Z,/-]{0,12}").unwrap(),
    ];
    (word, proptest::collection::vec(argument, 0..6))
        .prop_map(|(w, args)| format!("{w} {}", args.join(" ")))
}

/// A sink that the engine writes to, shared with the test.
#[derive(Clone, Default)]
struct Sink(Arc<Mutex<Vec<u8>>>);

impl Write for Sink {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

proptest! {
    #![proptest_config(config(400))]

    #[test]
    fn specs_bounds_shards_and_clocks_parse_or_are_refused(
        text in prop_oneof![spec_like(), any_text()],
    ) {
        let _ = EngineSpec::parse(&text);
        let _ = Sprt::parse(&text);
        let _ = text.parse::<Shard>();
        let _ = text.parse::<TimeControl>();
    }

    #[test]
    fn certificates_of_arbitrary_bytes_are_refused(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let mut with_format = format!("{FORMAT_LINE}\n").into_bytes();
        with_format.extend_from_slice(&bytes);
        for input in [bytes, with_format] {
            prop_assert!(Proof::read(&mut BufReader::new(Cursor::new(input))).is_err());
        }
    }
}

proptest! {
    #![proptest_config(config(60))]

    #[test]
    fn records_lines_after_a_valid_header_are_read_or_refused(
        lines in proptest::collection::vec(any_text(), 1..4),
    ) {
        let variant = Variant::load("isolo-boys").unwrap();
        let engines = [EngineSpec::parse("random").unwrap(), EngineSpec::parse("greedy").unwrap()];
        let schedule = Schedule::new(vec![(0, 1)], vec![variant.start()], 4, 0);
        let header = Header::new("match", &variant, &engines, &schedule, "start", 100);
        let dir = std::env::temp_dir().join(format!("isolo-fuzz-records-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("r-{:x}.jsonl", rand_name(&lines)));
        drop(records::create(&path, &header).unwrap());
        let mut file = records::append(&path).unwrap();
        for line in &lines {
            writeln!(file, "{}", line.replace('\n', " ")).unwrap();
        }
        drop(file);
        if let Ok(Some(mut reader)) = RecordsReader::open(&path) {
            for _ in 0..lines.len() + 1 {
                match reader.next_record() {
                    Ok(Some(_)) => {}
                    Ok(None) | Err(_) => break,
                }
            }
        }
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn the_ugi_engine_answers_every_line_and_goes_on(
        lines in proptest::collection::vec(prop_oneof![ugi_line(), any_text()], 0..12),
    ) {
        let mut input = String::new();
        for line in &lines {
            input.push_str(&line.replace('\n', " "));
            input.push('\n');
        }
        input.push_str("isready\n");
        let sink = Sink::default();
        ugi::run(Cursor::new(input.into_bytes()), Arc::new(Mutex::new(sink.clone())));
        let output = String::from_utf8(sink.0.lock().unwrap().clone()).unwrap();
        // Unless a line said `quit`, the engine is still there to say readyok.
        let quit = lines.iter().any(|l| l.split_whitespace().next() == Some("quit"));
        prop_assert!(quit || output.contains("readyok"), "{output}");
    }
}

/// A file name from the case, so parallel cases do not share a file.
fn rand_name(lines: &[String]) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    lines.hash(&mut hasher);
    hasher.finish()
}
