//! The page's files, compiled into the binary.

use axum::http::header;
use axum::response::{IntoResponse, Response};

const INDEX: &str = include_str!("web/index.html");
const SCRIPT: &str = include_str!("web/app.js");
const STYLE: &str = include_str!("web/style.css");

/// Only the page's own files run: no inline script, nothing from elsewhere.
const POLICY: &str = "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:";

/// One of the page's files, by name.
pub fn page(name: &str) -> Response {
    let (kind, text) = match name {
        "index.html" => ("text/html; charset=utf-8", INDEX),
        "app.js" => ("text/javascript; charset=utf-8", SCRIPT),
        _ => ("text/css; charset=utf-8", STYLE),
    };
    (
        [
            (header::CONTENT_TYPE, kind),
            (header::CONTENT_SECURITY_POLICY, POLICY),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        ],
        text,
    )
        .into_response()
}
