"""A commented starter table state for one of a game's sequences.

``rulepress state-template GAME [--sequence ID]`` prints it: every field the
sequence's state format declares, each under a comment giving its meaning,
type, bounds or allowed values, default, and the steps and rules that read
it, with placeholder values that pass the state check
(:mod:`rulepress.states.placeholders`), so that the file is scored as it
stands and a player only changes what happened at their table. Whatever
check the placeholders still fail is named at the top of the template.

Optional fields are written commented out. The comments are English, as
the state format's ``description`` texts are (they are author text, never
translated), like the field names themselves.
"""

from __future__ import annotations

import ast
import difflib
import json
import re
import textwrap
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from rulepress.errors import Problem, UsageError
from rulepress.expressions import ExpressionSyntaxError
from rulepress.expressions.syntax import parse_tree
from rulepress.model.spec_model import (
    EXPR,
    Bound,
    Constraint,
    FieldSpec,
    Parameter,
    RecordFormat,
    Sequence,
    Spec,
    StateFormat,
    Step,
    all_steps,
)
from rulepress.states.models import bound
from rulepress.states.placeholders import Ids, placeholder, placeholders, satisfy

#: width the comments are wrapped to
WIDTH = 88
#: how many players the template has, when the game allows it: two show how
#: fields that name a player refer to another one
PLAYERS = 2


def find_sequence(spec: Spec, wanted: str | None) -> Sequence:
    """The sequence named ``wanted`` (any case), else the scorer's; a guess for a typo."""
    if wanted is None:
        wanted = spec.scorer.sequence
    by_id = {s.id.casefold(): s for s in spec.sequences}
    found = by_id.get(wanted.casefold())
    if found is not None:
        return found
    known = ", ".join(s.id for s in spec.sequences)
    guess = difflib.get_close_matches(wanted.casefold(), list(by_id), n=1)
    hint = f"; did you mean {by_id[guess[0]].id!r}?" if guess else ""
    raise UsageError(f"{spec.game.id} has no sequence {wanted!r} (sequences: {known}){hint}")


def state_template(spec: Spec, sequence_id: str | None = None) -> str:
    """The commented YAML starter state of ``sequence_id`` (default: the scorer's sequence)."""
    seq = find_sequence(spec, sequence_id)
    fmt = spec.table_states[seq.state]
    params = spec.parameters
    low = bound(fmt.players.min, params) or 1
    high = bound(fmt.players.max, params)
    count = max(low, PLAYERS) if high is None else min(max(low, PLAYERS), high)
    ids = [f"p{i + 1}" for i in range(count)]
    state = placeholders(fmt, params, ids)
    problems = satisfy(spec, seq, state)
    writer = _Writer(params, _readers(seq))
    writer.header(spec, seq, fmt, problems)
    writer.line(0, f"game: {yaml_scalar(spec.game.id)}")
    writer.line(0, f"sequence: {yaml_scalar(seq.id)}")
    writer.players(fmt, state["players"])
    if fmt.table.fields:
        writer.comment(0, ["The table: what is not any one player's."])
        writer.constraints(0, fmt.table)
        writer.line(0, "table:")
        writer.record(2, fmt.table.fields, state["table"], document=True)
    return "\n".join(writer.lines) + "\n"


# --------------------------------------------------------------------------- which rules read a field


def expression_sources(
    obj: Any, *, skip: frozenset[str] = frozenset({"steps"}), targets: bool = True
) -> Iterator[str]:
    """Every expression source in ``obj`` (a spec or any part of it).

    The fields named in ``skip`` are not entered (by default a step's sub-steps,
    which are steps of their own); with ``targets``, the field an update sets
    counts as read too.
    """
    if isinstance(obj, BaseModel):
        for name, info in type(obj).model_fields.items():
            value = getattr(obj, name)
            if isinstance(value, str) and EXPR in info.metadata:
                yield value
            elif name in ("args", "let") and isinstance(value, dict):
                yield from (v for v in value.values() if isinstance(v, str))
            elif targets and name == "set" and isinstance(value, str):
                yield value.split(".")[0]  # an update's target field
            elif name not in skip:
                yield from expression_sources(value, skip=skip, targets=targets)
    elif isinstance(obj, list | tuple):
        for item in obj:
            yield from expression_sources(item, skip=skip, targets=targets)
    elif isinstance(obj, dict):
        for item in obj.values():
            yield from expression_sources(item, skip=skip, targets=targets)


def expression_names(source: str) -> set[str]:
    """The names and attribute names an expression reads."""
    try:
        tree, _ = parse_tree(source)
    except ExpressionSyntaxError:  # the spec check has reported it
        return set()
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            found.add(node.id)
        elif isinstance(node, ast.Attribute):
            found.add(node.attr)
    return found


def _readers(seq: Sequence) -> dict[str, list[Step]]:
    """Field name → the steps of ``seq`` whose expressions read a field of that name."""
    out: dict[str, list[Step]] = {}
    for step in all_steps(seq.steps):
        names: set[str] = set()
        for source in expression_sources(step):
            names |= expression_names(source)
        for name in names:
            out.setdefault(name, []).append(step)
    return out


# --------------------------------------------------------------------------- writing


_PLAIN = re.compile(r"[A-Za-z][A-Za-z0-9_.-]*( [A-Za-z0-9_.-]+)*")
#: words a YAML 1.1 reader takes for booleans or null: always quoted, for any reader
_KEYWORDS = frozenset({"true", "false", "null", "yes", "no", "on", "off", "y", "n"})


def yaml_scalar(value: Any) -> str:
    """A scalar in YAML: plain where any YAML reader takes it as the same text.

    Written by hand, not by a YAML library's dumper: the template interleaves
    comments with values, which PyYAML cannot write, and the values are only
    scalars and the nesting the state format gives. A JSON string is a valid
    YAML double-quoted scalar, so anything unusual is written as one.
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, int):
        return str(value)
    text = str(value)
    if _PLAIN.fullmatch(text) and text.casefold() not in _KEYWORDS:
        return text
    return json.dumps(text, ensure_ascii=False)


def _flow(value: list[Any]) -> str:
    return "[" + ", ".join(yaml_scalar(v) for v in value) + "]"


@dataclass
class _Writer:
    params: Mapping[str, Parameter]
    readers: dict[str, list[Step]]
    lines: list[str] = field(default_factory=list)

    def line(self, indent: int, text: str) -> None:
        self.lines.append(" " * indent + text)

    def comment(self, indent: int, paragraphs: list[str]) -> None:
        width = max(WIDTH - indent - 2, 40)
        for text in paragraphs:
            # a list entry ("- …") continues under its text, not under the dash
            hang = "  " if text.startswith("- ") else ""
            for line in textwrap.wrap(text, width, subsequent_indent=hang) or [""]:
                self.line(indent, f"# {line}".rstrip())

    def header(self, spec: Spec, seq: Sequence, fmt: StateFormat, problems: list[Problem]) -> None:
        self.comment(
            0,
            [
                f"A starter table state for {spec.game.title}: {seq.title} "
                f"(sequence {seq.id}, rules {', '.join(seq.rules) or '-'}).",
                fmt.description,
                "Above each field: what it means; its type and the values allowed; the "
                "steps that read it. The values are placeholders that pass the state "
                "check: change them to what happened at the table. A field with a "
                "default may be left out; an optional field is commented out: remove "
                'its "# " to give it.',
                f"Score it with: rulepress score {spec.game.id} FILE",
            ],
        )
        if problems:
            self.comment(
                0,
                [
                    "These placeholders do not pass every check of the state format yet:",
                    *(f"- {p.where}: {p.message}" for p in problems),
                ],
            )
        self.line(0, "")

    def constraints(self, indent: int, fmt: RecordFormat) -> None:
        if fmt.constraints:
            self.comment(indent, ["Checks across fields:"])
            for c in fmt.constraints:
                self.comment(indent, [f"- {_constraint_text(c)}"])

    def players(self, fmt: StateFormat, players: list[dict[str, Any]]) -> None:
        low, high = bound(fmt.players.min, self.params), bound(fmt.players.max, self.params)
        bounds = f"{low} to {high}" if high is not None else f"at least {low}"
        self.comment(
            0,
            [
                f"The players: {bounds} of them; each one's id is a short name, used once, "
                "by which other fields name the player.",
            ],
        )
        self.constraints(0, fmt.players)
        self.line(0, "players:")
        for i, player in enumerate(players):
            self.line(2, f"- id: {yaml_scalar(player['id'])}")
            self.record(4, fmt.players.fields, player, document=i == 0, top=True)

    def record(
        self,
        indent: int,
        fields: Mapping[str, FieldSpec],
        value: Mapping[str, Any],
        *,
        document: bool,
        top: bool = True,
        dash: bool = False,
    ) -> None:
        """The lines of a record's fields; ``dash``: its first line opens a list item.

        In a list item, the first field given opens the item: a commented-out
        optional field cannot carry the dash.
        """
        names = list(fields)
        opener = next((n for n in names if n in value), None)
        if dash and opener is None:
            self.line(indent - 2, "- {}")
            dash = False
        elif dash and opener is not None:
            names.remove(opener)
            names.insert(0, opener)
        shared = self.shared(fields) if document and not top else None
        if shared is not None:
            self.comment(indent - 2 if dash else indent, [f"Each of these: {shared}."])
        for name in names:
            spec = fields[name]
            here, prefix = indent, ""
            if dash and name == opener:
                here, prefix = indent - 2, "- "
            if document and shared is None:
                self.comment(here, [spec.description, self.facts(name, spec, top=top) + "."])
            given = name in value
            shown = value[name] if given else self.optional(name, spec)
            start = len(self.lines)
            self.field(here, prefix, indent, name, spec, shown, document=document)
            if shared is not None:  # one scalar line: its meaning beside it
                self.lines[start] += f"  # {spec.description}"
            if not given:  # an optional field: written commented out
                self.comment_out(start)

    def comment_out(self, start: int) -> None:
        """Make the value lines written since line ``start`` comments (they stay in place)."""
        for k in range(start, len(self.lines)):
            text = self.lines[k]
            body = text.lstrip()
            if not body.startswith("#"):
                pad = len(text) - len(body)
                self.lines[k] = f"{text[:pad]}# {body}"

    def optional(self, name: str, spec: FieldSpec) -> Any:
        ids = Ids(["p1", "p2"])
        return placeholder(name, spec, spec.default, self.params, ids)

    def field(
        self,
        here: int,
        prefix: str,
        indent: int,
        name: str,
        spec: FieldSpec,
        value: Any,
        *,
        document: bool,
    ) -> None:
        key = f"{prefix}{name}:"
        if spec.type == "record":
            if not spec.fields:
                self.line(here, f"{key} {{}}")
                return
            self.line(here, key)
            self.record(indent + 2, spec.fields, value, document=document, top=False)
        elif spec.type == "list":
            item = spec.item
            assert item is not None
            if item.type != "record" or not value:
                self.line(here, f"{key} {_flow(value)}")
                if item.type == "record" and document:
                    # the placeholder item broke a check: its fields are still shown
                    self.comment(indent + 2, ["An item, for example (in place of the []):"])
                    start = len(self.lines)
                    sample = placeholder(name, item, item.default, self.params, Ids(["p1", "p2"]))
                    self.record(
                        indent + 4, item.fields, sample, document=True, top=False, dash=True
                    )
                    self.comment_out(start)
                return
            self.line(here, key)
            for i, entry in enumerate(value):
                self.record(
                    indent + 4,
                    item.fields,
                    entry,
                    document=document and i == 0,
                    top=False,
                    dash=True,
                )
        else:
            self.line(here, f"{key} {yaml_scalar(value)}")

    def shared(self, fields: Mapping[str, FieldSpec]) -> str | None:
        """The facts of a record's fields when all are scalars with the same facts.

        Influence by colour is six counts with the same bounds: said once, the
        template stays readable.
        """
        scalars = [f for f in fields.values() if f.type not in ("list", "record")]
        if len(scalars) < 2 or len(scalars) < len(fields):
            return None
        facts = {self.facts("", f, top=False) for f in scalars}
        return facts.pop() if len(facts) == 1 else None

    def facts(self, name: str, spec: FieldSpec, *, top: bool) -> str:
        """A field's type, bounds, default and (``top``) the steps that read it."""
        facts = [self.kind(spec)]
        if spec.type == "list" and spec.item is not None and spec.item.type != "record":
            item = spec.item.description.rstrip(".")
            facts.append(f"each item: {item} ({self.kind(spec.item)})")
        elif spec.type == "list" and spec.item is not None:
            facts.append(f"each item: {spec.item.description.rstrip('.')}")
        if isinstance(spec.default, dict):
            facts.append("may be left out")
        elif spec.default is not None:
            shown = (
                _flow(spec.default) if isinstance(spec.default, list) else yaml_scalar(spec.default)
            )
            facts.append(f"default {shown} (may be left out)")
        if spec.optional:
            facts.append("optional")
        if top:
            facts.append(self.read_by(name))
        return "; ".join(facts)

    def read_by(self, name: str) -> str:
        steps = self.readers.get(name, [])
        if not steps:
            return "read by no step of this sequence (only by the checks, or for the record)"
        parts = []
        for step in steps:
            word = "rules" if len(step.rules) > 1 else "rule"
            rules = f", {word} {', '.join(step.rules)}" if step.rules else ""
            parts.append(f"step {step.number} {step.title}{rules}")
        return "read by " + "; ".join(parts)

    def kind(self, spec: FieldSpec) -> str:
        low, high = self.bounds(spec)
        if spec.type == "int":
            if low is not None and high is not None:
                return f"integer, {low} to {high}"
            if low is not None:
                return f"integer, at least {low}"
            return f"integer, at most {high}" if high is not None else "integer"
        if spec.type == "bool":
            return "true or false"
        if spec.type == "text":
            return "text"
        if spec.type == "player":
            return "a player's id"
        if spec.type == "choice":
            options = [
                f"{yaml_scalar(c)} ({spec.labels[c]})" if c in spec.labels else yaml_scalar(c)
                for c in spec.choices
            ]
            return "one of " + ", ".join(options)
        if spec.type == "list":
            size = (
                f"{low} to {high} items"
                if low is not None and high is not None
                else f"up to {high} items"
                if high is not None
                else "any number of items"
            )
            return f"a list of {size}" + (", none twice" if spec.unique else "")
        return "a mapping of the fields below"

    def bounds(self, spec: FieldSpec) -> tuple[str | None, str | None]:
        def shown(given: Bound | None) -> str | None:
            value = bound(given, self.params)
            if value is None:
                return None
            if isinstance(given, str):
                return f"{value} (parameter {given.removeprefix('param:')})"
            return str(value)

        return shown(spec.min), shown(spec.max)


def _constraint_text(c: Constraint) -> str:
    """A constraint as one line: for which members, the test, the values it names."""

    def flat(text: str) -> str:
        return " ".join(text.split())

    out = flat(c.test)
    if c.let:
        out += " where " + "; ".join(f"{name} = {flat(src)}" for name, src in c.let.items())
    if c.items is not None:
        out = f"for each {c.item} in {flat(c.items)}: {out}"
    return out
