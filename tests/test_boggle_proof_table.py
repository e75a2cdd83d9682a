"""The Boggle proof table (`boggle prove --reference`, `make boggle-proof`): a folder of parts, one per block; grown
block by block it holds the same rows as proved at once (the same bytes for the same blocks), its boards are the
proof's, a table of another problem is refused (--force begins again), bad tables are one-line errors, and
--verify proves classes again (the committed ENABLE2K 3x4 and TWL06 4x4 tables too)."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import polars as pl
import pytest

from pipeline.boggle import proof_table as pt
from pipeline.boggle.classes import ClassSpace, default_partition
from pipeline.core import parts
from pipeline.core.files import read_provenance
from tests.conftest import ENABLE, ROOT, corpus

LETTERS = set("AEILNRST")
# 3x3 boards of ENABLE's words over eight letters, two groups: 102 canonical classes, a few CPU-seconds
CASE = ("boggle", "prove", "--size", "3x3", "--classes", "AEI LNRST", "--lexicon", "small", "--workers", "1", "-q")
FLOOR = "350"  # some 400 boards of the 3x3 classes: quick proofs that still keep boards
COMMITTED = ROOT / "data" / "raw" / "boggle-proof-enable2k-3x4-1500"
COMMITTED_TWL06 = ROOT / "data" / "raw" / "boggle-proof-twl06-4x4-3701"


@pytest.fixture(scope="module")
def enable_small(tmp_path_factory):
    """ENABLE's words over LETTERS, built as the lexicon `small` with the real CLI."""
    from tests.conftest import run_cli

    root = tmp_path_factory.mktemp("proof-table")
    source = root / "words.txt"
    words = [w for w in ENABLE.read_text().upper().split() if set(w) <= LETTERS]
    source.write_text("\n".join(words) + "\n")
    data = root / "out"
    res = run_cli("run", "--source", source, "--lexicon", "small", "--data-dir", data, "ingest", "-q")
    assert res.exit_code == 0, res
    return data


def grow(cli, data, path, *more, floor=FLOOR):
    """`boggle prove --reference path` on the small lexicon; the result (asserted to succeed)."""
    res = cli(*CASE, "--floor", floor, "--data-dir", data, "--reference", path, *more)
    assert res.exit_code == 0, res
    return res


def test_class_order_is_a_fixed_shuffle_of_the_canonical_classes():
    ids = ClassSpace(3, 4, default_partition(3, 4)).canonical_ids()
    order = pt.class_order(ids)
    assert sorted(order.tolist()) == ids.tolist() and order.tolist() != ids.tolist()
    assert pt.class_order(ids[::-1]).tolist() == order.tolist()  # the order of the input does not matter
    assert pt.class_order(ids, 1).tolist() != order.tolist()
    # the 3x4 table's order (ORDER_SEED 26): class 38659 (best 1614) is 11th, 16762 (PERSLATESIND) 2,406th
    assert order[:3].tolist() == [11851, 57879, 12683]
    assert int(np.flatnonzero(order == 38659)[0]) == 10 and int(np.flatnonzero(order == 16762)[0]) == 2405


def test_next_stop_ends_blocks_at_multiples_of_the_block():
    assert [pt.next_stop(d, 100, 32) for d in (0, 31, 32, 96)] == [32, 32, 64, 100]


def last_footer(path):
    """The footer of a table's last part: the table as it stands."""
    return read_provenance(pt.parts.part_files(path)[-1])


def folder_bytes(path):
    """Each part's name and bytes (the sidecars' CPU seconds are not the table)."""
    return {p.name: p.read_bytes() for p in pt.parts.part_files(path)}


@pytest.mark.slow
def test_table_grown_in_blocks_is_the_same_rows_as_proved_at_once(cli, enable_small, tmp_path):
    once = tmp_path / "once"
    grow(cli, enable_small, once, "--block", "1000")
    pieces = tmp_path / "pieces"
    first = grow(cli, enable_small, pieces, "--block", "7", "--blocks", "2", "--json")
    partial = json.loads(first.stdout)["summary"]
    assert partial["partial"] and partial["classes_done"] == 14 and partial["classes_total"] == 102
    footer = last_footer(pieces)
    assert footer["partial"] == "true" and footer["classes_done"] == "14" and "version" not in footer
    grow(cli, enable_small, pieces, "--block", "25", "--blocks", "1")  # up to the next multiple of 25
    assert pt.parts.read(pieces).height == 25 and len(folder_bytes(pieces)) == 3
    kept = folder_bytes(pieces)
    grow(cli, enable_small, pieces, "--block", "13")
    assert {k: v for k, v in folder_bytes(pieces).items() if k in kept} == kept  # no part rewritten
    assert pt.read_table(pieces).rows.equals(pt.read_table(once).rows)
    assert last_footer(pieces) == last_footer(once)
    blocks = pt.read_cpu(pieces)
    assert [(b["start"], b["stop"]) for b in blocks][:3] == [(0, 7), (7, 14), (14, 25)] and blocks[-1]["stop"] == 102
    # the same blocks give the same bytes, part by part
    again = tmp_path / "again"
    grow(cli, enable_small, again, "--block", "7", "--blocks", "2")
    grow(cli, enable_small, again, "--block", "25", "--blocks", "1")
    grow(cli, enable_small, again, "--block", "13")
    assert folder_bytes(again) == folder_bytes(pieces)
    # the table's boards are the whole proof's, and a complete table says so
    whole = cli(*CASE, "--floor", FLOOR, "--data-dir", enable_small, "--json")
    proof = json.loads(whole.stdout)
    table = json.loads(grow(cli, enable_small, once, "--json").stdout)
    assert table["boards"] == proof["boards"] and len(proof["boards"]) > 0
    assert not table["summary"]["partial"] and table["summary"]["classes_proved_now"] == 0
    assert table["summary"]["best"] == proof["boards"][0]
    assert last_footer(once)["partial"] == "false"


@pytest.mark.slow
def test_table_of_another_floor_is_refused_and_force_begins_again(cli, enable_small, tmp_path):
    path = tmp_path / "table"
    grow(cli, enable_small, path, "--block", "5", "--blocks", "1")
    kept = folder_bytes(path)
    res = cli(*CASE, "--floor", "400", "--data-dir", enable_small, "--reference", path, "--block", "5")
    assert res.exit_code == 2 and len(res.stderr.strip().splitlines()) == 1
    assert "part-00000.parquet: it proves another floor (350 there, not 400)" in res.stderr
    assert folder_bytes(path) == kept
    res = grow(cli, enable_small, path, "--block", "5", "--blocks", "1", "--force", floor="400")
    assert "began" in res.stdout and "--force" in res.stdout
    assert last_footer(path)["params"]["floor"] == 400
    assert pt.parts.read(path).height == 5


@pytest.mark.slow
def test_verify_proves_classes_again_and_names_a_changed_row(cli, enable_small, tmp_path):
    path = tmp_path / "table"
    grow(cli, enable_small, path, "--block", "51", "--blocks", "1")
    assert "51 classes proved again, the same rows" in grow(cli, enable_small, path, "--verify", "100").stdout
    table = pt.read_table(path)
    with_boards = table.rows.filter(pl.col("boards").list.len() > 0)
    assert with_boards.height > 0
    changed = with_boards["class"][0]
    bad = table.rows.with_columns(
        scores=pl.when(pl.col("class") == changed)
        .then(pl.col("scores").list.eval(pl.element() + 1))
        .otherwise("scores")
    )
    other = tmp_path / "changed"
    pt.write_table(other, replace(table, rows=bad))
    res = cli(*CASE, "--floor", FLOOR, "--data-dir", enable_small, "--reference", other, "--verify", "100")
    assert res.exit_code == 2 and f"class {changed}:" in res.stderr and len(res.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(
    "args, message",
    [
        (["--reference", "{file}"], "a proof table is a folder of parts"),
        (["--reference", "{bad}"], "part-00000.parquet: not a Boggle proof table's part"),
        (["--reference", "{missing}", "--verify", "3"], "no such table"),
        (["--block", "5"], "go with --reference"),
        (["--verify", "5"], "go with --reference"),
        (["--reference", "{missing}", "--class", "7"], "--class and --reference"),
    ],
)
def test_bad_proof_table_input_is_one_line(cli, enable_small, tmp_path, args, message):
    bad = tmp_path / "bad"
    parts.append(bad, 0, pl.DataFrame({"word": ["A"]}), {"stage": "words"})
    file = tmp_path / "table.parquet"
    file.write_bytes(b"")
    args = [a.format(bad=bad, file=file, missing=tmp_path / "none") for a in args]
    res = cli(
        "boggle", "prove", "--size", "2x2", "--floor", "5", "--lexicon", "small", "--data-dir", enable_small, *args
    )
    assert res.exit_code == 2, res
    assert message in res.stderr and len(res.stderr.strip().splitlines()) == 1


STANDARD_POINTS = (0, 0, 0, 1, 1, 2, 3, 5, 11)  # points by word length under the config's standard rules


def compiled(relative: str):
    """A corpus under ../shared compiled under the config's standard rules."""
    from pipeline.boggle.dictionary import compile_dictionary
    from pipeline.boggle.rules import Rules

    return compile_dictionary(corpus(relative).read_text().upper().split(), Rules("standard", 3, STANDARD_POINTS))


@pytest.fixture(scope="module")
def enable2k():
    """ENABLE2K compiled, the dictionary of the committed 3x4 table."""
    return compiled("enable2k/enable2k.txt")


def verify_cheap_classes(path, dictionary, rows: int, cols: int, k: int, under: float, plus: tuple = ()) -> None:
    """The committed table at path was proven with this dictionary, and k seeded random classes among those
    whose proof does real work (their bound reaches the floor) in under `under` CPU seconds (by the table's
    sidecar) give the same rows proved again, and so do the classes `plus`."""
    from pipeline.boggle.prove import Problem, dictionary_hash

    table = pt.read_table(path)
    assert dictionary_hash(dictionary) == table.dictionary
    problem = Problem(rows, cols, dictionary, default_partition(rows, cols), table.floor)
    in_order = table.rows["class"].to_list()
    seconds = {
        c: s for b in pt.read_cpu(path) for c, s in zip(in_order[b["start"] : b["stop"]], b["class_cpu_seconds"])
    }
    assert [(b["start"], b["stop"]) for b in pt.read_cpu(path)] == list(zip((0, *table.stops), table.stops))
    assert len(seconds) == table.rows.height, f"{path.name}: the sidecar does not cover the table"
    cheap = [c for c, s in seconds.items() if s < under]
    worked = table.rows.filter(pl.col("class").is_in(cheap) & (pl.col("sum_union") >= table.floor))
    assert worked.height >= k
    assert len(pt.verify(replace(table, rows=worked), problem, k)) == k
    if plus:
        assert len(pt.verify(replace(table, rows=table.rows.filter(pl.col("class").is_in(plus))), problem, 9)) == len(
            plus
        )


@pytest.mark.slow
def test_committed_table_verifies_on_cheap_classes(enable2k):
    """Four cheap classes of the committed ENABLE2K 3x4 table and one that holds a board, proved again."""
    verify_cheap_classes(COMMITTED, enable2k, 3, 4, 4, under=1.0, plus=(29195,))  # GNTREAIESLPS 1552


@pytest.mark.slow
def test_committed_twl06_4x4_table_is_a_prefix_of_the_order_and_verifies():
    """The TWL06 4x4 table at floor 3701 (grown toward its 1% sample) holds the first classes of the seeded
    order, each board in it scores as listed and at least the floor, and two cheap classes proved again agree."""
    from pipeline.boggle.rules import parse_board
    from pipeline.boggle.solver import score

    twl06 = compiled("princeton-boggle/dictionary-twl06.txt")
    table = pt.read_table(COMMITTED_TWL06)
    footer = last_footer(COMMITTED_TWL06)
    done = int(footer["classes_done"])
    assert (table.size, table.floor, table.total, done) == ("4x4", 3701, 1_068_363, table.rows.height)
    assert done >= 32 and footer["partial"] == str(done < table.total).lower()
    order = pt.class_order(ClassSpace(4, 4, default_partition(4, 4)).canonical_ids())
    assert table.rows["class"].to_list() == order[:done].tolist()
    for boards, scores in table.rows.select("boards", "scores").iter_rows():
        assert [score(parse_board(b, "4x4"), twl06) for b in boards] == scores and min(scores, default=3701) >= 3701
    verify_cheap_classes(COMMITTED_TWL06, twl06, 4, 4, 2, under=1.0)


# hybrid-boggle's proven list of 3x4 boards at 1500 on ENABLE2K (results/best-boards-3x4.enable2k.txt in
# github.com/danvk/hybrid-boggle), each in our canonical form
HYBRID_3X4_BOARDS = {
    "DNISETALSREP": 1651, "CINDLATEPERS": 1614, "BINDLATEPERS": 1613, "BINDLATESERS": 1607, "DNIPETALSRES": 1607,
    "DNAPETILSRES": 1585, "DNALETIPSRES": 1567, "GRESENALSTIP": 1563, "DNILETAPSRES": 1559, "GNTREAIESLPS": 1552,
    "GNIPETALSRES": 1548, "CINSLATEPERD": 1541, "CINGLATEPERS": 1538, "DRESETIPSNAL": 1531, "GNIRELATSRES": 1529,
    "GREPENALSTIS": 1529, "BERSLATESIND": 1528, "GNISETALSREP": 1528, "DNIMETALSREP": 1526, "GLARENITSRES": 1523,
    "DERSLATEPIND": 1522, "BERSLATEPIND": 1521, "DERSLATEPING": 1521, "BANDLITESERS": 1517, "GRESENAPSTIL": 1517,
    "CITSLANEPERG": 1515, "DERGLANEPITS": 1513, "DREPETALSNIS": 1508, "DNASETILSRAP": 1507, "BINDLARESETS": 1503,
    "LANTPITESERS": 1503, "GLIRENATSRES": 1501, "NTLPEIAERSTR": 1500,
}  # fmt: skip


def test_committed_table_is_the_whole_3x4_proof(enable2k):
    """The committed table covers every canonical 3x4 class, and its boards are hybrid-boggle's, scored alike by
    our solver; the best is PERSLATESIND (DNISETALSREP), 1651."""
    from pipeline.boggle.rules import parse_board
    from pipeline.boggle.solver import score

    table = pt.read_table(COMMITTED)
    footer = last_footer(COMMITTED)
    assert footer["partial"] == "false" and footer["classes_done"] == footer["classes_total"] == "27135"
    space = ClassSpace(3, 4, default_partition(3, 4))
    assert sorted(table.rows["class"].to_list()) == space.canonical_ids().tolist()
    found = {
        b: s for boards, scores in table.rows.select("boards", "scores").iter_rows() for b, s in zip(boards, scores)
    }
    assert found == HYBRID_3X4_BOARDS
    assert max(found.items(), key=lambda kv: kv[1]) == ("DNISETALSREP", 1651)
    assert {b: score(parse_board(b, "3x4"), enable2k) for b in found} == HYBRID_3X4_BOARDS
