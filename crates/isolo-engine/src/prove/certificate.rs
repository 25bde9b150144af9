//! Proof certificates: a proven win or loss written as the winner's strategy, a proven
//! draw as each side's strategy that never loses, and a checker that needs nothing but
//! the rules to confirm them.
//!
//! A certificate is UTF-8 text, one record a line (gzip-compressed where its file name
//! ends in `.gz`):
//!
//! ```text
//! isolo-ai proof 1
//! rules                          the rules file (as `variants --show` prints it),
//! name = "isolo-boys"            up to the line `end rules`
//! ...
//! end rules
//! start <position>               where the game starts
//! moves <m1 m2 ...>              the moves from there to the proven position (maybe none)
//! winner <S|N>                   the side that wins from the proven position
//! plies <N>                      optional: the exact length the prover reported
//! <position> <move>              the winner's move at each of its positions
//! ...
//! end <count>                    the number of position lines, against truncation
//! ```
//!
//! The checker replays `moves` from `start` to reach the root, then walks every line
//! from the root: where the winner is to move it plays the certificate's move (which
//! must be legal); where the loser is, it generates every distinct position the loser
//! can move to, with no limit. Each line must end with the loser to move and without a
//! legal move. No line may return to a position on itself (the loser could repeat), nor
//! reach a position for the third time counting the game before the root (a draw). So
//! a certificate that checks is a proof whatever search made it.
//!
//! A draw's certificate has `draw` where a win's has `winner`, then two sections:
//!
//! ```text
//! draw
//! holds S                        a set of positions South never has to leave:
//! <position> <move>              where South is to move, South's move, into the set
//! <position> *                   where North is, every North move stays in the set
//! holds N                        the same for North
//! ...
//! end <count>                    the number of position lines of both sections
//! ```
//!
//! The checker confirms that the root is in both sets, that each given move is legal
//! and stays in its set, that every distinct result of the other side's moves at a `*`
//! position is in the set, and that no position appears twice. Then from the root each
//! side can play forever inside its set, never without a move: it never loses, whatever
//! the other plays; the game is drawn (by repetition or a ply limit) or
//! won by it if the other side runs out of moves. Neither side can force a win: a draw,
//! whatever the game before the root.

use std::collections::{HashMap, HashSet};
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::path::Path;

use isolo_rules::{Board, Game, Move, MoveGen, Rules, Side, Variant, DRAW_REPETITIONS};

/// Why a certificate proves nothing: its text is not a certificate, or it reads but
/// its check fails. The message names the line or the position at fault.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CertificateError {
    /// The text is not a certificate (a line that does not parse, a missing end, the
    /// wrong kind of certificate).
    #[error("{0}")]
    Malformed(String),
    /// The certificate reads, but the checker refuses it: where and why.
    #[error("{0}")]
    Refused(String),
}

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
    pub fn to_gzip(&self) -> std::io::Result<Vec<u8>> {
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
        isolo_rules::notation::split_moves(t)
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
    let winner = isolo_rules::notation::parse_side(winner_line)
        .map_err(|e| lines.error(&format!("winner: {e}")))?;
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
    pub fn to_gzip(&self) -> std::io::Result<Vec<u8>> {
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
        if lines.next_line().is_ok() {
            return Err(lines.error("text after the end line"));
        }
        Ok(proof)
    }

    /// Reads a certificate file of either kind, gzip-compressed or not.
    pub fn load(path: &Path) -> Result<Proof, CertificateError> {
        let cannot = |e: std::io::Error| CertificateError::Malformed(format!("cannot read: {e}"));
        let mut file = BufReader::new(isolo_rules::open_regular_file(path).map_err(cannot)?);
        if file.fill_buf().map_err(cannot)?.starts_with(&GZIP_MAGIC) {
            Proof::read(&mut BufReader::new(flate2::read::GzDecoder::new(file)))
        } else {
            Proof::read(&mut file)
        }
    }

    /// Writes the certificate to `path`, gzip-compressed where the name ends in `.gz`.
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        let write = |out: &mut dyn Write| match self {
            Proof::Win(c) => c.write(out),
            Proof::Draw(c) => c.write(out),
        };
        if path.extension().is_some_and(|e| e == "gz") {
            return std::fs::write(path, gzip(write)?);
        }
        let mut out = BufWriter::new(File::create(path)?);
        write(&mut out)?;
        out.flush()
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

/// What a certificate that checks proves.
#[derive(Clone, Debug)]
pub struct Checked {
    /// The proven position.
    pub root: Board,
    /// Its text.
    pub root_text: String,
    /// The side that wins from it.
    pub winner: Side,
    /// Whether the side to move at the root is the winner (a win, else a loss).
    pub win_for_side_to_move: bool,
    /// Distinct positions on the proof's lines, root and final positions included.
    pub positions: usize,
    /// Of those, the positions where the winner is to move.
    pub winner_positions: usize,
    /// The longest line of the proof: the winner wins within this many plies.
    pub depth: u32,
    /// The exact length the certificate states, if any (never more than `depth`).
    pub plies: Option<u32>,
    /// Position lines the proof never reaches.
    pub unused: usize,
}

/// A node of the walk: on the current line, or done with the longest line below it.
#[derive(Clone, Copy)]
enum Mark {
    OnLine,
    Done(u32),
}

/// A position being walked: the positions it leads to and how far the walk got.
struct Frame {
    board: Board,
    children: Vec<Board>,
    next: usize,
    deepest: u32,
}

/// Checks a certificate with the rules alone; the error names the position where the
/// proof fails and why.
pub fn check(certificate: &Certificate) -> Result<Checked, CertificateError> {
    check_win_text(certificate).map_err(CertificateError::Refused)
}

fn check_win_text(certificate: &Certificate) -> Result<Checked, String> {
    let variant = Variant::new(certificate.rules.clone()).map_err(|e| format!("rules: {e}"))?;
    let mut game = Game::new(&variant, certificate.start);
    for (i, mv) in certificate.moves.iter().enumerate() {
        game.play_move(mv)
            .map_err(|e| format!("moves: move {} ({mv}): {e}", i + 1))?;
    }
    if game.outcome().is_some_and(|o| o.winner.is_none()) {
        return Err("the game is drawn by repetition at the proven position".into());
    }
    let root = *game.board();
    let mut earlier: HashMap<Board, usize> = HashMap::new();
    for board in &game.positions()[..game.positions().len() - 1] {
        *earlier.entry(*board).or_default() += 1;
    }
    let mut strategy: HashMap<Board, &Move> = HashMap::new();
    for (board, mv) in &certificate.strategy {
        if strategy.insert(*board, mv).is_some() {
            return Err(format!(
                "position {} is given twice",
                variant.format_position(board)
            ));
        }
    }
    let walker = Walker {
        variant: &variant,
        winner: certificate.winner,
        strategy: &strategy,
    };
    let (marks, depth) = walker.walk(&root, &earlier)?;
    let winner_positions = marks
        .keys()
        .filter(|b| b.to_move() == certificate.winner && strategy.contains_key(*b))
        .count();
    if let Some(plies) = certificate.plies.filter(|&p| p > depth) {
        return Err(format!(
            "the certificate states a result in {plies} plies, but its proof wins within {depth}"
        ));
    }
    Ok(Checked {
        root,
        root_text: variant.format_position(&root),
        winner: certificate.winner,
        win_for_side_to_move: root.to_move() == certificate.winner,
        positions: marks.len(),
        winner_positions,
        depth,
        plies: certificate.plies,
        unused: strategy.len() - winner_positions,
    })
}

struct Walker<'a> {
    variant: &'a Variant,
    winner: Side,
    strategy: &'a HashMap<Board, &'a Move>,
}

impl Walker<'_> {
    /// Walks every line from `root` (depth first, without recursion: proofs run to
    /// thousands of plies) and returns each position's mark and the longest line.
    fn walk(
        &self,
        root: &Board,
        earlier: &HashMap<Board, usize>,
    ) -> Result<(HashMap<Board, Mark>, u32), String> {
        let mut marks: HashMap<Board, Mark> = HashMap::new();
        let mut stack = vec![self.frame(root)?];
        marks.insert(*root, Mark::OnLine);
        while let Some(top) = stack.last_mut() {
            let Some(&child) = top.children.get(top.next) else {
                let done = stack.pop().expect("a frame is on the stack");
                let depth = done.deepest + u32::from(!done.children.is_empty());
                marks.insert(done.board, Mark::Done(depth));
                if let Some(parent) = stack.last_mut() {
                    parent.deepest = parent.deepest.max(depth);
                }
                continue;
            };
            top.next += 1;
            match marks.get(&child) {
                Some(Mark::Done(depth)) => top.deepest = top.deepest.max(*depth),
                Some(Mark::OnLine) => {
                    return Err(format!(
                        "the proof returns to {} on one of its lines: the loser can repeat",
                        self.variant.format_position(&child)
                    ))
                }
                None => {
                    if earlier.get(&child).copied().unwrap_or(0) + 1 >= DRAW_REPETITIONS {
                        return Err(format!(
                            "the proof reaches {}, a draw by repetition with the game before it",
                            self.variant.format_position(&child)
                        ));
                    }
                    marks.insert(child, Mark::OnLine);
                    let frame = self.frame(&child)?;
                    stack.push(frame);
                }
            }
        }
        let depth = match marks.get(root) {
            Some(Mark::Done(depth)) => *depth,
            _ => unreachable!("the walk ends at the root"),
        };
        Ok((marks, depth))
    }

    /// The positions `board` leads to in the proof: the winner's one move, every
    /// distinct result of the loser's moves, none where the loser has no move.
    fn frame(&self, board: &Board) -> Result<Frame, String> {
        let text = || self.variant.format_position(board);
        let children = if board.to_move() == self.winner {
            if !self.variant.has_legal_move(board, &mut MoveGen::new()) {
                return Err(format!(
                    "the winner has no move at {}, so it loses there",
                    text()
                ));
            }
            let Some(mv) = self.strategy.get(board) else {
                return Err(format!(
                    "no move is given at {}, where the winner is to move",
                    text()
                ));
            };
            match self.variant.play_move(board, mv) {
                Some(played) => vec![played.child],
                None => {
                    return Err(format!(
                        "the move {mv} given at {} is not legal there",
                        text()
                    ))
                }
            }
        } else {
            let mut seen = HashSet::new();
            let mut children = Vec::new();
            self.variant
                .for_each_distinct_result(board, &mut MoveGen::new(), |m| {
                    if seen.insert(m.child) {
                        children.push(m.child);
                    }
                });
            children
        };
        Ok(Frame {
            board: *board,
            children,
            next: 0,
            deepest: 0,
        })
    }
}

/// What a draw's certificate that checks proves.
#[derive(Clone, Debug)]
pub struct CheckedDraw {
    /// The proven position.
    pub root: Board,
    /// Its text.
    pub root_text: String,
    /// The size of each side's set, South's first.
    pub positions: [usize; 2],
}

/// Checks a draw's certificate with the rules alone; the error names the position where
/// a side's set fails and why.
pub fn check_draw(certificate: &DrawCertificate) -> Result<CheckedDraw, CertificateError> {
    check_draw_text(certificate).map_err(CertificateError::Refused)
}

fn check_draw_text(certificate: &DrawCertificate) -> Result<CheckedDraw, String> {
    let variant = Variant::new(certificate.rules.clone()).map_err(|e| format!("rules: {e}"))?;
    let mut game = Game::new(&variant, certificate.start);
    for (i, mv) in certificate.moves.iter().enumerate() {
        game.play_move(mv)
            .map_err(|e| format!("moves: move {} ({mv}): {e}", i + 1))?;
    }
    let root = *game.board();
    for side in Side::BOTH {
        check_holds(&variant, &root, side, &certificate.holds[side as usize])?;
    }
    Ok(CheckedDraw {
        root,
        root_text: variant.format_position(&root),
        positions: certificate.holds.each_ref().map(Vec::len),
    })
}

/// Checks that `side` can stay in its set from `root` forever, never without a move.
fn check_holds(
    variant: &Variant,
    root: &Board,
    side: Side,
    holds: &[(Board, Option<Move>)],
) -> Result<(), String> {
    let text = |b: &Board| variant.format_position(b);
    let mut set: HashMap<Board, Option<&Move>> = HashMap::with_capacity(holds.len());
    for (board, mv) in holds {
        if set.insert(*board, mv.as_ref()).is_some() {
            return Err(format!("{side}'s set gives {} twice", text(board)));
        }
    }
    if !set.contains_key(root) {
        return Err(format!(
            "{side}'s set does not hold the root {}",
            text(root)
        ));
    }
    for (board, mv) in &set {
        match (board.to_move() == side, mv) {
            (true, Some(mv)) => {
                let Some(played) = variant.play_move(board, mv) else {
                    return Err(format!(
                        "{side}'s move {mv} at {} is not legal",
                        text(board)
                    ));
                };
                if !set.contains_key(&played.child) {
                    return Err(format!(
                        "{side}'s move {mv} at {} leaves its set (to {})",
                        text(board),
                        text(&played.child)
                    ));
                }
            }
            (true, None) => {
                return Err(format!(
                    "{side}'s set gives no move at {}, where {side} is to move",
                    text(board)
                ))
            }
            (false, Some(mv)) => {
                return Err(format!(
                    "{side}'s set gives the move {mv} at {}, where the other side is to move",
                    text(board)
                ))
            }
            (false, None) => {
                let mut outside = None;
                variant.for_each_distinct_result(board, &mut MoveGen::new(), |m| {
                    if outside.is_none() && !set.contains_key(&m.child) {
                        outside = Some((m.mv(), m.child));
                    }
                });
                if let Some((mv, child)) = outside {
                    return Err(format!(
                        "the move {mv} at {} leaves {side}'s set (to {})",
                        text(board),
                        text(&child)
                    ));
                }
            }
        }
    }
    Ok(())
}

/// What a certificate of either kind proves.
#[derive(Clone, Debug)]
pub enum CheckedProof {
    /// A win or loss.
    Win(Checked),
    /// A draw.
    Draw(CheckedDraw),
}

/// Checks a certificate of either kind.
pub fn check_proof(proof: &Proof) -> Result<CheckedProof, CertificateError> {
    match proof {
        Proof::Win(c) => check(c).map(CheckedProof::Win),
        Proof::Draw(c) => check_draw(c).map(CheckedProof::Draw),
    }
}

impl CheckedProof {
    /// What the check established, as `check-proof --json` prints it.
    pub fn to_json(&self) -> serde_json::Value {
        match self {
            CheckedProof::Win(c) => serde_json::json!({
                "valid": true,
                "position": c.root_text,
                "result": if c.win_for_side_to_move { "win" } else { "loss" },
                "winner": c.winner.letter().to_string(),
                "depth": c.depth,
                "plies": c.plies,
                "positions": c.positions,
                "winner_positions": c.winner_positions,
                "unused_lines": c.unused,
            }),
            CheckedProof::Draw(c) => serde_json::json!({
                "valid": true,
                "position": c.root_text,
                "result": "draw",
                "winner": null,
                "positions": c.positions[0] + c.positions[1],
                "holds": {"S": c.positions[0], "N": c.positions[1]},
            }),
        }
    }
}

/// Why a certificate file could not be read, written or confirmed.
#[derive(Debug, thiserror::Error)]
pub enum CertificateFileError {
    /// The file could not be read as a certificate.
    #[error("{}: {reason}", path.display())]
    Unreadable {
        /// The file.
        path: std::path::PathBuf,
        /// What is wrong (the line, where the text is at fault).
        reason: CertificateError,
    },
    /// The file is a certificate that proves nothing.
    #[error("{}: not a proof: {reason}", path.display())]
    NotAProof {
        /// The file.
        path: std::path::PathBuf,
        /// Where the check failed.
        reason: CertificateError,
    },
    /// The file could not be written.
    #[error("{}: {source}", path.display())]
    Unwritable {
        /// The file.
        path: std::path::PathBuf,
        /// What failed.
        source: std::io::Error,
    },
    /// The file written does not check (a bug in the prover that wrote it).
    #[error("the certificate written fails its check: {0}")]
    WrittenFailsCheck(Box<CertificateFileError>),
    /// The file written reads back as the other kind of proof (a bug).
    #[error("{} reads back as another kind of proof", path.display())]
    OtherKind {
        /// The file.
        path: std::path::PathBuf,
    },
}

/// Reads and checks a certificate file of either kind.
pub fn read_and_check(path: &Path) -> Result<CheckedProof, CertificateFileError> {
    let proof = Proof::load(path).map_err(|reason| CertificateFileError::Unreadable {
        path: path.to_path_buf(),
        reason,
    })?;
    check_proof(&proof).map_err(|reason| CertificateFileError::NotAProof {
        path: path.to_path_buf(),
        reason,
    })
}

/// Writes `proof` to `path` (gzip-compressed where the name ends in `.gz`) and checks
/// the file written, as `check-proof` would: what it proves, of the kind written.
pub fn write_checked(path: &Path, proof: &Proof) -> Result<CheckedProof, CertificateFileError> {
    proof
        .save(path)
        .map_err(|source| CertificateFileError::Unwritable {
            path: path.to_path_buf(),
            source,
        })?;
    let checked =
        read_and_check(path).map_err(|e| CertificateFileError::WrittenFailsCheck(Box::new(e)))?;
    match (proof, &checked) {
        (Proof::Win(_), CheckedProof::Win(_)) | (Proof::Draw(_), CheckedProof::Draw(_)) => {
            Ok(checked)
        }
        _ => Err(CertificateFileError::OtherKind {
            path: path.to_path_buf(),
        }),
    }
}
