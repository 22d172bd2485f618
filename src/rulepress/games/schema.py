"""JSON Schemas for editors: of the spec format, and of one game's table states.

``rulepress schema`` prints the first so that editors (VS Code's YAML
extension, JetBrains IDEs) validate and complete ``rules_spec/*.yaml``;
``rulepress schema --state GAME`` prints the second for table-state files.
"""

from __future__ import annotations

from typing import Any

from rulepress.model import Spec
from rulepress.model.field_docs import describe_fields
from rulepress.states import state_json_schema, state_models

DRAFT = "https://json-schema.org/draft/2020-12/schema"


def spec_schema() -> dict[str, Any]:
    """The schema of one spec *file*: any subset of the spec's sections."""
    describe_fields()  # the fields' docstrings, read when first shown
    full = Spec.model_json_schema()
    full.pop("required", None)
    full["$schema"] = DRAFT
    full["title"] = "rulepress rules spec file"
    full["description"] = (
        "One YAML file of rules_spec/<game>/. A game's files together must give every "
        "required section: game, rules, table_states and scorer."
    )
    return full


def state_schema(spec: Spec, sequence_id: str | None = None) -> dict[str, Any]:
    """The schema of a table-state file for one of ``spec``'s sequences (default: the scorer's).

    It is the JSON Schema of the pydantic model that validates such states
    (:mod:`rulepress.states.models`), with this file's title around it.
    """
    wanted = sequence_id or spec.scorer.sequence
    seq = next((s for s in spec.sequences if s.id == wanted), None)
    if seq is None:
        known = ", ".join(s.id for s in spec.sequences)
        raise ValueError(f"{spec.game.id} has no sequence {wanted!r} (sequences: {known})")
    fmt = spec.table_states[seq.state]
    models = state_models(fmt, spec.parameters, spec.game.id, seq.id)
    schema = state_json_schema(models)
    return {"$schema": DRAFT, "title": f"{spec.game.title} table state", **schema}
