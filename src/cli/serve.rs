//! `isolo-ai serve`: its arguments, and the server's state built from them; the server
//! itself is [`crate::server`].

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use clap::Args;
use tokio::sync::Semaphore;

use super::{CliError, CliResult};
use crate::server::listen::{self, ConnectionLimits};
use crate::server::{api, AppState, Choice};
use isolo_engine::matches::records;
use isolo_rules::{Variant, PRESETS, READINGS};

#[derive(Args, Debug)]
pub(crate) struct ServeArgs {
    /// Address to listen on (127.0.0.1: this machine only)
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// Port to listen on (0: any free port, printed at start)
    #[arg(long, default_value_t = 8080, value_parser = super::ranges::PORT)]
    pub port: u16,
    /// Open the page in the default browser (xdg-open)
    #[arg(long)]
    pub open: bool,
    /// A rules file the page may choose besides the presets (repeatable)
    #[arg(long = "rules", value_name = "FILE")]
    pub rules: Vec<String>,
    /// A records file (from match or tournament --out) whose games the page may load
    #[arg(long, value_name = "FILE")]
    pub records: Option<String>,
    /// Longest search a request may ask for, in milliseconds
    #[arg(long = "max-time-ms", default_value_t = 10_000, value_parser = super::ranges::TIME_MS)]
    pub max_time_ms: u64,
    /// Searches that may run at once; more are refused with 503 until one ends
    #[arg(long = "max-searches", default_value_t = 2, value_parser = super::ranges::SEARCHES)]
    pub max_searches: usize,
    /// Connections open at once; more are answered 503 and closed
    #[arg(long = "max-connections", default_value_t = 64, value_parser = super::ranges::CONNECTIONS)]
    pub max_connections: usize,
    /// A request's header must arrive within this (a keep-alive connection idle this
    /// long is closed), then its body within as long again; a write the client does not
    /// read for this long closes the connection
    #[arg(long = "request-timeout-ms", default_value_t = 10_000, value_parser = super::ranges::REQUEST_TIMEOUT_MS)]
    pub request_timeout_ms: u64,
    /// Threads of each search
    #[arg(long, default_value_t = 1, value_parser = super::ranges::THREADS)]
    pub threads: usize,
}

fn load_state(args: &ServeArgs) -> Result<AppState, CliError> {
    let mut choices = Vec::new();
    for (names, kind) in [(&PRESETS[..], "preset"), (&READINGS[..], "reading")] {
        for name in names {
            let variant = Variant::load(name)?;
            choices.push(Choice {
                name: name.to_string(),
                kind,
                variant,
            });
        }
    }
    for path in &args.rules {
        let variant = Variant::load(path).map_err(|e| CliError(format!("--rules: {e}")))?;
        let name = variant.name().to_string();
        if choices.iter().any(|c| c.name == name) {
            return Err(CliError(format!(
                "--rules: {path} is named '{name}', like another variant offered; rename it"
            )));
        }
        choices.push(Choice {
            name,
            kind: "file",
            variant,
        });
    }
    let records = match &args.records {
        Some(path) => {
            // Checked as `replay` checks it (the page shows only legal games), then
            // read again a page at a time.
            let pages = records::RecordsPages::open(std::path::Path::new(path))
                .map_err(|e| CliError(format!("--records: {}", e.in_file(path))))?
                .ok_or_else(|| CliError(format!("--records: {path}: no records header")))?;
            if !pages.chained {
                eprintln!("--records: {path}: {}", records::UNCHAINED_NOTE);
            }
            Some(pages)
        }
        None => None,
    };
    Ok(AppState {
        choices,
        records,
        searches: Arc::new(Semaphore::new(args.max_searches)),
        max_searches: args.max_searches,
        max_time: Duration::from_millis(args.max_time_ms),
        request_timeout: Duration::from_millis(args.request_timeout_ms),
        threads: super::ranges::search_threads("--threads", args.threads),
    })
}

pub(crate) fn run(args: &ServeArgs) -> CliResult {
    let state = Arc::new(load_state(args)?);
    let address = format!("{}:{}", args.host, args.port);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        // The searches are the only blocking work, and they are capped already.
        .max_blocking_threads(args.max_searches)
        .build()
        .map_err(|e| CliError(format!("cannot start the server: {e}")))?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(&address)
            .await
            .map_err(|e| CliError(format!("cannot listen on {address}: {e}")))?;
        let bound: SocketAddr = listener
            .local_addr()
            .map_err(|e| CliError(format!("cannot listen on {address}: {e}")))?;
        let url = format!("http://{bound}/");
        super::emit(&format!(
            "isolo-ai serve: listening on {url} (Ctrl-C stops)\n"
        ))?;
        if !bound.ip().is_loopback() {
            eprintln!(
                "warning: listening on {bound}, not this machine only: anyone who can reach it can use the page and the API"
            );
        }
        if args.open {
            open_browser(&url);
        }
        let limits = ConnectionLimits {
            request_timeout: state.request_timeout,
            write_timeout: state.request_timeout,
            max_connections: args.max_connections,
        };
        let ctrl_c = async {
            let _ = tokio::signal::ctrl_c().await;
        };
        listen::serve(listener, api::router(state), limits, ctrl_c).await;
        Ok(())
    })
}

/// Best effort: a machine without a browser still serves. `xdg-open`'s own complaints
/// (several lines where it finds no browser) are kept out of the server's log: one
/// line says what failed, from a thread that waits for it.
fn open_browser(url: &str) {
    let started = std::process::Command::new("xdg-open")
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    let url = url.to_string();
    match started {
        Err(e) => eprintln!("--open: cannot start a browser ({e}); open {url} yourself"),
        Ok(mut child) => {
            std::thread::spawn(move || {
                if !child.wait().is_ok_and(|status| status.success()) {
                    eprintln!("--open: no browser opened the page; open {url} yourself");
                }
            });
        }
    }
}
