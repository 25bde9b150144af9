//! The binary run as a process, and scratch folders, for the tests that drive the CLI.

use std::path::PathBuf;
use std::process::{Command, Output};

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

/// The game lines of a records file (its header line skipped), as JSON.
pub fn game_lines(path: &std::path::Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// A records file's games without their times (which differ from run to run).
pub fn games_without_times(path: &std::path::Path) -> Vec<serde_json::Value> {
    game_lines(path)
        .into_iter()
        .map(|mut v| {
            for timing in ["time_ms", "move_ms", "clock_ms"] {
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
