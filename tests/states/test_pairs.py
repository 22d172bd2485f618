"""A pairwise count from a tally is the expression's own count, at the expression's own steps.

The quick path asks Stationfall's Bribe rule (each player's Bribe counted
on the other players' cards) from one tally per state instead of every pair
of players (see rulepress.states.pairs). Here the tally's count and steps
are held to the expression evaluated as written, over players drawn with
ids used twice, a player listing itself, values listed twice and values of
other kinds; and the rewriting takes only the shape it can count.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from rulepress.expressions.expression import MAX_STEPS, ExpressionEvalError, Steps, parse
from rulepress.expressions.records import Record
from rulepress.model.spec_model import Constraint
from rulepress.states.pairs import PairCount, Tallies, pair_counts, put_counts
from rulepress.states.quick import Rules

BRIBES = "count(id in other.bribes for other in players if other.id != id)"

IDS = st.sampled_from(["a", "b", "c", "d"])
#: a list value: texts mostly, now and then what the tally does not count (1, True, None)
VALUE = st.one_of(IDS, IDS, IDS, st.sampled_from([1, True, None]))
PLAYERS = st.lists(
    st.builds(
        lambda pid, listed: Record(id=pid, bribes=listed),
        st.one_of(IDS, IDS, IDS, st.just(7)),
        st.one_of(st.lists(VALUE, max_size=4), st.lists(IDS, max_size=4), st.none()),
    ),
    max_size=6,
)


def as_written(source: str, ns: dict[str, Any]) -> tuple[Any, int] | None:
    """The expression's value and the steps it took, or None when it fails."""
    steps = Steps()
    try:
        value = parse(source).within(ns, steps)
    except ExpressionEvalError:  # (no count to compare)
        return None
    return value, MAX_STEPS - steps.left


@pytest.mark.parametrize(
    "source",
    [
        BRIBES,
        "count(id in other.bribes for other in players if id != other.id)",
        "count(id in other.bribes for other in players)",
    ],
)
@given(players=PLAYERS, me=st.one_of(IDS, st.just(7)))
# a player listing a value twice, and listing itself, counted once
@example(players=[Record(id="a", bribes=["b", "b"]), Record(id="b", bribes=["b"])], me="b")
def test_a_tallied_count_is_the_expressions_count_at_its_steps(
    source: str, players: list[Record], me: Any
) -> None:
    made = pair_counts(source, {"id", "players"})
    assert made is not None
    rewritten, (pair,) = made
    assert rewritten == pair.name
    ns: dict[str, Any] = {"id": me, "players": players}
    expected = as_written(source, ns)
    steps = put_counts((pair,), ns, Tallies())
    got = None if steps is None else (ns[pair.name], steps)
    if got is not None:
        # every count the tally gives is the expression's, and it charges the same steps
        assert got == expected
    if expected is not None and all(isinstance(p["id"], str) for p in players):
        # and it gives one wherever all is text, however the ids and lists repeat
        texts = all(
            isinstance(p["bribes"], list) and all(type(v) is str for v in p["bribes"])
            for p in players
        )
        assert (got is not None) is (texts and isinstance(me, str))


def test_the_counts_are_set_from_one_tally_per_list_of_players() -> None:
    made = pair_counts(f"{BRIBES} + (1 if unused else 0)", {"id", "players", "unused"})
    assert made is not None
    rewritten, pairs = made
    assert rewritten == "pair_count0 + (1 if unused else 0)"
    players = [
        Record(id="a", bribes=["b"]),
        Record(id="b", bribes=[]),
        Record(id="c", bribes=["b"]),
    ]
    tallies = Tallies()
    counts = []
    for player in players:
        ns = {"players": players, **player}
        steps = put_counts(pairs, ns, tallies)
        counts.append((ns["pair_count0"], steps))
    # one call, three players gone through, and the lists of the others searched
    assert counts == [(0, 1 + 3 + 1), (2, 1 + 3 + 2), (0, 1 + 3 + 1)]
    assert len(tallies) == 1
    # another list of players (another state, a record's own field) is tallied anew
    other = [Record(id="a", bribes=["a"])]
    ns = {"players": other, "id": "a"}
    assert put_counts(pairs, ns, tallies) == 1 + 1 + 0
    assert ns["pair_count0"] == 0
    ns = {"players": [Record(id="a", bribes=[1])], "id": "a"}
    assert put_counts(pairs, ns, tallies) is None  # not counted: asked as written


@pytest.mark.parametrize(
    "source",
    [
        "count(id in other.bribes for other in players if other.id == id)",  # == is not !=
        "count(id in other.bribes for other in players if other.id != id if other.x)",
        "count(other.id in other.bribes for other in players)",  # no data name counted
        "count(other in other.bribes for other in players)",
        "count(id in other.bribes for other in players for x in other.bribes)",
        "count(id not in other.bribes for other in players)",
        "count(id in bribes for other in players)",
        "any(count(x in o.bribes for o in players) > 1 for x in ids)",  # x: a generator's
        "count(mine in other.bribes for other in players)",  # mine: the rule's let value
        "count([id in other.bribes for other in players])",
        "sum(id in other.bribes for other in players)",
    ],
)
def test_other_shapes_are_asked_as_written(source: str) -> None:
    assert pair_counts(source, set(), bound={"mine"}) is None


def test_the_names_given_are_new() -> None:
    made = pair_counts(f"{BRIBES} + pair_count0", {"id", "players", "pair_count0"})
    assert made is not None
    rewritten, (pair,) = made
    assert pair == PairCount("players", "id", "bribes", "id", "pair_count1")
    assert rewritten == "pair_count1 + pair_count0"


@pytest.mark.parametrize(
    ("listed", "holds"),
    [
        ([["b"], [], []], True),
        ([["b"], [], ["b"]], False),  # b's one Bribe on two cards
        ([["b"], [1], []], True),  # a value the tally does not count: asked as written
        ([["b"], [1], ["b"]], False),
    ],
)
def test_a_rule_holds_alike_from_a_tally_or_as_written(
    listed: list[list[Any]], holds: bool
) -> None:
    rules = Rules.of([Constraint(let={"times": BRIBES}, test="times <= 1", message="m")], parse)
    players = [Record(id=pid, bribes=b) for pid, b in zip("abc", listed, strict=True)]
    tallies = Tallies()
    steps = Steps()
    got = rules.hold([{"players": players, **p} for p in players], steps, tallies)
    assert got is holds
    # tallied, or (a value it does not count) not
    assert tallies
    assert all((tally is None) is any(1 in b for b in listed) for _, tally in tallies.values())
