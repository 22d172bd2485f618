"""Every fixed value a spec or a worked example may write, read from the code that accepts it.

Two kinds of place take a value from a fixed set. Most are typed so in the
spec model: a ``Literal`` field (a criterion's ``order``, a field's ``type``,
an operation's ``op``, an audited entry's ``kind``), found here by walking the
model's types from :class:`~rulepress.model.spec_model.Spec` down. The others
are expressions or free-form mappings whose values the spec check or the
scorer compares with a set in code (an example's ``decided_by``, the
``majorities`` operation's ``ties``): :data:`CODE_SETS` names each of those
sets, and the values are read from it when the reference is made. Neither
list is typed out here, so a value added to the code is listed at once.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel

from rulepress.checks import base as check_base
from rulepress.model.spec_model import Expectation, ExprText, Spec, component_models
from rulepress.operations import majorities


@dataclass(frozen=True)
class FixedValues:
    """A place of the spec that takes one of a fixed set of values."""

    #: the place, as a path of the spec's sections and fields (``[]``: any item of a list,
    #: ``<name>``: any key of a mapping)
    where: str
    #: the model whose field it is (for the code sets: the field they apply to)
    model: type[BaseModel]
    field: str
    values: tuple[str, ...]
    #: what else the place accepts besides these values ("" for nothing else)
    besides: str = ""


def _unwrap(tp: Any) -> Any:
    while typing.get_origin(tp) is typing.Annotated:
        tp = typing.get_args(tp)[0]
    return tp


def _parts(tp: Any, suffix: str = "") -> Iterator[tuple[str, Any]]:
    """The leaves of a field's type with the path each adds: (suffix, leaf type).

    A leaf is a model, a ``Literal`` or a plain type; lists add ``[]``, mappings
    ``.<name>``, and a union yields each of its members.
    """
    if tp == ExprText:  # before its Annotated is unwrapped: the leaf is an expression
        yield suffix, ExprText
        return
    tp = _unwrap(tp)
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin is list:
        yield from _parts(args[0], suffix + "[]")
    elif origin is dict:
        yield from _parts(args[1], suffix + ".<name>")
    elif origin in (typing.Union, types.UnionType):
        for arg in args:
            yield from _parts(arg, suffix)
    else:
        yield suffix, tp


def _is_model(tp: Any) -> bool:
    return isinstance(tp, type) and issubclass(tp, BaseModel)


def model_paths(
    root: type[BaseModel], expand: Callable[[Any], list[type[BaseModel]]]
) -> dict[type[BaseModel], str]:
    """Every model reachable from ``root``, with the first (shortest) path that reaches it.

    ``expand`` gives the models a bare ``BaseModel`` stands for (a score's
    component: the operations the registry finds).
    """
    paths: dict[type[BaseModel], str] = {root: ""}
    todo = [root]
    while todo:
        model = todo.pop(0)
        for name, info in model.model_fields.items():
            here = f"{paths[model]}.{name}" if paths[model] else name
            for suffix, leaf in _parts(info.annotation):
                inner = expand(leaf) if leaf is BaseModel else [leaf] if _is_model(leaf) else []
                for found in inner:
                    if found not in paths:
                        paths[found] = here + suffix
                        todo.append(found)
    return paths


def literal_values(
    root: type[BaseModel], expand: Callable[[Any], list[type[BaseModel]]]
) -> list[FixedValues]:
    """Each ``Literal`` field of the models under ``root``, with its values, in path order."""
    out: list[FixedValues] = []
    for model, path in model_paths(root, expand).items():
        for name, info in model.model_fields.items():
            leaves = [leaf for _, leaf in _parts(info.annotation)]
            values = tuple(
                str(v)
                for leaf in leaves
                if typing.get_origin(leaf) is Literal
                for v in typing.get_args(leaf)
            )
            if not values:
                continue
            # a union of the values with an expression: a ruling may choose among them
            besides = "or an expression that gives one of them" if ExprText in leaves else ""
            where = f"{path}.{name}" if path else name
            suffix = next(
                s for s, leaf in _parts(info.annotation) if typing.get_origin(leaf) is Literal
            )
            out.append(FixedValues(where + suffix, model, name, values, besides))
    return out


@dataclass(frozen=True)
class CodeSet:
    """A field whose values the spec check or the scorer compares with a set in code."""

    model: type[BaseModel]
    field: str
    #: reads the set when the reference is made (so a test may change it)
    values: Callable[[], frozenset[str] | tuple[str, ...]]
    besides: str = ""
    #: what the values are of, when they are not the field's own value (its keys, say)
    of: str = ""


#: the sets in code: each is read from the module that checks it
CODE_SETS: tuple[CodeSet, ...] = (
    CodeSet(
        Expectation,
        "decided_by",
        lambda: check_base.DECIDED_SPECIAL,
        besides="or the id of a criterion of the sequence's `winners`",
    ),
    CodeSet(
        Expectation,
        "players",
        lambda: check_base.EXPECT_KEYS,
        besides="or a score id of the sequence, or a field its scorer shows",
        of="what may be stated of a player",
    ),
    CodeSet(
        Expectation,
        "tallies",
        lambda: frozenset(check_base.TALLY_SHAPES),
        of="what may be stated of a tally",
    ),
    CodeSet(
        majorities.MajoritiesComponent,
        "ties",
        lambda: majorities.TIE_RULES,
        besides="as an expression (`'split'`, or a ruling's choice)",
    ),
)


def code_values(paths: dict[type[BaseModel], str]) -> list[FixedValues]:
    """The fields of :data:`CODE_SETS`, at their places under ``paths``, with today's values."""
    out = []
    for item in CODE_SETS:
        if item.model not in paths:
            continue  # an operation a plugin replaced, say
        path = paths[item.model]
        where = f"{path}.{item.field}" if path else item.field
        found = item.values()
        # a frozenset has no order of its own; a tuple keeps the order its module gives
        values = tuple(sorted(found)) if isinstance(found, frozenset) else tuple(found)
        besides = "; ".join(x for x in (item.of, item.besides) if x)
        out.append(FixedValues(where, item.model, item.field, values, besides))
    return out


def fixed_values(root: type[BaseModel] = Spec) -> list[FixedValues]:
    """Every place under ``root`` that takes a fixed value, typed or checked, by path."""

    def expand(leaf: Any) -> list[type[BaseModel]]:
        return list(component_models()) if leaf is BaseModel else []

    paths = model_paths(root, expand)
    merged: dict[str, FixedValues] = {}
    for item in literal_values(root, expand) + code_values(paths):
        # one place, several models (a score's component: each operation's `op`)
        before = merged.get(item.where)
        merged[item.where] = (
            item
            if before is None
            else FixedValues(
                item.where, before.model, item.field, before.values + item.values, before.besides
            )
        )
    return sorted(merged.values(), key=lambda f: f.where)
