"""What the i18n commands keep in the user's cache: found again, never trusted blindly.

The places of each game's messages (rulepress.render.places_cache) and the
interface's messages from the package's source (rulepress.i18n.extract), kept
by rulepress.cache_files.

Each test goes red when its protection is removed: the cache read (the game is
rendered again), the spec in the key (an edited spec gets the old places), the
model check of what is read back (a damaged file is a traceback), the private
folder check (a link is followed), the removal of a game's older entries.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.catalog import Catalog

from rulepress.games import load_spec
from rulepress.i18n import extract
from rulepress.i18n.catalogs import render
from rulepress.model.loaded import LoadedSpec
from rulepress.render import places_cache
from rulepress.render.places import Place, mark, message_places
from tests.conftest import ROOT, edit, loaded

GAME = "stationfall"


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A cache folder of this test's own, and a count of the renderings."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path / "cache" / "rulepress" / "places"


def _renderings(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    made: list[str] = []

    def counted(game: LoadedSpec, marked: object) -> dict[str, list[Place]]:
        made.append(game.spec.game.id)
        return message_places(game, marked)  # type: ignore[arg-type]

    monkeypatch.setattr(places_cache, "message_places", counted)
    return made


def test_the_places_are_found_again_without_rendering(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = loaded(GAME)
    made = _renderings(monkeypatch)
    first = places_cache.cached_places(game, mark(game))
    again = places_cache.cached_places(game, mark(game))
    assert made == [GAME]
    assert again == first == message_places(game, mark(game))
    (entry,) = cache.iterdir()
    assert entry.name.startswith(f"{GAME}-")
    assert oct(cache.stat().st_mode & 0o777) == "0o700"


def test_an_edited_spec_is_rendered_anew_and_its_older_entry_dropped(
    cache: Path, spec_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = load_spec(spec_copy / GAME)
    made = _renderings(monkeypatch)
    places_cache.cached_places(game, mark(game))
    edit(spec_copy / GAME / "rules.yaml", "title: Winning\n", "title: Who wins\n")
    edited = load_spec(spec_copy / GAME)
    places = places_cache.cached_places(edited, mark(edited))
    assert made == [GAME, GAME]
    assert places == message_places(edited, mark(edited))
    assert len(list(cache.iterdir())) == 1  # the older entry is gone


@pytest.mark.parametrize(
    "damage",
    [b"", b"{", b'{"rules/1/title": [{"medium": 1}]}', b"\xff\xfe", b"[]", b'{"x": []}'],
    ids=["empty", "cut", "wrong-shape", "not-utf8", "a-list", "other-contexts"],
)
def test_a_damaged_entry_is_worked_out_anew_and_replaced(
    cache: Path, monkeypatch: pytest.MonkeyPatch, damage: bytes
) -> None:
    game = loaded(GAME)
    places_cache.cached_places(game, mark(game))
    (entry,) = cache.iterdir()
    entry.write_bytes(damage)
    made = _renderings(monkeypatch)
    assert places_cache.cached_places(game, mark(game)) == message_places(game, mark(game))
    assert made == [GAME]
    assert entry.read_bytes() != damage


def test_a_cache_folder_that_is_a_link_is_neither_read_nor_written(
    cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = loaded(GAME)
    places_cache.cached_places(game, mark(game))
    (entry,) = cache.iterdir()
    # someone else's folder, holding places that say every message is on a page of theirs
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    forged = entry.read_text(encoding="utf-8").replace('"file":"', '"file":"forged-')
    (elsewhere / entry.name).write_text(forged, encoding="utf-8")
    entry.unlink()
    cache.rmdir()
    cache.symlink_to(elsewhere)
    made = _renderings(monkeypatch)
    places = places_cache.cached_places(game, mark(game))
    assert made == [GAME]
    assert not any(p.file.startswith("forged-") for found in places.values() for p in found)
    assert [p.name for p in elsewhere.iterdir()] == [entry.name]  # nothing written there


def test_the_interface_messages_are_found_again_without_reading_the_source(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The interface's template from the cache is the one extracted; a damaged entry is not used."""
    first = extract.interface_template(ROOT)
    (entry,) = (cache.parent / "interface-messages").iterdir()

    def tokenized(*_: object, **__: object) -> list[object]:
        raise AssertionError("the package's source was read again")

    with monkeypatch.context() as patch:
        patch.setattr(extract, "extract_from_dir", tokenized)
        again = extract.interface_template(ROOT)
    assert catalog_bytes(again) == catalog_bytes(first)
    entry.write_bytes(b'[["x", 1, 2, [], null]]')  # a message that is not text
    assert catalog_bytes(extract.interface_template(ROOT)) == catalog_bytes(first)


def catalog_bytes(catalog: Catalog) -> bytes:
    return render(catalog)
