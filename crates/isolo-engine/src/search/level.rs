//! Strength levels: a gentler opponent that still plays like a player. Below the top a
//! bot searches every root move with a smaller budget (a depth for alpha-beta,
//! iterations for MCTS) and picks among the root moves at random, weighted by their
//! scores at a level-dependent temperature: a good move is likelier than a poor one, a
//! clearly losing one rare. The draws come from the bot's seed, so a game replays. The
//! top level is the engine as it is.

use isolo_rules::{Board, Choice, Move, Variant};
use rand::Rng;

use crate::search::answer::{complete_move_picking, stops_at_answer, AnswerError, EndSearch};
use crate::search::score::{is_proven, WIN};
use crate::search::{Limits, Line, Progress, SearchRequest, SearchResult, Searcher};

/// The weakest level.
pub const LOWEST_LEVEL: u8 = 1;
/// The strongest level: the engine unchanged.
pub const TOP_LEVEL: u8 = 8;
/// The variant a first game is offered on (the page's default): a deep reading, whose
/// games between engines last 30 to 100 plies and end decisively, where the women's
/// preset is a forced win in 5 and Igisoro's games are mostly drawn.
pub const FIRST_GAME_VARIANT: &str = "isolo-boys-capture-ends";
/// The level a first game is offered at: the middle of the seven weakened levels (a
/// player finds the steps either way from there).
pub const FIRST_GAME_LEVEL: u8 = 4;

/// How a level below the top plays, for one searcher.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Handicap {
    /// The budget cap: alpha-beta's depth in plies, or MCTS's iterations.
    budget: u64,
    /// The softmax temperature over the root moves' scores, in seeds: a move `T` seeds
    /// worse than the best is `e` times less likely.
    temperature_seeds: f64,
}

const fn handicap(budget: u64, temperature_seeds: f64) -> Handicap {
    Handicap {
        budget,
        temperature_seeds,
    }
}

/// Levels below the top: one row each in a table.
const WEAKENED_LEVELS: usize = (TOP_LEVEL - LOWEST_LEVEL) as usize;

/// Alpha-beta's levels 1 to `TOP_LEVEL - 1`, weakest first: (depth, temperature), for
/// the deep readings. Level 1 is a beginner's game at one ply, taking 32% to 52% of
/// the points from the capture-greedy player (at three plies it won all of them); level
/// 7 searches 8 plies, close to the top. Between them these games compound every small
/// edge, a ply more being most of a level: seven levels span some 2,600 Elo, so the
/// steps are 85% to 100% (ladders of 60 games a step, docs/measurements.md; a second
/// table spreading the middle packed its top instead).
const ALPHA_BETA: [Handicap; WEAKENED_LEVELS] = [
    handicap(1, 12.0),
    handicap(1, 5.0),
    handicap(2, 2.0),
    handicap(3, 1.0),
    handicap(4, 0.6),
    handicap(6, 0.6),
    handicap(8, 0.5),
];

/// Alpha-beta's levels under the Isolo presets' own rules (the seeds' reading), whose
/// games last 5 to 15 plies and are soon decided: random is only some 950 Elo below
/// the top there, and a ply or a temperature of the deep table is no step at all: here
/// the temperature acts at every one of a game's few plies. Level 1 is a beginner's
/// game: it takes 28% to 56% of the points from the capture-greedy player on these
/// presets (a warmer level 1 lost 84% to 91% of them on Kubuguza, Ikibuguzo and the
/// women's game). Calibrated by ladders from the presets' opening suites to steps of
/// 56% to 87% (docs/measurements.md).
const ALPHA_BETA_SHORT_GAMES: [Handicap; WEAKENED_LEVELS] = [
    handicap(1, 30.0),
    handicap(1, 22.0),
    handicap(1, 14.0),
    handicap(1, 8.0),
    handicap(1, 4.0),
    handicap(2, 0.5),
    handicap(3, 0.5),
];

/// The presets whose games are short enough to need `ALPHA_BETA_SHORT_GAMES`: the
/// Isolo presets, and Kubuguza's and Ikibuguzo's, whose games between engines last
/// 12 to 13 plies and are decided mostly by the opening.
const SHORT_GAME_PRESETS: [&str; 5] = [
    "isolo-boys",
    "isolo-women",
    "kubuguza",
    "ikibuguzo",
    "ikibuguzo-opening-1",
];

/// Alpha-beta's levels under Igisoro's rules, whose games between players of any
/// strength end mostly in fortresses and dead positions, drawn: random is only some
/// 500 Elo below the top, and from a shallow search up every level draws most games
/// with the next. The levels therefore stay at one and two plies with wide
/// temperatures, spread over the weak end where games are decided, and level 7 at a
/// few plies.
const ALPHA_BETA_IGISORO: [Handicap; WEAKENED_LEVELS] = [
    handicap(1, 60.0),
    handicap(1, 25.0),
    handicap(1, 12.0),
    handicap(1, 6.0),
    handicap(1, 3.0),
    handicap(2, 1.0),
    handicap(4, 0.3),
];

/// The preset read with `ALPHA_BETA_IGISORO`.
const IGISORO_PRESETS: [&str; 1] = ["igisoro"];

/// Alpha-beta's levels under Igisoro's readings with the retreat and with clockwise
/// captures, mostly drawn too. There the top is barely stronger than a two-ply search,
/// and one ply's steps flatten below a temperature of some 5 seeds: Igisoro's table
/// packed their levels 5 to 7 and the top into some 150 Elo (steps of 0.52 to 0.62).
/// This one spreads levels 1 to 6 over one ply's temperatures and puts level 7 at two
/// plies, warm; calibrated by ladders of 100 games a step to steps of 0.59 to 0.81
/// (docs/measurements.md).
const ALPHA_BETA_IGISORO_READINGS: [Handicap; WEAKENED_LEVELS] = [
    handicap(1, 60.0),
    handicap(1, 32.0),
    handicap(1, 21.0),
    handicap(1, 14.0),
    handicap(1, 10.0),
    handicap(1, 7.0),
    handicap(2, 4.0),
];

/// The readings read with `ALPHA_BETA_IGISORO_READINGS`.
const IGISORO_READINGS: [&str; 2] = ["igisoro-retreat", "igisoro-clockwise"];

/// MCTS's levels: (iterations, temperature), measured against `mcts:time-ms=100`.
const MCTS: [Handicap; WEAKENED_LEVELS] = [
    handicap(20, 24.0),
    handicap(40, 12.0),
    handicap(80, 6.0),
    handicap(150, 3.0),
    handicap(300, 1.5),
    handicap(1000, 1.0),
    handicap(3000, 0.5),
];

/// The handicaps a search's levels read: by its searcher and, for alpha-beta, the rules.
#[derive(Clone, Copy, Debug)]
struct LevelTable {
    mcts: bool,
    rows: &'static [Handicap; WEAKENED_LEVELS],
}

impl LevelTable {
    /// The table of MCTS (`mcts`) or alpha-beta under `variant`'s rules.
    fn of(mcts: bool, variant: &Variant) -> LevelTable {
        let preset = variant.rules().same_as_preset();
        let among = |presets: &[&str]| preset.is_some_and(|p| presets.contains(&p));
        let rows = if mcts {
            &MCTS
        } else if among(&SHORT_GAME_PRESETS) {
            &ALPHA_BETA_SHORT_GAMES
        } else if among(&IGISORO_PRESETS) {
            &ALPHA_BETA_IGISORO
        } else if among(&IGISORO_READINGS) {
            &ALPHA_BETA_IGISORO_READINGS
        } else {
            &ALPHA_BETA
        };
        LevelTable { mcts, rows }
    }
}

/// Each level's name, weakest first: a word to place oneself by.
const LEVEL_NAMES: [&str; TOP_LEVEL as usize] = [
    "beginner",
    "novice",
    "casual",
    "improver",
    "club player",
    "strong",
    "expert",
    "full strength",
];

/// Alpha-beta's levels as measured on each preset and reading: each level's score in
/// percent against the one below, level 1's against the capture-greedy player
/// (`greedy`), the top's against level 7 as the ladders' top (`ab:nodes=20000`). From
/// the ladders of docs/measurements.md ("Strength levels"), whose table "Each level
/// against the one below" a test holds to this one.
const MEASURED: [(&str, [u8; TOP_LEVEL as usize]); 10] = [
    ("isolo-women", [38, 66, 62, 57, 61, 69, 62, 59]),
    ("isolo-boys", [56, 64, 68, 65, 57, 63, 59, 58]),
    ("igisoro", [29, 62, 73, 68, 60, 60, 60, 56]),
    ("kubuguza", [28, 61, 76, 82, 69, 87, 67, 85]),
    ("ikibuguzo", [28, 60, 72, 77, 56, 84, 68, 82]),
    (
        "isolo-women-capture-ends",
        [32, 98, 100, 98, 92, 95, 85, 32],
    ),
    ("isolo-boys-capture-ends", [52, 93, 100, 98, 91, 97, 92, 57]),
    ("ikibuguzo-opening-1", [33, 61, 74, 77, 78, 76, 74, 87]),
    ("igisoro-retreat", [26, 63, 64, 62, 64, 61, 64, 61]),
    ("igisoro-clockwise", [32, 64, 69, 68, 67, 61, 63, 60]),
];

/// Root moves a weakened search scores: all of them in any real position.
pub const LEVEL_MULTIPV: usize = 256;

/// The score a proven result counts as when moves are weighed, in hundredths of a seed
/// (1000 seeds): far beyond any estimate and the weakest level's temperature, so a weak
/// player still takes a win it sees.
const PROVEN_WEIGHT: i32 = 100_000;

/// A strength level, `LOWEST_LEVEL..=TOP_LEVEL`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level(u8);

impl Default for Level {
    fn default() -> Self {
        Level(TOP_LEVEL)
    }
}

impl Level {
    /// The level `n`, or `None` outside `LOWEST_LEVEL..=TOP_LEVEL`.
    pub fn new(n: u8) -> Option<Level> {
        (LOWEST_LEVEL..=TOP_LEVEL).contains(&n).then_some(Level(n))
    }

    /// Its number.
    pub fn number(self) -> u8 {
        self.0
    }

    /// Whether this is the engine unchanged.
    pub fn is_top(self) -> bool {
        self.0 == TOP_LEVEL
    }

    /// The level's handicap in `table`; none at the top.
    fn handicap(self, table: LevelTable) -> Option<Handicap> {
        table.rows.get(usize::from(self.0 - LOWEST_LEVEL)).copied()
    }

    /// Its name: "beginner" to "full strength".
    pub fn name(self) -> &'static str {
        LEVEL_NAMES[usize::from(self.0 - LOWEST_LEVEL)]
    }

    /// Its measured score in percent against the level below (level 1: against the
    /// capture-greedy player) under alpha-beta, on `variant` where it is a preset or a
    /// reading.
    pub(crate) fn measured_score(self, variant: &Variant) -> Option<u8> {
        let preset = variant.rules().same_as_preset()?;
        let (_, scores) = MEASURED.iter().find(|(name, _)| *name == preset)?;
        Some(scores[usize::from(self.0 - LOWEST_LEVEL)])
    }

    /// The level in words, with its measured strength under alpha-beta (`mcts`: none)
    /// on `variant`: "level 4, improver: 77% of the points against level 3 in this game".
    pub fn describe(self, variant: &Variant, mcts: bool) -> String {
        let named = format!("level {}, {}", self.0, self.name());
        let Some(score) = self.measured_score(variant).filter(|_| !mcts) else {
            return named;
        };
        let below = if self.0 == LOWEST_LEVEL {
            "a player who always takes the most seeds".to_string()
        } else {
            format!("level {}", self.0 - 1)
        };
        format!("{named}: {score}% of the points against {below} in this game")
    }

    /// Root moves to score: one at the top, every one below.
    pub fn multipv(self) -> usize {
        if self.is_top() {
            1
        } else {
            LEVEL_MULTIPV
        }
    }

    /// `given` capped by the level's budget in `table`: its depth for alpha-beta, its
    /// iterations for MCTS.
    fn limits(self, table: LevelTable, given: Limits) -> Limits {
        let Some(handicap) = self.handicap(table) else {
            return given;
        };
        if table.mcts {
            let cap = handicap.budget;
            Limits {
                nodes: Some(given.nodes.map_or(cap, |n| n.min(cap))),
                ..given
            }
        } else {
            let cap = u32::try_from(handicap.budget).unwrap_or(u32::MAX);
            Limits {
                depth: Some(given.depth.map_or(cap, |d| d.min(cap))),
                ..given
            }
        }
    }

    /// The root move to play among `lines` (a search's, best first): the best at the
    /// top, else one drawn from `rng` with weights `exp((score - best) / T)`, `T` the
    /// level's temperature in `table`.
    fn pick<'a>(
        self,
        table: LevelTable,
        lines: &'a [Line],
        rng: &mut impl Rng,
    ) -> Option<&'a Line> {
        let handicap = match self.handicap(table) {
            Some(h) if lines.len() > 1 => h,
            _ => return lines.first(),
        };
        let values: Vec<f64> = lines.iter().map(|l| weighed(l.score.value())).collect();
        let best = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let scale = 100.0 * handicap.temperature_seeds;
        let weights: Vec<f64> = values.iter().map(|v| ((v - best) / scale).exp()).collect();
        let mut draw = rng.random::<f64>() * weights.iter().sum::<f64>();
        for (line, weight) in lines.iter().zip(&weights) {
            if draw < *weight {
                return Some(line);
            }
            draw -= weight;
        }
        lines.last()
    }
}

/// What a search at a level found: the search (its lines cut back to the number asked)
/// and the line the level plays.
pub struct LevelSearch {
    /// The search, as a search of the multi-PV asked would report it.
    pub result: SearchResult,
    /// The root move played: the best at the top, the level's draw below.
    pub played: Option<Line>,
}

impl Level {
    /// Searches `request` at this level with `searcher` (MCTS if `mcts`): its limits
    /// capped, every root move scored below the top, and the move to play drawn from
    /// `rng`. At the top this is the search as asked.
    pub fn search(
        self,
        searcher: &mut dyn Searcher,
        mcts: bool,
        request: &SearchRequest,
        rng: &mut impl Rng,
        report: &mut dyn FnMut(&Progress),
    ) -> LevelSearch {
        let table = LevelTable::of(mcts, request.variant);
        let limits = self.limits(table, request.limits);
        let weakened = SearchRequest {
            variant: request.variant,
            board: request.board,
            history: request.history.clone(),
            quiet_plies: request.quiet_plies,
            limits,
            multipv: request.multipv.max(self.multipv()),
            pv_lines: request.multipv.max(1).min(request.pv_lines),
            stop: request.stop,
        };
        let mut result = searcher.search(&weakened, report);
        let played = self.pick(table, &result.lines, rng).cloned();
        result.lines.truncate(request.multipv.max(1));
        LevelSearch { result, played }
    }
}

impl Level {
    /// The whole move that `partial`, half made under the retreat, becomes as a player
    /// of this level decides the rest (RULES.md 3.4; `search::answer`): each position
    /// the move can end in searched within the level's budget, and each of its own
    /// decisions drawn from `rng` between the two options, weighted by their values at
    /// the level's temperature, as `search` draws root moves. At the top this is
    /// `complete_move`, and `rng` is left untouched.
    pub fn complete(
        self,
        mcts: bool,
        variant: &Variant,
        board: &Board,
        partial: &Move,
        search: EndSearch,
        rng: &mut impl Rng,
    ) -> Result<Move, AnswerError> {
        let table = LevelTable::of(mcts, variant);
        let search = EndSearch {
            limits: self.limits(table, search.limits),
            ..search
        };
        match self.handicap(table) {
            None => complete_move_picking(variant, board, partial, search, &mut |a, b| a >= b),
            Some(handicap) => {
                let mut draw = |a: i32, b: i32| {
                    let scale = 100.0 * handicap.temperature_seeds;
                    let second_odds = ((weighed(b) - weighed(a)) / scale).exp();
                    rng.random::<f64>() * (1.0 + second_odds) < 1.0
                };
                complete_move_picking(variant, board, partial, search, &mut draw)
            }
        }
    }

    /// The answer (`Choice::Retreat` or `Choice::Stay`) a player of this level gives to
    /// the pass that ends `partial` (it must stop at an answer): `complete`'s first
    /// letter after `partial`.
    pub fn answer(
        self,
        mcts: bool,
        variant: &Variant,
        board: &Board,
        partial: &Move,
        search: EndSearch,
        rng: &mut impl Rng,
    ) -> Result<Choice, AnswerError> {
        stops_at_answer(variant, board, partial)?;
        let whole = self.complete(mcts, variant, board, partial, search, rng)?;
        Ok(whole.choices[partial.choices.len()])
    }
}

/// A search value as a weight's score: estimates as they are, proven results at
/// `±PROVEN_WEIGHT` (quicker wins a little higher).
fn weighed(value: i32) -> f64 {
    if !is_proven(value) {
        return value as f64;
    }
    let plies = WIN - value.abs();
    let magnitude = PROVEN_WEIGHT - plies.min(PROVEN_WEIGHT / 2);
    (magnitude * value.signum()) as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::Score;
    use crate::search::Past;
    use rand::rngs::SmallRng;
    use rand::SeedableRng;

    fn line(pit: u8, score: Score) -> Line {
        let mv = Move {
            pit,
            choices: Vec::new(),
        };
        Line {
            mv: mv.clone(),
            score,
            pv: vec![mv],
        }
    }

    const DEEP: LevelTable = LevelTable {
        mcts: false,
        rows: &ALPHA_BETA,
    };
    const TABLES: [LevelTable; 5] = [
        DEEP,
        LevelTable {
            mcts: false,
            rows: &ALPHA_BETA_SHORT_GAMES,
        },
        LevelTable {
            mcts: false,
            rows: &ALPHA_BETA_IGISORO,
        },
        LevelTable {
            mcts: false,
            rows: &ALPHA_BETA_IGISORO_READINGS,
        },
        LevelTable {
            mcts: true,
            rows: &MCTS,
        },
    ];

    fn picks(table: LevelTable, level: u8, lines: &[Line], draws: usize) -> Vec<usize> {
        let mut counts = vec![0; lines.len()];
        let mut rng = SmallRng::seed_from_u64(7);
        for _ in 0..draws {
            let chosen = Level::new(level).unwrap();
            let chosen = chosen.pick(table, lines, &mut rng).unwrap();
            counts[lines.iter().position(|l| l.mv == chosen.mv).unwrap()] += 1;
        }
        counts
    }

    #[test]
    fn levels_are_numbered_from_the_lowest_to_the_top() {
        assert_eq!(Level::new(0), None);
        assert_eq!(Level::new(TOP_LEVEL + 1), None);
        assert!(Level::default().is_top() && Level::default().multipv() == 1);
        assert_eq!(Level::new(LOWEST_LEVEL).unwrap().multipv(), LEVEL_MULTIPV);
    }

    /// Records the request it is given and finds no line.
    struct Recorder(Option<(usize, usize)>);

    impl Searcher for Recorder {
        fn search(
            &mut self,
            request: &SearchRequest,
            _: &mut dyn FnMut(&Progress),
        ) -> SearchResult {
            self.0 = Some((request.multipv, request.pv_lines));
            SearchResult {
                lines: Vec::new(),
                depth: 0,
                nodes: 0,
                time: std::time::Duration::ZERO,
                engine: "recorder",
                hashfull: 0,
            }
        }
    }

    #[test]
    fn a_weak_level_scores_every_root_move_and_names_only_the_lines_asked() {
        let variant = Variant::load("igisoro-clockwise").unwrap();
        let request = SearchRequest {
            variant: &variant,
            board: variant.start(),
            history: Vec::new(),
            quiet_plies: 0,
            limits: Limits::default(),
            multipv: 1,
            pv_lines: usize::MAX,
            stop: None,
        };
        let mut rng = SmallRng::seed_from_u64(1);
        for (level, asked) in [(LOWEST_LEVEL, (LEVEL_MULTIPV, 1)), (TOP_LEVEL, (1, 1))] {
            let mut recorder = Recorder(None);
            let level = Level::new(level).unwrap();
            level.search(&mut recorder, false, &request, &mut rng, &mut |_| {});
            assert_eq!(recorder.0, Some(asked), "level {}", level.number());
        }
    }

    #[test]
    fn every_level_prefers_the_best_move() {
        let lines = [
            line(1, Score::Eval(300)),
            line(2, Score::Eval(100)),
            line(3, Score::Eval(-500)),
        ];
        for table in TABLES {
            assert_eq!(picks(table, TOP_LEVEL, &lines, 100), [100, 0, 0]);
            for level in LOWEST_LEVEL..TOP_LEVEL {
                let counts = picks(table, level, &lines, 2000);
                assert!(
                    counts[0] > counts[1] && counts[1] >= counts[2],
                    "level {level} of {table:?}: {counts:?}"
                );
            }
        }
    }

    #[test]
    fn each_level_searches_deeper_or_picks_more_sharply_than_the_one_below() {
        for table in TABLES {
            for pair in table.rows.windows(2) {
                let (below, above) = (pair[0], pair[1]);
                assert!(
                    above.budget > below.budget
                        || (above.budget == below.budget
                            && above.temperature_seeds < below.temperature_seeds),
                    "{below:?} then {above:?}"
                );
            }
        }
    }

    #[test]
    fn a_weak_level_still_takes_a_proven_win_and_avoids_a_proven_loss() {
        let lines = [
            line(1, Score::Win(3)),
            line(2, Score::Eval(200)),
            line(3, Score::Loss(2)),
        ];
        for table in TABLES {
            let counts = picks(table, LOWEST_LEVEL, &lines, 1000);
            assert!(counts[0] > 980 && counts[2] == 0, "{table:?}: {counts:?}");
        }
    }

    #[test]
    fn budgets_shrink_with_the_level_and_never_grow_what_was_given() {
        let given = Limits {
            depth: Some(2),
            ..Limits::default()
        };
        for level in LOWEST_LEVEL..TOP_LEVEL {
            let level = Level::new(level).unwrap();
            let row = level.number() as usize - 1;
            for table in TABLES.iter().filter(|t| !t.mcts) {
                let alpha_beta = level.limits(*table, given).depth.unwrap();
                assert!(alpha_beta <= 2 && u64::from(alpha_beta) <= table.rows[row].budget);
            }
            let mcts_table = *TABLES.iter().find(|t| t.mcts).unwrap();
            let mcts = level.limits(mcts_table, Limits::default());
            assert_eq!(mcts.nodes, Some(MCTS[row].budget));
        }
        let top = Level::default();
        for table in TABLES {
            assert_eq!(top.limits(table, Limits::default()), Limits::default());
        }
    }

    #[test]
    fn each_preset_reads_its_table_and_the_rest_the_deep_one() {
        let rows = |mcts, name: &str| LevelTable::of(mcts, &Variant::load(name).unwrap()).rows;
        for preset in SHORT_GAME_PRESETS {
            assert_eq!(rows(false, preset), &ALPHA_BETA_SHORT_GAMES);
            assert_eq!(rows(true, preset), &MCTS);
        }
        for igisoro in IGISORO_PRESETS {
            assert_eq!(rows(false, igisoro), &ALPHA_BETA_IGISORO);
            assert_eq!(rows(true, igisoro), &MCTS);
        }
        for reading in IGISORO_READINGS {
            assert_eq!(rows(false, reading), &ALPHA_BETA_IGISORO_READINGS);
            assert_eq!(rows(true, reading), &MCTS);
        }
        for other in ["isolo-boys-capture-ends", "isolo-women-capture-ends"] {
            assert_eq!(rows(false, other), &ALPHA_BETA);
        }
    }

    #[test]
    fn the_measured_strengths_are_the_documented_ones() {
        let doc = include_str!("../../../../docs/measurements.md");
        for (name, scores) in MEASURED {
            let cells: Vec<String> = scores.iter().map(|s| format!("{s}%")).collect();
            let row = format!("| {name} | {} |", cells.join(" | "));
            assert!(doc.contains(&row), "docs/measurements.md lacks {row}");
        }
        let igisoro = Variant::load("igisoro").unwrap();
        let level = Level::new(2).unwrap();
        assert_eq!(
            level.describe(&igisoro, false),
            "level 2, novice: 62% of the points against level 1 in this game"
        );
        assert_eq!(level.describe(&igisoro, true), "level 2, novice");
        let first = Level::new(LOWEST_LEVEL).unwrap().describe(&igisoro, false);
        assert!(first.ends_with("against a player who always takes the most seeds in this game"));
    }

    #[test]
    fn the_documented_table_is_the_levels() {
        let doc = include_str!("../../../../docs/matches.md");
        for table in [
            &ALPHA_BETA,
            &ALPHA_BETA_SHORT_GAMES,
            &ALPHA_BETA_IGISORO,
            &ALPHA_BETA_IGISORO_READINGS,
            &MCTS,
        ] {
            let cells: String = table
                .iter()
                .map(|h| format!(" {} / {:?} |", h.budget, h.temperature_seeds))
                .collect();
            assert!(doc.contains(&cells), "docs/matches.md lacks {cells}");
        }
        assert!(doc.contains("A proven win counts as +1000 seeds"));
        assert_eq!(PROVEN_WEIGHT, 100_000, "1000 seeds, as the docs say");
    }

    /// Under the retreat, a level answers a pass and completes a move with legal whole
    /// moves that begin with the letters given; the top answers as `complete_move`
    /// without a draw, and the weakest level, its ends searched within its small
    /// budget, gives both answers across seeds where the top always gives one.
    #[test]
    fn a_level_decides_its_part_of_a_move_half_made() {
        use crate::search::alphabeta::{AlphaBeta, AlphaBetaConfig};
        use crate::search::answer::complete_move;
        let variant = Variant::load("igisoro-retreat").unwrap();
        let board = variant
            .parse_position("0,4,4,4,4,4,4,4/1,1,1,0,1,0,0,0/0,0,0,0,1,1,0,0/0,5,5,5,0,5,5,5 S")
            .unwrap();
        let partial = variant.parse_move("7p").unwrap();
        let mut searcher = AlphaBeta::new(AlphaBetaConfig {
            threads: 1,
            hash_mb: 4,
            ..AlphaBetaConfig::default()
        })
        .unwrap();
        let limits = Limits {
            depth: Some(4),
            ..Limits::default()
        };
        let top = complete_move(
            &mut searcher,
            &variant,
            &board,
            Past::default(),
            &partial,
            limits,
            None,
        );
        let top = top.unwrap();
        let mut answers = std::collections::BTreeSet::new();
        for level in [LOWEST_LEVEL, TOP_LEVEL] {
            for seed in 0..40 {
                let mut rng = SmallRng::seed_from_u64(seed);
                let search = EndSearch {
                    searcher: &mut searcher,
                    past: Past::default(),
                    limits,
                    stop: None,
                };
                let level = Level::new(level).unwrap();
                let whole = level.complete(false, &variant, &board, &partial, search, &mut rng);
                let whole = whole.unwrap();
                assert!(whole.choices.starts_with(&partial.choices), "{whole}");
                assert!(variant.play_move(&board, &whole).is_some(), "{whole}");
                if level.is_top() {
                    assert_eq!(whole, top);
                    let untouched = SmallRng::seed_from_u64(seed).random::<u64>();
                    assert_eq!(rng.random::<u64>(), untouched, "no draw at the top");
                } else {
                    answers.insert(whole.choices[partial.choices.len()]);
                }
            }
        }
        assert_eq!(answers.len(), 2, "level 1 answers both ways: {answers:?}");
        let search = EndSearch {
            searcher: &mut searcher,
            past: Past::default(),
            limits,
            stop: None,
        };
        let whole_move = &top;
        let refused = Level::default().answer(
            false,
            &variant,
            &board,
            whole_move,
            search,
            &mut SmallRng::seed_from_u64(0),
        );
        assert!(refused.is_err(), "a whole move stops at no answer");
    }
}
