"""The teacher's page (`wordstats serve`), a real server on loopback: the same lists as the CLI, bad requests
refused with a sentence, the data folder never written, answers while a build commits, 20 clients at once,
and, in real Chromium, a teacher's walk through it with an accessibility check of every page."""

from __future__ import annotations

import concurrent.futures
import html
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import DEFAULT_CONFIG, ROOT, run_cli
from tests.support.web import WIDTHS, get, page_data_fixture, server_fixture  # noqa: F401  (the data and server fixtures)

pytestmark = pytest.mark.slow  # real servers, browsers or make runs

AXE = ROOT / "tests" / "vendor" / "axe-core" / "axe.min.js"


def page_words(html: bytes) -> list[str]:
    """The words of a list page, in order."""
    return re.findall(r'<span class="word">([^<]+)</span>', html.decode())


def cli_words(data: Path, *args: str) -> list[str]:
    """The words the CLI lists for the same options, as a printed sheet picks them (its Markdown)."""
    out = data.parent / f"cli-{abs(hash(args))}.md"
    res = run_cli("wordlist", *args, "--out", out, "--force", "--data-dir", data, "--config", DEFAULT_CONFIG)
    assert res.exit_code == 0, res
    text = out.read_text()
    teacher = text.split("\n## ", 2)[-1]
    return [
        line.split(". ", 1)[1].split(" (also right")[0] for line in teacher.splitlines() if re.match(r"^\d+\. ", line)
    ]


# ---- the same lists as the CLI -------------------------------------------------------------------------------

CASES = [
    ("preset=spelling-2", ("--preset", "spelling-2")),
    ("preset=phase-3&seed=4", ("--preset", "phase-3", "--seed", "4")),
    ("preset=word-search&count=8&seed=2", ("--preset", "word-search", "--sample", "8", "--seed", "2")),
    ("preset=scramble&seed=3", ("--preset", "scramble", "--seed", "3")),
    ("grade=2&phonics=digraphs&count=10", ("--grade", "2", "--phonics", "digraphs", "--sample", "10", "--seed", "1")),
    ("preset=blends&swap=blind", ("--preset", "blends", "--swap", "blind")),
    ("preset=Spelling-K2&seed=1", ("--preset", "Spelling-K2", "--seed", "1")),  # names in any case, as the CLI
    ("dolch=PRIMER&spelling=UK&count=8", ("--dolch", "primer", "--spelling", "uk", "--sample", "8", "--seed", "1")),
]


@pytest.mark.parametrize("query, args", CASES)
def test_the_page_lists_what_the_cli_lists(server, data, query, args):
    """Each list of the page is the CLI's list for the same options."""
    status, _, body = get(server, "/list?" + query)
    assert status == 200, body[:300]
    assert page_words(body) == cli_words(data, *args)


def test_the_pdf_download_holds_the_cli_words(server, data, tmp_path):
    """The downloaded PDF's answer key lists the CLI's words."""
    if shutil.which("pdftotext") is None:
        pytest.skip("poppler-utils not installed")
    status, kind, body = get(server, "/sheet.pdf?preset=word-search&seed=5")
    assert status == 200 and kind == "application/pdf" and body.startswith(b"%PDF")
    (tmp_path / "s.pdf").write_bytes(body)
    text = subprocess.run(["pdftotext", str(tmp_path / "s.pdf"), "-"], capture_output=True, text=True).stdout
    for word in cli_words(data, "--preset", "word-search", "--seed", "5"):
        assert re.search(rf"\b{word}\b", text), word


def test_the_gallery_groups_every_preset(server):
    """The gallery shows every preset in its group, and a preview of each preset's words is there."""
    from pipeline.core.config import load_config
    from pipeline.wordlists.settings import load_settings

    settings = load_settings(load_config(DEFAULT_CONFIG))
    status, _, body = get(server, "/")
    html = body.decode()
    assert status == 200 and '<html lang="en">' in html
    for title, names in settings.gallery:
        assert f">{title}</h2>" in html.replace("&#39;", "'")
        for name in names:
            assert f'href="/list?preset={name}"' in html
    status, _, body = get(server, "/preview?preset=spelling-2")
    assert status == 200 and len(json.loads(body)["words"]) == 8


def test_a_list_without_words_keeps_the_form(server):
    """No word matches: the list page keeps the form and says which of its choices to loosen (no error page); the
    sheet's preview frame says why in a sentence, not a page inside the page."""
    status, _, body = get(server, "/list?preset=phase-2&starts_with=qqx")
    html = body.decode()
    assert status == 200 and '<form class="choices"' in html and "No list yet" in html
    assert "“Starts with”" in html and "<iframe" not in html and "Sorry" not in html
    status, _, body = get(server, "/sheet.html?preset=phase-2&starts_with=qqx")
    html = body.decode()
    assert status == 404 and "This sheet cannot be made: no words match" in html and "<header" not in html


def test_a_sheet_titled_in_another_script_downloads_or_says_why(server):
    """A title in Greek downloads (an ASCII file name and the title's own, RFC 6266); one in a script the font
    lacks is refused with a sentence naming the field, never a 500."""
    status, _, body = get(server, "/sheet.pdf?preset=spelling-2&title=" + urllib.parse.quote("Λέξεις μας"))
    assert status == 200 and body.startswith(b"%PDF")
    request = urllib.request.Request(server + "/sheet.pdf?preset=spelling-2&title=" + urllib.parse.quote("Λέξεις"))
    with urllib.request.urlopen(request, timeout=120) as r:
        disposition = r.headers["Content-Disposition"]
    assert 'filename="sheet.pdf"' in disposition and "filename*=UTF-8''%CE%9B" in disposition
    status, _, body = get(server, "/sheet.pdf?preset=spelling-2&title=" + urllib.parse.quote("詞語"))
    assert status == 422 and "“Title”: the font DejaVu Sans has no letters" in body.decode()


def test_the_page_has_an_icon(server):
    """The page names its icon, and answers where browsers look for one first."""
    assert 'rel="icon" href="/static/favicon.svg"' in get(server, "/")[2].decode()
    for path in ("/favicon.ico", "/static/favicon.svg"):
        status, kind, body = get(server, path)
        assert status == 200 and kind.startswith("image/svg+xml") and body.startswith(b"<svg")


# ---- bad requests: a 4xx and a sentence ----------------------------------------------------------------------

BAD = [
    ("/no-such-page", 404, "there is no such page"),
    ("/static/../../pipeline/web/app.py", 404, "no such page"),
    ("/static/%2e%2e/app.py", 404, "no such page"),
    ("/list?count=99999999999", 400, "How many words"),
    ("/list?count=abc", 400, "is not a number"),
    ("/list?count=500", 400, "at most 200"),
    ("/list?seed=-1", 400, "Set number"),
    ("/list?grade=9", 400, "Grade"),
    ("/list?phonics=nonsense", 400, "Phonics pattern"),
    ("/list?bogus=1", 400, "unknown field"),
    ("/list?preset=no-such-preset", 400, "unknown preset"),
    ("/list?preset=%00%ff", 400, "unknown preset"),
    ("/list?length=" + "9" * 300, 400, "at most 200 characters"),
    ("/list?" + "a=1&" * 2000, 400, "too long"),
    ("/list?lexicon=..", 400, "unknown lexicon"),
    ("/list?lexicon=.hidden", 400, "unknown lexicon"),
    ("/sheet.exe?preset=spelling-2", 404, "sheet.html or sheet.pdf"),
    ("/lookup?word=r3t", 422, "letters"),
    ("/lookup?word=" + "a" * 40, 422, "at most 15 letters"),
    ("/lookup?word=cat&lexicon=../../etc", 400, "unknown lexicon"),
    ("/preview?preset=nope", 400, "unknown preset"),
]


@pytest.mark.parametrize("path, status, sentence", BAD)
def test_bad_requests_get_a_sentence(server, path, status, sentence):
    """Each bad request is refused with its status and a sentence, never a traceback."""
    code, kind, body = get(server, path)
    html = body.decode()
    assert code == status, html[:300]
    assert kind.startswith("text/html") and "Sorry:" in html and sentence in html
    assert "Traceback" not in html


def test_bodies_and_other_methods_are_refused(server):
    """The page only reads: POST is 405, a GET with a body 413, with a sentence."""
    code, _, body = get(server, "/list", method="POST", body=b"x=1")
    assert code == 405 and b"only answers GET" in body
    code, _, body = get(server, "/list", method="GET", body=b"x" * 10)
    assert code == 413 and b"reads no request body" in body


def test_the_server_listens_on_loopback_only(server):
    """By default the page is reachable on 127.0.0.1 alone."""
    port = int(server.rsplit(":", 1)[1])
    out = subprocess.run(["ss", "-ltn"], capture_output=True, text=True).stdout if shutil.which("ss") else ""
    listening = [line for line in out.splitlines() if f":{port} " in line]
    assert all("127.0.0.1:" in line for line in listening)


def test_serve_refuses_a_wildcard_host_and_a_port_in_use_in_one_line(server, data):
    """An empty or wildcard host, or the port of a running page, is one line and exit 2 before anything else."""
    port = server.rsplit(":", 1)[1]
    common = ("--data-dir", data, "--config", DEFAULT_CONFIG)
    res = run_cli("serve", "--port", port, *common)
    assert res.exit_code == 2 and f"127.0.0.1:{port} is in use" in res.stderr, res
    assert "the teacher's page" not in res.stderr and len(res.stderr.strip().splitlines()) == 1
    for host in ("", "*"):
        res = run_cli("serve", "--host", host, "--port", port, *common)
        assert res.exit_code == 2 and "give an address" in res.stderr, res


def test_a_request_naming_another_host_is_refused(server):
    """A Host header that is not the page's (DNS rebinding) is refused with a sentence."""
    request = urllib.request.Request(server + "/list?preset=spelling-2", headers={"Host": "rebind.example:80"})
    try:
        urllib.request.urlopen(request, timeout=60)
        raise AssertionError("answered")
    except urllib.error.HTTPError as exc:
        assert exc.code == 400 and b"answers only at the address it was started on" in exc.read()
    assert get(server, "/")[0] == 200


def test_serve_warns_when_bound_elsewhere(data):
    """--host other than loopback warns in a line before serving (checked with an impossible port)."""
    res = run_cli("serve", "--host", "0.0.0.0", "--port", "0", "--data-dir", data, "--config", DEFAULT_CONFIG)
    assert res.exit_code == 2  # port 0 is refused by the option's range


# ---- the data folder, locks, load ----------------------------------------------------------------------------


def snapshot(folder: Path) -> dict[str, tuple[int, int]]:
    """Every file under a folder with its size and time."""
    return {
        str(p.relative_to(folder)): (p.stat().st_size, p.stat().st_mtime_ns) for p in folder.rglob("*") if p.is_file()
    }


def test_the_page_never_writes_into_the_data_folder(server, data):
    """Pages, sheets and look-ups leave the data folder exactly as it was."""
    before = snapshot(data)
    for path in ("/", "/list?preset=spelling-3", "/sheet.pdf?preset=handwriting", "/sheet.html?preset=scramble",
                 "/lookup?word=cat", "/preview?preset=cvc-a"):  # fmt: skip
        assert get(server, path)[0] == 200
    assert snapshot(data) == before


def test_twenty_clients_at_once_get_correct_pages(server, data):
    """20 concurrent clients, each its own list: every answer is 200 and the CLI's words."""
    expected = {seed: cli_words(data, "--preset", "spelling-2", "--seed", str(seed)) for seed in range(20)}

    def fetch(seed: int) -> tuple[int, list[str]]:
        """One client's list."""
        code, _, body = get(server, f"/list?preset=spelling-2&seed={seed}")
        return code, page_words(body)

    with concurrent.futures.ThreadPoolExecutor(20) as pool:
        results = list(pool.map(fetch, range(20)))
    assert [code for code, _ in results] == [200] * 20
    assert [words for _, words in results] == [expected[s] for s in range(20)]


@pytest.mark.slow
def test_the_page_answers_while_a_build_commits(server, data):
    """While the phonics stage is rebuilt and commits, every page request is answered."""
    stop = threading.Event()
    codes: list[int] = []

    def ask() -> None:
        """Ask for lists until the build is done."""
        while not stop.is_set():
            codes.append(get(server, "/list?preset=phase-2&seed=" + str(len(codes)))[0])

    asker = threading.Thread(target=ask)
    asker.start()
    try:
        args = ["run", "phonics", "--lexicon", "scowl", "--data-dir", str(data), "--config", str(DEFAULT_CONFIG)]
        done = subprocess.run(
            [sys.executable, "-m", "pipeline", *args],
            capture_output=True,
            text=True,
            env={**os.environ, "WORDSTATS_QUIET": "1"},
        )
        assert done.returncode == 0, done.stderr
    finally:
        stop.set()
        asker.join()
    assert len(codes) >= 2 and set(codes) == {200}


# ---- in a real browser ---------------------------------------------------------------------------------------


def accessibility_violations(page) -> list[str]:
    """axe-core's WCAG 2 A and AA violations on the page (axe from the vendored copy)."""
    page.add_script_tag(path=str(AXE))
    found = page.evaluate("axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa']}})")
    return [f"{v['id']}: {v['help']} ({len(v['nodes'])})" for v in found["violations"]]


@pytest.mark.slow
def test_a_teacher_walks_through_in_chromium(server, data, browser, tmp_path):
    """Open the gallery, pick a preset, change a field, get new words, swap one, download the PDF (its words
    are the CLI's), print the sheet to PDF; every page passes axe-core and is shown at laptop and phone
    widths (screenshots in the test's folder)."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(server + "/")
    page.wait_for_function("document.querySelectorAll('p.preview:empty').length === 0", timeout=60_000)
    assert accessibility_violations(page) == []
    page.click("a[href='/list?preset=spelling-2']")
    page.wait_for_selector("ol.wordlist")
    first = page.locator("span.word").all_inner_texts()
    assert first == cli_words(data, "--preset", "spelling-2")
    assert accessibility_violations(page) == []
    page.select_option("#f-sheet", "scramble")
    page.click("button[type=submit]")
    page.wait_for_selector("ol.wordlist")
    assert "sheet=scramble" in page.url
    assert page.locator("#sheet-heading").inner_text().startswith("The sheet: unscramble the words")
    assert page.locator("p.set").inner_text().startswith("Set 1:")
    page.click("p.actions a.button:text-is('Another set')")
    page.wait_for_selector("ol.wordlist")
    renewed = page.locator("span.word").all_inner_texts()
    assert renewed != first and "seed=2" in page.url and page.locator("p.set").inner_text().startswith("Set 2:")
    gone = renewed[0]
    page.click(f"a[aria-label='Swap out {gone}']")
    page.wait_for_selector("ol.wordlist")
    swapped = page.locator("span.word").all_inner_texts()
    assert gone not in swapped and len(set(swapped) & set(renewed)) == len(renewed) - 1
    with page.expect_download() as download:
        page.click("a.button[href^='/sheet.pdf']")
    pdf = tmp_path / "sheet.pdf"
    download.value.save_as(pdf)
    assert pdf.read_bytes().startswith(b"%PDF")
    if shutil.which("pdftotext"):
        text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True).stdout
        assert all(re.search(rf"\b{w}\b", text) for w in swapped)
    sheet = browser.new_page()
    sheet.goto(server + "/sheet.html?" + page.url.split("?", 1)[1])
    printed = sheet.pdf(format="Letter")
    assert printed.startswith(b"%PDF") and len(printed) > 10_000
    page.goto(server + "/lookup?word=stain")
    assert accessibility_violations(page) == []
    for name, (width, height) in WIDTHS.items():
        view = browser.new_page(viewport={"width": width, "height": height})
        for label, path in (("gallery", "/"), ("list", "/list?preset=word-search"), ("lookup", "/lookup?word=stain")):
            view.goto(server + path)
            shot = tmp_path / f"{label}-{name}.png"
            view.screenshot(path=str(shot))
            assert shot.stat().st_size > 10_000
        view.close()


FORM_URLS = """[...document.forms].flatMap(f => [...f.querySelectorAll('button[type=submit], input[type=submit]')]
  .map(b => (f.getAttribute('action') || location.pathname) + '?' + new URLSearchParams(new FormData(f, b))))"""


def link_kind(href: str) -> tuple[str, tuple[str, ...]]:
    """A link's kind: its path and the names of its query's fields (a page's links of one kind do the same)."""
    parts = urllib.parse.urlsplit(href)
    return parts.path, tuple(sorted({name for name, _ in urllib.parse.parse_qsl(parts.query)}))


@pytest.mark.slow
def test_every_link_and_button_of_every_page_answers(server, browser):
    """From the gallery on, every link and every form button of every page the site reaches answers without an
    error (each kind of link once: a path with the same fields), sheets and downloads included."""
    page = browser.new_page()
    seen: set[tuple[str, tuple[str, ...]]] = set()
    queue, failures, pages = ["/"], [], 0
    while queue:
        href = queue.pop(0)
        if link_kind(href) in seen:
            continue
        seen.add(link_kind(href))
        answer = page.request.get(server + href)
        if answer.status >= 400:
            failures.append(f"{href}: {answer.status} {answer.text()[:200]}")
            continue
        html = answer.headers.get("content-type", "").startswith("text/html")
        if not html or "attachment" in answer.headers.get("content-disposition", ""):
            continue
        page.goto(server + href)
        pages += 1
        links = page.eval_on_selector_all("a[href]", "els => els.map(e => e.getAttribute('href'))")
        queue += [h for h in [*links, *page.evaluate(FORM_URLS)] if h.startswith("/")]
    gallery = [h for h in page.request.get(server + "/").text().split('href="')[1:]]
    for href in {h.split('"', 1)[0].replace("&amp;", "&") for h in gallery if h.startswith("/list?")}:
        status = page.request.get(server + href).status
        if status >= 400:
            failures.append(f"{href}: {status}")
    assert failures == [] and pages >= 5, failures
    assert ("/list", ()) in seen and any(path == "/sheet.html" and "download" in names for path, names in seen)


SELECT_URLS = """[...document.forms].flatMap(f => [...f.querySelectorAll('select')].flatMap(sel =>
  [...sel.options].map(o => {
    const data = new FormData(f, f.querySelector('button[type=submit], input[type=submit]'));
    data.set(sel.name, o.value);
    return [sel.name, o.value, (f.getAttribute('action') || location.pathname) + '?' + new URLSearchParams(data)];
  })))"""


@pytest.mark.slow
def test_every_choice_of_every_select_answers(server, browser):
    """Each choice of each select of the list form (sheet kind, paper, font, grade, phase...; of a select of more
    than six, six spread over it) gives a page, and the sheet's HTML preview made with it answers too, and its PDF
    for each paper: a choice a teacher picks is no bad input."""
    page = browser.new_page()
    page.goto(server + "/list?preset=word-search")
    choices = page.evaluate(SELECT_URLS)
    names = {name for name, _, _ in choices}
    assert {"sheet", "paper", "font", "grade"} <= names and len(choices) > 40, sorted(names)
    assert ("sort", "playability") not in {(n, v) for n, v, _ in choices}  # the teacher lexicon has no such table
    by_select: dict[str, list] = {}
    for choice in choices:
        by_select.setdefault(choice[0], []).append(choice)
    picked = []  # every choice of a short select; of a long one (sounds, grades), 6 spread from first to last
    for options in by_select.values():
        step = max(1, -(-(len(options) - 1) // 5))
        picked += options[::step] + ([options[-1]] if (len(options) - 1) % step else [])
    asked = []
    for name, value, href in picked:
        asked.append((f"{name}={value}", href))
        if name in ("sheet", "paper", "font"):
            query = href.split("?", 1)[1]
            asked += [(f"{name}={value}", f"/sheet.html?{query}")]
            asked += [(f"{name}={value}", f"/sheet.pdf?{query}")] if name == "paper" else []
    with concurrent.futures.ThreadPoolExecutor(4) as pool:  # as a few teachers at once: the server answers each
        answers = list(pool.map(lambda a: (a, get(server, a[1])), asked))
    failures = [
        f"{choice}: {url}: {status} {body[:160]!r}" for (choice, url), (status, _, body) in answers if status >= 400
    ]
    assert failures == [], failures


CLI_WORDS = re.compile(r"--[a-z]|\bZipf\b|\bseed\b|ARPAbet|\bScrabble\b|\b(?:AE|AH|DH|JH|ZH|HH)\b")


def shown_text(html: bytes) -> str:
    """The text a page shows (its tags, attributes and styles left out)."""
    text = re.sub(r"<(script|style)\b.*?</\1>", " ", html.decode(), flags=re.S)
    return re.sub(r"<[^>]+>", " ", text)


@pytest.mark.slow
@pytest.mark.parametrize(
    "path",
    [
        "/list?preset=spelling-2",
        "/list",
        "/list?preset=phase-2&starts_with=qqx",
        "/list?count=500",
        "/list?sound=AE",
        "/list?preset=Spelling-K2",
    ],
)
def test_the_page_speaks_a_teachers_words(server, path):
    """No label, help, choice or refusal of the list page speaks the command line's or the games' words: no
    option names, no Zipf, seeds or sound codes (an empty result names the form's own fields)."""
    status, _, body = get(server, path)
    assert status in (200, 400, 404), (path, status)
    found = CLI_WORDS.findall(shown_text(body))
    assert found == [], (path, found)


@pytest.mark.slow
@pytest.mark.parametrize(
    "path, label",
    [
        ("/list?grade=9", "“Grade” '9'"),
        ("/list?contains=q1", "“Contains” 'q1'"),
        ("/list?vowel=y", "“Vowel sound” 'y'"),
    ],
)
def test_a_refused_value_names_its_field_by_its_label(server, path, label):
    """A value the word-list use case refuses (a FieldError, which names the field) is told with the field's label
    on the form, where the command line tells it with the option."""
    status, _, body = get(server, path)
    text = html.unescape(" ".join(shown_text(body).split()))
    assert status == 400 and label in text, (path, text[:400])


@pytest.mark.slow
def test_every_control_is_labelled_and_shows_focus(server, browser):
    """Keyboard use: each form control has a label, and the focused control draws a visible outline."""
    page = browser.new_page()
    page.goto(server + "/list?preset=cvc-a")
    unlabelled = page.evaluate(
        "[...document.querySelectorAll('input:not([type=hidden]), select, button, textarea')]"
        ".filter(e => !(e.labels && e.labels.length) && !e.getAttribute('aria-label') && !e.textContent.trim())"
        ".map(e => e.outerHTML)"
    )
    assert unlabelled == []
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline not in ("", "none")


# ---- choice names in any case, as on the command line ---------------------------------------------------------


def page_choices() -> list[tuple[str, str]]:
    """(the page's field, a choice) for every choice of the word-list fields the page takes."""
    from pipeline.wordlists.fields import FIELDS

    return [(f.name, c) for f in FIELDS if f.choices and f.name not in ("paper", "font", "sheet") for c in f.choices]


PAGE_CHOICES = page_choices()


def test_the_page_takes_every_choice_of_its_list_fields():
    assert len(PAGE_CHOICES) >= 60


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(pick=st.sampled_from(PAGE_CHOICES))
def test_the_page_answers_the_same_for_a_choice_in_any_case(server, pick):
    """A choice of the page's list fields in lower, upper and title case (a list page each): the same status and
    the same words."""
    name, choice = pick
    answers = set()
    for spelled in (choice.lower(), choice.upper(), choice.title()):
        status, _, body = get(server, "/list?" + urllib.parse.urlencode({name: spelled, "count": 8, "seed": 1}))
        answers.add((status, tuple(page_words(body))))
    assert len(answers) == 1, (name, choice, answers)


def test_stalled_half_requests_are_closed_and_the_page_recovers(server):
    """100 connections that send part of a request line and headers, then nothing: the server closes each once
    its head is HEAD_SECONDS late, and then answers as before (before, they held their connections for good and
    every request got 503)."""
    import socket

    from pipeline.web.protocol import HEAD_SECONDS

    host, port = server.removeprefix("http://").split(":")
    stalled = []
    for _ in range(100):
        sock = socket.create_connection((host, int(port)))
        sock.sendall(f"GET /list?preset=spelling-2 HTTP/1.1\r\nHost: {host}:{port}\r\n".encode())
        sock.settimeout(HEAD_SECONDS + 20)
        stalled.append(sock)
    began = time.monotonic()
    for sock in stalled:
        assert sock.recv(100) == b""  # closed by the server, no answer
        sock.close()
    assert time.monotonic() - began < HEAD_SECONDS + 20
    status, _, body = get(server, "/list?preset=spelling-2")
    assert status == 200 and page_words(body)
