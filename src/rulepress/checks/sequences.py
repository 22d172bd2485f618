"""Checks of the spec's procedures: steps in order, expressions that read only what exists.

Each step's updates, tally, score component and winners are checked with the
names that will exist when the step runs: the player's fields, the base
names, the scores and tallies of earlier steps.
"""

from __future__ import annotations

import typing
from collections.abc import Iterator, Mapping
from contextlib import ExitStack
from typing import Any

from rulepress.checks.base import CheckBase, SequenceFacts
from rulepress.expressions.expression import BASE_NAMES
from rulepress.model import operations
from rulepress.model.declared import Declared
from rulepress.model.spec_model import (
    EXPR,
    Ballots,
    FieldSpec,
    Lookup,
    Part,
    PluginComponent,
    Sequence,
    Step,
    Tally,
)
from rulepress.yamlsrc import DataPath

#: what a winners rule's choosable fields may read: the table, and the number of places
TABLE_NAMES = BASE_NAMES | {"places"}
#: the values of those fields (as rulepress.scoring.engine accepts them)
FINAL_TIES = ("share", "report")
PLACES_AMONG = ("eligible", "all")


def _expression_list(annotation: Any) -> bool:
    """Whether a plugin model's field is a list of expressions (``list[ExprText]``)."""
    args = typing.get_args(annotation)
    if typing.get_origin(annotation) is not list or not args:
        return False
    return EXPR in typing.get_args(args[0])[1:] if typing.get_origin(args[0]) else False


class SequenceChecks(CheckBase):
    def sequences(self, formats: Mapping[str, tuple[frozenset[str], frozenset[str]]]) -> None:
        spec = self.spec
        ids = self.unique("sequences", spec.sequences)
        if spec.scorer.sequence not in ids:
            self.at(
                ("scorer", "sequence"),
                f"no sequence {spec.scorer.sequence!r} (sequences: {', '.join(sorted(ids))})",
            )
        for s_index, seq in enumerate(spec.sequences):
            spath: DataPath = ("sequences", s_index)
            if seq.state not in formats:
                known = ", ".join(sorted(formats)) or "none"
                self.at(
                    spath + ("state",), f"no table_states format {seq.state!r} (formats: {known})"
                )
                continue
            player_names, _ = formats[seq.state]
            for name in seq.show:
                if name not in player_names:
                    self.at(spath + ("show", name), f"{name!r} is not a player field", key=True)
            self.sequence(spath, seq, player_names)

    def sequence(self, spath: DataPath, seq: Sequence, player_names: frozenset[str]) -> None:
        # a player's choice field is one of its choices: a key built from it (a table
        # looked up by a district) is checked for each (rulepress.checks.built_names)
        fields = self.spec.table_states[seq.state].players.fields
        with ExitStack() as stack:
            for name, spec in fields.items():
                if spec.type == "choice" and spec.choices:
                    stack.enter_context(
                        self.ranging(name, "the field's choices", tuple(spec.choices))
                    )
            self.sequence_steps(spath, seq, player_names)

    def sequence_steps(self, spath: DataPath, seq: Sequence, player_names: frozenset[str]) -> None:
        """A sequence's steps, each with the names that exist when it runs."""
        tables = {t.id for t in self.spec.tables}
        names = set(player_names | BASE_NAMES | {"chosen"})
        found = SequenceFacts()
        winners_steps = 0
        for path, step in self.steps(seq.steps, spath + ("steps",), None):
            every = frozenset(names | {"total"})
            for u, upd in enumerate(step.updates):
                upath = path + ("updates", u)
                self.expression(upath + ("when",), upd.when, every)
                self.expression(upath + ("value",), upd.value, every)
                for arg, src in upd.args.items():
                    self.expression(upath + ("args", arg), src, every)
                self.prose(
                    upath + ("note",), upd.note, set(upd.args) | {"player", "before", "after"}
                )
                self.update_target(upath + ("set",), upd.set, seq.state)
            if step.tally is not None:
                self.tally(path + ("tally",), step.tally, frozenset(names - player_names))
                if step.tally.id in names:
                    self.at(
                        path + ("tally", "id"),
                        f"tally id {step.tally.id!r} clashes with another name",
                    )
                names.add(step.tally.id)
                found.tallies[step.tally.id] = set(step.tally.candidates)
            if step.score is not None:
                sc = path + ("score",)
                if step.score.id in names:
                    self.at(
                        sc + ("id",),
                        f"score id {step.score.id!r} clashes with a field or an earlier score",
                    )
                scope = every
                for name, src in step.score.let.items():
                    self.expression(sc + ("let", name), src, scope)
                    scope = scope | {name}
                self.component(sc + ("component",), step.score.component, scope, tables)
                names.add(step.score.id)
                found.scores.add(step.score.id)
            if step.winners is not None:
                winners_steps += 1
                wpath = path + ("winners",)
                self.expression(wpath + ("eligible", "test"), step.winners.eligible.test, every)
                for c_index, crit in enumerate(step.winners.criteria):
                    self.expression(wpath + ("criteria", c_index, "key"), crit.key, every)
                    self.expression(wpath + ("criteria", c_index, "when"), crit.when, TABLE_NAMES)
                self.choice(wpath + ("final_tie",), step.winners.final_tie, FINAL_TIES)
                self.choice(wpath + ("places_among",), step.winners.places_among, PLACES_AMONG)
                found.criteria |= self.unique_in(
                    wpath + ("criteria",), [c.id for c in step.winners.criteria]
                )
                if isinstance(step.winners.count, Lookup):
                    if step.winners.count.table not in tables:
                        self.at(
                            wpath + ("count", "table"), f"no table {step.winners.count.table!r}"
                        )
                    self.expression(wpath + ("count", "key"), step.winners.count.key, BASE_NAMES)
        if winners_steps > 1:
            self.at(spath, "a sequence settles the winners at most once")
        if winners_steps and seq.total_label is None:
            self.at(spath, "a sequence that settles winners needs a total_label")
        self.facts[seq.id] = found

    def choice(
        self,
        path: DataPath,
        value: str,
        allowed: tuple[str, ...],
        names: frozenset[str] = TABLE_NAMES,
    ) -> None:
        """A field that is one of ``allowed``, or an expression (read with ``names``) giving one.

        Every value the expression can give that the spec alone tells (a quoted
        text, either side of a conditional, each option of a ruling it reads,
        a parameter) is checked here, where it is written: a misspelt value
        would otherwise fail only in the game that reaches it. A bare word that
        is no option is named as such.
        """
        if value in allowed:
            return
        wanted = ", ".join(allowed)
        if value.isidentifier() and value not in names:
            self.at(path, f"{value!r} is none of {wanted} (or an expression that gives one)")
            return
        if self.expression(path, value, names) is None:
            return
        parts = value.parts if isinstance(value, Declared) else (((), value),)
        for where, leaf in parts:
            if where and where[-1] == "when":
                continue  # a case's test, not a value the field takes
            for given, how in self.known_values(leaf):
                if given in allowed:
                    continue
                self.at(path + where, f"{how or repr(given)} is none of {wanted}")

    def update_target(self, path: DataPath, dotted: str, fmt_id: str) -> None:
        """An update's ``set``: a player field, or a field inside a record field, by name.

        The scorer writes through the path as given (rulepress.scoring.engine,
        ``update``), so every part must be a field there, and every part but
        the last a record.
        """
        fields: Mapping[str, FieldSpec] = self.spec.table_states[fmt_id].players.fields
        parts = dotted.split(".")
        for depth, name in enumerate(parts):
            field = fields.get(name)
            if field is None:
                inside = ".".join(parts[:depth])
                owner = f"a field of {inside!r}" if inside else "a player field"
                known = ", ".join(sorted(fields)) or "none"
                self.at(path, f"{dotted!r}: {name!r} is not {owner} (fields: {known})")
                return
            if depth == len(parts) - 1:
                return
            here = ".".join(parts[: depth + 1])
            if field.type != "record":
                self.at(path, f"{dotted!r}: {here!r} is not a record, so it has no fields")
                return
            fields = field.fields

    def tally(self, path: DataPath, tally: Tally, names: frozenset[str]) -> None:
        self.expression(path + ("places",), tally.places, names)
        if tally.tie_order is not None:
            self.expression(path + ("tie_order",), tally.tie_order, names)
        if tally.floor is not None:
            self.expression(path + ("floor",), tally.floor, names)
        if tally.floor_note is not None:
            self.prose(path + ("floor_note",), tally.floor_note, {"candidate", "votes", "floor"})
        if (tally.floor is None) != (tally.floor_note is None):
            # a raised total the trace could not explain, or a sentence nothing says
            self.at(path, "a tally gives a 'floor_note' exactly when it gives a 'floor'")
        self.prose(path + ("tie_note",), tally.tie_note, {"tied", "votes"})
        for i, number in enumerate(tally.tie_rules):
            self.cite(path + ("tie_rules", i), number)
        for i, ruling in enumerate(tally.tie_rulings):
            if ruling not in self.ruling_ids:
                self.at(path + ("tie_rulings", i), f"unknown ruling {ruling!r}")
        stages = self.unique_in(path + ("stages",), [s.id for s in tally.stages])
        for route, numbers in tally.route_rules.items():
            if route not in tally.routes:
                self.at(path + ("route_rules", route), f"no route {route!r}", key=True)
            for i, number in enumerate(numbers):
                self.cite(path + ("route_rules", route, i), number)
        if tally.placement is not None:
            ppath = path + ("placement",)
            self.expression(ppath + ("count",), tally.placement.count, names)
            self.prose(ppath + ("note",), tally.placement.note, {"count", "candidate", "place"})
        for i, ballots in enumerate(tally.ballots):
            bpath = path + ("ballots", i)
            self.expression(bpath + ("items",), ballots.items, names)
            inner = names | {ballots.item}
            for attr in ("player", "units", "unit", "weight"):
                self.expression(bpath + (attr,), getattr(ballots, attr), inner)
            # a candidate and a route, where the spec tells them, are checked here
            self.choice(bpath + ("target",), ballots.target, tuple(tally.candidates), inner)
            for arg, src in ballots.args.items():
                self.expression(bpath + ("args", arg), src, inner)
            self.ballot_weights(bpath, ballots, inner, stages)
            if ballots.route is not None and tally.routes:
                routes = tuple(tally.routes)
                self.choice(bpath + ("route",), ballots.route, routes, inner | {"winners"})
            elif ballots.route is not None:
                self.expression(bpath + ("route",), ballots.route, inner | {"winners"})
            if (ballots.route is None) != (not tally.routes):
                self.at(
                    bpath,
                    "ballots give a 'route' exactly when their tally declares 'routes'",
                )
            routed = {"route"} if tally.routes else set()
            self.prose(
                bpath + ("note",),
                ballots.note,
                {"player", "units", "unit", "target", "votes", *routed, *ballots.args},
            )

    def ballot_weights(
        self, path: DataPath, ballots: Ballots, names: frozenset[str], stages: set[str]
    ) -> None:
        """A ballot's weight cases: their expressions, reasons and stages; one way to weigh."""
        if ballots.stage is not None and ballots.stage not in stages:
            self.at(path + ("stage",), f"no stage {ballots.stage!r} in the tally's stages")
        if not ballots.weights:
            return
        if "weight" in ballots.model_fields_set:
            self.at(path + ("weights",), "give 'weight' or 'weights', not both")
        for j, case in enumerate(ballots.weights):
            cpath = path + ("weights", j)
            self.expression(cpath + ("when",), case.when, names)
            self.expression(cpath + ("value",), case.value, names)
            if case.because is not None:
                self.prose(cpath + ("because",), case.because, {"weight", *ballots.args})
            if case.stage is not None and case.stage not in stages:
                self.at(cpath + ("stage",), f"no stage {case.stage!r} in the tally's stages")
        if ballots.weights[-1].when.strip() != "True":
            self.at(
                path + ("weights", len(ballots.weights) - 1),
                "the last weight case has no 'when' (it holds when no other does)",
            )

    def steps(
        self, steps: list[Step], path: DataPath, parent: str | None
    ) -> Iterator[tuple[DataPath, Step]]:
        previous: str | None = None
        for i, step in enumerate(steps):
            here = path + (i,)
            number = step.number
            if parent is None:
                if not number.isdigit():
                    self.at(
                        here + ("number",),
                        f"a top-level step is numbered with digits, not {number!r}",
                    )
                elif previous is not None and previous.isdigit() and int(number) <= int(previous):
                    self.at(
                        here + ("number",),
                        f"step {number} comes after step {previous}; steps must ascend",
                    )
            else:
                letter = number[len(parent) :]
                if not (number.startswith(parent) and len(letter) == 1 and letter.isalpha()):
                    self.at(
                        here + ("number",),
                        f"sub-step {number!r} of step {parent} is numbered {parent}a, {parent}b, …",
                    )
                elif previous is not None and number <= previous:
                    self.at(
                        here + ("number",),
                        f"step {number} comes after step {previous}; steps must ascend",
                    )
            previous = number
            yield here, step
            yield from self.steps(step.steps, here + ("steps",), number)

    def component(self, path: DataPath, comp: Any, names: frozenset[str], tables: set[str]) -> None:
        """A score's component: its operation checks it, or the check of its expression fields."""
        if isinstance(comp, PluginComponent):  # an op no installed operation has
            self.at(path + ("op",), operations.unknown_message(comp.op))
            return
        operation = operations.installed()[comp.op]
        if isinstance(operation, operations.Checked):
            operation.check(self, path, comp, names, tables)
            return
        # a plugin's: every expression field, with the names the operation binds for it
        for field, info in type(comp).model_fields.items():
            value = getattr(comp, field)
            if EXPR not in info.metadata and not _expression_list(info.annotation):
                continue
            scope = names | operations.scope_of(operation, field)
            if isinstance(value, str):
                self.expression(path + (field,), value, scope)
            elif isinstance(value, list):
                for i, src in enumerate(value):
                    self.expression(path + (field, i), src, scope)

    def parts(self, path: DataPath, parts: list[Part], names: frozenset[str]) -> None:
        for i, part in enumerate(parts):
            ppath = path + (i,)
            self.expression(ppath + ("when",), part.when, names)
            self.expression(ppath + ("value",), part.value, names)
            for arg, src in part.args.items():
                self.expression(ppath + ("args", arg), src, names)
            self.prose(ppath + ("note",), part.note, set(part.args) | {"points"})
