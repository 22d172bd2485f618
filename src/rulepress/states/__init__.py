"""Table-state formats: what a game's table states hold, and checking one against its format.

A spec's ``table_states`` → resolved fields (:mod:`.fields`) → pydantic models and
JSON Schema (:mod:`.models`) → a validated state (:mod:`.validation`, with the
constraints of :mod:`.constraints`, and first the quick path of :mod:`.quick` for a
good state); starter states (:mod:`.template`,
:mod:`.placeholders`) and the reader text inside states (:mod:`.texts`).
"""

from rulepress.states.fields import resolve_field_types
from rulepress.states.models import state_json_schema, state_models
from rulepress.states.template import state_template
from rulepress.states.texts import example_texts, translate_example_texts
from rulepress.states.validation import StateCheck, validate_state

__all__ = [
    "StateCheck",
    "example_texts",
    "resolve_field_types",
    "state_json_schema",
    "state_models",
    "state_template",
    "translate_example_texts",
    "validate_state",
]
