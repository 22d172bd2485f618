"""The spec's fields are described by their docstrings, read when first shown (model.field_docs).

The models do not read their classes' source as they are made (that was most
of the cost of importing them); the JSON Schema and the author's reference
read the docstrings when they show them, and must show every one, even when
a spec was loaded (and the models' validators built) before.
"""

from __future__ import annotations

import json
import subprocess
import sys

from rulepress.games import load_spec, spec_schema
from rulepress.model.field_docs import describe_fields, spec_models
from rulepress.model.spec_model import Draw, Spec
from tests.conftest import SPEC_ROOT


def _weights_description(schema: dict[str, object]) -> object:
    draw = schema["$defs"]["Draw"]  # type: ignore[index]
    return draw["properties"]["weights"].get("description")  # type: ignore[index]


def test_the_schema_made_after_a_spec_was_loaded_has_every_description() -> None:
    load_spec(SPEC_ROOT / "stationfall")  # builds the models' validators first
    schema = spec_schema()
    description = _weights_description(schema)
    assert isinstance(description, str)
    assert description.startswith("Value → its relative weight")
    assert Draw.model_fields["weights"].description == description


def test_every_field_of_the_spec_models_has_the_description_pydantic_would_give() -> None:
    describe_fields()
    # pydantic's own reading of the docstrings (what use_attribute_docstrings gave), in a
    # process of its own, of each class that declares fields, base classes first
    code = (
        "import json, sys\n"
        "from pydantic.config import ConfigDict\n"
        "from pydantic._internal._docs_extraction import extract_docstrings_from_cls as ex\n"
        "from rulepress.model.field_docs import spec_models\n"
        "out = {}\n"
        "for name, model in spec_models().items():\n"
        "    docs = {}\n"
        "    for cls in reversed(model.__mro__):\n"
        "        if cls.__module__.startswith('rulepress'):\n"
        "            own = ex(cls, use_inspect=True)\n"
        "            docs.update({k: v for k, v in own.items() if k in cls.__annotations__})\n"
        "    out[name] = {f: docs.get(f) for f in model.model_fields}\n"
        "json.dump(out, sys.stdout)\n"
    )
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    expected = json.loads(shown.stdout)
    described = {
        name: {f: info.description for f, info in model.model_fields.items()}
        for name, model in spec_models().items()
    }
    assert described == expected
    assert any(d for fields in described.values() for d in fields.values())
    assert Spec in spec_models().values()
