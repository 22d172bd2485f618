"""A game's spec folder as a whole: load and check it, start one, and what is derived from it.

``rules_spec/<game>/`` → a checked :class:`~rulepress.model.LoadedSpec`
(:mod:`.load`, the top of the stage packages: YAML, model, states, checks); a new
game (:mod:`.scaffold`); JSON Schemas (:mod:`.schema`); its translatable
messages (:mod:`.messages`); its provenance report (:mod:`.provenance_report`).
"""

from rulepress.games.load import load_spec
from rulepress.games.messages import Message, messages_in
from rulepress.games.provenance_report import provenance_report
from rulepress.games.scaffold import new_game
from rulepress.games.schema import spec_schema, state_schema
from rulepress.model import LoadedSpec
from rulepress.yamlsrc import find_game_dirs

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
