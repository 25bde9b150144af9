//! The retold moves of `rules::trace` (what the web page animates) end on the position
//! the fast generator gives, on many random rule sets and positions, and their steps
//! add up: every seed lifted or taken is sown.

use crate::common;
use isolo_rules::Listing;

use common::{random_rules, Rng};
use isolo_rules::{trace_move, trace_to_decision, TraceStep};
use isolo_rules::{Board, Choice, Move, MoveGen, Side, Variant};

fn pits_of(variant: &Variant, board: &Board) -> [Vec<u32>; 2] {
    let side = |s| {
        (1..=variant.pits())
            .map(|p| board.seeds(s, p) as u32)
            .collect()
    };
    [side(Side::South), side(Side::North)]
}

/// Seeds lifted or taken equal seeds sown; captures and passes happen only under the
/// rules that allow them; the retelling ends with `End` where the last lap's last seed
/// fell (under `capture_ends_move` too).
fn check_steps(steps: &[TraceStep], mv: &Move) {
    let (mut in_hand, mut passes, mut retreats) = (0u32, 0usize, 0usize);
    for step in steps {
        match step {
            TraceStep::Lift { seeds, .. } => in_hand += seeds,
            TraceStep::Capture { seeds, .. } => in_hand += seeds,
            TraceStep::Sow { pits } => {
                assert!(pits.len() as u32 <= in_hand, "sows only seeds in hand");
                in_hand -= pits.len() as u32;
            }
            TraceStep::Pass { .. } => passes += 1,
            TraceStep::Retreat { .. } => retreats += 1,
            TraceStep::Leave { seeds, .. } => {
                assert!(*seeds <= in_hand, "leaves only seeds in hand");
                in_hand -= seeds;
            }
            TraceStep::End { .. } => {}
        }
    }
    assert_eq!(in_hand, 0, "every seed in hand is sown: {steps:?}");
    let [.., TraceStep::Sow { pits }, TraceStep::End { at }] = steps else {
        panic!("a retelling ends with a lap and its end: {steps:?}");
    };
    assert_eq!(
        pits.last(),
        Some(at),
        "the move ends where its last seed falls"
    );
    let passed = mv.choices.iter().filter(|&&c| c == Choice::Pass).count();
    assert_eq!(passes, passed, "one Pass per 'p' of {mv}");
    let retreated = mv.choices.iter().filter(|&&c| c == Choice::Retreat).count();
    assert_eq!(retreats, retreated, "one Retreat per 'r' of {mv}");
}

#[test]
fn retold_moves_end_on_the_generated_positions() {
    let mut rng = Rng(0x7ace_0001);
    let (mut moves, mut captures, mut passes) = (0, 0, 0);
    for _game in 0..300 {
        let variant = Variant::new(random_rules(&mut rng)).unwrap();
        let mut board = variant.start();
        for _ply in 0..40 {
            let mut gen = MoveGen::with_point_limit(2_000);
            let mut legal = Vec::new();
            variant.visit_moves(
                &board,
                Variant::ALL_PITS,
                Listing::Sequences,
                &mut gen,
                |m| {
                    if legal.len() < 200 {
                        legal.push(m.to_legal_move())
                    }
                },
            );
            if legal.is_empty() {
                break;
            }
            for m in &legal {
                let trace = trace_move(&variant, &board, &m.mv).expect("a legal move retells");
                assert!(!trace.truncated);
                assert_eq!(trace.mover, board.to_move());
                assert_eq!(
                    trace.pits,
                    pits_of(&variant, &m.child),
                    "{} from {}",
                    m.mv,
                    variant.format_position(&board)
                );
                check_steps(&trace.steps, &m.mv);
                captures += trace
                    .steps
                    .iter()
                    .filter(|s| matches!(s, TraceStep::Capture { .. }))
                    .count();
                passes += trace
                    .steps
                    .iter()
                    .filter(|s| matches!(s, TraceStep::Pass { .. }))
                    .count();
                moves += 1;
            }
            board = legal[rng.below(legal.len() as u64) as usize].child;
        }
    }
    assert!(
        moves > 20_000 && captures > 2_000 && passes > 200,
        "{moves} {captures} {passes}"
    );
}

#[test]
fn moves_that_leave_a_capture_retell_to_their_positions() {
    let mut rng = Rng(0x1ea0_7ace);
    let variant = crate::perft::leaving("ikibuguzo");
    let mut leaves = 0;
    for _game in 0..20 {
        let mut board = variant.start();
        for _ply in 0..60 {
            let legal = variant.legal_moves(&board);
            if legal.is_empty() {
                break;
            }
            for m in &legal {
                let trace = trace_move(&variant, &board, &m.mv).expect("a legal move retells");
                assert_eq!(trace.pits, pits_of(&variant, &m.child), "{}", m.mv);
                check_steps(&trace.steps, &m.mv);
                let left = trace
                    .steps
                    .iter()
                    .filter(|s| matches!(s, TraceStep::Leave { .. }));
                let letters = m.mv.choices.iter().filter(|&&c| c == Choice::Leave);
                assert_eq!(
                    left.count(),
                    letters.count(),
                    "one Leave per 'l' of {}",
                    m.mv
                );
                leaves += m.mv.choices.contains(&Choice::Leave) as usize;
            }
            board = legal[rng.below(legal.len() as u64) as usize].child;
        }
    }
    assert!(leaves > 50, "{leaves} moves leave a capture");
}

#[test]
fn an_illegal_move_has_no_retelling() {
    let variant = Variant::load("isolo-women").unwrap();
    let board = variant
        .parse_position("2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/0,2,2,2,2,2,2,4 S")
        .unwrap();
    assert!(
        trace_move(&variant, &board, &Move::pit(1)).is_none(),
        "pit 1 is empty"
    );
    assert!(trace_move(&variant, &board, &Move::pit(99)).is_none());
}

#[test]
fn a_relay_and_a_capture_read_as_steps() {
    // The women's start, every pit 2: pit 1's two seeds go to 2 and 3; pit 3 (back row,
    // now 3 seeds) relays into 4, 5 and 6; ... the move captures 12 seeds in 9 laps.
    let variant = Variant::load("isolo-women").unwrap();
    let trace = trace_move(&variant, &variant.start(), &Move::pit(1)).unwrap();
    assert_eq!(
        trace.steps[..4],
        [
            TraceStep::Lift { pit: 1, seeds: 2 },
            TraceStep::Sow { pits: vec![2, 3] },
            TraceStep::Lift { pit: 3, seeds: 3 },
            TraceStep::Sow {
                pits: vec![4, 5, 6]
            },
        ]
    );
    let taken: u32 = trace
        .steps
        .iter()
        .map(|s| match s {
            TraceStep::Capture { seeds, .. } => *seeds,
            _ => 0,
        })
        .sum();
    assert_eq!(taken, 12);
    assert!(matches!(trace.steps.last(), Some(TraceStep::End { .. })));
}

/// Every decision a legal move meets is retold up to it: its steps begin the whole
/// move's, the seeds stand as the decision shows them, and a direction's two lap ends
/// include the one the move's lap reaches.
#[test]
fn moves_begun_retell_up_to_their_decisions() {
    let mut rng = Rng(0xdec1_5100);
    let mut met = [0usize; 4];
    let leaving = crate::perft::leaving("ikibuguzo");
    for game in 0..240 {
        let variant = if game % 4 == 0 {
            leaving.clone()
        } else {
            Variant::new(random_rules(&mut rng)).unwrap()
        };
        let mut board = variant.start();
        for _ply in 0..30 {
            let legal = first_moves(&variant, &board, 200);
            if legal.is_empty() {
                break;
            }
            for m in legal.iter().take(40) {
                let whole = trace_move(&variant, &board, &m.mv).unwrap();
                for k in 0..m.mv.choices.len() {
                    let half = Move {
                        pit: m.mv.pit,
                        choices: m.mv.choices[..k].to_vec(),
                    };
                    let Some(d) = variant.decision_at(&board, &half) else {
                        continue;
                    };
                    let told = trace_to_decision(&variant, &board, &half).unwrap();
                    let steps = &told.trace.steps;
                    assert_eq!(steps[..], whole.steps[..steps.len()], "{half} of {}", m.mv);
                    met[d.kind as usize] += 1;
                    let decided = m.mv.choices[k];
                    check_decision(&variant, &d, &told, &whole.steps[steps.len()..], decided);
                }
            }
            board = legal[rng.below(legal.len() as u64) as usize].child;
        }
    }
    assert!(
        met.iter().all(|&n| n > 30),
        "decisions met by kind: {met:?}"
    );
}

/// Up to `n` of the legal moves at `board`, listed with a bound on the choice tree.
fn first_moves(variant: &Variant, board: &Board, n: usize) -> Vec<isolo_rules::LegalMove> {
    let mut gen = MoveGen::with_point_limit(2_000);
    let mut legal = Vec::new();
    variant.visit_moves(
        board,
        Variant::ALL_PITS,
        Listing::Sequences,
        &mut gen,
        |m| {
            if legal.len() < n {
                legal.push(m.to_legal_move())
            }
        },
    );
    legal
}

fn check_decision(
    variant: &Variant,
    d: &isolo_rules::Decision,
    told: &isolo_rules::TracedDecision,
    after: &[TraceStep],
    decided: Choice,
) {
    use isolo_rules::DecisionKind;
    assert_eq!(&told.decision, d);
    if d.kind != DecisionKind::Direction {
        assert_eq!(told.trace.pits, pits_of(variant, &d.board), "{d:?}");
        assert_eq!(d.lap_ends, None);
        return;
    }
    let ends = d.lap_ends.expect("a direction's lap ends");
    let sown = after.iter().find_map(|s| match s {
        TraceStep::Sow { pits } => pits.last().copied(),
        _ => None,
    });
    let clockwise = decided == Choice::Clockwise;
    assert_eq!(sown, Some(ends[clockwise as usize]), "{d:?} {after:?}");
}
