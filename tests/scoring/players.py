"""Stationfall players for tests that build table states by hand."""

from __future__ import annotations

from typing import Any


def stationfall_player(pid: str, **extra: Any) -> dict[str, Any]:
    """A player nothing scores for but what ``extra`` gives (a live Friend, all 8 cubes
    in the supply, no Agenda line), an innocent Pilot with an Influence Limit of 5."""
    return {
        "id": pid,
        "identity": "Pilot",
        "influence_limit": 5,
        "character": {"state": "live"},
        "bonus_character": {"name": "Boarder", "kind": "friend", "symbols": 1, "state": "live"},
        "guilt": "innocent",
        "agenda": [],
        "cubes": {"supply": 8, "on_cards": 0, "betrayal_box": 0},
        **extra,
    }
