"""No traceback, whatever the input: generated table states and mutated specs.

A table state drawn from a sequence's format is mutated (keys deleted, types
swapped, junk values of any YAML type put in, keys renamed, list items
repeated), written as a YAML file and taken the way ``rulepress score`` takes
it: read, checked, scored and reported as text in every language and as
JSON. A real spec file is mutated the same way (or cut, or has lines removed
or repeated) and loaded the way ``rulepress validate`` loads it, its worked
examples run. The only exceptions allowed are rulepress's own errors, which
the CLI prints as located lines.
"""

from __future__ import annotations

import random
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import assume, given
from hypothesis import strategies as st

from rulepress.errors import RulepressError
from rulepress.games import load_spec
from rulepress.i18n.runtime import Localized, localize
from rulepress.render.score_text import render_text
from rulepress.scoring import score
from rulepress.scoring.examples import check_examples
from rulepress.scoring.result import to_json
from rulepress.scoring.state import check_state, load_state
from rulepress.yamlsrc import spec_files
from rulepress.yamlsrc.reader import SourceMap
from tests.conftest import GAME_LANGUAGES, GAMES, LANGUAGES, LOCALES, SPEC_ROOT, loaded
from tests.properties.strategies import MUTATION, mutate, raw_states, sequence, sequences

#: the C emitter where PyYAML has it: a spec file is tens of KiB, written once per example
_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)

_local: dict[tuple[str, str], Localized] = {}


def localized(game: str, lang: str) -> Localized:
    if (game, lang) not in _local:
        _local[game, lang] = localize(loaded(game), lang, LOCALES)
    return _local[game, lang]


def reported(job: Callable[[], object]) -> str:
    """What the CLI would print: the error's located lines, or "ok" (any other exception escapes)."""
    try:
        job()
    except RulepressError as exc:
        return exc.render()
    return "ok"


def dump(data: Any) -> str:
    return yaml.dump(data, Dumper=_DUMPER, allow_unicode=True, sort_keys=False)


@pytest.mark.parametrize(
    ("game", "seq_id"), [pytest.param(g, s, id=f"{g}/{s}") for g, s in sequences()]
)
@given(
    data=st.data(),
    mutations=st.lists(MUTATION, max_size=4),
    lang=st.sampled_from(LANGUAGES),
)
def test_no_traceback_on_any_table_state(
    game: str, seq_id: str, data: st.DataObject, mutations: list[Any], lang: str
) -> None:
    assume(lang in GAME_LANGUAGES[game])  # a game is shown in its own languages only
    local = localized(game, lang)
    seq = sequence(local.loaded, seq_id)
    wild = mutate(data.draw(raw_states(local.loaded, seq), label="state"), mutations)
    # as plain data first: what a program passing a state in, not a file, could give
    assert reported(lambda: check_state(local.loaded, wild, SourceMap(), "wild"))

    def as_the_cli_does() -> None:
        state = load_state(local.loaded, path)
        result = score(local.loaded, state, renderer=local.renderer)
        assert render_text(result, local.loaded.spec, local.renderer.translate)
        assert to_json(result)

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "table.yaml"
        path.write_text(dump(wild), encoding="utf-8")
        assert reported(as_the_cli_does)


#: how a spec file's text may be damaged besides its data: cut short, a line lost or doubled
TEXT_DAMAGE = st.tuples(st.sampled_from(["cut", "drop", "double"]), st.floats(0, 1))


def _damaged(text: str, kind: str, where: float) -> str:
    lines = text.splitlines(keepends=True)
    at = int(where * len(lines)) if lines else 0
    if kind == "cut":
        return text[: int(where * len(text))]
    if kind == "drop":
        return "".join(lines[:at] + lines[at + 1 :])
    return "".join(lines[: at + 1] + lines[at:])


@pytest.mark.parametrize("game", GAMES)
@given(
    file_index=st.integers(0, 100),
    mutations=st.lists(MUTATION, min_size=1, max_size=3),
    damage=st.none() | TEXT_DAMAGE,
)
def test_no_traceback_on_a_mutated_spec(
    game: str, file_index: int, mutations: list[Any], damage: tuple[str, float] | None
) -> None:
    files = spec_files(SPEC_ROOT / game)
    target = files[file_index % len(files)]
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / game
        shutil.copytree(SPEC_ROOT / game, copy)
        if damage is None:
            data = yaml.load(target.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
            text = dump(mutate(data, mutations))
        else:
            text = _damaged(target.read_text(encoding="utf-8"), *damage)
        (copy / target.name).write_text(text, encoding="utf-8")
        assert reported(lambda: check_examples(load_spec(copy)))  # what `validate` runs


def test_a_dumped_spec_loads_as_the_original() -> None:
    # the mutations start from a spec written back by PyYAML: unmutated, it is the same spec
    game = random.Random(13).choice(GAMES)
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / game
        shutil.copytree(SPEC_ROOT / game, copy)
        for path in spec_files(copy):
            data = yaml.load(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
            path.write_text(dump(data), encoding="utf-8")
        assert load_spec(copy).spec == loaded(game).spec
