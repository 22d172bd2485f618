"""The catalogs hold exactly what readers see: nothing used is untranslated, nothing unused is kept.

Every output is rendered with lookups recorded (rulepress.i18n.usage): the
real site build and the real print build of every game and language (the
session's own builds, shared with the site and print tests), and the
scorer's text and JSON report of every worked example in every language,
every note read, and the diff report of two editions of a fixture game. The interface catalog serves every game a designer may
write, so the reports of the fixture games of tests/data/specs (the third
game's majorities, say) count too, in every language, their own texts in
English. Then, for each language and domain:

- no message an output looked up lacks a translation (the reader would see
  English; ``i18n stats`` would still say 100 %);
- every message of the catalog was looked up by some output (otherwise a
  translator maintains it for nothing, and ``i18n stats`` counts it).

The theme's catalog is the exception: Sphinx's templates look its messages up
through gettext, not through rulepress, so it is held to its templates by
extraction (``i18n extract --check``) and its output by the publication gate.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po, write_po

from rulepress.editions.diff import diff_specs
from rulepress.games.load import load_spec
from rulepress.i18n.catalog_shapes import source_text
from rulepress.i18n.catalogs import find_catalog
from rulepress.i18n.extract import INTERFACE
from rulepress.i18n.runtime import interface_translator, localize
from rulepress.i18n.usage import Usage, recording
from rulepress.impact.question import Question, run
from rulepress.impact.report import build_report
from rulepress.impact.rulesets import RuleSet
from rulepress.impact_reports import report_chart, report_text
from rulepress.model.loaded import LoadedSpec
from rulepress.model.spec_model import Spec
from rulepress.population.sampler import draw_states
from rulepress.render.diff_text import render_diff
from rulepress.render.impact_lines import weight_blocks
from rulepress.render.score_text import render_text
from rulepress.scoring.examples import run_example
from rulepress.scoring.result import to_json
from rulepress.yamlsrc import find_game_dirs
from tests.conftest import DATA, GAMES, LOCALES, TRANSLATIONS, edit, loaded

pytestmark = pytest.mark.slow


def _languages() -> list[str]:
    """Every translated language of any game (English is the source: nothing to look up).

    From each game's game.yaml (conftest reads them), not from its whole spec: the tests
    are parametrized over these at collection, which every pytest process does (the
    suites run inside tests among them), whether it runs these tests or not.
    """
    return sorted(TRANSLATIONS)


def _other_final_tie(spec: LoadedSpec) -> LoadedSpec:
    """The spec with every winners step choosing the other way: a last tie settled the
    other way (share ↔ report), and the places counted among the other players
    (eligible ↔ all).

    The interface catalog serves every game a designer may write, so its
    sentences for the choice our games do not make must be shown too. A field a
    ruling chooses (an expression) is turned round as a whole.
    """

    def other(value: str, swap: dict[str, str]) -> str:
        if value in swap:
            return swap[value]
        first, second = swap
        return f"'{second}' if ({value}) == '{first}' else '{first}'"

    def flip(steps: list[dict[str, Any]]) -> None:
        for step in steps:
            if step.get("winners"):
                rule = step["winners"]
                rule["final_tie"] = other(rule["final_tie"], OTHER)
                rule["places_among"] = other(rule["places_among"], OTHER_PLACES)
            flip(step.get("steps") or [])

    data = spec.spec.model_dump()
    for seq in data["sequences"]:
        flip(seq["steps"])
    return LoadedSpec(Spec.model_validate(data), spec.sources, spec.directory)


OTHER = {"share": "report", "report": "share"}
OTHER_PLACES = {"eligible": "all", "all": "eligible"}


def _fixture_games() -> list[LoadedSpec]:
    """The fixture games, published in every translated language (their own texts untranslated)."""
    out = []
    for directory in find_game_dirs(DATA / "specs"):
        if directory.name in GAMES:
            # a frozen copy of one of our games (the bad-state cases read it): its
            # domain is the real game's, whose catalog follows the live spec
            continue
        game = load_spec(directory)
        data = game.spec.model_dump()
        data["game"]["languages"] = ["en", *_languages()]
        out.append(LoadedSpec(Spec.model_validate(data), game.sources, game.directory))
    return out


def _reports() -> Usage:
    """The scorer's report of every example in every language, text and JSON, every note read."""
    games = [loaded(game) for game in GAMES] + _fixture_games()
    with recording() as usage:
        for game in games:
            for lang in game.spec.game.languages:
                local = localize(game, lang, LOCALES)
                for spec in (local.loaded, _other_final_tie(local.loaded)):
                    for i in range(len(spec.spec.examples)):
                        # as the score command reports: each line names the ruling
                        # that decided it
                        result = run_example(spec, i, renderer=local.renderer, cite_rulings=True)
                        render_text(result, spec.spec, local.renderer.translate)
                        to_json(result)  # reads every note's text and arguments
    return usage


EDITIONS = DATA / "editions"


def _diff_reports(tmp: Path) -> Usage:
    """The diff report, in every translated language, of the fixture's two editions (every
    kind of change), of an old edition that is undated, has more table cells and whose own
    check refuses an example, and of an edition against itself (the fixture game's own
    texts stay English)."""
    old = tmp / "old"
    shutil.copytree(EDITIONS / "first" / "harbour", old)
    edit(old / "examples.yaml", "goods: {fish: 9}", "goods: {fish: 10}")
    # an undated edition, and table cells the new edition drops, a run of keys
    edit(old / "game.yaml", '  date: "2026-01-15"\n', "")
    edit(
        old / "tables.yaml",
        "      - {min: 5, value: 15}\n",
        "      - {min: 5, value: 15}\n      - {min: 6, max: 7, value: 20}\n",
    )
    first, second = (
        load_spec(EDITIONS / "first" / "harbour"),
        load_spec(EDITIONS / "second" / "harbour"),
    )
    pairs = [(first, second), (load_spec(old, isolate_examples=True), second), (second, second)]
    with recording() as usage:
        for lang in _languages():
            translate = interface_translator(LOCALES, lang)
            for before, after in pairs:
                result = diff_specs(before, after, "old", "new")
                render_diff(result, lang, after.spec.game.title, translate)
    return usage


def _impact_reports(tmp: Path) -> Usage:
    """The impact report, in every language of a game with ruling options: a drawn question
    whose option changes scores, an edition against an unchanged copy of itself (nothing
    changes), and a recorded corpus with a bad record and a table the game refuses."""
    for game in GAMES:
        spec = loaded(game)
        options = [o.id for r in spec.spec.rulings for o in r.options if o.id != r.default]
        if options:
            break
    else:
        return Usage()
    game_dir = str(spec.directory.resolve())
    questions = []
    for option in options:  # the first option that changes a score over a few tables
        asked = Question(RuleSet(game_dir), RuleSet(game_dir, None, (option,)), tables=12)
        report = build_report(asked, run(asked, workers=1), shrink_budget=20)
        if report.changed["score"]:
            questions.append((asked, report))
            break
    old = tmp / "old"
    shutil.copytree(spec.directory, old / game)
    same = Question(RuleSet(game_dir, str(old)), RuleSet(game_dir), tables=4)
    questions.append((same, build_report(same, run(same, workers=1), shrink_budget=20)))
    corpus = tmp / "tables.jsonl"
    drawn = [json.dumps(s) for s in draw_states(spec, None, seed=1, count=3)]
    corpus.write_text("\n".join([*drawn, "{not json", '{"players": 3}']) + "\n", encoding="utf-8")
    recorded = Question(
        RuleSet(game_dir), RuleSet(game_dir, None, (options[0],)), corpus=str(corpus)
    )
    questions.append((recorded, build_report(recorded, run(recorded, workers=1), shrink_budget=20)))
    with recording() as usage:
        for lang in spec.spec.game.languages:
            for _, report in questions:
                report_text(report, spec.directory, lang, LOCALES)
                report_chart(report, spec.directory, lang, LOCALES)  # --out's chart.svg
            # the chart on the changes page of an edition that moves points (the previous
            # edition the tests build moves none)
            moved = questions[0][1]
            local = localize(spec, lang, LOCALES)
            renderer = local.renderer
            weight_blocks(
                moved,
                local.loaded.spec,
                lang,
                renderer.translate,
                translate_plural=renderer.translate_plural,
            )
    return usage


@pytest.fixture(scope="module")
def usage(
    built_site: tuple[object, Usage],
    built_print: tuple[Path, Usage],
    tmp_path_factory: pytest.TempPathFactory,
) -> Usage:
    merged = Usage()
    diffs = _diff_reports(tmp_path_factory.mktemp("editions"))
    impact = _impact_reports(tmp_path_factory.mktemp("impact"))
    for part in (built_site[1], built_print[1], _reports(), diffs, impact):
        for key, ids in part.used.items():
            merged.used.setdefault(key, set()).update(ids)
        for key, ids in part.missing.items():
            merged.missing.setdefault(key, set()).update(ids)
    return merged


def _catalog_ids(lang: str, domain: str) -> set[str]:
    path = find_catalog(LOCALES, lang, domain)  # rulepress's own catalogs are the package's
    with path.open("rb") as f:
        catalog = read_po(f, locale=lang)
    if domain in GAMES:  # a plural or ICU entry is looked up by the spec's own English
        return {source_text(m) for m in catalog if m.id}
    return {m.id[0] if isinstance(m.id, tuple | list) else m.id for m in catalog if m.id}


def _domains(lang: str) -> list[str]:
    return [INTERFACE, *(g for g in GAMES if lang in loaded(g).spec.game.languages)]


@pytest.mark.parametrize("lang", _languages())
def test_nothing_an_output_uses_is_untranslated(usage: Usage, lang: str) -> None:
    missing = {d: sorted(usage.missing.get((lang, d), ())) for d in _domains(lang)}
    assert {d: ids for d, ids in missing.items() if ids} == {}


#: interface sentences for what no game here does, each with why it is kept and the test
#: that shows it (a sentence listed here that the outputs do use, or that the catalog no
#: longer has, fails the test below, so the list cannot go stale)
OTHER_GAMES_ONLY = {
    # a kind held that no rate applies to, in a spec that says nothing of it (Brink does):
    # tests/scoring/test_choice_alternatives.py
    "no rate applies to it": "a rate of 0 without the spec's reason",
    # a choice with one option open (our games always offer several factions):
    # tests/scoring/test_choice_alternatives.py
    "{choice}: adds {points}": "a choice without an alternative",
    # a language published as a preview (neither Czech nor Japanese is one):
    # tests/site/test_preview.py, tests/i18n/test_languages.py
    "This translation is a preview: it is not finished, and some of its text is still"
    " shown in English.": "the preview notice",
    "preview": "the language menu's mark of a preview",
    # a vote that breaks its ties in the order of its candidates (Brink's council reads
    # the order from the table): tests/render/test_contents_and_ties.py
    "Tied candidates rank in this order": "a vote without a tie order",
    # a previous edition of another version (both games record the one they still are,
    # 2026.11): tests/render/test_changes.py, on Harbourmasters 1 and 2
    "What changed from version {old} to version {new}.": "the changes of a new version",
}


@pytest.mark.parametrize("lang", _languages())
def test_every_catalog_message_is_used_by_some_output(usage: Usage, lang: str) -> None:
    unused = {
        d: sorted(_catalog_ids(lang, d) - usage.used.get((lang, d), set())) for d in _domains(lang)
    }
    assert sorted(OTHER_GAMES_ONLY) == [m for m in unused[INTERFACE] if m in OTHER_GAMES_ONLY]
    unused[INTERFACE] = [m for m in unused[INTERFACE] if m not in OTHER_GAMES_ONLY]
    assert {d: ids for d, ids in unused.items() if ids} == {}


def test_the_recording_sees_a_lookup_and_a_miss(tmp_path: Path) -> None:
    """The record itself: a lookup is recorded, a catalog without the message records a miss."""
    lang = _languages()[0]
    game = next(g for g in GAMES if lang in loaded(g).spec.game.languages)
    folder = tmp_path / lang / "LC_MESSAGES"
    folder.mkdir(parents=True)
    for domain in (INTERFACE, game):
        with find_catalog(LOCALES, lang, domain).open("rb") as f:
            catalog = read_po(f, locale=lang)
        if domain == game:  # one spec message loses its translation
            next(m for m in catalog if m.id).string = ""
        with (folder / f"{domain}.po").open("wb") as f:
            write_po(f, catalog)
    with recording() as usage:
        localize(loaded(game), lang, tmp_path)
    assert usage.used[(lang, game)]
    assert len(usage.missing[(lang, game)]) >= 1
