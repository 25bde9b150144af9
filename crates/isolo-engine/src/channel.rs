//! Lines read from a channel (UGI's standard input, `play`'s keyboard) through one
//! bounded reader: a line is never held past a cap, and one that is too long or not
//! UTF-8 text is answered and skipped, so a stream of bad input never grows memory or
//! ends the conversation.

use std::io::{BufRead, Read};

/// The longest line read; a longer one is skipped whole and reported.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// One line of input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// A line of text, with its end of line if it had one.
    Text(String),
    /// A line that is not UTF-8 text (read to its end and dropped).
    NotText,
    /// A line longer than [`MAX_LINE_BYTES`] (read to its end and dropped).
    TooLong,
    /// The end of the input.
    End,
}

impl Line {
    /// What to tell the sender of a line that was dropped; `None` for text and the end.
    pub fn problem(&self) -> Option<String> {
        match self {
            Line::NotText => Some("the line is not UTF-8 text: ignored".into()),
            Line::TooLong => Some(format!("the line is over {MAX_LINE_BYTES} bytes: ignored")),
            Line::Text(_) | Line::End => None,
        }
    }
}

/// Reads one line, never holding more than [`MAX_LINE_BYTES`] of it.
pub fn read_line(input: &mut impl BufRead) -> std::io::Result<Line> {
    let mut bytes = Vec::new();
    let read = input
        .by_ref()
        .take(MAX_LINE_BYTES as u64 + 1)
        .read_until(b'\n', &mut bytes)?;
    if read == 0 {
        return Ok(Line::End);
    }
    if bytes.last() != Some(&b'\n') && bytes.len() > MAX_LINE_BYTES {
        skip_line(input)?;
        return Ok(Line::TooLong);
    }
    Ok(match String::from_utf8(bytes) {
        Ok(text) => Line::Text(text),
        Err(_) => Line::NotText,
    })
}

/// Reads and drops the rest of a line.
fn skip_line(input: &mut impl BufRead) -> std::io::Result<()> {
    loop {
        let chunk = input.fill_buf()?;
        if chunk.is_empty() {
            return Ok(());
        }
        match chunk.iter().position(|&b| b == b'\n') {
            Some(at) => {
                input.consume(at + 1);
                return Ok(());
            }
            None => {
                let len = chunk.len();
                input.consume(len);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    #[test]
    fn bad_lines_are_dropped_and_the_next_one_is_read() {
        let mut input = b"1\n\xff\xfe\n".to_vec();
        input.extend(vec![b'a'; MAX_LINE_BYTES + 10]);
        input.extend(b"\n3\nlast");
        let mut input = Cursor::new(input);
        let mut lines = Vec::new();
        loop {
            let line = read_line(&mut input).unwrap();
            if line == Line::End {
                break;
            }
            lines.push(line);
        }
        assert_eq!(
            lines,
            [
                Line::Text("1\n".into()),
                Line::NotText,
                Line::TooLong,
                Line::Text("3\n".into()),
                Line::Text("last".into()),
            ]
        );
        assert!(Line::TooLong
            .problem()
            .unwrap()
            .contains("over 1048576 bytes"));
    }
}
