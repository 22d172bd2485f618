"""Reader text inside the table states of worked examples.

Most of a table state is data: numbers, choices, player ids. A few text
fields hold words that readers see, such as the wording of a Stationfall
Agenda line, which the score breakdown quotes. A state format marks those
fields ``translate: true``. In a worked example their values are the spec
author's words, so they are messages of the game domain like the example's
own text, and a report of the example in Czech quotes the Czech wording.
Table states that players write are never translated: their words are
their own.

The walk works on plain data, a whole spec or the files of one game
merged (what the extractor reads), so that extraction, the catalogs and
the translated spec agree. Which fields are translated it learns as the
loader does: each field read by the spec model (:class:`FieldSpec`) and
resolved by :class:`~rulepress.states.fields.Resolver` (``use``,
records keyed by a set), never by a reading of its own. Its contexts use
player ids and list positions:
``examples/<example id>/state/players/<player id>/agenda/0/text``.
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

from pydantic import ValidationError

from rulepress.model.sets import resolving
from rulepress.model.spec_model import FieldSpec, StateFormat
from rulepress.states.fields import Resolver
from rulepress.yamlsrc import DataPath

#: where translated values lie under a field: True (the value itself), a record's
#: fields by name, or ("item", shape) for every item of a list
Shape = bool | dict[str, Any] | tuple[str, Any]


#: shapes found, by the identity of their field; the field is kept beside its shape, so
#: that no field the memo names is freed and its identity given to another one
Memo = dict[int, tuple[FieldSpec, "Shape | None"]]


def _shape(field: FieldSpec, memo: Memo) -> Shape | None:
    """Where a resolved field holds translated values, or None when it holds none.

    ``memo``: the shapes found, by the field's identity. A named field type is
    resolved once and shared by its uses, so the fields form a graph that,
    walked as a tree, can be exponentially larger than the spec. (Keyed by
    identity alone, a memo once gave a table's field the shape of a freed
    player's field that had had the same id: the table's text went untranslated.)
    """
    key = id(field)
    if key in memo:
        return memo[key][1]
    found: Shape | None = None
    if field.translate:
        found = field.type == "text" or None
    elif field.type == "record":
        found = _record_shape(field.fields, memo)
    elif field.type == "list" and field.item is not None:
        item = _shape(field.item, memo)
        found = None if item is None else ("item", item)
    memo[key] = (field, found)
    return found


def _record_shape(fields: Mapping[str, FieldSpec], memo: Memo) -> dict[str, Any] | None:
    shapes = {name: _shape(f, memo) for name, f in fields.items()}
    return {name: s for name, s in shapes.items() if s is not None} or None


def _fields(raw: Any) -> dict[str, FieldSpec]:
    """Plain field definitions as the spec model reads them; one it refuses holds no texts."""
    out: dict[str, FieldSpec] = {}
    for name, field in raw.items() if isinstance(raw, Mapping) else ():
        try:
            out[name] = FieldSpec.model_validate(field)
        except ValidationError:
            continue  # the loader reports it
    return out


def _shapes(fmt: Any, shared: Mapping[str, FieldSpec]) -> tuple[Shape | None, Shape | None]:
    """The shapes of a plain format's players and table, its fields resolved as the loader does."""
    found: list[Shape | None] = []
    resolver = Resolver(shared)
    memo: Memo = {}
    for section in ("players", "table"):
        part = fmt.get(section)
        fields = _fields(part.get("fields") if isinstance(part, Mapping) else None)
        found.append(_record_shape({n: resolver.field(f) for n, f in fields.items()}, memo))
    return found[0], found[1]


def _format_of(data: Mapping[str, Any], example: Mapping[str, Any]) -> str | None:
    """The id of the state format an example's state is written in (None if it cannot be told)."""
    wanted = example.get("sequence")
    if not isinstance(wanted, str):
        scorer = data.get("scorer")
        wanted = scorer.get("sequence") if isinstance(scorer, Mapping) else None
    sequences = data.get("sequences")
    # a section left empty or of another shape names no format (the loader reports it)
    for seq in sequences if isinstance(sequences, list) else ():
        if isinstance(seq, Mapping) and seq.get("id") == wanted:
            state = seq.get("state")
            return state if isinstance(state, str) else None
    return None


def _walk(
    value: Any, shape: Shape, ctx: tuple[str, ...], path: DataPath
) -> Iterator[tuple[str, DataPath, str]]:
    if shape is True:
        if isinstance(value, str) and value.strip():
            yield "/".join(ctx), path, value
    elif isinstance(shape, dict) and isinstance(value, Mapping):
        for name, inner in shape.items():
            if name in value:
                yield from _walk(value[name], inner, (*ctx, name), (*path, name))
    elif isinstance(shape, tuple) and isinstance(value, list):
        for i, item in enumerate(value):
            yield from _walk(item, shape[1], (*ctx, str(i)), (*path, i))


def example_texts(data: Mapping[str, Any]) -> Iterator[tuple[str, DataPath, str]]:
    """(context, data path, text) of every translated value in the examples' states.

    ``data``: plain spec data holding ``examples`` and, to tell which fields
    are translated, ``sequences``, ``scorer``, ``table_states``,
    ``field_types`` and the ``sets`` and ``vocabulary`` they may name (an
    example whose format cannot be found has none).
    """
    examples = data.get("examples")
    formats = data.get("table_states")
    if not isinstance(examples, list) or not isinstance(formats, Mapping):
        return
    with resolving(data):  # a field's choices or keys may be sets.<name>
        shared = _fields(data.get("field_types"))
        shapes = {k: _shapes(f, shared) for k, f in formats.items() if isinstance(f, Mapping)}
    for index, example in enumerate(examples):
        if not isinstance(example, Mapping) or not isinstance(example.get("id"), str):
            continue
        players, table = shapes.get(_format_of(data, example) or "", (None, None))
        state = example.get("state")
        if not isinstance(state, Mapping):
            continue
        here: DataPath = ("examples", index, "state")
        yield from _state_texts(state, players, table, example["id"], here)


def _state_texts(
    state: Mapping[str, Any],
    players: Shape | None,
    table: Shape | None,
    example: str,
    here: DataPath,
) -> Iterator[tuple[str, DataPath, str]]:
    """(context, data path, text) of every translated value of one example's state."""
    base: tuple[str, ...] = ("examples", example, "state")
    if players is not None and isinstance(state.get("players"), list):
        for i, player in enumerate(state["players"]):
            pid = player.get("id") if isinstance(player, Mapping) else None
            segment = pid if isinstance(pid, str) else str(i)
            yield from _walk(player, players, (*base, "players", segment), (*here, "players", i))
    if table is not None and "table" in state:
        yield from _walk(state["table"], table, (*base, "table"), (*here, "table"))


def translated_state(
    state: dict[str, Any],
    fmt: StateFormat,
    example: str,
    lookup: Callable[[str, str], str | None],
) -> dict[str, Any]:
    """A worked example's ``state`` with each translated value replaced by ``lookup``.

    ``fmt``: the state's format in a validated spec, its fields resolved. The
    same texts as :func:`example_texts` finds in the spec's data; a copy when
    any is replaced, else ``state`` itself.
    """
    memo: Memo = {}
    players = _record_shape(fmt.players.fields, memo)
    table = _record_shape(fmt.table.fields, memo)
    return _with_texts(state, _state_texts(state, players, table, example, ()), lookup)


def _with_texts(
    state: dict[str, Any],
    texts: Iterable[tuple[str, DataPath, str]],
    lookup: Callable[[str, str], str | None],
) -> dict[str, Any]:
    """``state`` with each of its ``texts`` (paths inside it) replaced by ``lookup``'s text.

    A copy, made at the first text replaced; ``state`` itself when none is.
    """
    out = state
    for context, path, text in list(texts):
        found = lookup(context, text)
        if found is None:
            continue
        if out is state:
            out = copy.deepcopy(state)
        target: Any = out
        for part in path[:-1]:
            target = target[part]
        target[path[-1]] = found
    return out


def translate_example_texts(data: dict[str, Any], lookup: Callable[[str, str], str | None]) -> None:
    """Replace each translated value of the examples' states by ``lookup(context, text)``.

    ``data`` is changed in place; each state changed is first copied whole,
    so that nothing ``data`` shares with its caller changes.
    """
    # example_texts gives each example's texts together, in the order of the examples
    for index, texts in itertools.groupby(list(example_texts(data)), key=lambda t: t[1][1]):
        assert isinstance(index, int)
        example = data["examples"][index]
        inside = ((context, path[3:], text) for context, path, text in texts)
        state = _with_texts(example["state"], inside, lookup)
        if state is not example["state"]:
            example["state"] = state
