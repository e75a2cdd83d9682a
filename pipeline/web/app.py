"""The teacher's page (`wordstats serve`): a local web application over the library's use cases. It parses a
request, calls the use case in a scoped session (the lexicon's read lock held for the request only) and renders;
it never writes into the data folder. Every asset is served by the package: it works offline."""

from __future__ import annotations

import contextlib
import functools
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pipeline.core.errors import NotFound, WordstatsError
from pipeline.core.session import open_session
from pipeline.web import views
from pipeline.web.requests import PAGE_COUNT, BadRequest, list_request, plain_name
from pipeline.wordlists.api import SHEET_WORDS

if TYPE_CHECKING:
    from starlette.requests import Request
    from starlette.responses import HTMLResponse, Response

HERE = Path(__file__).resolve().parent
MAX_BODY = 0  # the page only reads: a request with a body is refused
SHEET_TYPES = {"html": "text/html; charset=utf-8", "pdf": "application/pdf"}


def status_of(exc: WordstatsError) -> int:
    """The HTTP status of a refusal: 400 a bad request, 404 nothing found, 422 a request the lists cannot make."""
    return 400 if isinstance(exc, BadRequest) else 404 if isinstance(exc, NotFound) else 422


class Pages:
    """The page's endpoints on one config and data folder: each parses its request, calls the use case in a scoped
    session and renders a template; a refusal or an empty result is a page with a sentence (4xx)."""

    def __init__(self, config: Path | str | None, data_dir: Path | None):
        from jinja2 import Environment, FileSystemLoader, select_autoescape

        self.config, self.data_dir = config, data_dir
        self.templates = Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=select_autoescape())
        self.templates.globals["sheet_words"] = SHEET_WORDS

    def page(self, name: str, code: int = 200, **context: Any) -> HTMLResponse:
        """A rendered template, answered with HTTP status `code`."""
        from starlette.responses import HTMLResponse

        return HTMLResponse(self.templates.get_template(name).render(**context), status_code=code)

    def sorry(self, status: int, sentence: str) -> HTMLResponse:
        """A page that says in a sentence what went wrong."""
        return self.page("error.html", status, status=status, sentence=sentence)

    def session(self, lexicon: str | None = None):
        """A scoped session on the config and data folder of the app (the teacher lexicon by default)."""
        return open_session(self.config, self.data_dir, lexicon, teacher=True)

    def handled(self, fn: Callable[[Request], Response]) -> Callable[[Request], Response]:
        """An endpoint whose refusals and empty results are a page with a sentence (4xx), never a traceback."""

        @functools.wraps(fn)
        def endpoint(request: Request) -> Response:
            """Answer the request."""
            try:
                return fn(request)
            except WordstatsError as exc:
                return self.sorry(status_of(exc), views.teacher_sentence(exc))

        return endpoint

    def home(self, request: Request) -> Response:
        """The gallery: the presets grouped by purpose, each with a preview of its words."""
        with self.session() as s:
            return self.page("gallery.html", groups=views.gallery(s), lexicon=s.lexicon)

    def preview(self, request: Request) -> Response:
        """A preset's first words, as JSON (the gallery fills its cards with them)."""
        from starlette.responses import JSONResponse

        name = request.query_params.get("preset", "")
        with self.session() as s:
            if name not in views.settings_of(s).presets:
                raise BadRequest(f"unknown preset {name[:40]!r}")
            return JSONResponse({"preset": name, "words": views.preview(s, name)[: views.PREVIEW_WORDS]})

    def word_list_page(self, request: Request) -> Response:
        """A list: its form, its words (each with a swap link), new words, and its sheet's preview and downloads."""
        req = list_request(dict(request.query_params), len(request.url.query))
        with self.session(req.lexicon) as s:
            shown = views.list_page(s, req)
            fields = views.form(s, req)
            title = views.title_of(s, req, shown.wl)
        wl = shown.wl
        if wl is None:
            pick = req.query(count=PAGE_COUNT) if shown.matched else None
            return self.page("list.html", wl=None, title=title, shown=shown, req=req, fields=fields, pick=pick)
        seed = req.given.get("seed", wl.seed)
        swapped = [w.lower() for w in req.given.get("swap", ())]
        return self.page(
            "list.html",
            wl=wl,
            title=title,
            req=req,
            fields=fields,
            set_number=seed if wl.pool > wl.table.height else None,
            another_set=req.query(seed=seed + 1, swap=None),
            swap_links=[(w, req.query(swap=",".join(swapped + [w]))) for w in wl.words],
            query=req.query(),
        )

    def sheet(self, request: Request) -> Response:
        """The sheet of a list as HTML (to preview or print) or PDF (to download)."""
        from starlette.responses import Response

        from pipeline.wordlists.render import to_html, to_pdf

        kind = request.path_params["kind"]
        if kind not in SHEET_TYPES:
            return self.sorry(404, "a sheet is sheet.html or sheet.pdf")
        req = list_request(dict(request.query_params), len(request.url.query))
        download = kind == "pdf" or bool(request.query_params.get("download"))
        try:
            with self.session(req.lexicon) as s:
                wl = views.the_list(s, req)
            body = to_pdf(wl) if kind == "pdf" else to_html(wl).encode("utf-8")
        except WordstatsError as exc:
            if download:
                raise
            # the list page's preview frame: the sentence alone, not a page inside the page
            sentence = views.teacher_sentence(exc)
            return self.page("sheet_error.html", status_of(exc), status=status_of(exc), sentence=sentence)
        headers = {}
        if download:
            headers["Content-Disposition"] = attachment(wl.title, kind)
        return Response(body, media_type=SHEET_TYPES[kind], headers=headers)

    def lookup(self, request: Request) -> Response:
        """Look up a word: anagrams, hooks, is it a word, Hangman difficulty, phonics."""
        params = dict(request.query_params)
        unknown = set(params) - {"word", "lexicon", "every"}
        if unknown:
            raise BadRequest(f"unknown field {sorted(unknown)[0][:40]!r}")
        word = params.get("word", "").strip()
        lexicon = params.get("lexicon") or None
        if lexicon is not None and not plain_name(lexicon):
            raise BadRequest(f"unknown lexicon {lexicon[:40]!r}")
        with self.session(lexicon) as s:
            every = params.get("every") == "1"
            found, sections = views.lookup(s, word, every) if word else (None, [])
            return self.page("lookup.html", found=found, sections=sections, word=word, lexicon=s.lexicon, every=every)

    def favicon(self, request: Request) -> Response:
        """The page's icon where browsers look for it first."""
        from starlette.responses import FileResponse

        return FileResponse(HERE / "static" / "favicon.svg", media_type="image/svg+xml")

    async def not_found(self, request: Request, exc: Exception) -> Response:
        """Any unknown path: 404 with a sentence."""
        status = getattr(exc, "status_code", 404)
        words = {404: "there is no such page here", 405: "this page only answers GET requests"}
        return self.sorry(status, words.get(status, "this request cannot be answered"))

    async def crashed(self, request: Request, exc: Exception) -> Response:
        """A fault of ours: 500 with a sentence, never a traceback in the page."""
        return self.sorry(500, "something went wrong on our side; the command line gives the same list")

    def warm_previews(self) -> None:
        """Make every preset's gallery preview, so that the gallery a teacher opens shows them at once."""
        try:
            with session_of(self.config, self.data_dir) as s:
                names = list(views.settings_of(s).presets)
            for name in names:  # a session each: a build's commit waits for one preview at most
                with session_of(self.config, self.data_dir) as s:
                    views.preview(s, name)
        except Exception:  # noqa: BLE001 (the gallery then makes them on request, and says why there)
            return


class Guard:
    """Requests for another host, with a body, or with any method but GET and HEAD are refused before they reach a
    page."""

    def __init__(self, app, pages: Pages, hosts: tuple[str, ...] | None):
        self.app, self.pages, self.hosts = app, pages, hosts

    async def __call__(self, scope, receive, send):
        """Refuse another host (400), a body (413) or another method (405)."""
        if scope["type"] == "http":
            sorry = self.pages.sorry
            headers = dict(scope.get("headers") or [])
            if self.hosts is not None and host_name(headers.get(b"host", b"")) not in self.hosts:
                return await sorry(400, "this page answers only at the address it was started on")(scope, receive, send)
            length = headers.get(b"content-length", b"0")
            chunked = b"chunked" in headers.get(b"transfer-encoding", b"")
            if scope["method"] not in ("GET", "HEAD"):
                return await sorry(405, "this page only answers GET requests")(scope, receive, send)
            if chunked or not length.isdigit() or int(length) > MAX_BODY:
                return await sorry(413, "this page reads no request body")(scope, receive, send)
        return await self.app(scope, receive, send)


def create_app(config: Path | str | None = None, data_dir: Path | None = None, hosts: tuple[str, ...] | None = None):
    """The Starlette application for a config and a data folder, answering requests whose Host header names one of
    `hosts` (any when None)."""
    from starlette.applications import Starlette
    from starlette.exceptions import HTTPException
    from starlette.middleware import Middleware
    from starlette.routing import Mount, Route
    from starlette.staticfiles import StaticFiles

    pages = Pages(config, data_dir)
    endpoints = {
        "/": pages.home,
        "/list": pages.word_list_page,
        "/sheet.{kind:str}": pages.sheet,
        "/lookup": pages.lookup,
        "/preview": pages.preview,
    }
    routes: list[Route | Mount] = [Route(path, pages.handled(fn)) for path, fn in endpoints.items()]
    routes.insert(1, Route("/favicon.ico", pages.favicon))
    routes.append(Mount("/static", StaticFiles(directory=HERE / "static"), name="static"))

    @contextlib.asynccontextmanager
    async def lifespan(app):
        """Start making the gallery's previews beside the first requests."""
        threading.Thread(target=pages.warm_previews, name="previews", daemon=True).start()
        yield

    handlers = {HTTPException: pages.not_found, 404: pages.not_found, 405: pages.not_found, 500: pages.crashed}
    return Starlette(
        routes=routes,
        exception_handlers=handlers,
        middleware=[Middleware(Guard, pages=pages, hosts=hosts)],
        lifespan=lifespan,
    )


def session_of(config, data_dir):
    """A scoped session on the teacher lexicon of a config and data folder."""
    return open_session(config, data_dir, None, teacher=True)


def host_name(header: bytes) -> str:
    """The host a Host header names, without its port."""
    text = header.decode("latin-1").strip().lower()
    if text.startswith("["):
        return text.split("]", 1)[0] + "]"
    return text.rsplit(":", 1)[0] if text.count(":") == 1 else text


def safe_name(title: str) -> str:
    """A file name from a sheet's title: ASCII letters, digits and hyphens (an HTTP header is Latin-1: a title in
    another script gives "sheet", and the title itself goes in filename*, below)."""
    name = "".join(c if c.isascii() and c.isalnum() else "-" for c in title.lower()).strip("-")
    return "-".join(part for part in name.split("-") if part)[:60] or "sheet"


def attachment(title: str, kind: str) -> str:
    """The Content-Disposition of a downloaded sheet: an ASCII file name, and the title's own in UTF-8 (RFC 6266)."""
    from urllib.parse import quote

    own = "-".join(title.split())[:60] or "sheet"
    return f"attachment; filename=\"{safe_name(title)}.{kind}\"; filename*=UTF-8''{quote(own, safe='')}.{kind}"
