"""A spec says it in its own words (issue 31, point 3), checked on Guildhall.

Guildhall (tests/data/specs/guildhall) is a fixture game that starts its rules at
3.2 with no chapter 3, gives the first place's points per district as a parameter
map, looks a patron's bonus up in a table keyed by district, and has coins with
no maximum of their own. Each feature is shown scoring: change the number the
spec gives and the score follows it. What a spec gets wrong with them is in the
bad-spec corpus (tests/data/bad_specs.yaml).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from rulepress.errors import StateError
from rulepress.expressions import MAX_INT
from rulepress.games import load_spec
from rulepress.render.context import RenderContext
from rulepress.render.pages import game_pages, links_of
from rulepress.render.sources import _parameters
from rulepress.scoring.examples import fact, mismatches, run_example
from rulepress.states.validation import validate_state
from rulepress.yamlsrc import SourceMap
from tests.conftest import DATA, edit, run_main

GAME = DATA / "specs" / "guildhall"


def copy_of(tmp_path: Path, name: str = "guildhall") -> Path:
    """A copy of Guildhall at ``<tmp_path>/<name>/guildhall``, to edit."""
    target = tmp_path / name / "guildhall"
    shutil.copytree(GAME, target)
    return target


def scored(game: Path) -> dict[str, dict[str, object]]:
    """Each player's facts of the worked example, as the scorer gives them."""
    result = run_example(load_spec(game), 0)
    keys = ("districts.docks", "districts.temple", "patron_bonus", "coin_points", "total")
    return {p.id: {k: fact(p, k) for k in keys} for p in result.players}


def test_the_worked_example_scores_as_its_text_says() -> None:
    loaded = load_spec(GAME)
    assert loaded.spec.rules[0].number == "3.2"  # no chapter 3 was invented
    assert mismatches(loaded.spec.examples[0], run_example(loaded, 0)) == []


def test_a_parameter_map_gives_each_area_its_own_number(tmp_path: Path) -> None:
    game = copy_of(tmp_path)
    before = scored(game)
    assert (before["Ada"]["districts.docks"], before["Bo"]["districts.temple"]) == (6, 4)
    edit(game / "game.yaml", "{docks: 6, market: 5, temple: 4}", "{docks: 9, market: 5, temple: 7}")
    after = scored(game)
    # get(param.first, area) reads the member of the area being scored, and only it
    assert (after["Ada"]["districts.docks"], after["Bo"]["districts.temple"]) == (9, 7)
    assert after["Ada"]["total"] == before["Ada"]["total"] + 3


def test_a_table_keyed_by_a_set_is_looked_up_by_the_member(tmp_path: Path) -> None:
    game = copy_of(tmp_path)
    assert {p: f["patron_bonus"] for p, f in scored(game).items()} == {"Ada": 1, "Bo": 3, "Cy": 2}
    edit(game / "tables.yaml", "{key: docks, value: 3}", "{key: docks, value: 8}")
    assert scored(game)["Bo"]["patron_bonus"] == 8  # Bo's patron is the docks


def test_an_integer_without_max_keeps_the_global_bound() -> None:
    spec = load_spec(GAME).spec
    fmt = spec.table_states["guildhall-end"]

    def problems(coins: int) -> list[str]:
        players = [
            {"id": "Ada", "patron": "docks", "coins": coins},
            {"id": "Bo", "patron": "market"},
        ]
        _, found = validate_state(fmt, spec.parameters, {"players": players}, SourceMap())
        return [f"{p.where}: {p.message}" for p in found]

    assert problems(MAX_INT) == []  # far past any number a designer would invent
    assert problems(MAX_INT + 1) == [
        f"players[0].coins: an integer of 16 digits is more than the most allowed, {MAX_INT}"
    ]


@pytest.mark.slow
def test_the_work_a_count_without_max_causes_stays_bounded(tmp_path: Path) -> None:
    """A count with no maximum of its own cannot make scoring run without end.

    Harbourmasters' cargo without its max: goods by the trillion are grouped into
    sets until the command's budget stops it, with a located state error.
    """
    game = tmp_path / "harbour"
    shutil.copytree(DATA / "specs" / "harbour", game)
    edit(game / "state.yaml", "    max: param:cargo_limit\n", "")
    loaded = load_spec(game)
    example = loaded.spec.examples[0]
    goods = dict.fromkeys(("fish", "salt", "timber", "spice", "silk"), MAX_INT)
    example.state["players"][0]["goods"] = goods  # (the loaded copy: nothing is written)
    with pytest.raises(StateError) as caught:
        run_example(loaded, 0)
    (problem,) = caught.value.problems
    assert str(problem.location).endswith("sequence.yaml:24:9")
    assert "it needs more than the 20,000,000 operations a command may spend" in problem.message


def test_the_diff_names_each_member_that_changed(tmp_path: Path) -> None:
    old, new = copy_of(tmp_path, "old"), copy_of(tmp_path, "new")
    edit(new / "game.yaml", "{docks: 6, market: 5, temple: 4}", "{docks: 6, market: 7, temple: 4}")
    edit(new / "tables.yaml", "{key: temple, value: 1}", "{key: temple, value: 2}")
    result = run_main("diff", "guildhall", str(old), str(new), "--json", cwd=tmp_path / "new")
    assert result.code == 0, result.err
    diff = json.loads(result.out)
    changed = [(p["name"], p["old"], p["new"]) for p in diff["parameters"]]
    assert changed == [("first.market", 5, 7)]
    cells = [(c["table"], c["keys"], c["old"], c["new"]) for c in diff["tables"]]
    assert cells == [("patron-bonus", ["temple", "temple"], 1, 2)]


def test_the_sources_page_lists_a_maps_numbers_by_member() -> None:
    """Where the site lists every parameter with its value, a map shows each member's
    word and number, listed as the reader's language lists things."""
    spec = load_spec(GAME).spec
    shown = {}
    for lang in ("en", "ja"):
        ctx = RenderContext(spec, lang, str, str)
        rows = _parameters(ctx, links_of(ctx))
        labels = [block.label for blocks in rows for block in blocks[:1]]
        first = rows[labels.index("parameter-first")][0]
        shown[lang] = repr(first)
    assert "Docks 6, Market 5, and Temple 4" in shown["en"]
    assert "Docks 6、Market 5、Temple 4" in shown["ja"]


def test_rule_text_shows_one_number_of_a_map(tmp_path: Path) -> None:
    """``{param:first.docks}`` shows that member's number, in the agreeing form."""
    game = copy_of(tmp_path)
    edit(game / "game.yaml", "{docks: 6, market: 5, temple: 4}", "{docks: 1, market: 5, temple: 4}")
    ctx = RenderContext(load_spec(game).spec, "en", str, str)
    shown = repr(game_pages(ctx)["rules"])
    assert "worth 1 point in the docks, " in shown
    assert "5 in the market and " in shown


def test_a_key_only_the_state_tells_is_a_located_state_error(tmp_path: Path) -> None:
    """A key a table state writes as free text cannot be checked at validate: a member
    the table has no row for is refused when scored, at the step, naming the key."""
    game = copy_of(tmp_path)
    edit(
        game / "state.yaml",
        "        coins:\n",
        "        guild_hall:\n          type: text\n          optional: true\n"
        "          description: Where the guild meets, as the player writes it.\n"
        "        coins:\n",
    )
    edit(
        game / "sequence.yaml",
        "lookup('patron-bonus', patron)",
        "lookup('patron-bonus', guild_hall or patron)",
    )
    loaded = load_spec(game)  # validate has nothing to try the key with
    loaded.spec.examples[0].state["players"][0]["guild_hall"] = "harbour"
    with pytest.raises(StateError) as caught:
        run_example(loaded, 0)
    (problem,) = caught.value.problems
    assert str(problem.location).endswith("sequence.yaml:37:9")  # the score of step 3
    assert "table 'patron-bonus' has no row for 'harbour'" in problem.message
