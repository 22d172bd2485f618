"""Settling a vote: weighted ballots, a ranking with ties broken by an order list.

The spec says what a ballot is worth (``weight`` per unit, an expression
that can read riders and objectives), which candidates win (``places``),
how ties fall (``tie_order``, a list of candidates, earlier first; else the
order the candidates are declared in) and, when the vote moves its ballots,
where each one goes afterwards (``route``, which can read ``winners``).
This module only counts, ranks and routes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from itertools import groupby
from typing import Any

from rulepress.scoring.notes import Joined, Player, Template, snapshot
from rulepress.scoring.result import Ballot, Note
from rulepress.spec.expr import ExpressionEvalError
from rulepress.spec.model import Tally
from rulepress.spec.records import Record, fields_record
from rulepress.spec.state import compiled


@dataclass(frozen=True, slots=True)
class TallyOutcome:
    totals: dict[str, int]
    ranking: list[str]
    winners: list[str]
    ballots: list[Ballot]  # their notes are not rendered yet (text is empty)
    tie_notes: list[tuple[str, dict[str, Any]]]
    flows: dict[str, dict[str, dict[str, int]]]
    record: Record


def _as_int(value: Any, source: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ExpressionEvalError(f"{source!r} must give an integer, gave {value!r}")
    return value


def run_tally(
    tally: Tally, base: dict[str, Any], fns: Mapping[str, Callable[..., Any]]
) -> TallyOutcome:
    """Count every ballot, rank the candidates, pick the winners, route the ballots."""
    totals = dict.fromkeys(tally.candidates, 0)
    cast: list[tuple[Any, dict[str, Any], str, str, str, int, int]] = []
    for spec in tally.ballots:
        for item in compiled(spec.items).evaluate(base, fns):
            env = dict(base)
            env[spec.item] = item
            target = compiled(spec.target).evaluate(env, fns)
            if target not in totals:
                raise ExpressionEvalError(f"{spec.target!r} gave {target!r}, not a candidate")
            units = _as_int(compiled(spec.units).evaluate(env, fns), spec.units)
            weight = _as_int(compiled(spec.weight).evaluate(env, fns), spec.weight)
            player = str(compiled(spec.player).evaluate(env, fns))
            unit = str(compiled(spec.unit).evaluate(env, fns))
            totals[target] += units * weight
            cast.append((spec, env, player, target, unit, units, units * weight))
    order = (
        list(tally.candidates)
        if tally.tie_order is None
        else list(compiled(tally.tie_order).evaluate(base, fns))
    )
    missing = [c for c in tally.candidates if c not in order]
    if missing:
        raise ExpressionEvalError(f"the tie order does not place {', '.join(missing)}")
    ranking = sorted(tally.candidates, key=lambda c: (-totals[c], order.index(c)))
    places = _as_int(compiled(tally.places).evaluate(base, fns), tally.places)
    winners = ranking[:places]

    tie_notes = []
    for votes, group_iter in groupby(ranking, key=lambda c: totals[c]):
        group = list(group_iter)
        if len(group) > 1:
            tie_notes.append(
                (
                    tally.tie_note,
                    {
                        "tied": Joined([Template(tally.candidates[c]) for c in group]),
                        "votes": votes,
                    },
                )
            )

    ballots = []
    flows: dict[str, dict[str, dict[str, int]]] = {}
    for spec, env, player, target, unit, units, votes in cast:
        env["winners"] = winners
        route = ""  # a vote that moves no ballot routes none (and has no flows)
        if spec.route is not None:
            route = str(compiled(spec.route).evaluate(env, fns))
            if route not in tally.routes:
                raise ExpressionEvalError(f"{spec.route!r} gave {route!r}, not a declared route")
            per_unit = flows.setdefault(player, {}).setdefault(route, {})
            per_unit[unit] = per_unit.get(unit, 0) + units
        args = dict(
            snapshot({name: compiled(src).evaluate(env, fns) for name, src in spec.args.items()})
        )
        args |= {
            "player": Player(player),
            "units": units,
            "unit": unit,
            "target": Template(tally.candidates[target]),
            "votes": votes,
        }
        if route:
            args["route"] = Template(tally.routes[route])
        ballots.append(Ballot(player, target, unit, units, votes, route, Note(spec.note, args)))
    record = Record(winners=list(winners), ranking=list(ranking), totals=fields_record(totals))
    return TallyOutcome(totals, ranking, winners, ballots, tie_notes, flows, record)
