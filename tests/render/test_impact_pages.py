"""The weight lines and charts in the page trees, and how each writer shows a chart.

Quick tests of the trees, without Sphinx's build: the Rulings page puts the
weight of each option other than the default under it (and nothing under the
default), the changes page puts the edition's under its first line, the site's
converter makes an image of the embedded SVG with its words as alt text, the
print writer leaves it out and the terminal gives its words.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from docutils import nodes
from docutils.frontend import get_default_settings
from docutils.utils import new_document

from rulepress.i18n.runtime import localize
from rulepress.i18n.typography import typeset
from rulepress.impact.report import ImpactReport, Population, Side, StepImpact
from rulepress.render import print_writer, text_writer, tree
from rulepress.render.context import RenderContext
from rulepress.render.impact_lines import SHARES, percent, weight_blocks
from rulepress.render.pages import game_pages
from rulepress.render.patterns import fill_text
from rulepress.sphinx_ext.doctree import PageParser
from tests.conftest import LOCALES, loaded

GAME = "brink"


def _report(winners: int, moved: bool, tables: int = 2000) -> ImpactReport:
    return ImpactReport(
        game=GAME,
        population=Population(kind="drawn", seed=7, sequence="end-of-game"),
        before=Side(edition=None, options={}),
        after=Side(edition=None, options={}),
        tables=tables,
        players=4 * tables,
        refused=0,
        refusals=[],
        bad_records=0,
        bad=[],
        changed={"winner": winners},
        total_diffs=[(-3, 40)] if moved else [],
        steps=[StepImpact(step="4", changed={"score": 40}, diffs=[(-3, 40)])] if moved else [],
        lines=[],
        causes=[],
        smallest=[],
    )


def _blocks(nodes_: list[tree.Block]) -> list[Any]:
    out: list[Any] = []
    for node in nodes_:
        out.append(node)
        for name in ("children", "items"):
            for child in getattr(node, name, []):
                out += _blocks(child if isinstance(child, list) else [child])
    return out


@pytest.mark.parametrize("lang", ["en", "cs", "ja"])
def test_the_rulings_page_weighs_each_option_but_the_default(lang: str) -> None:
    local = localize(loaded(GAME), lang, LOCALES)
    ctx = RenderContext.of(local, lang)
    others = [o.id for r in ctx.spec.rulings for o in r.options if o.id != r.default]
    weights = {
        option: weight_blocks(
            _report(64, i == 0), ctx.spec, lang, ctx.translate, option, ctx.translate_plural
        )
        for i, option in enumerate(others)
    }
    page = game_pages(ctx, weights=weights)["rulings"]
    found = _blocks(page.blocks)
    lines = [b for b in found if isinstance(b, tree.Paragraph) and "rp-weight" in b.classes]
    assert len(lines) == len(others)
    expected = fill_text(
        ctx.translate_plural(SHARES["option"], 2000),
        share=percent(64 / 2000, lang),
        tables="2\xa0000" if lang == "cs" else "2,000",
        seed="7",
    )
    assert tree.plain_text(lines[0].children) == expected
    # one option moved points: its chart; the others moved none, so they have none
    assert len([b for b in found if isinstance(b, tree.Chart)]) == 1


@pytest.mark.parametrize(
    ("lang", "tables", "words"),
    [
        ("en", 1, "of 1 drawn table (seed"),
        ("en", 3, "of 3 drawn tables (seed"),
        ("cs", 1, "z 1 náhodně vylosované partie"),
        ("cs", 3, "z 3 náhodně vylosovaných partií"),
        ("cs", 5, "z 5 náhodně vylosovaných partií"),
        ("ja", 1, "無作為に抽出した1卓のうち"),
    ],
)
def test_the_weight_line_is_worded_for_its_number_of_tables(
    lang: str, tables: int, words: str
) -> None:
    local = localize(loaded(GAME), lang, LOCALES)
    ctx = RenderContext.of(local, lang)
    blocks = weight_blocks(
        _report(0, False, tables), ctx.spec, lang, ctx.translate, "sorelia_not_wild",
        ctx.translate_plural,
    )  # fmt: skip
    assert words in tree.plain_text(blocks[0].children)


def test_a_chart_is_an_image_on_the_site_left_out_of_print_and_words_in_the_terminal() -> None:
    spec = loaded(GAME).spec
    blocks = weight_blocks(_report(1, True), spec, "en", lambda t: t, "sorelia_not_wild")
    chart = blocks[-1]
    assert isinstance(chart, tree.Chart)
    # the alternative text says which ruling and option it weighs (a page has many charts)
    assert "“Not wild”" in chart.alt
    assert "Sorelia" in chart.alt
    page = tree.Page(blocks=[tree.Section(label="w", title=tree.text("W"), children=blocks)])
    settings: Any = get_default_settings()
    std = SimpleNamespace(note_object=lambda *a, **k: None, note_term=lambda *a, **k: None)
    settings.env = SimpleNamespace(
        config=SimpleNamespace(language="en", rulepress_games={}),
        current_document=SimpleNamespace(docname="brink/rulings"),
        domains=SimpleNamespace(standard_domain=std),
    )
    document = new_document("brink/rulings", settings)
    PageParser().parse(page.to_json(), document)
    (image,) = document.findall(nodes.image)
    assert image["uri"] == chart.src
    assert image["alt"] == typeset(chart.alt, "en")
    assert "rp-chart" in image["classes"]
    printed = print_writer.blocks(page.blocks)
    assert "data:image" not in str(printed)
    assert "and for how many players." in text_writer.write(page, "en")


def test_a_chart_is_only_ever_an_embedded_svg() -> None:
    with pytest.raises(ValueError, match="should match pattern"):
        tree.Chart(src="https://example.org/x.svg", alt="")
    with pytest.raises(ValueError, match="should match pattern"):
        tree.Chart(src="data:text/html;base64,PHNjcmlwdD4=", alt="")


def test_the_percentage_is_the_locales() -> None:
    assert percent(0.032, "en") == "3.2%"
    assert percent(0.032, "cs") == "3,2\xa0%"
    assert percent(0.032, "ja") == "3.2%"


def test_the_terminal_shows_a_literal_block_line_by_line() -> None:
    block = tree.CodeBlock(text="- id: x\n  state: {a: 1}\u202e", language="yaml")
    page = tree.Page(blocks=[tree.Section(label="w", title=tree.text("W"), children=[block])])
    shown = text_writer.write(page, "en").splitlines()
    # an invisible character of a state is shown as its code, never acted on
    assert shown[1:3] == ["  - id: x", "    state: {a: 1}<U+202E>"]
