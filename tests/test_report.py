"""The report: builds on a small lexicon, embeds every image, and every number matches a query on the tables."""

from __future__ import annotations

import base64
import json
import math
import re
import struct
import subprocess
from collections import Counter, defaultdict
from html.parser import HTMLParser

import polars as pl
import pytest

from pipeline.core.stages import STAGES
from pipeline.report.html import fmt
from tests.conftest import DEFAULT_CONFIG, ROOT, SMALL_CONFIG, build_lexicon, run_cli, sample_words

MOBY = ROOT / "data" / "raw" / "moby-words.txt"
SECTIONS = ("overview", "words", "anagrams", "stems", "boggle", "boggle_words", "hangman", "openings")


class Page(HTMLParser):
    """What the tests read from the report: numbers with data attributes, images, sections, the JSON."""

    def __init__(self, text: str):
        super().__init__()
        self.numbers, self.images, self.sections, self.links = [], [], [], []
        self._open, self._script, self.data = None, False, None
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "data-value" in a:
            self._open = {**a, "text": ""}
        if tag == "img":
            self.images.append(a)
        if tag == "section":
            self.sections.append(a.get("id"))
        if tag in ("link", "script", "iframe") and ("href" in a or "src" in a):
            self.links.append(a)
        if tag == "script" and a.get("id") == "report-data":
            self._script = True

    def handle_data(self, data):
        if self._open is not None:
            self._open["text"] += data
        if self._script:
            self.data = json.loads(data)

    def handle_endtag(self, tag):
        if self._open is not None and tag in ("td", "span"):
            self.numbers.append(self._open)
            self._open = None
        self._script = False


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """A lexicon of every 8th Moby word with every stage built, the report last."""
    return build_lexicon(tmp_path_factory.mktemp("report") / "out", sample_words(MOBY, 8), lexicon="r")


@pytest.fixture(scope="module")
def page(built):
    """The built report, parsed."""
    return Page((built / "r" / "report.html").read_text(encoding="utf-8"))


def tables(built) -> dict[str, pl.DataFrame]:
    """Every Parquet table of the built lexicon, by name."""
    return {p.stem: pl.read_parquet(p) for p in (built / "r").glob("*.parquet")}


@pytest.mark.slow
def test_every_section_is_there(page):
    assert page.sections == list(SECTIONS)
    assert page.data["left_out"] == {}
    assert set(page.data["sections"]) == set(SECTIONS)


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


@pytest.mark.slow
def test_every_image_is_embedded_and_not_empty(page, built):
    html_text = (built / "r" / "report.html").read_text()
    # lengths, family sizes, 6- and 7-letter stems, Boggle scores, findable, Hangman misses, greedy against optimal
    # and the hardest words by three measures, openings
    assert len(page.images) == 10
    for img in page.images:
        assert img["src"].startswith("data:image/png;base64,")
        data = base64.b64decode(img["src"].split(",", 1)[1], validate=True)
        width, height = png_size(data)
        assert len(data) > 2000 and width >= 300 and height >= 100
        assert img["alt"]
    assert page.links == []  # opens offline: no external scripts, styles or frames
    assert not re.search(r"""(src|href)=["']?(https?:|//)""", html_text) and "url(" not in html_text


@pytest.mark.slow
def test_every_number_shown_is_a_query_result(page):
    assert len(page.numbers) > 100
    for n in page.numbers:
        section, part = n["data-ref"].split(".")
        result = page.data["sections"][section]["parts"][part]
        value = result["rows"][int(n["data-row"])][result["columns"].index(n["data-column"])]
        assert repr(value) == n["data-value"]
        assert n["text"] == fmt(value)


def duckdb_rows(built, sql: str) -> list[list]:
    """The rows of `sql` run by DuckDB (a second engine) over the Parquet files."""
    duckdb = pytest.importorskip("duckdb")
    con = duckdb.connect()
    for path in (built / "r").glob("*.parquet"):
        con.execute(f"CREATE VIEW {path.stem} AS SELECT * FROM read_parquet('{path}')")
    return [list(r) for r in con.execute(sql).fetchall()]


def same(a, b) -> bool:
    """Equal values, floats to within rounding noise."""
    if isinstance(a, float) or isinstance(b, float):
        return a is not None and b is not None and math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b


@pytest.mark.slow
def test_every_query_reproduces_its_numbers_in_duckdb(page, built):
    checked = 0
    for section in page.data["sections"].values():
        for part in section["parts"].values():
            rows = duckdb_rows(built, part["sql"])
            assert len(rows) == len(part["rows"]), part["sql"]
            for got, shown in zip(rows, part["rows"]):
                assert same(got, shown), (part["sql"], got, shown)
            checked += 1
    assert checked >= 18


@pytest.mark.slow
def test_key_numbers_match_a_plain_python_count(page, built):
    t = tables(built)
    s = page.data["sections"]
    words = t["words"].rows(named=True)
    lengths = Counter(r["length"] for r in words)
    common = Counter(r["length"] for r in words if r["zipf"] >= 3.0)
    assert s["words"]["parts"]["summary"]["rows"] == [
        [len(words), round(sum(r["length"] for r in words) / len(words), 2), max(lengths), sum(common.values())]
    ]
    assert s["words"]["parts"]["lengths"]["rows"] == [[n, lengths[n], common[n]] for n in sorted(lengths)]

    families = defaultdict(set)
    for r in words:
        families["".join(sorted(r["word"]))].add(r["word"])
    sizes = Counter(len(f) for f in families.values())
    assert s["anagrams"]["parts"]["sizes"]["rows"] == [[k, sizes[k]] for k in sorted(sizes)]
    assert s["anagrams"]["parts"]["summary"]["rows"][0][:2] == [
        len(families),
        sum(len(f) >= 2 for f in families.values()),
    ]

    misses = defaultdict(list)
    for r in t["hangman"].rows(named=True):
        misses[r["length"]].append(r["misses"])
    for length, n, mean, most, share in s["hangman"]["parts"]["by_length"]["rows"]:
        m = misses[length]
        assert n == len(m) and most == max(m) and math.isclose(mean, round(sum(m) / len(m), 2))
        assert math.isclose(share, round(sum(x <= 6 for x in m) / len(m), 4))
    optimal = defaultdict(list)
    for r in t["hangman"].rows(named=True):
        optimal[r["length"]].append(r["optimal_misses"])
    for length, n, greedy, best, proved in s["hangman"]["parts"]["optimal"]["rows"]:
        o = [x for x in optimal[length] if x is not None]
        assert (
            n == len(optimal[length]) and proved == len(o) and math.isclose(greedy, round(sum(misses[length]) / n, 4))
        )
        assert (best is None and not o) or (len(o) == n and math.isclose(best, round(sum(o) / n, 4)) and best <= greedy)
    words = defaultdict(list)
    for r in t["hangman"].rows(named=True):
        words[r["length"]].append(r)
    for length, opt, opt_word, opt_n, fair, fair_word, fair_n, most, most_word, most_n in s["hangman"]["parts"][
        "hardest_by_measure"
    ]["rows"]:  # each measure's hardest word of the length, checked row by row
        rows = words[length]
        for key, top, first, count in (("optimal_misses", opt, opt_word, opt_n), ("misses", most, most_word, most_n)):
            values = [r[key] for r in rows if r[key] is not None]
            at_top = sorted(r["word"] for r in rows if values and r[key] == max(values))
            assert (top, first, count) == ((max(values), at_top[0], len(at_top)) if values else (None, None, 0))
        fair_top = max(r["expected_misses"] for r in rows)
        at_fair = sorted(r["word"] for r in rows if r["expected_misses"] == fair_top)
        assert math.isclose(fair, round(fair_top, 3)) and (fair_word, fair_n) == (at_fair[0], len(at_fair))

    scores = defaultdict(list)
    for r in t["boggle_boards"].rows(named=True):
        scores[r["dice"]].append(r["score"])
    for dice, boards, mean, _median, best, *_ in s["boggle"]["parts"]["summary"]["rows"]:
        assert boards == len(scores[dice]) and best == max(scores[dice])
        assert math.isclose(mean, round(sum(scores[dice]) / boards, 1))
    histogram = s["boggle"]["parts"]["histogram"]["rows"]
    assert sum(n for _, _, n in histogram) == sum(map(len, scores.values()))


def test_sections_for_missing_tables_are_left_out(build, cli):
    data = build(["cat", "act", "dog", "god", "tac", "retains", "nastier"], "ingest", "report")
    text = (data / "t" / "report.html").read_text()
    page = Page(text)
    assert page.sections == ["overview", "words", "left-out"]
    assert set(page.data["left_out"]) == {"anagrams", "stems", "boggle", "boggle_words", "hangman", "openings"}
    assert len(page.images) == 1 and base64.b64decode(page.images[0]["src"].split(",", 1)[1])[:4] == b"\x89PNG"
    assert page.data["sections"]["words"]["parts"]["summary"]["rows"][0][0] == 7


def test_a_table_without_its_columns_stops_the_report_naming_its_rebuild(build, cli):
    """A table that is not what its stage writes (damaged, or from an older version) is never read in part:
    the report says which file and which command rebuilds it, and writes nothing."""
    data = build(["cat", "act", "dog"], "ingest")
    pl.DataFrame({"word": ["CAT", "ACT", "DOG"]}).write_parquet(data / "t" / "hangman.parquet")
    res = cli("run", "report", "--lexicon", "t", "--data-dir", data, "--config", SMALL_CONFIG, "--quiet")
    assert res.exit_code == 2, res
    assert "hangman.parquet" in res.stderr and "`wordstats run hangman --lexicon t`" in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1
    assert not (data / "t" / "report.html").exists()


@pytest.mark.slow
def test_report_is_byte_identical_when_rebuilt(built):
    path = built / "r" / "report.html"
    first = path.read_bytes()
    res = run_cli("run", "report", "--lexicon", "r", "--data-dir", built, "--config", SMALL_CONFIG, "--quiet")
    assert res.exit_code == 0, res
    assert path.read_bytes() == first
    assert not re.search(rb"\d{4}-\d\d-\d\d[T ]\d\d:\d\d", first)  # no timestamps
    assert b"Software" not in first


@pytest.mark.slow
def test_report_stage_is_last_and_reads_every_table(page):
    last = STAGES[-1]
    assert last.name == "report" and last.inputs == ("words",) and last.outputs == ("report.html",)
    # the registry's optional inputs are exactly the tables the page's sections show
    shown = {s["table"].removesuffix(".parquet") for s in page.data["sections"].values()} - {"words", "every table"}
    assert set(last.optional_inputs) == shown


@pytest.mark.slow
def test_make_report_target_builds_report_html_of_each_lexicon(tmp_path):
    out = subprocess.run(["make", "-n", "report", f"OUT={tmp_path}"], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "--lexicon moby report" in out.stdout and "--lexicon web2 report" in out.stdout
    everything = subprocess.run(["make", "-n", "all", f"OUT={tmp_path}"], cwd=ROOT, capture_output=True, text=True)
    assert "--lexicon moby report" in everything.stdout


def test_the_hangman_section_measures_against_the_configured_gallows():
    """[hangman] gallows is what the report counts against (a classic gallows allows six; a class may allow 8)."""
    from pipeline.core.config import load_config
    from pipeline.report.stage import params, sections

    h = pl.DataFrame({"word": ["CAT", "DOG", "ZZZ"], "length": [3] * 3, "misses": [2, 7, 9], "guesses": [5, 9, 12]})
    h = h.with_columns(sequence=pl.lit("E"), expected_misses=pl.Series([2.5, 6.0, 9.5]))
    assert params(load_config(DEFAULT_CONFIG), None)["gallows"] == 6
    done, _ = sections({"hangman": h}, {"dpi": 50, "top": 5, "common_zipf": 3.0, "bins": 10, "gallows": 8})
    results = [part.result.to_dicts() for s in done for part in s.parts if "hangman" in s.title.lower()]
    assert results[0] == [
        {"words": 3, "mean_misses": 6.0, "mean_expected_misses": 6.0, "most_misses": 9, "solved_within_8_misses": 2}
    ]
    assert results[1][0]["share_within_8"] == 0.6667
