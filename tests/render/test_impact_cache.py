"""The weight of each ruling option: worked out once per spec, then read back from the cache.

Each test goes red when its protection is removed: the cache read (a second
build scores the tables again), the spec, the sample's size or the seed in the
key (an edited spec, or another sample, gets the old figures), the model
check of what is read back (a damaged file is a traceback).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rulepress.games import load_spec
from rulepress.impact import question
from rulepress.render import impact_cache
from tests.conftest import edit

GAME = "stationfall"
#: a handful of tables: what is tested is when they are scored, not what they show
TABLES = 4


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A cache folder of this test's own."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path / "cache" / "rulepress" / impact_cache.KIND


def _scorings(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every table the impact questions score (in this process: one worker)."""
    scored: list[str] = []
    real = question.score

    def counted(loaded: Any, state: Any, **kw: Any) -> Any:
        scored.append(loaded.spec.game.id)
        return real(loaded, state, **kw)

    monkeypatch.setattr(question, "score", counted)
    return scored


def _weigh(game_dir: Path, **kw: Any) -> dict[str, Any]:
    return impact_cache.option_reports(load_spec(game_dir), workers=1, **{"tables": TABLES, **kw})


def test_the_same_spec_is_not_scored_again(
    cache: Path, spec_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    scored = _scorings(monkeypatch)
    first = _weigh(spec_copy / GAME)
    assert scored, "the first build scores the drawn tables"
    count = len(scored)
    again = _weigh(spec_copy / GAME)
    assert len(scored) == count
    assert again == first
    spec = load_spec(spec_copy / GAME).spec
    assert first.keys() == {o.id for r in spec.rulings for o in r.options if o.id != r.default}
    assert all(
        r.tables == TABLES and r.population.seed == impact_cache.SEED for r in first.values()
    )
    (entry,) = cache.iterdir()
    assert oct(cache.stat().st_mode & 0o777) == "0o700"
    assert entry.name.startswith(f"{GAME}.rulings-")


def test_an_edited_spec_is_scored_anew(
    cache: Path, spec_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _weigh(spec_copy / GAME)
    scored = _scorings(monkeypatch)
    edit(spec_copy / GAME / "rules.yaml", "title: Winning\n", "title: Who wins\n")
    _weigh(spec_copy / GAME)
    assert scored
    assert len(list(cache.iterdir())) == 1  # the older entry is gone


@pytest.mark.parametrize("other", [{"tables": TABLES + 1}, {"seed": 2}], ids=["size", "seed"])
def test_another_sample_is_scored_anew(
    cache: Path, spec_copy: Path, monkeypatch: pytest.MonkeyPatch, other: dict[str, int]
) -> None:
    _weigh(spec_copy / GAME)
    scored = _scorings(monkeypatch)
    reports = _weigh(spec_copy / GAME, **other)
    assert scored
    report = next(iter(reports.values()))
    assert (report.tables, report.population.seed) == (
        other.get("tables", TABLES),
        other.get("seed", impact_cache.SEED),
    )


@pytest.mark.parametrize("damage", [b"", b"{", b'{"x": 1}', b"\xff\xfe", b"[]"])
def test_a_damaged_entry_is_worked_out_anew(
    cache: Path, spec_copy: Path, monkeypatch: pytest.MonkeyPatch, damage: bytes
) -> None:
    first = _weigh(spec_copy / GAME)
    (entry,) = cache.iterdir()
    entry.write_bytes(damage)
    scored = _scorings(monkeypatch)
    assert _weigh(spec_copy / GAME) == first
    assert scored
