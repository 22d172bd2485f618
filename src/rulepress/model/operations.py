"""Scoring operations from plugins: the ``rulepress.operations`` entry point group.

The built-in operations cover most games. A game that needs a
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

# Not in the page's paragraphs above (the author's reference shows them to plugin
# authors): rulepress's own operations (rulepress.operations, one module each) are
# registered in this group too, by rulepress's pyproject.toml, and have more of the
# protocol: ``check`` (their own spec checks, instead of the check of every
# expression field), ``reads_tables`` (``compile`` is also given the spec's range
# tables), ``skips_trace`` (``compile`` takes ``trace=False``, for a run that makes
# no notes: rulepress.scoring.components.compile_component), ``breakdown_names``
# (what the pages call each part of their score) and ``example`` (the data file of
# their reference example) and ``order`` (their place in the reference). An entry
# point of this group from any other distribution is a plugin, and cannot replace
# one of them.

from __future__ import annotations

from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from functools import cache
from importlib.metadata import EntryPoint, entry_points
from importlib.resources.abc import Traversable
from typing import Any, Protocol, runtime_checkable

from pydantic import BaseModel

from rulepress.errors import RulepressError

#: the entry point group plugins register their operations under
GROUP = "rulepress.operations"
#: the distribution whose entry points are the built-in operations
DISTRIBUTION = "rulepress"

#: a path of keys and indexes into a spec's data (as rulepress.yamlsrc.reader.DataPath)
Path = tuple[str | int, ...]


class Operation(Protocol):
    """What a plugin's entry point gives: an operation's fields and how it scores."""

    model: type[BaseModel]

    def compile(self, config: Any, pick: Callable[[str], Any]) -> Callable[..., Any]: ...


class Checker(Protocol):
    """What a built-in operation's ``check`` is given: the spec check's located reports."""

    def at(self, path: Path, message: str, *, key: bool = False) -> None: ...

    def expression(self, path: Path, source: str, names: frozenset[str]) -> object: ...

    def prose(self, path: Path, text: str, args: set[str]) -> None: ...

    def parts(self, path: Path, parts: list[Any], names: frozenset[str]) -> None: ...

    def choice(
        self, path: Path, value: str, allowed: tuple[str, ...], names: frozenset[str]
    ) -> None: ...

    def ranging(
        self, name: str, source: str, members: tuple[str, ...] | None = None
    ) -> AbstractContextManager[None]: ...


@runtime_checkable
class Checked(Protocol):
    """An operation that checks its own fields (the built-in ones do)."""

    def check(
        self, checker: Checker, path: Path, config: Any, names: frozenset[str], tables: set[str]
    ) -> None: ...


class NotInstalledError(RulepressError):
    """rulepress's package metadata (and so its operations' entry points) is missing.

    A setup problem, not a spec's: one line and exit 1, as any error of rulepress's.
    """


def _built_in(point: EntryPoint) -> bool:
    """Whether an entry point is rulepress's own (its distribution is rulepress)."""
    return point.dist is not None and point.dist.metadata["Name"] == DISTRIBUTION


@cache
def _points() -> tuple[tuple[EntryPoint, ...], tuple[EntryPoint, ...]]:
    """The group's entry points: rulepress's own, then the plugins' (not shadowing one)."""
    found = entry_points(group=GROUP)
    own = tuple(p for p in found if _built_in(p))
    names = {p.name for p in own}
    return own, tuple(p for p in found if not _built_in(p) and p.name not in names)


def registered() -> tuple[EntryPoint, ...]:
    """The entry points the registry loads: rulepress's own, then the plugins' (found once).

    For what depends on the operations installed (the spec cache's key), without
    loading any of them.
    """
    own, plugins = _points()
    return own + plugins


def built_in() -> tuple[str, ...]:
    """The operations rulepress itself provides, in the order the reference shows them."""
    own = {p.name for p in _points()[0]}
    return tuple(name for name in installed() if name in own)


@cache
def installed() -> Mapping[str, Operation]:
    """Every operation installed, built-in ones first, by the ``op`` a spec names it with.

    A plugin that fails to load is left out (and its ``op`` is then reported
    as unknown where a spec names it, with the error): a broken package must
    not stop rulepress from checking the games that do not use it. A plugin
    that names a built-in operation is left out too: it cannot replace one.
    """
    own, plugins = _points()
    if not own:
        # run from a source tree that was never installed: its entry points (and so
        # every operation, sum included) are unknown, and every spec would fail
        raise NotInstalledError(
            f"rulepress's own operations are registered under the {GROUP!r} entry points"
            " of its package metadata, which this Python does not have: install rulepress"
            " (pip install -e . in a clone)"
        )
    found: dict[str, Operation] = {}
    # (an editable install may list a distribution twice; setuptools sorts the names)
    for name, point in sorted({p.name: p for p in own}.items()):
        found[name] = _instance(point.load())
    found = dict(sorted(found.items(), key=lambda item: getattr(item[1], "order", 0)))
    for point in plugins:
        try:
            loaded = point.load()
        except Exception as exc:  # any error of third-party code
            _BROKEN[point.name] = f"{type(exc).__name__}: {exc}"
            continue
        found[point.name] = _instance(loaded)
    return found


def _instance(loaded: Any) -> Operation:
    operation: Operation = loaded() if isinstance(loaded, type) else loaded
    return operation


def clear() -> None:
    """Forget what was found, so that the next call looks again (for tests).

    The spec model's schema, once built, keeps the operations it was built
    with (:func:`rulepress.model.spec_model.component_union`): a package installed
    later is found by the next process.
    """
    _points.cache_clear()
    installed.cache_clear()
    _BROKEN.clear()


#: plugins that failed to load: op → the error (filled by :func:`installed`)
_BROKEN: dict[str, str] = {}


def unknown_message(op: str) -> str:
    """Why ``op`` cannot be used: the operations there are, or the plugin's load error."""
    operations = installed()
    if op in _BROKEN:
        return f"the plugin operation {op!r} failed to load ({_BROKEN[op]})"
    own = built_in()
    names = ", ".join(sorted(n for n in operations if n not in own)) or "none"
    return (
        f"unknown operation {op!r} (built in: {', '.join(own)};"
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


def example_of(operation: Operation) -> Traversable | None:
    """The data file of an operation's reference example, if it has one."""
    example: Traversable | None = getattr(operation, "example", None)
    return example
