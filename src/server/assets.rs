//! The page's files, compiled into the binary.

use axum::http::header;
use axum::response::{IntoResponse, Response};

const INDEX: &str = include_str!("web/index.html");
const STYLE: &str = include_str!("web/style.css");

/// The page's ES modules, by name: `app.js` imports the others.
pub(crate) const MODULES: [(&str, &str); 6] = [
    ("app.js", include_str!("web/app.js")),
    ("api.js", include_str!("web/api.js")),
    ("clock.js", include_str!("web/clock.js")),
    ("seeds.js", include_str!("web/seeds.js")),
    ("answers.js", include_str!("web/answers.js")),
    ("texts.js", include_str!("web/texts.js")),
];

/// Only the page's own files run: no inline script, nothing from elsewhere.
const POLICY: &str = "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:";

/// One of the page's files, by name.
pub(crate) fn page(name: &str) -> Response {
    let module = MODULES.iter().find(|(file, _)| *file == name);
    let (kind, text) = match (name, module) {
        (_, Some((_, script))) => ("text/javascript; charset=utf-8", *script),
        ("index.html", _) => ("text/html; charset=utf-8", INDEX),
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
