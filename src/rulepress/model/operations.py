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

# A warm ``rulepress score`` does not discover them: importing importlib.metadata (email,
# zipfile, csv …) and reading every distribution's entry points took over 20 ms of its
# 200 ms. The spec cache keys its files on :func:`installed_fingerprint` (which
# distributions each folder of sys.path holds, and when their entry points were
# written), keeps what :func:`recorded` gives with the spec, and hands it back to
# :func:`use_recorded` when the key matches: the same distributions, so the same entry
# points.

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

import hashlib
import importlib
import os
import re
import sys
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from functools import cache
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from pydantic import BaseModel

from rulepress.errors import RulepressError

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint
    from importlib.resources.abc import Traversable

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
    from importlib.metadata import entry_points  # noqa: PLC0415 - not on a warm score's path

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
    points = recorded()
    own = [(name, value) for name, value, is_own in points if is_own]
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
    for name, value in sorted(dict(own).items()):
        found[name] = _instance(_load(name, value))
    found = dict(sorted(found.items(), key=lambda item: getattr(item[1], "order", 0)))
    for name, value, is_own in points:
        if is_own:
            continue
        try:
            loaded = _load(name, value)
        except Exception as exc:  # any error of third-party code
            _BROKEN[name] = f"{type(exc).__name__}: {exc}"
            continue
        found[name] = _instance(loaded)
    return found


#: an entry point as a kept spec records it: its name, its object, whether it is rulepress's own
Recorded = tuple[str, str, bool]
#: what rulepress's own entry points name: a class of one of its operations' modules
OWN_VALUE = re.compile(r"rulepress\.operations\.(?P<module>[a-z_]+):(?P<cls>[A-Za-z]+)")
#: the operations :func:`use_recorded` was given (their entry points and classes), if any
_TAKEN: list[tuple[tuple[Recorded, ...], dict[tuple[str, str], type]]] = []


def recorded() -> tuple[Recorded, ...]:
    """The registered entry points (discovered once, unless :func:`use_recorded` gave them)."""
    if _TAKEN:
        return _TAKEN[0][0]
    own, plugins = _points()
    return tuple((p.name, p.value, True) for p in own) + tuple(
        (p.name, p.value, False) for p in plugins
    )


def use_recorded(points: tuple[Recorded, ...]) -> bool:
    """Take ``points`` as the registered entry points, instead of discovering them.

    For the spec cache, whose key covers :func:`installed_fingerprint`: ``points`` is
    what :func:`recorded` gave with the same distributions installed. Only rulepress's
    own operations are taken so, each a class of its module under
    ``rulepress.operations`` (what a kept file says cannot name other code); where a
    plugin is installed, or once the operations were discovered in this process, nothing
    is taken (False), and discovery finds them as ever.
    """
    if installed.cache_info().currsize or _points.cache_info().currsize or _TAKEN:
        return False
    classes: dict[tuple[str, str], type] = {}
    for name, value, own in points:
        match = OWN_VALUE.fullmatch(value)
        if not own or match is None:
            return False
        module = f"rulepress.operations.{match['module']}"
        found = getattr(importlib.import_module(module), match["cls"], None)
        if not isinstance(found, type) or found.__module__ != module:
            return False
        classes[(name, value)] = found
    _TAKEN.append((points, classes))
    return True


def _load(name: str, value: str) -> Any:
    """The object of a registered entry point (loaded by importlib.metadata, unless taken)."""
    if _TAKEN:
        return _TAKEN[0][1][(name, value)]
    own, plugins = _points()
    return next(p for p in own + plugins if (p.name, p.value) == (name, value)).load()


def _metadata_folder(name: str) -> bool:
    """Whether an entry of a sys.path folder holds a distribution's metadata (as discovery reads them)."""
    return name.endswith((".dist-info", ".egg-info")) or name == "egg-info"


def installed_fingerprint() -> str | None:
    """A digest of the distributions installed where this Python finds them; None if unknown.

    Each folder of ``sys.path`` that holds distributions counts by its ``*.dist-info``
    and ``*.egg-info`` entries (an egg's ``EGG-INFO``), each with the size and modification time of its ``entry_points.txt``: a
    package installed, removed, upgraded or installed again (its metadata written
    anew) changes it, as would any other change of the entry points discovery reads.
    A zip file on the path counts by its size and time. None when a finder on
    ``sys.meta_path`` other than Python's own may find distributions elsewhere.
    """
    own_finders = ("BuiltinImporter", "FrozenImporter", "PathFinder")
    for finder in sys.meta_path:
        name = getattr(finder, "__name__", type(finder).__name__)
        if name not in own_finders and hasattr(finder, "find_distributions"):
            return None
    digest = hashlib.sha256()
    for entry in sys.path:
        folder = entry or "."
        try:
            if not os.path.isdir(folder):
                info = os.stat(folder)  # a zip file, which may hold distributions
                digest.update(
                    os.fsencode(folder) + f"\0{info.st_size} {info.st_mtime_ns}\0".encode()
                )
                continue
            names = sorted(n for n in os.listdir(folder) if _metadata_folder(n.lower()))
        except FileNotFoundError:
            continue  # nothing there: discovery finds nothing there either
        except OSError:
            return None
        if not names:
            continue  # a folder of modules only (the working folder, the tests' folders)
        digest.update(os.fsencode(folder) + b"\0")
        for name in names:
            try:
                points = os.stat(os.path.join(folder, name, "entry_points.txt"))
                written = f"{points.st_size} {points.st_mtime_ns}"
            except OSError:
                written = "none"
            digest.update(f"{name} {written}\0".encode())
    return digest.hexdigest()


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
    _TAKEN.clear()


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


class OwnExample:
    """A built-in operation's ``example``: its file in ``rulepress/operations/examples``.

    Found when first read (``Sum.example``), not when the operation's class is made:
    :mod:`importlib.resources` (with tempfile, zipfile …) is not imported by a score,
    which uses the operations and never their examples.
    """

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, instance: object, owner: type | None = None) -> Traversable:
        from importlib.resources import files  # noqa: PLC0415 - see the docstring

        return files("rulepress.operations") / "examples" / self.name


def example_of(operation: Operation) -> Traversable | None:
    """The data file of an operation's reference example, if it has one."""
    example: Traversable | None = getattr(operation, "example", None)
    return example
