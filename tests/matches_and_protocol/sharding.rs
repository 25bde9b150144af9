//! `--shard K/N` and `merge`: a run split into shards and merged again gives the records
//! and the summary of the run played in one process; merge refuses shards that do not
//! make up one run exactly.

use crate::common;

use std::path::{Path, PathBuf};

use common::process::{games_without_times as games_of, ok, resealed, run, scratch, Scratch};

fn first_line(path: &Path) -> String {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .next()
        .unwrap()
        .to_string()
}

/// `match` of greedy against random on the boys' game, then `extra`.
fn quick_match<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "match",
        "--variant",
        "isolo-boys",
        "--engine",
        "greedy",
        "--engine",
        "random",
    ];
    args.extend(extra);
    args
}

fn refused(args: &[&str], expected: &str) {
    let out = run(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(
        stderr.contains(expected),
        "{args:?}: {stderr:?} lacks {expected:?}"
    );
}

/// A summary's text without the lines that say how fast it went or how it was merged.
fn summary_lines(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|l| !l.ends_with("games per minute") && !l.starts_with("merged "))
        .filter(|l| !l.starts_with("SPRT evaluated at merge time"))
        .collect()
}

/// A JSON summary without its timing and its shard or merge notes.
fn summary_json(text: &str) -> serde_json::Value {
    let mut value: serde_json::Value = serde_json::from_str(text).unwrap();
    for key in ["games_per_minute", "merge", "shard"] {
        value.as_object_mut().unwrap().remove(key);
    }
    value
}

/// Plays `args` whole (text and JSON) and as `shards` shards merged, and checks that
/// both give the same records and summaries; `merge_extra` goes to merge. Returns
/// merge's text.
fn check_sharded_equals_whole(
    dir: &Scratch,
    args: &[&str],
    shards: u64,
    merge_extra: &[&str],
) -> String {
    let whole = dir.join("whole.jsonl");
    let mut whole_args = args.to_vec();
    whole_args.extend(["--out", whole.to_str().unwrap()]);
    let whole_text = ok(&whole_args);
    let mut shard_files: Vec<PathBuf> = Vec::new();
    for k in 1..=shards {
        let path = dir.join(format!("shard-{k}.jsonl"));
        let id = format!("{k}/{shards}");
        let mut shard_args: Vec<&str> = args
            .iter()
            .copied()
            .filter(|a| !a.starts_with("--sprt") && !a.contains(",0.05"))
            .collect();
        shard_args.extend([
            "--shard",
            &id,
            "--out",
            path.to_str().unwrap(),
            "--concurrency",
            "2",
        ]);
        let text = ok(&shard_args);
        assert!(text.contains(&format!("shard {id}: ")), "{text}");
        shard_files.push(path);
    }
    // Given in any order.
    shard_files.reverse();
    let merged = dir.join("merged.jsonl");
    let mut merge_args = vec!["merge", merged.to_str().unwrap()];
    merge_args.extend(shard_files.iter().map(|p| p.to_str().unwrap()));
    merge_args.extend(merge_extra);
    let merged_text = ok(&merge_args);
    assert_eq!(
        summary_lines(&merged_text),
        summary_lines(&whole_text),
        "{merged_text}\n{whole_text}"
    );
    assert!(merged_text.contains("merged "), "{merged_text}");
    assert_eq!(first_line(&merged), first_line(&whole), "the run's header");
    let (merged_games, whole_games) = (games_of(&merged), games_of(&whole));
    assert_eq!(merged_games[..whole_games.len()], whole_games[..]);
    // JSON too, from the same files.
    let again = dir.join("merged-again.jsonl");
    merge_args[1] = again.to_str().unwrap();
    merge_args.push("--json");
    let merged_json = summary_json(&ok(&merge_args));
    let whole_again = dir.join("whole-again.jsonl");
    whole_args.pop();
    whole_args.push(whole_again.to_str().unwrap());
    whole_args.push("--json");
    assert_eq!(merged_json, summary_json(&ok(&whole_args)));
    for file in [whole, whole_again, merged, again]
        .iter()
        .chain(&shard_files)
    {
        std::fs::remove_file(file).unwrap();
    }
    merged_text
}

const MATCH: &[&str] = &[
    "match",
    "--variant",
    "isolo-boys",
    "--openings",
    "openings/isolo-boys.txt",
    "--engine",
    "a=ab:depth=2",
    "--engine",
    "b=mcts:iters=200",
    "--games",
    "15",
    "--seed",
    "9",
];

#[test]
fn a_sharded_match_merges_to_the_single_run() {
    let dir = scratch("shard-match");
    check_sharded_equals_whole(&dir, MATCH, 3, &[]);
    check_sharded_equals_whole(&dir, MATCH, 1, &[]);
}

#[test]
fn merge_evaluates_the_sprt_where_one_process_would_have_stopped() {
    let dir = scratch("shard-sprt");
    let args = [
        "match",
        "--variant",
        "isolo-boys",
        "--engine",
        "ab:depth=3",
        "--engine",
        "random",
        "--games",
        "120",
        "--seed",
        "2",
        "--sprt",
        "0,200,0.05,0.05",
    ];
    let text = check_sharded_equals_whole(&dir, &args, 4, &["--sprt", "0,200,0.05,0.05"]);
    assert!(text.contains("H1 accepted"), "{text}");
    assert!(
        text.contains("SPRT evaluated at merge time, over the games in order: decided at game"),
        "{text}"
    );
    refused(
        &quick_match(&[
            "--sprt",
            "0,5,0.05,0.05",
            "--shard",
            "1/2",
            "--out",
            "x.jsonl",
        ]),
        "give --sprt to isolo-ai merge",
    );
}

#[test]
fn a_sharded_tournament_merges_to_the_single_run() {
    let dir = scratch("shard-tournament");
    let args = [
        "tournament",
        "--variant",
        "isolo-women",
        "--engine",
        "ab:depth=2",
        "--engine",
        "greedy",
        "--engine",
        "random",
        "--games",
        "5",
        "--seed",
        "3",
        "--anchor",
        "random",
    ];
    check_sharded_equals_whole(&dir, &args, 4, &["--anchor", "random"]);
}

/// Three shards of a short match in `dir`, as `s1.jsonl`..`s3.jsonl`, with `seed`.
fn three_shards(dir: &Path, prefix: &str, seed: &str) -> Vec<String> {
    (1..=3)
        .map(|k| {
            let path = dir.join(format!("{prefix}{k}.jsonl"));
            let id = format!("{k}/3");
            ok(&quick_match(&[
                "--games",
                "10",
                "--seed",
                seed,
                "--shard",
                &id,
                "--out",
                path.to_str().unwrap(),
            ]));
            path.to_str().unwrap().to_string()
        })
        .collect()
}

#[test]
fn merge_refuses_foreign_duplicated_and_missing_shards() {
    let dir = scratch("shard-refusals");
    let shards = three_shards(&dir, "s", "1");
    let other = three_shards(&dir, "other", "2");
    let out = dir.join("out.jsonl");
    let out = out.to_str().unwrap();
    let merge = |files: &[&str], expected: &str| {
        let mut args = vec!["merge", out];
        args.extend(files);
        refused(&args, expected);
        assert!(!Path::new(out).exists(), "no merged file after a refusal");
    };
    let (s1, s2, s3) = (shards[0].as_str(), shards[1].as_str(), shards[2].as_str());
    merge(&[s1, s2, &other[2]], "is not a shard of the same run");
    merge(&[s1, s2, &other[2]], "seed: 1 in ");
    merge(&[s1, s2], "shard 3/3 missing");
    merge(&[s1, s2, s2, s3], "are both shard 2/3");
    // A shard cut short (an interrupted run) and one with a game twice.
    let cut = dir.join("cut.jsonl");
    let text = std::fs::read_to_string(s2).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    std::fs::write(&cut, lines[..lines.len() - 1].join("\n") + "\n").unwrap();
    merge(
        &[s1, cut.to_str().unwrap(), s3],
        "ends after 3 of its 4 games",
    );
    // A game twice, another shard's game, an edited result: each breaks the shard's
    // chain of digests, and with every digest computed again, a check behind it fails.
    let lines: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    let refused_edit = |name: &str, edited: &[String], expected: &str| {
        let path = dir.join(name);
        std::fs::write(&path, edited.join("\n") + "\n").unwrap();
        merge(
            &[s1, path.to_str().unwrap(), s3],
            "does not follow the games before it",
        );
        std::fs::write(&path, resealed(edited).join("\n") + "\n").unwrap();
        merge(&[s1, path.to_str().unwrap(), s3], expected);
    };
    let mut twice = lines.clone();
    twice.insert(2, lines[1].clone());
    refused_edit("doubled.jsonl", &twice, "is recorded twice");
    let first_of_s1 = std::fs::read_to_string(s1)
        .unwrap()
        .lines()
        .nth(1)
        .unwrap()
        .to_string();
    let mut foreign = lines.clone();
    foreign.insert(1, first_of_s1);
    refused_edit("moved.jsonl", &foreign, "belongs to shard 1/3");
    let mut game: serde_json::Value = serde_json::from_str(&lines[1]).unwrap();
    game["result"] = if game["result"] == "S" { "N" } else { "S" }.into();
    let mut changed = lines.clone();
    changed[1] = game.to_string();
    refused_edit("edited.jsonl", &changed, ": records ");
    // Not shards at all, a split into other counts, and an existing output.
    let whole = dir.join("whole.jsonl");
    ok(&quick_match(&[
        "--games",
        "4",
        "--out",
        whole.to_str().unwrap(),
    ]));
    merge(&[whole.to_str().unwrap()], "holds a whole run, not a shard");
    let half = dir.join("half.jsonl");
    ok(&quick_match(&[
        "--games",
        "10",
        "--seed",
        "1",
        "--shard",
        "1/2",
        "--out",
        half.to_str().unwrap(),
    ]));
    merge(
        &[s1, s2, s3, half.to_str().unwrap()],
        "the run was split two ways",
    );
    merge(
        &[s1, s2, s3, "/no/such/shard.jsonl"],
        "no such records file",
    );
    refused(
        &["merge", s1, s1, s2, s3],
        "is both the merged file and a shard",
    );
    refused(
        &["merge", out, s1, s2, s3, "--anchor", "greedy"],
        "--anchor: the shards are of a match; an anchor is for a tournament",
    );
    ok(&["merge", out, s1, s2, s3]);
    refused(&["merge", out, s1, s2, s3], "already exists");
}

#[test]
fn a_shard_resumes_and_its_options_are_checked() {
    let dir = scratch("shard-resume");
    let path = dir.join("s2.jsonl");
    let shard = |resume: bool| {
        let mut args = quick_match(&[
            "--games",
            "12",
            "--seed",
            "5",
            "--shard",
            "2/3",
            "--out",
            path.to_str().unwrap(),
        ]);
        if resume {
            args.push("--resume");
        }
        ok(&args)
    };
    shard(false);
    let full = games_of(&path);
    assert_eq!(
        full.iter()
            .map(|g| g["game"].as_u64().unwrap())
            .collect::<Vec<_>>(),
        [2, 3, 8, 9],
        "pairs 1 and 4 of the six"
    );
    let text = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    std::fs::write(&path, lines[..3].join("\n") + "\n").unwrap();
    shard(true);
    assert_eq!(games_of(&path), full);
    // The shard is part of what --resume checks.
    let mut other = quick_match(&[
        "--games",
        "12",
        "--seed",
        "5",
        "--shard",
        "1/3",
        "--out",
        path.to_str().unwrap(),
        "--resume",
    ]);
    refused(&other, "shard: 1/3 here, 2/3 in the file");
    other.truncate(13);
    refused(&other, "--shard needs --out FILE");
    for bad in ["0/3", "4/3", "x"] {
        refused(
            &quick_match(&["--shard", bad, "--out", "x.jsonl"]),
            "--shard: expected K/N",
        );
    }
}

#[test]
fn a_sharded_comparison_merges_to_the_single_run() {
    let dir = scratch("shard-compare");
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let common = [
        "compare",
        "--variant",
        "isolo-boys",
        "--variant",
        "isolo-women",
        "--engine",
        "ab:depth=1",
        "--games",
        "23",
        "--seed",
        "4",
        "--max-plies",
        "200",
    ];
    let with = |extra: &[&str]| {
        let mut args = common.to_vec();
        args.extend(extra);
        ok(&args)
    };
    let (whole, whole_csv) = (path("whole.jsonl"), path("whole.csv"));
    let whole_text = with(&["--out", &whole, "--csv", &whole_csv, "--concurrency", "2"]);
    let whole_json = summary_json(&with(&["--json"]));
    let shards: Vec<String> = (1..=3).map(|k| path(&format!("c{k}.jsonl"))).collect();
    for (k, shard) in shards.iter().enumerate() {
        let id = format!("{}/3", k + 1);
        let text = with(&["--shard", &id, "--out", shard]);
        assert!(text.contains(&format!("shard {id}: ")), "{text}");
    }
    let (merged, merged_csv, plot) = (path("merged.jsonl"), path("merged.csv"), path("m.svg"));
    let merged_text = ok(&[
        "merge",
        &merged,
        &shards[2],
        &shards[0],
        &shards[1],
        "--csv",
        &merged_csv,
        "--plot",
        &plot,
    ]);
    assert_eq!(summary_lines(&merged_text), summary_lines(&whole_text));
    assert!(merged_text.contains("merged 3 shards"), "{merged_text}");
    assert_eq!(
        std::fs::read_to_string(&merged).unwrap(),
        std::fs::read_to_string(&whole).unwrap(),
        "the merged records are the single run's, byte for byte"
    );
    assert_eq!(
        std::fs::read_to_string(&merged_csv).unwrap(),
        std::fs::read_to_string(&whole_csv).unwrap()
    );
    assert!(std::fs::read_to_string(&plot).unwrap().starts_with("<svg"));
    let merged_json = ok(&[
        "merge",
        &path("again.jsonl"),
        &shards[0],
        &shards[1],
        &shards[2],
        "--json",
    ]);
    assert_eq!(summary_json(&merged_json), whole_json);

    // Refusals: a missing shard, one of another comparison, match options, a whole file.
    let out = path("refused.jsonl");
    refused(
        &["merge", &out, &shards[0], &shards[1]],
        "shard 3/3 missing",
    );
    let other = path("other.jsonl");
    let mut other_args = common.to_vec();
    other_args[10] = "5";
    other_args.extend(["--shard", "3/3", "--out", &other]);
    ok(&other_args);
    refused(
        &["merge", &out, &shards[0], &shards[1], &other],
        "is not a shard of the same comparison",
    );
    refused(
        &[
            "merge",
            &out,
            &shards[0],
            &shards[1],
            &shards[2],
            "--sprt",
            "0,5,0.05,0.05",
        ],
        "--sprt: the shards are of a comparison",
    );
    refused(
        &["merge", &out, &whole],
        "holds a whole comparison, not a shard",
    );
    let cut = path("cut.jsonl");
    let text = std::fs::read_to_string(&shards[1]).unwrap();
    std::fs::write(&cut, &text[..text.len() - 20]).unwrap();
    refused(&["merge", &out, &shards[0], &cut, &shards[2]], "cut short");
    assert!(!Path::new(&out).exists());
    // A result flipped breaks the shard's chain of digests.
    let flipped = path("flipped.jsonl");
    let decisive = |l: &&str| l.contains("\"result\":\"S\"");
    let game = text.lines().skip(1).find(decisive).unwrap();
    let edited = text.replacen(
        game,
        &game.replace("\"result\":\"S\"", "\"result\":\"N\""),
        1,
    );
    std::fs::write(&flipped, edited).unwrap();
    refused(
        &["merge", &out, &shards[0], &flipped, &shards[2]],
        "does not follow the games before it",
    );
    refused(
        &[
            "compare",
            "--variant",
            "isolo-boys",
            "--variant",
            "isolo-women",
            "--shard",
            "1/2",
        ],
        "--shard needs --out FILE",
    );
    refused(
        &[
            "compare",
            "--variant",
            "isolo-boys",
            "--variant",
            "isolo-women",
            "--out",
            &whole,
        ],
        "already exists",
    );
}
