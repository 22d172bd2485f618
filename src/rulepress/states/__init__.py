"""Table-state formats: what a game's table states hold, and checking one against its format.

A spec's ``table_states`` → resolved fields (:mod:`.fields`) → pydantic models and
JSON Schema (:mod:`.models`) → a validated state (:mod:`.validation`, with the
constraints of :mod:`.constraints`, and first the quick path of :mod:`.quick` for a
good state); starter states (:mod:`.template`,
:mod:`.placeholders`) and the reader text inside states (:mod:`.texts`).

The names below are imported from their modules when first asked for: checking a
state (``rulepress score``) imports :mod:`.validation` alone, not the starter
states' modules (difflib …) nor the reader text's.
"""

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rulepress.states.fields import resolve_field_types
    from rulepress.states.models import state_json_schema, state_models
    from rulepress.states.template import state_template
    from rulepress.states.texts import example_texts, translate_example_texts
    from rulepress.states.validation import StateCheck, validate_state

#: each name of the package, and the module it comes from
_MODULES = {
    "StateCheck": "validation",
    "example_texts": "texts",
    "resolve_field_types": "fields",
    "state_json_schema": "models",
    "state_models": "models",
    "state_template": "template",
    "translate_example_texts": "texts",
    "validate_state": "validation",
}

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


def __getattr__(name: str) -> Any:
    """One of the package's names, imported from its module (PEP 562)."""
    module = _MODULES.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value
