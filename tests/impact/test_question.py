"""The impact of a rule change, checked against brute force on small populations.

Every figure of the report is recomputed here from full, traced results of
each table under both rule sets, without the impact package's own outcome
or tally code; chunking, causes and recorded corpora are checked the same
way.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

from rulepress.errors import UsageError
from rulepress.expressions.budget import command_budget
from rulepress.games import load_spec
from rulepress.impact.question import Chunk, Question, chunks, run, run_chunk
from rulepress.impact.report import build_report
from rulepress.impact.rulesets import RuleSet
from rulepress.impact.tally import merge
from rulepress.model.spec_model import all_steps
from rulepress.population.sampler import draw_states
from rulepress.scoring import score
from rulepress.scoring.examples import check_examples
from rulepress.scoring.result import ScoreResult
from rulepress.scoring.state import check_state
from rulepress.yamlsrc import SourceMap, display_path
from tests.conftest import GAMES, SPEC_ROOT, loaded, run_main

TABLES = 40


def _alternatives() -> list[tuple[str, str, str]]:
    """(game, ruling, an option other than the default) of every game with a ruling."""
    out = []
    for game in GAMES:
        for ruling in loaded(game).spec.rulings:
            others = [o.id for o in ruling.options if o.id != ruling.default]
            if others:
                out.append((game, ruling.id, others[-1]))
                break
    return out


ALTERNATIVES = _alternatives()

#: a ruling option of each of our games that changes results often (tests/test_our_games.py
#: holds the facts of our games; these are used here for the tables they give)
CHANGING = [
    ("stationfall", "data_providers", "surviving_characters"),
    ("brink", "sorelia_cubes_at_end", "sorelia_not_wild"),
]


def _question(game: str, variants: tuple[str, ...], **kw: Any) -> Question:
    game_dir = str((SPEC_ROOT / game).resolve())
    return Question(before=RuleSet(game_dir), after=RuleSet(game_dir, None, variants), **kw)


def _points(result: ScoreResult) -> list[tuple[Any, ...]]:
    return [
        (p.id, p.total, tuple((line.step, line.score, line.points) for line in p.lines))
        for p in result.players
    ]


def _brute(game: str, variants: list[str], raws: list[dict[str, Any]]) -> dict[str, Any]:
    """The report's headline figures, from traced results of every table."""
    spec = loaded(game)
    changed: Counter[str] = Counter()
    diffs: Counter[int] = Counter()
    tables = 0
    for i, raw in enumerate(raws):
        state = check_state(spec, raw, SourceMap(), f"table {i}")
        a = score(spec, state)
        b = score(spec, state, variants=variants)
        tables += 1
        if (a.winners and a.winners.winners) != (b.winners and b.winners.winners):
            changed["winner"] += 1
        if [p.rank for p in a.players] != [p.rank for p in b.players]:
            changed["place"] += 1
        if _points(a) != _points(b):
            changed["score"] += 1
        for pa, pb in zip(a.players, b.players, strict=True):
            ta = pa.total if pa.total is not None else sum(x.points for x in pa.lines)
            tb = pb.total if pb.total is not None else sum(x.points for x in pb.lines)
            if ta != tb:
                diffs[tb - ta] += 1
    return {
        "tables": tables,
        "changed": {k: changed.get(k, 0) for k in ("winner", "place", "score")},
        "total_diffs": sorted(diffs.items()),
    }


@pytest.mark.parametrize(
    ("game", "ruling", "option"), ALTERNATIVES, ids=[a[0] for a in ALTERNATIVES]
)
def test_the_report_agrees_with_brute_force(game: str, ruling: str, option: str) -> None:
    question = _question(game, (option,), seed=7, tables=TABLES)
    report = build_report(question, run(question, workers=1), shrink_budget=200)
    raws = list(draw_states(loaded(game), None, seed=7, count=TABLES))
    expected = _brute(game, [option], raws)
    assert report.tables == expected["tables"] == TABLES
    assert report.refused == 0
    assert report.changed == expected["changed"]
    assert [tuple(d) for d in report.total_diffs] == expected["total_diffs"]
    # the one ruling that differs accounts for every change
    assert [c.cause for c in report.causes] == [ruling]
    assert report.causes[0].changed == report.changed


def test_how_the_tables_are_cut_into_chunks_changes_nothing() -> None:
    game, _, option = ALTERNATIVES[0]
    question = _question(game, (option,), seed=3, tables=30)
    whole = run_chunk(Chunk(question, 0, 30))
    for pieces in (
        chunks(question, 30, 1),
        chunks(question, 30, 4),
        [Chunk(question, i, 1) for i in range(30)],
    ):
        tally = run_chunk(pieces[0])
        for piece in pieces[1:]:
            tally = merge(tally, run_chunk(piece))
        assert tally == whole


def test_each_ruling_is_weighed_alone_when_several_differ() -> None:
    spec = loaded("brink")
    picked = []
    for ruling in spec.spec.rulings:
        others = [o.id for o in ruling.options if o.id != ruling.default]
        if others:
            picked.append((ruling.id, others[0]))
        if len(picked) == 3:
            break
    question = _question("brink", tuple(o for _, o in picked), seed=5, tables=30)
    report = build_report(question, run(question, workers=1), shrink_budget=100)
    raws = list(draw_states(spec, None, seed=5, count=30))
    assert [c.cause for c in report.causes] == [r for r, _ in picked]
    for (ruling, option), cause in zip(picked, report.causes, strict=True):
        alone = _brute("brink", [option], raws)["changed"]
        # counted only among the tables whose result changes under all of them together
        assert all(cause.changed[k] <= alone[k] for k in alone), ruling
    both = _brute("brink", [o for _, o in picked], raws)
    assert report.changed == both["changed"]


@pytest.mark.parametrize(("game", "ruling", "option"), CHANGING, ids=[c[0] for c in CHANGING])
def test_the_smallest_table_pastes_as_a_worked_example(
    game: str, ruling: str, option: str, tmp_path: Path
) -> None:
    if game not in GAMES:
        pytest.skip(f"{game} is not among the games tested")
    question = _question(game, (option,), seed=11, tables=60)
    report = build_report(question, run(question, workers=1), shrink_budget=300)
    assert report.smallest, f"no table of 60 shows a change for {ruling}"
    first_found = {s.kind: s for s in report.smallest}
    copy = tmp_path / game
    import shutil

    shutil.copytree(SPEC_ROOT / game, copy)
    examples = copy / "examples.yaml"
    text = examples.read_text(encoding="utf-8")
    for s in report.smallest:
        text += s.example
        entry = yaml.safe_load(s.example)[0]
        assert entry["variants"] == [option]
        # the shrunk table is no larger than the one drawn
        drawn = next(draw_states(loaded(game), None, seed=11, start=s.index, count=1))
        assert len(entry["state"]["players"]) <= len(drawn["players"])
    examples.write_text(text, encoding="utf-8")
    pasted = load_spec(copy)
    assert check_examples(pasted) == []
    assert {e.id for e in pasted.spec.examples} >= {f"impact-{k}-change" for k in first_found}


def test_a_corpus_with_bad_records_counts_and_locates_them(tmp_path: Path) -> None:
    game, _, option = ALTERNATIVES[0]
    raws = list(draw_states(loaded(game), None, seed=2, count=12))
    lines = [json.dumps(r) for r in raws]
    lines.insert(4, "{not json")
    lines.insert(9, json.dumps({"players": "nobody"}))  # read, but refused by the state format
    corpus = tmp_path / "tables.jsonl"
    corpus.write_text("\n".join(lines) + "\n", encoding="utf-8")
    question = _question(game, (option,), corpus=str(corpus))
    report = build_report(question, run(question, workers=1), shrink_budget=50)
    assert report.bad_records == 1
    shown = display_path(corpus)  # as every message names a file
    assert report.bad[0].startswith(f"{shown}:5:")
    assert report.refused == 1
    assert report.refusals[0].startswith(f"{shown}:10:")
    assert report.tables == 12
    expected = _brute(game, [option], raws)
    assert report.changed == expected["changed"]


def test_an_unknown_variant_stops_the_question_before_any_work() -> None:
    game = ALTERNATIVES[0][0]
    with pytest.raises(UsageError, match="unknown variant 'no_such_option'"):
        run(_question(game, ("no_such_option",), tables=10), workers=1)


def test_the_command_reports_in_each_language_and_as_json(tmp_path: Path) -> None:
    game, _, option = next((c for c in CHANGING if c[0] in GAMES), ALTERNATIVES[0])
    args = ("impact", game, "--variant", option, "--tables", "20", "--workers", "1")
    as_json = run_main(*args, "--format", "json")
    assert as_json.code == 0, as_json.err
    data = json.loads(as_json.out)
    assert data["tables"] == 20
    assert data["after"]["options"]
    spec = loaded(game).spec
    seq = next(s for s in spec.sequences if s.id == data["population"]["sequence"])
    titles = {step.number: step.title for step in all_steps(seq.steps)}
    english = run_main(*args)
    for step in data["steps"]:  # each step named by its title in the question's sequence
        assert titles[step["step"]] in english.out
    for lang in spec.game.languages:
        shown = run_main(*args, "--lang", lang, "--seed", "1")
        assert shown.code == 0, shown.err
        assert "Traceback" not in shown.err
        if lang != "en":  # the interface's sentences are translated
            assert "how much the rule change matters" not in shown.out
            assert "tables drawn" not in shown.out
    out = tmp_path / "report"
    written = run_main(*args, "--out", str(out))
    assert written.code == 0, written.err
    assert json.loads((out / "report.json").read_text(encoding="utf-8")) == data
    assert (out / "report.txt").read_text(encoding="utf-8") == written.out


@pytest.mark.parametrize(
    ("lang", "tables", "words"),
    [
        ("en", 1, ["1 table drawn", "0 of 1 table (0.0%)"]),
        ("en", 2, ["2 tables drawn", "of 2 tables ("]),
        # (the typesetting keeps "z" and the numbers with what follows them)
        ("cs", 1, ["0\xa0z\xa01\xa0partie ("]),
        ("cs", 2, ["0\xa0z\xa02\xa0partií ("]),
    ],
)
def test_the_report_is_worded_for_its_number_of_tables(
    lang: str, tables: int, words: list[str]
) -> None:
    game, _, option = ALTERNATIVES[0]
    args = ("impact", game, "--variant", option, "--tables", str(tables), "--workers", "1")
    shown = run_main(*args, "--lang", lang)
    assert shown.code == 0, shown.err
    for said in words:
        assert said in shown.out


def test_nothing_to_compare_is_a_usage_error() -> None:
    game = ALTERNATIVES[0][0]
    done = run_main("impact", game, "--tables", "5")
    assert done.code == 2
    assert "nothing to compare" in done.err
    assert "Traceback" not in done.err


def test_an_earlier_edition_is_compared_as_the_edition_alone(tmp_path: Path) -> None:
    # the earlier edition: Stationfall as it is, but with Data given by every surviving
    # character by default (a ruling's default changed between editions)
    old = tmp_path / "old" / "stationfall"
    import shutil

    shutil.copytree(SPEC_ROOT / "stationfall", old)
    rulings = old / "rulings.yaml"
    text = rulings.read_text(encoding="utf-8")
    assert "    default: escaped_characters\n" in text
    rulings.write_text(
        text.replace("    default: escaped_characters\n", "    default: surviving_characters\n"),
        encoding="utf-8",
    )
    game_dir = str((SPEC_ROOT / "stationfall").resolve())
    question = Question(
        before=RuleSet(game_dir, str(old.parent)), after=RuleSet(game_dir), seed=4, tables=30
    )
    report = build_report(question, run(question, workers=1), shrink_budget=100)
    assert report.before.edition == str(old.parent)
    # the edition alone (the old options kept) changes nothing; its new default does it all
    assert [c.cause for c in report.causes] == ["edition", "data_providers"]
    assert set(report.causes[0].changed.values()) == {0}
    assert report.causes[1].changed == report.changed
    raws = list(draw_states(loaded("stationfall"), None, seed=4, count=30))
    # the old edition's default is today's option: brute force compares the two options
    expected = _brute("stationfall", ["surviving_characters"], raws)
    assert report.changed == expected["changed"]


def test_each_table_is_bounded_alone_not_the_whole_question() -> None:
    # a command's budget far below what 30 tables spend together, far above one table's
    # (Brink's grouping of ambassadors is the costliest scoring of our games)
    game, _, option = CHANGING[1]
    if game not in GAMES:
        pytest.skip(f"{game} is not among the games tested")
    question = _question(game, (option,), seed=6, tables=30)
    with command_budget(limit=60_000) as budget:
        tally = run(question, workers=1)
        assert budget.used < 60_000
    assert tally.tables + tally.refused == 30
    assert tally.refused == 0


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        (("--tables", "0"), "--tables must be between 1 and"),
        (("--workers", "0"), "--workers must be at least 1"),
        (("--corpus", "no-such-corpus.jsonl"), "no corpus at no-such-corpus.jsonl"),
        (("--corpus", "x.jsonl", "--tables", "5"), "a --corpus is read whole"),
        (("--variant", "no_such_option"), "unknown variant 'no_such_option'"),
    ],
    ids=["no tables", "no workers", "no corpus", "corpus and tables", "unknown variant"],
)
def test_a_question_that_cannot_be_asked_is_a_usage_error(
    extra: tuple[str, ...], said: str
) -> None:
    game, _, option = ALTERNATIVES[0]
    done = run_main("impact", game, "--variant", option, *extra)
    assert done.code == 2, done.err
    assert said in done.err
    assert "Traceback" not in done.err
