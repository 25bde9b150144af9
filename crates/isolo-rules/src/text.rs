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
/// long it was, its control characters escaped ([`escape_controls`]).
pub fn quote(text: &str) -> String {
    match text.char_indices().nth(QUOTE_CHARS) {
        None => escape_controls(text),
        Some((cut, _)) => format!(
            "{}... ({} bytes)",
            escape_controls(&text[..cut]),
            text.len()
        ),
    }
}

/// `text` with each control character (a newline, NUL, ESC...) written as an escape
/// (`\n`, `\0`, `\u{1b}`): a message stays one line and sends no byte a terminal acts on.
pub fn escape_controls(text: &str) -> String {
    if !text.chars().any(char::is_control) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\0' => out.push_str("\\0"),
            c if c.is_control() => out.extend(c.escape_default()),
            c => out.push(c),
        }
    }
    out
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

/// A file written whole or not at all, as it is written: what is written goes to a file
/// beside `path` (the same name with `.partial` and this process' number added), which
/// [`WholeFile::finish`] flushes to disk and renames over `path`. Dropped unfinished (a
/// failure on the way: a full disk, say), the file beside it is removed and `path` is
/// as it was.
pub struct WholeFile {
    path: std::path::PathBuf,
    aside: std::path::PathBuf,
    out: Option<std::io::BufWriter<std::fs::File>>,
    /// Whether the file beside `path` became `path`.
    renamed: bool,
}

impl WholeFile {
    /// Starts the file at `path` (the file beside it created, or emptied).
    pub fn create(path: &std::path::Path) -> std::io::Result<WholeFile> {
        let mut name = path.file_name().unwrap_or_default().to_os_string();
        name.push(format!(".partial{}", std::process::id()));
        let aside = path.with_file_name(name);
        let file = std::fs::File::create(&aside)?;
        Ok(WholeFile {
            path: path.to_path_buf(),
            aside,
            out: Some(std::io::BufWriter::new(file)),
            renamed: false,
        })
    }

    /// The file beside `path` being written.
    pub fn aside(&self) -> &std::path::Path {
        &self.aside
    }

    /// Flushes what was written to disk and renames it over `path`.
    pub fn finish(mut self) -> std::io::Result<()> {
        let out = self.out.take().expect("open until finished");
        let file = out.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        std::fs::rename(&self.aside, &self.path)?;
        self.renamed = true;
        Ok(())
    }

    fn out(&mut self) -> &mut std::io::BufWriter<std::fs::File> {
        self.out.as_mut().expect("open until finished")
    }
}

impl std::io::Write for WholeFile {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.out().write(bytes)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out().flush()
    }
}

impl Drop for WholeFile {
    /// Unless it became `path`, the file beside it is removed.
    fn drop(&mut self) {
        if !self.renamed {
            let _ = std::fs::remove_file(&self.aside);
        }
    }
}

/// Writes the file at `path` whole or not at all ([`WholeFile`]), `write` filling it.
pub fn write_file_whole(
    path: &std::path::Path,
    write: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let mut file = WholeFile::create(path)?;
    write(&mut file)?;
    file.finish()
}

/// [`write_file_whole`] of `bytes`.
pub fn write_bytes_whole(path: &std::path::Path, bytes: &[u8]) -> std::io::Result<()> {
    write_file_whole(path, |out| out.write_all(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_text_has_no_control_characters() {
        assert_eq!(quote("posi\0tion"), "posi\\0tion");
        assert_eq!(quote("a\nb\u{1b}[31m"), "a\\nb\\u{1b}[31m");
        assert_eq!(escape_controls("café"), "café");
    }

    #[test]
    fn a_file_is_written_whole_or_left_as_it_was() {
        let folder = std::env::temp_dir().join(format!("isolo-whole-{}", std::process::id()));
        std::fs::create_dir_all(&folder).unwrap();
        let path = folder.join("out.txt");
        write_bytes_whole(&path, b"first").unwrap();
        let failed = write_file_whole(&path, |out| {
            out.write_all(b"half")?;
            Err(std::io::Error::other("the disk is full"))
        });
        assert!(failed.is_err());
        assert_eq!(std::fs::read(&path).unwrap(), b"first");
        let left: Vec<_> = std::fs::read_dir(&folder).unwrap().collect();
        assert_eq!(left.len(), 1, "nothing beside the file: {left:?}");
        std::fs::remove_dir_all(&folder).unwrap();
    }
}
