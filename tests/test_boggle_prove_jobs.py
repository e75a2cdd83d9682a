"""The Boggle proof's command and the proof as a sharded job: boards and tables from the CLI, one-line errors,
the same bytes on local processes, Ray and a cluster, a killed driver resumed, a dead worker retried."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path

import polars as pl
import pytest

from pipeline.boggle.classes import parse_partition
from pipeline.boggle.prove import Problem, prove, prove_job, prove_work
from pipeline.core import executor as ex
from pipeline.core.cluster import RayEngine
from pipeline.core.jobs import Shard, same_bytes
from tests.conftest import ROOT
from tests.reference.boggle import brute_force
from tests.support.boggle_prove import moby_words_fixture, one_thread_fixture, small_dictionary  # noqa: F401
from tests.support.jobs import files, run_wordstats
from tests.support.ray import LOOPBACK, foreign_sockets, ray_cluster_fixture, ray_local_fixture  # noqa: F401

# ---- the CLI ---------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def small_lexicon(tmp_path_factory, moby_words):
    """An ad hoc lexicon of the Moby words over a few letters, built with the real CLI."""
    from tests.conftest import run_cli

    root = tmp_path_factory.mktemp("prove")
    source = root / "words.txt"
    source.write_text("\n".join(w for w in moby_words if set(w) <= set("AEIRST")) + "\n")
    data = root / "out"
    res = run_cli("run", "--source", source, "--lexicon", "tiny", "--data-dir", data, "ingest")
    assert res.exit_code == 0, res
    return data


# The proof the command tests run: 2x3 boards of the tiny lexicon, two letter groups, floor 14.
TINY_PROOF = ("boggle", "prove", "--size", "2x3", "--floor", "14", "--classes", "AEI RST", "--lexicon", "tiny")


def test_cli_prove_one_class_by_id_or_board_is_that_class_of_the_whole_proof(cli, small_lexicon):
    def proof(*more):
        res = cli(*TINY_PROOF, "--data-dir", small_lexicon, "--workers", "1", "--json", *more)
        assert res.exit_code == 0, res
        return json.loads(res.stdout)

    whole = proof()
    best = whole["boards"][0]
    by_id = proof("--class", str(best["class"]))
    by_board = proof("--class", best["board"])
    expected = [b for b in whole["boards"] if b["class"] == best["class"]]
    assert by_id["boards"] == by_board["boards"] == expected
    assert by_id["summary"]["class"] == by_board["summary"]["class"] == best["class"]
    assert by_id["summary"]["top_level_classes"] == 1 and by_id["summary"]["shards"] == 1
    bad = cli(
        *TINY_PROOF,
        "--data-dir",
        small_lexicon,
        "--class",
        "64",
    )
    assert bad.exit_code == 2 and "--class 64" in bad.stderr and "Traceback" not in bad.stderr


@pytest.mark.slow
def test_cli_prove_prints_boards_and_writes_a_table(cli, small_lexicon, tmp_path, moby_words):
    out = tmp_path / "boards.parquet"
    res = cli(
        *TINY_PROOF,
        "--data-dir",
        small_lexicon,
        "--out",
        out,
        "--json",
    )
    assert res.exit_code == 0, res
    got = json.loads(res.stdout)
    table = pl.read_parquet(out)
    dictionary = small_dictionary([w for w in moby_words if set(w) <= set("AEIRST")], "AEIRST", 6)
    expected = brute_force(2, 3, "AEIRST", dictionary, 14)
    assert dict(zip(table["board"], table["score"])) == expected
    assert {b["board"]: b["score"] for b in got["boards"]} == expected
    summary = got["summary"]
    assert summary["boards"] == len(expected) and summary["partition"] == "AEI RST"
    from pipeline.core.files import read_provenance

    provenance = read_provenance(out)
    assert json.loads(provenance["summary"])["boards"] == len(expected)
    again = cli(
        *TINY_PROOF,
        "--data-dir",
        small_lexicon,
        "--csv",
    )
    assert again.exit_code == 0, again
    assert again.stdout.splitlines()[0].startswith("board,score")
    assert len(again.stdout.splitlines()) == len(expected) + 1


@pytest.mark.parametrize(
    "args, message",
    [
        (["--size", "3y3", "--floor", "100"], "board size"),
        (["--size", "2x2", "--floor", "0"], "--floor"),
        (["--size", "2x2", "--floor", "100", "--classes", "AB A"], "more than one group"),
        (["--size", "9x9", "--floor", "100"], "at most 64"),
        (["--size", "5x5", "--floor", "100"], "word keys"),
        (["--size", "4x4", "--floor", "100", "--classes", "AB CD EF GH IJ KL MN OP"], "top-level classes"),
        (["--size", "2x2", "--floor", "100", "--out", "x.csv"], ".parquet"),
        (["--size", "2x2", "--floor", "100", "--workers", "2", "--ray", "auto"], "--workers sets local worker"),
    ],
)
def test_cli_prove_bad_input_is_one_line(cli, small_lexicon, args, message):
    res = cli("boggle", "prove", *args, "--lexicon", "tiny", "--data-dir", small_lexicon)
    assert res.exit_code == 2, res
    assert message in res.stderr and len(res.stderr.strip().splitlines()) == 1


def test_a_proof_and_its_workers_import_no_numba(cli, small_lexicon, tmp_path):
    """The command's process and its worker processes each start without numba (its import and kernels cost
    more than a proof process's whole start-up): where importing it fails, the proof still runs."""
    (tmp_path / "sitecustomize.py").write_text('import sys\nsys.modules["numba"] = sys.modules["llvmlite"] = None\n')
    args = (*TINY_PROOF, "--data-dir", str(small_lexicon), "--json")
    run = run_wordstats(*args, "--shard-size", "4", "--workers", "2", env={"PYTHONPATH": str(tmp_path)})
    assert run.returncode == 0, run.stderr[-2000:]
    proof = json.loads(run.stdout)
    assert proof["summary"]["workers"] == 2 and proof["summary"]["shards_computed"] > 2
    expected = cli(*args, "--shard-size", "100", "--workers", "1")  # one shard, here: another job
    assert expected.exit_code == 0, expected
    assert json.loads(expected.stdout)["boards"] == proof["boards"] and proof["boards"]


# ---- the proof as a sharded job: local processes, Ray, a cluster, resume, retry --------------------------

RAY_CASE = ("3x3", "AEI RST", 300, 8)  # size, partition, floor, shard size: 13 shards, about a CPU-second
KILL_CASE = ("3x3", "AEI RST", 200, 1)  # 102 one-class shards, 6,533 boards, 3 s: time to kill the driver


def tiny_problem(moby_words, case) -> Problem:
    """The problem of a case on the Moby words spelled with the partition's letters."""
    size, partition, floor, _ = case
    rows, cols = map(int, size.split("x"))
    alphabet = parse_partition(partition).alphabet
    return Problem(rows, cols, small_dictionary(moby_words, alphabet, 45), parse_partition(partition), floor)


def assert_same_proof(a, b) -> None:
    """Two job folders of a proof hold the same boards and classes files, byte for byte apart from the
    engine's footer keys, and timing files for the same classes (their seconds are the run's own)."""
    names = files(a)
    assert names == files(b) and names
    for name in names:
        if ".timing." in f".{name}":
            assert pl.read_parquet(a / name)["class"].equals(pl.read_parquet(b / name)["class"]), name
        else:
            assert same_bytes(a / name, b / name), name


@pytest.mark.ray
@pytest.mark.slow
@pytest.mark.usefixtures("ray_local", "one_thread")
def test_proof_on_local_processes_and_on_ray_gives_the_same_bytes(moby_words, tmp_path):
    problem = tiny_problem(moby_words, RAY_CASE)
    shard_size = RAY_CASE[3]
    here = prove(problem, tmp_path / "here", shard_size=shard_size)
    processes = prove(problem, tmp_path / "processes", ex.LocalEngine(2), shard_size=shard_size)
    remote = prove(problem, tmp_path / "ray", RayEngine(None), shard_size=shard_size)
    assert here.summary["shards"] == 13 and here.boards.height > 0
    for other in (processes, remote):
        assert other.boards.equals(here.boards)
        assert_same_proof(Path(here.summary["job_folder"]), Path(other.summary["job_folder"]))
    meta = pl.read_parquet_metadata(Path(remote.summary["job_folder"]) / "boards.parquet")
    assert (meta["wordstats.engine"], remote.summary["engine"]) == ("ray", "ray")


@dataclass(frozen=True)
class DiesOnce:
    """A proof's shared input, and a folder of markers: shard 1 ends its worker on its first attempt."""

    proving: object
    markers: str


def dies_once(shard: Shard, shared: DiesOnce):
    """A proof's shard; the first attempt at shard 1 exits its own process (a worker that dies)."""
    marker = Path(shared.markers) / f"attempt-{shard.index}-{time.monotonic_ns()}"
    marker.touch()
    if shard.index == 1 and len(list(Path(shared.markers).glob("attempt-1-*"))) == 1:
        os._exit(1)
    return prove_work(shard, shared.proving)


@pytest.mark.ray
@pytest.mark.slow
@pytest.mark.usefixtures("one_thread")
def test_a_proof_worker_that_dies_is_retried(request, moby_words, tmp_path):
    ray = request.getfixturevalue("ray_local")
    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])  # workers need not import the tests
    problem = tiny_problem(moby_words, RAY_CASE)
    plain = prove_job(problem, RAY_CASE[3])
    markers = tmp_path / "markers"
    markers.mkdir()
    dying = replace(plain, work=dies_once, shared=DiesOnce(plain.shared, str(markers)))
    result = ex.run_job(dying, tmp_path / "ray", RayEngine(None))
    assert len(list(markers.glob("attempt-1-*"))) == 2  # died once, then succeeded
    assert all(len(list(markers.glob(f"attempt-{k}-*"))) == 1 for k in range(len(plain.shards())) if k != 1)
    reference = ex.run_job(plain, tmp_path / "local")
    assert result.tables["boards"].equals(reference.tables["boards"])
    assert result.tables["classes"].equals(reference.tables["classes"])


def prove_args(case, data) -> list[str]:
    """The command line of a case on the tiny lexicon."""
    size, partition, floor, shard_size = case
    return ["boggle", "prove", "--size", size, "--classes", partition, "--floor", str(floor)] + [
        "--shard-size",
        str(shard_size),
        "--lexicon",
        "tiny",
        "--data-dir",
        str(data),
        "--json",
    ]


@pytest.mark.ray
@pytest.mark.slow
def test_cli_proof_on_a_cluster_gives_the_local_bytes(request, small_lexicon, tmp_path):
    address, head = request.getfixturevalue("ray_cluster")
    runs = {}
    for name, extra in (("local", ["--workers", "1"]), ("cluster", ["--ray", address])):
        data = tmp_path / name
        shutil.copytree(small_lexicon, data, ignore=shutil.ignore_patterns("jobs"))  # no other job's shards
        res = run_wordstats(*prove_args(RAY_CASE, data), *extra, env=LOOPBACK)
        assert res.returncode == 0, res.stderr
        runs[name] = json.loads(res.stdout)
    local, cluster = runs["local"]["summary"], runs["cluster"]["summary"]
    assert runs["local"]["boards"] == runs["cluster"]["boards"] and runs["local"]["boards"]
    assert (cluster["engine"], cluster["address"], cluster["shards_computed"]) == ("ray", address, 13)
    assert local["job"] == cluster["job"]
    assert_same_proof(Path(local["job_folder"]), Path(cluster["job_folder"]))
    assert not foreign_sockets(head.pid)


@pytest.mark.slow
def test_killed_proof_resumes_only_missing_shards(small_lexicon, tmp_path):
    """Kill the CLI after some shards; the same command computes only the missing ones, same boards."""
    data = tmp_path / "resumed"
    shutil.copytree(small_lexicon, data, ignore=shutil.ignore_patterns("jobs"))  # no other job's shards
    args = [*prove_args(KILL_CASE, data), "--workers", "1"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "pipeline", *args],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "WORDSTATS_QUIET": "1", "NUMBA_NUM_THREADS": "1"},
    )
    pattern = "tiny/jobs/*/shard-*.timing.parquet.sha256"  # a shard is finished once its last checksum is written
    deadline = time.monotonic() + 120
    while len(list(data.glob(pattern))) < 3 and time.monotonic() < deadline:
        assert proc.poll() is None, "the proof ended before it could be killed"
        time.sleep(0.02)
    proc.kill()
    proc.wait()
    kept = len(list(data.glob(pattern)))
    assert 3 <= kept < 102
    again = run_wordstats(*args)
    assert again.returncode == 0, again.stderr
    resumed = json.loads(again.stdout)
    assert (resumed["summary"]["shards_computed"], resumed["summary"]["shards_reused"]) == (102 - kept, kept)
    clean = tmp_path / "clean"
    shutil.copytree(small_lexicon, clean, ignore=shutil.ignore_patterns("jobs"))  # no other job's shards
    fresh = json.loads(run_wordstats(*prove_args(KILL_CASE, clean), "--workers", "1").stdout)
    assert resumed["boards"] == fresh["boards"]
    assert_same_proof(Path(resumed["summary"]["job_folder"]), Path(fresh["summary"]["job_folder"]))
