"""The author's reference: generated from the code, and every example on it true.

The page (rulepress.reference) cannot drift from the code it documents, and
these tests keep it complete: every operation and step kind has a runnable
example whose stated result the scorer gives, every expression field of the
model is seen by the scope recorder, every name rulepress puts in a scope is
described, and every field, function and bound has its description.
"""

from __future__ import annotations

import typing
from collections.abc import Iterator

import pytest
import yaml
from pydantic import BaseModel

from rulepress.checks import sequences as check_sequences
from rulepress.expressions import bounds as expression_bounds
from rulepress.expressions.expression import BASE_NAMES
from rulepress.expressions.runtime import IMPLEMENTATIONS, described
from rulepress.expressions.syntax import CONTEXT_ARITY
from rulepress.games.load import load_spec
from rulepress.model.field_docs import describe_fields
from rulepress.model.loaded import LoadedSpec
from rulepress.model.sets import resolving
from rulepress.model.spec_model import EXPR, Constraint, FieldSpec, StateFormat, Step
from rulepress.reference import author_reference, examples, page, scopes
from rulepress.scoring.examples import check_examples
from rulepress.states.fields import resolve_field
from rulepress.yamlsrc.reader import DataPath

EXAMPLE_NAMES = [e.name for e in examples.all_examples()]


@pytest.fixture(scope="module")
def game() -> Iterator[LoadedSpec]:
    with examples.reference_game() as directory:
        yield load_spec(directory)


@pytest.fixture(scope="module")
def places(game: LoadedSpec) -> list[scopes.Place]:
    return scopes.scopes(game)


@pytest.fixture(scope="module")
def reference() -> str:
    return author_reference()


def test_every_example_gives_the_result_it_states(game: LoadedSpec) -> None:
    assert check_examples(game) == []


def test_a_wrong_stated_result_is_caught(tmp_path: object) -> None:
    """The check above can fail: an example that states a wrong total is reported."""
    first = next(e for e in examples.all_examples() if e.name == "sum")
    wrong = examples.Example(**{**first.__dict__, "expect": first.expect.replace("8", "9", 1)})
    with examples.reference_game((wrong,)) as directory:
        problems = check_examples(load_spec(directory))
    assert [p.message for p in problems] == [
        "Ada pairs_score: the text states 9, the scorer gives 8"
    ]


def test_every_operation_and_step_kind_has_an_example() -> None:
    ops = [page._op_name(m) for m in page.operations()]
    wanted = {op for op in ops if op is not None} | set(page.STEP_KINDS) - {"score"}
    assert wanted <= set(EXAMPLE_NAMES)


@pytest.mark.parametrize("example", examples.all_examples(), ids=EXAMPLE_NAMES)
def test_the_page_shows_each_example_and_what_it_states(
    reference: str, example: examples.Example
) -> None:
    assert example.steps.rstrip() in reference
    assert example.state.rstrip() in reference
    assert example.expect.rstrip() in reference


def _models(tp: object) -> Iterator[type[BaseModel]]:
    yield from page._models(tp)


def _expression_fields() -> set[tuple[str, str]]:
    """(model, field) for every expression field a step can hold, however deep."""
    found: set[tuple[str, str]] = set()
    seen: set[type[BaseModel]] = set()
    # a step's fields, and a state format's (its constraints)
    todo: list[type[BaseModel]] = [Step, StateFormat]
    while todo:
        model = todo.pop()
        if model in seen:
            continue
        seen.add(model)
        for name, info in model.model_fields.items():
            inner = typing.get_args(info.annotation)
            if EXPR in info.metadata or any(EXPR in getattr(a, "__metadata__", ()) for a in inner):
                found.add((model.__name__, name))
            todo.extend(_models(info.annotation))
    found.discard(("PluginComponent", "op"))
    return found


def test_the_examples_reach_every_expression_field(game: LoadedSpec) -> None:
    """A new field or operation without an example would leave its scope out of the page."""
    recorded: list[DataPath] = []
    from rulepress.checks.checker import check_spec

    check_spec(game, on_expression=lambda path, names: recorded.append(path))
    reached: set[tuple[str, str]] = set()
    for path in recorded:
        objects = scopes._walk(game.spec, path)
        for obj, part in zip(objects, path, strict=False):
            if isinstance(obj, BaseModel) and isinstance(part, str):
                reached.add((type(obj).__name__, part))
    assert _expression_fields() - reached == set()


def test_every_name_in_a_scope_is_documented(places: list[scopes.Place]) -> None:
    assert scopes.undocumented(places) == set()
    assert {"total", "chosen", "index", "multipliers", "winners", "param", "ruling"} <= {
        name for place in places for name in place.fixed
    }


def test_a_name_added_to_the_scopes_is_caught(
    game: LoadedSpec, monkeypatch: pytest.MonkeyPatch
) -> None:
    """If the check starts to give a name the reference does not describe, it is named."""
    monkeypatch.setattr(check_sequences, "BASE_NAMES", BASE_NAMES | {"rank"})
    assert scopes.undocumented(scopes.scopes(game)) == {"rank"}


def test_the_spec_given_names_are_told_apart(places: list[scopes.Place]) -> None:
    by_place = {p.where: p for p in places}
    lines = by_place["score · `lines` · value"]
    assert lines.binders == {"`item` (default `line`)"}
    assert "fields" in lines.kinds
    assert "goal" not in lines.fixed
    assert "goals" not in lines.fixed
    assert "lets" in by_place["score · `sum` · parts[].value"].kinds
    assert "winners" in by_place["tally.ballots[].route"].fixed
    # a constraint per member: its member's name and its let names are the spec's own
    test = by_place["state format · players.constraints[].test"]
    assert test.binders == {"`item` (default `item`)"}
    assert "lets" in test.kinds
    assert {"guild", "goal", "cast"} & test.fixed == set()


def test_every_field_of_a_step_or_operation_is_described() -> None:
    describe_fields()  # as the page does: the descriptions are read when first shown
    models: list[type[BaseModel]] = [Step, *page.operations(), Constraint, FieldSpec]
    models += [next(iter(_models(Step.model_fields[k].annotation))) for k in page.STEP_KINDS]
    models += page.nested(models)
    missing = [
        f"{m.__name__}.{name}"
        for m in models
        for name, info in m.model_fields.items()
        if not info.description
    ]
    assert missing == []


REFUSING = [e for e in examples.all_examples() if e.refused]


@pytest.mark.parametrize("example", REFUSING, ids=[e.name for e in REFUSING])
def test_the_page_shows_what_each_refused_state_is_told(
    game: LoadedSpec, reference: str, example: examples.Example
) -> None:
    """Each check per member reports each failing member, at its place, as the page shows."""
    lines = page._refusal(game, example)
    assert lines, f"the {example.name} example's refused state is not refused"
    assert example.refused.rstrip() in reference
    assert example.constraints.rstrip() in reference
    for line in lines:
        assert line in reference
    assert {e.name: len(page._refusal(game, e)) for e in REFUSING} == {"lines": 2, "tally": 2}
    assert "players[0].goals[1]: Gate is blocked but not met" in reference


def test_the_page_shows_a_record_keyed_by_a_set(reference: str) -> None:
    """The example of `keys` on the page is a record the loader makes a field per member of."""
    data = yaml.safe_load(page.KEYED_RECORD)
    assert page.KEYED_RECORD.rstrip() in reference
    assert "| `keys` | `sets.<name>` (its members" in reference
    with resolving(data):
        shared = {n: FieldSpec.model_validate(f) for n, f in data["field_types"].items()}
        raw = data["table_states"]["table"]["players"]["fields"]["influence"]
        influence = resolve_field(FieldSpec.model_validate(raw), shared)
    assert list(influence.fields) == ["red", "blue", "green"]
    assert {f.default for f in influence.fields.values()} == {0}


def test_every_function_and_bound_is_described(reference: str) -> None:
    assert set(described()) == set(IMPLEMENTATIONS)
    assert all(described().values())
    assert set(CONTEXT_ARITY) <= set(scopes.names())
    bounds = {name for name in vars(expression_bounds) if name.startswith("MAX_")}
    assert {name for name, _, _ in page.limits()} == bounds
    for name in [*IMPLEMENTATIONS, *CONTEXT_ARITY, *bounds]:
        assert f"`{name}`" in reference


@pytest.mark.parametrize(
    ("arity", "args"), [((1, 1), "1"), ((1, None), "1 or more"), ((1, 3), "1 to 3")]
)
def test_a_function_row_says_how_many_arguments(arity: tuple[int, int | None], args: str) -> None:
    # the fixed functions and the scorer's share the row: a scorer's function taking
    # any number of arguments once read "1 to None"
    assert page._function_rows({"f": arity}, {"f": "What f gives."}) == [
        f"| `f` | {args} | What f gives. |"
    ]


def test_the_named_sets_are_documented_from_the_code(reference: str) -> None:
    assert {"Tally.candidates", "SetsComponent.kinds", "FieldSpec.choices"} <= set(
        page.set_places()
    )
    assert "sets:\n  factions:" in reference


def test_the_reference_does_not_import_sphinx() -> None:
    import subprocess
    import sys

    code = (
        "import sys, rulepress.reference as r; r.author_reference();"
        "print(sorted(m for m in ('sphinx', 'docutils', 'click') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
