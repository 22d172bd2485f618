"""Gettext plural entries for messages with one count: spec markup to ``msgstr[n]`` and back.

A spec message that counts one number (``{param:rounds|# round|# rounds}``,
or a ``{param:x}`` the English gives no forms to, which a translation may
still need) goes into the game's catalog as gettext's own plural entry, so
that Poedit, Weblate and Lokalize show one field per plural form::

    msgid "Play {param:rounds} round."
    msgid_plural "Play {param:rounds} rounds."
    msgstr[0] "Hrajte {param:rounds} kolo."
    msgstr[1] "Hrajte {param:rounds} kola."
    msgstr[2] "Hrajte {param:rounds} kol."

:func:`to_forms` writes such forms from spec markup (each ``{x|…}`` of the
count replaced by its form, ``#`` written as the placeholder). The
renderers and QA keep working on spec markup, so :func:`from_forms` turns the
forms back into it: the forms are cut at every other placeholder, which must
be the same in each form, and in each piece that holds the count the words
all forms share before and after it are factored out::

    Hrajte {param:rounds|# kolo|# kola|# kol}.

This is exact for what :func:`to_forms` writes, and renders the same text for
every count for anything a translator writes that it can read. What it cannot
read (forms that differ away from the count, other placeholders that differ
between forms, a ``|`` in a form) is a :class:`~rulepress.i18n.icu.ShapeError`.
No library does this factoring: gettext tools keep the forms whole, and
rulepress's markup is its own.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher

from rulepress.i18n.icu import ShapeError, count_label
from rulepress.model.text import Ref, scan, transform

# words, runs of spaces, and single other characters: the units forms are compared in
_PLAIN = re.compile(r"\w+|\s+|.", re.DOTALL)


@dataclass(frozen=True, slots=True)
class _Token:
    kind: str  # "count", "anchor" (another placeholder) or "text" (words, links, punctuation)
    text: str


def _tokens(form: str, count: str) -> list[_Token]:
    out: list[_Token] = []
    pos = 0

    def plain(piece: str) -> None:
        out.extend(_Token("text", m.group(0)) for m in _PLAIN.finditer(piece))

    for token in scan(form):
        plain(form[pos : token.start])
        if isinstance(token, Ref):
            raw = form[token.start : token.end]
            if token.words:
                out.append(_Token("text", raw))  # a link is words: it may differ between forms
            elif _label(token) == count and not token.forms:
                out.append(_Token("count", raw))
            else:
                out.append(_Token("anchor", raw))
            pos = token.end
        else:
            out.append(_Token("text", token.char))
            pos = token.start + 1
    plain(form[pos:])
    return out


def _label(token: Ref) -> str:
    return f"param:{token.target}" if token.kind == "param" else token.target


def _chunks(tokens: list[_Token]) -> tuple[list[str], list[list[_Token]]]:
    """The other placeholders of a form, and the pieces between them."""
    anchors: list[str] = []
    pieces: list[list[_Token]] = [[]]
    for token in tokens:
        if token.kind == "anchor":
            anchors.append(token.text)
            pieces.append([])
        else:
            pieces[-1].append(token)
    return anchors, pieces


def _join(tokens: Sequence[_Token]) -> str:
    return "".join(t.text for t in tokens)


def _counted(pieces: Sequence[list[_Token]], count: str) -> str:
    """One ``{count|form|…}`` of the pieces that differ (``#``: the number)."""
    forms = []
    for i, piece in enumerate(pieces):
        words = "".join("#" if t.kind == "count" else t.text for t in piece)
        for char in "{}|#":
            if char in "".join(t.text for t in piece if t.kind != "count"):
                raise ShapeError(
                    f"form {i} has {char!r} next to the number, which spec text cannot hold"
                )
        forms.append(words)
    return f"{{{count}|{'|'.join(forms)}}}"


#: longer stretches between two places of the number are not searched for shared words
_MAX_BETWEEN = 400


def _shared_run(pieces: list[list[_Token]]) -> tuple[list[_Token], list[int]] | None:
    """Words every form has between the number's first and second place, and where they start.

    Only when every form has the number at least twice; the longest run of
    tokens the first two forms share there, if all other forms have it too.
    """
    places = [[i for i, t in enumerate(p) if t.kind == "count"] for p in pieces]
    if any(len(found) < 2 for found in places):
        return None
    regions = [p[found[0] + 1 : found[1]] for p, found in zip(pieces, places, strict=True)]
    if any(len(r) > _MAX_BETWEEN for r in regions):
        return None
    match = SequenceMatcher(None, regions[0], regions[1], autojunk=False).find_longest_match()
    if match.size == 0:
        return None
    run = regions[0][match.a : match.a + match.size]
    starts = []
    for found, region in zip(places, regions, strict=True):
        at = next(
            (i for i in range(len(region) - len(run) + 1) if region[i : i + len(run)] == run),
            None,
        )
        if at is None:
            return None
        starts.append(found[0] + 1 + at)
    return run, starts


def _factor(pieces: list[list[_Token]], count: str, explicit: bool) -> str:
    """One piece of every form (between two other placeholders) as spec markup."""
    first = [next((i for i, t in enumerate(p) if t.kind == "count"), None) for p in pieces]
    if not any(i is not None for i in first):
        if any(p != pieces[0] for p in pieces):
            raise ShapeError(
                f"the forms differ where {{{count}}} is not: only words next to the number may change"
            )
        return _join(pieces[0])
    if not explicit and all(p == pieces[0] for p in pieces):
        return _join(pieces[0])
    split = _shared_run(pieces)
    if split is not None:
        # the number twice ("# cube … and # cube"): the words shared between its places
        # stay outside, so that each place gets forms of its own
        run, starts = split
        left = [p[:at] for p, at in zip(pieces, starts, strict=True)]
        right = [p[at + len(run) :] for p, at in zip(pieces, starts, strict=True)]
        return _factor(left, count, explicit) + _join(run) + _factor(right, count, explicit)
    # the shared words before the count (never past its first place in any form) …
    limit = min(len(p) if i is None else i for p, i in zip(pieces, first, strict=True))
    head = 0
    while head < limit and all(p[head] == pieces[0][head] for p in pieces):
        head += 1
    # … and after it (never before its last place in any form, never into the head)
    last = [max((i for i, t in enumerate(p) if t.kind == "count"), default=-1) for p in pieces]
    room = min(len(p) - max(head, i + 1) for p, i in zip(pieces, last, strict=True))
    tail = 0
    while tail < room and all(p[-1 - tail] == pieces[0][-1 - tail] for p in pieces):
        tail += 1
    middles = [p[head : len(p) - tail] for p in pieces]
    return (
        _join(pieces[0][:head])
        + _counted(middles, count)
        + _join(pieces[0][len(pieces[0]) - tail :])
    )


def from_forms(forms: Sequence[str], count: str, *, explicit: bool) -> str:
    """Plural forms (``msgstr[0..n-1]``, or msgid and msgid_plural) as one spec text.

    ``count`` is the label of the message's count (``param:rounds`` or a
    scorer's ``wins``). With ``explicit``, a piece holding the count gets its
    forms even when they are all alike ("5 vítězství" in every Czech form):
    the translator has given each form, and QA takes them as given. A single
    form (Japanese) is the text itself.
    """
    if len(forms) == 1:
        return forms[0]
    split = [_chunks(_tokens(form, count)) for form in forms]
    anchors = split[0][0]
    for i, (other, _) in enumerate(split[1:], start=1):
        if other != anchors:
            raise ShapeError(
                f"form {i} has other placeholders than form 0 ({', '.join(other) or 'none'}"
                f" against {', '.join(anchors) or 'none'}): only the words next to the number"
                " may change"
            )
    out = []
    for j in range(len(anchors) + 1):
        out.append(_factor([pieces[j] for _, pieces in split], count, explicit))
        if j < len(anchors):
            out.append(anchors[j])
    return "".join(out)


def to_forms(text: str, count: str, nplurals: int) -> tuple[str, ...]:
    """Spec text as ``nplurals`` whole forms, each ``{count|…}`` replaced by its form."""

    def form(i: int) -> str:
        def ref(token: Ref) -> str:
            if count_label(token) == count and token.forms:
                chosen = token.forms[min(i, len(token.forms) - 1)]
                return chosen.replace("#", f"{{{count}}}")
            return text[token.start : token.end]

        return transform(text, str, ref)

    return tuple(form(i) for i in range(nplurals))


def english_from_forms(singular: str, plural: str) -> str:
    """The spec text of an English plural entry (its msgid and msgid_plural).

    The count is the entry's one parameter, else the scorer's value whose
    words change between the two forms.
    """
    labels: list[str] = []
    for token in (*scan(singular), *scan(plural)):
        if isinstance(token, Ref) and token.kind in ("param", "arg") and not token.words:
            label = f"param:{token.target}" if token.kind == "param" else token.target
            if label not in labels:
                labels.append(label)
    params = [label for label in labels if label.startswith("param:")]
    candidates = params if len(params) == 1 else [label for label in labels if label not in params]
    for label in candidates:
        try:
            text = from_forms((singular, plural), label, explicit=False)
        except ShapeError:
            continue
        if label.startswith("param:") or f"{{{label}|" in text:
            return text
    raise ShapeError("msgid and msgid_plural have no one number whose words change between them")
