"""Cross-reference and consistency checks over a validated spec.

Pydantic checks each value's shape; this module checks what only the whole
spec can tell: rule numbers unique and nested correctly, every reference
(in text, in ``rules:`` lists, in expressions) pointing at something that
exists, steps in order, expressions well-formed and reading only names that
will exist when they run, and worked examples whose table states fit the
game's state format and whose expectations name real players.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from pydantic import BaseModel, ValidationError

from rulepress.checks.base import (
    DECIDED_SPECIAL,
    EXPECT_KEYS,
    MAX_TABLE_KEYS,
    NOTES_WITH_ARGS,
    TALLY_KEYS,
    TALLY_SHAPES,
    ScopeHook,
    SequenceFacts,
    tally_shape,
)
from rulepress.checks.constraints import check_constraint
from rulepress.checks.draws import check_draw
from rulepress.checks.sequences import SequenceChecks
from rulepress.checks.sources import check_sources
from rulepress.errors import Problem
from rulepress.expressions.expression import BASE_NAMES
from rulepress.model import LoadedSpec
from rulepress.model.sets import expand
from rulepress.model.spec_model import (
    EXPR,
    PROSE,
    Example,
    FieldSpec,
    Parameter,
    Rule,
    Sequence,
    StateFormat,
    TableRow,
)
from rulepress.model.text import Ref, scan
from rulepress.states.validation import StateCheck, check_value, validate_state
from rulepress.yamlsrc import DataPath, format_path

#: the sections whose prose is the rulebook players read, where a number is a game value
#: (a worked example's sums, a ruling's reasoning, a step cited by its number and the
#: changelog may write digits)
RULEBOOK_PROSE = frozenset({"rules", "glossary"})
#: their running text (a title or a term may hold a number that names, as "Phase 2"
#: does, and a source's quote is the document's own words)
RULEBOOK_FIELDS = frozenset({"text", "definition"})


class _Checker(SequenceChecks):
    # ------------------------------------------------------------------ rules

    def rules(self) -> None:
        seen: dict[str, DataPath] = {}
        top: set[str] = set()

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
                # A top-level rule may start where the rulebook does (chapter 16, or
                # rule 3.2 of a rulebook whose chapter 3 the spec does not reproduce);
                # one that extends another top-level rule's number belongs among its
                # sub-rules, where it is shown
                owner = next(
                    (
                        n
                        for n in (
                            ".".join(rule.number.split(".")[:k]) for k in range(1, len(parts))
                        )
                        if n in top
                    ),
                    None,
                )
                if parent is None and owner is not None:
                    self.at(
                        here + ("number",),
                        f"rule {rule.number} extends rule {owner}: give it among the rules"
                        f" of rule {owner}",
                    )
                if parent is None:
                    top.add(rule.number)
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
        self.rule_ids = self._rule_ids()
        for i, ext in enumerate(self.spec.external_rules):
            if ext.number in seen:
                self.at(
                    ("external_rules", i, "number"),
                    f"rule {ext.number} is both reproduced and declared external",
                )
            seen.setdefault(ext.number, ("external_rules", i))
        self.rule_numbers = set(seen)

    def _rule_ids(self) -> dict[str, str]:
        """Each rule's id and its number; an id given twice is a problem."""
        ids: dict[str, str] = {}

        def visit(rules: list[Rule], path: DataPath) -> None:
            for i, rule in enumerate(rules):
                if rule.id is not None:
                    if rule.id in ids:
                        self.at(
                            path + (i, "id"),
                            f"rule id {rule.id!r} is used twice (also by rule {ids[rule.id]})",
                        )
                    ids.setdefault(rule.id, rule.number)
                visit(rule.rules, path + (i, "rules"))

        visit(self.spec.rules, ("rules",))
        return ids

    def changelog(self) -> None:
        """Changelog entries: unique ids, and every rule named by a number or an id that exists."""
        entries = self.spec.game.changelog
        seen: set[str] = set()
        for i, entry in enumerate(entries):
            here: DataPath = ("game", "changelog", i)
            if entry.id in seen:
                self.at(here + ("id",), f"change id {entry.id!r} is used twice")
            seen.add(entry.id)
            for j, ref in enumerate(entry.rules):
                if ref not in self.rule_numbers and ref not in self.rule_ids:
                    self.at(
                        here + ("rules", j),
                        f"no rule numbered or named {ref!r} (a change names a rule of this"
                        " edition by its number or its id)",
                    )

    def card_exceptions(self) -> None:
        """The table of card exceptions: each card once, named by a set id, in its sets.

        A card is matched in a table state by its id (``named_in``), and readers
        see the vocabulary's word for it; a set it names must exist and list it,
        or the scorer would apply another card's exception than the table says.
        """
        spec = self.spec
        self.unique("card_exceptions", spec.card_exceptions)
        members = expand({k: list(v) for k, v in spec.sets.items()}).members
        examples = {ex.id for ex in spec.examples}
        for i, card in enumerate(spec.card_exceptions):
            here: DataPath = ("card_exceptions", i)
            if card.id not in spec.vocabulary:
                self.at(
                    here + ("id",),
                    f"card {card.id!r} has no word in the vocabulary (readers see the card"
                    " by it, translated)",
                )
            for j, name in enumerate(card.sets):
                listed = members.get(name)
                if listed is None:
                    known = ", ".join(sorted(members)) or "none"
                    self.at(here + ("sets", j), f"no set {name!r} (sets: {known})")
                elif card.id not in listed:
                    self.at(
                        here + ("sets", j),
                        f"set {name!r} does not list card {card.id!r} (it lists:"
                        f" {', '.join(listed) or 'nothing'})",
                    )
            for j, number in enumerate(card.rules):
                self.cite(here + ("rules", j), number)
            if card.example is not None and card.example not in examples:
                self.at(here + ("example",), f"no example {card.example!r}")

    # ------------------------------------------------------------------ ids

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

    # ------------------------------------------------------------------ expressions

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
            # Table states are untrusted: a list without a most allowed length lets
            # one state make the validator and the scorer do unbounded work, so the
            # spec must say how many the game's components allow. An integer without
            # 'max' (points, money: no component bounds them) keeps the bound every
            # integer keeps, ±MAX_INT; the work a large count causes (units grouped
            # into sets, a tally's ballots) is charged to the command's budget
            # (rulepress.expressions.budget), which stops it with a located error.
            if spec.type == "list" and spec.max is None:
                self.at(
                    path,
                    "a list field needs 'max' (the most the game allows, an integer or"
                    " param:name), so that table states stay bounded",
                )
            if spec.type == "list":
                low, high = self.lengths(path, spec.min, spec.max, "a list's length")
            else:  # (resolving a param: bound also reports it when unknown)
                low, high = (
                    self.number(path + ("min",), spec.min),
                    self.number(path + ("max",), spec.max),
                )
            if low is not None and high is not None and high < low:
                self.at(path + ("max",), f"max {high} is below min {low}")
            check_draw(self, path, spec.draw, spec.type, low=low, high=high, choices=spec.choices)
            if spec.default is not None:
                chk = StateCheck(self.loaded.sources, path + ("default",), self.spec.parameters)
                check_value(chk, spec, spec.default, ())
                self.problems.extend(
                    Problem(p.location, p.where, f"the default does not fit: {p.message}")
                    for p in chk.problems
                )
            if spec.item is not None:
                field_spec(spec.item, path + ("item",))
            # a record keyed by a set has made its fields from its item, checked once
            for name, sub in () if spec.keys else spec.fields.items():
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
        low, high = self.lengths(
            base + ("players",), fmt.players.min, fmt.players.max, "the number of players"
        )
        if low is not None and high is not None and high < low:
            self.at(base + ("players", "max"), f"max {high} is below min {low}")
        check_draw(self, base + ("players",), fmt.players.draw, "players", low=low, high=high)
        player_names = frozenset(fmt.players.fields) | {"id"}
        table_names = frozenset(fmt.table.fields)
        for section, names in (("players", player_names), ("table", table_names)):
            rec = getattr(fmt, section)
            for i, c in enumerate(rec.constraints):
                scope = names | BASE_NAMES - {"ruling", "player", "lookup", "label"}
                cpath = base + (section, "constraints", i)
                check_constraint(self, cpath, c, scope, names, rec.fields, fmt.table.fields)
        return player_names, table_names

    def lengths(
        self, path: DataPath, low: int | str | None, high: int | str | None, what: str
    ) -> tuple[int | None, int | None]:
        """A list's ``min`` and ``max`` resolved; each is a length, so 0 or more.

        (pydantic cannot build a state model with a negative length: the models
        leave such a bound out, see rulepress.states.models.length, and this
        reports it.)
        """
        out: list[int | None] = []
        for key, given in (("min", low), ("max", high)):
            # (resolving a param: bound also reports it when unknown)
            value = self.number(path + (key,), given)
            if value is not None and value < 0:
                named = f" ({given})" if isinstance(given, str) else ""
                self.at(
                    path + (key,),
                    f"{key} {value}{named} is below 0: {what} cannot be negative",
                )
            out.append(value)
        return out[0], out[1]

    # ------------------------------------------------------------------ sequences

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
            if table.keys is not None:
                self.keyed_table(i, table.keys, table.rows)
                continue
            last: int | None = None
            keys = 0
            for j, row in enumerate(table.rows):
                rpath: DataPath = ("tables", i, "rows", j)
                if row.key is not None or row.min is None:
                    self.at(
                        rpath,
                        "a row of a table keyed by numbers gives 'min' (and 'max'), not 'key';"
                        " a table keyed by a set's members names the set: keys: sets.<name>",
                    )
                    continue
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
                # the scorer looks a key up in a mapping of every key the rows cover
                # (rulepress.scoring.components.table_values): a row from -10^15 to
                # 10^15 is one short line, and more keys than memory holds
                keys += max(last - low + 1, 0)
                if keys > MAX_TABLE_KEYS:
                    self.at(
                        rpath,
                        f"table {table.id!r} covers {keys:,} keys up to this row;"
                        f" a table covers at most {MAX_TABLE_KEYS:,}",
                    )
                    break
        self.unique("glossary", spec.glossary)
        self.unique("glossary", spec.glossary, "term")
        terms = {t.id for t in spec.glossary}
        for lang, entries in spec.termbase.items():
            for term_id in entries.terms:
                if term_id not in terms:
                    self.at(("termbase", lang, term_id), f"no glossary term {term_id!r}", key=True)
        for name, param in spec.parameters.items():
            self.cite(("parameters", name, "rule"), param.rule)
            self.parameter_map(name, param)

    def parameter_map(self, name: str, param: Parameter) -> None:
        """A parameter map gives a number for each member of its set, and for nothing else."""
        here: DataPath = ("parameters", name)
        if param.keys is None:
            if isinstance(param.value, dict):
                self.at(
                    here + ("value",),
                    "a number per member needs 'keys', the set they are members of"
                    " (keys: sets.<name>)",
                )
            return
        if isinstance(param.value, int):
            self.at(
                here + ("keys",), "'keys' is for a number per member: give 'value' as a mapping"
            )
            return
        members = self.set_members.get(param.keys.removeprefix("sets."))
        if members is None:
            known = ", ".join(sorted(self.set_members)) or "none"
            self.at(here + ("keys",), f"unknown set {param.keys} (sets: {known})")
            return
        missing = [m for m in members if m not in param.value]
        if missing:
            self.at(
                here + ("value",),
                f"no number for {', '.join(missing)} of {param.keys} (a map gives one for"
                " every member)",
            )
        for member in param.value:
            if member not in members:
                self.at(
                    here + ("value", member),
                    f"{member!r} is not a member of {param.keys} ({', '.join(members)})",
                    key=True,
                )

    def keyed_table(self, index: int, keys: str, rows: list[TableRow]) -> None:
        """A table keyed by a named set: each row one member of it, given once."""
        members = self.set_members.get(keys.removeprefix("sets."))
        if members is None:
            known = ", ".join(sorted(self.set_members)) or "none"
            self.at(("tables", index, "keys"), f"unknown set {keys} (sets: {known})")
        seen: set[str] = set()
        for j, row in enumerate(rows):
            rpath: DataPath = ("tables", index, "rows", j)
            self.number(rpath + ("value",), row.value)
            if row.key is None or row.min is not None or row.max is not None:
                self.at(rpath, f"a row of a table keyed by {keys} gives its member as 'key'")
                continue
            if members is not None and row.key not in members:
                self.at(
                    rpath + ("key",),
                    f"{row.key!r} is not a member of {keys} ({', '.join(members)})",
                )
            if row.key in seen:
                self.at(rpath + ("key",), f"{row.key!r} has a row already")
            seen.add(row.key)

    def texts(self) -> None:
        for path, kind, value in self.walk(self.spec, ()):
            if kind == "cite" and path[:2] == ("game", "changelog"):
                continue  # a number or a rule's id: see changelog()
            if kind == "cite":
                self.cite(path, value)
            elif kind == "prose" and path[-1] not in NOTES_WITH_ARGS:
                self.prose(path, value, set())
                if path[0] in RULEBOOK_PROSE and path[-1] in RULEBOOK_FIELDS:
                    self.no_digits(path, value)

    def no_digits(self, path: DataPath, text: str) -> None:
        """Rule text writes no number as digits: a number players read is a parameter.

        So a translator cannot change a printed value, each language formats it
        (``1 234``, ``１２``) and a change of value reaches every page. Digits
        inside markup (``{rule:16.4}``) are references, not numbers of the game.
        """
        plain = list(text)
        for token in scan(text):
            end = token.end if isinstance(token, Ref) else token.start + 1
            plain[token.start : end] = " " * (end - token.start)
        found = re.findall(r"\d+", "".join(plain))
        if found:
            self.at(
                path,
                f"{', '.join(dict.fromkeys(found))} written as digits: a number in rule text"
                " is a parameter ({param:name}), so that each language formats it and no"
                " translation can change it",
            )

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
                fmt,
                spec.parameters,
                ex.state,
                self.loaded.sources,
                base + ("state",),
                spec.game.id,
                sets=spec.sets,
            )
            self.problems.extend(problems)
            facts = self.facts.get(seq.id, SequenceFacts())
            self.expectations(base, ex, seq, facts, {p["id"] for p in state.get("players", [])})

    def expectations(
        self, base: DataPath, ex: Example, seq: Sequence, facts: SequenceFacts, ids: set[str]
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
            for key, value in stated.items():
                if key not in TALLY_KEYS:
                    self.at(
                        base + ("expect", "tallies", tally_id, key),
                        f"cannot expect {key!r} of a tally (expectable: {', '.join(sorted(TALLY_KEYS))})",
                        key=True,
                    )
                    continue
                try:
                    tally_shape(key).validate_python(value, strict=True)
                except ValidationError:
                    words = TALLY_SHAPES[key][1]
                    self.at(base + ("expect", "tallies", tally_id, key), f"{key} is {words}")

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


def check_spec(loaded: LoadedSpec, *, on_expression: ScopeHook | None = None) -> list[Problem]:
    """Every cross-reference problem of ``loaded``, in source order.

    ``on_expression`` is told the path of every expression checked and the
    names in scope there (the author's reference lists them: rulepress.reference).
    """
    chk = _Checker(loaded, on_expression=on_expression)
    chk.rules()
    chk.changelog()
    chk.rulings_and_tables()
    check_sources(chk)
    chk.named_sets()
    chk.card_exceptions()
    chk.texts()
    formats = {
        fmt_id: chk.state_format(fmt_id, fmt) for fmt_id, fmt in loaded.spec.table_states.items()
    }
    chk.sequences(formats)
    chk.examples()
    chk.publishing()
    chk.unused_params()
    return chk.problems
