"""Loading a game's spec from ``rules_spec/<game>/*.yaml`` with located errors.

Each YAML file of a game directory is a mapping whose keys are sections of
:class:`~rulepress.model.spec_model.Spec`. List sections (rules, examples, …) may be
split over several files and are concatenated in file-name order, with
``game.yaml`` first; any other section may appear in one file only.

Every problem (bad YAML, unknown keys, wrong types, broken references) is
collected with its ``file:line:col`` and raised once as a
:class:`~rulepress.errors.SpecError`.

A worked example is an illustration, not a rule: with ``isolate_examples``
a problem found only inside examples does not stop the load. Those examples
are left out of the spec and kept, with their located problems, in
:attr:`~rulepress.model.loaded.LoadedSpec.broken_examples`, so that scoring a
table state still works while ``rulepress validate`` reports them and
``score --example`` refuses exactly the broken one.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from rulepress.errors import Location, Problem, SpecError, UsageError
from rulepress.expressions import BudgetError, MemoryBudgetError, current, spending
from rulepress.lazy_pattern import LazyPattern
from rulepress.model import LoadedSpec, Spec
from rulepress.model.sets import expand
from rulepress.yamlsrc import (
    GAME_FILE,
    DataPath,
    SourceMap,
    YamlError,
    display_path,
    format_path,
    load_yaml_file,
    pydantic_problems,
    spec_files,
)

#: the most a spec's files may hold together, in bytes (Brink's hold about 0.3 MiB; each
#: file is bounded on its own by rulepress.yamlsrc.reader.MAX_BYTES)
MAX_SPEC_BYTES = 8 * 1024 * 1024


def _read_files(directory: Path) -> tuple[dict[str, Any], SourceMap, list[Problem]]:
    merged: dict[str, Any] = {}
    sources = SourceMap()
    problems: list[Problem] = []
    owner: dict[str, str] = {}
    files = spec_files(directory)
    if not any(p.name == GAME_FILE for p in files):
        problems.append(Problem(Location(display_path(directory)), "", f"no {GAME_FILE} here"))
    budget = current()
    total = 0
    for path in files:
        name = display_path(path)
        with contextlib.suppress(OSError):  # the read below says why
            total += path.stat().st_size
        if total > MAX_SPEC_BYTES:
            # each file is bounded where it is read; this bounds how many a spec may add up
            limit = f"{MAX_SPEC_BYTES // 1024 // 1024} MiB"
            problems.append(
                Problem(
                    Location(name),
                    "",
                    f"the spec's files up to this one are larger than {limit} together,"
                    " the most a spec may be; this one and the rest are not read",
                )
            )
            break
        try:
            data, smap = load_yaml_file(path, name)
            budget.check_memory(f"the spec file {name}")
        except YamlError as exc:
            problems.extend(exc.problems)
            continue
        except MemoryBudgetError as exc:
            problems.append(Problem(Location(name), "", exc.message))
            break
        if data is None:
            continue
        if not isinstance(data, dict):
            problems.append(
                Problem(smap.locate(()), "", "a spec file must be a mapping of sections")
            )
            continue
        # Where each of this file's paths goes in the merged spec, collected for
        # one pass over the file's source map (see SourceMap.moved): moving the
        # items one at a time made loading quadratic in the number of rules.
        moves: dict[DataPath, DataPath] = {}
        for section, value in data.items():
            earlier = merged.get(section)
            if section in merged and _shape(value) != _shape(earlier):
                # one part a list, another a mapping (or text): name both files,
                # whichever came first (a list first once went unreported)
                problems.append(
                    Problem(
                        smap.locate((section,), key=True),
                        section,
                        f"{_shape(value)} here, but {_shape(earlier)} in {owner[section]};"
                        " a section given in several files has one shape in all",
                    )
                )
                continue
            if section in Spec.LIST_SECTIONS and isinstance(value, list):
                existing = merged.setdefault(section, [])
                owner.setdefault(section, name)
                offset = len(existing)
                for i in range(len(value)):
                    moves[(section, i)] = (section, offset + i)
                sources.keys.setdefault((section,), smap.locate((section,), key=True))
                sources.values.setdefault((section,), smap.locate((section,)))
                existing.extend(value)
                continue
            if isinstance(value, dict) and isinstance(earlier, dict):
                # mapping sections (parameters, table_states, field_types …) may be
                # split over files too, as long as no key is given twice
                for key, item in value.items():
                    if key in earlier:
                        problems.append(
                            Problem(
                                smap.locate((section, key), key=True),
                                f"{section}.{key}",
                                f"already given in {owner[section]}",
                            )
                        )
                        continue
                    earlier[key] = item
                    moves[(section, key)] = (section, key)
                continue
            if section in merged:
                problems.append(
                    Problem(
                        smap.locate((section,), key=True),
                        section,
                        f"section already given in {owner[section]}",
                    )
                )
                continue
            owner[section] = name
            merged[section] = value
            moves[(section,)] = (section,)
        sources.update(smap.moved(moves))
    if files:
        first = display_path(files[0])
        sources.values.setdefault((), Location(first, 1, 1))
    return merged, sources, problems


def _shape(value: Any) -> str:
    """What a section's value is, as a message names it."""
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return "a single value"


@contextmanager
def _no_cyclic_gc() -> Iterator[None]:
    """Python's cyclic garbage collector paused, for a load that only builds what it keeps.

    Loading makes hundreds of thousands of objects and frees almost none, and
    every collection the allocations trigger walks the older ones again:
    reading the YAML of a spec of 8,000 rules took 4.3 s of CPU with the
    collector, 1.3 s without, and each doubling of the spec cost x3 instead of
    x2 (benchmarks/bench_loader.py). The data has no reference cycles to
    collect; the few a load leaves (closures of the checks) are collected once
    the collector runs again. It is switched back on only if it was on.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def load_spec(directory: Path, *, isolate_examples: bool = False) -> LoadedSpec:
    """Load and check one game's spec; raise SpecError listing every problem.

    With ``isolate_examples``, problems that lie only inside worked examples
    leave those examples out instead (see the module docstring).
    """
    if not directory.is_dir():
        raise UsageError(f"no spec directory at {display_path(directory)}")
    with _no_cyclic_gc(), spending():
        return _load(directory, isolate_examples)


#: the example a problem lies in, from its path as printed (``examples[3].state.round``)
_IN_EXAMPLE = LazyPattern(r"examples\[(\d+)\](?:[.\[]|$)")


def _by_example(problems: list[Problem]) -> dict[int, list[Problem]] | None:
    """The problems by the index of the example each lies in; None if any lies elsewhere."""
    found: dict[int, list[Problem]] = {}
    for problem in problems:
        match = _IN_EXAMPLE.match(problem.where)
        if match is None:
            return None
        found.setdefault(int(match.group(1)), []).append(problem)
    return found


def _example_name(item: Any, index: int) -> str:
    """How a broken example is asked for: its id, or its place if it has no usable id."""
    ident = item.get("id") if isinstance(item, dict) else None
    return ident if isinstance(ident, str) and ident else f"examples[{index}]"


def _drop_examples(sources: SourceMap, count: int, drop: set[int]) -> SourceMap:
    """``sources`` with the examples at ``drop`` left out and the later ones moved up.

    The checks and the example runner locate an example by its index, so the
    index of every kept example must stay the index its source is found at.
    """
    kept = [i for i in range(count) if i not in drop]
    moves: dict[DataPath, DataPath] = {
        ("examples", old): ("examples", new) for new, old in enumerate(kept)
    }
    out = SourceMap(
        {p: loc for p, loc in sources.values.items() if p[:1] != ("examples",) or len(p) == 1},
        {p: loc for p, loc in sources.keys.items() if p[:1] != ("examples",) or len(p) == 1},
    )
    out.update(sources.moved(moves))
    return out


def _load(directory: Path, isolate: bool = False) -> LoadedSpec:
    data, sources, problems = _read_files(directory)
    if problems:
        raise SpecError(f"{display_path(directory)}: the spec cannot be read", problems)
    try:
        return _build(directory, data, sources, isolate)
    except BudgetError as exc:
        # the spec asks for more work than any command may do (see rulepress.expressions.budget),
        # located at the entry that ran out when the charge knew it
        where = sources.locate(exc.path) if exc.path else Location(display_path(directory))
        problem = Problem(where, format_path(exc.path) if exc.path else "", exc.message)
        raise SpecError(f"{display_path(directory)}: the spec is too large", [problem]) from None


def _build(directory: Path, data: dict[str, Any], sources: SourceMap, isolate: bool) -> LoadedSpec:
    """The checked spec of data read from ``directory`` (see :func:`load_spec`)."""
    # Imported here, not with the module: a score that finds the spec in the user's
    # cache (rulepress.games.spec_cache) imports this module but never checks a spec,
    # and the checks are a fifth of rulepress's import time.
    from rulepress.checks import check_spec  # noqa: PLC0415
    from rulepress.states import resolve_field_types  # noqa: PLC0415

    broken: dict[str, tuple[Problem, ...]] = {}
    # the index in the files of each example still in data (a problem names that one)
    # (``examples:`` left empty, or not a list, is the model's to report: a located error)
    examples = data.get("examples")
    origin = list(range(len(examples))) if isinstance(examples, list) else []

    def set_aside(found: dict[int, list[Problem]]) -> None:
        # examples that cannot be used, by the name score --example asks for
        nonlocal sources, origin
        items = data["examples"]
        for index, listed in found.items():
            was = f"examples[{origin[index]}]"
            named = [
                Problem(p.location, was + p.where[len(f"examples[{index}]") :], p.message)
                for p in listed
            ]
            broken.setdefault(_example_name(items[index], origin[index]), tuple(named))
        sources = _drop_examples(sources, len(items), set(found))
        data["examples"] = [item for i, item in enumerate(items) if i not in found]
        origin = [o for i, o in enumerate(origin) if i not in found]

    # spelled out here first, outside pydantic (which would take a set past the budget
    # for a fault of the whole spec, at its first line): a BudgetError here is located
    expand(data.get("sets"))
    try:
        spec = Spec.model_validate(data)
    except ValidationError as exc:
        problems = pydantic_problems(exc, sources)
        found = _by_example(problems) if isolate else None
        if found is None:
            raise SpecError(f"{display_path(directory)}: the spec is malformed", problems) from None
        set_aside(found)
        try:
            spec = Spec.model_validate(data)
        except ValidationError as again:  # a fault outside examples that the first hid
            raise SpecError(
                f"{display_path(directory)}: the spec is malformed",
                pydantic_problems(again, sources),
            ) from None
    spec, problems = resolve_field_types(spec, sources)
    if problems:
        raise SpecError(f"{display_path(directory)}: the spec is inconsistent", problems)
    loaded = LoadedSpec(spec, sources, directory)
    problems = check_spec(loaded)
    if problems:
        found = _by_example(problems) if isolate else None
        if found is None:
            raise SpecError(f"{display_path(directory)}: the spec is inconsistent", problems)
        set_aside(found)
        examples = [ex for i, ex in enumerate(spec.examples) if i not in found]
        spec = spec.model_copy(update={"examples": examples})
    return LoadedSpec(spec, sources, directory, broken)
