"""What the browser tests share: Debian's Chromium, a static server for a site folder, a watched page.

The fixtures that use these (tests/site/conftest.py) make one browser per test
process and one server per built site: launching Chromium costs far more CPU than
a context, and most of it is spent in renderers that ``time`` never sees (their
zygote is not waited for by the process that launched it).
"""

from __future__ import annotations

import contextlib
import http.server
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from benchmarks.bench_lighthouse import serve

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


class _Quiet(http.server.SimpleHTTPRequestHandler):
    """A static server that answers a missing address with the site's 404.html, as hosts do."""

    def log_message(self, format: str, *args: object) -> None:
        pass

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        page = Path(self.directory) / "404.html"
        if code != 404 or not page.is_file():
            super().send_error(code, message, explain)
            return
        body = page.read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def serving(folder: Path) -> contextlib.AbstractContextManager[str]:
    """``folder`` served over HTTP on 127.0.0.1 while the block runs; its base address.

    The Lighthouse benchmark's server, with a handler that answers as the tests expect.
    """
    return serve(folder, _Quiet)


@contextlib.contextmanager
def launched() -> Iterator[Any]:
    """Chromium, headless, driven by Playwright's sync API (skips the test without Playwright)."""
    import pytest

    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        instance = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        try:
            yield instance
        finally:
            instance.close()


def watched_page(context: Any) -> Any:
    """A new page of ``context`` that records every script error in ``page.errors``."""
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors
    return page
