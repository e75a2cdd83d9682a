"""`python -m tests.web_screenshots [--out docs/screenshots]`: the teacher's page at laptop and phone widths, on
the data folder of `make all`, as the PNGs docs/web.md shows (a server on loopback, stopped at the end)."""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from tests.support.web import CHROMIUM, LAUNCH_ARGS, WIDTHS, free_port

PAGES = (
    ("gallery", "/"),
    ("list", "/list?preset=word-search"),
    ("own", "/list"),
    ("empty", "/list?preset=phase-2&starts_with=qqx"),
    ("lookup", "/lookup?word=stain"),
)


def main(argv: list[str] | None = None) -> int:
    """Take the screenshots."""
    parser = argparse.ArgumentParser(prog="python -m tests.web_screenshots")
    parser.add_argument("--out", default="docs/screenshots")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    port = free_port()
    exe = str(Path(sys.executable).with_name("wordstats"))
    server = subprocess.Popen(["timeout", "600", exe, "serve", "--port", str(port)], stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(base + "/static/style.css", timeout=2)
                break
            except OSError:
                time.sleep(0.3)
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
            for width_name, (width, height) in WIDTHS.items():
                page = browser.new_page(viewport={"width": width, "height": height})
                for name, path in PAGES:
                    page.goto(base + path)
                    if name == "gallery":
                        page.wait_for_function(
                            "document.querySelectorAll('p.preview:empty').length === 0", timeout=120_000
                        )
                    page.wait_for_timeout(500)
                    page.screenshot(path=str(out / f"{name}-{width_name}.png"))
            browser.close()
    finally:
        server.terminate()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
