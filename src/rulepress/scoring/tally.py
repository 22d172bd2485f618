"""Settling a vote: weighted ballots, a ranking with ties broken by an order list.

The spec says what a ballot is worth (``weight`` per unit, an expression
that can read riders and objectives, or ``weights``: cases that each say
which rules give the weight and why), which candidates win (``places``),
how ties fall (``tie_order``, a list of candidates, earlier first; else the
order the candidates are declared in) and, when the vote moves its ballots,
where each one goes afterwards (``route``, which can read ``winners``).
A ``floor`` (chosen by a ruling, usually) raises every final total below it
before the ranking: a vote track that stops at zero. The totals after each
stage stay as counted, and a note says which totals were raised.

A tally may count in ``stages`` (the initial totals, then Riders, then
action cards): a ballot is cast at one stage, and a weight case can apply
only from a later one (a Rider that makes some cubes count). The totals
after every stage are reported, so that a reader sees what each stage
changed. A ``placement`` moves units of each winner after the vote (cubes
onto a council track). This module only counts, ranks and routes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from itertools import groupby
from typing import Any, NamedTuple

from rulepress.expressions import MAX_INT, ExpressionEvalError, ExpressionLimitError
from rulepress.expressions.records import Record, fields_record
from rulepress.model.spec_model import Ballots, Tally
from rulepress.scoring.components import as_list
from rulepress.scoring.notes import Joined, Player, Template, snapshot
from rulepress.scoring.result import Ballot, Note, Placed, StageTotals, TallyResult
from rulepress.states.validation import compiled

#: makes a note of a template and its arguments (the renderer's ``note``)
MakeNote = Callable[[str, Mapping[str, Any]], Note]


class TallyOutcome(NamedTuple):
    """What a tally settled: its result (for the report) and the record later steps read."""

    result: TallyResult
    record: Record


def _as_int(value: Any, source: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ExpressionEvalError(f"{source!r} must give an integer, gave {value!r}")
    return value


class _Cast(NamedTuple):
    """One ballot as counted: its weight at each stage from the one it is cast at."""

    spec: Ballots
    env: dict[str, Any]
    player: str
    target: str
    unit: str
    units: int
    stage: int
    weights: list[int]  # from ``stage`` on, one per stage
    rules: list[str]
    because: str | None


def _weigh(
    spec: Ballots,
    env: dict[str, Any],
    fns: Mapping[str, Callable[..., Any]],
    cast_at: int,
    stage_of: Mapping[str, int],
    stages: int,
) -> tuple[list[int], list[str], str | None]:
    """The ballot's weight at each stage from ``cast_at``, and the rules and reason of the last."""
    if not spec.weights:
        weight = _as_int(compiled(spec.weight).evaluate(env, fns), spec.weight)
        return [weight] * (stages - cast_at), [], None
    # each case's test once; a case counts from its own stage on (a Rider's effect)
    held = [
        (stage_of[case.stage] if case.stage else 0, case)
        for case in spec.weights
        if compiled(case.when).evaluate(env, fns)
    ]
    weights: list[int] = []
    chosen = None
    for stage in range(cast_at, stages):
        chosen = next((case for since, case in held if since <= stage), None)
        if chosen is None:
            raise ExpressionEvalError(f"no case of the weight of {spec.items!r} holds")
        weights.append(_as_int(compiled(chosen.value).evaluate(env, fns), chosen.value))
    assert chosen is not None  # there is at least one stage
    return weights, list(chosen.rules), chosen.because


def _floored(
    tally: Tally,
    counted: dict[str, int],
    base: dict[str, Any],
    fns: Mapping[str, Callable[..., Any]],
    note: MakeNote,
) -> tuple[dict[str, int], list[Note]]:
    """The totals the ranking uses: ``counted`` with each one below the floor raised to it.

    A floor of ``None`` (a ruling's option that reads totals as they are) raises
    nothing. Each raised total gets the tally's ``floor_note``, so that the trace
    says why a candidate ranks with fewer votes against it than were counted.
    """
    if tally.floor is None:
        return dict(counted), []
    value = compiled(tally.floor).evaluate(base, fns)
    if value is None:
        return dict(counted), []
    floor = _as_int(value, tally.floor)
    if not -MAX_INT <= floor <= MAX_INT:  # the floor becomes a total, bounded as one
        raise ExpressionLimitError(f"a floor of {floor} is beyond the bound of ±{MAX_INT}")
    # the spec check gives a floor its note (checks.sequences); a floor is never silent
    assert tally.floor_note is not None
    notes = [
        note(
            tally.floor_note,
            {"candidate": Template(tally.candidates[c]), "votes": votes, "floor": floor},
        )
        for c, votes in counted.items()
        if votes < floor
    ]
    return {c: max(votes, floor) for c, votes in counted.items()}, notes


def run_tally(
    tally: Tally,
    base: dict[str, Any],
    fns: Mapping[str, Callable[..., Any]],
    note: MakeNote,
    step: str = "",
    rules: list[str] | None = None,
) -> TallyOutcome:
    """Count every ballot, rank the candidates, pick the winners, route the ballots."""
    stages = len(tally.stages) or 1
    stage_of = {s.id: i for i, s in enumerate(tally.stages)}
    stage_totals = [dict.fromkeys(tally.candidates, 0) for _ in range(stages)]
    cast: list[_Cast] = []
    for spec in tally.ballots:
        cast_at = stage_of[spec.stage] if spec.stage else 0
        for item in as_list(compiled(spec.items).evaluate(base, fns), spec.items):
            env = dict(base)
            env[spec.item] = item
            target = compiled(spec.target).evaluate(env, fns)
            # (an expression may give a list, which no mapping can be asked about)
            if not isinstance(target, str) or target not in tally.candidates:
                raise ExpressionEvalError(f"{spec.target!r} gave {target!r}, not a candidate")
            units = _as_int(compiled(spec.units).evaluate(env, fns), spec.units)
            weights, cited, because = _weigh(spec, env, fns, cast_at, stage_of, stages)
            player = str(compiled(spec.player).evaluate(env, fns))
            unit = str(compiled(spec.unit).evaluate(env, fns))
            for offset, weight in enumerate(weights):
                counted = stage_totals[cast_at + offset][target] + units * weight
                if not -MAX_INT <= counted <= MAX_INT:  # a vote's total is bounded as a score's
                    raise ExpressionLimitError(
                        f"{target!r} would hold {counted} votes, beyond the bound of ±{MAX_INT}"
                    )
                stage_totals[cast_at + offset][target] = counted
            cast.append(
                _Cast(spec, env, player, target, unit, units, cast_at, weights, cited, because)
            )
    totals, floored = _floored(tally, stage_totals[-1], base, fns, note)
    order = (
        list(tally.candidates)
        if tally.tie_order is None
        else list(as_list(compiled(tally.tie_order).evaluate(base, fns), tally.tie_order))
    )
    missing = [c for c in tally.candidates if c not in order]
    if missing:
        raise ExpressionEvalError(f"the tie order does not place {', '.join(missing)}")
    ranking = sorted(tally.candidates, key=lambda c: (-totals[c], order.index(c)))
    places = _as_int(compiled(tally.places).evaluate(base, fns), tally.places)
    winners = ranking[:places]

    ties = []
    for votes, group_iter in groupby(ranking, key=lambda c: totals[c]):
        group = list(group_iter)
        if len(group) > 1:
            tied = Joined([Template(tally.candidates[c]) for c in group])
            ties.append(note(tally.tie_note, {"tied": tied, "votes": votes}))

    ballots = []
    flows: dict[str, dict[str, dict[str, int]]] = {}
    for c in cast:
        spec, env = c.spec, c.env
        env["winners"] = winners
        route = ""  # a vote that moves no ballot routes none (and has no flows)
        if spec.route is not None:
            route = str(compiled(spec.route).evaluate(env, fns))
            if route not in tally.routes:
                raise ExpressionEvalError(f"{spec.route!r} gave {route!r}, not a declared route")
            per_unit = flows.setdefault(c.player, {}).setdefault(route, {})
            per_unit[c.unit] = per_unit.get(c.unit, 0) + c.units
        own = snapshot({name: compiled(src).evaluate(env, fns) for name, src in spec.args.items()})
        votes = c.units * c.weights[-1]
        args = dict(own) | {
            "player": Player(c.player),
            "units": c.units,
            "unit": c.unit,
            "target": Template(tally.candidates[c.target]),
            "votes": votes,
        }
        if route:
            args["route"] = Template(tally.routes[route])
        reason = None
        if c.because is not None:
            reason = note(c.because, dict(own) | {"weight": c.weights[-1]})
        stage_id = tally.stages[c.stage].id if tally.stages else ""
        ballots.append(
            Ballot(
                c.player,
                c.target,
                c.unit,
                c.units,
                votes,
                route,
                note(spec.note, args),
                c.rules,
                reason,
                stage_id,
            )
        )
    placed = []
    if tally.placement is not None:
        move = tally.placement
        count = _as_int(compiled(move.count).evaluate(base, fns), move.count)
        for place, (winner, where) in enumerate(zip(winners, move.places, strict=False), 1):
            args = {"count": count, "candidate": Template(tally.candidates[winner])}
            args["place"] = Template(where)
            placed.append(Placed(winner, place, count, list(move.rules), note(move.note, args)))
    result = TallyResult(
        tally.id,
        step,
        tally.title,
        list(rules or []),
        totals,
        ranking,
        winners,
        ballots,
        ties,
        flows,
        floored=floored,
        stages=[
            StageTotals(s.id, s.title, list(s.rules), stage_totals[i])
            for i, s in enumerate(tally.stages)
        ],
        tie_rules=list(tally.tie_rules),
        route_rules={k: list(v) for k, v in tally.route_rules.items()},
        placements=placed,
    )
    record = Record(winners=list(winners), ranking=list(ranking), totals=fields_record(totals))
    return TallyOutcome(result, record)
