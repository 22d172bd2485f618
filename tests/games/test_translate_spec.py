"""A spec translated over its validated models is the spec its translated data validates to.

``translate_spec`` walks the validated spec and copies only what a translation
changes; ``translate_data`` walks the spec's dump, and validating its result
made the translated spec before. The two must agree on every value and on
each value's type (a named set's labels stay a SetLabels, from the translated
vocabulary), and look up the same messages, once each.
"""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel

from rulepress.games import spec_data
from rulepress.games.messages import translate_data, translate_spec
from rulepress.model import Spec
from rulepress.model.declared import Declared
from tests.conftest import GAMES, loaded


def same_types(a: Any, b: Any, where: str = "spec") -> None:
    """``a`` and ``b`` hold values of the same types all the way down.

    (An expression declared with its parts is a Declared in the spec a fresh load
    gives, and a plain text once dumped and validated again: a text either way.)
    """
    kinds = {type(a), type(b)}
    if Declared in kinds:
        assert kinds <= {Declared, str}, where
        return
    assert type(a) is type(b), where
    if isinstance(a, BaseModel):
        for name in type(a).model_fields:
            same_types(a.__dict__[name], b.__dict__[name], f"{where}.{name}")
    elif isinstance(a, list | tuple):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            same_types(x, y, f"{where}[{i}]")
    elif isinstance(a, dict):
        assert a.keys() == b.keys(), where
        for key in a:
            same_types(a[key], b[key], f"{where}[{key!r}]")


@pytest.mark.parametrize("game", GAMES)
def test_the_translated_spec_is_the_validated_translation(game: str) -> None:
    spec = loaded(game).spec
    before = spec_data.as_data(spec)
    asked: dict[str, list[tuple[str, str]]] = {"data": [], "objects": []}

    def lookup(kind: str) -> Any:
        def find(context: str, text: str) -> str | None:
            asked[kind].append((context, text))
            # about half the messages translated, so that some stay English
            return None if len(context) % 2 else f"«{text}» ({context})"

        return find

    data = Spec.model_validate(translate_data(spec.model_dump(), lookup("data")))
    objects = translate_spec(spec, lookup("objects"))
    assert objects == data
    same_types(objects, data)
    assert sorted(asked["objects"]) == sorted(asked["data"])
    # not vacuous, for any game (a designer's may have few messages): texts both translated
    # and left in English were walked
    contexts = {context for context, _ in asked["objects"]}
    assert {len(context) % 2 for context in contexts} == {0, 1}
    assert spec_data.as_data(spec) == before  # the English spec is left as it was
