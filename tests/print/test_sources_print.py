"""The rulebook lists its sources in an appendix, and the reference card says where it is.

Read from the session's PDFs (pdftotext) in every language each game is
published in: the appendix's heading for what the source does not give, in
the page's language, the title of every item the spec lists there, the
heading of each kind of entry (rules, steps, numbers, table rows, glossary
entries) whose sources it lists, and the reference card's line that points
to the appendix; and in the rulings, under each question, what the sources
say: the label and every quote, as the source writes it (issue 30).
"""

from __future__ import annotations

import re
import subprocess
import unicodedata
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from rulepress.i18n.catalogs import PACKAGE_LOCALES
from rulepress.render.source_entries import KIND_TITLES
from rulepress.render.sources import SAYS, T
from tests.conftest import LOCALES, PUBLISHED, loaded

pytestmark = [pytest.mark.slow, pytest.mark.print]


def _ui(lang: str, context: str, msgid: str) -> str:
    if lang == "en":
        return msgid
    path = PACKAGE_LOCALES / lang / "LC_MESSAGES" / "rulepress.po"
    with path.open("rb") as f:
        catalog = read_po(f)
    message = catalog.get(msgid, context=context)
    assert message is not None, msgid
    assert message.string, msgid
    return str(message.string)


def _game_text(lang: str, game: str, context: str, english: str) -> str:
    if lang == "en":
        return english
    with (LOCALES / lang / "LC_MESSAGES" / f"{game}.po").open("rb") as f:
        catalog = read_po(f)
    found = [m for m in catalog if m.context == context]
    assert found, context
    assert found[0].string, context
    return str(found[0].string)


def _text(path: Path) -> str:
    out = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True)
    # pdftotext breaks lines where the layout does; compare with all white space removed
    return re.sub(r"\s+", "", out.stdout)


def _flat(value: str) -> str:
    return re.sub(r"\s+", "", value.replace("'", "\u2019"))


@pytest.mark.parametrize(("game", "lang"), PUBLISHED)
def test_the_rulebook_lists_its_sources_and_the_card_points_there(
    built_print: tuple[Path, object], game: str, lang: str
) -> None:
    printed = built_print[0]
    book = _text(printed / lang / game / "rulebook-a4.pdf")
    heading = _ui(lang, "page.title", "Not in this edition's source")
    card = _text(printed / lang / game / "reference-a5.pdf")
    spec = loaded(game).spec
    if not spec.sources:
        # a game written straight into a spec (a designer's own): no appendix about
        # sources, and the card points to none
        assert _flat(heading) not in book
        assert _flat(_ui(lang, "page.sources", T["each_entry"])) not in book
        assert _flat(_ui(lang, "print", T["on_card"])) not in card
        return
    assert _flat(heading) in book
    assert spec.not_in_source
    for item in spec.not_in_source:
        title = _game_text(lang, game, f"not_in_source/{item.id}/title", item.title)
        assert _flat(title) in book, title
    # every kind of entry under its heading, in the page's language
    assert _flat(_ui(lang, "page.sources", T["each_entry"])) in book
    for kind, title in KIND_TITLES.items():
        if kind == "card" and not spec.card_exceptions:
            continue  # a game whose cards make no exception (Brink) has no such heading
        assert _flat(_ui(lang, "page.sources", title)) in book, title
    assert _flat(_ui(lang, "print", T["on_card"])) in card


@pytest.mark.parametrize(("game", "lang"), PUBLISHED)
def test_the_rulebooks_rulings_quote_what_the_sources_say(
    built_print: tuple[Path, object], game: str, lang: str
) -> None:
    book = _text(built_print[0] / lang / game / "rulebook-a4.pdf")
    # the appendix quotes the same passages (and rulings quote what entries cite): what
    # only the rulings show is their label, once per ruling that quotes
    spec = loaded(game).spec
    label = _flat(_ui(lang, "page.ruling", SAYS))
    assert book.count(label) == len([r for r in spec.rulings if r.says])
    # a PDF's text may hold a ligature or a compatibility form where the quote has letters
    folded = unicodedata.normalize("NFKC", book)
    for ruling in spec.rulings:
        for quoted in (q for p in ruling.says for q in p.quotes()):
            flat = re.sub(r"\s+", "", quoted)  # verbatim: no apostrophe is typeset
            assert unicodedata.normalize("NFKC", flat) in folded, (ruling.id, quoted)
