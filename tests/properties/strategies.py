"""Hypothesis strategies built from a game's state format, and mutations of states and specs.

Nothing here lists a game's fields: a table state is drawn field by field
from the sequence's state format (types, bounds, choices, defaults, optional
fields), so a field added to a spec is generated without a change here. The
cross-field constraints (cubes that add up, a council track for the round)
are what a generator cannot read, so a drawn state is made to pass them by
the same search ``rulepress state-template`` uses
(:func:`rulepress.states.placeholders.satisfy`): list items dropped where
that helps, a field borrowed from a worked example where not.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from hypothesis import strategies as st

from rulepress.model.loaded import LoadedSpec
from rulepress.model.spec_model import FieldSpec, Parameter, Sequence, StateFormat
from rulepress.population.values import int_range
from rulepress.states.models import bound
from rulepress.states.placeholders import satisfy
from tests.conftest import GAMES, loaded

#: the longest list drawn: longer ones add time, and nothing the properties look at
LIST_CAP = 4
#: the most players drawn (a format may allow more; 6 already gives ties and several places)
PLAYER_CAP = 6

#: player ids: short ids of the documented syntax (letters and digits)
IDS = st.from_regex(r"[a-z][a-z0-9]{0,5}", fullmatch=True)
#: a table state's text: one line, printable, some of it not ASCII
TEXT = st.text(
    st.characters(whitelist_categories=("L", "N", "Zs", "P"), max_codepoint=0x30FF),
    min_size=1,
    max_size=12,
).filter(lambda t: t.strip() == t and t != "")


def sequences() -> list[tuple[str, str]]:
    """(game, sequence id) of every sequence of every game under rules_spec/."""
    return [(game, seq.id) for game in GAMES for seq in loaded(game).spec.sequences]


def sequence(spec: LoadedSpec, seq_id: str) -> Sequence:
    return next(s for s in spec.spec.sequences if s.id == seq_id)


def values(field: FieldSpec, params: Mapping[str, Parameter], ids: list[str]) -> Any:
    """A strategy for one field's valid values (its constraints aside)."""
    low, high = bound(field.min, params), bound(field.max, params)
    if field.type == "int":
        # the sampler's range (rulepress impact's tables): a missing bound is documented there
        return st.integers(*int_range(field, params))
    if field.type == "bool":
        return st.booleans()
    if field.type == "text":
        return TEXT
    if field.type == "player":
        return st.sampled_from(ids)
    if field.type == "choice":
        return st.sampled_from(field.choices)
    if field.type == "list":
        assert field.item is not None
        least = low or 0
        most = max(least, min(LIST_CAP, LIST_CAP if high is None else high))
        scalar = field.item.type not in ("list", "record")
        return st.lists(
            values(field.item, params, ids),
            min_size=least,
            max_size=most,
            unique=field.unique and scalar,
        )
    return record(field.fields, params, ids)


def record(fields: Mapping[str, FieldSpec], params: Mapping[str, Parameter], ids: list[str]) -> Any:
    """A record: the fields without a default always, the others (defaulted, optional) or not.

    A list may be left out (it is then empty), unless it needs items: the state
    check lets such a list be left out too (see test_an_omitted_list_needs_its_items).
    """
    required = {}
    optional = {}
    for name, field in fields.items():
        strategy = values(field, params, ids)
        needed = field.type != "list" or (bound(field.min, params) or 0) > 0
        if field.default is None and not field.optional and needed:
            required[name] = strategy
        else:
            optional[name] = strategy
    return st.fixed_dictionaries(required, optional=optional)


@st.composite
def raw_states(draw: st.DrawFn, spec: LoadedSpec, seq: Sequence) -> dict[str, Any]:
    """A state drawn from ``seq``'s format, before its cross-field constraints are met."""
    fmt: StateFormat = spec.spec.table_states[seq.state]
    params = spec.spec.parameters
    low = bound(fmt.players.min, params) or 1
    high = min(bound(fmt.players.max, params) or PLAYER_CAP, PLAYER_CAP)
    ids = draw(st.lists(IDS, min_size=low, max_size=high, unique=True))
    players: list[dict[str, Any]] = []
    for pid in ids:
        # a player may be another's twin: ties, and how they are broken, need equal players
        twin = draw(st.sampled_from(players) | st.none()) if players else None
        fields = (
            {k: v for k, v in twin.items() if k != "id"}
            if twin is not None
            else draw(record(fmt.players.fields, params, ids))
        )
        players.append({"id": pid, **copy.deepcopy(fields)})
    state: dict[str, Any] = {"sequence": seq.id, "players": players}
    if fmt.table.fields:
        state["table"] = draw(record(fmt.table.fields, params, ids))
    return state


def valid(spec: LoadedSpec, seq: Sequence, state: dict[str, Any]) -> dict[str, Any] | None:
    """``state`` made to pass every check of its format (a copy), or None if the search fails."""
    out = copy.deepcopy(state)
    out.setdefault("table", {})
    return None if satisfy(spec.spec, seq, out) else out


# --------------------------------------------------------------------------- wild input

#: any value YAML could give: scalars of every type (huge integers, control characters,
#: odd floats) and nested lists and mappings
JUNK = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=10**30, max_value=10**40)
    | st.floats()
    | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


def _nodes(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path into ``value`` (the root too), parents before children."""
    out = [path]
    if isinstance(value, dict):
        for key, inner in value.items():
            out += _nodes(inner, (*path, key))
    elif isinstance(value, list):
        for i, inner in enumerate(value):
            out += _nodes(inner, (*path, i))
    return out


def _swapped(value: Any) -> Any:
    """``value`` as another YAML type: text for a number, a list for a mapping, …"""
    if isinstance(value, bool):
        return "yes" if value else 0
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return dict(enumerate(value))
    if isinstance(value, dict):
        return list(value)
    return {}


#: one mutation: (which node, as a fraction of the node count; what to do; a junk value)
MUTATION = st.tuples(
    st.floats(0, 1, exclude_max=True),
    st.sampled_from(["delete", "swap", "junk", "rename", "duplicate"]),
    JUNK,
)


def mutate(data: Any, mutations: list[tuple[float, str, Any]]) -> Any:
    """``data`` (a copy) with each mutation applied in turn: keys deleted, types swapped, …"""
    data = copy.deepcopy(data)
    for where, kind, junk in mutations:
        paths = _nodes(data)
        path = paths[int(where * len(paths))]
        if not path:  # the root itself
            data = junk if kind == "junk" else _swapped(data)
            continue
        parent: Any = data
        for part in path[:-1]:
            parent = parent[part]
        key = path[-1]
        if kind == "delete":
            del parent[key]
        elif kind == "swap":
            parent[key] = _swapped(parent[key])
        elif kind == "junk":
            parent[key] = junk
        elif kind == "rename" and isinstance(parent, dict):
            parent[f"{key}_x" if isinstance(key, str) else str(key)] = parent.pop(key)
        elif kind == "duplicate" and isinstance(parent, list):
            parent.append(copy.deepcopy(parent[key]))
    return data
