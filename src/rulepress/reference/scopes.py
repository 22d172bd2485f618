"""The names in scope wherever an expression can appear, as the spec check decides them.

Nothing here lists scopes by hand. The spec check
(:func:`rulepress.checks.checker.check_spec`) builds the names each expression
may read, place by place; :func:`scopes` runs it over the reference game
(:mod:`rulepress.reference.examples`, which writes every expression field of
every step kind and operation at least once) and records them. A name in a
scope is then either the spec's own (a player's field, an earlier score, a
``let``, a name a field such as ``item`` binds: :func:`_spec_names` finds
which, from the game) or one rulepress always gives, described in
:data:`NAMES`. A name the check starts to give that :data:`NAMES` does not
describe (nor an operation, see :func:`names`) is shown as undocumented, and the reference's tests fail on it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from pydantic import BaseModel
from pydantic.fields import FieldInfo

from rulepress.checks.checker import check_spec
from rulepress.model import operations
from rulepress.model.loaded import LoadedSpec
from rulepress.model.spec_model import Constraint, Name, Sequence, all_steps
from rulepress.yamlsrc import DataPath

#: what each name rulepress itself puts in scope means (besides those the operations
#: describe: see :func:`names`)
NAMES: dict[str, str] = {
    "param": "the spec's parameters: `param.<name>` is a parameter's value",
    "ruling": (
        "the option each ruling is decided by: `ruling.<ruling id>` is an option id"
        " (`ruling.final_tie == 'shared_victory'`), the default or a `--variant`"
    ),
    "sets": "the spec's named sets: `sets.<name>` is the list of ids it declares",
    "n_players": "how many players the table state has",
    "table": "the table's record: the fields of the state format's `table`",
    "players": "every player's record, in the order the table state lists them",
    "player": "`player(id)`: the record of the player with that id",
    "lookup": "`lookup(table, key)`: the value a table of the spec gives for a key (an"
    " integer, or a member of the set the table is keyed by)",
    "label": "`label(id)`: the word the spec's vocabulary has for an id, in the reader's language",
    "chosen": "what earlier scores decided: `chosen.<score id>` holds {held}",
    "total": "the player's points so far: the sum of the scores of earlier steps",
    "index": "the place of the current line or item in its list, counting from 1",
    "places": (
        "how many places win (only in a winners step's choices: a criterion's `when`,"
        " `final_tie` and `places_among`)"
    ),
    "winners": (
        "the candidates that won the tally (only in `route`: where a ballot goes may"
        " depend on who won)"
    ),
}

#: how the reference describes each kind of name a spec gives itself
SPEC_KINDS: dict[str, str] = {
    "fields": "the player's fields (`id` and those of the state format)",
    "table_fields": "the table's fields (those of the state format's `table`)",
    "scores": "the points of earlier scores, by score id",
    "tallies": "earlier tallies' outcomes, by tally id (`<id>.winners`, `.ranking`, `.totals`)",
    "lets": "the `let` names of the score or check (each `let` sees the ones before it)",
    "choices": "the names of the component's `choices` (the option being tried)",
    "bound": "the name its field binds",
}


@dataclass
class Place:
    """Where an expression can appear, and the names in scope there."""

    #: a readable path: ``score · lines · conditions[].test``
    where: str
    #: names rulepress itself gives (see :func:`names`)
    fixed: set[str] = field(default_factory=set)
    #: kinds of names the spec gives (keys of :data:`SPEC_KINDS`)
    kinds: set[str] = field(default_factory=set)
    #: fields that bind a name here: ``item`` (default ``line``)
    binders: set[str] = field(default_factory=set)


def _pattern(path: DataPath, start: int) -> str:
    out: list[str] = []
    previous: Any = None
    for part in path[start:]:
        if isinstance(part, int):
            out[-1] += "[]"
        elif previous in ("args", "let"):
            out[-1] += ".<name>"
        else:
            out.append(str(part))
        previous = part
    return ".".join(out)


def _walk(root: Any, path: DataPath) -> list[Any]:
    """The objects along ``path`` from ``root`` (models, lists, mappings)."""
    seen = [root]
    node = root
    for part in path:
        if isinstance(node, BaseModel):
            node = getattr(node, str(part), None)
        elif isinstance(node, list | tuple) and isinstance(part, int):
            node = node[part]
        elif isinstance(node, dict):
            node = node.get(part)
        else:
            break
        seen.append(node)
    return seen


#: how pydantic holds the checks of a field typed :data:`Name`
_NAME_METADATA = list(FieldInfo.from_annotation(Name).metadata)


def _binders(objects: Iterable[Any]) -> dict[str, str]:
    """Name → ``field`` (default ``x``) for each field of type Name along the path."""
    out: dict[str, str] = {}
    for obj in objects:
        if not isinstance(obj, BaseModel):
            continue
        for fname, info in type(obj).model_fields.items():
            if info.metadata == _NAME_METADATA and fname not in ("id", "name"):
                out[getattr(obj, fname)] = f"`{fname}` (default `{info.default}`)"
            if fname == "choices" and isinstance(getattr(obj, fname), list):
                for choice in getattr(obj, fname):
                    if isinstance(choice, BaseModel) and hasattr(choice, "name"):
                        out.setdefault(choice.name, "choices")
    return out


def _spec_names(spec: Any, seq: Sequence | None) -> dict[str, str]:
    """The names the game itself gives, each with its kind (see :data:`SPEC_KINDS`)."""
    out: dict[str, str] = {}
    if seq is None:
        return out
    fmt = spec.table_states[seq.state]
    out.update(dict.fromkeys(fmt.table.fields, "table_fields"))
    for step in all_steps(seq.steps):
        if step.tally is not None:
            out[step.tally.id] = "tallies"
        if step.score is not None:
            out[step.score.id] = "scores"
            out.update(dict.fromkeys(step.score.let, "lets"))
    out.update(dict.fromkeys(fmt.players.fields, "fields"))
    out["id"] = "fields"
    return out


def _place(loaded: LoadedSpec, path: DataPath) -> tuple[str, Sequence | None, list[Any]]:
    spec = loaded.spec
    if path[0] == "sequences":
        seq = spec.sequences[int(path[1])]
        start = 2
        while start + 1 < len(path) and path[start] == "steps":
            start += 2
        objects = _walk(spec, path)
        step_path = _pattern(path, start)
        if path[start : start + 2] == ("score", "component"):
            op = getattr(objects[start + 2], "op", "?")
            rest = _pattern(path, start + 2)
            return f"score · `{op}` · {rest}", seq, objects
        return step_path, seq, objects
    if path[0] == "table_states":
        user = next((s for s in spec.sequences if s.state == path[1]), None)
        # the objects along the path: a constraint's `item` binds a name, its `let` gives some
        return "state format · " + _pattern(path, 2), user, _walk(spec, path)
    return _pattern(path, 0), None, []


def scopes(loaded: LoadedSpec) -> list[Place]:
    """Every place an expression of ``loaded`` appears, with the names in scope there."""
    recorded: list[tuple[DataPath, frozenset[str]]] = []
    check_spec(loaded, on_expression=lambda path, names: recorded.append((path, names)))
    places: dict[str, Place] = {}
    for path, names in recorded:
        where, seq, objects = _place(loaded, path)
        place = places.setdefault(where, Place(where))
        own = _spec_names(loaded.spec, seq)
        for obj in objects:  # a constraint's own let names (a score's are in _spec_names)
            if isinstance(obj, Constraint):
                own.update(dict.fromkeys(obj.let, "lets"))
        binders = _binders(objects)
        for name in names:
            if name in binders and binders[name] == "choices":
                place.kinds.add("choices")
            elif name in binders:
                place.binders.add(binders[name])
            elif name in own and not (own[name] == "table_fields" and path[0] != "table_states"):
                kind = own[name]
                # the table's fields are read as table.<name> except in the table's constraints
                place.kinds.add(kind)
            elif name == "id" or (path[0] == "table_states" and name in own):
                place.kinds.add(own.get(name, "fields"))
            else:
                place.fixed.add(name)
    return list(places.values())


@cache
def names() -> dict[str, str]:
    """What each name rulepress puts in scope means: :data:`NAMES`, with the operations' own.

    An operation may describe the names it binds (``names``: name → what it
    is) and what a score of it leaves in ``chosen`` (``chosen``: a phrase);
    they follow the names of the same part of :data:`NAMES` (the tally's
    ``winners`` stays last).
    """
    found = operations.installed().values()
    held = [text for op in found if (text := getattr(op, "chosen", None))]
    out = {
        name: text.format(held=" and ".join(held)) if name == "chosen" else text
        for name, text in NAMES.items()
        if name != "winners"
    }
    for operation in found:
        out.update(getattr(operation, "names", {}))
    out["winners"] = NAMES["winners"]
    return out


def undocumented(places: Iterable[Place]) -> set[str]:
    """Names rulepress puts in some scope that :func:`names` does not describe."""
    return {name for place in places for name in place.fixed} - set(names())
