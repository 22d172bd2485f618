"""Each game's loaded spec, loaded once however often a catalog command asks for it.

The catalog commands need a game's spec in several places: its template's
places (:func:`rulepress.print.budget_check.add_places`), its glossary for QA
(:func:`rulepress.i18n.terms.terms_for`, once per catalog, and once per game
for the interface's catalogs) and its print budgets. Each asked for a load of
its own: ``i18n check`` loaded Brink six times.

A load is kept here under the key of everything it depends on
(:func:`rulepress.games.spec_cache.folder_key`: the bytes of every file of
the game's folder, where the folder is and how messages name it, the
operations installed), worked out again at every request: an edited file is
a new key and a fresh load, never a stale spec. The load itself is
:func:`~rulepress.games.spec_cache.load_spec_cached`, so a warm cache skips
validation too (``RULEPRESS_NO_CACHE`` turns that off as for every load).
A spec with problems is never kept: each request reports them again.
"""

from __future__ import annotations

from collections import OrderedDict
from pathlib import Path

from rulepress.games.spec_cache import folder_key, load_spec_cached
from rulepress.model import LoadedSpec

#: loads kept in a process: a few games, the specs' models being frozen and shared
KEPT = 8

_kept: OrderedDict[str, LoadedSpec] = OrderedDict()


def loaded_spec(directory: Path) -> LoadedSpec:
    """The spec of the game in ``directory`` (its located SpecError if it does not load)."""
    key = folder_key(directory, isolate_examples=False)
    if key is None:  # a folder that cannot be read whole: the load says why (or copes)
        return load_spec_cached(directory)
    found = _kept.get(key)
    if found is not None:
        _kept.move_to_end(key)
        return found
    loaded = load_spec_cached(directory, key=key)
    _kept[key] = loaded
    if len(_kept) > KEPT:
        _kept.popitem(last=False)
    return loaded
