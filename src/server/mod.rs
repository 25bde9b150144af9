//! The web server of `isolo-ai serve`: one page that plays and analyses in the browser,
//! and the JSON API it uses ([`api`]). The page's files are compiled into the binary
//! ([`assets`]): no network, no build step.
//!
//! Safe by default: it binds 127.0.0.1, reads no file but those named on its command
//! line, caps each request body, each search's time, the searches running at once and
//! the connections open at once, closes connections that are slow to send or to read,
//! and answers a bad request with an error, never by stopping.

pub(crate) mod api;
pub(crate) mod assets;
#[cfg(test)]
mod fuzz;
pub(crate) mod listen;
mod wire;

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Semaphore;

use isolo_engine::matches::records::RecordsPages;
use isolo_rules::Variant;

/// Largest request body read, in bytes (a position, a game of moves, a rules file).
pub(crate) const MAX_BODY_BYTES: usize = 256 * 1024;

/// A variant the page may choose, by name.
pub(crate) struct Choice {
    pub name: String,
    /// `preset`, `reading` or `file`.
    pub kind: &'static str,
    pub variant: Variant,
}

/// What every request may use.
pub(crate) struct AppState {
    pub choices: Vec<Choice>,
    /// The `--records` file, read a page at a time.
    pub records: Option<RecordsPages>,
    pub searches: Arc<Semaphore>,
    pub max_searches: usize,
    pub max_time: Duration,
    /// A request's header, and then its body, must arrive within this.
    pub request_timeout: Duration,
    pub threads: usize,
}

/// How many of the server's searches' time cap a whole review may take: a long game is
/// reviewed as far as this allows, not for as long as its positions add up to.
const REVIEW_CAP_SEARCHES: u32 = 20;

impl AppState {
    /// The longest a review takes on this server.
    pub(crate) fn review_time_cap(&self) -> Duration {
        self.max_time * REVIEW_CAP_SEARCHES
    }
}
