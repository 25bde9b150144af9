"""compare, match, tournament, merge and read_records from Python against the command
line's runs."""

from __future__ import annotations

import json

import pytest
from conftest import binary_path

import isolo_ai
from isolo_ai import InputError, Variant

# The times vary from run to run; the digest covers them, and read_records checks it
# rather than handing it out.
VARYING = ("time_ms", "move_ms", "clock_ms", "digest")


def lines(path) -> list[dict]:
    """A records file's lines after its header, without what varies."""
    rows = [json.loads(line) for line in open(path) if line.strip()][1:]
    return [{k: v for k, v in row.items() if k not in VARYING} for row in rows]


def test_compare_rows_are_the_command_lines_games(cli, tmp_path):
    names = ["isolo-women", "isolo-boys-capture-ends"]
    rows = isolo_ai.compare(names, games=6, engine="ab:depth=2", seed=5, frame=False)
    out = tmp_path / "compare.jsonl"
    cli("compare", "--variant", names[0], "--variant", names[1], "--games", "6",
        "--engine", "ab:depth=2", "--seed", "5", "--out", str(out))
    theirs = lines(out)
    assert len(rows) == len(theirs) == 12
    for ours, line in zip(rows, theirs):
        assert ours == {**line, "variant": names[line["variant"]]}
    read = list(isolo_ai.read_records(str(out)))
    assert [{k: v for k, v in r.items()} for r in read] == theirs


def test_compare_gives_a_data_frame_with_pandas():
    pandas = pytest.importorskip("pandas")
    frame = isolo_ai.compare([Variant.load("isolo-women")], games=4, engine="random", seed=1)
    assert isinstance(frame, pandas.DataFrame) and len(frame) == 4
    assert set(frame["result"]) <= {"S", "N", "draw"}
    assert list(frame.columns[:3]) == ["variant", "game", "seed"]


def test_compare_gives_its_summary_with_the_command_lines_intervals(cli):
    names = ["isolo-women", "igisoro"]
    rows = isolo_ai.compare(names, games=6, engine="ab:depth=2", seed=5, frame=False)
    theirs = cli("compare", "--variant", names[0], "--variant", names[1], "--games", "6",
                 "--engine", "ab:depth=2", "--seed", "5")
    theirs.pop("interrupted", None)
    assert rows.summary == theirs and rows.resumed == 0
    first = rows.summary["variants"][0]["first_player_wins"]
    assert isolo_ai.wilson(first["count"], 6) == (first["rate"], *first["ci95"])
    assert isolo_ai.wilson(0, 0) == (0.0, 0.0, 1.0)
    with pytest.raises(InputError, match="count: 3 is more than n, 2"):
        isolo_ai.wilson(3, 2)


def test_compare_resumes_from_its_records_and_keeps_a_cut_runs_games(tmp_path):
    names = ["isolo-boys", "igisoro"]
    whole = tmp_path / "whole.jsonl"
    full = isolo_ai.compare(names, games=6, engine="ab:depth=2", out=whole, frame=False)
    # A cut run's records: the header and the first 4 games, continued.
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(whole.read_text().splitlines(keepends=True)[:5]))
    resumed = isolo_ai.compare(names, games=6, engine="ab:depth=2", out=cut, resume=True,
                               frame=False)
    assert resumed == full and resumed.resumed == 4
    assert resumed.summary == full.summary
    assert cut.read_text() == whole.read_text()
    with pytest.raises(InputError, match="already exists"):
        isolo_ai.compare(names, games=6, engine="ab:depth=2", out=cut)
    # Cancelled at once: the exception carries the rows played (none here), recorded.
    cancel = isolo_ai.Cancel()
    cancel.cancel()
    kept = tmp_path / "kept.jsonl"
    with pytest.raises(isolo_ai.Cancelled) as raised:
        isolo_ai.compare(names, games=6, engine="ab:depth=2", out=kept, frame=False,
                         cancel=cancel)
    assert list(raised.value.rows) == [] and raised.value.summary["variants"] == []
    assert kept.exists()


def test_match_is_the_command_lines_match(cli, tmp_path):
    women = Variant.load("isolo-women")
    out = tmp_path / "ours.jsonl"
    ours = isolo_ai.match("ab:depth=2", "random", 8, variant=women, seed=3, out=str(out))
    theirs_out = tmp_path / "theirs.jsonl"
    theirs = cli("match", "--variant", "isolo-women", "--engine", "ab:depth=2",
                 "--engine", "random", "--games", "8", "--seed", "3", "--out", str(theirs_out))
    for summary in (ours, theirs):
        summary.pop("games_per_minute")
    assert ours == theirs
    assert lines(out) == lines(theirs_out)
    records = isolo_ai.read_records(str(out))
    assert records.kind == "match" and records.variant == women
    assert records.header["engines"][0]["label"] == "ab:depth=2"
    assert len(records) == 8  # the file's games, counted apart from the iteration
    games = list(records)
    assert len(games) == 8 and all(g["plies"] == len(g["moves"]) for g in games)
    assert len(records) == 8


def test_a_name_where_a_list_is_expected_is_a_list_of_one():
    rows = isolo_ai.compare("isolo-women", games=2, frame=False)
    assert {row["variant"] for row in rows} == {"isolo-women"} and len(rows) == 2


def test_a_resumed_match_is_the_whole_match(cli, tmp_path):
    whole = tmp_path / "whole.jsonl"
    args = ("--variant", "isolo-women", "--engine", "ab:depth=1", "--engine", "random",
            "--games", "8", "--seed", "4")
    theirs = cli("match", *args, "--out", str(whole))
    # The first three games and a line cut short, as an interrupted run leaves them.
    part = tmp_path / "part.jsonl"
    kept = open(whole).read().splitlines()[:4]
    part.write_text("\n".join(kept) + "\n" + '{"game": 3, "sou')
    ours = isolo_ai.match("ab:depth=1", "random", 8, variant="isolo-women", seed=4,
                          out=str(part), resume=True)
    for summary in (ours, theirs):
        summary.pop("games_per_minute")
    assert ours == theirs
    assert lines(part) == lines(whole)


def test_tournament_is_the_command_lines_tournament(cli, tmp_path):
    engines = ["ab:depth=1", "greedy", "random"]
    ours = isolo_ai.tournament(engines, 4, variant="isolo-women", pairing="gauntlet",
                               anchor="random", seed=2)
    theirs = cli("tournament", "--variant", "isolo-women", "--gauntlet", "--anchor", "random",
                 "--games", "4", "--seed", "2",
                 *[a for e in engines for a in ("--engine", e)])
    for summary in (ours, theirs):
        summary.pop("games_per_minute")
    assert ours == theirs
    assert ours["anchor"] == "random" and ours["games"] == 8


def test_a_ladder_reports_its_steps_as_the_command_line_does(cli):
    engines = ["random", "greedy", "ab:depth=2"]
    ours = isolo_ai.tournament(engines, 2, variant="isolo-boys", pairing="ladder", seed=3)
    theirs = cli("tournament", "--variant", "isolo-boys", "--ladder", "--games", "2",
                 "--seed", "3", *[a for e in engines for a in ("--engine", e)])
    assert ours["steps"] == theirs["steps"]
    assert [(s["engine"], s["below"]) for s in ours["steps"]] == [
        ("greedy", "random"), ("ab:depth=2", "greedy")]


def test_merge_is_the_command_lines_merge(cli, tmp_path):
    args = ["match", "--variant", "isolo-women", "--engine", "ab:depth=1", "--engine",
            "random", "--games", "12", "--seed", "6"]
    shards = []
    for k in (1, 2, 3):
        shard = tmp_path / f"shard{k}.jsonl"
        cli(*args, "--shard", f"{k}/3", "--out", str(shard))
        shards.append(str(shard))
    theirs = cli("merge", str(tmp_path / "theirs.jsonl"), *shards, "--sprt", "0,300,0.05,0.05")
    ours = isolo_ai.merge(str(tmp_path / "ours.jsonl"), list(reversed(shards)),
                          sprt="0,300,0.05,0.05")
    assert ours["merge"]["out"].endswith("ours.jsonl")
    for summary in (ours, theirs):
        summary["merge"].pop("out")
    assert ours == theirs
    assert ours["merge"] == {"shards": 3, "games_recorded": 12, "sprt_evaluated_at_merge": True}
    assert lines(tmp_path / "ours.jsonl") == lines(tmp_path / "theirs.jsonl")
    with pytest.raises(InputError, match="already exists"):
        isolo_ai.merge(str(tmp_path / "ours.jsonl"), shards)
    with pytest.raises(InputError, match="anchor: the shards are of a match"):
        isolo_ai.merge(str(tmp_path / "other.jsonl"), shards, anchor="random")
    with pytest.raises(InputError, match="shard 2/3 missing"):
        isolo_ai.merge(str(tmp_path / "other.jsonl"), [shards[0], shards[2]])


def test_an_sprt_stops_a_match():
    summary = isolo_ai.match("ab:depth=3", "random", 400, variant="isolo-women",
                             sprt="0,200,0.05,0.05")
    assert summary["stopped_early"] and summary["games"] < 400
    assert summary["sprt"]["verdict"] == "h1"


def test_research_runs_refuse_bad_input(tmp_path):
    women = Variant.load("isolo-women")
    with pytest.raises(InputError, match="games: must be 1..="):
        isolo_ai.match("random", "ab:depth=1", 0, variant=women)
    with pytest.raises(InputError, match="labelled 'random'"):
        isolo_ai.match("random", "random", 2, variant=women)
    with pytest.raises(InputError, match="external engines"):
        isolo_ai.match(f'me=cmd:"{binary_path()} ugi"', "random", 2, variant=women)
    with pytest.raises(InputError, match="sprt"):
        isolo_ai.match("random", "ab:depth=1", 2, variant=women, sprt="nonsense")
    taken = tmp_path / "taken.jsonl"
    isolo_ai.match("random", "ab:depth=1", 2, variant=women, out=str(taken))
    with pytest.raises(InputError, match="already holds records: pass resume=True"):
        isolo_ai.match("random", "ab:depth=1", 2, variant=women, out=str(taken))
    with pytest.raises(InputError, match="resume: .* holds another run: engines"):
        isolo_ai.match("random", "ab:depth=2", 2, variant=women, out=str(taken), resume=True)
    with pytest.raises(InputError, match="resume: give out"):
        isolo_ai.match("random", "ab:depth=1", 2, variant=women, resume=True)
    with pytest.raises(InputError, match="at least three"):
        isolo_ai.tournament(["random", "greedy"], 2, variant=women)
    with pytest.raises(InputError, match="pairing: unknown pairing 'swiss'"):
        isolo_ai.tournament(["random", "greedy", "ab:depth=1"], 2, variant=women,
                            pairing="swiss")
    with pytest.raises(InputError, match="anchor: no engine is labelled 'x'"):
        isolo_ai.tournament(["random", "greedy", "ab:depth=1"], 2, variant=women, anchor="x")
    with pytest.raises(InputError, match="is both the merged file and a shard"):
        isolo_ai.merge(str(taken), [str(taken)])
    with pytest.raises(InputError, match="holds a whole run, not a shard"):
        isolo_ai.merge(str(tmp_path / "merged.jsonl"), [str(taken)])
    with pytest.raises(InputError, match="openings"):
        isolo_ai.compare([women], games=2, openings="random:x")
    with pytest.raises(InputError, match="engine"):
        isolo_ai.compare([women], games=2, engine="stockfish")
    with pytest.raises(InputError, match="at least one"):
        isolo_ai.compare([], games=2)


def test_records_that_are_not_records_are_refused(tmp_path):
    with pytest.raises(FileNotFoundError, match="no such records file"):
        isolo_ai.read_records(str(tmp_path / "missing.jsonl"))
    garbage = tmp_path / "garbage.jsonl"
    garbage.write_text("this is not json\n")
    with pytest.raises(InputError, match="garbage.jsonl"):
        isolo_ai.read_records(str(garbage))
    out = tmp_path / "cut.jsonl"
    isolo_ai.match("random", "ab:depth=1", 2, variant="isolo-women", out=str(out))
    with open(out, "a") as file:
        file.write('{"game": 5, "bad": true}\n')
    with pytest.raises(InputError, match="line 4"):
        list(isolo_ai.read_records(str(out)))


def test_tune_is_the_command_lines_tune(cli, tmp_path):
    settings = dict(games=8, nodes=200, max_plies=120, epochs=10, seed=4, threads=1)
    out = tmp_path / "weights.toml"
    ours = isolo_ai.tune("isolo-boys", out=str(out), **settings)
    theirs = cli("tune", "--variant", "isolo-boys", "--games", "8", "--nodes", "200",
                 "--max-plies", "120", "--epochs", "10", "--seed", "4", "--threads", "1")
    for summary in (ours, theirs):
        summary.pop("self_play_ms")
        summary.pop("fit_ms")
        summary.pop("out")
    weights_file = ours.pop("weights_file")
    assert ours == theirs
    assert out.read_text() == weights_file
    assert weights_file.startswith("# Tuned weights for isolo-boys (Texel method).\n"
                                   "# isolo_ai.tune(variant=\"isolo-boys\", games=8")
    with pytest.raises(InputError, match="epochs: must be 0..=1000000 epochs, found 2000000"):
        isolo_ai.tune("isolo-boys", epochs=2_000_000)
    with pytest.raises(InputError, match="out: .* is a folder"):
        isolo_ai.tune("isolo-boys", out=str(tmp_path), **settings)
