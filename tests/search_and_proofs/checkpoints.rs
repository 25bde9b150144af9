//! Damaged checkpoints: a checkpoint folder of the distributed analysis corrupted at
//! random (cut, a bit flipped, records swapped or inserted, a file removed, another
//! round's or another rule set's parts put in its place) and resumed on 1 to 3 ranks
//! gives the result of a run never stopped, digest and all, or a refusal naming the
//! checkpoint: never another result, a panic or a hang. Seeds are fixed; set
//! PROPTEST_RNG_SEED to explore others.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

use proptest::prelude::*;

use isolo_engine::prove::retrograde::distributed::{
    self, Checkpoints, DistributedError, DistributedLimits, DistributedProgress, DistributedResult,
};
use isolo_rules::{Board, Variant};

/// The women's capture-ends reading on 2 columns with 3 seeds a pit (a win, some
/// dozens of rounds), or the women's reading, as another rule set of the same index.
fn problem(base: &str) -> (Variant, Board) {
    let text = format!("base = \"{base}\"\ncolumns = 2\nstart = \"3,3/3,3/3,3/3,3\"\n");
    let rules = isolo_rules::Rules::from_toml(&text, "damaged").unwrap();
    let variant = Variant::new(rules).unwrap();
    let board = variant.start();
    (variant, board)
}

fn scratch(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("isolo-damaged-{}-{name}", std::process::id()))
}

fn limits(folder: &Path, interrupt: Option<&'static AtomicBool>) -> DistributedLimits {
    DistributedLimits {
        interrupt,
        checkpoints: Some(Checkpoints {
            folder: folder.to_path_buf(),
            every: std::time::Duration::ZERO,
        }),
        ..DistributedLimits::default()
    }
}

/// A result as any run of the problem gives it, whatever its ranks (the plan of
/// `plan`'s) and checkpoints.
fn plain(result: DistributedResult, plan: distributed::MemoryPlan) -> DistributedResult {
    DistributedResult {
        ranks: 1,
        plan,
        resumed_at: None,
        saved_at: None,
        ..result
    }
}

/// The checkpoint folder of a run of `base` on `ranks` ranks stopped once it saved
/// round `round` (made once, in `name`).
fn stopped_at(base: &str, ranks: usize, round: u32, name: &str) -> PathBuf {
    let (variant, board) = problem(base);
    let folder = scratch(name);
    let _ = std::fs::remove_dir_all(&folder);
    let interrupt: &'static AtomicBool = Box::leak(Box::new(AtomicBool::new(false)));
    let stop = |p: &DistributedProgress| {
        if p.stage == "checkpoint" && p.step == round {
            interrupt.store(true, Ordering::Relaxed);
        }
    };
    let limits = limits(&folder, Some(interrupt));
    let stopped = distributed::solve_in_process(&variant, &board, ranks, &limits, &stop).unwrap();
    assert_eq!(stopped.saved_at, Some(round), "{stopped:?}");
    folder
}

struct Fixture {
    whole: DistributedResult,
    /// Round 3 on 2 ranks: the checkpoint damaged.
    damaged: PathBuf,
    /// Round 6 on 2 ranks, and round 3 of the other rule set on 2 ranks: parts put in.
    later: PathBuf,
    other_rules: PathBuf,
}

fn fixture() -> &'static Fixture {
    static FIXTURE: OnceLock<Fixture> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        let (variant, board) = problem("isolo-women-capture-ends");
        let whole = distributed::solve_in_process(
            &variant,
            &board,
            1,
            &DistributedLimits::default(),
            &|_| {},
        )
        .unwrap();
        assert!(whole.rounds > 8, "{whole:?}");
        Fixture {
            whole: plain(whole.clone(), whole.plan),
            damaged: stopped_at("isolo-women-capture-ends", 2, 3, "base"),
            later: stopped_at("isolo-women-capture-ends", 2, 6, "later"),
            other_rules: stopped_at("isolo-women", 2, 3, "other"),
        }
    })
}

/// The files of a checkpoint folder, by name.
fn files(folder: &Path) -> Vec<PathBuf> {
    let mut names: Vec<PathBuf> = std::fs::read_dir(folder)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    names.sort();
    names
}

fn copy_folder(from: &Path, to: &Path) {
    let _ = std::fs::remove_dir_all(to);
    std::fs::create_dir_all(to).unwrap();
    for file in files(from) {
        std::fs::copy(&file, to.join(file.file_name().unwrap())).unwrap();
    }
}

/// The parts of `from` written over `to`'s, rank by rank.
fn parts_over(from: &Path, to: &Path) {
    let parts = |folder: &Path| -> Vec<PathBuf> {
        files(folder)
            .into_iter()
            .filter(|p| p.extension().is_some_and(|e| e == "bin"))
            .collect()
    };
    for (source, target) in parts(from).iter().zip(parts(to)) {
        std::fs::copy(source, target).unwrap();
    }
}

#[derive(Clone, Debug)]
enum Damage {
    Cut {
        file: usize,
        at: f64,
    },
    Flip {
        file: usize,
        at: f64,
        bit: u8,
    },
    SwapRecords {
        file: usize,
        a: f64,
        b: f64,
    },
    InsertRecord {
        file: usize,
        at: f64,
        record: [u8; 16],
    },
    Remove {
        file: usize,
    },
    LaterRoundsParts,
    LaterRoundsDescription,
    OtherRulesParts,
}

fn damage() -> impl Strategy<Value = Damage> {
    let file = 0usize..3;
    let at = 0.0..1.0f64;
    prop_oneof![
        (file.clone(), at.clone()).prop_map(|(file, at)| Damage::Cut { file, at }),
        (file.clone(), at.clone(), 0u8..8).prop_map(|(file, at, bit)| Damage::Flip {
            file,
            at,
            bit
        }),
        (file.clone(), at.clone(), at.clone()).prop_map(|(file, a, b)| Damage::SwapRecords {
            file,
            a,
            b
        }),
        (file.clone(), at.clone(), any::<[u8; 16]>())
            .prop_map(|(file, at, record)| { Damage::InsertRecord { file, at, record } }),
        file.prop_map(|file| Damage::Remove { file }),
        Just(Damage::LaterRoundsParts),
        Just(Damage::LaterRoundsDescription),
        Just(Damage::OtherRulesParts),
    ]
}

/// Applies `damage` to the checkpoint folder `folder` (its files in name order: the
/// description, then the parts).
fn apply(damage: &Damage, folder: &Path, fixture: &Fixture) {
    let names = files(folder);
    let pick = |file: usize| names[file % names.len()].clone();
    let place = |len: usize, at: f64| ((len as f64 * at) as usize).min(len.saturating_sub(1));
    match *damage {
        Damage::Cut { file, at } => {
            let path = pick(file);
            let bytes = std::fs::read(&path).unwrap();
            std::fs::write(&path, &bytes[..place(bytes.len(), at)]).unwrap();
        }
        Damage::Flip { file, at, bit } => {
            let path = pick(file);
            let mut bytes = std::fs::read(&path).unwrap();
            let i = place(bytes.len(), at);
            bytes[i] ^= 1 << bit;
            std::fs::write(&path, bytes).unwrap();
        }
        Damage::SwapRecords { file, a, b } => {
            let path = pick(file);
            let mut bytes = std::fs::read(&path).unwrap();
            let records = bytes.len() / 16;
            let (a, b) = (place(records, a), place(records, b));
            if records > 0 && a != b {
                for k in 0..16 {
                    bytes.swap(a * 16 + k, b * 16 + k);
                }
            }
            std::fs::write(&path, bytes).unwrap();
        }
        Damage::InsertRecord { file, at, record } => {
            let path = pick(file);
            let mut bytes = std::fs::read(&path).unwrap();
            let i = place(bytes.len() / 16 + 1, at) * 16;
            bytes.splice(i..i, record);
            std::fs::write(&path, bytes).unwrap();
        }
        Damage::Remove { file } => std::fs::remove_file(pick(file)).unwrap(),
        Damage::LaterRoundsParts => parts_over(&fixture.later, folder),
        Damage::LaterRoundsDescription => {
            std::fs::copy(
                fixture.later.join("checkpoint.json"),
                folder.join("checkpoint.json"),
            )
            .unwrap();
        }
        Damage::OtherRulesParts => parts_over(&fixture.other_rules, folder),
    }
}

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x00c4_ec80),
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config(200))]

    #[test]
    fn a_damaged_checkpoint_gives_the_whole_runs_result_or_a_refusal(
        damage in damage(),
        ranks in 1usize..4,
    ) {
        let fixture = fixture();
        let folder = scratch("case");
        copy_folder(&fixture.damaged, &folder);
        apply(&damage, &folder, fixture);
        let (variant, board) = problem("isolo-women-capture-ends");
        let resumed = distributed::solve_in_process(
            &variant, &board, ranks, &limits(&folder, None), &|_| {},
        );
        let _ = std::fs::remove_dir_all(&folder);
        match resumed {
            Ok(result) => {
                let result = plain(result, fixture.whole.plan);
                prop_assert_eq!(result, fixture.whole.clone(), "{:?}", damage);
            }
            Err(DistributedError::Checkpoint(why)) => {
                prop_assert!(why.contains("checkpoint"), "{}", why);
                prop_assert!(!why.contains('\n'), "{}", why);
            }
            Err(other) => prop_assert!(false, "{:?}: {:?}", damage, other),
        }
    }
}

/// The undamaged checkpoint resumes, on any ranks, to the whole run's result.
#[test]
fn an_undamaged_checkpoint_resumes_to_the_whole_runs_result() {
    let fixture = fixture();
    let (variant, board) = problem("isolo-women-capture-ends");
    for ranks in 1..=3 {
        let folder = scratch(&format!("undamaged-{ranks}"));
        copy_folder(&fixture.damaged, &folder);
        let resumed =
            distributed::solve_in_process(&variant, &board, ranks, &limits(&folder, None), &|_| {})
                .unwrap();
        assert_eq!(resumed.resumed_at, Some(3));
        assert_eq!(plain(resumed, fixture.whole.plan), fixture.whole);
        std::fs::remove_dir_all(&folder).unwrap();
    }
}

/// The issue's damaged checkpoints, run as a user runs them: after `solve --method
/// distributed --resume`, a copy of the folder damaged, then resumed on 1 and 2
/// threads: each is refused within seconds, exit 2, a line naming the file, never a
/// result, a panic or a hang.
#[test]
fn the_command_line_refuses_damaged_checkpoints_in_one_line() {
    use crate::common::process::{output_within, scratch};
    use std::process::{Command, Stdio};
    let dir = scratch("damaged-checkpoints");
    let rules = dir.join("wc24.toml");
    let text = "base = \"isolo-women-capture-ends\"\ncolumns = 2\nstart = \"4,4/4,4/4,4/4,4\"\n";
    std::fs::write(&rules, text).unwrap();
    let rules = rules.display().to_string();
    let solve = |folder: &Path, threads: &str| {
        let args = ["solve", "--variant", &rules, "--method", "distributed"];
        let child = Command::new(env!("CARGO_BIN_EXE_isolo-ai"))
            .args(args)
            .args(["--threads", threads, "--time-ms", "0", "--resume"])
            .arg(folder)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        output_within(child, std::time::Duration::from_secs(60))
    };
    let whole = dir.join("whole");
    let (made, _) = solve(&whole, "1");
    assert!(made.status.success());
    let bytes = std::fs::read(part_of(&whole)).unwrap();
    let damages = [
        "a part emptied",
        "a part cut in half",
        "won and lost swapped",
        "a junk record",
        "no ranks",
        "a part a pipe",
        "the description a pipe",
        "a part a link to /dev/zero",
        "a 20 MB description",
    ];
    for what in damages {
        for threads in ["1", "2"] {
            let copy = dir.join("copy");
            copy_folder(&whole, &copy);
            damage_as_the_issue(what, &copy, &bytes);
            let started = std::time::Instant::now();
            let (out, ended) = solve(&copy, threads);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(ended, "{what} on {threads}: still running after 60 s");
            assert!(
                started.elapsed().as_secs() < 20,
                "{what}: {:?}",
                started.elapsed()
            );
            assert_eq!(out.status.code(), Some(2), "{what} on {threads}: {stderr}");
            assert!(out.stdout.is_empty(), "{what}: a result printed");
            // (Progress lines before it, on stderr; then the refusal.)
            let line = stderr.trim_end().lines().last().unwrap_or("");
            assert!(!stderr.contains("panicked"), "{what}: {stderr}");
            assert!(
                line.starts_with("error: --resume: the checkpoint"),
                "{what}: {line}"
            );
        }
    }
}

/// The labels part of a checkpoint folder of one rank.
fn part_of(folder: &Path) -> PathBuf {
    let mut parts = files(folder).into_iter();
    parts
        .find(|p| p.extension().is_some_and(|e| e == "bin"))
        .unwrap()
}

/// Damages the checkpoint `folder` of one rank, whose part held `bytes`, as `what` says.
fn damage_as_the_issue(what: &str, folder: &Path, bytes: &[u8]) {
    let mut part = bytes.to_vec();
    let pipe = |path: PathBuf| {
        std::fs::remove_file(&path).unwrap();
        let made = std::process::Command::new("mkfifo").arg(&path).status();
        assert!(made.unwrap().success());
    };
    let meta = folder.join("checkpoint.json");
    match what {
        "a part emptied" => part.clear(),
        "a part cut in half" => part.truncate(part.len() / 32 * 16),
        "won and lost swapped" => {
            for label in part.iter_mut().skip(8).step_by(16) {
                *label = *label & !3 | (*label & 1) << 1 | (*label & 2) >> 1;
            }
        }
        "a junk record" => {
            part.extend((1u64 << 63 | 12345).to_le_bytes());
            part.extend(5u64.to_le_bytes());
        }
        "no ranks" => {
            let text = std::fs::read_to_string(&meta).unwrap();
            std::fs::write(&meta, text.replace("\"ranks\": 1", "\"ranks\": 0")).unwrap();
        }
        "a part a pipe" => return pipe(part_of(folder)),
        "the description a pipe" => return pipe(meta),
        "a part a link to /dev/zero" => {
            let path = part_of(folder);
            std::fs::remove_file(&path).unwrap();
            return std::os::unix::fs::symlink("/dev/zero", path).unwrap();
        }
        "a 20 MB description" => return std::fs::write(&meta, vec![b' '; 20 << 20]).unwrap(),
        _ => unreachable!("{what}"),
    }
    std::fs::write(part_of(folder), part).unwrap();
}

/// Where the labels, whole, cannot be saved at the end (here a folder stands where the
/// last part would go), the result found is printed all the same, then the failure,
/// exit 2; nothing half-written is left.
#[test]
fn a_result_is_printed_when_its_last_checkpoint_cannot_be_saved() {
    use crate::common::process::{run, scratch};
    let dir = scratch("unsaved-checkpoint");
    let rules = dir.join("wc24.toml");
    let text = "base = \"isolo-women-capture-ends\"\ncolumns = 2\nstart = \"4,4/4,4/4,4/4,4\"\n";
    std::fs::write(&rules, text).unwrap();
    let rules = rules.to_str().unwrap();
    let folder = dir.join("checkpoints");
    // (56 rounds: the labels, whole, are the checkpoint of round 56.)
    std::fs::create_dir_all(folder.join("labels-56-0of1.bin")).unwrap();
    let args = ["solve", "--variant", rules, "--method", "distributed"];
    let out = run(&[&args[..], &["--resume", folder.to_str().unwrap()]].concat());
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(
        stdout.starts_with("win for South (to move) in 13 plies"),
        "{stdout}"
    );
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    let last = stderr.trim_end().lines().last().unwrap_or("");
    assert!(
        last.starts_with("error: --resume: the labels, whole, could not be saved")
            && last.ends_with("the result above stands"),
        "{last}"
    );
    let left: Vec<_> = files(&folder)
        .into_iter()
        .filter(|p| p.to_string_lossy().contains("partial"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}
