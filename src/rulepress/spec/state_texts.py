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
the translated spec agree. Its contexts use player ids and list positions:
``examples/<example id>/state/players/<player id>/agenda/0/text``.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from rulepress.spec.yamlsrc import DataPath

#: where translated values lie under a field: True (the value itself), a record's
#: fields by name, or ("item", shape) for every item of a list
Shape = bool | dict[str, Any] | tuple[str, Any]
#: how deep ``use`` may chain (load.resolve_field_types reports a deeper chain)
_MAX_USE_DEPTH = 8


def _shape(field: Any, field_types: Mapping[str, Any], depth: int = 0) -> Shape | None:
    """Where a field (plain data) holds translated values, or None when it holds none."""
    if not isinstance(field, Mapping):
        return None
    shared = field.get("use")
    if isinstance(shared, str) and depth < _MAX_USE_DEPTH:
        found = _shape(field_types.get(shared), field_types, depth + 1)
        if found is None and field.get("translate") is True:
            return True
        return found
    if field.get("translate") is True:
        return field.get("type") == "text"
    kind = field.get("type")
    if kind == "record":
        return _record_shape(field.get("fields"), field_types, depth)
    if kind == "list":
        item = _shape(field.get("item"), field_types, depth)
        return None if item is None else ("item", item)
    return None


def _record_shape(
    fields: Any, field_types: Mapping[str, Any], depth: int = 0
) -> dict[str, Any] | None:
    if not isinstance(fields, Mapping):
        return None
    shapes = {name: _shape(f, field_types, depth) for name, f in fields.items()}
    kept = {name: s for name, s in shapes.items() if s is not None and s is not False}
    return kept or None


def _format_of(data: Mapping[str, Any], example: Mapping[str, Any]) -> Any:
    """The plain state format an example's state is written in (None if it cannot be told)."""
    wanted = example.get("sequence")
    if not isinstance(wanted, str):
        scorer = data.get("scorer")
        wanted = scorer.get("sequence") if isinstance(scorer, Mapping) else None
    for seq in data.get("sequences") or []:
        if isinstance(seq, Mapping) and seq.get("id") == wanted:
            formats = data.get("table_states")
            if isinstance(formats, Mapping):
                return formats.get(seq.get("state"))
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
    are translated, ``sequences``, ``scorer``, ``table_states`` and
    ``field_types`` (an example whose format cannot be found has none).
    """
    examples = data.get("examples")
    if not isinstance(examples, list):
        return
    field_types = data.get("field_types")
    shared = field_types if isinstance(field_types, Mapping) else {}
    for index, example in enumerate(examples):
        if not isinstance(example, Mapping) or not isinstance(example.get("id"), str):
            continue
        fmt = _format_of(data, example)
        state = example.get("state")
        if not isinstance(fmt, Mapping) or not isinstance(state, Mapping):
            continue
        base: tuple[str, ...] = ("examples", example["id"], "state")
        here: DataPath = ("examples", index, "state")
        players = _record_shape((fmt.get("players") or {}).get("fields"), shared)
        if players is not None and isinstance(state.get("players"), list):
            for i, player in enumerate(state["players"]):
                pid = player.get("id") if isinstance(player, Mapping) else None
                segment = pid if isinstance(pid, str) else str(i)
                yield from _walk(
                    player, players, (*base, "players", segment), (*here, "players", i)
                )
        table = _record_shape((fmt.get("table") or {}).get("fields"), shared)
        if table is not None and "table" in state:
            yield from _walk(state["table"], table, (*base, "table"), (*here, "table"))


def translate_example_texts(data: dict[str, Any], lookup: Callable[[str, str], str | None]) -> None:
    """Replace each translated value of the examples' states by ``lookup(context, text)``.

    ``data`` is changed in place; each state changed is first copied whole,
    so that nothing ``data`` shares with its caller changes.
    """
    copied: set[int] = set()
    for context, path, text in list(example_texts(data)):
        found = lookup(context, text)
        if found is None:
            continue
        index = path[1]
        assert isinstance(index, int)
        example = data["examples"][index]
        if index not in copied:
            example["state"] = copy.deepcopy(example["state"])
            copied.add(index)
        target: Any = example["state"]
        for part in path[3:-1]:
            target = target[part]
        target[path[-1]] = found
