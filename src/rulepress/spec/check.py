"""Cross-reference and consistency checks over a validated spec.

Pydantic checks each value's shape; this module checks what only the whole
spec can tell: rule numbers unique and nested correctly, every reference
(in text, in ``rules:`` lists, in expressions) pointing at something that
exists, steps in order, expressions well-formed and reading only names that
will exist when they run, and worked examples whose table states fit the
game's state format and whose expectations name real players.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from rulepress.errors import Problem
from rulepress.spec.expr import Expression, ExpressionSyntaxError, parse
from rulepress.spec.loaded import LoadedSpec
from rulepress.spec.model import (
    EXPR,
    PROSE,
    Example,
    FieldSpec,
    LinesComponent,
    Lookup,
    Part,
    Rule,
    Sequence,
    SetsComponent,
    Spec,
    StateFormat,
    Step,
    Tally,
    WeightedCountsComponent,
)
from rulepress.spec.state import StateCheck, check_value, validate_state
from rulepress.spec.text import Ref, Stray, scan
from rulepress.spec.yamlsrc import DataPath, format_path

#: names every scoring expression can read, besides the player's own fields
BASE_NAMES = frozenset(
    {"param", "ruling", "n_players", "table", "players", "player", "lookup", "label"}
)
#: what an example may state about a player besides score ids and shown fields
EXPECT_KEYS = frozenset({"total", "eligible", "rank"})
#: decided_by values that are not criterion ids (see rulepress.scoring.winners)
DECIDED_SPECIAL = frozenset({"eligibility", "shared", "none", "unresolved"})


#: prose fields whose placeholders are checked where their arguments are known
_NOTES_WITH_ARGS = frozenset({"note", "voided_note", "message", "tie_note", "wild_note"})

#: what an example may state about a tally
TALLY_KEYS = frozenset({"totals", "ranking", "winners", "flows"})


@dataclass
class _SequenceFacts:
    """What a sequence defines that its examples may state."""

    scores: set[str] = field(default_factory=set)
    criteria: set[str] = field(default_factory=set)
    tallies: dict[str, set[str]] = field(default_factory=dict)


@dataclass
class _Checker:
    loaded: LoadedSpec
    problems: list[Problem] = field(default_factory=list)
    rule_numbers: set[str] = field(default_factory=set)
    used_params: set[str] = field(default_factory=set)
    options: dict[str, str] = field(default_factory=dict)
    facts: dict[str, _SequenceFacts] = field(default_factory=dict)

    @property
    def spec(self) -> Spec:
        return self.loaded.spec

    def at(self, path: DataPath, message: str, *, key: bool = False) -> None:
        self.problems.append(Problem(self.loaded.locate(path, key=key), format_path(path), message))

    # ------------------------------------------------------------------ rules

    def rules(self) -> None:
        seen: dict[str, DataPath] = {}

        def visit(rules: list[Rule], parent: str | None, path: DataPath) -> None:
            previous: tuple[int, ...] = ()
            for i, rule in enumerate(rules):
                here = path + (i,)
                parts = tuple(int(x) for x in rule.number.split("."))
                duplicate = rule.number in seen
                if duplicate:
                    self.at(
                        here + ("number",),
                        f"rule {rule.number} is numbered twice (also at {format_path(seen[rule.number])})",
                    )
                seen.setdefault(rule.number, here)
                if parent is None and len(parts) != 1:
                    self.at(
                        here + ("number",),
                        f"a top-level rule (chapter) has a one-part number, not {rule.number}",
                    )
                if parent is not None and not (
                    rule.number.startswith(parent + ".") and len(parts) == parent.count(".") + 2
                ):
                    self.at(
                        here + ("number",),
                        f"rule {rule.number} does not extend its parent {parent} by one part",
                    )
                if previous and parts <= previous and not duplicate:
                    self.at(
                        here + ("number",),
                        f"rule {rule.number} comes after {'.'.join(map(str, previous))}; numbers must ascend",
                    )
                previous = parts
                if not rule.rules and not rule.text.strip():
                    self.at(here, f"rule {rule.number} has neither text nor sub-rules")
                visit(rule.rules, rule.number, here + ("rules",))

        visit(self.spec.rules, None, ("rules",))
        for i, ext in enumerate(self.spec.external_rules):
            if ext.number in seen:
                self.at(
                    ("external_rules", i, "number"),
                    f"rule {ext.number} is both reproduced and declared external",
                )
            seen.setdefault(ext.number, ("external_rules", i))
        self.rule_numbers = set(seen)

    def cite(self, path: DataPath, number: str) -> None:
        if number not in self.rule_numbers:
            self.at(
                path,
                f"rule {number} exists nowhere (declare it under external_rules if it lives in another document)",
            )

    # ------------------------------------------------------------------ ids

    def unique(self, section: str, items: list[Any], attr: str = "id") -> set[str]:
        seen: set[str] = set()
        for i, item in enumerate(items):
            value = getattr(item, attr)
            if value in seen:
                self.at((section, i, attr), f"{attr} {value!r} is used twice")
            seen.add(value)
        return seen

    # ------------------------------------------------------------------ text and citations

    def walk(self, obj: Any, path: DataPath) -> Iterator[tuple[DataPath, str, str]]:
        """Yield (path, kind, value) for every prose or expression string in the spec."""
        if isinstance(obj, BaseModel):
            for name, info in type(obj).model_fields.items():
                value = getattr(obj, name)
                here = path + (name,)
                kinds = [m.kind for m in info.metadata if m in (PROSE, EXPR)]
                if isinstance(value, str) and kinds:
                    yield here, kinds[0], value
                elif name == "args" and isinstance(value, dict):
                    for k, v in value.items():
                        yield here + (k,), EXPR.kind, v
                elif (
                    name == "rules"
                    and isinstance(value, list)
                    and value
                    and isinstance(value[0], str)
                ):
                    for i, number in enumerate(value):
                        yield here + (i,), "cite", number
                elif name == "rule" and isinstance(value, str):
                    yield here, "cite", value
                elif name not in ("state", "expect", "default"):
                    yield from self.walk(value, here)
        elif isinstance(obj, list):
            for i, item in enumerate(obj):
                yield from self.walk(item, path + (i,))
        elif isinstance(obj, dict):
            for key, item in obj.items():
                yield from self.walk(item, path + (key,))

    def prose(self, path: DataPath, text: str, args: set[str]) -> None:
        terms = {t.id for t in self.spec.glossary}
        rulings = {r.id for r in self.spec.rulings}
        for token in scan(text):
            if isinstance(token, Stray):
                self.at(
                    path,
                    f"stray {token.char!r} in text (markup is {{rule:N}}, {{param:x}}, {{term:id}}, {{ruling:id}}, [words](term:id))",
                )
                continue
            assert isinstance(token, Ref)
            if token.kind == "rule":
                self.cite(path, token.target)
            elif token.kind == "param":
                self.used_params.add(token.target)
                if token.target not in self.spec.parameters:
                    self.at(path, f"unknown parameter {token.target!r} in {{param:{token.target}}}")
            elif token.kind == "term" and token.target not in terms:
                self.at(path, f"unknown glossary term {token.target!r}")
            elif token.kind == "ruling" and token.target not in rulings:
                self.at(path, f"unknown ruling {token.target!r}")
            elif token.kind == "arg" and token.target not in args:
                allowed = ", ".join(sorted(args)) or "none here"
                self.at(path, f"unknown placeholder {{{token.target}}} (allowed: {allowed})")

    # ------------------------------------------------------------------ expressions

    def expression(self, path: DataPath, source: str, names: frozenset[str]) -> Expression | None:
        try:
            expr = parse(source)
        except ExpressionSyntaxError as exc:
            self.at(path, f"{exc} (column {exc.column} of {source!r})")
            return None
        unknown = sorted(expr.names - names)
        if unknown:
            self.at(path, f"unknown name(s) {', '.join(unknown)} in {source!r}")
        rulings = {r.id.replace("-", "_") for r in self.spec.rulings}
        for base, attr in expr.attributes:
            if base == "param" and "param" not in expr.names - names:
                self.used_params.add(attr)
                if attr not in self.spec.parameters:
                    self.at(path, f"unknown parameter param.{attr}")
            if base == "ruling" and attr not in rulings:
                self.at(
                    path, f"unknown ruling ruling.{attr} (rulings: {', '.join(sorted(rulings))})"
                )
        return expr

    # ------------------------------------------------------------------ state format

    def state_format(self, fmt_id: str, fmt: StateFormat) -> tuple[frozenset[str], frozenset[str]]:
        base: DataPath = ("table_states", fmt_id)

        def field_spec(spec: FieldSpec, path: DataPath) -> None:
            if spec.type == "list" and spec.item is None:
                self.at(path, "a list field needs 'item'")
            if spec.type == "record" and not spec.fields:
                self.at(path, "a record field needs 'fields'")
            if spec.type == "choice" and not spec.choices:
                self.at(path, "a choice field needs 'choices'")
            if (
                spec.type == "choice"
                and spec.default is not None
                and spec.default not in spec.choices
            ):
                self.at(path + ("default",), f"default {spec.default!r} is not one of the choices")
            for bound in ("min", "max"):
                value = getattr(spec, bound)
                if isinstance(value, str):
                    self.bound(path + (bound,), value)
            if spec.default is not None:
                chk = StateCheck(self.loaded.sources, path + ("default",), self.spec.parameters)
                check_value(chk, spec, spec.default, ())
                self.problems.extend(
                    Problem(p.location, p.where, f"the default does not fit: {p.message}")
                    for p in chk.problems
                )
            if spec.item is not None:
                field_spec(spec.item, path + ("item",))
            for name, sub in spec.fields.items():
                field_spec(sub, path + ("fields", name))

        for section in ("players", "table"):
            rec = getattr(fmt, section)
            for name, spec in rec.fields.items():
                field_spec(spec, base + (section, "fields", name))
        if "id" in fmt.players.fields:
            self.at(
                base + ("players", "fields", "id"),
                "'id' is implicit for every player; do not declare it",
            )
        for bound in ("min", "max"):
            value = getattr(fmt.players, bound)
            if isinstance(value, str):
                self.bound(base + ("players", bound), value)
        player_names = frozenset(fmt.players.fields) | {"id"}
        table_names = frozenset(fmt.table.fields)
        for section, names in (("players", player_names), ("table", table_names)):
            for i, c in enumerate(getattr(fmt, section).constraints):
                cpath = base + (section, "constraints", i)
                scope = names | BASE_NAMES - {"ruling", "player", "lookup", "label"}
                self.expression(cpath + ("test",), c.test, scope)
                for arg, src in c.args.items():
                    self.expression(cpath + ("args", arg), src, scope)
                self.prose(cpath + ("message",), c.message, set(c.args))
        return player_names, table_names

    def number(self, path: DataPath, value: int | str | None) -> int | None:
        """An integer or ``param:name`` resolved (None if absent or unknown)."""
        if value is None or isinstance(value, int):
            return value
        self.bound(path, value)
        param = self.spec.parameters.get(value.removeprefix("param:"))
        return param.value if param else None

    def bound(self, path: DataPath, value: str) -> None:
        name = value.removeprefix("param:")
        self.used_params.add(name)
        if name not in self.spec.parameters:
            self.at(path, f"unknown parameter {name!r}")

    # ------------------------------------------------------------------ sequences

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
        tables = {t.id for t in self.spec.tables}
        names = set(player_names | BASE_NAMES | {"chosen"})
        found = _SequenceFacts()
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
                if upd.set.split(".")[0] not in player_names:
                    self.at(upath + ("set",), f"{upd.set!r} is not a player field")
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

    def tally(self, path: DataPath, tally: Tally, names: frozenset[str]) -> None:
        self.expression(path + ("places",), tally.places, names)
        self.expression(path + ("tie_order",), tally.tie_order, names)
        self.prose(path + ("tie_note",), tally.tie_note, {"tied", "votes"})
        for i, ballots in enumerate(tally.ballots):
            bpath = path + ("ballots", i)
            self.expression(bpath + ("items",), ballots.items, names)
            inner = names | {ballots.item}
            for attr in ("player", "target", "units", "unit", "weight"):
                self.expression(bpath + (attr,), getattr(ballots, attr), inner)
            for arg, src in ballots.args.items():
                self.expression(bpath + ("args", arg), src, inner)
            self.expression(bpath + ("route",), ballots.route, inner | {"winners"})
            self.prose(
                bpath + ("note",),
                ballots.note,
                {"player", "units", "unit", "target", "votes", "route", *ballots.args},
            )

    def unique_in(self, path: DataPath, values: list[str]) -> set[str]:
        seen: set[str] = set()
        for i, value in enumerate(values):
            if value in seen:
                self.at(path + (i,), f"{value!r} is used twice")
            seen.add(value)
        return seen

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
        if isinstance(comp, LinesComponent):
            item_names = frozenset(names | {comp.item, "index"})
            self.expression(path + ("items",), comp.items, names)
            self.expression(
                path + ("restriction_voids_continuation",),
                comp.restriction_voids_continuation,
                names,
            )
            for attr in ("continuation", "value", "label"):
                self.expression(path + (attr,), getattr(comp, attr), item_names)
            for group in ("conditions", "restrictions"):
                for i, cond in enumerate(getattr(comp, group)):
                    self.expression(path + (group, i, "test"), cond.test, item_names)
            self.prose(path + ("voided_note",), comp.voided_note, {"base"})
            return
        if isinstance(comp, SetsComponent):
            self.expression(path + ("count",), comp.count, names | {comp.kind})
            self.expression(path + ("wild",), comp.wild, names)
            if comp.values not in tables:
                self.at(path + ("values",), f"no table {comp.values!r}")
            return
        if isinstance(comp, WeightedCountsComponent):
            scope = names | {c.name for c in comp.choices}
            for i, choice in enumerate(comp.choices):
                self.expression(path + ("choices", i, "options"), choice.options, names)
                self.prose(path + ("choices", i, "note"), choice.note, {"choice"})
            kinded = scope | {comp.kind}
            self.expression(path + ("count",), comp.count, kinded)
            self.parts(path + ("multiplier",), comp.multiplier, kinded)
            self.expression(path + ("wild",), comp.wild, scope)
            self.expression(path + ("wild_value",), comp.wild_value, scope | {"multipliers"})
            self.prose(path + ("wild_note",), comp.wild_note, {"count", "value", "points"})
            if comp.item_uses is not None:
                ipath = path + ("item_uses",)
                self.expression(ipath + ("items",), comp.item_uses.items, scope)
                inner = scope | {comp.item_uses.item, "multipliers"}
                self.expression(ipath + ("label",), comp.item_uses.label, inner)
                for i, use in enumerate(comp.item_uses.uses):
                    upath = ipath + ("uses", i)
                    self.expression(upath + ("when",), use.when, inner)
                    if (use.kind is None) == (use.value is None):
                        self.at(upath, "a use gives either 'kind' or 'value'")
                    for attr in ("kind", "value"):
                        src = getattr(use, attr)
                        if src is not None:
                            self.expression(upath + (attr,), src, inner)
            return
        self.parts(path + ("parts",), comp.parts, names)

    def parts(self, path: DataPath, parts: list[Part], names: frozenset[str]) -> None:
        for i, part in enumerate(parts):
            ppath = path + (i,)
            self.expression(ppath + ("when",), part.when, names)
            self.expression(ppath + ("value",), part.value, names)
            for arg, src in part.args.items():
                self.expression(ppath + ("args", arg), src, names)
            self.prose(ppath + ("note",), part.note, set(part.args) | {"points"})

    # ------------------------------------------------------------------ the rest

    def rulings_and_tables(self) -> None:
        spec = self.spec
        self.unique("rulings", spec.rulings)
        options: dict[str, str] = {}
        for i, ruling in enumerate(spec.rulings):
            ids = [o.id for o in ruling.options]
            if ruling.default not in ids:
                self.at(
                    ("rulings", i, "default"),
                    f"default {ruling.default!r} is not one of the options ({', '.join(ids)})",
                )
            for j, opt in enumerate(ruling.options):
                if opt.id in options:
                    self.at(
                        ("rulings", i, "options", j, "id"),
                        f"option id {opt.id!r} is also an option of ruling {options[opt.id]!r}",
                    )
                options[opt.id] = ruling.id
        self.options = options
        self.unique("tables", spec.tables)
        for i, table in enumerate(spec.tables):
            last: int | None = None
            for j, row in enumerate(table.rows):
                rpath: DataPath = ("tables", i, "rows", j)
                low, high, _ = (
                    self.number(rpath + (k,), getattr(row, k)) for k in ("min", "max", "value")
                )
                if low is None:
                    continue
                if high is not None and high < low:
                    self.at(rpath, f"max {high} is below min {low}")
                if last is not None and low <= last:
                    self.at(rpath + ("min",), "rows must ascend without overlapping")
                last = high if high is not None else low
        self.unique("glossary", spec.glossary)
        self.unique("glossary", spec.glossary, "term")
        terms = {t.id for t in spec.glossary}
        for lang, entries in spec.termbase.items():
            for term_id in entries:
                if term_id not in terms:
                    self.at(("termbase", lang, term_id), f"no glossary term {term_id!r}", key=True)
        for name, param in spec.parameters.items():
            self.cite(("parameters", name, "rule"), param.rule)

    def texts(self) -> None:
        for path, kind, value in self.walk(self.spec, ()):
            if kind == "cite":
                self.cite(path, value)
            elif kind == "prose" and path[-1] not in _NOTES_WITH_ARGS:
                self.prose(path, value, set())

    def examples(self) -> None:
        spec = self.spec
        self.unique("examples", spec.examples)
        sequences = {seq.id: seq for seq in spec.sequences}
        for i, ex in enumerate(spec.examples):
            base: DataPath = ("examples", i)
            for j, variant in enumerate(ex.variants):
                if variant not in self.options:
                    self.at(base + ("variants", j), f"unknown variant {variant!r}")
            seq = sequences.get(ex.sequence or spec.scorer.sequence)
            if seq is None:
                self.at(base + ("sequence",), f"no sequence {ex.sequence!r}")
                continue
            fmt = spec.table_states.get(seq.state)
            if fmt is None:
                continue
            state, problems = validate_state(
                fmt, spec.parameters, ex.state, self.loaded.sources, base + ("state",), spec.game.id
            )
            self.problems.extend(problems)
            facts = self.facts.get(seq.id, _SequenceFacts())
            self.expectations(base, ex, seq, facts, {p["id"] for p in state.get("players", [])})

    def expectations(
        self, base: DataPath, ex: Example, seq: Sequence, facts: _SequenceFacts, ids: set[str]
    ) -> None:
        allowed = EXPECT_KEYS | facts.scores | set(seq.show)
        for pid, stated in ex.expect.players.items():
            if pid not in ids:
                self.at(
                    base + ("expect", "players", pid),
                    f"example names unknown player {pid!r}",
                    key=True,
                )
            for key in stated:
                if key.split(".")[0] not in allowed:
                    shown = ", ".join(sorted(allowed))
                    self.at(
                        base + ("expect", "players", pid, key),
                        f"cannot expect {key!r} (expectable: {shown})",
                        key=True,
                    )
        for j, pid in enumerate(ex.expect.winners or []):
            if pid not in ids:
                self.at(base + ("expect", "winners", j), f"example names unknown player {pid!r}")
        if ex.expect.decided_by is not None:
            decided = facts.criteria | DECIDED_SPECIAL
            if ex.expect.decided_by not in decided:
                self.at(
                    base + ("expect", "decided_by"),
                    f"decided_by must be one of {', '.join(sorted(decided))}",
                )
        for tally_id, stated in ex.expect.tallies.items():
            if tally_id not in facts.tallies:
                self.at(
                    base + ("expect", "tallies", tally_id),
                    f"the sequence has no tally {tally_id!r}",
                    key=True,
                )
                continue
            for key in stated:
                if key not in TALLY_KEYS:
                    self.at(
                        base + ("expect", "tallies", tally_id, key),
                        f"cannot expect {key!r} of a tally (expectable: {', '.join(sorted(TALLY_KEYS))})",
                        key=True,
                    )

    def publishing(self) -> None:
        pub = self.spec.publishing
        if pub is None:
            return
        ids = {s.id for s in self.spec.sequences}
        for key in ("reference_card", "step_cards"):
            part = getattr(pub, key)
            for i, seq in enumerate(part.sequences if part else []):
                if seq not in ids:
                    self.at(("publishing", key, "sequences", i), f"no sequence {seq!r}")
        tables = {t.id for t in self.spec.tables}
        for i, table in enumerate(pub.reference_card.tables):
            if table not in tables:
                self.at(("publishing", "reference_card", "tables", i), f"no table {table!r}")

    def unused_params(self) -> None:
        for name in self.spec.parameters:
            if name not in self.used_params:
                self.at(("parameters", name), f"parameter {name!r} is never used", key=True)


def check_spec(loaded: LoadedSpec) -> list[Problem]:
    """Every cross-reference problem of ``loaded``, in source order."""
    chk = _Checker(loaded)
    chk.rules()
    chk.rulings_and_tables()
    chk.texts()
    formats = {
        fmt_id: chk.state_format(fmt_id, fmt) for fmt_id, fmt in loaded.spec.table_states.items()
    }
    chk.sequences(formats)
    chk.examples()
    chk.publishing()
    chk.unused_params()
    return chk.problems


def rule_index(spec: Spec) -> Mapping[str, Rule]:
    """Every reproduced rule by number."""
    out: dict[str, Rule] = {}

    def visit(rules: list[Rule]) -> None:
        for rule in rules:
            out[rule.number] = rule
            visit(rule.rules)

    visit(spec.rules)
    return out
