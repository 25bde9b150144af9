//! The distributed retrograde analysis as an MPI job (the `mpi` feature, OpenMPI's
//! `mpirun` installed): the same labels on 4 processes as on one thread. `.ci/run`
//! installs Debian's OpenMPI and runs it:
//! `cargo test --profile testing --features mpi --test mpi -- --ignored`.

use std::process::Command;

/// `isolo-ai solve ... --json` run by `launcher` (none: directly), parsed.
fn solve(launcher: &[&str], rules: &str, extra: &[&str]) -> serde_json::Value {
    let isolo = env!("CARGO_BIN_EXE_isolo-ai");
    let mut args: Vec<&str> = launcher.to_vec();
    args.extend([
        isolo,
        "solve",
        "--variant",
        rules,
        "--method",
        "distributed",
        "--json",
    ]);
    args.extend(extra);
    let out = Command::new(args[0]).args(&args[1..]).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{args:?}: {stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{args:?}: {e}: {stdout}"))
}

#[test]
#[ignore]
fn four_mpi_ranks_label_as_one_thread_does() {
    let dir = std::env::temp_dir().join(format!("isolo-mpi-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Igisoro on 3 columns with 2 seeds a back pit: 937,337 positions.
    let rules = dir.join("igisoro-w3-s2.toml");
    let text = "base = \"igisoro\"\ncolumns = 3\nstart = \"2,2,2/0,0,0/0,0,0/2,2,2\"\n";
    std::fs::write(&rules, text).unwrap();
    let rules = rules.display().to_string();
    let alone = solve(&[], &rules, &[]);
    // (Root may run it in CI; four processes on two cores.)
    let mpirun = [
        "mpirun",
        "--allow-run-as-root",
        "--oversubscribe",
        "-n",
        "4",
    ];
    let job = solve(&mpirun, &rules, &["--verify"]);
    assert_eq!(job["ranks"], 4, "{job}");
    assert_eq!(job["result"], "draw", "{job}");
    for field in [
        "digest",
        "positions",
        "moves_listed",
        "won_positions",
        "rounds",
    ] {
        assert_eq!(job[field], alone[field], "{field}: {job} {alone}");
    }
    assert_eq!(job["verified"], true, "{job}");
    std::fs::remove_dir_all(&dir).ok();
}
