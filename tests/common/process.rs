//! The binary run as a process, and scratch folders, for the tests that drive the CLI.

use std::path::PathBuf;
use std::process::{Child, Command, Output};
use std::time::Duration;

/// Runs the binary with `args`.
pub fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_isolo-ai"))
        .args(args)
        .output()
        .expect("binary runs")
}

/// Runs the binary, which must succeed, and returns its standard output.
pub fn ok(args: &[&str]) -> String {
    let out = run(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Runs the binary and reads its standard output as JSON.
pub fn json(args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&ok(args)).unwrap()
}

/// Presses Ctrl-C: sends SIGINT to `child`.
pub fn ctrl_c(child: &Child) {
    signal(child.id(), "-INT");
}

/// Sends `signal` (`-INT`, `-STOP`...) to process `pid`.
pub fn signal(pid: u32, signal: &str) {
    let sent = Command::new("kill")
        .args([signal, &pid.to_string()])
        .status()
        .unwrap();
    assert!(sent.success(), "kill {signal} {pid}");
}

/// Whether process `pid` has installed a handler for SIGINT (its caught signals in
/// /proc; SIGINT is signal 2, bit 1), or has already ended.
pub fn handles_sigint_or_ended(pid: u32) -> bool {
    let Ok(status) = std::fs::read_to_string(format!("/proc/{pid}/status")) else {
        return true;
    };
    status
        .lines()
        .find_map(|l| l.strip_prefix("SigCgt:"))
        .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
        .is_some_and(|mask| mask & 0b10 != 0)
}

/// The child's output once it ends, and whether it ended within `within` (it is killed
/// when it does not).
pub fn output_within(child: Child, within: Duration) -> (Output, bool) {
    let pid = child.id().to_string();
    let (finished, watched) = std::sync::mpsc::channel::<()>();
    let watchdog = std::thread::spawn(move || {
        let timed_out = watched.recv_timeout(within).is_err();
        if timed_out {
            let _ = Command::new("kill").args(["-KILL", &pid]).status();
        }
        timed_out
    });
    let done = child.wait_with_output().unwrap();
    let _ = finished.send(());
    let timed_out = watchdog.join().unwrap();
    (done, !timed_out)
}

/// The game lines of a records file (its header line skipped), as JSON.
pub fn game_lines(path: &std::path::Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// A records file's games without their times (which differ from run to run) and the
/// digests that cover them.
pub fn games_without_times(path: &std::path::Path) -> Vec<serde_json::Value> {
    game_lines(path)
        .into_iter()
        .map(|mut v| {
            for timing in ["time_ms", "move_ms", "clock_ms", "digest"] {
                v.as_object_mut().unwrap().remove(timing);
            }
            v
        })
        .collect()
}

/// A fresh scratch folder for one test, removed when the test ends.
pub struct Scratch(pub PathBuf);

impl std::ops::Deref for Scratch {
    type Target = PathBuf;
    fn deref(&self) -> &PathBuf {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A scratch folder named for the test and this process.
pub fn scratch(name: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("isolo-ai-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    Scratch(dir)
}

/// A records file's lines (header first) with every game's digest computed again over
/// the lines as they now are, as anyone can (the chain has no secret): edits that only
/// the other checks can catch.
pub fn resealed(lines: &[String]) -> Vec<String> {
    let header: serde_json::Value = serde_json::from_str(&lines[0]).unwrap();
    let mut chain = isolo_engine::matches::records::Chain::start(
        header["fingerprint"].as_str().unwrap(),
        header["shard"].as_str(),
    );
    let games = lines[1..].iter().map(|line| {
        if line.trim().is_empty() {
            return line.clone();
        }
        let mut game: serde_json::Value = serde_json::from_str(line).unwrap();
        let fields = game.as_object_mut().unwrap();
        fields.remove("digest");
        let digest = chain.seal(&serde_json::to_string(fields).unwrap());
        fields.insert("digest".into(), digest.into());
        game.to_string()
    });
    std::iter::once(lines[0].clone()).chain(games).collect()
}
