"""Translations are untrusted: a hostile msgstr in every message is shown as text, nowhere run.

One Czech catalog per domain (each game's, the interface's, the theme's) in which
**every** message, of every kind, carries the same payload: doctest prompts,
``{doctest}`` fences of backticks and of tildes, fences that close and open,
``{eval-rst}``, ``{raw}``, ``.. raw:: html``, ``<script>``, ``<img onerror>``,
a heading and a list item made with ``\\r``, and a format-string trick. With
those catalogs the real commands run: the site build of one game with its
doctests, the print build of that game (which refuses: the payload makes every
card overflow), every game's print documents at their HTML stage, and
``score --lang cs`` on the first worked example of each sequence.
Then:

* no code ran: the payload's doctests would create a sentinel file;
* the doctests are exactly the generated ones, as many as with the real catalogs;
* every page has the same HTML elements as with the real catalogs;
* each payload that reaches a reader is shown whole, as text, with a marker
  naming its message, and every kind of message reached one.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from rulepress.i18n.catalogs import find_catalog, render
from rulepress.i18n.runtime import LocaleNumbers, localize
from rulepress.render import print_trees, print_writer
from rulepress.render.context import RenderContext
from rulepress.sphinx_ext.build import SiteBuild
from tests.conftest import (
    LOCALES,
    ROOT,
    SPEC_ROOT,
    TRANSLATED,
    Run,
    loaded,
    one_game_root,
    run_cli,
    run_main,
)
from tests.site.conftest import ElementCounter, doctest_count, doctests

#: builds sites or PDFs, or drives a browser: left out of the quick run (-m 'not slow')
pytestmark = pytest.mark.slow

LANG = "cs"
#: the game whose site is built with the hostile catalogs: one game in one language shows
#: every kind of message (KINDS) and costs half the build of both
GAME = "stationfall"
#: the games published in Czech (a designer's game beside ours may be English only)
CZECH_GAMES = tuple(game for game, lang in TRANSLATED if lang == LANG)


def payload(sentinel: Path) -> str:
    code = f"open({str(sentinel)!r}, 'w').close()"
    return (
        f">>> {code}\n"
        f"```{{doctest}}\n>>> {code}\n```\n"
        f"~~~{{doctest}}\n>>> {code}\n~~~\n"
        "```\n:::{danger}\n"
        "```{eval-rst}\n.. raw:: html\n   <script>alert('rst')</script>\n```\n"
        "{raw}`<b>raw</b>` .. raw:: html <script>alert('html')</script>"
        " <img src=x onerror=alert('img')>"
        "\r# heading\r- item\r{0.__class__} %(x)999d"
    )


def _visible(text: str) -> str:
    """What a reader sees of a payload: line breaks and runs of spaces are one space."""
    return " ".join(text.split())


class _Page(HTMLParser, ElementCounter):
    """A page's elements (tag and attribute names, the language switcher aside) and its visible text."""

    def __init__(self) -> None:
        HTMLParser.__init__(self, convert_charrefs=True)
        ElementCounter.__init__(self)
        self.text: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.count(tag, attrs)
        if tag in ("script", "style"):
            self._skip += 1

    def handle_endtag(self, tag: str) -> None:
        self.uncount(tag)
        if tag in ("script", "style"):
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.text.append(data)


def _parse(html: str) -> _Page:
    page = _Page()
    page.feed(html)
    return page


def _read(path: Path) -> _Page:
    return _parse(path.read_text(encoding="utf-8"))


def _hostile_catalogs(tmp_path: Path, attack: str) -> tuple[Path, dict[str, str]]:
    """A copy of locales/ whose Czech msgstrs all carry ``attack``; marker → message context."""
    locales = tmp_path / "locales"
    markers: dict[str, str] = {}
    for domain in (*CZECH_GAMES, "rulepress", "theme"):
        src = find_catalog(LOCALES, LANG, domain)  # the interface and theme: the package's
        with src.open("rb") as fh:
            catalog = read_po(fh, locale=LANG)
        for i, message in enumerate(catalog):
            if not message.id:
                continue  # the header
            marker = f"HX{domain[:2].upper()}{i:04d}"
            markers[marker] = f"{domain}:{message.context}"

            def spoil(text: str, marker: str = marker) -> str:
                return f"{text} {marker} {attack}"

            if isinstance(message.string, tuple | list):
                message.string = tuple(spoil(s) for s in message.string)
            else:
                message.string = spoil(message.string)
        target = locales / LANG / "LC_MESSAGES" / f"{domain}.po"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(render(catalog))
    return locales, markers


#: every kind of translatable message, by the start of its context; each must reach a reader
KINDS = {
    "rule titles": r"^\w+:rules/[\d.]+/title$",
    "rule text": r"^\w+:rules/[\d.]+/text",
    "step text": r"^\w+:sequences/.+/steps/.+/text",
    "step titles": r"^\w+:sequences/.+/steps/.+/title$",
    "glossary terms": r"^\w+:glossary/[^/]+/term$",
    "glossary definitions": r"^\w+:glossary/[^/]+/definition",
    "ruling titles": r"^\w+:rulings/[^/]+/title$",
    "ruling options": r"^\w+:rulings/[^/]+/options/",
    "table labels": r"^\w+:tables/[^/]+/(key|value)_label$",
    "scorer notes": r"^\w+:sequences/.+/(note|notes|fails|tie_note|voided_note|wild_label)",
    "page interface": r"^rulepress:page\.",
    "report interface": r"^rulepress:(report|score|winners)\.",
    "print interface": r"^rulepress:print$",
}


@pytest.fixture(scope="module")
def hostile(
    tmp_path_factory: pytest.TempPathFactory, built_print: tuple[Path, object], previous_specs: Path
) -> dict[str, object]:
    tmp = tmp_path_factory.mktemp("hostile")
    sentinel = tmp / "SENTINEL"
    attack = payload(sentinel)
    locales, markers = _hostile_catalogs(tmp, attack)
    site_out, print_out = tmp / "site", tmp / "print"
    # against the honest builds' previous edition, so that both sites have the same pages
    since = ("--since", str(previous_specs))
    only = one_game_root(tmp, GAME)
    # one game's print build is enough to show the refusal (the payload makes every card
    # overflow, and rendering it all costs a minute); every game's print documents are
    # still read at the HTML stage (_print_documents)
    printed = run_cli(
        "build",
        "print",
        "--spec-root",
        str(only),
        "--lang",
        LANG,
        "--locales",
        str(locales),
        "--out",
        str(print_out),
        *since,
    )
    # the site links the same PDFs as the honest site it is compared with (hostile text
    # can make a card overflow, and an overflowing card is not written)
    runs = [
        run_cli(
            "build",
            "site",
            "--spec-root",
            str(only),
            "--lang",
            LANG,
            "--locales",
            str(locales),
            "--out",
            str(site_out),
            "--pdfs",
            str(built_print[0]),
            *since,
        )
    ]
    reports = []
    for game in CZECH_GAMES:
        spec = loaded(game).spec
        # the first worked example of each sequence: each kind of report (a subprocess,
        # or even a run in this process, for each of the 64 examples cost a minute)
        first = {ex.sequence or spec.scorer.sequence: ex for ex in reversed(spec.examples)}
        for ex in first.values():
            run = run_main(
                "score", game, "--example", ex.id, "--lang", LANG, "--locales", str(locales)
            )
            runs.append(run)
            reports.append(run.out)
    return {
        "sentinel": sentinel,
        "attack": attack,
        "markers": markers,
        "site": site_out,
        "print": print_out,
        "runs": runs,
        "reports": reports,
        "printed": printed,
        "locales": locales,
    }


def test_every_command_succeeds_and_no_code_ran(hostile: dict[str, object]) -> None:
    for run in hostile["runs"]:  # type: ignore[attr-defined]
        assert run.code == 0, run.err[-3000:]
    assert not Path(str(hostile["sentinel"])).exists()


def test_only_the_generated_doctests_ran(hostile: dict[str, object], site: SiteBuild) -> None:
    spoiled = SiteBuild(ROOT, SPEC_ROOT, LOCALES, Path(str(hostile["site"])))
    blocks, statements = doctests(spoiled, LANG, GAME)
    assert blocks == len(loaded(GAME).spec.examples)
    assert (blocks, statements) == doctests(site, LANG, GAME)
    assert doctest_count(spoiled, LANG, GAME) == doctest_count(site, LANG, GAME) == statements


def test_no_page_gains_an_element(hostile: dict[str, object], site: SiteBuild) -> None:
    # the game's pages (the landing pages of a one-game site list one game, not two)
    out = Path(str(hostile["site"])) / LANG
    pages = sorted((out / GAME).rglob("*.html"))
    assert len(pages) > 10
    for path in pages:
        honest = site.out / LANG / path.relative_to(out)
        assert _read(path).elements == _read(honest).elements, path
        # the payload's tags are text: escaped in the HTML, no element of their own
        assert "<script>alert" not in path.read_text(encoding="utf-8")


def _shown(texts: list[str], hostile: dict[str, object]) -> set[str]:
    """The markers whose payload a reader sees whole; fail on any that is cut or altered."""
    attack = _visible(str(hostile["attack"]))
    seen: set[str] = set()
    for text in texts:
        flat = _visible(text)
        for match in re.finditer(r"HX[A-Z]{2}\d{4}", flat):
            after = flat[match.end() + 1 : match.end() + 1 + len(attack)]
            # typographic quotes (Sphinx's smart quotes) are the only change allowed
            normal = after.replace("‘", "'").replace("’", "'").replace("“", '"').replace("”", '"')
            normal = normal.replace("‚", "'").replace("„", '"')
            assert normal == attack, (match.group(), after)
            seen.add(match.group())
    return seen


def _print_documents(locales: Path) -> dict[str, str]:
    """Every print document's HTML (the stage WeasyPrint lays out), as the print build makes it."""
    out: dict[str, str] = {}
    for game in CZECH_GAMES:
        local = localize(loaded(game), LANG, locales)
        ctx = RenderContext(local.loaded.spec, LANG, local.renderer.translate, LocaleNumbers(LANG))
        pub = ctx.spec.publishing
        assert pub is not None
        card = pub.reference_card
        out[f"{game}/reference"] = print_writer.write(
            print_trees.reference_card(ctx, card.sequences, card.tables), "2026-01-01"
        )
        out[f"{game}/rulebook"] = print_writer.write(print_trees.rulebook(ctx), "2026-01-01")
        if pub.step_cards is not None:
            deck = print_trees.step_cards(ctx, pub.step_cards.sequences)
            for face in print_writer.cards(deck):
                for side, body in (("front", face.front), ("back", face.back)):
                    out[f"{game}/{face.name}/{side}"] = print_writer.card_document(
                        deck, body, "2026-01-01", face.name
                    )
    return out


def test_the_print_build_refuses_what_does_not_fit_and_runs_nothing(
    hostile: dict[str, object],
) -> None:
    run: Run = hostile["printed"]  # type: ignore[assignment]
    # the payload makes every card overflow: the build says so, per card, and writes nothing
    assert run.code == 7, run.err[-3000:]
    problems = [line for line in run.err.splitlines() if line.startswith(CZECH_GAMES)]
    assert problems
    assert all("overflow" in line for line in problems), problems
    assert not list(Path(str(hostile["print"])).rglob("*.pdf"))
    assert not Path(str(hostile["sentinel"])).exists()


def test_every_kind_of_message_is_shown_whole_as_text(hostile: dict[str, object]) -> None:
    site_texts = ["".join(_read(p).text) for p in Path(str(hostile["site"])).rglob("*.html")]
    reports = [_terminal(r) for r in hostile["reports"]]  # type: ignore[attr-defined]
    honest = _print_documents(LOCALES)
    spoiled = _print_documents(Path(str(hostile["locales"])))
    assert spoiled.keys() == honest.keys()
    printed = []
    for name, html in spoiled.items():
        page = _parse(html)
        assert page.elements == _parse(honest[name]).elements, name
        printed.append("".join(page.text))
    seen = _shown(site_texts, hostile) | _shown(reports, hostile) | _shown(printed, hostile)
    markers: dict[str, str] = hostile["markers"]  # type: ignore[assignment]
    contexts = {markers[m] for m in seen}
    missing = [
        kind for kind, pattern in KINDS.items() if not any(re.search(pattern, c) for c in contexts)
    ]
    assert missing == []


def _terminal(report: str) -> str:
    """The text report shows a line break inside a text as <U+000D>, <U+000A> …: a space here."""
    return re.sub(r"<U\+(000A|000D|000B|000C|0085|2028|2029)>", " ", report)
