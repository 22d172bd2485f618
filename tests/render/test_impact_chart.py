"""The impact chart: text that came from a spec stays text, numbers are the reader's, output is stable.

A step title is the spec's (untrusted) text: it reaches the SVG through
matplotlib as text, escaped, so the document stays well-formed XML with no
element the title spelled, and the title reads back exactly. The test goes
red if math parsing is turned back on (a ``$`` pair is typeset, not shown)
or if a label is written into the SVG as markup.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from defusedxml import ElementTree

from rulepress.games import load_spec
from rulepress.i18n.runtime import localize
from rulepress.i18n.typography import MINUS, typeset
from rulepress.impact.report import ImpactReport, Population, Side, StepImpact
from rulepress.render.impact_chart import BAR, LABELS, MAX_BARS, impact_chart
from tests.conftest import LOCALES, ROOT, edit, loaded

SVG = "{http://www.w3.org/2000/svg}"
HOSTILE = "<script>alert('x')</script> & \"Q\" $x^2$ ]]> <!-- end"


def _report(steps: dict[str, list[tuple[int, int]]], totals: list[tuple[int, int]]) -> ImpactReport:
    return ImpactReport(
        game="brink",
        population=Population(kind="drawn", seed=1, sequence="end-of-game"),
        before=Side(edition=None, options={}),
        after=Side(edition=None, options={"sorelia_cubes_at_end": "sorelia_not_wild"}),
        tables=1200,
        players=4800,
        refused=0,
        refusals=[],
        bad_records=0,
        bad=[],
        changed={"winner": 3, "score": 600},
        total_diffs=totals,
        steps=[StepImpact(step=s, changed={"score": 1}, diffs=d) for s, d in steps.items()],
        lines=[],
        causes=[],
        smallest=[],
    )


def _texts(svg: bytes) -> list[str]:
    """Every text the SVG shows, read back through a safe XML parser (it must parse)."""
    root = ElementTree.fromstring(svg)
    return ["".join(t.itertext()) for t in root.iter(f"{SVG}text")]


def test_a_hostile_step_title_is_shown_as_text(spec_copy: Path) -> None:
    edit(
        spec_copy / "brink" / "sequences.yaml",
        "title: Prestige from Play",
        f"title: {json.dumps(HOSTILE)}",
    )
    spec = load_spec(spec_copy / "brink").spec
    svg = impact_chart(_report({"1": [(-2, 5), (3, 1200)]}, [(1, 4)]), spec, "en")
    root = ElementTree.fromstring(svg)
    assert not [e for e in root.iter() if e.tag.endswith("script")]
    # as the page sets it: the pair of straight quotes becomes the language's marks
    assert typeset(f"1 {HOSTILE}", "en") in _texts(svg)
    assert b"<script>" not in svg


@pytest.mark.parametrize(("lang", "number"), [("en", "2,000"), ("cs", "2\xa0000")])
def test_numbers_are_written_as_the_locale_writes_them(lang: str, number: str) -> None:
    svg = impact_chart(_report({"1": [(-3, 2400)]}, []), loaded("brink").spec, lang)
    texts = _texts(svg)
    assert number in texts, texts
    assert "-3" in texts or f"{MINUS}3" in texts


@pytest.mark.parametrize("lang", ["cs", "ja"])
def test_a_negative_difference_has_the_languages_minus_sign(lang: str) -> None:
    """Czech and Japanese type set a minus sign, not Babel's hyphen (as the site's text does)."""
    svg = impact_chart(_report({"1": [(-3, 5), (2, 1)]}, []), loaded("brink").spec, lang)
    texts = _texts(svg)
    assert [t for t in texts if t.startswith(MINUS)], texts
    assert not [t for t in texts if t.startswith("-")], texts


def test_a_wide_spread_of_differences_is_grouped_into_ranges_a_reader_can_see() -> None:
    """Totals that move by hundreds: bars of equal ranges, none thinner than the chart allows."""
    spread = [(d, 1) for d in range(-450, 601, 7) if d]
    svg = impact_chart(_report({"1": spread}, spread), loaded("brink").spec, "en")
    root = ElementTree.fromstring(svg)
    bars = [e for e in root.iter(f"{SVG}path") if f"fill: {BAR}" in (e.get("style") or "")]
    # two rows of at most MAX_BARS bars each, not a bar for each of the 150 differences
    assert 2 < len(bars) <= 2 * MAX_BARS, len(bars)


def test_labels_are_the_interface_sentences_in_the_readers_language() -> None:
    shown = {str(v): f"«{v}»" for v in LABELS.values()}
    svg = impact_chart(
        _report({"1": [(2, 7)]}, [(2, 7)]), loaded("brink").spec, "en", lambda t: shown.get(t, t)
    )
    texts = _texts(svg)
    for key in ("title", "x", "y", "total"):
        assert typeset(shown[str(LABELS[key])], "en") in texts, key


def test_the_same_report_draws_the_same_bytes() -> None:
    report = _report({"1": [(-2, 5), (4, 9)], "2": [(1, 1)]}, [(2, 14)])
    spec = loaded("brink").spec
    first = impact_chart(report, spec, "ja")
    assert first == impact_chart(report, spec, "ja")
    assert b"Date" not in first
    assert b"Matplotlib v" not in first


def test_a_report_without_differences_says_so() -> None:
    svg = impact_chart(_report({}, []), loaded("brink").spec, "en")
    assert typeset(LABELS["none"], "en") in _texts(svg)


def test_the_publishers_guide_shows_the_chart_rulepress_draws_today() -> None:
    """docs/publishers.md's chart, drawn again from the report beside it (the guide says how)."""
    folder = ROOT / "docs" / "impact"
    report = ImpactReport.model_validate_json((folder / "sorelia-not-wild.json").read_bytes())
    local = localize(loaded("brink"), "en", LOCALES)
    svg = impact_chart(report, local.loaded.spec, "en", local.renderer.translate)
    assert svg == (folder / "sorelia-not-wild.svg").read_bytes(), "redraw it: docs/publishers.md"
