"""Brink's council scoring reads each player's power from the board (issue 15, point 4).

The table state lists the hexes the ships touch (border, Shield Lattice, UA
Flagship) and each player's ships (class, Railgun, hexes); the spec works out
the power of each council faction and of the Sorelia hex, whose faction the
scorer chooses for each player. A state that gives the power by hand, as
states did before, scores as it did.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rulepress.errors import StateError
from rulepress.games import load_spec
from rulepress.model.loaded import LoadedSpec
from rulepress.scoring import score
from rulepress.scoring.result import ScoreResult
from rulepress.scoring.state import check_state
from rulepress.yamlsrc.reader import SourceMap
from tests.conftest import edit, loaded
from tests.scoring.reports import example_report


def council_state(
    hexes: list[dict[str, Any]],
    ships: list[dict[str, Any]],
    *,
    power: dict[str, int] | None = None,
    first: int = 3,
    second: int = 2,
) -> dict[str, Any]:
    """One player, Komek first and Henko second (one cube each), on the board given."""
    player: dict[str, Any] = {"id": "ada", "influence": {"komek": 2, "henko": 1}, "ships": ships}
    if power is not None:
        player["power"] = power
    return {
        "sequence": "council-vote",
        "players": [player],
        "table": {
            "round": 1,
            "council_track": [{"round": 1, "first": first, "second": second}],
            "hexes": hexes,
            "votes": [
                {"player": "ada", "faction": "komek", "cube": "komek", "count": 2},
                {"player": "ada", "faction": "henko", "cube": "henko", "count": 1},
            ],
            "tie_order": ["komek", "henko", "magnomi", "ventus"],
        },
    }


def scored(
    state: dict[str, Any], variants: list[str] | None = None, spec: LoadedSpec | None = None
) -> ScoreResult:
    spec = spec or loaded("brink")
    return score(spec, check_state(spec, state, SourceMap(), "test"), variants=variants)


def council_line(result: ScoreResult) -> Any:
    return next(line for line in result.players[0].lines if line.score == "council_prestige")


def komek_power(hex_fields: dict[str, Any], railgun: bool = False) -> int:
    """Ada's Komek power from one Class I ship in one Komek hex (first place is worth 1)."""
    hexes = [{"id": "k", "faction": "komek", **hex_fields}]
    ships = [{"ship_class": "class-1", "railgun": railgun, "hexes": ["k"]}]
    line = council_line(scored(council_state(hexes, ships, first=1, second=1)))
    return int(line.breakdown["komek"])


@pytest.mark.parametrize(
    ("hex_fields", "railgun", "power"),
    [
        pytest.param({"border": "single"}, False, 1, id="single-border"),
        pytest.param({"border": "double"}, False, 2, id="double-border"),
        pytest.param({"border": "single"}, True, 2, id="railgun"),
        pytest.param({"border": "double", "shield_lattice": True}, False, 3, id="shield-lattice"),
        pytest.param({"border": "double", "ua_flagship": True}, False, 1, id="ua-flagship"),
        pytest.param({"border": "single", "ua_flagship": True}, False, 0, id="flagship-to-zero"),
        pytest.param(
            {"border": "single", "shield_lattice": True, "ua_flagship": True},
            True,
            2,
            id="all-on-one-hex",
        ),
    ],
)
def test_a_hex_gives_its_border_railgun_lattice_and_flagship(
    hex_fields: dict[str, Any], railgun: bool, power: int
) -> None:
    assert komek_power(hex_fields, railgun) == power


def test_every_hex_of_every_ship_counts_once_per_ship_and_only_hexes_touched() -> None:
    hexes = [
        {"id": "k1", "faction": "komek", "border": "double"},
        {"id": "k2", "faction": "komek", "border": "single"},
        {"id": "h1", "faction": "henko", "border": "double"},
        {"id": "far", "faction": "komek", "border": "double", "shield_lattice": True},
    ]
    ships = [
        {"ship_class": "class-2", "railgun": True, "hexes": ["k1", "h1"]},
        {"ship_class": "class-1", "hexes": ["k1"]},
        {"ship_class": "class-1", "hexes": ["k2"]},
    ]
    line = council_line(scored(council_state(hexes, ships)))
    # Komek: (2 + 1) + 2 + 1 = 6 at 3; Henko: 2 + 1 = 3 at 2; the Lattice's hex is untouched
    assert line.breakdown == {"komek": 18, "henko": 6, "magnomi": 0, "ventus": 0, "sorelia-hex": 0}
    assert line.points == 24


def test_a_state_that_gives_power_by_hand_scores_as_before() -> None:
    line = council_line(scored(council_state([], [], power={"komek": 4, "henko": 1, "ventus": 5})))
    # Ventus did not win: its power earns nothing, and no line shows it
    assert line.points == 4 * 3 + 1 * 2
    assert not any("Ventus" in note.text for note in line.notes)
    # power given by hand adds to the board's (hidden power from SCORING cards)
    hexes = [{"id": "k", "faction": "komek", "border": "double"}]
    ships = [{"ship_class": "class-1", "hexes": ["k"]}]
    assert council_line(scored(council_state(hexes, ships, power={"komek": 1}))).points == 9


def sorelia_result(first: int, second: int) -> ScoreResult:
    hexes = [{"id": "s", "faction": "sorelia", "border": "double"}]
    ships = [{"ship_class": "class-1", "railgun": True, "hexes": ["s"]}]
    return scored(council_state(hexes, ships, first=first, second=second))


def test_the_sorelia_hex_counts_as_the_best_faction_and_shows_the_choice() -> None:
    result = sorelia_result(first=5, second=3)
    line = council_line(result)
    assert line.breakdown["sorelia-hex"] == 3 * 5
    assert line.points == 15
    assert {"13.6", "14.6"} <= set(line.rules)
    texts = [str(note.text) for note in line.notes]
    assert any("power counts as Komek power" in t for t in texts), texts
    assert any(t.startswith("Sorelia hex power: 3 × 5 = 15") for t in texts), texts


def test_the_sorelia_hex_choice_is_worked_out_not_fixed_to_first_place() -> None:
    # a table whose second slot is worth more: the hex counts for the runner-up
    line = council_line(sorelia_result(first=2, second=4))
    assert line.points == 3 * 4
    assert any("counts as Henko power" in str(note.text) for note in line.notes)


def test_a_player_off_the_sorelia_hex_has_no_choice_to_show() -> None:
    hexes = [{"id": "k", "faction": "komek", "border": "single"}]
    line = council_line(scored(council_state(hexes, [{"ship_class": "class-1", "hexes": ["k"]}])))
    assert not any("Sorelia" in str(note.text) for note in line.notes)


def test_the_flagship_ruling_decides_whether_a_hex_goes_below_zero(
    spec_copy: Path,
) -> None:
    # The printed penalty (1) never takes a border (1 or 2) below zero: a table
    # with a harsher penalty shows what the ruling decides.
    edit(
        spec_copy / "brink" / "parameters.yaml",
        "  ua_flagship_penalty:\n    value: 1",
        "  ua_flagship_penalty:\n    value: 3",
    )
    harsh = load_spec(spec_copy / "brink")
    hexes = [
        {"id": "flag", "faction": "komek", "border": "single", "ua_flagship": True},
        {"id": "k", "faction": "komek", "border": "double"},
    ]
    ships = [{"ship_class": "class-2", "hexes": ["flag", "k"]}]
    state = council_state(hexes, ships, first=1, second=1)
    assert council_line(scored(state, spec=harsh)).breakdown["komek"] == 0 + 2
    below = council_line(scored(state, ["below_zero"], spec=harsh))
    assert below.breakdown["komek"] == -2 + 2


# where each faction's power comes from, in the council scoring report: each hex
# the player's ships touch, and the power the table gives besides the board's
SOURCE_LINES = {
    "en": [
        "Henko power: 4 = 1 (other power) + 3 (H1)",
        "Magnomi power: 2, from M2",
        "Henko power: 6 = 4 (H1) + 2 (H2)",
    ],
    "cs": ["síla Henko: 4 = 1 (další síla) + 3 (H1)", "síla Magnomi: 2 (M2)"],
    "ja": ["Henkoのパワー：4 = 1（その他のパワー） + 3（H1）", "Magnomiのパワー：2（M2）"],
}


@pytest.mark.parametrize("lang", ["en", "cs", "ja"])
def test_the_report_says_where_each_factions_power_comes_from(lang: str) -> None:
    text = example_report(lang, "council-shield-lattice-and-flagship").replace("\u00a0", " ")
    for line in SOURCE_LINES[lang]:
        assert line in text, text


def test_sources_that_do_not_add_up_to_the_count_are_an_error(spec_copy: Path) -> None:
    """A report that would contradict its own arithmetic is refused, naming the spec text."""
    edit(
        spec_copy / "brink" / "sequences.yaml",
        "else [[label('other-power'), get(power, kind)]]",
        "else [[label('other-power'), get(power, kind) + 1]]",
    )
    broken = load_spec(spec_copy / "brink")
    hexes = [{"id": "k", "faction": "komek", "border": "single"}]
    ships = [{"ship_class": "class-1", "hexes": ["k"]}]
    with pytest.raises(StateError, match=r"adds up to 2 for 'Komek power', but its count is 1"):
        scored(council_state(hexes, ships), spec=broken)


def test_power_given_by_hand_alone_shows_no_sources() -> None:
    """A table that lists no ships: all power is the table's own, and saying so on every
    faction would only repeat the count."""
    line = council_line(scored(council_state([], [], power={"komek": 4, "henko": 1})))
    assert not any("other power" in str(note.text) for note in line.notes)
