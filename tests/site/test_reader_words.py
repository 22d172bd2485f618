"""Words readers see, in their language: player colours, names in states, parameters, numbers.

Read from the session's build (the main job's sites and PDFs) and from the
scorer's reports:

- the Japanese worked examples name the players by the colours the Japanese
  rulebook prints (緑, 橙 …), in the table states and in the texts around them,
  on the pages, in Chromium and in the printed rulebook;
- a card's name inside a table state is a translated game message: Czech pages
  show the Czech termbase's name, Japanese pages the name the Japanese rulebook
  keeps in English;
- the Sources page gives each parameter as its sentence and then its value,
  never "Description.: value" (or "。：" in Japanese);
- Japanese lists a passage's lines with 、 and sets a minus sign (U+2212) before
  a negative number, on the pages, in print and in the score reports;
- Sphinx's ``.buildinfo`` stays in the build's work folder, out of the site.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rulepress.gate import html_text, pdf_text, source_quotes, without_quotes
from rulepress.i18n.reader_text import japanese_minus
from rulepress.i18n.typography import MINUS
from rulepress.sphinx_ext.build import SiteBuild
from rulepress.sphinx_ext.deploy import BUILD_STATE
from tests.conftest import LOCALES, PUBLISHED, SPEC_ROOT, loaded, run_main
from tests.site.conftest import page

#: the player colours of Brink's worked examples, as the Japanese rulebook writes them
#: (青プレイヤー, 紫と緑のプレイヤー, 橙プレイヤー, 黄プレイヤー; teal is not in it)
JA_COLOURS = {"Blue": "青", "Green": "緑", "Orange": "橙", "Purple": "紫", "Yellow": "黄"}
#: an English colour word as a word of its own ("Greenは" too: Japanese has no spaces)
ENGLISH_COLOUR = re.compile(r"(?<![A-Za-z])(?:Blue|Green|Orange|Purple|Teal|Yellow)(?![A-Za-z])")
#: what the Sources page says of the parameter "rounds" (3 rounds, rule 1.1)
ROUNDS = {
    "en": "Rounds in a game. Value: 3 (1.1)",
    "cs": "Počet kol ve hře. Hodnota: 3 (1.1)",
    "ja": "ゲームのラウンド数。値：3（1.1）",
}


def _text(html: str) -> str:
    """A page's text as a reader reads it, on one line."""
    return " ".join(html_text(html).split())


def _example(html: str, example: str) -> str:
    """One worked example's section of an examples page (HTML)."""
    start = html.index(f'<section id="example-{example}">')
    return html[start : html.index("</section>", start)]


def _states(html: str) -> Iterator[str]:
    """The table state of each worked example on a page (HTML of its fold)."""
    for match in re.finditer(r"<details[^>]*\brp-fold\b.*?</details>", html, re.DOTALL):
        yield match.group()


@pytest.mark.slow
def test_japanese_states_name_the_players_by_the_rulebooks_colours(site: SiteBuild) -> None:
    html = page(site, "ja", "brink", "examples")
    [state] = _states(_example(html, "sorelia-revolt"))
    players = re.findall(r"<strong>([^<]*)</strong>", state)[:4]
    assert players == [JA_COLOURS[c] for c in ("Orange", "Blue", "Purple", "Green")]
    # the taker on the table is a player too: shown by the same word
    assert "取るプレイヤー：橙" in _text(state)
    # no English colour anywhere on the page: states, results, texts around them
    assert ENGLISH_COLOUR.findall(_text(html)) == []
    for game, lang in PUBLISHED:
        if lang == "ja":
            for name in ("examples", "sequences", "rules"):
                assert ENGLISH_COLOUR.findall(_text(page(site, lang, game, name))) == [], name


@pytest.mark.slow
@pytest.mark.browser
def test_a_japanese_state_shows_the_colours_in_chromium(site: SiteBuild, tab: Any) -> None:
    tab.goto((site.out / "ja" / "brink" / "examples.html").as_uri())
    fold = tab.locator("#example-trading-favors details.rp-fold")
    fold.locator("summary").click()
    shown = fold.inner_text()
    heads = fold.locator("strong").all_inner_texts()
    assert heads[:4] == ["青", "紫", "橙", "緑"]
    assert "取引相手：緑" in shown  # a trade's partner, a player by its colour
    assert ENGLISH_COLOUR.findall(shown) == []


@pytest.mark.slow
def test_card_names_in_states_are_translated(site: SiteBuild) -> None:
    cs = "".join(_states(page(site, "cs", "brink", "examples")))
    ja = "".join(_states(page(site, "ja", "brink", "examples")))
    hands = len(
        re.findall(
            r"Prestigious Maneuvers", "".join(_states(page(site, "en", "brink", "examples")))
        )
    )
    assert hands == 10  # the cards in hand the English states name
    # Czech writes the card as its termbase does; "Prestižní manévry (Ventus)" keeps the colour
    assert len(re.findall("Prestižní manévry", cs)) == hands
    assert "Prestigious" not in cs
    # the Japanese rulebook prints the card's English name: so do its states
    assert len(re.findall("Prestigious Maneuvers", ja)) == hands


def test_names_in_states_are_messages_of_the_games_catalogs() -> None:
    template = (LOCALES / "brink.pot").read_text(encoding="utf-8")
    context = 'msgctxt "examples/seed-influence-example/state/players/Aiko/hand/0/name"'
    assert context in template
    characters = (LOCALES / "stationfall.pot").read_text(encoding="utf-8")
    context = 'msgctxt "examples/plus-line-voided/state/players/Ada/bonus_character/name"'
    assert f'{context}\nmsgid "Security"' in characters


@pytest.mark.slow
@pytest.mark.parametrize(("game", "lang"), PUBLISHED)
def test_the_sources_page_gives_each_parameter_as_a_sentence_and_its_value(
    site: SiteBuild, game: str, lang: str
) -> None:
    if not loaded(game).spec.sources:
        # a game that names no source has no Sources page (its parameters are in its rules)
        assert not (site.out / lang / game / "sources.html").exists()
        return
    text = _text(page(site, lang, game, "sources"))
    assert not re.search(r"[.。] ?[:：]", text), "a colon after a sentence"
    # every parameter's value is on the page, after its sentence
    pattern = {"en": " Value: ", "cs": " Hodnota: ", "ja": "値："}[lang]
    assert text.count(pattern) == len(loaded(game).spec.parameters)


@pytest.mark.slow
def test_japanese_lists_a_passages_lines_with_its_own_separator(site: SiteBuild) -> None:
    for game in ("brink", "stationfall"):
        text = _text(page(site, "ja", game, "sources"))
        assert not re.search(r"\d, \d", text)
    # the parameter "rounds" comes from lines 15 and 74 of the Japanese rulebook
    assert "15、74行目" in _text(page(site, "ja", "brink", "sources"))
    assert "lines 15, 74" in _text(page(site, "en", "brink", "sources"))


@pytest.mark.slow
def test_japanese_pages_set_a_minus_sign(site: SiteBuild) -> None:
    examples = _text(page(site, "ja", "brink", "examples"))
    assert f"個人サプライの増減：{MINUS}1" in examples
    for path in sorted((site.out / "ja").rglob("*.html")):
        if "_static" not in path.parts and path.name != "search.html":
            assert japanese_minus(_text(path.read_text(encoding="utf-8"))) == [], path.name


def test_japanese_reports_set_a_minus_sign() -> None:
    run = run_main("score", "brink", "--example", "council-ua-negative", "--lang", "ja")
    assert run.code == 0, run.err
    assert f"Magnomi {MINUS}1、Ventus 3" in run.out
    assert f"（{MINUS}4票）" in run.out
    assert japanese_minus(run.out) == []
    # a report in English keeps the ASCII hyphen its readers type
    english = run_main("score", "brink", "--example", "council-ua-negative")
    assert "Magnomi -1" in english.out


@pytest.mark.slow
@pytest.mark.print
def test_the_japanese_rulebook_prints_the_same_words(built_print: tuple[Path, object]) -> None:
    printed, _ = built_print
    book = " ".join(pdf_text(printed / "ja" / "brink" / "rulebook-a4.pdf").split())
    # the rulebook's own words, quoted in the Sources appendix, keep their hyphens
    book = without_quotes(book, source_quotes(SPEC_ROOT))
    assert ENGLISH_COLOUR.findall(book) == []
    assert "橙プレイヤー" in book.replace(" ", "")
    assert f"{MINUS}2票" in book.replace(" ", "")
    assert japanese_minus(book) == []
    assert "15、74行目" in book.replace(" ", "")


@pytest.mark.slow
def test_build_state_stays_out_of_the_deployed_site(site: SiteBuild) -> None:
    deployed = [p for p in site.out.rglob("*") if p.name in BUILD_STATE]
    assert deployed == []
    # Sphinx keeps it where it builds, for its next build
    assert all((site.stage / lang / ".buildinfo").is_file() for lang in site.languages)
