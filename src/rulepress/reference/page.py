"""The author's reference page (see :mod:`rulepress.reference`)."""

from __future__ import annotations

import inspect
import re
import textwrap
import types
import typing
from collections.abc import Iterator
from typing import Any, Literal

import yaml
from pydantic import BaseModel
from pydantic.fields import FieldInfo

from rulepress.expressions import bounds
from rulepress.expressions.runtime import described
from rulepress.expressions.syntax import ARITY, CONTEXT_ARITY
from rulepress.games.load import load_spec
from rulepress.model import sets
from rulepress.model.field_docs import describe_fields
from rulepress.model.loaded import LoadedSpec
from rulepress.model.previous import PreviousEdition
from rulepress.model.spec_model import (
    COMPONENT,
    AuthorText,
    Change,
    Constraint,
    Draw,
    ExprText,
    FieldSpec,
    Id,
    IdList,
    Labelled,
    Name,
    RuleNumber,
    RulingName,
    SetMembers,
    SetRef,
    StateId,
    Step,
    StepNumber,
    Text,
    component_models,
    component_union,
)
from rulepress.reference.examples import (
    Example,
    all_examples,
    example_id,
    reference_game,
)
from rulepress.reference.scopes import SPEC_KINDS, Place, scopes
from rulepress.reference.scopes import names as scope_names
from rulepress.reference.values import fixed_values
from rulepress.yamlsrc import SourceMap

#: the step kinds: the fields of a step that make it do something
STEP_KINDS = ("updates", "tally", "score", "winners")

#: how the reference names the spec's own string types
_ALIASES: tuple[tuple[Any, str], ...] = (
    (ExprText, "expression"),
    (Text, "text"),
    (AuthorText, "text (not translated)"),
    (Id, "id (`a-b`)"),
    (Name, "name (`a_b`)"),
    (RulingName, "ruling id (`a_b`)"),
    (RuleNumber, "rule number"),
    (StepNumber, "step number"),
    (StateId, "table-state id"),
    (SetRef, "`sets.<name>`"),
    (SetMembers, "`sets.<name>` (its members; readers see the vocabulary's words)"),
    (Labelled, "ids → words, or `sets.<name>`"),
    (IdList, "list of ids, or `sets.<name>`"),
)


def _unwrap(tp: Any) -> Any:
    while typing.get_origin(tp) is typing.Annotated:
        tp = typing.get_args(tp)[0]
    return tp


def _models(tp: Any) -> Iterator[type[BaseModel]]:
    """The model classes inside a type (lists, unions, Annotated)."""
    tp = _unwrap(tp)
    if tp is BaseModel:  # a score's component (see type_text): one of the operations
        yield from operations()
        return
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        yield tp
        return
    for arg in typing.get_args(tp):
        yield from _models(arg)


def operations() -> list[type[BaseModel]]:
    """The score operations, as the registry lists them: built-in ones first."""
    return sorted(component_models(), key=lambda m: _op_name(m) is None)


def _op_name(model: type[BaseModel]) -> str | None:
    """The ``op`` a built-in operation is written with (None: a plugin's)."""
    tp = _unwrap(model.model_fields["op"].annotation)
    if typing.get_origin(tp) is Literal:
        return str(typing.get_args(tp)[0])
    return None


def type_text(tp: Any, metadata: list[Any] | None = None) -> str:
    """A field's type as the reference writes it."""
    if metadata and any(m is COMPONENT for m in metadata):
        return type_text(component_union())
    for alias, text in _ALIASES:
        if tp == alias or (
            metadata and tp == typing.get_args(alias)[0] and metadata == _metadata(alias)
        ):
            return text
    tp = _unwrap(tp)
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin is Literal:
        return " or ".join(f"`{a}`" for a in args)
    if origin in (typing.Union, types.UnionType):
        shown = [type_text(a) for a in args if a is not type(None)]
        return " or ".join(shown)
    if origin is list:
        return f"list of {type_text(args[0])}"
    if origin is dict:
        return f"{type_text(args[0])} → {type_text(args[1])}"
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return f"{{ref}}`{tp.__name__} <{_anchor(tp)}>`"
    return {int: "integer", float: "number", str: "text", bool: "`true` or `false`"}.get(
        tp, str(tp)
    )


def _metadata(alias: Any) -> list[Any]:
    return list(FieldInfo.from_annotation(alias).metadata)


def _anchor(model: type[BaseModel]) -> str:
    if model is Step:
        return "ref-steps"
    return "ref-" + re.sub(r"(?<!^)(?=[A-Z])", "-", model.__name__).lower()


def _md(text: str) -> str:
    """A docstring's reST literals (``x``) and roles (:mod:`x`) as Markdown's code (`x`)."""
    return re.sub(r":(?:func|data|mod|class|attr|meth):`~?([^`]+)`", r"`\1`", text).replace(
        "``", "`"
    )


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _doc(model: type[BaseModel]) -> str:
    # the class's own docstring only: an inherited one describes the base class
    doc = model.__dict__.get("__doc__") or ""
    return _md(inspect.cleandoc(doc))


def _default(info: FieldInfo) -> str:
    if info.is_required():
        return "required"
    value = info.get_default(call_default_factory=True)
    if value in (None, [], {}):
        return "optional"
    if isinstance(value, str):
        return f"`{value}`" if value else "`''`"
    return f"`{value!r}`".replace("True", "true").replace("False", "false")


def field_table(model: type[BaseModel]) -> list[str]:
    """A model's fields: name, type, required or default, description."""
    describe_fields()  # the fields' docstrings, read when first shown
    rows = ["| field | type | default | what it is |", "| --- | --- | --- | --- |"]
    for name, info in model.model_fields.items():
        rows.append(
            f"| `{name}` | {_cell(type_text(info.annotation, info.metadata))} "
            f"| {_cell(_default(info))} | {_cell((info.description or '').replace('``', '`'))} |"
        )
    return rows


def nested(models: list[type[BaseModel]]) -> list[type[BaseModel]]:
    """The models the fields of ``models`` use, in order of first use, ``models`` excluded."""
    seen: list[type[BaseModel]] = []
    todo = list(models)
    while todo:
        model = todo.pop(0)
        for info in model.model_fields.values():
            for inner in _models(info.annotation):
                if inner not in seen and inner not in models and inner is not Step:
                    if inner in operations():
                        continue
                    seen.append(inner)
                    todo.append(inner)
    return seen


def _example(loaded: LoadedSpec, example: Example) -> list[str]:
    """An example as the page shows it: the steps, a state, the scorer's report."""
    from rulepress.render.score_text import render_text  # noqa: PLC0415  (the writer)
    from rulepress.scoring.examples import find_example, run_example  # noqa: PLC0415

    index, _ = find_example(loaded, example_id(example))
    report = render_text(run_example(loaded, index), loaded.spec)
    # the report's heading names the reference game, not the example: dropped
    body = report.split("\n\n", 1)[1] if "\n\n" in report else report
    return [
        f"Example: {example.title}",
        "",
        "```yaml",
        "steps:",
        example.steps.rstrip(),
        "```",
        "",
        "A table state:",
        "",
        "```yaml",
        example.state.rstrip(),
        "```",
        "",
        "What `rulepress score` reports for it:",
        "",
        "```text",
        body.rstrip(),
        "```",
        "",
        "What the example states (the reference's tests check the scorer agrees):",
        "",
        "```yaml",
        example.expect.rstrip(),
        "```",
        "",
    ]


def _examples_by_name() -> dict[str, Example]:
    return {e.name: e for e in all_examples()}


def _naming() -> list[str]:
    return [
        "(ref-naming)=",
        "## Naming",
        "",
        "Every id is lower case. Two spellings exist, each for a reason:",
        "",
        "| what | spelling | why |",
        "| --- | --- | --- |",
        "| rules' targets, sequences, terms, tables, examples, state formats, criteria"
        " | words joined by `-` (`common-supply`) | they are cited, never read as names |",
        "| parameters, fields, scores, tallies, `let` names, the names a field binds"
        " (`item`, `kind` …) | words joined by `_` (`agenda_points`) | expressions read them"
        " as names |",
        "| rulings and their options | words joined by `_` (`foreign_bonus`, `foreign_cubes`)"
        " | expressions read them (`ruling.foreign_bonus == 'foreign_cubes'`), and the same"
        " spelling is the `--variant` name and the key of the JSON result's `variants` |",
        "",
        "`rulepress validate` refuses another spelling at its line and writes the id the"
        " right way; it also refuses an expression that compares `ruling.<id>` with a text"
        " that is none of that ruling's options, which would never be true. A ruling's"
        " permalink on the site is `ruling-` and its id with `-` (`#ruling-foreign-bonus`).",
        "",
    ]


def _steps_part(loaded: LoadedSpec) -> list[str]:
    out = [
        "(ref-steps)=",
        "## Steps",
        "",
        _doc(Step) or "A step of a sequence.",
        "",
        *field_table(Step),
        "",
        "A step does what its " + ", ".join(f"`{k}`" for k in STEP_KINDS) + " say, in that"
        " order: it changes the players' fields, settles a vote, adds a score line for every"
        " player, and decides who wins.",
        "",
    ]
    examples = _examples_by_name()
    for kind in STEP_KINDS:
        model = next(iter(_models(Step.model_fields[kind].annotation)))
        out += [f"({_anchor(model)})=", f"### `{kind}`", "", _doc(model), ""]
        out += [*field_table(model), ""]
        if kind == "score":
            out += [
                "`component` is one of the {ref}`score operations <ref-operations>`.",
                "",
            ]
        elif kind in examples:
            out += _example(loaded, examples[kind])
    return out


def _operations_part(loaded: LoadedSpec) -> list[str]:
    out = [
        "(ref-operations)=",
        "## Score operations",
        "",
        "A score's `component` is one of these, chosen by its `op`.",
        "",
    ]
    examples = _examples_by_name()
    for model in operations():
        op = _op_name(model)
        title = f"`{op}`" if op else "Operations from plugins"
        out += [f"({_anchor(model)})=", f"### {title}", "", _doc(model), ""]
        out += [*field_table(model), ""]
        if op in examples:
            out += _example(loaded, examples[op])
        elif op is None:
            out += _plugins()
    return out


def _plugins() -> list[str]:
    """How a plugin provides an operation: the plugin module's own account of it."""
    from rulepress.model import operations as plugins  # noqa: PLC0415  (read for its docstring)

    paragraphs = inspect.cleandoc(plugins.__doc__ or "").split("\n\n")[1:]
    out: list[str] = []
    for para in paragraphs:
        if para.startswith("    "):
            out += ["```toml", textwrap.dedent(para), "```", ""]
        elif para.endswith("::"):
            out += [_md(para[:-1]), ""]
        else:
            out += [_md(para), ""]
    return out


def _types_part() -> list[str]:
    out = ["(ref-types)=", "## The records these fields hold", ""]
    kinds = [next(iter(_models(Step.model_fields[k].annotation))) for k in STEP_KINDS]
    for model in nested([Step, *kinds, *operations()]):
        out += [f"({_anchor(model)})=", f"### `{model.__name__}`", ""]
        if model.__doc__:
            out += [_doc(model), ""]
        out += [*field_table(model), ""]
    return out


def _refusal(loaded: LoadedSpec, example: Example) -> list[str]:
    """What the state check reports for an example's refused state: ``where: what`` lines."""
    from rulepress.states import validate_state  # noqa: PLC0415  (only for this part)

    spec = loaded.spec
    fmt = spec.table_states[example_id(example)]
    data = yaml.safe_load(example.refused)
    _, problems = validate_state(fmt, spec.parameters, data, SourceMap(), sets=spec.sets)
    return [f"{p.where}: {p.message}" for p in problems]


#: a record whose fields are a named set's members, as the reference shows it
KEYED_RECORD = """\
sets:
  colours: [red, blue, green]
vocabulary: {red: Red, blue: Blue, green: Green}
field_types:
  cube_count: {type: int, min: 0, max: 30, default: 0, description: A number of cubes.}
table_states:
  table:
    players:
      fields:
        influence:
          type: record
          default: {}
          description: Influence cubes by colour.
          keys: sets.colours
          item: {use: cube_count, description: Cubes of that colour.}
"""


#: a format that weighs its player counts, as the reference shows it
DRAWN_PLAYERS = """\
table_states:
  table:
    players:
      min: 2
      max: 5
      # the box says 2-5 players, and is played with 3 or 4 most often
      draw: {weights: {'2': 1, '3': 3, '4': 3, '5': 1}}
"""
#: a field's typical range, as the fields part shows it
TYPICAL_FIELD = """\
council_prestige:
  type: int
  min: 0
  max: 4800
  description: Prestige the player gained from council scoring during the game.
  # what the board can give: 3 rounds x 19 power x 20 prestige per power; the share
  # is a judgement (SCORING cards' hidden power, beyond it, is taken to be rare)
  draw: {typical: [0, 1140], share: 0.9}
"""


def _fields_part() -> list[str]:
    return [
        f"({_anchor(FieldSpec)})=",
        "## Fields of a table state",
        "",
        "A state format (`table_states`) gives the fields of each player (`players`) and"
        " of the table (`table`); `field_types` gives named field types that fields reuse"
        " with `use`. Every field is one of these:",
        "",
        _doc(FieldSpec),
        "",
        *field_table(FieldSpec),
        "",
        "Example: influence by colour, a field per member of `sets.colours`, each a"
        " `cube_count`. A state gives `influence: {red: 2, green: 1}` (`blue` is 0, the"
        " item's default); a field that is not a colour is refused as unknown; and a"
        " worked example's state shows each field with the vocabulary's word (*Red*).",
        "",
        "```yaml",
        KEYED_RECORD.rstrip(),
        "```",
        "",
        f"({_anchor(Draw)})=",
        "### Weights and typical ranges of drawn tables: `draw`",
        "",
        "`rulepress impact` and the rulings' pages draw table states from the format:"
        " draws are uniform where the spec says nothing. A field (or `players`, for the"
        " number of players) weighs its values with `draw`:",
        "",
        _doc(Draw),
        "",
        *field_table(Draw),
        "",
        "```yaml",
        DRAWN_PLAYERS.rstrip(),
        "```",
        "",
        "A wide integer takes a typical range instead: values from it nine times in ten,"
        " the rest uniformly from the field's other values.",
        "",
        "```yaml",
        TYPICAL_FIELD.rstrip(),
        "```",
        "",
    ]


def _editions_part() -> list[str]:
    """The edition fields of `game`: the changelog's lines and the previous edition."""
    return [
        f"({_anchor(PreviousEdition)})=",
        "## Editions: `game.changelog` and `game.previous_edition`",
        "",
        "`game.version` and `game.date` name this edition; `game.changelog` says what each"
        " edition changed, a line each:",
        "",
        _doc(Change),
        "",
        *field_table(Change),
        "",
        "`game.previous_edition` names the edition this one follows, which every build"
        " compares it with (the page 'Changes in this edition' and the errata sheet;"
        " `--since` names another for one build):",
        "",
        _doc(PreviousEdition),
        "",
        *field_table(PreviousEdition),
        "",
        "```yaml",
        "game:",
        '  version: "2"',
        "  previous_edition: {revision: v1}",
        "```",
        "",
    ]


def _constraints_part(loaded: LoadedSpec) -> list[str]:
    out = [
        f"({_anchor(Constraint)})=",
        "## Checks on a table state",
        "",
        "A state format's `players` and `table` may each list `constraints`: rules across"
        " fields that a table state must keep. A state that breaks one is refused, by"
        " `rulepress validate` in a worked example and by `rulepress score`, with every"
        " problem at once, each at its place in the state's file.",
        "",
        _doc(Constraint),
        "",
        *field_table(Constraint),
        "",
    ]
    for example in all_examples():
        if not example.refused:
            continue
        out += [
            f"Example: the checks on each player of the `{example.name}` example.",
            "",
            "```yaml",
            "constraints:",
            example.constraints.rstrip(),
            "```",
            "",
            "A table state they refuse:",
            "",
            "```yaml",
            example.refused.rstrip(),
            "```",
            "",
            "What rulepress reports for it (each line starts with the file, line and column"
            " of its place when the state is read from a file):",
            "",
            "```text",
            *_refusal(loaded, example),
            "```",
            "",
        ]
    return out


def _names(names: set[str]) -> str:
    return ", ".join(f"`{n}`" for n in sorted(names))


def _spec_side(place: Place) -> str:
    parts = [SPEC_KINDS[k].split(" (")[0] for k in sorted(place.kinds) if k in _PER_PLACE]
    parts += [f"the name {b} binds" for b in sorted(place.binders)]
    return "; ".join(parts)


#: the kinds of the spec's names the table shows place by place (earlier scores and
#: tallies are in scope in every later step, said once above the table)
_PER_PLACE = ("fields", "table_fields", "lets", "choices")


def _scopes_part(places: list[Place]) -> list[str]:
    # the names most places share are said once; each row says what differs
    counts: dict[frozenset[str], int] = {}
    for place in places:
        counts[frozenset(place.fixed)] = counts.get(frozenset(place.fixed), 0) + 1
    ranked = sorted(counts.items(), key=lambda kv: (kv[1], len(kv[0])), reverse=True)
    common: set[str] = set(ranked[0][0]) if ranked else set()
    rows: list[tuple[str, list[str], str]] = []  # (group, fields, names)
    for place in places:
        group, _, field = place.where.rpartition(" · ")
        if not group:
            group, _, field = place.where.rpartition(".")
        more, fewer = place.fixed - common, common - place.fixed
        if place.fixed and not (common & place.fixed):
            names = _names(place.fixed)
        else:
            names = "the step's names" + (f", and {_names(more)}" if more else "")
            names += f", without {_names(fewer)}" if fewer else ""
        spec_side = _spec_side(place)
        names += f"; {spec_side}" if spec_side else ""
        if rows and rows[-1][0] == group and rows[-1][2] == names:
            rows[-1][1].append(field)
        else:
            rows.append((group, [field], names))
    out = [
        "(ref-names)=",
        "## Names in expressions",
        "",
        "What an expression can read depends on where it is. The table below is what the"
        " spec check allows in each place; it refuses any other name, at its line. These"
        " names are rulepress's own:",
        "",
        "| name | what it is |",
        "| --- | --- |",
        *(f"| `{name}` | {_cell(text)} |" for name, text in scope_names().items()),
        "",
        "The others are the spec's: "
        + "; ".join(text for key, text in SPEC_KINDS.items() if key != "bound")
        + "; and the names that fields such as `item` and `kind` bind. Every step also"
        " reads the points of each earlier score of its sequence and the outcome of each"
        " earlier tally, by id.",
        "",
        f"*The step's names*, below, are {_names(common)}.",
        "",
        "| where | fields | names in scope |",
        "| --- | --- | --- |",
    ]
    for group, fields, names in rows:
        out.append(
            f"| {_cell(group)} | {_cell(', '.join(f'`{f}`' for f in fields))} | {_cell(names)} |"
        )
    out.append("")
    return out


def _functions_part() -> list[str]:
    out = [
        "(ref-functions)=",
        "## Functions",
        "",
        "An expression calls only these; a function can never be stored or passed.",
        "",
        "| function | arguments | what it gives |",
        "| --- | --- | --- |",
    ]
    docs = {name: _md(text) for name, text in described().items()}
    out += _function_rows(ARITY, docs)
    out += [
        "",
        "The scorer also gives these, where a scope names them (see above):",
        "",
        "| function | arguments | what it gives |",
        "| --- | --- | --- |",
    ]
    out += _function_rows(
        CONTEXT_ARITY, {name: scope_names().get(name, "") for name in CONTEXT_ARITY}
    )
    out.append("")
    return out


def _function_rows(arity: dict[str, tuple[int, int | None]], docs: dict[str, str]) -> list[str]:
    """A table row per function of ``docs``: its name, how many arguments, what it gives."""
    rows = []
    for name in sorted(docs):
        least, most = arity[name]
        args = (
            str(least)
            if least == most
            else f"{least} or more"
            if most is None
            else f"{least} to {most}"
        )
        rows.append(f"| `{name}` | {args} | {_cell(docs[name])} |")
    return rows


def limits() -> list[tuple[str, str, str]]:
    """The expression language's bounds: name, value, what each bounds (its ``#:`` comment)."""
    source = inspect.getsource(bounds)
    found = re.findall(r"^#: (.*)\n(MAX_[A-Z_]+)(?:: Final)? = ", source, flags=re.MULTILINE)
    return [(name, f"{getattr(bounds, name):,}", text) for text, name in found]


def _limits_part() -> list[str]:
    return [
        "(ref-limits)=",
        "## Limits",
        "",
        "Expressions are evaluated by rulepress's own interpreter, within these bounds; past"
        " one, scoring stops with an error naming the expression and the bound, and an"
        " expression that breaks one as written is refused by `rulepress validate`.",
        "",
        "| bound | value | what it bounds |",
        "| --- | --- | --- |",
        *(f"| `{name}` | {value} | {_cell(text)} |" for name, value, text in limits()),
        "",
        "The language: integers, texts, `True`, `False`, `None`, lists and tuples;"
        " `+ - * // %`; comparisons, `in`, `is None`; `and`, `or`, `not`; `x if c else y`;"
        " fixed indexes `x[0]`; `record.field`; generator expressions and list"
        " comprehensions. Nothing else of Python exists in it.",
        "",
    ]


def set_places() -> list[str]:
    """Where a spec may write ``sets.<name>`` for a list: ``Model.field``, from the types."""
    from rulepress.model import spec_model  # noqa: PLC0415

    found: list[str] = []
    # the spec model's own, and the operations' (their modules are registered, not here)
    own = [v for v in vars(spec_model).values() if isinstance(v, type) and issubclass(v, BaseModel)]
    for value in dict.fromkeys([*own, *operations(), *nested(operations())]):
        for fname, info in value.model_fields.items():
            wrapped = [
                m
                for m in info.metadata
                if getattr(m, "func", None) in (sets.set_list, sets.set_labels)
            ]
            if wrapped:
                found.append(f"{value.__name__}.{fname}")
    return sorted(found)


def _sets_part() -> list[str]:
    # the module's docstring explains the feature: its prose up to the example
    # (the paragraph that ends with '::') and the example, as written there
    paragraphs = inspect.cleandoc(sets.__doc__ or "").split("\n\n")
    shown: list[str] = []
    for i, para in enumerate(paragraphs[1:], start=1):
        if para.endswith("::") and i + 1 < len(paragraphs):
            code = textwrap.dedent(paragraphs[i + 1])
            shown += [_md(para[:-1]), "", "```yaml", code, "```"]
            shown += ["", *(_md(p) for p in paragraphs[i + 2 : i + 3])]
            break
        shown += [_md(para), ""]
    return [
        "(ref-sets)=",
        "## Named sets",
        "",
        *shown,
        "",
        "`sets.<name>` may stand for a list in these fields: "
        + ", ".join(f"`{p}`" for p in set_places())
        + "; and in any expression, `sets.<name>` is the set's list of ids"
        " (`for c in sets.colours`).",
        "",
    ]


def _values_part() -> list[str]:
    ops = operations()
    rows = []
    for item in fixed_values():
        where = f"`{item.where}`"
        if item.model in ops and (op := _op_name(item.model)) is not None and item.field != "op":
            where += f" (`op: {op}`)"
        values = ", ".join(f"`{v}`" for v in item.values)
        rows.append(f"| {_cell(where)} | {_cell(values)} | {_cell(item.besides)} |")
    return [
        "(ref-values)=",
        "## Fixed values",
        "",
        "Where a spec file or a worked example takes one of a fixed set of values, these are"
        " the values rulepress accepts there; it refuses any other. The list is read from the"
        " spec model's types and from the sets the spec check and the scorer compare with, so"
        " it is the one of the version you run. `[]` stands for any item of a list,"
        " `<name>` for any key of a mapping.",
        "",
        "| where | values | besides |",
        "| --- | --- | --- |",
        *rows,
        "",
    ]


#: MyST's own syntax in the page, and its plain Markdown (as GitHub shows it)
_MYST_TARGET = re.compile(r"^\(([a-z0-9-]+)\)=$", flags=re.MULTILINE)
_MYST_REF = re.compile(r"\{ref\}`([^`<]+?) <([a-z0-9-]+)>`")
_MYST_DOC = re.compile(r"\{doc\}`([^`]+)`")


def as_markdown(page: str) -> str:
    """The page with its MyST targets and roles as plain Markdown (anchors and links).

    The page's text is rulepress's own, and these three forms are the only MyST
    it writes (the tests check none is left), so a rewrite of them is enough.
    """
    page = _MYST_TARGET.sub(r'<a id="\1"></a>', page)
    page = _MYST_REF.sub(r"[\1](#\2)", page)
    return _MYST_DOC.sub(lambda m: f"[{m[1].split('/')[-1]}.md]({m[1]}.md)", page)


def author_reference(*, markdown: bool = False) -> str:
    """The whole page, as MyST for the site, or as plain Markdown for the repository.

    Either is read from ``guide/reference/`` (the site) or ``docs/reference/``
    (the repository), so the guides are one folder up.
    """
    with reference_game() as game:
        loaded = load_spec(game)
        places = scopes(loaded)
        parts = [
            "# Spec reference",
            "",
            "Generated from rulepress's own code: the spec model, the spec check, the scorer"
            " and the expression language. Every example below is a small game that"
            " rulepress loads and scores when this page is made, and the tests check that"
            " each result is the one its example states. The guide that explains how to"
            " write a spec is {doc}`../spec-authors`.",
            "",
            *_naming(),
            *_steps_part(loaded),
            *_operations_part(loaded),
            *_types_part(),
            *_fields_part(),
            *_editions_part(),
            *_constraints_part(loaded),
            *_scopes_part(places),
            *_functions_part(),
            *_limits_part(),
            *_sets_part(),
            *_values_part(),
        ]
    page = "\n".join(parts)
    return as_markdown(page) if markdown else page
