"""A winners rule's choices, worked out once per table size and choice of rulings.

When the count of winning places and the rule's choosable fields read only what
every table of a size shares under one choice of rulings (Stationfall's: the
table of winners by player count, and last_place_tie's tie-breaks), the engine
keeps them by size and rulings (``WinnersPlan.known``). Tables of other sizes
and other rulings, scored in turns, must be scored as if nothing were kept.
"""

from __future__ import annotations

import random

from rulepress.expressions.records import plain
from rulepress.scoring import engine, score
from rulepress.scoring.result import to_data
from rulepress.scoring.state import check_state
from rulepress.yamlsrc.reader import SourceMap
from tests.conftest import loaded
from tests.properties.test_scoring_properties import _bench

#: Stationfall's readings of a tie for the last winning place (each changes whether
#: the tie-breaks are used when several players win) and of a Guilty player's place
#: (passed on or left empty): choices of rulings that change the winners of many tables
READINGS = [
    [tie, place]
    for tie in ("share_last_place", "no_more_winners_than_places", "points_alone_when_several_win")
    for place in ("best_who_can_win", "guilty_place_stays_empty")
]


def _forget() -> None:
    for _, (steps, _, _) in engine._PLANS.values():
        for step in steps:
            if step.winners is not None:
                step.winners.known.clear()


def test_tables_of_each_size_and_ruling_choose_as_if_scored_alone() -> None:
    spec = loaded("stationfall")
    bench = _bench()
    rng = random.Random(7)
    tables = []
    for players in (4, 9, 6, 9, 4, 7):  # one, three and two winning places, in turns
        state = check_state(spec, bench.generate_state(rng, players), SourceMap(), "drawn")
        tables.append(state)
    # a player's own field named like a folded record keeps the plan unfolded: one plan
    # then serves every choice of rulings (its own copy of the spec's sets, read alike)
    sets = plain(engine._spec_data(spec.spec).sets)
    for state in list(tables):
        players = [{**plain(p), "sets": sets} for p in state["players"]]
        tables.append({"players": players, "table": plain(state["table"])})
    # each reading over every size, then each size under every reading: the table
    # before shares the reading but not the size, or the size but not the reading
    turns = [(state, reading) for reading in READINGS for state in tables]
    turns += [(state, reading) for state in tables for reading in READINGS]
    for state, reading in turns:
        remembered = to_data(score(spec, state, variants=reading, trace=False))
        _forget()
        alone = to_data(score(spec, state, variants=reading, trace=False))
        assert remembered == alone, (len(state["players"]), reading)
    # the choices are kept (else this test would test nothing)
    plans = [s.winners for _, (steps, _, _) in engine._PLANS.values() for s in steps if s.winners]
    assert any(p.by_size and p.known for p in plans)
