"""The translatable messages of a spec, found by walking its data by type.

Every string field marked as prose in :mod:`rulepress.model.spec_model` is a
message. The walk is directed by the model's type annotations over *plain
data*, so it works on one YAML file at a time (what ``pybabel extract``
hands an extractor) as well as on a whole spec.

Each message has a stable context (``msgctxt``) made of ids and rule or
step numbers, never list positions where an id exists, so that moving a rule
within a file does not invalidate its translation:
``rules/16.4.8/title``, ``glossary/betrayal-box/definition``,
``sequences/stationfall-sequence/steps/4a/text``. A text of several
paragraphs becomes one message per paragraph (``…/text#2``): translators
work paragraph by paragraph and an edit invalidates only its paragraph.

The same walk applies translations (:func:`translate_data`), which gives a
spec in another language with the same structure and the same numbers.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any

from pydantic import BaseModel

from rulepress.model.sets import SetLabels
from rulepress.model.spec_model import COMPONENT, PROSE, Spec, component_union
from rulepress.model.text import refs
from rulepress.states.texts import example_texts, translate_example_texts, translated_state
from rulepress.yamlsrc import DataPath, SourceMap, format_path

#: the comment on a text from an example's table state
_STATE_TEXT_NOTE = (
    "From the worked example's table state (a text the state format marks translate: true),"
    " quoted in the example's score breakdown."
)
#: sections that are for spec authors only (their prose is only choice labels)
_AUTHOR_SECTIONS = frozenset({"field_types"})


@dataclass(frozen=True, slots=True)
class Message:
    """One translatable text: its stable context, the English text, where it is."""

    context: str
    text: str
    path: DataPath
    comments: tuple[str, ...]


Visitor = Callable[[str, str, DataPath, tuple[str, ...]], str | None]


def paragraphs(text: str) -> list[str]:
    """A text's paragraphs (blank-line separated), each on one line per list item.

    Line breaks inside a paragraph are only how the YAML was wrapped, so they
    are folded into spaces: translators see whole sentences, and re-wrapping a
    spec file does not change its messages. A bullet list keeps one line per
    item.
    """
    out = []
    for block in text.strip().split("\n\n"):
        items: list[str] = []
        for line in block.strip().splitlines():
            stripped = line.strip()
            if not stripped:
                continue
            if stripped.startswith("- ") or not items:
                items.append(stripped)
            else:
                items[-1] += " " + stripped
        if items:
            out.append("\n".join(items))
    return out


def _unwrap(tp: Any) -> tuple[Any, bool]:
    """The type inside Annotated/Optional, and whether it was marked as prose."""
    prose = False
    while True:
        origin = typing.get_origin(tp)
        if origin is typing.Annotated:
            args = typing.get_args(tp)
            if any(m is COMPONENT for m in args[1:]):
                # a score's component: the union of the operations installed, whose models
                # mark their texts as the spec's do (a plugin's too)
                tp = component_union()
                continue
            prose = prose or any(m is PROSE for m in args[1:])
            tp = args[0]
            continue
        if origin in (typing.Union, types.UnionType):
            members = [a for a in typing.get_args(tp) if a is not type(None)]
            if len(members) == 1:
                tp = members[0]
                continue
        return tp, prose


def _pick_member(tp: Any, value: Any) -> Any:
    """For a union of models, the member whose ``op`` literal matches the data."""
    for member in typing.get_args(tp):
        inner, _ = _unwrap(member)
        if isinstance(inner, type) and issubclass(inner, BaseModel):
            field = inner.model_fields.get("op")
            if field is None:
                return inner
            if isinstance(value, dict) and value.get("op") in typing.get_args(field.annotation):
                return inner
    return None


def _segment(item: Any, index: int) -> str:
    if isinstance(item, dict):
        for key in ("number", "id", "name"):
            value = item.get(key)
            if isinstance(value, str):
                return value
    return str(index)


def _join(ctx: tuple[str, ...], field: str, key: str) -> tuple[str, ...]:
    # rules inside rules and steps inside steps keep only the innermost number
    if len(ctx) >= 2 and ctx[-2] == field:
        return (*ctx[:-1], key)
    return (*ctx, field, key)


def _walk(
    data: Any,
    tp: Any,
    ctx: tuple[str, ...],
    path: DataPath,
    notes: tuple[str, ...],
    visit: Visitor,
) -> Any:
    tp, prose = _unwrap(tp)
    if prose and isinstance(data, str):
        return _translated_text(data, ctx, notes, visit, path)
    origin = typing.get_origin(tp)
    if isinstance(tp, type) and issubclass(tp, BaseModel) and isinstance(data, dict):
        note = data.get("translator_note")
        # an author's note belongs to this part's own texts, not to the parts nested in it
        own = (*notes, note) if isinstance(note, str) and note else notes
        out_map = dict(data)
        for key, value in data.items():
            field = tp.model_fields.get(key)
            if field is None or (not ctx and key in _AUTHOR_SECTIONS):
                continue
            annotation: Any = field.annotation
            if field.metadata:
                annotation = typing.Annotated[(annotation, *field.metadata)]
            inherited = own if isinstance(value, str) else notes
            out_map[key] = _walk(value, annotation, (*ctx, key), (*path, key), inherited, visit)
        for key, field in tp.model_fields.items():
            # a sentence the model supplies when the spec leaves it out is shown to
            # readers too (e.g. the note on wild units): it is a message of the part
            # it belongs to, with that part's context and location
            if key in data or not isinstance(field.default, str) or not field.default:
                continue
            annotation = field.annotation
            if field.metadata:
                annotation = typing.Annotated[(annotation, *field.metadata)]
            if _unwrap(annotation)[1]:
                out_map[key] = _walk(
                    field.default, annotation, (*ctx, key), (*path, key), own, visit
                )
        return out_map
    if origin is list and isinstance(data, list):
        (item_tp,) = typing.get_args(tp)
        field_name = ctx[-1] if ctx else ""
        out_list = []
        for i, item in enumerate(data):
            item_ctx = _join(ctx[:-1], field_name, _segment(item, i)) if ctx else (str(i),)
            out_list.append(_walk(item, item_tp, item_ctx, (*path, i), notes, visit))
        return out_list
    if origin is dict and isinstance(data, dict):
        _, value_tp = typing.get_args(tp)
        return {
            k: _walk(v, value_tp, (*ctx, str(k)), (*path, k), notes, visit) for k, v in data.items()
        }
    if origin in (typing.Union, types.UnionType) and isinstance(data, dict):
        member = _pick_member(tp, data)
        if member is not None:
            return _walk(data, member, ctx, path, notes, visit)
    return data


def messages_in(
    data: dict[str, Any],
    sources: SourceMap | None = None,
    params: dict[str, int] | None = None,
    game: Mapping[str, Any] | None = None,
) -> Iterator[tuple[Message, int]]:
    """Every message of spec data (a whole spec or one file), with its source line.

    ``game``: the game's other top-level sections, when ``data`` is one
    file of it: the state formats that tell which values of an example's
    state are translated (see :mod:`rulepress.states.texts`).
    """
    found: list[tuple[Message, int]] = []

    def visit(context: str, text: str, path: DataPath, notes: tuple[str, ...]) -> None:
        comments = [f"YAML: {format_path(path)}", *notes]
        hints = []
        for ref in refs(text):
            if ref.kind == "param" and params and ref.target in params:
                hints.append(f"{{param:{ref.target}}} = {params[ref.target]}")
                if ref.forms:
                    # the catalog holds it as a plural entry or in ICU (i18n.catalog_shapes)
                    hints.append(
                        f"the words next to {{param:{ref.target}}} agree with it: give them"
                        " in every plural form of your language"
                    )
            elif ref.kind == "arg":
                hints.append(f"{{{ref.target}}} is filled in by the scorer")
        if hints:
            comments.append("Placeholders: " + "; ".join(dict.fromkeys(hints)))
        line = sources.locate(path).line if sources else 0
        found.append((Message(context, text, path, tuple(comments)), line))

    _walk(data, Spec, (), (), (), _collect(visit))
    for context, path, text in example_texts({**(game or {}), **data}):
        visit(context, text, path, (_STATE_TEXT_NOTE,))
    yield from found


def _collect(visit: Callable[[str, str, DataPath, tuple[str, ...]], None]) -> Visitor:
    def wrapper(context: str, text: str, path: DataPath, notes: tuple[str, ...]) -> None:
        visit(context, text, path, notes)

    return wrapper


def translate_spec(spec: Spec, lookup: Callable[[str, str], str | None]) -> Spec:
    """``spec`` with every message replaced by ``lookup(context, text)`` when given.

    The spec that ``Spec.model_validate(translate_data(spec.model_dump(), lookup))``
    gives (a test holds the two equal for every game and language), made without
    pydantic: dumping and validating a whole spec built its serializer and its
    validator first, about a seventh of a ``rulepress score`` in Czech. The same
    walk as :func:`translate_data`, over the validated spec: a part is copied
    (``model_copy``, which validates nothing) only where a text of it changes,
    and every other value is the English spec's own. A named set's labels
    (:class:`~rulepress.model.sets.SetLabels`) are the translated vocabulary's
    words, as validating the translated data resolves them.
    """

    def visit(context: str, text: str, path: DataPath, notes: tuple[str, ...]) -> str | None:
        return lookup(context, text)

    # the vocabulary first (each text is looked up once: the lookup counts what is missing)
    vocabulary = _Objects(visit, {}, {}).value(
        spec.vocabulary, Spec.model_fields["vocabulary"].annotation, ("vocabulary",), ()
    )
    done = {"vocabulary": vocabulary}
    translated = _Objects(visit, vocabulary, done).value(spec, Spec, (), ())
    assert isinstance(translated, Spec)
    examples = []
    for example in translated.examples:
        sequence = example.sequence or translated.scorer.sequence
        fmt = next(
            (
                translated.table_states.get(s.state)
                for s in translated.sequences
                if s.id == sequence
            ),
            None,
        )
        state = (
            example.state
            if fmt is None
            else translated_state(example.state, fmt, example.id, lookup)
        )
        examples.append(
            example if state is example.state else example.model_copy(update={"state": state})
        )
    if any(a is not b for a, b in zip(examples, translated.examples, strict=True)):
        translated = translated.model_copy(update={"examples": examples})
    return translated


@dataclass(frozen=True)
class _Objects:
    """:func:`_walk` over validated models instead of their data (see :func:`translate_spec`)."""

    visit: Visitor
    #: the translated vocabulary, which a named set's labels are taken from
    vocabulary: Mapping[str, str]
    #: sections of the spec already walked, by name
    done: Mapping[str, Any]
    #: False in the sections for spec authors: their texts stay as they are, and only
    #: named sets' labels change (validation labels them anew wherever they are)
    texts: bool = True

    def value(self, value: Any, tp: Any, ctx: tuple[str, ...], notes: tuple[str, ...]) -> Any:
        """``value`` translated, or ``value`` itself when nothing in it changes."""
        tp, prose = _unwrap(tp)
        if prose and isinstance(value, str):
            return _translated_text(value, ctx, notes, self.visit) if self.texts else value
        if isinstance(value, BaseModel):
            if isinstance(tp, type) and issubclass(tp, BaseModel):
                return self.model(value, ctx, notes)
            origin = typing.get_origin(tp)
            if origin in (typing.Union, types.UnionType):
                member = _pick_member(tp, {"op": value.__dict__.get("op")})
                if member is type(value):
                    return self.model(value, ctx, notes)
            return value
        if type(value) is SetLabels:
            # validating the translated data labels a set's members anew from the vocabulary
            labels = SetLabels(
                {m: self.vocabulary.get(m, label) for m, label in value.items()}, value.ref
            )
            return value if labels == value else labels
        origin = typing.get_origin(tp)
        if origin is list and isinstance(value, list):
            (item_tp,) = typing.get_args(tp)
            field_name = ctx[-1] if ctx else ""
            items = [
                self.value(
                    item,
                    item_tp,
                    _join(ctx[:-1], field_name, _segment(_fields_of(item), i))
                    if ctx
                    else (str(i),),
                    notes,
                )
                for i, item in enumerate(value)
            ]
            return value if _same(items, value) else items
        if origin is dict and isinstance(value, dict):
            _, value_tp = typing.get_args(tp)
            pairs = {k: self.value(v, value_tp, (*ctx, str(k)), notes) for k, v in value.items()}
            return value if _same(list(pairs.values()), list(value.values())) else pairs
        return value

    def model(self, value: BaseModel, ctx: tuple[str, ...], notes: tuple[str, ...]) -> BaseModel:
        fields = type(value).model_fields
        note = value.__dict__.get("translator_note") if "translator_note" in fields else None
        # an author's note belongs to this part's own texts, not to the parts nested in it
        own = (*notes, note) if isinstance(note, str) and note else notes
        changed: dict[str, Any] = {}
        for key, field in fields.items():
            old = value.__dict__[key]
            walk = self
            if not ctx and key in _AUTHOR_SECTIONS:
                walk = replace(self, texts=False)
            if not ctx and key in self.done:
                new = self.done[key]
                if new is not old:
                    changed[key] = new
                continue
            annotation: Any = field.annotation
            if field.metadata:
                annotation = typing.Annotated[(annotation, *field.metadata)]
            new = walk.value(old, annotation, (*ctx, key), own if isinstance(old, str) else notes)
            if not _same([new], [old]):
                changed[key] = new
        return value.model_copy(update=changed) if changed else value


def _same(new: list[Any], old: list[Any]) -> bool:
    """Whether each value is the one it replaces (a text: an equal one)."""
    return all(
        n is o or (type(n) is str and type(o) is str and n == o)
        for n, o in zip(new, old, strict=True)
    )


def _fields_of(item: Any) -> Any:
    """What _segment reads of a list's item: a model's fields, as its data has them."""
    return item.__dict__ if isinstance(item, BaseModel) else item


def _translated_text(
    text: str,
    ctx: tuple[str, ...],
    notes: tuple[str, ...],
    visit: Visitor,
    path: DataPath = (),
) -> str:
    """A prose text, paragraph by paragraph, each replaced by ``visit`` when it gives one.

    ``path``: where the text is in the spec's data, for a visitor that asks.
    """
    parts = paragraphs(text)
    if not parts:
        return text
    context = "/".join(ctx)
    out = []
    for n, part in enumerate(parts, start=1):
        suffix = f"#{n}" if len(parts) > 1 else ""
        replaced = visit(context + suffix, part, path, notes)
        out.append(part if replaced is None else replaced)
    return "\n\n".join(out)


def translate_data(
    data: dict[str, Any], lookup: Callable[[str, str], str | None]
) -> dict[str, Any]:
    """A copy of spec data with every message replaced by ``lookup(context, text)`` when given."""

    def visit(context: str, text: str, path: DataPath, notes: tuple[str, ...]) -> str | None:
        return lookup(context, text)

    result = _walk(data, Spec, (), (), (), visit)
    assert isinstance(result, dict)
    translate_example_texts(result, lookup)
    return result
