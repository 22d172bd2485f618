"""A validated spec as plain JSON data, and back, without validating it again.

The user's cache keeps a game's checked spec (:mod:`rulepress.games.spec_cache`).
Reading it back through ``Spec.model_validate_json`` made pydantic build the
validators of every model of the spec first, which took longer than anything
else a ``rulepress score`` of one table does. What was validated once, by the
same code (the cache's key covers rulepress's code), need not be validated
again: this module writes the validated objects down as they are, each
model with its class and the fields it was given, and builds them back with
``model_construct``, which sets fields without validating them.

Only data goes in and out: JSON scalars, lists, and objects marked with what
they stand for (a model of the spec, a mapping, a tuple, a named set's
resolved list or labels, a declared expression). A model is named by its
module and class and found among the models a spec is made of (those
:class:`~rulepress.model.Spec`'s fields reach, and the installed operations'
components), never imported by name; anything else is refused
(:class:`UnreadableError`), and the caller then loads the spec afresh. Nothing
read here can run code, as nothing in a pickle is prevented from doing.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from pydantic import BaseModel

from rulepress.model.declared import Declared
from rulepress.model.field_docs import model_name, spec_models
from rulepress.model.sets import SetLabels, SetList
from rulepress.model.spec_model import Spec

#: the JSON types written as they are
_SCALARS = (str, int, float, bool, type(None))


class UnreadableError(ValueError):
    """Data that is not what :func:`as_data` writes: the caller loads the spec afresh."""


def as_data(value: Any) -> Any:
    """``value`` (a validated spec, or any part of one) as JSON-able data.

    ValueError for a value of a type no spec holds (nothing is written then).
    """
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is list:
        return [as_data(v) for v in value]
    if isinstance(value, BaseModel):
        data: dict[str, Any] = {
            "m": model_name(kind),
            "f": {k: as_data(value.__dict__[k]) for k in kind.model_fields},
            "s": sorted(value.model_fields_set),
        }
        if value.__pydantic_extra__:
            data["x"] = {k: as_data(v) for k, v in value.__pydantic_extra__.items()}
        if value.__pydantic_private__:
            raise ValueError(f"{kind.__name__} has private attributes, which are not kept")
        return data
    if kind is dict:
        return {"d": _mapping(value)}
    if kind is tuple:
        return {"t": [as_data(v) for v in value]}
    if kind is SetList:
        return {"sl": [as_data(v) for v in value], "r": value.ref}
    if kind is SetLabels:
        return {"sd": _mapping(value), "r": value.ref}
    if kind is Declared:
        return {"e": str(value), "p": as_data(value.parts), "r": as_data(value.rulings)}
    raise ValueError(f"a spec holds no {kind.__name__} ({value!r:.40})")


def _mapping(value: dict[Any, Any]) -> dict[str, Any]:
    if not all(type(k) is str for k in value):
        raise ValueError("a mapping of the spec has a key that is not text")
    return {k: as_data(v) for k, v in value.items()}


def spec_from_data(data: Any) -> Spec:
    """The :class:`Spec` that :func:`as_data` wrote as ``data``; :class:`UnreadableError` if it is not one."""
    spec = _read(data, spec_models())
    if type(spec) is not Spec:
        raise UnreadableError("not a spec")
    return spec


def _read(data: Any, models: dict[str, type[BaseModel]]) -> Any:
    kind = type(data)
    if kind in _SCALARS:
        return data
    if kind is list:
        return [_read(v, models) for v in data]
    if kind is not dict:
        raise UnreadableError(f"unexpected {kind.__name__}")
    if "m" in data:
        return _model(data, models)
    match data:
        case {"d": dict(items)} if len(data) == 1:
            return {k: _read(v, models) for k, v in items.items()}
        case {"t": list(items)} if len(data) == 1:
            return tuple(_read(v, models) for v in items)
        case {"sl": list(items), "r": str(ref)} if len(data) == 2:
            return SetList([_read(v, models) for v in items], ref)
        case {"sd": dict(items), "r": str(ref)} if len(data) == 2:
            return SetLabels({k: _read(v, models) for k, v in items.items()}, ref)
        case {"e": str(source), "p": parts, "r": rulings} if len(data) == 3:
            return Declared(source, _read(parts, models), _read(rulings, models))
    raise UnreadableError(f"unexpected object with keys {sorted(data)[:4]}")


#: the keys a model's object may have: its class, fields, given fields and extra items
_MODEL_KEYS = frozenset({"m", "f", "s", "x"})


def _model(data: dict[str, Any], models: dict[str, type[BaseModel]]) -> BaseModel:
    # (tests of the types rather than a match statement: a spec holds hundreds of models,
    # and this runs in every warm score)
    name, fields, given = data.get("m"), data.get("f"), data.get("s")
    if type(name) is not str or type(fields) is not dict or type(given) is not list:
        raise UnreadableError("a model without its class, fields and given fields")
    if not data.keys() <= _MODEL_KEYS:
        raise UnreadableError(f"{name}: keys besides its class, fields and given fields")
    model = models.get(name)
    if model is None:
        raise UnreadableError(f"{name} is not a model of a spec")
    extra = data.get("x", {})
    if extra and (not isinstance(extra, dict) or model.model_config.get("extra") != "allow"):
        raise UnreadableError(f"{name}: extra fields it does not allow")
    if fields.keys() != _field_names(model) or not set(given) <= fields.keys() | extra:
        raise UnreadableError(f"{name}: other fields than the model's")
    values = {k: _read(v, models) for k, v in fields.items()}
    extras = {k: _read(v, models) for k, v in extra.items() if k not in values}
    if not _plain(model):
        return model.model_construct(set(given), **values, **extras)
    # what model_construct does when every field is given (it is, see above) and there is
    # no alias to look up; model_construct looks at every field of every model again, and
    # took a fifth of this reading (2 of 10 ms for Stationfall)
    allowed = model.model_config.get("extra") == "allow"
    built = model.__new__(model)
    _set(built, "__dict__", values)
    _set(built, "__pydantic_fields_set__", set(given))
    _set(built, "__pydantic_extra__", extras if allowed else None)
    _set(built, "__pydantic_private__", None)
    return built


_set = object.__setattr__


@cache
def _field_names(model: type[BaseModel]) -> frozenset[str]:
    """A model's fields' names (read once: pydantic's ``model_fields`` is a property)."""
    return frozenset(model.model_fields)


@cache
def _plain(model: type[BaseModel]) -> bool:
    """Whether ``model`` is built by setting its fields, with nothing else to run or look up.

    Not a root model, no private attributes, no ``model_post_init`` and no field with an
    alias: all :meth:`~pydantic.BaseModel.model_construct` does for it then is to set the
    instance's fields, given fields, extra items and (no) private attributes.
    """
    return not (
        model.__pydantic_root_model__
        or model.__private_attributes__
        or model.__pydantic_post_init__
        or any(
            info.alias is not None or info.validation_alias is not None
            for info in model.model_fields.values()
        )
    )
