//! The certificates and their text: reading, writing, gzip.

use super::*;

/// The longest line a certificate may have (a position and a move with its choices).
const MAX_LINE_BYTES: u64 = 1 << 16;

/// The two bytes that open every gzip file.
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// The first line of every certificate.
pub const FORMAT_LINE: &str = "isolo-ai proof 1";

/// A proof as its maker writes it: the rules, the game up to the root, the winner and its
/// strategy.
pub struct Certificate {
    /// The rules (written in full, so the certificate needs no preset of this build).
    pub rules: Rules,
    /// Where the game starts.
    pub start: Board,
    /// The moves from `start` to the proven position.
    pub moves: Vec<Move>,
    /// Who wins from the proven position.
    pub winner: Side,
    /// The exact length the prover reported, if it computed one.
    pub plies: Option<u32>,
    /// The winner's move at each of its positions in the proof.
    pub strategy: Vec<(Board, Move)>,
}

impl Certificate {
    /// Writes the certificate in the format above.
    pub fn write(&self, out: &mut dyn Write) -> std::io::Result<()> {
        let variant = write_header(out, &self.rules, &self.start, &self.moves)?;
        writeln!(out, "winner {}", self.winner.letter())?;
        if let Some(plies) = self.plies {
            writeln!(out, "plies {plies}")?;
        }
        for (board, mv) in &self.strategy {
            writeln!(out, "{} {mv}", variant.format_position(board))?;
        }
        writeln!(out, "end {}", self.strategy.len())
    }

    /// The certificate gzip-compressed, as a `.gz` file holds it.
    pub(crate) fn to_gzip(&self) -> std::io::Result<Vec<u8>> {
        gzip(|out| self.write(out))
    }

    /// Reads a win's or loss's certificate file, gzip-compressed or not (told by its
    /// first bytes); the error says what is wrong, without the file's name.
    pub fn load(path: &Path) -> Result<Certificate, CertificateError> {
        Proof::load(path)?.into_win()
    }

    /// Reads a win's or loss's certificate; the error names the line and what is wrong.
    pub fn read(input: &mut dyn BufRead) -> Result<Certificate, CertificateError> {
        Proof::read(input)?.into_win()
    }
}

/// What every certificate opens with: the rules, the start and the moves to the root.
struct Header {
    rules: Rules,
    variant: Variant,
    start: Board,
    moves: Vec<Move>,
}

fn read_header(lines: &mut Lines) -> Result<Header, String> {
    let first = lines.next_line()?;
    if first != FORMAT_LINE {
        return Err(format!(
            "line 1: not a certificate of this format (expected '{FORMAT_LINE}')"
        ));
    }
    lines.expect_exact("rules")?;
    let mut toml = String::new();
    loop {
        let line = lines.next_line()?;
        if line == "end rules" {
            break;
        }
        toml.push_str(&line);
        toml.push('\n');
    }
    let rules = Rules::from_toml(&toml, "certificate").map_err(|e| format!("rules: {e}"))?;
    let variant = Variant::new(rules.clone()).map_err(|e| format!("rules: {e}"))?;
    let start = lines.field("start", |t| {
        variant.parse_position(t).map_err(|e| e.to_string())
    })?;
    let moves = lines.field("moves", |t| {
        isolo_rules::split_moves(t)
            .into_iter()
            .map(|m| variant.parse_move(m).map_err(|e| e.to_string()))
            .collect::<Result<Vec<Move>, String>>()
    })?;
    Ok(Header {
        rules,
        variant,
        start,
        moves,
    })
}

/// A win's body: `winner`, optional `plies`, the strategy lines, `end`.
fn read_win(lines: &mut Lines, header: Header, winner_line: &str) -> Result<Certificate, String> {
    let winner =
        isolo_rules::parse_side(winner_line).map_err(|e| lines.error(&format!("winner: {e}")))?;
    let mut plies = None;
    let mut strategy = Vec::new();
    loop {
        let line = lines.next_line()?;
        if let Some(count) = line.strip_prefix("plies ") {
            if plies.is_some() || !strategy.is_empty() {
                return Err(lines.error("'plies' must come once, before the positions"));
            }
            plies = Some(count.parse().map_err(|_| lines.error("bad ply count"))?);
        } else if let Some(count) = line.strip_prefix("end ") {
            lines.check_count(count, strategy.len())?;
            break;
        } else {
            strategy
                .push(parse_strategy_line(&header.variant, &line).map_err(|e| lines.error(&e))?);
        }
    }
    Ok(Certificate {
        rules: header.rules,
        start: header.start,
        moves: header.moves,
        winner,
        plies,
        strategy,
    })
}

/// A draw's body: `holds S`, its lines, `holds N`, its lines, `end`.
fn read_draw(lines: &mut Lines, header: Header) -> Result<DrawCertificate, String> {
    let mut holds: [Vec<(Board, Option<Move>)>; 2] = [Vec::new(), Vec::new()];
    for side in Side::BOTH {
        lines.expect_exact(&format!("holds {}", side.letter()))?;
        loop {
            let line = lines.peek_line()?;
            if line.starts_with("holds ") || line.starts_with("end ") {
                break;
            }
            let line = lines.next_line()?;
            let entry = match line.strip_suffix(" *") {
                Some(position) => header
                    .variant
                    .parse_position(position)
                    .map(|b| (b, None))
                    .map_err(|e| e.to_string()),
                None => parse_strategy_line(&header.variant, &line).map(|(b, m)| (b, Some(m))),
            };
            holds[side as usize].push(entry.map_err(|e| lines.error(&e))?);
        }
    }
    let line = lines.next_line()?;
    let Some(count) = line.strip_prefix("end ") else {
        return Err(lines.error("expected 'end <count>'"));
    };
    lines.check_count(count, holds[0].len() + holds[1].len())?;
    Ok(DrawCertificate {
        rules: header.rules,
        start: header.start,
        moves: header.moves,
        holds,
    })
}

/// A proven draw: each side's strategy that never loses (see the module's notes).
pub struct DrawCertificate {
    /// The rules.
    pub rules: Rules,
    /// Where the game starts.
    pub start: Board,
    /// The moves from `start` to the proven position.
    pub moves: Vec<Move>,
    /// `holds[side]`: a set of positions `side` never has to leave, each with `side`'s
    /// move where it is to move, and none where the other side is.
    pub holds: [Vec<(Board, Option<Move>)>; 2],
}

impl DrawCertificate {
    /// Writes the certificate in the format above.
    pub fn write(&self, out: &mut dyn Write) -> std::io::Result<()> {
        let variant = write_header(out, &self.rules, &self.start, &self.moves)?;
        writeln!(out, "draw")?;
        for side in Side::BOTH {
            writeln!(out, "holds {}", side.letter())?;
            for (board, mv) in &self.holds[side as usize] {
                let mv = mv.as_ref().map_or("*".to_string(), Move::to_string);
                writeln!(out, "{} {mv}", variant.format_position(board))?;
            }
        }
        writeln!(out, "end {}", self.holds[0].len() + self.holds[1].len())
    }

    /// The certificate gzip-compressed, as a `.gz` file holds it.
    pub(crate) fn to_gzip(&self) -> std::io::Result<Vec<u8>> {
        gzip(|out| self.write(out))
    }
}

/// What `write` writes, gzip-compressed.
fn gzip(write: impl Fn(&mut dyn Write) -> std::io::Result<()>) -> std::io::Result<Vec<u8>> {
    let mut packed = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    write(&mut packed)?;
    packed.finish()
}

/// A certificate of either kind.
pub enum Proof {
    /// A win or loss.
    Win(Certificate),
    /// A draw.
    Draw(DrawCertificate),
}

impl Proof {
    /// The win's or loss's certificate, refusing a draw's.
    fn into_win(self) -> Result<Certificate, CertificateError> {
        match self {
            Proof::Win(certificate) => Ok(certificate),
            Proof::Draw(_) => Err(CertificateError::Malformed(
                "a draw's certificate, not a win's".into(),
            )),
        }
    }

    /// Reads a certificate of either kind; the error names the line and what is wrong.
    pub fn read(input: &mut dyn BufRead) -> Result<Proof, CertificateError> {
        Proof::read_lines(input).map_err(CertificateError::Malformed)
    }

    fn read_lines(input: &mut dyn BufRead) -> Result<Proof, String> {
        let mut lines = Lines {
            input,
            number: 0,
            peeked: None,
        };
        let header = read_header(&mut lines)?;
        let line = lines.next_line()?;
        let proof = if line == "draw" {
            Proof::Draw(read_draw(&mut lines, header)?)
        } else if let Some(winner) = line.strip_prefix("winner ") {
            Proof::Win(read_win(&mut lines, header, winner)?)
        } else {
            return Err(lines.error("expected 'winner <S|N>' or 'draw'"));
        };
        // Read to the very end: a compressed file's checksum and length are checked
        // there, and a read that fails is no end.
        let mut rest = String::new();
        let read = (&mut *lines.input)
            .take(1)
            .read_to_string(&mut rest)
            .map_err(|e| format!("cannot read past line {}: {e}", lines.number))?;
        if read > 0 {
            return Err(lines.error("text after the end line"));
        }
        Ok(proof)
    }

    /// Reads a certificate file of either kind, gzip-compressed or not.
    pub fn load(path: &Path) -> Result<Proof, CertificateError> {
        let cannot = |e: std::io::Error| CertificateError::Malformed(format!("cannot read: {e}"));
        let mut file = BufReader::new(isolo_rules::open_regular_file(path).map_err(cannot)?);
        if !file.fill_buf().map_err(cannot)?.starts_with(&GZIP_MAGIC) {
            return Proof::read(&mut file);
        }
        let mut unpacked = BufReader::new(flate2::bufread::GzDecoder::new(file));
        let proof = Proof::read(&mut unpacked)?;
        // One gzip member, as `save` writes: nothing may follow it.
        let mut file = unpacked.into_inner().into_inner();
        if !file.fill_buf().map_err(cannot)?.is_empty() {
            return Err(CertificateError::Malformed(
                "data after the compressed certificate (a second gzip member?)".into(),
            ));
        }
        Ok(proof)
    }

    /// Writes the certificate to `path` whole or not at all, gzip-compressed where the
    /// name ends in `.gz`.
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        let write = |out: &mut dyn Write| match self {
            Proof::Win(c) => c.write(out),
            Proof::Draw(c) => c.write(out),
        };
        // (Written whole or not at all: a full disk leaves no empty certificate.)
        if path.extension().is_some_and(|e| e == "gz") {
            return isolo_rules::write_bytes_whole(path, &gzip(write)?);
        }
        isolo_rules::write_file_whole(path, write)
    }
}

/// Writes the format line, the rules, the start and the moves; returns the variant.
fn write_header(
    out: &mut dyn Write,
    rules: &Rules,
    start: &Board,
    moves: &[Move],
) -> std::io::Result<Variant> {
    let variant = Variant::new(rules.clone()).map_err(|e| std::io::Error::other(e.to_string()))?;
    writeln!(out, "{FORMAT_LINE}")?;
    writeln!(out, "rules")?;
    out.write_all(rules.to_toml().as_bytes())?;
    writeln!(out, "end rules")?;
    writeln!(out, "start {}", variant.format_position(start))?;
    let moves: Vec<String> = moves.iter().map(Move::to_string).collect();
    writeln!(
        out,
        "moves{}",
        moves.iter().map(|m| format!(" {m}")).collect::<String>()
    )?;
    Ok(variant)
}

/// `<position> <move>`: the position's two or three fields, then the move.
fn parse_strategy_line(variant: &Variant, line: &str) -> Result<(Board, Move), String> {
    let (position, mv) = line
        .trim_end()
        .rsplit_once(' ')
        .ok_or("expected '<position> <move>'")?;
    let board = variant
        .parse_position(position)
        .map_err(|e| e.to_string())?;
    let mv = variant.parse_move(mv).map_err(|e| e.to_string())?;
    Ok((board, mv))
}

/// The certificate's lines, counted for errors.
struct Lines<'a> {
    input: &'a mut dyn BufRead,
    number: usize,
    /// A line read ahead by `peek_line`, not yet counted.
    peeked: Option<String>,
}

impl Lines<'_> {
    /// The next line, left to be read again by `next_line`.
    fn peek_line(&mut self) -> Result<&str, String> {
        if self.peeked.is_none() {
            let line = self.read_line()?;
            self.number -= 1;
            self.peeked = Some(line);
        }
        Ok(self.peeked.as_deref().expect("just read"))
    }

    fn next_line(&mut self) -> Result<String, String> {
        match self.peeked.take() {
            Some(line) => {
                self.number += 1;
                Ok(line)
            }
            None => self.read_line(),
        }
    }

    /// `end <count>` against the lines read.
    fn check_count(&self, count: &str, lines: usize) -> Result<(), String> {
        let count: usize = count.parse().map_err(|_| self.error("bad count"))?;
        if count != lines {
            return Err(self.error(&format!(
                "the certificate has {lines} position lines, its end says {count}"
            )));
        }
        Ok(())
    }

    fn read_line(&mut self) -> Result<String, String> {
        let mut line = String::new();
        let read = (&mut *self.input)
            .take(MAX_LINE_BYTES + 1)
            .read_line(&mut line)
            .map_err(|e| format!("cannot read line {}: {e}", self.number + 1))?;
        self.number += 1;
        if read == 0 {
            return Err(format!("line {}: the certificate ends early", self.number));
        }
        if read as u64 > MAX_LINE_BYTES {
            return Err(self.error(&format!("longer than {MAX_LINE_BYTES} bytes")));
        }
        Ok(line.trim_end_matches(['\n', '\r']).to_string())
    }

    fn error(&self, what: &str) -> String {
        format!("line {}: {what}", self.number)
    }

    fn expect_exact(&mut self, expected: &str) -> Result<(), String> {
        let line = self.next_line()?;
        if line != expected {
            return Err(self.error(&format!("expected '{expected}'")));
        }
        Ok(())
    }

    /// The line `<key> <value>`, its value parsed.
    fn field<T>(
        &mut self,
        key: &str,
        parse: impl FnOnce(&str) -> Result<T, String>,
    ) -> Result<T, String> {
        let line = self.next_line()?;
        let value = match line.strip_prefix(key) {
            Some(rest) if rest.is_empty() || rest.starts_with(' ') => rest.trim(),
            _ => return Err(self.error(&format!("expected '{key} ...'"))),
        };
        parse(value).map_err(|e| self.error(&format!("{key}: {e}")))
    }
}
