"""The ``majorities`` operation: places in each area by presence, ties shared by a rule."""

# annotations are objects, not postponed strings: see rulepress.render.tree
from typing import Any, Literal

from pydantic import Field

from rulepress.expressions.expression import ExpressionEvalError
from rulepress.expressions.records import fields_record
from rulepress.model.operations import Checker, OwnExample, Path
from rulepress.model.spec_model import ExprText, Model, Name
from rulepress.scoring.components import (
    Functions,
    MakeNote,
    Pick,
    Result,
    Run,
    as_int,
    as_list,
)
from rulepress.scoring.notes import Names, Nested
from rulepress.scoring.result import Note
from rulepress.uitext import ui

#: how players tied in an area share the places their group covers (see MajoritiesComponent)
TIE_RULES = ("split", "best", "worst", "none")


class MajoritiesComponent(Model):
    """Places in each area by presence: the most scores the first place's points, and so on.

    For each of the ``areas`` (an expression giving a list: ``sets.regions``,
    bound as ``area``), every player's ``presence`` is evaluated with that
    player's record bound as ``rival`` (``get(rival.pieces, area)``). Players
    with at least ``least`` presence are placed by it, the most first;
    ``places`` gives each place's points, best first (places past the list
    are worth nothing). Players with equal presence are tied over the places
    their group covers, and ``ties`` (an expression, so a ruling can choose)
    says what each of them scores: ``split`` (the sum of those places'
    points divided among them, rounded down), ``best`` (each the best of
    those places), ``worst`` (each the worst of them) or ``none``. Later steps
    read ``chosen.<score id>.places`` (area → the place the player's group
    starts at, 0 for none) and ``chosen.<score id>.points`` (area → points).
    """

    op: Literal["majorities"]
    """`majorities`."""
    areas: ExprText
    """The areas, a list of ids (`sets.regions`)."""
    area: Name = "area"
    """The name the current area is read by."""
    rival: Name = "rival"
    """The name each player's record is read by in `presence`."""
    presence: ExprText
    """A player's presence in the area (evaluated for every player, as `rival`)."""
    least: ExprText = "1"
    """The least presence that places a player."""
    places: list[ExprText] = Field(min_length=1)
    """Each place's points, best first; places past the list are worth nothing."""
    ties: ExprText = "'split'"
    """How tied players share the places their group covers: `'split'` (the sum divided,
    rounded down), `'best'`, `'worst'` or `'none'`."""
    label: ExprText = "''"
    """What names an area in the notes; empty: its word in the vocabulary (`label(area)`)."""


#: interface sentences of the majorities operation
MAJORITY_PLACE = ui("score.majorities", "{area}: place {place} with {presence}: {points}")
MAJORITY_TIED = ui(
    "score.majorities", "{area}: place {place}, tied with {others} on {presence}: {points}"
)


def _tied_points(rule: str, covered: list[int]) -> int:
    """What each of a tied group scores from the points of the places it covers."""
    if rule == "split":
        # rounded down: the points are whole, and no player gains from a tie
        return sum(covered) // len(covered)
    if rule == "best":
        return covered[0]
    if rule == "worst":
        return covered[-1]
    return 0


def _compile_majorities(comp: MajoritiesComponent, pick: Pick) -> Run:
    areas_of, presence_of, least_of = pick(comp.areas), pick(comp.presence), pick(comp.least)
    places_of = [(pick(src), src) for src in comp.places]
    ties_of, label_of = pick(comp.ties), pick(comp.label)
    area_name, rival_name, presence_src = comp.area, comp.rival, comp.presence

    def run(scope: dict[str, Any], fns: Functions, make: MakeNote) -> Result:
        # the area and each rival are written into the player's namespace (the
        # engine puts back what they hid, see writes())
        me = scope["id"]
        total = 0
        notes: list[Note] = []
        breakdown: dict[str, int] = {}
        places: dict[str, int] = {}
        points_of: dict[str, int] = {}
        for area in as_list(areas_of(scope, fns), comp.areas):
            scope[area_name] = area
            key = str(area)
            places[key] = points_of[key] = 0
            least = as_int(least_of(scope, fns), comp.least)
            presence: dict[str, int] = {}
            for rival in scope["players"]:
                scope[rival_name] = rival
                presence[rival["id"]] = as_int(presence_of(scope, fns), presence_src)
            mine = presence[me]
            if mine < least:
                continue
            values = [as_int(value(scope, fns), src) for value, src in places_of]
            ahead = sum(1 for count in presence.values() if count > mine)
            tied = [pid for pid, count in presence.items() if count == mine]
            covered = [values[i] if i < len(values) else 0 for i in range(ahead, ahead + len(tied))]
            if len(tied) == 1:
                points = covered[0]
            else:
                rule = ties_of(scope, fns)
                if rule not in TIE_RULES:
                    raise ExpressionEvalError(
                        f"{comp.ties!r} gave {rule!r}, not a tie rule ({', '.join(TIE_RULES)})"
                    )
                points = _tied_points(rule, covered)
            places[key], points_of[key] = ahead + 1, points
            breakdown[key] = points
            total += points
            label: str | Nested = str(label_of(scope, fns)) or fns["label"](key)
            args: dict[str, Any] = {
                "area": label,
                "place": ahead + 1,
                "presence": mine,
                "points": points,
            }
            if len(tied) > 1:
                args["others"] = Names([pid for pid in tied if pid != me])
            notes.append(make(MAJORITY_TIED if len(tied) > 1 else MAJORITY_PLACE, args))
        export = {"places": fields_record(places), "points": fields_record(points_of)}
        return total, notes, breakdown, export

    return run


class Majorities:
    """The ``majorities`` operation, as the registry gives it."""

    model = MajoritiesComponent
    example = OwnExample("majorities.yaml")
    #: its place among the operations in the author's reference (and the JSON Schema)
    order = 6
    #: what a score of it leaves in ``chosen.<score id>``, for the author's reference
    chosen = "a `majorities` score's `places` and `points` by area"

    @staticmethod
    def check(
        checker: Checker,
        path: Path,
        comp: MajoritiesComponent,
        names: frozenset[str],
        tables: set[str],
    ) -> None:
        checker.expression(path + ("areas",), comp.areas, names)
        in_area = names | {comp.area}
        # the area is each member of a named set given as the areas: a name built from
        # it (get(param, area + '_first')) is checked for each
        with checker.ranging(comp.area, comp.areas):
            for attr in ("least", "label"):
                checker.expression(path + (attr,), getattr(comp, attr), in_area)
            # a tie rule the spec alone tells (a quoted one, a ruling's options) is
            # checked here, not first when a tie happens in some game
            checker.choice(path + ("ties",), comp.ties, TIE_RULES, in_area)
            for i, src in enumerate(comp.places):
                checker.expression(path + ("places", i), src, in_area)
            checker.expression(path + ("presence",), comp.presence, in_area | {comp.rival})

    @staticmethod
    def compile(comp: MajoritiesComponent, pick: Pick) -> Run:
        return _compile_majorities(comp, pick)

    @staticmethod
    def writes(comp: MajoritiesComponent) -> tuple[str, ...]:
        # the area and each rival are written into the player's namespace
        return (comp.area, comp.rival)
