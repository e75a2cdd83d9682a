"""Sharded jobs: the same bytes on the local engine, a local Ray instance and a Ray cluster joined by address;
resume after a killed driver; a retried worker death; a clear error for an unreachable cluster.

Every Ray process here stays on the loopback interface; the cluster is started as its own process group and
stopped by ending that group (never `ray stop`, which would end every Ray process on the machine)."""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.boggle.best import SearchParams
from pipeline.boggle.jobs import Rolling, best_job, random_job, random_work, scores_summary
from pipeline.boggle.queries import store_dictionary
from pipeline.boggle.sampling import roll, summarise
from pipeline.boggle.settings import boggle_config, dice_seed
from pipeline.boggle.solver import board_texts, score_boards
from pipeline.core import executor as ex
from pipeline.core.cluster import RayEngine
from pipeline.core.config import load_config
from pipeline.core.errors import WordstatsError
from pipeline.core.jobs import Job, Shard, same_bytes, shard_path, shard_seed
from pipeline.core.store import Store
from pipeline.scrabble.equity.job import round_job
from pipeline.scrabble.equity.values import LeaveValues
from pipeline.scrabble.lexicon.words import load_lexicon
from pipeline.scrabble.play.jobs import selfplay_job
from pipeline.scrabble.rules.variant import variant
from tests.conftest import ROOT, SMALL_CONFIG
from tests.support.jobs import data_fixture, files, run_wordstats  # noqa: F401  (the data fixture)
from tests.support.ray import LOOPBACK, foreign_sockets, ray_cluster_fixture, ray_local_fixture  # noqa: F401

BOARDS, SHARD = 6000, 1000  # small jobs: every test stays quick on a shared machine
EQUITY_TABLE = LeaveValues.of({"?": 25.0, "S": 8.0, "Q": -7.0, "V": -5.0})
LEAVES = ("scrabble", "leaves", "--games", "2", "--rounds", "2", "--shard-size", "1", "--seed", "8")


@pytest.fixture(scope="module")
def boggle(data):
    """The new dice, the moby dictionary and the dice's seed under the small config."""
    bc = boggle_config(load_config(SMALL_CONFIG))
    dice = bc.dice_set("new")
    dictionary = store_dictionary(Store(data, "moby"), bc.rules(dice.variant))
    return dice, dictionary, dice_seed(bc.seed, "new"), bc.percentiles


def jobs(boggle, data) -> list[Job]:
    """One small job of each kind, as the commands of COMMANDS make them: boards, best-board runs, games."""
    dice, dictionary, seed, _ = boggle
    config = load_config(SMALL_CONFIG)
    best = boggle_config(config).best.params
    search = SearchParams(2000, best.t_start, best.t_end)
    return [
        random_job(dice, dictionary, seed, BOARDS, SHARD),
        best_job(dictionary, 4, 4, 5, 4, search, None, 1),
        selfplay_job(variant(config, "scrabble"), load_lexicon(Store(data, "moby")), 8, 2, 1),
        round_job(variant(config, "scrabble"), load_lexicon(Store(data, "moby")), 8, 2, 2, EQUITY_TABLE, 1),
    ]


COMMANDS = (  # the same jobs from the command line
    ("boggle", "random", "--summary", "--sample", str(BOARDS), "--shard-size", str(SHARD)),
    ("boggle", "best", "--runs", "4", "--steps", "2000", "--seed", "5"),
    ("scrabble", "selfplay", "--games", "2", "--shard-size", "1", "--seed", "8"),
)


@pytest.fixture(scope="module")
def local_runs(boggle, data, tmp_path_factory) -> dict[str, Path]:
    """Each job of `jobs` run on the local engine: its folder, by job id."""
    out = tmp_path_factory.mktemp("local")
    return {job.job_id: ex.run(job, out, "moby").folder for job in jobs(boggle, data)}


def assert_same_job(a: Path, b: Path) -> None:
    """Two runs of a job wrote the same shard and merged files, byte for byte apart from the engine's keys."""
    assert files(a) == files(b) and files(a)
    for name in files(a):
        assert same_bytes(a / name, b / name), name


# ---- the local engine against obviously-correct references --------------------------------------


@pytest.mark.slow
def test_shards_give_the_unsharded_answer(boggle, tmp_path, monkeypatch):
    """Any shard size gives the figures of rolling and scoring every board at once."""
    monkeypatch.setattr(ex, "MERGE_BATCH", 2)  # shards are merged two at a time, then with the merged batches
    dice, dictionary, seed, percentiles = boggle
    boards = roll(dice, seed, BOARDS)
    whole = score_boards(boards, dice.rows, dice.cols, dictionary, count_words=True)
    for size in (BOARDS, 999, 2500):
        job = random_job(dice, dictionary, seed, BOARDS, size)
        result = ex.run_job(job, tmp_path / str(size))
        assert result.computed == len(job.shards()) == -(-BOARDS // size)
        assert scores_summary(result.tables["scores"], percentiles) == summarise(whole.scores, percentiles)
        words = result.tables["words"]
        assert np.array_equal(words["node"].to_numpy(), np.flatnonzero(whole.node_counts))
        assert np.array_equal(words["boards"].to_numpy(), whole.node_counts[whole.node_counts > 0])
        best = result.tables["best"].row(0, named=True)
        top = int(np.argmax(whole.scores))
        assert (best["index"], best["score"], best["board"]) == (top, whole.scores[top], board_texts(boards)[top])


@pytest.mark.slow
def test_leave_rounds_are_the_same_for_any_shard_size(data, tmp_path):
    """The leaves job's rounds give the same summaries and values whatever the shard size (exact merges)."""
    from pipeline.scrabble.equity.job import learn

    game, words = variant(load_config(SMALL_CONFIG), "scrabble"), load_lexicon(Store(data, "moby"))
    one, runs_one = learn(game, words, 3, 8, 20, 2, shard_size=1)
    three, runs_three = learn(game, words, 3, 8, 20, 2, shard_size=3)
    assert [len(r.job.shards()) for r in runs_one] == [3, 3] and [r.computed for r in runs_three] == [1, 1]
    for a, b in zip(runs_one, runs_three):
        assert a.tables["summary"].equals(b.tables["summary"]) and a.tables["summary"].height
    assert one[-1].equals(three[-1])


def test_shard_seeds_derive_from_job_seed_and_index():
    """Shard seeds depend on the job seed and the index only, and differ between shards."""
    job = Job("t", {}, 10, 3, 42, random_work, ("x",))
    seeds = [s.seed for s in job.shards()]
    assert [s.size for s in job.shards()] == [3, 3, 3, 1]
    assert seeds == [shard_seed(42, k) for k in range(4)] and len(set(seeds)) == 4
    assert seeds != [s.seed for s in Job("t", {}, 10, 3, 43, random_work, ("x",)).shards()]


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**70), st.integers(0, 2**40))
def test_shard_seeds_are_numpys_seed_sequence(job_seed, index):
    expected = np.random.SeedSequence([job_seed, index]).generate_state(1, dtype=np.uint64)[0] >> np.uint64(1)
    assert shard_seed(job_seed, index) == int(expected)


def test_rerun_computes_nothing_and_params_change_the_job(boggle, tmp_path):
    """A finished job is reused as is; other parameters make another job."""
    dice, dictionary, seed, _ = boggle
    job = random_job(dice, dictionary, seed, 3000, 1000)
    first = ex.run_job(job, tmp_path / job.job_id)
    again = ex.run_job(job, tmp_path / job.job_id)
    assert (first.computed, first.reused, again.computed, again.reused) == (3, 0, 0, 3)
    assert all(first.tables[p].equals(again.tables[p]) for p in job.parts)
    assert random_job(dice, dictionary, seed + 1, 3000, 1000).job_id != job.job_id
    provenance = pl.read_parquet_metadata(shard_path(tmp_path / job.job_id, 2, "scores"))
    assert provenance["wordstats.job"] == job.job_id and provenance["wordstats.shard"] == "2"
    assert provenance["wordstats.engine"] == "local"


@pytest.mark.slow
def test_killed_driver_resumes_only_missing_shards(data, tmp_path):
    """Kill the CLI after some shards; the same command computes only the missing ones, same result."""
    args = [
        "boggle",
        "random",
        "--summary",
        "--sample",
        "200000",
        "--shard-size",
        "5000",
        "--lexicon",
        "moby",
        "--config",
        str(SMALL_CONFIG),
        "--json",
    ]
    resumed = tmp_path / "resumed"
    shutil.copytree(data, resumed)
    proc = subprocess.Popen(
        [sys.executable, "-m", "pipeline", *args, "--data-dir", str(resumed)],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "WORDSTATS_QUIET": "1", "NUMBA_NUM_THREADS": "1"},
    )
    deadline = time.monotonic() + 120
    finished = "moby/jobs/*/shard-*.best.parquet.sha256"  # a shard is done once its last part's checksum is written
    while len(list(resumed.glob(finished))) < 3 and time.monotonic() < deadline:
        assert proc.poll() is None, "the job ended before it could be killed"
        time.sleep(0.02)
    proc.kill()
    proc.wait()
    kept = len(list(resumed.glob(finished)))
    assert 3 <= kept < 40
    assert not list(resumed.glob("moby/jobs/*/*.tmp"))
    again = run_wordstats(*args, "--data-dir", str(resumed))
    assert again.returncode == 0, again.stderr
    facts = pl.read_json(again.stdout.encode()).row(0, named=True)
    assert (facts["shards_computed"], facts["shards_reused"]) == (40 - kept, kept)
    clean = tmp_path / "clean"
    shutil.copytree(data, clean)
    fresh = run_wordstats(*args, "--data-dir", str(clean))
    drop = ("seconds", "boards_per_second", "shards_computed", "shards_reused", "job_folder")
    assert {k: v for k, v in facts.items() if k not in drop} == {
        k: v for k, v in pl.read_json(fresh.stdout.encode()).row(0, named=True).items() if k not in drop
    }
    (job,) = (resumed / "moby" / "jobs").iterdir()
    assert_same_job(job, clean / "moby" / "jobs" / job.name)


def test_cluster_settings_are_checked(tmp_path):
    """[cluster] address is empty, local, auto or HOST:PORT; anything else names the field."""
    bad = tmp_path / "bad.toml"
    bad.write_text(SMALL_CONFIG.read_text().replace('"../../', f'"{ROOT}/') + '\n[cluster]\naddress = "nowhere"\n')
    with pytest.raises(WordstatsError, match=r"field cluster.address: bad Ray address 'nowhere'"):
        ex.cluster_address(load_config(bad))
    assert ex.cluster_address(load_config(SMALL_CONFIG)) == ""
    assert ex.cluster_address(load_config(SMALL_CONFIG), "127.0.0.1:6379") == "127.0.0.1:6379"


def test_native_writes_to_stderr_are_dropped_while_connected_and_ours_still_show():
    """What native code writes to descriptor 2 (Ray's C++ log lines) is dropped between silence() and restore();
    what the command writes through sys.stderr shows all along, and descriptor 2 works again afterwards."""
    script = (
        "import os, sys\n"
        "from pipeline.core.cluster import NativeStderr\n"
        "native = NativeStderr()\n"
        "os.write(2, b'native before\\n')\n"
        "native.silence()\n"
        "os.write(2, b'native while\\n')\n"
        "print('ours while', file=sys.stderr)\n"
        "native.restore()\n"
        "os.write(2, b'native after\\n')\n"
        "print('ours after', file=sys.stderr)\n"
    )
    res = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stderr
    assert res.stderr.splitlines() == ["native before", "ours while", "native after", "ours after"]


@pytest.mark.slow
def test_unreachable_cluster_is_one_line_within_seconds(data):
    """A Ray address where nothing listens: exit 2, one line, in seconds (not a hang)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # free once closed: nothing listens there
    started = time.monotonic()
    res = run_wordstats(
        "boggle",
        "random",
        "--summary",
        "--sample",
        "1000",
        "--lexicon",
        "moby",
        "--data-dir",
        str(data),
        "--config",
        str(SMALL_CONFIG),
        "--ray",
        f"127.0.0.1:{port}",
        timeout=60,
    )
    assert time.monotonic() - started < 30
    assert res.returncode == 2
    assert res.stderr.startswith(f"error: cannot reach the Ray cluster at 127.0.0.1:{port}")
    assert res.stderr.count("\n") == 1 and "Traceback" not in res.stderr
    bad = run_wordstats(
        "boggle",
        "random",
        "--summary",
        "--lexicon",
        "moby",
        "--data-dir",
        str(data),
        "--config",
        str(SMALL_CONFIG),
        "--ray",
        "no-port-here",
    )
    assert bad.returncode == 2 and bad.stderr.startswith("error: bad Ray address 'no-port-here'")
    assert not (data / "moby" / "jobs").exists()  # nothing written


@pytest.mark.slow
def test_ctrl_c_keeps_finished_shards(data, tmp_path):
    """Ctrl-C: one line saying how many shards are kept, exit 130, no partial file; the rerun completes."""
    out = tmp_path / "out"
    shutil.copytree(data, out)
    args = ["boggle", "random", "--summary", "--sample", "200000", "--shard-size", "5000", "--lexicon", "moby"]
    args += ["--config", str(SMALL_CONFIG), "--data-dir", str(out), "--json"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "pipeline", *args],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "WORDSTATS_QUIET": "1", "NUMBA_NUM_THREADS": "1"},
    )
    deadline = time.monotonic() + 120
    while not list(out.glob("moby/jobs/*/shard-*.best.parquet")) and time.monotonic() < deadline:
        assert proc.poll() is None, "the job ended before Ctrl-C"
        time.sleep(0.02)
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=60)
    kept = len(list(out.glob("moby/jobs/*/shard-*.best.parquet")))
    assert proc.returncode == 130, stderr
    assert re.fullmatch(
        rf"error: interrupted: {kept} of 40 shards of job boggle-random-\w+ are kept in \S+; "
        r"run the same command again to resume\n",
        stderr,
    )
    assert stdout == "" and not list(out.glob("moby/jobs/*/*.tmp"))
    again = run_wordstats(*args)
    facts = pl.read_json(again.stdout.encode()).row(0, named=True)
    assert (facts["shards_computed"], facts["shards_reused"], facts["boards"]) == (40 - kept, kept, 200000)


# ---- a real Ray instance and a real Ray cluster -------------------------------------------------


@dataclass(frozen=True)
class CrashOnce:
    """A random-boards job's input, and a folder of markers: shard 1 ends its worker on its first attempt."""

    rolling: Rolling
    markers: str


def crash_once(shard: Shard, shared: CrashOnce):
    """Random boards; the first attempt at shard 1 exits its own process (a worker that dies)."""
    marker = Path(shared.markers) / f"attempt-{shard.index}-{time.monotonic_ns()}"
    marker.touch()
    if shard.index == 1 and len(list(Path(shared.markers).glob("attempt-1-*"))) == 1:
        os._exit(1)
    return random_work(shard, shared.rolling)


@pytest.mark.ray
@pytest.mark.slow
def test_local_ray_gives_the_local_bytes(ray_local, local_runs, boggle, data, tmp_path):
    """Each job on a local Ray instance writes the bytes of the local engine (footer engine keys aside)."""
    engine = RayEngine(None)
    for job in jobs(boggle, data):
        remote = ex.run_job(job, tmp_path / job.job_id, engine)
        assert remote.computed == len(job.shards())
        assert_same_job(local_runs[job.job_id], remote.folder)
        meta = pl.read_parquet_metadata(remote.folder / f"{job.parts[0]}.parquet")
        assert meta["wordstats.engine"] == "ray"


@pytest.mark.ray
@pytest.mark.slow
def test_a_worker_that_dies_is_retried(ray_local, boggle, tmp_path):
    """Shard 1's worker exits its process on the first attempt; Ray runs it again; the answer is unchanged."""
    from dataclasses import replace

    dice, dictionary, seed, _ = boggle
    plain = random_job(dice, dictionary, seed, 4000, SHARD)
    markers = tmp_path / "markers"
    markers.mkdir()
    crashing = replace(plain, work=crash_once, shared=CrashOnce(plain.shared, str(markers)))
    result = ex.run_job(crashing, tmp_path / "ray" / "job", RayEngine(None))
    assert len(list(markers.glob("attempt-1-*"))) == 2  # died once, then succeeded
    assert all(len(list(markers.glob(f"attempt-{k}-*"))) == 1 for k in (0, 2, 3))
    reference = ex.run_job(plain, tmp_path / "local" / "job")
    assert all(result.tables[p].equals(reference.tables[p]) for p in plain.parts)
    for part in plain.parts:
        for shard in plain.shards():
            assert same_bytes(
                shard_path(result.folder, shard.index, part), shard_path(reference.folder, shard.index, part)
            )


@pytest.mark.ray
@pytest.mark.slow
def test_cli_on_a_cluster_gives_the_local_bytes(ray_cluster, local_runs, data, tmp_path):
    """Each job command joins the cluster by address and writes the local engine's bytes."""
    address, head = ray_cluster
    out = tmp_path / "cluster"
    shutil.copytree(data, out)
    for command in COMMANDS:
        res = run_wordstats(
            *command,
            "--lexicon",
            "moby",
            "--config",
            str(SMALL_CONFIG),
            "--data-dir",
            str(out),
            "--json",
            "--ray",
            address,
            env=LOOPBACK,
        )
        assert res.returncode == 0, res.stderr
        job = pl.read_json(res.stdout.encode())["job"][0]
        assert_same_job(local_runs[job], out / "moby" / "jobs" / job)
        meta = pl.read_parquet_metadata(next((out / "moby" / "jobs" / job).glob("shard-*.parquet")))
        assert (meta["wordstats.engine"], meta["wordstats.address"]) == ("ray", address)
    made = {p.name for p in (out / "moby" / "jobs").iterdir()}
    assert made <= set(local_runs) and len(made) == len(COMMANDS)  # one job a command, no other
    assert not foreign_sockets(head.pid)


@pytest.mark.ray
@pytest.mark.slow
def test_leaves_on_a_cluster_give_the_local_bytes(ray_cluster, tmp_path):
    """`scrabble leaves` (two rounds, each a job) on the cluster writes the local engine's table and shards."""
    address, head = ray_cluster
    config = two_small_lexicons(tmp_path)  # the games' lexicon: a sample (its GADDAG made in every process)
    base = tmp_path / "base"
    built = run_wordstats("run", "ingest", "--lexicon", "moby", "--config", str(config), "--data-dir", str(base))
    assert built.returncode == 0, built.stderr
    runs = {}
    for engine, extra in (("local", ()), ("ray", ("--ray", address))):
        out = tmp_path / engine
        shutil.copytree(base, out)
        common = ("--lexicon", "moby", "--config", str(config), "--data-dir", str(out))
        res = run_wordstats(*LEAVES, *common, "--out", str(tmp_path / f"{engine}.parquet"), *extra, env=LOOPBACK)
        assert res.returncode == 0, res.stderr
        assert "4 shards computed, 0 reused" in res.stdout
        runs[engine] = out
    assert same_bytes(tmp_path / "local.parquet", tmp_path / "ray.parquet")
    jobs_of = {e: sorted((out / "moby" / "jobs").iterdir()) for e, out in runs.items()}
    assert [p.name for p in jobs_of["local"]] == [p.name for p in jobs_of["ray"]] and len(jobs_of["local"]) == 2
    for a, b in zip(jobs_of["local"], jobs_of["ray"]):
        assert_same_job(a, b)
    again = run_wordstats(*LEAVES, *common, "--out", str(tmp_path / "again.parquet"), env=LOOPBACK)
    assert again.returncode == 0 and "0 shards computed, 4 reused" in again.stdout  # resumed: nothing to play
    assert same_bytes(tmp_path / "ray.parquet", tmp_path / "again.parquet")
    assert not foreign_sockets(head.pid)


@pytest.mark.ray
@pytest.mark.slow
def test_run_over_lexicons_on_a_cluster_gives_the_local_bytes(ray_cluster, tmp_path):
    """`wordstats run --ray ADDRESS` builds each lexicon as a task on the cluster: the same files, byte for byte."""
    address, head = ray_cluster
    local, remote = tmp_path / "local", tmp_path / "remote"
    config = two_small_lexicons(tmp_path)
    args = ("run", "ingest", "indexes", "--lexicon", "moby", "--lexicon", "web2", "--config", str(config))
    assert run_wordstats(*args, "--data-dir", str(local)).returncode == 0
    res = run_wordstats(*args, "--data-dir", str(remote), "--ray", address, env={**LOOPBACK, "WORDSTATS_QUIET": ""})
    assert res.returncode == 0, res.stderr
    assert {line.split(":")[0] for line in res.stderr.splitlines() if " in " in line} == {"moby", "web2"}
    built = sorted(str(p.relative_to(local)) for p in local.rglob("*.parquet"))
    assert len(built) == 8 and built == sorted(str(p.relative_to(remote)) for p in remote.rglob("*.parquet"))
    assert all((local / f).read_bytes() == (remote / f).read_bytes() for f in built)
    assert not foreign_sockets(head.pid)


def two_small_lexicons(tmp_path: Path) -> Path:
    """The small config with its two lexicons cut to samples of their words (a quick build each)."""
    lines = (ROOT / "data" / "raw" / "moby-words.txt").read_text().splitlines()
    for name, words in (("moby", lines[::40]), ("web2", lines[7::40])):
        (tmp_path / f"{name}.txt").write_text("\n".join(words) + "\n")
    path = tmp_path / "two.toml"
    path.write_text(
        f'extends = "{SMALL_CONFIG}"\nreplace = ["lexicons"]\n\n'
        '[lexicons.moby]\nsources = [{ path = "moby.txt" }]\nmin_length = 2\n\n'
        '[lexicons.web2]\nsources = [{ path = "web2.txt" }]\nmin_length = 1\n'
    )
    return path


def test_run_over_lexicons_refuses_an_unknown_lexicon_before_the_cluster(tmp_path):
    """An unknown lexicon is a one-line error (exit 2) before any cluster is started or joined."""
    res = run_wordstats(
        "run",
        "ingest",
        "--lexicon",
        "mboy",
        "--config",
        str(SMALL_CONFIG),
        "--data-dir",
        str(tmp_path),
        "--ray",
        "127.0.0.1:9",
    )
    assert res.returncode == 2 and "mboy" in res.stderr and "Traceback" not in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1


def test_docs_and_help_name_every_job_command(cli):
    """docs/cluster.md lists each job command, and each takes --ray and --shard-size."""
    from pipeline.cli.app import _bare_ray

    doc = (ROOT / "docs" / "cluster.md").read_text()
    for command in (("boggle", "random"), ("boggle", "best"), ("scrabble", "selfplay"), ("scrabble", "leaves")):
        assert f"wordstats {' '.join(command)} " in doc
        shown = cli(*command, "--help")
        assert shown.exit_code == 0 and "--ray" in shown.stdout and "--shard-size" in shown.stdout
    assert _bare_ray(["boggle", "random", "--ray", "--summary"]) == ["boggle", "random", "--ray", "local", "--summary"]
    assert _bare_ray(["scrabble", "selfplay", "--ray"]) == ["scrabble", "selfplay", "--ray", "local"]
    assert _bare_ray(["boggle", "best", "--ray", "auto"]) == ["boggle", "best", "--ray", "auto"]


def test_options_that_need_a_job_say_so(cli, data):
    """--ray without a job to run, and --target with --runs, are one-line errors."""
    base = ("--lexicon", "moby", "--data-dir", data, "--config", SMALL_CONFIG)
    res = cli("boggle", "random", "--sample", "3", "--ray", "auto", *base)
    assert res.exit_code == 2 and "apply to the --summary job" in res.stderr
    res = cli("boggle", "best", "--minutes", "1", "--ray", "auto", *base)
    assert res.exit_code == 2 and "apply to a job of --runs N" in res.stderr
    res = cli("boggle", "best", "--runs", "2", "--target", "10", *base)
    assert res.exit_code == 2 and "--target applies to a time budget" in res.stderr
    res = cli("scrabble", "selfplay", "--games", "2", "--shard-size", "1", "--compare", *base)
    assert res.exit_code == 2 and "no --gcg-dir or --compare" in res.stderr


@pytest.mark.slow
def test_joining_a_token_cluster_without_its_token_is_one_line(tmp_path, data):
    """Under Ray's token authentication, joining a cluster with no token anywhere is a one-line error naming
    where the token goes (checked before Ray is even imported)."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = listener.getsockname()[1]
        env = {**LOOPBACK, "HOME": str(tmp_path), "RAY_AUTH_TOKEN": "", "RAY_AUTH_TOKEN_PATH": ""}
        res = run_wordstats(
            *("boggle", "random", "--sample", "10", "--summary", "--ray", f"127.0.0.1:{port}"),
            *("--lexicon", "moby", "--data-dir", str(data), "--config", str(SMALL_CONFIG)),
            env=env,
            timeout=120,
        )
    assert res.returncode == 2
    assert res.stderr.strip().splitlines() == [res.stderr.strip()]
    assert "token authentication" in res.stderr and "~/.ray/auth_token" in res.stderr and "RAY_AUTH_TOKEN" in res.stderr


@pytest.mark.slow
def test_run_source_builds_what_a_word_list_needs(tmp_path):
    """`run --source` on a class list builds the word-list stages only (no Boggle boards, GADDAG, leaves or
    self-play) unless stages are named."""
    from pipeline.core.stages import WORD_LIST_STAGES, stage

    words = tmp_path / "class.txt"
    words.write_text("\n".join(["cat", "dog", "sun", "ship", "rain", "tree", "frog", "lamp"] * 1) + "\n")
    data = tmp_path / "out"
    res = run_wordstats("run", "--source", str(words), "--lexicon", "mine", "--data-dir", str(data))
    assert res.returncode == 0, res.stderr
    built = {p.name for p in (data / "mine").iterdir() if p.is_file() and not p.name.startswith(".")}
    expected = {f for name in WORD_LIST_STAGES for f in stage(name).outputs} | {"manifest.json"}
    assert built == expected
    more = run_wordstats("run", "gaddag", "--source", str(words), "--lexicon", "mine", "--data-dir", str(data))
    assert more.returncode == 0 and (data / "mine" / "gaddag.parquet").is_file()
