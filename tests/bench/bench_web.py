"""The teacher's page: a preset page cold (the first request to a fresh server) and warm (median of 20), on the
teacher lexicon and on enable, a PDF sheet, and 20 concurrent clients (errors and the median answer), against
`python -c "import polars"` in the same run. Reads the data folder of `make all`."""

from __future__ import annotations

import concurrent.futures
import os
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from tests.support.web import free_port

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "data" / "out"
PAGES = {
    "preset page (scowl)": "/list?preset=spelling-2",
    "preset page (enable)": "/list?preset=spelling-2&lexicon=enable",
    "word search page": "/list?preset=word-search",
    "gallery": "/",
    "PDF sheet": "/sheet.pdf?preset=word-search",
    "sheet preview (HTML)": "/sheet.html?preset=word-search",
}
WARM = 20
CLIENTS = 20


def seconds(url: str) -> float:
    """Wall time of one request that must succeed."""
    start = time.perf_counter()
    with urllib.request.urlopen(url, timeout=120) as r:
        r.read()
        assert r.status == 200
    return time.perf_counter() - start


def serve() -> tuple[subprocess.Popen, str]:
    """A fresh server on loopback, once it answers; its process and address."""
    port = free_port()
    exe = str(Path(sys.executable).with_name("wordstats"))
    proc = subprocess.Popen(["timeout", "900", exe, "serve", "--port", str(port), "--data-dir", str(DATA)],
                            stderr=subprocess.DEVNULL)  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    for _ in range(200):
        try:
            urllib.request.urlopen(base + "/static/style.css", timeout=2).read()
            return proc, base
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the server did not start")


def run() -> dict:
    """Cold and warm answers per page, and concurrent clients."""
    if not (DATA / "scowl" / "phonics.parquet").is_file() or not (DATA / "enable" / "phonics.parquet").is_file():
        return {"skipped": f"run make all first ({DATA})"}
    load_before = os.getloadavg()
    polars = statistics.median(_time_import() for _ in range(5))
    out: dict = {"pages": {}}
    for name, path in PAGES.items():
        proc, base = serve()
        try:
            cold = seconds(base + path)
            warm = [seconds(base + path.replace("preset=", f"seed={i}&preset=")) for i in range(WARM)]
        finally:
            proc.terminate()
        out["pages"][name] = {"cold_s": round(cold, 3), "warm_median_s": round(statistics.median(warm), 4)}
    out["gallery_previews"] = _gallery_previews()
    proc, base = serve()
    try:
        seconds(base + "/list?preset=spelling-2")
        urls = [base + f"/list?preset=spelling-2&seed={i}" for i in range(CLIENTS)]
        with concurrent.futures.ThreadPoolExecutor(CLIENTS) as pool:
            answers = list(pool.map(_try, urls))
    finally:
        proc.terminate()
    times = [t for t in answers if t is not None]
    out["concurrent"] = {
        "clients": CLIENTS,
        "errors": CLIENTS - len(times),
        "median_s": round(statistics.median(times), 3),
    }
    out["baseline_import_polars_s"] = round(polars, 3)
    out["load_average"] = {
        "before": [round(x, 2) for x in load_before],
        "after": [round(x, 2) for x in os.getloadavg()],
    }
    return out


def _gallery_previews() -> dict:
    """A fresh server's gallery as a browser fills it: the page, then every card's preview at once (as app.js asks
    for them); seconds from the first request until the last preview arrived, and the slowest preview."""
    import re

    proc, base = serve()
    try:
        start = time.perf_counter()
        with urllib.request.urlopen(base + "/", timeout=120) as r:
            names = sorted(set(re.findall(r'data-preset="([^"]+)"', r.read().decode())))
        with concurrent.futures.ThreadPoolExecutor(6) as pool:  # a browser's connections per host
            times = list(pool.map(seconds, [f"{base}/preview?preset={n}" for n in names]))
        ready = time.perf_counter() - start
    finally:
        proc.terminate()
    return {"cards": len(names), "all_ready_s": round(ready, 3), "slowest_preview_s": round(max(times), 3)}


def _time_import() -> float:
    """One fresh `import polars`."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import polars"], check=True)
    return time.perf_counter() - start


def _try(url: str) -> float | None:
    """One request's time, or None when it failed."""
    try:
        return seconds(url)
    except Exception:  # noqa: BLE001 (a failure is counted, not raised)
        return None
