"""Paying a cost: the Sorelia exchange, action cards as payment and white-cube costs.

The spec's cost-payment sequence decides whether a cost can be paid and
shows a plan. Here an independent search over every way of paying (every
number of exchanges, every mix of cubes returned for them) says whether a
plan exists and how much is missing at best; the sequence must agree on
generated tables, and its plan must add up to the cost from what the player
holds.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from rulepress.i18n.runtime import localize
from rulepress.render.score_text import render_text
from rulepress.scoring import score
from rulepress.scoring.result import ScoreResult
from rulepress.scoring.state import check_state
from rulepress.yamlsrc.reader import SourceMap
from tests.conftest import LOCALES, loaded

FACTIONS = ["komek", "henko", "magnomi", "ventus"]
COLOURS = [*FACTIONS, "sorelia", "ua"]
IDS = ["p1", "p2", "p3", "p4", "p5", "p6"]
PAID = ("power_covers", "influence_paid", "sorelia_paid", "cards_paid", "exchanged")


def least_missing(player: dict[str, Any], exchange: tuple[int, int], power_counts: bool) -> int:
    """The least a player can leave unpaid, over every plan (an independent search).

    An exchange returns ``exchange[0]`` influence of any colours, Sorelia and
    the cost's own colour included, for ``exchange[1]`` Sorelia. Action cards
    are never returned (they cannot be traded, 9.2). The colours a cost cannot
    use are interchangeable, so only their total is searched.
    """
    cost, influence = player["cost"], player["influence"]
    cards = player.get("action_cards", {})
    if cost["faction"] == "white":
        usable = list(FACTIONS)
        power = max((player["power"].get(f, 0) for f in FACTIONS), default=0) if power_counts else 0
    else:
        usable = [cost["faction"]]
        power = player["power"].get(cost["faction"], 0)
    matching = sum(influence.get(c, 0) for c in usable)
    sorelia = influence.get("sorelia", 0)
    other = sum(n for c, n in influence.items() if c not in usable and c != "sorelia")
    in_hand = sum(cards.get(c, 0) for c in usable)
    give, gain = exchange
    best = cost["amount"]
    for exchanges in range(sum(influence.values()) // give + 1):
        returned = exchanges * give
        for from_matching in range(min(returned, matching) + 1):
            for from_sorelia in range(min(returned - from_matching, sorelia) + 1):
                if returned - from_matching - from_sorelia > other:
                    continue
                paid = (
                    power
                    + matching
                    - from_matching
                    + sorelia
                    - from_sorelia
                    + exchanges * gain
                    + in_hand
                )
                best = min(best, max(0, cost["amount"] - paid))
    return best


def generated(seed: int, count: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    players = []
    for _ in range(count):
        white = rng.random() < 0.3
        cost = {
            "faction": "white" if white else rng.choice(FACTIONS),
            "amount": rng.randint(1, 9),
        }
        players.append(
            {
                "cost": cost,
                "power": {f: rng.randint(0, 3) for f in FACTIONS if rng.random() < 0.5},
                "influence": {c: rng.randint(0, 4) for c in COLOURS if rng.random() < 0.6},
                "action_cards": {f: rng.randint(0, 2) for f in FACTIONS if rng.random() < 0.3},
            }
        )
    return players


def scored_table(players: list[dict[str, Any]], variants: list[str]) -> ScoreResult:
    spec = loaded("brink")
    data = {"players": [{"id": i, **p} for i, p in zip(IDS, players, strict=False)]}
    state = check_state(spec, data, SourceMap(), "test", sequence="cost-payment")
    return score(spec, state, sequence="cost-payment", variants=variants)


@pytest.mark.parametrize(
    ("variants", "power_counts"),
    [([], False), (["one_faction"], True)],
    ids=["influence-only", "one-faction-power"],
)
def test_the_scorer_pays_exactly_when_some_plan_does(
    variants: list[str], power_counts: bool
) -> None:
    spec = loaded("brink").spec
    exchange = (
        spec.parameters["sorelia_exchange_cost"].value,
        spec.parameters["sorelia_exchange_gain"].value,
    )
    players = generated(15, 240)
    payable_after_exchange = 0
    for start in range(0, len(players), len(IDS)):
        table = players[start : start + len(IDS)]
        result = scored_table(table, variants)
        for player, got in zip(table, result.players, strict=True):
            points = {line.score: line.points for line in got.lines}
            expected = least_missing(player, exchange, power_counts)
            assert points["shortfall"] == expected, (player, points)
            if expected:
                # nothing is paid toward a cost that cannot be met (power is not spent)
                assert [points[k] for k in PAID[1:]] == [0, 0, 0, 0], (player, points)
                continue
            # a plan that adds up to the cost, from what the player holds
            assert sum(points[k] for k in PAID) == player["cost"]["amount"], (player, points)
            assert points["sorelia_paid"] <= player["influence"].get("sorelia", 0)
            payable_after_exchange += points["exchanged"] > 0
    # the generated tables reach the case the exchange decides
    assert payable_after_exchange >= 5


def report(example: str, lang: str) -> str:
    local = localize(loaded("brink"), lang, LOCALES)
    entry = next(e for e in local.loaded.spec.examples if e.id == example)
    state = check_state(local.loaded, entry.state, SourceMap(), example, sequence="cost-payment")
    result = score(local.loaded, state, sequence="cost-payment", renderer=local.renderer)
    return render_text(result, local.loaded.spec, local.renderer.translate)


def test_the_report_says_how_the_exchange_pays() -> None:
    text = report("pay-after-exchange", "en")
    exchange_line = next(line for line in text.splitlines() if "Sorelia exchanges: 1" in line)
    assert "influence returned to the common supply: 4, any of your 4 other influence" in (
        exchange_line
    )
    assert "Sorelia influence paid as Henko: 1" in exchange_line
    step = text.splitlines()[text.splitlines().index(exchange_line) - 1]
    assert step.split()[1].rstrip(",") == "9.6"


@pytest.mark.parametrize("lang", ["cs", "ja"])
def test_the_payment_notes_are_translated(lang: str) -> None:
    english = report("cannot-pay-even-so", "en")
    local = report("cannot-pay-even-so", lang)
    assert "it cannot be paid" in english
    for phrase in ("it cannot be paid", "nothing is paid", "at hand"):
        assert phrase not in local


# a white-cube cost names the colours the player holds; which of them pay is theirs to say
HELD_LINES = {
    "en": "any colours of your choice: 2 of your 2 (Komek and Henko)",
    "cs": "v barvách podle vaší volby: 2 z vašich 2 (Komek a Henko)",
    "ja": "手持ち2（Komek、Henko）のうち2",
}


@pytest.mark.parametrize("lang", ["en", "cs", "ja"])
def test_a_white_cube_payment_names_the_colours_held(lang: str) -> None:
    text = report("white-cube-cost-with-sorelia", lang).replace("\u00a0", " ")
    assert HELD_LINES[lang] in text, text
