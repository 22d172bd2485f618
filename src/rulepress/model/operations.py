"""Scoring operations from plugins: the ``rulepress.operations`` entry point group.

The built-in operations (``sum``, ``first``, ``lines``, ``sets``,
``weighted_counts``, ``majorities``) cover most games. A game that needs a
shape none of them has gets it from a package the user installs, as Babel
finds its extractors, instead of from an edit to rulepress::

    # the plugin's pyproject.toml
    [project.entry-points."rulepress.operations"]
    longest_run = "mygame_ops:LongestRun"

The entry point's name is the ``op`` a spec writes; its object (a class or an
instance) has

- ``model``: a pydantic model of the component's fields besides ``op``;
  fields annotated with :data:`rulepress.model.ExprText` (or lists of
  them) are expressions, checked like every other expression of the spec,
  and fields annotated with :data:`rulepress.model.Text` (a label, a
  note; in lists, dicts and nested models too) are text readers see:
  ``rulepress i18n extract`` puts them in the game's catalog, as it does the
  built-in operations' texts, and they reach ``compile`` translated into the
  reader's language. A message's context is the field's place in the spec
  (``sequences/<id>/steps/<n>/score/component/note``). The plugin must be
  installed wherever the game's catalog is extracted: without it the
  component's fields are unknown, and so are their texts;
- ``compile(config, pick)``: given the validated ``model`` instance and
  ``pick(source) -> evaluate(namespace, functions)``, a ``run(namespace,
  functions, make)`` that returns ``(points, notes, breakdown, export)`` as
  the built-in operations do (see :mod:`rulepress.scoring.components`);
- optionally ``scope``: field name → the extra names its expressions may
  read (bound by the operation), and ``writes``: the names ``run`` writes
  into the namespace (the engine puts back what they hid).

Plugins are code: only what the user installed runs, and a spec (which is
untrusted data) can only name it. Discovery uses
:func:`importlib.metadata.entry_points` and happens once per process.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from importlib.metadata import entry_points
from typing import Any, Protocol

from pydantic import BaseModel

#: the entry point group plugins register their operations under
GROUP = "rulepress.operations"
#: the operations rulepress itself provides (a plugin cannot replace one)
BUILT_IN = ("sum", "first", "lines", "sets", "weighted_counts", "majorities")


class Operation(Protocol):
    """What a plugin's entry point gives: an operation's fields and how it scores."""

    model: type[BaseModel]

    def compile(self, config: Any, pick: Callable[[str], Any]) -> Callable[..., Any]: ...


@cache
def installed() -> Mapping[str, Operation]:
    """Every plugin operation installed, by the ``op`` a spec names it with.

    A plugin that fails to load is left out (and its ``op`` is then reported
    as unknown where a spec names it, with the error): a broken package must
    not stop rulepress from checking the games that do not use it.
    """
    found: dict[str, Operation] = {}
    for point in entry_points(group=GROUP):
        if point.name in BUILT_IN:
            continue
        try:
            loaded = point.load()
        except Exception as exc:  # any error of third-party code
            _BROKEN[point.name] = f"{type(exc).__name__}: {exc}"
            continue
        found[point.name] = loaded() if isinstance(loaded, type) else loaded
    return found


#: plugins that failed to load: op → the error (filled by :func:`installed`)
_BROKEN: dict[str, str] = {}


def model_of(op: str) -> type[BaseModel] | None:
    """The fields of the installed plugin operation ``op`` (None: no such plugin)."""
    operation = installed().get(op)
    return operation.model if operation is not None else None


def unknown_message(op: str) -> str:
    """Why ``op`` cannot be used: the operations there are, or the plugin's load error."""
    plugins = installed()
    if op in _BROKEN:
        return f"the plugin operation {op!r} failed to load ({_BROKEN[op]})"
    names = ", ".join(sorted(plugins)) or "none"
    return (
        f"unknown operation {op!r} (built in: {', '.join(BUILT_IN)};"
        f" installed plugins ({GROUP}): {names})"
    )


def scope_of(operation: Operation, field: str) -> frozenset[str]:
    """The names an operation's field's expressions may read besides the step's."""
    scope: Mapping[str, frozenset[str]] = getattr(operation, "scope", {})
    return frozenset(scope.get(field, frozenset()))


def writes_of(operation: Operation, config: Any) -> tuple[str, ...]:
    """The names an operation's ``run`` writes into a player's namespace."""
    writes = getattr(operation, "writes", ())
    return tuple(writes(config) if callable(writes) else writes)
