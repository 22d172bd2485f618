"""Each game's places, kept in the user's cache from one command to the next.

Where readers meet each message (:mod:`rulepress.render.places`) is found by
rendering the whole game with every message marked, its site pages and its
print documents: about a second for Brink, asked for by every ``i18n extract``,
``update`` and ``check``. The places depend on two things only, the spec as
loaded and rulepress's own code; so they are kept under a key made of both
(:mod:`rulepress.cache_files`, which says how the cache is kept private) and
found again as long as neither changes. An edited spec, or another version of
rulepress, has another key and renders anew. What is read back is JSON, checked
against its model; anything that does not read back whole is worked out anew
and written over.
"""

from __future__ import annotations

from dataclasses import asdict

from pydantic import BaseModel, TypeAdapter, ValidationError

from rulepress import cache_files
from rulepress.model import LoadedSpec
from rulepress.render.places import Marked, Place, message_places

#: the cache's folder of places
KIND = "places"
#: bumped when what is stored changes shape (the key holds it: older files are not read)
FORMAT = "1"


class _Place(BaseModel, extra="forbid"):
    medium: str
    file: str
    part: str
    chain: tuple[str, ...]
    prefix: str
    block: int


_STORED = TypeAdapter(dict[str, list[_Place]])


def _read(data: bytes) -> dict[str, list[Place]] | None:
    try:
        stored = _STORED.validate_json(data)
    except ValidationError:
        return None
    return {
        context: [Place(**p.model_dump()) for p in places] for context, places in stored.items()
    }


def cached_places(loaded: LoadedSpec, marked: Marked) -> dict[str, list[Place]]:
    """:func:`~rulepress.render.places.message_places`, from the cache when it has them."""
    game = loaded.spec.game.id
    key = cache_files.key(FORMAT, loaded.spec.model_dump_json())
    data = cache_files.read(KIND, game, key)
    found = _read(data) if data is not None else None
    if found is not None and found.keys() == marked.markers.keys():
        return found
    places = message_places(loaded, marked)
    stored = {context: [asdict(p) for p in found] for context, found in places.items()}
    cache_files.write(KIND, game, key, _STORED.dump_json(_STORED.validate_python(stored)))
    return places
