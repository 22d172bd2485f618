"""Benchmark: the site as a phone loads it, scored by Lighthouse.

For each language, three pages a player opens: the landing page, a long rules
page (Brink's, the longest) and a search-results page (a rule number shared by
both games, so it has results in every language). Each is loaded by Lighthouse
at phone size (390 x 844, touch, its default mobile throttling) over a local
HTTP server, in the installed Chromium, and the four category scores are
printed: performance, accessibility, best practices, SEO. Targets: 100 for
the last three, 95 or more for performance.

Lighthouse is a Node.js program, not a Python package: the first run installs
it with npm into the user's cache folder (``$XDG_CACHE_HOME/rulepress/lighthouse``,
else ``~/.cache/rulepress/lighthouse``), never into the repository; later runs
reuse it. Node.js 18 or newer and npm must be installed (Debian: ``nodejs``,
``npm``).

    .venv/bin/python benchmarks/bench_lighthouse.py                  # builds the site first
    .venv/bin/python benchmarks/bench_lighthouse.py --site build/site --lang en --page landing
"""

from __future__ import annotations

import argparse
import functools
import gzip
import http.server
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: the major version installed on demand (its report format is what this script reads)
LIGHTHOUSE = "lighthouse@12"
CHROMIUM = os.environ.get("CHROME_PATH", "/usr/bin/chromium")
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
#: the pages measured, by name: a path under the language's folder
PAGES = {
    "landing": "index.html",
    "rules": "brink/rules.html",
    # a rule number both games have: a results list in every language, whatever its words
    "search": "search.html?q=16.3",
}
TARGETS = {"performance": 95, "accessibility": 100, "best-practices": 100, "seo": 100}
#: audits a page fails on purpose: a search-results page asks search engines not to
#: index it (noindex, as Sphinx's own search page does), since results pages would
#: compete with the pages they list; its SEO score stays below 100 for that alone
ON_PURPOSE = {"search": {"seo: is-crawlable"}}
#: the phone of the site's browser tests (an iPhone 12-14's CSS size)
PHONE = ["--screenEmulation.width=390", "--screenEmulation.height=844"]


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "rulepress" / "lighthouse"


def lighthouse() -> Path:
    """The Lighthouse command, installed into the user's cache on first use."""
    folder = cache_dir()
    command = folder / "node_modules" / ".bin" / "lighthouse"
    if command.is_file():
        return command
    npm = shutil.which("npm")
    if npm is None:
        sys.exit(
            "bench_lighthouse: npm is needed to install Lighthouse (Debian: apt-get install npm)"
        )
    folder.mkdir(parents=True, exist_ok=True)
    print(f"installing {LIGHTHOUSE} into {folder} (once)", file=sys.stderr)
    subprocess.run(
        [npm, "install", "--prefix", str(folder), "--no-audit", "--no-fund", LIGHTHOUSE],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return command


class _Host(http.server.SimpleHTTPRequestHandler):
    """A static server that compresses text, as the hosts a site is published on do.

    Python's own server sends every file as it is: Lighthouse would then measure a
    rules page at five times its size on the wire, which no reader sees.
    """

    COMPRESSED = (".html", ".css", ".js", ".svg", ".json", ".xml", ".txt")

    def log_message(self, format: str, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        accepts = "gzip" in self.headers.get("Accept-Encoding", "")
        if not (accepts and path.is_file() and path.suffix in self.COMPRESSED):
            super().do_GET()
            return
        body = gzip.compress(path.read_bytes())
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "max-age=600")
        self.end_headers()
        self.wfile.write(body)


@contextmanager
def serve(
    folder: Path, host: type[http.server.SimpleHTTPRequestHandler] | None = None
) -> Iterator[str]:
    """The site over HTTP on 127.0.0.1, as a host serves it (Lighthouse needs http).

    Yields its base address. ``host``: the request handler, if not this benchmark's
    (the browser tests' answers a missing page with the site's 404 page).
    """
    handler = functools.partial(host or _Host, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def build_site(out: Path, base_url: str) -> None:
    """The site as the main job builds it (without doctests, which change no page).

    With the address it is served from, as a publisher builds it: canonical and
    alternate links are then absolute, as search engines want them.
    """
    subprocess.run(
        [
            sys.executable,
            "-m",
            "rulepress.cli",
            "build",
            "site",
            "--spec-root",
            str(ROOT / "rules_spec"),
            "--out",
            str(out),
            "--no-doctest",
            "--base-url",
            base_url + "/",
            "-q",
        ],
        check=True,
        cwd=ROOT,
    )


def scores(command: Path, url: str) -> tuple[dict[str, int], list[str]]:
    """The four category scores (0-100) of one page at phone size, and the audits it failed."""
    proc = subprocess.run(
        [
            str(command),
            url,
            "--output=json",
            "--output-path=stdout",
            "--quiet",
            "--form-factor=mobile",
            *PHONE,
            "--only-categories=" + ",".join(CATEGORIES),
            "--chrome-flags=--headless=new --no-sandbox --disable-gpu",
        ],
        env={**os.environ, "CHROME_PATH": CHROMIUM},
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode != 0:
        sys.exit(f"bench_lighthouse: Lighthouse failed on {url}:\n{proc.stderr[-2000:]}")
    report = json.loads(proc.stdout)
    got = {name: round(report["categories"][name]["score"] * 100) for name in CATEGORIES}
    failed = []
    for name in CATEGORIES:
        for ref in report["categories"][name]["auditRefs"]:
            audit = report["audits"][ref["id"]]
            score = audit.get("score")
            # an audit that counts (weight > 0) and did not pass; its figure when it has one
            if ref.get("weight") and score is not None and score < 0.9:
                shown = audit.get("displayValue") or f"{score:.2f}"
                failed.append(f"{name}: {ref['id']} ({shown})")
    return got, failed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, help="a built site (default: build one first)")
    parser.add_argument("--lang", action="append", help="only these languages")
    parser.add_argument("--page", action="append", choices=list(PAGES), help="only these pages")
    parser.add_argument("--why", action="store_true", help="also list the audits each page failed")
    args = parser.parse_args()
    # a line per page as it is measured (each takes tens of seconds), also into a file
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]
    command = lighthouse()
    with tempfile.TemporaryDirectory(prefix="rulepress-lighthouse-") as scratch:
        site = args.site or Path(scratch) / "site"
        site.mkdir(parents=True, exist_ok=True)
        with serve(site) as base:
            if args.site is None:
                build_site(site, base)
            languages = args.lang or sorted(
                p.name for p in site.iterdir() if (p / "search.html").is_file()
            )
            missed = []
            print(f"{'page':<24} " + " ".join(f"{c:>14}" for c in CATEGORIES))
            for lang in languages:
                for name in args.page or list(PAGES):
                    got, failed = scores(command, f"{base}/{lang}/{PAGES[name]}")
                    print(
                        f"{lang + ' ' + name:<24} " + " ".join(f"{got[c]:>14}" for c in CATEGORIES)
                    )
                    if args.why:
                        print("".join(f"    {line}\n" for line in failed), end="")
                    # a category below target only through an audit failed on purpose is noted
                    purpose = ON_PURPOSE.get(name, set())
                    for c in CATEGORIES:
                        if got[c] >= TARGETS[c]:
                            continue
                        own = [f for f in failed if f.startswith(c + ":")]
                        why = (
                            " (noindex, on purpose)"
                            if own and all(f.split(" (")[0] in purpose for f in own)
                            else ""
                        )
                        missed.append(f"{lang} {name} {c} {got[c]}{why}")
            print("targets met" if not missed else "below target: " + "; ".join(missed))


if __name__ == "__main__":
    main()
