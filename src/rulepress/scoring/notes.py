"""Turning the scorer's sentence templates into text for one language.

A note is a template (from the spec, or one of the scorer's own interface
sentences) plus arguments. The renderer translates the template, renders
the spec markup in it as plain text and formats the arguments for the
reader: numbers per locale, lists of players, nested sentences. The result
keeps template and arguments next to the text, so a front end can
re-render it in another language.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from rulepress.expressions.records import Record, plain
from rulepress.model import Spec
from rulepress.model.spec_model import every_number
from rulepress.model.text import (
    NumberFormat,
    PlainContext,
    Ref,
    Stray,
    show_param,
    to_plain,
    tokens,
)
from rulepress.scoring.result import LazyNote, Note, lazy_notes
from rulepress.uitext import PluralText, english_form

# The argument wrappers are made thousands of times per batch of states: a
# frozen dataclass's __init__ costs a call per field, and a dataclass's methods
# are compiled each time this module is imported, so they are NamedTuples
# (nothing updates them after they are made). Each is told from the others,
# and from plain lists and tuples, by its class before anything else.


class Template(NamedTuple):
    """A spec text used as an argument of another sentence (translated on its own)."""

    text: str


class Player(NamedTuple):
    """A player's id, shown as the player's name (see :meth:`NoteRenderer.player`)."""

    id: str


class Names(NamedTuple):
    """A list of player ids, shown as a list in the reader's language."""

    ids: list[str]


class Listing(NamedTuple):
    """Players with one value each, e.g. ``alice 12, bob 12``."""

    values: Mapping[str, Any]


class Joined(NamedTuple):
    """Several arguments shown as a list (each rendered on its own)."""

    parts: list[Any]


class Summed(NamedTuple):
    """Amounts that add up, shown as a sum ("1 (other power) + 3 (H1)") in every language."""

    parts: list[Any]


class Nested(NamedTuple):
    """A sentence (template and arguments); also used as an argument of another sentence."""

    template: str
    args: Mapping[str, Any]


class NestedPlural(NamedTuple):
    """An interface sentence with plural forms used as an argument of another sentence.

    A sentence agrees with one number (gettext picks its form by one count),
    so a sentence that speaks of two numbers takes the second as one of these.
    """

    template: PluralText
    args: Mapping[str, Any]


def _identity(template: str) -> str:
    return template


@dataclass(frozen=True)
class NoteRenderer:
    """Renders a result's notes in one language, with its numbers, plurals and lists."""

    language: str
    plain: PlainContext
    translate: Callable[[str], str] = _identity
    translate_plural: Callable[[PluralText, int], str] = english_form
    number: NumberFormat = field(default_factory=NumberFormat)
    list_separator: str = ", "
    #: translated source → its pieces: literal text, and the names of arguments
    _pieces: dict[str, tuple[str | _Arg, ...]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    #: argument-free spec texts (labels, titles) → their rendered text
    _plain_texts: dict[tuple[str | None, str], str] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    #: the note maker of :meth:`note_maker`, once made
    _maker: list[Callable[[str, Any], Note]] = field(
        default_factory=list, init=False, repr=False, compare=False
    )

    @classmethod
    def english(cls, spec: Spec) -> NoteRenderer:
        return cls("en", plain_context(spec))

    def text(self, template: str | PluralText, args: Mapping[str, Any]) -> str:
        if not args and isinstance(template, str):
            # by context too: one English text may stand for two messages (see UiText)
            key = (getattr(template, "context", None), template)
            done = self._plain_texts.get(key)
            if done is None:
                done = self._fill(self.translate(template), {})
                if len(self._plain_texts) < _CACHE_SIZE:
                    self._plain_texts[key] = done
            return done
        shown = {name: self._arg(value) for name, value in args.items()}
        if isinstance(template, PluralText):
            count = args.get(template.count)
            source = self.translate_plural(template, count if isinstance(count, int) else 0)
        else:
            source = self.translate(template)
        return self._fill(source, shown, args)

    def _fill(
        self, source: str, shown: Mapping[str, Any], given: Mapping[str, Any] | None = None
    ) -> str:
        """``to_plain(source, self.plain, shown)``, with the markup of ``source`` parsed once."""
        pieces = self._pieces.get(source)
        if pieces is None:
            pieces = _split(source, self.plain)
            if len(self._pieces) < _CACHE_SIZE:
                self._pieces[source] = pieces
        if len(pieces) == 1 and type(pieces[0]) is str:
            return pieces[0]
        fmt = self.plain.number or NumberFormat()
        out = []
        for piece in pieces:
            if type(piece) is str:
                out.append(piece)
                continue
            assert isinstance(piece, _Arg)
            # as to_plain shows an argument: integers formatted, the rest as text
            value = shown.get(piece.name, piece.missing)
            if piece.forms is not None:
                # ``{count|# unit|# units}``: the form that agrees with the given number
                count = (given or {}).get(piece.name)
                if isinstance(count, int) and not isinstance(count, bool):
                    shown_form = show_param(piece.forms, count, fmt(count), self.plain.plural)
                    out.append(to_plain(shown_form, self.plain))
                    continue
            out.append(
                fmt(value) if isinstance(value, int) and not isinstance(value, bool) else str(value)
            )
        return "".join(out)

    def _listed(self, items: list[str]) -> str:
        """Like things as the reader's language lists them: "B and C", "B a C", "B、C"."""
        # Babel is imported when a list is first shown, not with the scorer (the
        # scoring layer imports no publishing library: tests/test_layers.py)
        from babel.lists import format_list  # noqa: PLC0415

        return format_list(items, locale=self.language)

    def _arg(self, value: Any) -> Any:
        kind = type(value)
        if kind is str:  # the commonest arguments first, by exact type
            return value
        if kind is int:
            return self.number(value)
        if isinstance(value, Joined):
            return self._listed([str(self._arg(v)) for v in value.parts])
        if isinstance(value, Summed):
            # arithmetic, not prose: the plus sign reads the same in every language
            return " + ".join(str(self._arg(v)) for v in value.parts)
        if isinstance(value, Nested | NestedPlural):
            return self.text(value.template, value.args)
        if isinstance(value, Template):
            return self.text(value.text, {})
        if isinstance(value, Player):
            return self.player(value.id)
        if isinstance(value, Names):
            return self._listed([self.player(i) for i in value.ids]) if value.ids else "-"
        if kind is list:  # a list from the table state (names of what was used, say)
            return self._listed([str(self._arg(v)) for v in value]) if value else "-"
        if isinstance(value, Listing):
            return self.list_separator.join(
                f"{self.player(pid)} {self._arg(v)}" for pid, v in value.values.items()
            )
        if isinstance(value, bool):
            return value
        if isinstance(value, int):
            return self.number(value)
        return value

    def player(self, pid: str) -> str:
        """A player as readers see them: the vocabulary's word for the id, or the id."""
        names = self.plain.names
        return names.get(pid, pid) if names else pid

    def note(self, template: str | PluralText, args: Mapping[str, Any]) -> Note:
        """The note of ``template`` with ``args``; its text is rendered when first read."""
        source = template.singular if isinstance(template, PluralText) else template
        # args made from the table state must come through snapshot() first
        return LazyNote(source, render=(self._render, template, args))

    def notes(self, nested: list[Nested]) -> list[Note]:
        """:meth:`note` of each of a component's sentences (their templates are plain text)."""
        make = self.note_maker()
        return [make(n.template, n.args) for n in nested]

    def note_maker(self) -> Callable[[str, Any], Note]:
        """``make(template, args)``: :meth:`note` for a plain-text template, made cheaply.

        The scorer's components make every note of a state through it.
        """
        make = self._maker
        if not make:  # made on first use; a list, as the renderer itself is frozen
            make.append(lazy_notes(self._render))
        return make[0]

    def _render(
        self, template: str | PluralText, args: Mapping[str, Any]
    ) -> tuple[dict[str, Any], str]:
        return {k: _plain_arg(v) for k, v in args.items()}, self.text(template, args)


class _Arg(NamedTuple):
    """An ``{argument}`` placeholder of a template, and what shows when it is not given."""

    name: str
    missing: str
    #: the placeholder itself when it gives plural forms (``{count|# unit|# units}``)
    forms: Ref | None = None


def _split(source: str, ctx: PlainContext) -> tuple[str | _Arg, ...]:
    """A template as literal text and placeholders; references other than arguments resolved.

    Each reference is rendered by :func:`to_plain` itself (on its own text:
    a reference's rendering does not depend on its neighbours), so the
    result is exactly ``to_plain``'s, piece by piece.
    """
    out: list[str | _Arg] = []
    pos = 0
    for token in tokens(source):
        out.append(source[pos : token.start])
        if isinstance(token, Stray):
            out.append(token.char)
            pos = token.start + 1
            continue
        if token.kind == "arg":
            forms = token if token.forms else None
            out.append(_Arg(token.target, "{" + token.target + "}", forms))
        else:
            out.append(to_plain(source[token.start : token.end], ctx))
        pos = token.end
    out.append(source[pos:])
    merged: list[str | _Arg] = []
    for piece in out:
        if merged and type(piece) is str and type(merged[-1]) is str:
            merged[-1] = str(merged[-1]) + piece
        elif piece != "":
            merged.append(piece)
    return tuple(merged) or ("",)


def snapshot(args: dict[str, Any]) -> dict[str, Any]:
    """``args`` as they are now: records and lists (which later steps may update) are copied.

    Rendering is lazy, so a note must not read data after the step that made
    it: whoever puts values from the table state into a note's arguments
    passes them through here (the scorer's own arguments need not).
    """
    for value in args.values():
        if type(value) is Record or type(value) is list:
            return {k: plain(v) if type(v) in (Record, list) else v for k, v in args.items()}
    return args


def _plain_arg(value: Any) -> Any:
    """The JSON form of an argument."""
    if type(value) in _PLAIN:
        return value
    if isinstance(value, Joined | Summed):
        return [_plain_arg(v) for v in value.parts]
    if isinstance(value, Nested | NestedPlural):
        template = value.template
        return {
            # a sentence with plural forms is known by its singular, as a note's template is
            "template": template.singular if isinstance(template, PluralText) else template,
            "args": {k: _plain_arg(v) for k, v in value.args.items()},
        }
    if isinstance(value, Template):
        return value.text
    if isinstance(value, Player):
        return value.id
    if isinstance(value, Names):
        return list(value.ids)
    if isinstance(value, Listing):
        return dict(value.values)
    return plain(value) if isinstance(value, dict | list | tuple) else value


_PLAIN = frozenset({str, int, bool, type(None)})
#: most templates a renderer remembers (a spec has a few hundred; the cap keeps texts
#: that come from a table state from growing it without end)
_CACHE_SIZE = 4096


def plain_context(spec: Spec) -> PlainContext:
    return PlainContext(
        params=every_number(spec.parameters),
        terms={t.id: t.term for t in spec.glossary},
        rulings={r.id: r.title for r in spec.rulings},
        names=dict(spec.vocabulary),
    )
