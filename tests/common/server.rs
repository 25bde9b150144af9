//! `isolo-ai serve` started for a test on a free port, stopped when the test ends.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

pub struct Server {
    child: Child,
    /// `http://127.0.0.1:PORT/`
    pub url: String,
}

impl Server {
    /// Starts the server with `args` (after `serve --port 0`) and waits for its address.
    pub fn start(args: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_isolo-ai"))
            .args(["serve", "--port", "0"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the server starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let url = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no address in '{line}'"))
            .to_string();
        Server { child, url }
    }

    /// The address of `path` (no leading slash).
    pub fn at(&self, path: &str) -> String {
        format!("{}{path}", self.url)
    }

    /// `host:port`.
    pub fn host(&self) -> String {
        self.url
            .trim_start_matches("http://")
            .trim_end_matches('/')
            .to_string()
    }

    /// Sends Ctrl-C's signal and waits for the server to end; its exit status.
    pub fn interrupt(&mut self) -> std::process::ExitStatus {
        let pid = self.child.id().to_string();
        Command::new("kill").args(["-INT", &pid]).status().unwrap();
        self.child.wait().unwrap()
    }

    /// The threads the server runs now (from /proc; 0 where there is none).
    pub fn threads(&self) -> usize {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()));
        status
            .unwrap_or_default()
            .lines()
            .find_map(|l| l.strip_prefix("Threads:")?.trim().parse().ok())
            .unwrap_or(0)
    }

    /// Whether the process is still running.
    pub fn alive(&mut self) -> bool {
        self.child.try_wait().unwrap().is_none()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
