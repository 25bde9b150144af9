//! Depth-first proof-number search (df-pn, Nagai 2002): a second prover for deep,
//! narrow wins, where the iterative-deepening alpha-beta prover of `solve` must search
//! every line to the proof's full length.
//!
//! One search asks whether a fixed side, the attacker, can force a win: at the
//! attacker's nodes one proven move suffices (an OR node), at the defender's every move
//! must be proven (an AND node). Proof and disproof numbers (how many leaves must still
//! be proven, or disproven) steer it to the cheapest part of the tree, depth first
//! under thresholds, with the numbers kept in a table. A side without a legal move
//! loses. A position repeating one of the game or of the current path counts as a
//! failure for the attacker (a draw is not a win), and so does a defender's position
//! whose moves the generator could not list whole: so repetitions and cut lists can
//! only hide wins, never make one.
//!
//! Why a proof holds on every path though repetitions depend on the path: a node is
//! proven only from children proven before it, ending in positions where the defender
//! has no move; no repetition is ever part of a proof. Following the proof, each move
//! leads to a position proven earlier, so the attacker's play never repeats a position,
//! whatever the game before it. Disproofs (the attacker fails) can depend on the path;
//! the table keeps them anyway, so a search may miss a win (and answer unknown), never
//! invent one. A win is a proof with the side to move attacking, a loss a proof with
//! its opponent attacking.

use std::collections::{HashMap, HashSet};
use std::io::{BufRead, Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::rules::keys::{KeyMap, KeySet};
use crate::rules::{Board, LegalMove, Move, Side, Variant};
use crate::search::searched_moves;

/// A proof or disproof number that stands for infinity.
const INFINITE: u64 = 1 << 40;

/// What a table entry costs in memory, at the peak (the key, the numbers and the
/// rank, 32 bytes, in a hash map that doubles as it grows): for a limit in megabytes.
pub const BYTES_PER_ENTRY: usize = 100;

/// How far and how long a search may go.
#[derive(Clone, Copy, Debug)]
pub struct DfpnLimits {
    /// Positions expanded at most, both searches together.
    pub nodes: u64,
    /// Wall time at most.
    pub time: Option<Duration>,
    /// Plies from the root past which a line counts as a failure for the attacker.
    pub max_depth: u32,
    /// Table entries kept at most: when full, the unsolved entries are dropped first,
    /// then the disproofs, and the proofs only if that is not enough.
    pub table_entries: usize,
    /// Whether to read the winner's strategy out of the table after a proof (for a
    /// certificate).
    pub strategy: bool,
    /// Whether to run the win and the loss searches at once, on two threads.
    pub parallel: bool,
    /// A flag that stops the search when set (Ctrl-C), as the time limit would.
    pub interrupt: Option<&'static AtomicBool>,
}

/// What df-pn established for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DfpnVerdict {
    /// The side to move can force a win (in some number of plies, not computed).
    Win,
    /// Its opponent can force a win.
    Loss,
    /// Neither proven within the limits.
    Unknown,
}

/// The answer of `solve`.
#[derive(Clone, Debug)]
pub struct DfpnResult {
    /// What was proven.
    pub verdict: DfpnVerdict,
    /// For a win, a winning move.
    pub best_move: Option<Move>,
    /// Positions expanded.
    pub nodes: u64,
    /// Wall time.
    pub time: Duration,
    /// Table entries at the end.
    pub table_entries: usize,
    /// Whether the node or time limit ended a search.
    pub out_of_budget: bool,
    /// After a proof, when asked: the winner's move at each of its positions in the
    /// proof, or why the table no longer holds them.
    pub strategy: Option<Result<Vec<(Board, Move)>, String>>,
}

/// Progress of a search, for a progress line.
#[derive(Clone, Copy, Debug)]
pub struct DfpnProgress {
    /// The side whose win is being proven.
    pub attacker: Side,
    /// Positions expanded so far.
    pub nodes: u64,
    /// The root's proof and disproof numbers (`None`: infinite).
    pub proof: Option<u64>,
    /// The root's disproof number.
    pub disproof: Option<u64>,
    /// Table entries.
    pub table_entries: usize,
}

/// A sum of proof or disproof numbers: infinite only where a term is, else at most one
/// less, so that many large finite terms never pass for a solved node (whose loop would
/// then stop making progress).
fn saturating_sum(a: u64, b: u64) -> u64 {
    if a >= INFINITE || b >= INFINITE {
        INFINITE
    } else {
        (a + b).min(INFINITE - 1)
    }
}

/// How far past the second-best sibling's number a child is searched before the search
/// turns back, in percent of that number: the 1 + epsilon trick (Pawlewicz and Lew).
/// Plain df-pn (the sibling's number plus one) thrashes between siblings of nearly
/// equal numbers, expanding the same positions again at each turn. Measured on the
/// women's capture-ends reading on 5 columns (a win): 15.2 M nodes plain, 5.8 M at 25%,
/// 5.0 M at 50%, 14.3 M at 100%.
const WIDENING_PERCENT: u64 = 50;

/// A child's threshold from the second-best sibling's number.
fn widened(second: u64) -> u64 {
    second.saturating_add(1 + second.saturating_mul(WIDENING_PERCENT) / 100)
}

/// Positions expanded between two looks at the clock.
const DEADLINE_CHECK_EVERY: u64 = 1024;

/// Positions expanded between two progress reports.
const REPORT_EVERY: u64 = 1 << 16;

/// A table entry: a position's numbers and, once proven, when.
#[derive(Clone, Copy, Debug)]
struct Entry {
    numbers: Numbers,
    /// 1 for the first position proven, 2 for the next...; 0 while unproven. A proof
    /// rests on children proven before it, so following ranks down never loops.
    proof_rank: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Numbers {
    proof: u64,
    disproof: u64,
}

impl Numbers {
    const UNKNOWN: Numbers = Numbers {
        proof: 1,
        disproof: 1,
    };
    const PROVEN: Numbers = Numbers {
        proof: 0,
        disproof: INFINITE,
    };
    const DISPROVEN: Numbers = Numbers {
        proof: INFINITE,
        disproof: 0,
    };

    fn solved(&self) -> bool {
        self.proof == 0 || self.disproof == 0
    }
}

/// One search for one attacker.
struct Search<'a> {
    variant: &'a Variant,
    attacker: Side,
    limits: DfpnLimits,
    history: &'a KeySet,
    table: KeyMap<Entry>,
    /// Proofs stored so far: the next proof's rank.
    proofs: u64,
    /// The positions of the current path (a position occurs on it once at most).
    path: KeySet,
    /// When this search must stop.
    deadline: Option<Instant>,
    nodes: u64,
    node_budget: u64,
    out_of_budget: bool,
    /// Set when another search has proven the result.
    stop: &'a AtomicBool,
    report: &'a (dyn Fn(&DfpnProgress) + Sync),
    root: Numbers,
}

impl Search<'_> {
    /// Whether the other search proved the result or the user interrupted.
    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
            || self
                .limits
                .interrupt
                .is_some_and(|f| f.load(Ordering::Relaxed))
    }

    fn budget_spent(&mut self) -> bool {
        if !self.out_of_budget {
            let late = self.nodes.is_multiple_of(DEADLINE_CHECK_EVERY)
                && (self.stopped() || self.deadline.is_some_and(|d| Instant::now() >= d));
            self.out_of_budget = self.nodes >= self.node_budget || late;
        }
        self.out_of_budget
    }

    /// A child's numbers: a failure for the attacker where it repeats, else the table's.
    fn child_numbers(&self, hash: u64) -> Numbers {
        if self.path.contains(&hash) || self.history.contains(&hash) {
            // (A repetition: a draw at best, so no win for the attacker.)
            return Numbers::DISPROVEN;
        }
        self.table
            .get(&hash)
            .map_or(Numbers::UNKNOWN, |e| e.numbers)
    }

    /// `child_numbers`, with an unsearched child's numbers estimated from its mobility
    /// (as df-pn+ does): a position where the defender can start moves from many pits
    /// takes many proofs, one where the attacker can takes many disproofs. Measured on
    /// the women's capture-ends reading on 5 columns: 2.0 M nodes against 5.0 M with
    /// (1, 1) for every unsearched child.
    fn child_numbers_of(&self, child: &Board, hash: u64) -> Numbers {
        let n = self.child_numbers(hash);
        if n != Numbers::UNKNOWN {
            return n;
        }
        let pits = u64::from(self.variant.candidate_pits(child).count_ones()).max(1);
        if child.to_move() == self.attacker {
            Numbers {
                proof: 1,
                disproof: pits,
            }
        } else {
            Numbers {
                proof: pits,
                disproof: 1,
            }
        }
    }

    fn store(&mut self, hash: u64, numbers: Numbers) {
        if self.table.len() >= self.limits.table_entries && !self.table.contains_key(&hash) {
            self.make_room();
        }
        let entry = self.table.entry(hash).or_insert(Entry {
            numbers,
            proof_rank: 0,
        });
        if numbers.proof == 0 && entry.numbers.proof == 0 && entry.proof_rank > 0 {
            // Proven already: its rank stays that of its first proof.
            return;
        }
        entry.numbers = numbers;
        if numbers.proof == 0 {
            self.proofs += 1;
            entry.proof_rank = self.proofs;
        }
    }

    /// Drops the unsolved entries, then the disproofs, then the proofs, until a quarter
    /// of the room is free (a dropped entry costs search again, never correctness).
    fn make_room(&mut self) {
        let room = self.limits.table_entries * 3 / 4;
        self.table.retain(|_, e| e.numbers.solved());
        if self.table.len() >= room {
            self.table.retain(|_, e| e.numbers.proof == 0);
        }
        if self.table.len() >= room {
            self.table.clear();
        }
    }

    /// The numbers of `board` (hash `hash`) expanded until one passes its threshold,
    /// it is solved or the budget is spent.
    fn expand(&mut self, board: &Board, hash: u64, threshold: Numbers, depth: u32) -> Numbers {
        self.nodes += 1;
        if self.nodes.is_multiple_of(REPORT_EVERY) {
            let root = self.root;
            let finite = |n: u64| (n < INFINITE).then_some(n);
            (self.report)(&DfpnProgress {
                attacker: self.attacker,
                nodes: self.nodes,
                proof: finite(root.proof),
                disproof: finite(root.disproof),
                table_entries: self.table.len(),
            });
        }
        let attacking = board.to_move() == self.attacker;
        let (moves, cut) = searched_moves(self.variant, board);
        let settled = if moves.is_empty() {
            // The side to move has lost.
            Some(if attacking {
                Numbers::DISPROVEN
            } else {
                Numbers::PROVEN
            })
        } else if cut && !attacking {
            // A defence list cut short cannot be proven whole.
            Some(Numbers::DISPROVEN)
        } else {
            None
        };
        if let Some(numbers) = settled {
            self.store(hash, numbers);
            return numbers;
        }
        if depth >= self.limits.max_depth {
            // Too deep: a failure here (kept like the other disproofs, which may depend
            // on the path: they can hide a win, never make one).
            self.store(hash, Numbers::DISPROVEN);
            return Numbers::DISPROVEN;
        }
        let children: Vec<(Board, u64)> = moves.iter().map(|m| (m.child, m.child.hash())).collect();
        self.path.insert(hash);
        let numbers = loop {
            let (numbers, best, second) = self.combine(&children, attacking);
            if depth == 0 {
                self.root = numbers;
            }
            if self.budget_spent()
                || numbers.proof >= threshold.proof
                || numbers.disproof >= threshold.disproof
            {
                break numbers;
            }
            let (child, child_hash) = children[best];
            let current = self.child_numbers(child_hash);
            let child_threshold = if attacking {
                Numbers {
                    proof: threshold.proof.min(widened(second)),
                    disproof: (threshold.disproof - numbers.disproof + current.disproof)
                        .min(INFINITE),
                }
            } else {
                Numbers {
                    proof: (threshold.proof - numbers.proof + current.proof).min(INFINITE),
                    disproof: threshold.disproof.min(widened(second)),
                }
            };
            self.expand(&child, child_hash, child_threshold, depth + 1);
        };
        self.path.remove(&hash);
        self.store(hash, numbers);
        numbers
    }

    /// A node's numbers from its children's; the child to expand next and the
    /// second-best child's number (proof at an OR node, disproof at an AND node).
    fn combine(&self, children: &[(Board, u64)], attacking: bool) -> (Numbers, usize, u64) {
        let (mut best, mut first, mut second, mut sum) = (0, INFINITE, INFINITE, 0u64);
        for (i, (child, hash)) in children.iter().enumerate() {
            let n = self.child_numbers_of(child, *hash);
            let (key, other) = if attacking {
                (n.proof, n.disproof)
            } else {
                (n.disproof, n.proof)
            };
            if key < first {
                (second, first, best) = (first, key, i);
            } else if key < second {
                second = key;
            }
            sum = saturating_sum(sum, other);
        }
        let numbers = if attacking {
            Numbers {
                proof: first,
                disproof: sum,
            }
        } else {
            Numbers {
                proof: sum,
                disproof: first,
            }
        };
        (numbers, best, second)
    }

    /// The attacker's move at each of its positions in the proof of `root` (proven),
    /// read from the table: at each position a child proven before it (the attacker's
    /// earliest-proven one, or every defence), so the proof's lines never loop. An error
    /// where the table, when full, dropped part of it.
    fn strategy(&self, root: &Board) -> Result<Vec<(Board, Move)>, String> {
        let rank_of = |hash: u64| {
            self.table
                .get(&hash)
                .filter(|e| e.numbers.proof == 0)
                .map(|e| e.proof_rank)
        };
        let lost = || {
            "the table, when full, dropped part of the proof (a larger --hash keeps it)".to_string()
        };
        let mut strategy = Vec::new();
        let mut seen = HashSet::from([root.hash()]);
        let mut todo = vec![*root];
        while let Some(board) = todo.pop() {
            let (moves, _) = searched_moves(self.variant, &board);
            if moves.is_empty() {
                continue;
            }
            let rank = rank_of(board.hash()).ok_or_else(lost)?;
            let below = |m: &&LegalMove| {
                let hash = m.child.hash();
                !self.history.contains(&hash) && rank_of(hash).is_some_and(|r| r < rank)
            };
            let next: Vec<&LegalMove> = if board.to_move() == self.attacker {
                let best = moves
                    .iter()
                    .filter(below)
                    .min_by_key(|m| rank_of(m.child.hash()))
                    .ok_or_else(lost)?;
                strategy.push((board, best.mv.clone()));
                vec![best]
            } else if moves.iter().all(|m| below(&m)) {
                moves.iter().collect()
            } else {
                return Err(lost());
            };
            for m in next {
                if seen.insert(m.child.hash()) {
                    todo.push(m.child);
                }
            }
        }
        Ok(strategy)
    }

    /// Searches the root until it is solved or the budget is spent.
    fn run(&mut self, board: &Board) -> Numbers {
        let hash = board.hash();
        let infinite = Numbers {
            proof: INFINITE,
            disproof: INFINITE,
        };
        loop {
            self.root = self.expand(board, hash, infinite, 0);
            let late = self.deadline.is_some_and(|d| Instant::now() >= d);
            self.out_of_budget |= late || self.stopped() || self.nodes >= self.node_budget;
            if self.root.solved() || self.out_of_budget {
                return self.root;
            }
        }
    }
}

/// Proves `board` a win or a loss for the side to move, within `limits`: whether it
/// wins, and whether its opponent does. One after the other, the first search gets half
/// the nodes and half the time and the second what is left; with `limits.parallel`
/// both run at once on two threads (each with half the nodes and the table, all the
/// time), and the first proof stops the other. `history` holds the hashes of the game's
/// earlier positions; `report` sees progress about every 65,536 positions of a search.
pub fn solve(
    variant: &Variant,
    board: &Board,
    history: &[u64],
    limits: DfpnLimits,
    report: &(dyn Fn(&DfpnProgress) + Sync),
) -> DfpnResult {
    solve_from(
        variant,
        board,
        history,
        limits,
        report,
        &mut DfpnState::default(),
    )
}

/// `solve`, starting from the tables in `state` (a search of the same position, rules,
/// history and `max_depth` saved before) and leaving its tables there, so that a long
/// proof can go on in another run.
pub fn solve_from(
    variant: &Variant,
    board: &Board,
    history: &[u64],
    limits: DfpnLimits,
    report: &(dyn Fn(&DfpnProgress) + Sync),
    state: &mut DfpnState,
) -> DfpnResult {
    let started = Instant::now();
    let history: KeySet = history.iter().copied().collect();
    let mover = board.to_move();
    let stop = AtomicBool::new(false);
    let new_search = |attacker: Side,
                      table: KeyMap<Entry>,
                      proofs: u64,
                      nodes: u64,
                      budget: u64,
                      share: u32,
                      entries: usize| Search {
        variant,
        attacker,
        limits: DfpnLimits {
            table_entries: entries,
            ..limits
        },
        history: &history,
        table,
        proofs,
        path: KeySet::default(),
        deadline: limits.time.map(|t| started + t / share),
        nodes,
        node_budget: budget.max(nodes + 1),
        out_of_budget: false,
        stop: &stop,
        report,
        root: Numbers::UNKNOWN,
    };
    let outcome = |search: &Search, verdict: DfpnVerdict, nodes: u64, entries: usize| {
        let best_move = (verdict == DfpnVerdict::Win).then(|| winning_move(search, board));
        DfpnResult {
            verdict,
            best_move: best_move.flatten(),
            nodes,
            time: started.elapsed(),
            table_entries: entries,
            out_of_budget: false,
            strategy: limits.strategy.then(|| search.strategy(board)),
        }
    };
    let take = |state: &mut DfpnState, side: Side| {
        (
            std::mem::take(&mut state.tables[side as usize]),
            state.proofs[side as usize],
        )
    };
    if limits.parallel {
        let half = (limits.table_entries / 2).max(1);
        let (table, proofs) = take(state, mover);
        let mut win = new_search(mover, table, proofs, 0, limits.nodes / 2, 1, half);
        let (table, proofs) = take(state, mover.opponent());
        let mut loss = new_search(
            mover.opponent(),
            table,
            proofs,
            0,
            limits.nodes / 2,
            1,
            half,
        );
        let run = |search: &mut Search| {
            let root = search.run(board);
            if root.proof == 0 {
                stop.store(true, Ordering::Relaxed);
            }
            root
        };
        let (w, l) = rayon::join(|| run(&mut win), || run(&mut loss));
        let nodes = win.nodes + loss.nodes;
        let entries = win.table.len() + loss.table.len();
        let result = if w.proof == 0 {
            outcome(&win, DfpnVerdict::Win, nodes, entries)
        } else if l.proof == 0 {
            outcome(&loss, DfpnVerdict::Loss, nodes, entries)
        } else {
            unknown(
                nodes,
                started,
                entries,
                win.out_of_budget || loss.out_of_budget,
            )
        };
        state.keep(win);
        state.keep(loss);
        return result;
    }
    let mut nodes = 0;
    let mut out_of_budget = false;
    let mut table_entries = 0;
    for (attacker, verdict, budget, share) in [
        (mover, DfpnVerdict::Win, limits.nodes / 2, 2),
        (mover.opponent(), DfpnVerdict::Loss, limits.nodes, 1),
    ] {
        let (table, proofs) = take(state, attacker);
        let mut search = new_search(
            attacker,
            table,
            proofs,
            nodes,
            budget,
            share,
            limits.table_entries,
        );
        let root = search.run(board);
        nodes = search.nodes;
        out_of_budget |= search.out_of_budget;
        table_entries = search.table.len();
        if root.proof == 0 {
            let result = outcome(&search, verdict, nodes, table_entries);
            state.keep(search);
            return result;
        }
        state.keep(search);
    }
    unknown(nodes, started, table_entries, out_of_budget)
}

/// The tables of both searches (by attacker), kept between runs of a long proof.
#[derive(Default)]
pub struct DfpnState {
    tables: [KeyMap<Entry>; 2],
    proofs: [u64; 2],
}

/// The first line of a saved state.
const STATE_FORMAT: &str = "isolo-ai dfpn state 1";

impl DfpnState {
    fn keep(&mut self, search: Search) {
        let side = search.attacker as usize;
        self.tables[side] = search.table;
        self.proofs[side] = search.proofs;
    }

    /// Entries in both tables.
    pub fn entries(&self) -> usize {
        self.tables.iter().map(HashMap::len).sum()
    }

    /// Writes the state: a format line, a line with `search` (a digest of what was
    /// searched, which `load` compares), then each table as little-endian numbers.
    pub fn save(&self, out: &mut dyn Write, search: &str) -> std::io::Result<()> {
        writeln!(out, "{STATE_FORMAT}")?;
        writeln!(out, "{search}")?;
        for (table, proofs) in self.tables.iter().zip(self.proofs) {
            out.write_all(&(table.len() as u64).to_le_bytes())?;
            out.write_all(&proofs.to_le_bytes())?;
            for (hash, e) in table {
                for n in [*hash, e.numbers.proof, e.numbers.disproof, e.proof_rank] {
                    out.write_all(&n.to_le_bytes())?;
                }
            }
        }
        out.flush()
    }

    /// Reads a state saved for the same `search`; the error says what is wrong.
    pub fn load(input: &mut dyn BufRead, search: &str) -> Result<DfpnState, String> {
        let mut line = |what: &str| {
            let mut text = String::new();
            input
                .take(STATE_LINE_BYTES)
                .read_line(&mut text)
                .map_err(|e| format!("cannot read: {e}"))?;
            match text.strip_suffix('\n') {
                Some(t) => Ok(t.to_string()),
                None => Err(format!("no {what} line: not a saved df-pn search")),
            }
        };
        if line("format")? != STATE_FORMAT {
            return Err(format!(
                "not a saved df-pn search (its first line is not '{STATE_FORMAT}')"
            ));
        }
        if line("search")? != search {
            return Err(
                "saved from another search (the position, rules, moves or --max-plies differ)"
                    .into(),
            );
        }
        let mut state = DfpnState::default();
        let mut number = || {
            let mut bytes = [0u8; 8];
            input
                .read_exact(&mut bytes)
                .map(|()| u64::from_le_bytes(bytes))
                .map_err(|_| "cut short".to_string())
        };
        for side in 0..2 {
            let count = number()?;
            state.proofs[side] = number()?;
            for _ in 0..count {
                let (hash, proof, disproof, rank) = (number()?, number()?, number()?, number()?);
                let numbers = Numbers {
                    proof: proof.min(INFINITE),
                    disproof: disproof.min(INFINITE),
                };
                state.tables[side].insert(
                    hash,
                    Entry {
                        numbers,
                        proof_rank: rank,
                    },
                );
            }
        }
        Ok(state)
    }
}

/// The longest text line a saved state may have.
const STATE_LINE_BYTES: u64 = 4096;

/// The result when neither search proved anything.
fn unknown(nodes: u64, started: Instant, table_entries: usize, out_of_budget: bool) -> DfpnResult {
    DfpnResult {
        verdict: DfpnVerdict::Unknown,
        best_move: None,
        nodes,
        time: started.elapsed(),
        table_entries,
        out_of_budget,
        strategy: None,
    }
}

/// A move of the root to a child the search proved.
fn winning_move(search: &Search, board: &Board) -> Option<Move> {
    let (moves, _) = searched_moves(search.variant, board);
    moves
        .into_iter()
        .find(|m| search.child_numbers(m.child.hash()).proof == 0)
        .map(|m| m.mv)
}
