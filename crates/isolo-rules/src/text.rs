//! Text from outside: files read with a bound, bad input quoted short, TOML errors in
//! one line.

/// Why a text file could not be read (the file's name is the caller's to add).
#[derive(Debug, thiserror::Error)]
pub enum TextFileError {
    /// Opening or reading it failed.
    #[error("cannot read: {0}")]
    Unreadable(#[from] std::io::Error),
    /// It is larger than the kind of file asked for may be.
    #[error("larger than {0} bytes: not a file of this kind")]
    TooLarge(u64),
    /// Its bytes are not UTF-8.
    #[error("not UTF-8 text")]
    NotText,
}

/// The longest piece of bad input an error message quotes, in characters: a message
/// names the problem, it does not echo a flood back.
pub const QUOTE_CHARS: usize = 40;

/// `text` as an error message quotes it: cut to [`QUOTE_CHARS`] characters, with how
/// long it was.
pub fn quote(text: &str) -> String {
    match text.char_indices().nth(QUOTE_CHARS) {
        None => text.to_string(),
        Some((cut, _)) => format!("{}... ({} bytes)", &text[..cut], text.len()),
    }
}

/// Opens a file for reading once it is known to be a regular file: a folder, a named
/// pipe (which would wait for a writer for ever) or a device is refused, never opened.
pub fn open_regular_file(path: &std::path::Path) -> std::io::Result<std::fs::File> {
    if !std::fs::metadata(path)?.is_file() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a regular file (a folder, a pipe or a device)",
        ));
    }
    std::fs::File::open(path)
}

/// Reads a regular text file ([`open_regular_file`]) of at most `max_bytes` bytes: a
/// larger file is an error naming the limit.
pub fn read_text_file(path: &std::path::Path, max_bytes: u64) -> Result<String, TextFileError> {
    use std::io::Read;
    let file = open_regular_file(path)?;
    let mut bytes = Vec::new();
    file.take(max_bytes + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max_bytes {
        return Err(TextFileError::TooLarge(max_bytes));
    }
    String::from_utf8(bytes).map_err(|_| TextFileError::NotText)
}

/// A TOML error's first line, with the line and column where it was found.
pub fn toml_error_text(e: &toml::de::Error, text: &str) -> String {
    let message = e.message().lines().next().unwrap_or("").to_string();
    match e.span() {
        Some(span) => {
            let before = text.get(..span.start).unwrap_or(text);
            let line = before.matches('\n').count() + 1;
            let column = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
            format!("line {line}, column {column}: {message}")
        }
        None => message,
    }
}
