"""The shared state and helpers of the spec checks: locating problems, text, expressions.

:mod:`rulepress.checks.checker` runs the checks; the procedures' checks live in
:mod:`rulepress.checks.sequences`. Both build on :class:`CheckBase`.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache, cached_property
from typing import Any

from pydantic import TypeAdapter

from rulepress.checks.built_names import Range, generator_ranges, missing_reads, missing_rows
from rulepress.errors import Problem
from rulepress.expressions import Expression, ExpressionSyntaxError, parse
from rulepress.expressions.syntax import parse_tree
from rulepress.model import LoadedSpec, Spec
from rulepress.model.declared import Declared
from rulepress.model.sets import expand
from rulepress.model.text import Ref, Stray, scan_deep
from rulepress.states.models import bound as bound_of
from rulepress.yamlsrc import DataPath, format_path

#: what check_spec tells of each expression: its path and the names in scope there
ScopeHook = Callable[[DataPath, frozenset[str]], None]

#: The most keys a table's rows may cover together. A table maps a count the
#: table state gives (players, sets, wins) to a value; the shipped games' largest
#: covers 9 keys, so this leaves a thousandfold room.
MAX_TABLE_KEYS = 10_000
#: plural forms of the spec's own language (English: one, other), for {param:x|…|…}
SOURCE_PLURALS = 2
#: what an example may state about a player besides score ids and shown fields
EXPECT_KEYS = frozenset({"total", "eligible", "rank"})
#: decided_by values that are not criterion ids (see rulepress.scoring.winners)
DECIDED_SPECIAL = frozenset({"eligibility", "shared", "none", "unresolved"})


#: prose fields whose placeholders are checked where their arguments are known
NOTES_WITH_ARGS = frozenset(
    {
        "note",
        "voided_note",
        "message",
        "tie_note",
        "floor_note",
        "wild_note",
        "wild_as_note",
        "unnamed",
        "no_rate_note",
    }
)

#: what an example may state about a tally, each with its shape (the scorer's, in
#: rulepress.scoring.result.TallyResult) and how a message names that shape: the pages
#: show each fact by it (a flow stated as a list failed the site build)
TALLY_SHAPES: dict[str, tuple[Any, str]] = {
    "totals": (dict[str, int], "a mapping of candidate to votes"),
    "stages": (dict[str, dict[str, int]], "a mapping of stage to candidate to votes"),
    "ranking": (list[str], "a list of candidates"),
    "winners": (list[str], "a list of candidates"),
    "flows": (
        dict[str, dict[str, dict[str, int]]],
        "a mapping of player to route to unit to count",
    ),
}
TALLY_KEYS = frozenset(TALLY_SHAPES)


@cache
def tally_shape(key: str) -> TypeAdapter[Any]:
    """The validator of the shape of what an example states as a tally's ``key``.

    Built when a check first needs it: a check of a spec that has no example
    stating a tally builds none.
    """
    return TypeAdapter(TALLY_SHAPES[key][0])


@dataclass
class SequenceFacts:
    """What a sequence defines that its examples may state."""

    scores: set[str] = field(default_factory=set)
    criteria: set[str] = field(default_factory=set)
    tallies: dict[str, set[str]] = field(default_factory=dict)


@dataclass
class CheckBase:
    """The problems found so far and what the checks learn about the spec on the way."""

    loaded: LoadedSpec
    problems: list[Problem] = field(default_factory=list)
    rule_numbers: set[str] = field(default_factory=set)
    #: each rule's id (rules that have one) and its number
    rule_ids: dict[str, str] = field(default_factory=dict)
    used_params: set[str] = field(default_factory=set)
    options: dict[str, str] = field(default_factory=dict)
    facts: dict[str, SequenceFacts] = field(default_factory=dict)
    #: told every expression's path and the names in scope there (see check_spec)
    on_expression: ScopeHook | None = None
    #: the names bound to the members of a named set where the expressions being
    #: checked run (a majorities score's area), for names built at run time
    ranges: dict[str, Range] = field(default_factory=dict)

    @property
    def spec(self) -> Spec:
        return self.loaded.spec

    # Made once per check: prose() runs for every text of the spec, and building
    # these per text made checking quadratic (texts x terms; benchmarks/bench_loader.py)
    @cached_property
    def term_ids(self) -> frozenset[str]:
        return frozenset(t.id for t in self.spec.glossary)

    @cached_property
    def set_members(self) -> dict[str, tuple[str, ...]]:
        """Every named set's members, spelled out (a set that includes another: both's)."""
        members = expand({k: list(v) for k, v in self.spec.sets.items()}).members
        return {name: tuple(ids) for name, ids in members.items()}

    @contextmanager
    def ranging(
        self, name: str, source: str, members: tuple[str, ...] | None = None
    ) -> Iterator[None]:
        """While checking the expressions inside: ``name`` is each member of ``source``.

        ``members``: given, or those of the named set ``source`` writes
        (``sets.districts``); of any other list nothing is known before a
        state is given.
        """
        written = source.strip()
        if members is None and written.startswith("sets."):
            members = self.set_members.get(written.removeprefix("sets."))
        before = self.ranges.get(name)
        if members is not None:
            self.ranges[name] = (written, members)
        else:
            self.ranges.pop(name, None)
        try:
            yield
        finally:
            if before is None:
                self.ranges.pop(name, None)
            else:
                self.ranges[name] = before

    @cached_property
    def ruling_ids(self) -> frozenset[str]:
        return frozenset(r.id for r in self.spec.rulings)

    def at(self, path: DataPath, message: str, *, key: bool = False) -> None:
        self.problems.append(Problem(self.loaded.locate(path, key=key), format_path(path), message))

    def cite(self, path: DataPath, number: str) -> None:
        if number not in self.rule_numbers:
            self.at(
                path,
                f"rule {number} exists nowhere (declare it under external_rules if it lives in another document)",
            )

    def unique(self, section: str, items: list[Any], attr: str = "id") -> set[str]:
        seen: set[str] = set()
        for i, item in enumerate(items):
            value = getattr(item, attr)
            if value in seen:
                self.at((section, i, attr), f"{attr} {value!r} is used twice")
            seen.add(value)
        return seen

    def prose(self, path: DataPath, text: str, args: set[str]) -> None:
        terms, rulings = self.term_ids, self.ruling_ids
        for token in scan_deep(text):
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
                name, _, member = token.target.partition(".")
                self.used_params.add(name)
                value = self.spec.parameters[name].value if name in self.spec.parameters else None
                if value is None:
                    self.at(path, f"unknown parameter {name!r} in {{param:{token.target}}}")
                elif isinstance(value, int) and member:
                    self.at(path, f"{{param:{token.target}}}: {name} is one number, not a map")
                elif not isinstance(value, int) and member not in value:
                    members = ", ".join(f"{name}.{m}" for m in value)
                    what = (
                        f"{name} gives no number for {member!r}"
                        if member
                        else f"{name} is a map (a number per member of a set): text shows"
                        " one of its numbers"
                    )
                    self.at(path, f"{{param:{token.target}}}: {what} ({members})")
                else:
                    self.forms(path, token)
            elif token.kind == "term" and token.target not in terms:
                self.at(path, f"unknown glossary term {token.target!r}")
            elif token.kind == "ruling" and token.target not in rulings:
                self.at(path, f"unknown ruling {token.target!r}")
            elif token.kind == "arg" and token.target not in args:
                allowed = ", ".join(sorted(args)) or "none here"
                self.at(path, f"unknown placeholder {{{token.target}}} (allowed: {allowed})")
            elif token.kind == "arg":
                self.forms(path, token)

    def forms(self, path: DataPath, token: Ref) -> None:
        """The plural forms of ``{param:x|…}`` or ``{count|…}``: English's two, none empty."""
        if not token.forms:
            return
        shown = f"{{param:{token.target}|…}}" if token.kind == "param" else f"{{{token.target}|…}}"
        if len(token.forms) != SOURCE_PLURALS:
            self.at(
                path,
                f"{shown} has {len(token.forms)} form(s); spec text is English, which has"
                f" {SOURCE_PLURALS} (one, other): '{{param:x|# point|# points}}'",
            )
        elif not all(f.strip() for f in token.forms):
            self.at(path, f"{shown} has an empty form")

    def expression(self, path: DataPath, source: str, names: frozenset[str]) -> Expression | None:
        if isinstance(source, Declared):
            return self.declared(path, source, names)
        if self.on_expression is not None:
            self.on_expression(path, names)
        try:
            expr = parse(source)
        except ExpressionSyntaxError as exc:
            self.at(path, f"{exc} (column {exc.column} of {source!r})")
            return None
        for bound, column in expr.bindings:
            # a generator may not hide a name the scope gives (a field, a score, param …)
            if bound in names:
                self.at(
                    path,
                    f"a generator may not bind {bound!r}, a name this expression's scope "
                    f"already gives (column {column} of {source!r})",
                )
                return None
        unknown = sorted(expr.names - names)
        if unknown:
            self.at(path, f"unknown name(s) {', '.join(unknown)} in {source!r}")
        rulings = self.ruling_ids  # read as spelled: ``ruling.grudge_state``
        for base, attr in expr.attributes:
            if base == "param" and "param" not in expr.names - names:
                self.used_params.add(attr)
                if attr not in self.spec.parameters:
                    self.at(path, f"unknown parameter param.{attr}")
            if base == "sets" and "sets" not in expr.names - names and attr not in self.spec.sets:
                known = ", ".join(sorted(self.spec.sets)) or "none"
                self.at(path, f"unknown set sets.{attr} (sets: {known})")
            if base == "ruling" and attr not in rulings:
                self.at(
                    path, f"unknown ruling ruling.{attr} (rulings: {', '.join(sorted(rulings))})"
                )
        if "ruling" in expr.names and "ruling" in names:
            self.ruling_options_compared(path, source)
        reads = "param" in expr.names and "param" in names and "get" in source
        if reads or ("lookup" in source and "lookup" in names):
            self.built_names(path, source)
        return expr

    def built_names(self, path: DataPath, source: str) -> None:
        """Each name ``get`` builds and key ``lookup`` asks for must exist (:mod:`.built_names`)."""
        tree, _ = parse_tree(source)  # parsed again only for expressions that call these
        ranges = {**self.ranges, **generator_ranges(tree, self.set_members)}
        found = missing_reads(tree, self.spec.parameters, ranges)
        found += missing_rows(tree, self.table_keys, ranges)
        for message in found:
            self.at(path, message)

    @cached_property
    def table_keys(self) -> dict[str, tuple[str | None, frozenset[Any]]]:
        """By table id: the set it is keyed by (None: integers) and every key its rows give."""
        out: dict[str, tuple[str | None, frozenset[Any]]] = {}
        params = self.spec.parameters
        for table in self.spec.tables:
            keys: set[Any] = set()
            for row in table.rows:
                if row.key is not None:
                    keys.add(row.key)
                    continue
                low = bound_of(row.min, params)
                high = bound_of(row.max, params) if row.max is not None else low
                # (past the bound the table is refused, at its row: see check_spec)
                if low is not None and high is not None and high - low < MAX_TABLE_KEYS:
                    keys.update(range(low, high + 1))
                if len(keys) > MAX_TABLE_KEYS:
                    break
            out[table.id] = (table.keys, frozenset(keys))
        return out

    @cached_property
    def ruling_options(self) -> dict[str, tuple[str, ...]]:
        return {r.id: tuple(o.id for o in r.options) for r in self.spec.rulings}

    def ruling_options_compared(self, path: DataPath, source: str) -> None:
        """A text compared with ``ruling.x`` must be one of x's options.

        Otherwise the comparison is silently false for every choice of
        rulings, and the variant it was written for never applies: the
        likeliest slip is an option spelled as ids once were
        (``ruling.grudge_state == 'not-live'``).
        """
        tree, _ = parse_tree(source)  # parsed again only for expressions that read a ruling
        for node in ast.walk(tree):
            if not isinstance(node, ast.Compare):
                continue
            sides = [node.left, *node.comparators]
            for left, op, right in zip(sides, node.ops, sides[1:], strict=False):
                for subject, other in ((left, right), (right, left)):
                    if not (
                        isinstance(subject, ast.Attribute)
                        and isinstance(subject.value, ast.Name)
                        and subject.value.id == "ruling"
                        and subject.attr in self.ruling_options
                    ):
                        continue
                    if isinstance(op, ast.In | ast.NotIn) and isinstance(
                        other, ast.List | ast.Tuple | ast.Set
                    ):
                        texts = other.elts
                    else:
                        texts = [other]
                    options = self.ruling_options[subject.attr]
                    for text in texts:
                        if (
                            isinstance(text, ast.Constant)
                            and isinstance(text.value, str)
                            and text.value not in options
                        ):
                            self.at(
                                path,
                                f"ruling.{subject.attr} is compared with {text.value!r}, which"
                                f" is not one of its options ({', '.join(options)}); option"
                                " ids are lower_snake_case",
                            )

    def known_values(self, source: str) -> list[tuple[Any, str]]:
        """The values ``source`` can give that the spec alone tells, each as a message names it.

        A quoted text or a number gives itself (named: ``''``, its value), ``ruling.x``
        each option of ``x``, ``param.x`` its value, and a conditional whatever
        either of its sides gives. Of anything else (a field of the table
        state, a call) nothing is known here, and nothing is listed: it is
        checked when it is scored.
        """
        try:
            tree, _ = parse_tree(source)
        except ExpressionSyntaxError:
            return []  # reported where the expression is checked
        out: list[tuple[Any, str]] = []
        todo: list[ast.expr] = [tree.body]
        while todo:
            node = todo.pop()
            if isinstance(node, ast.IfExp):
                todo += [node.orelse, node.body]
            elif isinstance(node, ast.Constant):
                out.append((node.value, ""))
            elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                base, attr = node.value.id, node.attr
                if base == "ruling" and attr in self.ruling_options:
                    out += [
                        (o, f"the option {o!r} of ruling.{attr}") for o in self.ruling_options[attr]
                    ]
                elif base == "param" and attr in self.spec.parameters:
                    value = self.spec.parameters[attr].value
                    out.append((value, f"param.{attr} ({value!r})"))
        return out

    def declared(
        self, path: DataPath, source: Declared, names: frozenset[str]
    ) -> Expression | None:
        """An expression written as a declaration: each part where it is written, each ruling."""
        before = len(self.problems)
        for sub, part in source.parts:
            self.expression(path + sub, part, names)
        options = self.ruling_options
        for sub, ruling, given in source.rulings:
            where = path + sub + ("by_ruling",)
            if ruling not in options:
                known = ", ".join(sorted(options)) or "none"
                self.at(where, f"no ruling {ruling!r} (rulings: {known})")
                continue
            for option in given:
                if option not in options[ruling]:
                    self.at(
                        path + sub + (option,),
                        f"{ruling} has no option {option!r} (options: {', '.join(options[ruling])})",
                        key=True,
                    )
            missing = [o for o in options[ruling] if o not in given]
            if missing:
                self.at(where, f"no value for the option(s) {', '.join(missing)} of {ruling}")
        if len(self.problems) > before:
            return None
        return parse(source)

    def named_sets(self) -> None:
        """The ``sets`` section: every set it includes exists, no cycle, no id twice."""
        for path, message in expand({k: list(v) for k, v in self.spec.sets.items()}).problems:
            self.at(path, message)

    def number(self, path: DataPath, value: int | str | None) -> int | None:
        """An integer or ``param:name`` resolved (None if absent or unknown)."""
        if value is None or isinstance(value, int):
            return value
        self.bound(path, value)
        param = self.spec.parameters.get(value.removeprefix("param:"))
        if param is None:
            return None
        if not isinstance(param.value, int):
            self.at(
                path,
                f"parameter {value.removeprefix('param:')!r} is a map (a number per member"
                " of a set), not one number",
            )
            return None
        return param.value

    def bound(self, path: DataPath, value: str) -> None:
        name = value.removeprefix("param:")
        self.used_params.add(name)
        if name not in self.spec.parameters:
            self.at(path, f"unknown parameter {name!r}")

    def unique_in(self, path: DataPath, values: list[str]) -> set[str]:
        seen: set[str] = set()
        for i, value in enumerate(values):
            if value in seen:
                self.at(path + (i,), f"{value!r} is used twice")
            seen.add(value)
        return seen
