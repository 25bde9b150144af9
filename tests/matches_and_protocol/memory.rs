//! Memory of long runs: a random-vs-random match holds no record once it is counted, so
//! its peak memory is the same at 10,000 games as at 1,000,000 (issue 12). Ignored by
//! `cargo test` (the long run takes minutes); run it with
//! `cargo test --profile testing --test matches_and_protocol -- --ignored --nocapture memory::`, which prints the
//! figures CHANGELOG.md quotes.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The deep boys' reading with single seeds sown: long random games.
const RULES: &str = "name = \"boys-sow1-capture-ends\"\ncolumns = 8\n\
start = \"17,2,0,2,0,2,0,2/0,1,2,0,2,0,2,0/0,2,0,2,0,2,1,0/2,0,2,0,2,0,2,17\"\n\
min_sow = 1\ncapture = \"any\"\ncapture_choice = \"forced\"\ncapture_sow_from = \"lap-start\"\n\
overture = true\noverture_protects = true\ncapture_ends_move = true\nmax_laps = 1000\n";

/// The most memory a process held (its `VmHWM`, in kB), read while it runs.
fn peak_kb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Plays `games` random games; returns the wall time and the peak memory in kB.
fn random_match(rules: &std::path::Path, games: u64) -> (Duration, u64) {
    let started = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_isolo-ai"))
        .args(["match", "--variant", rules.to_str().unwrap()])
        .args(["--engine", "a=random", "--engine", "b=random"])
        .args(["--games", &games.to_string()])
        .stdout(Stdio::null())
        .spawn()
        .expect("the binary starts");
    let mut peak = 0;
    loop {
        if let Some(kb) = peak_kb(child.id()) {
            peak = peak.max(kb);
        }
        if let Some(status) = child.try_wait().unwrap() {
            assert!(status.success());
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    (started.elapsed(), peak)
}

#[test]
#[ignore = "plays a million games (minutes): run with --ignored"]
fn match_memory_stays_flat_from_ten_thousand_to_a_million_games() {
    let rules = std::env::temp_dir().join(format!("isolo-ai-memory-{}.toml", std::process::id()));
    std::fs::write(&rules, RULES).unwrap();
    let mut peaks = Vec::new();
    for games in [10_000, 100_000, 1_000_000] {
        let (time, kb) = random_match(&rules, games);
        println!(
            "{games} games: {:.1} s, {:.0} games/s, peak {:.1} MB",
            time.as_secs_f64(),
            games as f64 / time.as_secs_f64(),
            kb as f64 / 1024.0
        );
        peaks.push(kb);
    }
    let _ = std::fs::remove_file(&rules);
    assert!(peaks[2] < 100 * 1024, "a million games in {} kB", peaks[2]);
    assert!(
        peaks[2] as f64 <= 1.25 * peaks[0] as f64,
        "memory grew with the games: {peaks:?} kB"
    );
}
