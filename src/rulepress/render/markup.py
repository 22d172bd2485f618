"""Spec prose → document-tree nodes: the spec's own small markup, and nothing else.

Spec text (in any language) has two kinds of structure, both written by the
spec's authors and kept by translators: inline references (``{rule:16.4.8}``,
``{param:x}``, ``{ruling:id}``, ``{term:id}``, ``[words](term:id)``; see
:mod:`rulepress.model.text`) and blocks (paragraphs split by a blank line,
bullet items starting with ``- ``). This module reads exactly that into
:mod:`rulepress.render.tree` nodes. Every other character is text.

Line breaks: only ``\\n`` (and ``\\r\\n``) is a line break in spec prose. A
lone ``\\r``, vertical tab, form feed, NEL, U+2028 and U+2029 are read as a
space, so a translation cannot start a list item or a paragraph the source
does not have by hiding a line break that some other tool would honour.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from rulepress.model.text import PluralIndex, english_plural, show_param, tokens
from rulepress.model.text import Ref as MarkupRef
from rulepress.render.tree import Block, BulletList, Inline, Paragraph, Ref, Text

#: line breaks other than \n that str.splitlines() and some renderers honour
_OTHER_BREAKS = re.compile("\r\n|[\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")
_BLANK_LINE = re.compile(r"\n[ \t]*\n")


def normalize_breaks(text: str) -> str:
    """``\\r\\n`` becomes ``\\n``; every other kind of line break becomes a space."""
    return _OTHER_BREAKS.sub(lambda m: "\n" if m.group() == "\r\n" else " ", text)


def rule_label(number: str) -> str:
    """The permalink label of a rule: the same anchor in every language (``rule-16-4-8``)."""
    return "rule-" + number.replace(".", "-")


def ruling_label(ruling_id: str) -> str:
    """A ruling's permalink label (``ruling-grudge-state`` for ``grudge_state``).

    Ruling ids were once written with ``-``; the label keeps that spelling so
    that links published before ids became lower_snake_case still arrive.
    """
    return "ruling-" + ruling_id.replace("_", "-")


def term_label(term_id: str) -> str:
    return f"term-{term_id}"


@dataclass(frozen=True)
class Links:
    """What inline references resolve to on a page, in the page's language.

    With ``linked`` false (a page outside the game's project, such as the
    landing page) every reference is shown as its text, without a link.
    """

    rules: frozenset[str]  # reproduced rules (they have a permalink)
    params: Mapping[str, str]  # parameter → number as the reader's locale writes it
    terms: Mapping[str, str]  # glossary id → term in the page's language
    rulings: Mapping[str, str]  # ruling id → title in the page's language
    linked: bool = True
    args: Mapping[str, str] = field(default_factory=dict)
    #: parameter → its value, and the text's plural rule (for ``{param:x|…}`` forms)
    values: Mapping[str, int] = field(default_factory=dict)
    plural: PluralIndex = english_plural


def inline(text: str, links: Links) -> list[Inline]:
    """One line or paragraph of spec text as inline nodes."""
    text = normalize_breaks(text)
    out: list[Inline] = []
    pos = 0
    for token in tokens(text):
        _append_text(out, text[pos : token.start])
        if isinstance(token, MarkupRef):
            if token.kind == "param" and token.forms and token.target in links.params:
                # the form that agrees, as spec text of its own: it may hold glossary links
                chosen = show_param(
                    token, links.values.get(token.target), links.params[token.target], links.plural
                )
                for node in inline(chosen, links):
                    if isinstance(node, Text):
                        _append_text(out, node.text)
                    else:
                        out.append(node)
                pos = token.end
                continue
            node = _ref(token, links)
            if isinstance(node, Text):
                _append_text(out, node.text)
            else:
                out.append(node)
            pos = token.end
        else:  # a stray brace is text
            _append_text(out, token.char)
            pos = token.start + 1
    _append_text(out, text[pos:])
    return out


def _append_text(out: list[Inline], value: str) -> None:
    if not value:
        return
    if out and isinstance(out[-1], Text):
        out[-1] = Text(text=out[-1].text + value)
    else:
        out.append(Text(text=value))


def _ref(token: MarkupRef, links: Links) -> Inline:
    shown, label = resolve(token, links)
    if label is None or not links.linked:
        return Text(text=shown)
    return Ref(label=label, children=[Text(text=shown)], classes=[f"rp-{token.kind}"])


def resolve(token: MarkupRef, links: Links) -> tuple[str, str | None]:
    """(what the reader sees, the label it links to, if any): for the site's and print's trees."""
    if token.kind == "rule":
        linked = token.target in links.rules
        return token.target, rule_label(token.target) if linked else None
    if token.kind == "param":
        shown = links.params.get(token.target)
        if shown is None:
            return token.target, None
        return show_param(token, links.values.get(token.target), shown, links.plural), None
    if token.kind == "ruling":
        title = links.rulings.get(token.target)
        return (title, ruling_label(token.target)) if title else (token.target, None)
    if token.kind == "term":
        term = links.terms.get(token.target)
        if term is None:
            return token.words or token.target, None
        return token.words or term, term_label(token.target)
    return links.args.get(token.target, "{" + token.target + "}"), None


def blocks(text: str, links: Links) -> list[Block]:
    """Spec text (paragraphs and ``- `` bullet lists) as block nodes."""
    out: list[Block] = []
    for chunk in _BLANK_LINE.split(normalize_breaks(text).strip()):
        paragraph: list[str] = []
        items: list[str] = []
        for raw in chunk.split("\n"):
            line = raw.strip()
            if not line:
                continue
            if line.startswith("- "):
                if paragraph:
                    out.append(_paragraph(paragraph, links))
                    paragraph = []
                items.append(line[2:])
            elif items:
                items[-1] += " " + line  # a wrapped list item
            else:
                paragraph.append(line)
        if paragraph:
            out.append(_paragraph(paragraph, links))
        if items:
            out.append(BulletList(items=[[Paragraph(children=inline(i, links))] for i in items]))
    return out


def _paragraph(lines: list[str], links: Links) -> Paragraph:
    return Paragraph(children=inline(" ".join(lines), links))
