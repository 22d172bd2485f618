"""A game's spec folder as a whole: load and check it, start one, and what is derived from it.

``rules_spec/<game>/`` → a checked :class:`~rulepress.model.LoadedSpec`
(:mod:`.load`, the top of the stage packages: YAML, model, states, checks), kept
in the user's cache between commands (:mod:`.spec_cache`); a new game
(:mod:`.scaffold`); JSON Schemas (:mod:`.schema`); its translatable messages
(:mod:`.messages`); its provenance report (:mod:`.provenance_report`).

Each name is imported from its module when it is first asked for (PEP 562):
``rulepress score`` uses a few of them and should not pay for the rest.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rulepress.games.load import load_spec
    from rulepress.games.messages import Message, messages_in
    from rulepress.games.provenance_report import provenance_report
    from rulepress.games.scaffold import new_game
    from rulepress.games.schema import spec_schema, state_schema
    from rulepress.model import LoadedSpec
    from rulepress.yamlsrc import find_game_dirs

#: the module each public name comes from
_MODULES = {
    "LoadedSpec": "rulepress.model",
    "Message": "rulepress.games.messages",
    "find_game_dirs": "rulepress.yamlsrc",
    "load_spec": "rulepress.games.load",
    "messages_in": "rulepress.games.messages",
    "new_game": "rulepress.games.scaffold",
    "provenance_report": "rulepress.games.provenance_report",
    "spec_schema": "rulepress.games.schema",
    "state_schema": "rulepress.games.schema",
}

__all__ = [
    "LoadedSpec",
    "Message",
    "find_game_dirs",
    "load_spec",
    "messages_in",
    "new_game",
    "provenance_report",
    "spec_schema",
    "state_schema",
]


def __getattr__(name: str) -> Any:
    module = _MODULES.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # asked once per process
    return value
