"""The models a spec is made of, and their fields' descriptions, read when they are shown.

A field of the spec's models is described by the docstring under it; the JSON
Schema for editors (``rulepress schema``) and the author's reference
(``rulepress reference``) show those descriptions. Pydantic can read them
itself (``use_attribute_docstrings``), but it does so when each class is
made, by finding and parsing the class's source: that was a large part of
importing the model, which every command does and nearly none shows a
description. So the models leave it off, and :func:`describe_fields` reads
the docstrings the same way (the string right under an annotated field, of
the class that declares the field) when a description is first needed.

A model whose validator was built before that (a spec loaded earlier in the
same process) built its JSON Schema without the descriptions into it; those
models are built again, inner models first, so that a schema made afterwards
has them.
"""

from __future__ import annotations

import ast
import inspect
import sys
import typing
from collections.abc import Iterator
from functools import cache
from typing import Any

from pydantic import BaseModel

from rulepress.model.spec_model import COMPONENT, Spec, component_models


@cache
def spec_models() -> dict[str, type[BaseModel]]:
    """Every model a spec can be made of, by module and class: those its fields reach.

    Inner models come before the models that hold them (a field's model before
    the field's), save where a model holds itself.
    """
    found: dict[str, type[BaseModel]] = {}
    seen: set[type[BaseModel]] = set()

    def visit(model: type[BaseModel]) -> None:
        if model in seen:
            return
        seen.add(model)
        for inner in _inner_models(model):
            visit(inner)
        found[model_name(model)] = model

    visit(Spec)
    return found


def model_name(model: type[BaseModel]) -> str:
    """A model's module and class, as the spec cache names it."""
    return f"{model.__module__}:{model.__qualname__}"


def _inner_models(model: type[BaseModel]) -> Iterator[type[BaseModel]]:
    for info in model.model_fields.values():
        yield from _models_in(info.annotation)
        if COMPONENT in info.metadata:
            yield from component_models()
    if "__pydantic_extra__" in model.__annotations__:
        # the type of the items a model allows besides its fields (a termbase's terms)
        hints = typing.get_type_hints(model, include_extras=True)
        yield from _models_in(hints["__pydantic_extra__"])


def _models_in(annotation: Any) -> Iterator[type[BaseModel]]:
    """The models a field's type names, however deep (lists, unions, Annotated …)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        if annotation is not BaseModel:  # a component's type, found by its mark
            yield annotation
        return
    if typing.get_origin(annotation) is typing.Annotated:
        base, *marks = typing.get_args(annotation)
        yield from _models_in(base)
        if COMPONENT in marks:
            yield from component_models()
        return
    for arg in typing.get_args(annotation):
        yield from _models_in(arg)


def describe_fields() -> None:
    """Give every field of the spec's models the description its docstring writes.

    Once per process (a model made later, such as a plugin's, is described by the
    next call); a description given in ``Field(description=…)`` is kept.
    """
    models = list(spec_models().values())
    new = [model for model in models if model not in _DESCRIBED]
    if not new:
        return
    for model in new:
        for name, info in model.__pydantic_fields__.items():
            if info.description is None:
                info.description = _docstrings(_declaring(model, name)).get(name)
        _DESCRIBED.add(model)
    # models already built keep the schema they were built with: build them again,
    # inner ones first (a model's schema reuses those of the models it holds)
    for model in models:
        if model.__pydantic_complete__:
            model.model_rebuild(force=True)


#: the models described so far
_DESCRIBED: set[type[BaseModel]] = set()


def _declaring(model: type[BaseModel], field: str) -> type:
    """The class of ``model``'s bases that declares ``field`` (its annotation is there)."""
    for cls in model.__mro__:
        if field in inspect.get_annotations(cls):
            return cls
    return model


@cache
def _docstrings(cls: type) -> dict[str, str]:
    """Each annotated field of ``cls``'s own body, with the string right under it."""
    node = _classes(cls.__module__).get(cls.__qualname__)
    found: dict[str, str] = {}
    if node is None:
        return found
    for before, after in zip(node.body, node.body[1:], strict=False):
        if (
            isinstance(before, ast.AnnAssign)
            and isinstance(before.target, ast.Name)
            and isinstance(after, ast.Expr)
            and isinstance(after.value, ast.Constant)
            and isinstance(after.value.value, str)
        ):
            found[before.target.id] = inspect.cleandoc(after.value.value)
    return found


@cache
def _classes(module: str) -> dict[str, ast.ClassDef]:
    """The classes a module's source defines, by qualified name (its source parsed once)."""
    try:
        tree = ast.parse(inspect.getsource(sys.modules[module]))
    except (KeyError, OSError, TypeError, SyntaxError):  # no source: nothing described
        return {}
    found: dict[str, ast.ClassDef] = {}
    todo: list[tuple[str, ast.stmt]] = [("", node) for node in tree.body]
    while todo:
        prefix, node = todo.pop()
        if isinstance(node, ast.ClassDef):
            name = prefix + node.name
            found.setdefault(name, node)
            todo.extend((f"{name}.", inner) for inner in node.body)
    return found
