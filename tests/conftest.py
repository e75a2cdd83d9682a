"""Shared test helpers: the ../shared corpora (skipped when absent), the real CLI, and ad hoc lexicons."""

from __future__ import annotations

import contextlib
import functools
import os
import re
import secrets
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

# Ray reads its authentication mode once, when a process first imports it, and any test may be the first
# (under pytest-xdist a worker runs other modules' tests before the Ray ones): every test process uses Ray's
# token authentication, with a token of its own for the instances it starts itself. Commands run against a
# test cluster drop this token and find the cluster's own (tests/support/ray.py without_token).
os.environ.setdefault("RAY_AUTH_MODE", "token")
os.environ.setdefault("RAY_AUTH_TOKEN", secrets.token_hex(32))

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
CORPORA = SHARED / "corpora"
SMALL_CONFIG = ROOT / "tests" / "configs" / "small.toml"
DEFAULT_CONFIG = ROOT / "configs" / "default.toml"
ENABLE = ROOT / "data" / "raw" / "enable1.txt"


def corpus(relative: str) -> Path:
    """A file under ../shared/corpora, or skip the test cleanly when ../shared is absent."""
    path = CORPORA / relative
    if not path.is_file():
        pytest.skip(f"{path} not present (../shared is only on developer machines)")
    return path


def corpus_words(relative: str) -> list[str]:
    """The upper-case words of a corpus file, as Norvig reads them: set(text.upper().split())."""
    return sorted(set(corpus(relative).read_text().upper().split()))


def sample_words(path: Path, every: int, extra: tuple[str, ...] = ()) -> list[str]:
    """Every `every`-th word of a word list (plus `extra`), for a lexicon of a chosen size."""
    return sorted(set(path.read_text().split()[::every]) | set(extra))


@pytest.fixture(scope="session")
def enable_words() -> list[str]:
    """The ENABLE words, upper case."""
    return ENABLE.read_text().upper().split()


@pytest.fixture(scope="session")
def lexicon(enable_words):
    """The ENABLE lexicon (a module may define its own `lexicon`)."""
    from pipeline.scrabble.lexicon.words import Lexicon

    return Lexicon(enable_words)


@pytest.fixture(scope="session")
def scrabble():
    """The scrabble variant of the default config (a module may define its own `scrabble`)."""
    from pipeline.core.config import load_config
    from pipeline.scrabble.rules.variant import variants

    return variants(load_config(DEFAULT_CONFIG))["scrabble"]


class Result:
    """What one CLI call printed and returned."""

    def __init__(self, exit_code: int, stdout: str, stderr: str):
        self.exit_code, self.stdout, self.stderr = exit_code, stdout, stderr

    def __repr__(self) -> str:
        return f"Result(exit_code={self.exit_code}, stdout={self.stdout[:500]!r}, stderr={self.stderr[:500]!r})"


def run_cli(*args, env: dict | None = None, input: str | None = None) -> Result:
    """Call the real `wordstats` CLI in-process: run_cli("anagram", "RETAINS", "--data-dir", data); `input`
    is its standard input."""
    from pipeline.cli.app import app_for

    argv = [str(a) for a in args]
    res = CliRunner().invoke(
        app_for(argv), argv, input=input, env={"WORDSTATS_QUIET": "1", **(env or {})}, catch_exceptions=True
    )
    if res.exception is not None and not isinstance(res.exception, SystemExit):
        raise res.exception
    return Result(res.exit_code, res.stdout, res.stderr)


@pytest.fixture
def cli():
    """The real CLI in-process (run_cli): cli("anagram", "RETAINS", "--data-dir", data)."""
    return run_cli


def ask(cli, data: Path, *args, lexicon: str = "t") -> Result:
    """A query on a lexicon built into `data` with the small test config."""
    return cli(*args, "--lexicon", lexicon, "--data-dir", data, "--config", SMALL_CONFIG)


def build_lexicon(data: Path, words_or_path, *stages: str, lexicon: str = "t", config: Path = SMALL_CONFIG) -> Path:
    """Build stages (all when none are named) for an ad hoc word list (words, or a file) into the data
    folder `data`, through the real CLI; returns `data`."""
    if isinstance(words_or_path, (str, os.PathLike)):
        path = Path(words_or_path)
    else:
        path = data.parent / f"{lexicon}.txt"
        path.write_text("\n".join(words_or_path) + "\n")
    if not stages:  # every stage (run --source alone builds only the word-list stages)
        from pipeline.core.stages import STAGES

        stages = tuple(s.name for s in STAGES)
    with shared_leaves_fit():
        res = run_cli(
            "run", *stages, "--source", path, "--lexicon", lexicon, "--data-dir", data, "--config", config, "--quiet"
        )
    assert res.exit_code == 0, res
    return data


# The leaves stage's fit of a reference table, (summary, counts, prior weight, longest) -> values, made once per
# test process for the lexicons built by build_lexicon: it is a pure function of its arguments (its own tests call
# it directly: tests/test_leaves.py, tests/test_leaves_reference.py), and each fit of the default reference
# values all ~915k leaves (about 6 CPU-s).
_FITS: list[tuple[tuple, object]] = []


@contextlib.contextmanager
def shared_leaves_fit():
    """Within the block, the leaves stage fits each reference table once per process (later fits with equal
    arguments return the first one's table)."""
    from pipeline.scrabble.equity import stage

    fit = stage.leave_values

    def shared(summary, counts, prior_weight, *rest):
        for (s, c, w, r), values in _FITS:
            if (c, w, r) == (counts, prior_weight, rest) and s.equals(summary):
                return values
        values = fit(summary, counts, prior_weight, *rest)
        _FITS.append(((summary, dict(counts), prior_weight, rest), values))
        return values

    stage.leave_values = shared
    try:
        yield
    finally:
        stage.leave_values = fit


@pytest.fixture
def build(tmp_path):
    """build_lexicon into a temporary data folder: build(words_or_path, *stages, lexicon="t", config=...)."""
    return functools.partial(build_lexicon, tmp_path / "out")


def config_with(tmp_path: Path, old: str, new: str) -> Path:
    """The small test config with `old` (which must be in it or in the default config it extends) replaced by
    `new`, written to tmp_path; the paths it names stay valid."""
    path = tmp_path / "config.toml"
    path.write_text(SMALL_CONFIG.read_text().replace('"../../', f'"{ROOT}/'))
    edit_config(path, old, new)
    return path


def base_config(path: Path) -> Path | None:
    """The config a config extends (its `extends` field), or None."""
    import tomllib

    data = tomllib.loads(path.read_text())
    return path.parent / data["extends"] if "extends" in data else None


def edit_config(path: Path, old: str, new: str) -> None:
    """Replace `old` by `new` in a config file; when `old` is not in it but in a config it extends, the edited
    lines join the file under their table's header instead (an overlay overrides its base; the base is never
    touched)."""
    text = path.read_text()
    if old in text:
        path.write_text(text.replace(old, new, 1))
        return
    base = base_config(path)
    while base is not None and old not in base.read_text():
        base = base_config(base)
    assert base is not None, f"{old!r} is in neither {path} nor the configs it extends"
    source = base.read_text()
    at = source.index(old)
    start = source.rfind("\n", 0, at) + 1
    end = source.find("\n", at + len(old.rstrip("\n")))
    lines = source[start : len(source) if end < 0 else end].replace(old.rstrip("\n"), new.rstrip("\n"), 1)
    headers = re.findall(r"^\[[^\]\n]+\]$", source[:start], flags=re.M)
    header, body = (lines.partition("\n")[0], lines.partition("\n")[2]) if lines.startswith("[") else (None, lines)
    header = header or (headers[-1] if headers else None)
    path.write_text(with_lines(text, header, body))


def with_lines(text: str, header: str | None, body: str) -> str:
    """A config's text with `body` set under the table `header` (its own top level when None)."""
    if header is None:
        first = re.search(r"^\[", text, flags=re.M)
        at = first.start() if first else len(text)
        return text[:at] + body + "\n" + text[at:]
    found = re.search(rf"^{re.escape(header)}$", text, flags=re.M)
    if found is None:
        return text.rstrip("\n") + f"\n\n{header}\n{body}\n"
    return text[: found.end()] + "\n" + body + text[found.end() :]


@pytest.fixture
def word_file(tmp_path):
    """Write a word list file and return its path: word_file(["cat", "act"], name="tiny.txt")."""

    def make(words, name: str = "words.txt", encoding: str = "utf-8") -> Path:
        path = tmp_path / name
        path.write_bytes(("\n".join(words) + "\n").encode(encoding))
        return path

    return make


def project_copy(dest: Path) -> Path:
    """A copy of the project for a test that runs make or changes its modules' times (the checkout's own files
    are never touched): the Makefile, the build script, the package (with its bytecode and compiled extensions),
    the configs (the tests' too) and a link to data/raw, file times kept. Its code runs with this checkout's
    Python environment (run_make, project_env)."""
    dest.mkdir(parents=True)
    for name in ("Makefile", "pyproject.toml", "requirements.lock", "setup.py"):
        shutil.copy2(ROOT / name, dest / name)
    for name in ("pipeline", "configs", "tests/configs"):
        shutil.copytree(ROOT / name, dest / name, symlinks=True)
    (dest / "data").mkdir()
    (dest / "data" / "raw").symlink_to(ROOT / "data" / "raw")
    return dest


def project_env(project: Path) -> dict[str, str]:
    """The environment in which `python` and `wordstats` run a project copy's package instead of the checkout's."""
    return {**os.environ, "PYTHONPATH": str(project), "WORDSTATS_QUIET": "1"}


ENVIRONMENT_BUILDS = ("NATIVE_BUILT=", "BYTECODE=", "WARMED=")  # the checkout's, made by its `make install`


def run_make(project: Path, *args: str) -> subprocess.CompletedProcess:
    """Run make in a project copy with this checkout's Python environment, whose compiled extensions, bytecode
    and warm kernels (the copy's bytes are the checkout's) it leaves to the checkout: it builds the stages."""
    command = ["make", "--no-print-directory", "-C", str(project), *args, f"VENV={sys.prefix}", *ENVIRONMENT_BUILDS]
    return subprocess.run(command, capture_output=True, text=True, env=project_env(project))


RAY_LOCK_ENV = "WORDSTATS_TEST_RAY_LOCK"  # the file whose lock a test holds while it runs Ray


@pytest.fixture(autouse=True)
def one_ray_at_a_time(request):
    """Tests that start Ray (marked `ray`) run one after another, so that two Ray instances never share the
    machine (under `make test` one worker runs them all: pytest_xdist_make_scheduler; any other run still holds
    this lock)."""
    if request.node.get_closest_marker("ray") is None:
        yield
        return
    import fcntl

    with open(os.environ.get(RAY_LOCK_ENV) or Path(tempfile.gettempdir()) / "wordstats-ray.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def ray_files() -> frozenset[str]:
    """The test files with a test that starts Ray (marked `ray`), as pytest names them."""
    return frozenset(f"tests/{p.name}" for p in (ROOT / "tests").glob("test_*.py") if "mark.ray" in p.read_text())


# The files whose tests take longest after the Ray files' unit (`pytest --durations=0`, summed per file), started
# first so that neither worker is left alone with a long file at the end of a run.
LONGEST_FIRST = (
    "tests/test_web.py",
    "tests/test_make.py",
    "tests/test_classroom.py",
    "tests/test_docs.py",
    "tests/test_boggle_prove.py",
    "tests/test_teachers.py",
    "tests/test_sheets.py",
    "tests/test_playability.py",
    "tests/test_playability_reference.py",
    "tests/test_boggle_proof_table.py",
    "tests/test_leaves_reference.py",
    "tests/test_endgame.py",
    "tests/test_growing_tables.py",
    "tests/test_leaves.py",
    "tests/test_gallery.py",
    "tests/test_selfplay_endgame.py",
    "tests/test_report.py",
    "tests/test_hangman_optimal.py",
    "tests/test_print_layout.py",
)


def pytest_collection_modifyitems(config, items):
    """The Ray files' tests first, then the longest files', then the others, those with more tests first (a file's
    tests stay together and in order: pytest-xdist hands out files in this order, pytest_xdist_make_scheduler)."""
    together, rank = ray_files(), {name: i for i, name in enumerate(LONGEST_FIRST)}
    counts: dict[str, int] = {}
    for item in items:
        path = item.nodeid.split("::", 1)[0]
        counts[path] = counts.get(path, 0) + 1

    def first(item) -> tuple[int, int]:
        """Where the item's file goes: the Ray unit, a long file by its rank, or the rest by its number of tests."""
        path = item.nodeid.split("::", 1)[0]
        return (0, -1) if path in together else (0, rank[path]) if path in rank else (1, -counts[path])

    items.sort(key=first)


def pytest_xdist_make_scheduler(config, log):
    """pytest-xdist's `--dist loadfile` (a file's tests in one worker: its module fixtures built once), save that
    the files with tests that start Ray are one unit: one worker runs them one after another, and the other never
    waits for the Ray lock; the units go out in the collection's order, not re-sorted by their number of tests."""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    config.option.loadscopereorder = False  # hand files out in the collection's order (pytest_collection_modifyitems)

    together = ray_files()

    class RayFilesTogether(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            scope = super()._split_scope(nodeid)
            return "ray" if scope in together else scope

    return RayFilesTogether(config, log)


COMPILE_LOG_ENV = "WORDSTATS_COMPILE_LOG"  # pipeline.core.cache_units writes each kernel compile there


def pytest_configure(config):
    """The session's compile log: every process of the run (pytest-xdist's workers and the commands tests start
    inherit the environment) writes each numba compile of one of the package's kernels to it."""
    if not hasattr(config, "workerinput") and not os.environ.get(COMPILE_LOG_ENV):  # pytest-xdist's controller
        folder = Path(tempfile.mkdtemp(prefix="wordstats-tests-"))
        os.environ[COMPILE_LOG_ENV] = str(folder / "compiles.log")
        os.environ[RAY_LOCK_ENV] = str(folder / "ray.lock")


@pytest.fixture(autouse=True)
def numba_reference(request, monkeypatch):
    """A test marked `numba_reference` calls numba kernels directly, as the reference a compiled extension is
    checked against (entry points no command calls): their compiles are not a user's, and go unlogged."""
    if request.node.get_closest_marker("numba_reference") is not None:
        monkeypatch.delenv(COMPILE_LOG_ENV, raising=False)


STRICT_COMPILES_ENV = "WORDSTATS_STRICT_COMPILES"  # 1: a run that compiled a kernel fails


def pytest_sessionfinish(session, exitstatus):
    """`make install` compiled the kernels the commands reach (pipeline.core.warm): the run lists every kernel it
    compiled again, which a user's first call would wait for too, with the test that compiled it, and fails for it
    under WORDSTATS_STRICT_COMPILES=1 (as `make test` runs it)."""
    log = Path(os.environ.get(COMPILE_LOG_ENV, ""))
    if hasattr(session.config, "workerinput") or not log.is_file():
        return
    first_test: dict[str, str] = {}
    for line in log.read_text(encoding="utf-8").splitlines():
        kernel, _, test = line.partition(" ")[2].partition("\t")
        if kernel:
            first_test.setdefault(kernel, test)
    compiled = [f"{test or 'a command'}: {kernel}" for kernel, test in sorted(first_test.items())]
    if compiled:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        lines = [f"{len(compiled)} kernels compiled during the tests (not by `make install`'s warm-up):", *compiled]
        if reporter is not None:
            reporter.write_line("\n".join(line[:200] for line in lines[:60]), yellow=True)
        if os.environ.get(STRICT_COMPILES_ENV) == "1":
            session.exitstatus = pytest.ExitCode.TESTS_FAILED


def special_file(path: Path, kind: str) -> Path:
    """`path` made a file that is not a regular one: a named pipe ("fifo"), a link to /dev/zero ("device") or a
    folder ("folder")."""
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "device":
        path.symlink_to("/dev/zero")
    else:
        path.mkdir()
    return path


@pytest.fixture(scope="module")
def browser():
    """Headless Chromium (Debian's) driven by Playwright (the teacher's page, printed sheets)."""
    from tests.support.web import CHROMIUM, LAUNCH_ARGS

    if CHROMIUM is None:
        pytest.skip("chromium not installed")
    playwright = pytest.importorskip("playwright.sync_api")
    with playwright.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        yield b
        b.close()
