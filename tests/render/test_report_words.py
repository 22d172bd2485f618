"""What a reader of the text report sees in Czech and Japanese: words for ids, their punctuation.

Every worked example of every game is scored and written out in each of
its translated languages; no message may fall back to English (model
defaults included), no id that has a label may show raw, and Japanese
lines use full-width punctuation between their parts.
"""

from __future__ import annotations

import re

import pytest

from rulepress.i18n.runtime import localize
from rulepress.render.score_text import render_text
from rulepress.scoring.examples import run_example
from tests.conftest import GAMES, LOCALES, loaded

CASES = [
    (game, lang) for game in GAMES for lang in loaded(game).spec.game.languages if lang != "en"
]


def _reports(game: str, lang: str) -> tuple[list[str], list[str]]:
    spec = loaded(game)
    local = localize(spec, lang, LOCALES)
    reports = [
        render_text(
            run_example(local.loaded, i, renderer=local.renderer),
            local.loaded.spec,
            local.renderer.translate,
        )
        for i in range(len(spec.spec.examples))
    ]
    return reports, local.warnings()


@pytest.mark.parametrize(("game", "lang"), CASES, ids=[f"{g}-{lang}" for g, lang in CASES])
def test_every_report_is_wholly_translated(game: str, lang: str) -> None:
    reports, warnings = _reports(game, lang)
    assert warnings == []
    spec = loaded(game).spec
    # ids of vote candidates and cube routes have labels: none may show raw
    ids = {
        key
        for seq in spec.sequences
        for step in seq.steps
        if step.tally
        for key in (*step.tally.candidates, *step.tally.routes)
    }
    for report in reports:
        raw = {w for w in re.findall(r"[a-z][a-z-]+", report) if w in ids}
        assert raw == set(), raw


def test_japanese_report_lines_use_full_width_punctuation() -> None:
    reports, _ = _reports("brink", "ja")
    # the council's totals after each stage of counting, each citing its rule
    council = next(r for r in reports if "最初の合計" in r)
    assert "最初の合計（14.4.1）：" in council
    assert "（14.1、14.2、14.3、14.4）" in council
    assert re.search(r"[A-Za-z]+×\d", council)  # Komek×1: the count after the colour
    for line in council.splitlines():
        if re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", line):
            assert not re.search(r"[\u3040-\u30ff\u4e00-\u9fff]: |\(|\)|; ", line), line


@pytest.mark.parametrize(
    ("lang", "joined"),
    [
        ("en", "gus and hana"),
        ("cs", "gus a\u00a0hana"),
        ("ja", "gus、hana"),
    ],  # Czech: a no-break space
)
def test_players_are_listed_as_the_language_lists_them(lang: str, joined: str) -> None:
    from rulepress.scoring.notes import Names, NoteRenderer, plain_context

    renderer = NoteRenderer(lang, plain_context(loaded(GAMES[0]).spec))
    assert renderer.text("{winners} share the win", {"winners": Names(["gus", "hana"])}) == (
        f"{joined} share the win"
    )


@pytest.mark.parametrize(
    "lang", sorted({lang for g in GAMES for lang in loaded(g).spec.game.languages})
)
def test_the_reference_card_footer_is_worded_in_its_language(lang: str) -> None:
    from rulepress.render import print_trees, print_writer
    from rulepress.render.context import RenderContext

    game = GAMES[0]
    local = localize(loaded(game), lang, LOCALES)
    spec = local.loaded.spec
    assert spec.publishing is not None
    card = spec.publishing.reference_card
    ctx = RenderContext(spec, lang, local.renderer.translate, str)
    tree = print_trees.reference_card(ctx, card.sequences, card.tables)
    html = print_writer.write(tree, "2026-01-01T00:00:00Z")
    (footer,) = re.findall(r"<footer>(.*?)</footer>", html, re.S)
    assert " · " not in footer  # the language's own words and punctuation, not a dot
    assert spec.game.version in footer
    if lang != "en":
        assert "spec version" not in footer
