//! A sharded match on a real Slurm cluster: `tests/slurm/cluster.sh` starts a one-node
//! cluster on this machine (munged, slurmctld, slurmd from Debian's packages, installed
//! when missing), `scripts/slurm/submit.sh` submits the match as an array job and a
//! dependent merge job, and the merged summary must equal a single process's.
//!
//! With the `mpi` feature, the distributed retrograde analysis runs there too, as an
//! MPI job of 4 tasks under `srun --mpi=pmix` (`scripts/slurm/solve.sbatch`).
//!
//! Ignored by `cargo test` (it needs root, and the packages); `.ci/run` runs it with
//! `cargo test --profile testing --features mpi --test slurm -- --ignored`. The tests
//! take turns (one cluster at a time on the machine's ports).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use common::process::{ok, scratch};

/// How long a submitted job may take to finish before the test gives up.
const JOB_DEADLINE: Duration = Duration::from_secs(180);

/// Held by the test whose cluster is up.
static ONE_CLUSTER: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// The cluster, stopped when the test ends (passing or not).
struct Cluster {
    dir: PathBuf,
    _turn: std::sync::MutexGuard<'static, ()>,
}

impl Cluster {
    fn start(dir: &Path) -> Cluster {
        let turn = ONE_CLUSTER
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let status = Command::new("tests/slurm/cluster.sh")
            .args(["start", dir.to_str().unwrap()])
            .status()
            .expect("cluster.sh runs");
        let cluster = Cluster {
            dir: dir.to_path_buf(),
            _turn: turn,
        };
        assert!(status.success(), "the cluster did not start");
        cluster
    }

    fn conf(&self) -> PathBuf {
        self.dir.join("slurm.conf")
    }

    /// A Slurm client command with this cluster's configuration.
    fn client(&self, program: &str) -> Command {
        let mut command = Command::new(program);
        command.env("SLURM_CONF", self.conf());
        command
    }

    /// Submits a sharded run; returns the array job's and the merge job's ids.
    fn submit(&self, shards: u32, dir: &Path, merge_args: &str, args: &[&str]) -> (String, String) {
        let out = self
            .client("scripts/slurm/submit.sh")
            .env("ISOLO_AI", env!("CARGO_BIN_EXE_isolo-ai"))
            .args(["--merge-args", merge_args, &shards.to_string()])
            .arg(dir)
            .args(args)
            .output()
            .expect("submit.sh runs");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "submit.sh: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let ids: Vec<&str> = stdout.split_whitespace().collect();
        assert_eq!(ids.len(), 2, "submit.sh printed {stdout:?}");
        (ids[0].to_string(), ids[1].to_string())
    }

    /// A job's state as `scontrol show job` gives it (`COMPLETED`, `FAILED`...).
    fn state(&self, job: &str) -> String {
        let out = self
            .client("scontrol")
            .args(["show", "job", job])
            .output()
            .expect("scontrol runs");
        let text = String::from_utf8_lossy(&out.stdout);
        text.split_whitespace()
            .find_map(|w| w.strip_prefix("JobState="))
            .unwrap_or("UNKNOWN")
            .to_string()
    }

    /// Waits for a job to leave the queue; returns its final state.
    fn wait(&self, job: &str) -> String {
        self.wait_within(job, JOB_DEADLINE)
    }

    /// The same, the job taking up to `deadline`.
    fn wait_within(&self, job: &str, deadline: Duration) -> String {
        let started = Instant::now();
        loop {
            let state = self.state(job);
            if !["PENDING", "RUNNING", "CONFIGURING", "COMPLETING", "UNKNOWN"]
                .contains(&state.as_str())
            {
                return state;
            }
            assert!(
                started.elapsed() < deadline,
                "job {job} still {state} after {deadline:?}; logs in {}",
                self.dir.display()
            );
            std::thread::sleep(Duration::from_millis(300));
        }
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = Command::new("tests/slurm/cluster.sh")
            .args(["stop", self.dir.to_str().unwrap()])
            .status();
    }
}

/// The summary lines that do not depend on how the run was split or timed.
fn summary_lines(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| !l.ends_with("games per minute") && !l.starts_with("merged "))
        .map(str::to_string)
        .collect()
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
    "24",
    "--seed",
    "7",
];

#[test]
#[ignore = "starts a Slurm cluster: needs root and Debian's slurm-wlm and munge (.ci/run runs it)"]
fn a_sharded_match_runs_as_a_slurm_array_job_and_merges_to_the_single_run() {
    let dir = scratch("slurm");
    let cluster = Cluster::start(&dir.join("cluster"));
    let run = dir.join("run");
    let openings = std::fs::canonicalize("openings/isolo-boys.txt").unwrap();
    let mut args = MATCH.to_vec();
    args[4] = openings.to_str().unwrap();
    let (array, merge) = cluster.submit(4, &run, "", &args);
    assert_eq!(cluster.wait(&merge), "COMPLETED", "the merge job");
    assert_eq!(cluster.wait(&array), "COMPLETED", "the array job");
    let merged = std::fs::read_to_string(run.join("summary.txt")).unwrap();
    assert!(merged.contains("merged 4 shards into"), "{merged}");
    let single = ok(&args);
    assert_eq!(
        summary_lines(&merged),
        summary_lines(&single),
        "{merged}\n{single}"
    );
    for k in 1..=4 {
        let log = std::fs::read_to_string(run.join(format!("slurm-shard-{k}.log"))).unwrap();
        assert!(log.contains(&format!("shard {k}/4: 6 games")), "{log}");
    }

    // A shard that fails leaves the merge cancelled, not waiting for ever.
    let broken = dir.join("broken");
    let mut bad = args.clone();
    bad[8] = "b=ab:depth=nine";
    let (array, merge) = cluster.submit(2, &broken, "", &bad);
    assert_eq!(cluster.wait(&array), "FAILED", "the array job");
    assert_eq!(cluster.wait(&merge), "CANCELLED", "the merge job");
    assert!(!broken.join("summary.txt").exists());
}

/// Igisoro's 3 columns with 3 seeds as an MPI job of 4 tasks on the one node (more
/// tasks than CPUs: `--overcommit`): the draw, counts and digest one thread gives
/// (docs/solving.md).
#[cfg(feature = "mpi")]
#[test]
#[ignore = "starts a Slurm cluster: needs root, Debian's slurm-wlm, munge and OpenMPI (.ci/run runs it)"]
fn the_distributed_analysis_runs_as_an_mpi_job_under_slurm() {
    let dir = scratch("slurm-solve");
    let cluster = Cluster::start(&dir.join("cluster"));
    let rules = dir.join("igisoro3.toml");
    let text = "base = \"igisoro\"\ncolumns = 3\nstart = \"3,3,3/0,0,0/0,0,0/3,3,3\"\n";
    std::fs::write(&rules, text).unwrap();
    let run = dir.join("run");
    let log = dir.join("solve.log");
    let out = cluster
        .client("sbatch")
        .env("ISOLO_AI", env!("CARGO_BIN_EXE_isolo-ai"))
        .args(["--parsable", "--ntasks=4", "--overcommit", "--output"])
        .arg(&log)
        .arg("scripts/slurm/solve.sbatch")
        .arg(&run)
        .args(["--variant", rules.to_str().unwrap(), "--time-ms", "0"])
        .output()
        .expect("sbatch runs");
    assert!(
        out.status.success(),
        "sbatch: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let job = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let state = cluster.wait_within(&job, Duration::from_secs(600));
    let log = std::fs::read_to_string(&log).unwrap_or_default();
    assert_eq!(state, "COMPLETED", "{log}");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(run.join("result.json")).unwrap()).unwrap();
    assert_eq!(report["result"], "draw", "{report}");
    assert_eq!(report["ranks"], 4, "{report}");
    assert_eq!(report["positions"], 23_730_712u64, "{report}");
    assert_eq!(report["moves_listed"], 149_467_439u64, "{report}");
    assert_eq!(report["digest"], "33ba72fd68b512b8", "{report}");
    assert!(log.contains("memory plan"), "{log}");
}
