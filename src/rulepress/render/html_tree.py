"""HTML as an immutable tree: the one place where text becomes markup (print stage 1).

Specs, catalogs and table states are untrusted, so nothing the print writer
shows is ever concatenated into HTML. Documents are built from
:class:`Element` nodes whose children are elements or plain ``str``, and
:func:`document` serialises the tree once, at the end. That serialiser is the
single choke point: every string — text or attribute value — goes through
:func:`_escape` on its way out, so a string can only ever become visible
text.

What keeps it so, checked by mypy strict and again at run time:

- an element's name is a :data:`Tag` (a ``Literal`` of the names the print
  documents use), so data cannot name an element: a ``str`` is not a
  ``Tag``, and :class:`Element` rejects any other name when it is made;
- attributes are only the keyword arguments of :func:`el` listed in
  :class:`Attrs` (``cls`` is written ``class``), so data cannot name an
  attribute either; their values are escaped like text;
- there is no node for raw markup, no comment, no ``<script>``/``<style>``
  element, and the serialiser has no "safe string" escape hatch.

Text is also cleaned on the way out (:func:`clean_text`), because escaping
alone would let invisible controls through into the PDF:

- line and paragraph breaks of every kind (LF, CR, VT, FF, NEL, U+2028,
  U+2029) and tabs become a plain space: in HTML they are whitespace anyway,
  and paragraphs and list items are decided before, by the spec's own markup;
- any other control character (C0, DEL, C1, and the invisible format
  characters of :mod:`rulepress.invisible`: the bidi embeddings,
  overrides and isolates, zero-width spaces, tags …) becomes U+FFFD, the
  replacement character. It is shown, not dropped, so that a proofreader sees
  that a translation carried something odd (and the print tests, which look
  for U+FFFD in every PDF, catch it in the shipped catalogs); dropping it
  would hide the problem and silently join the words around it.
  Letters, combining marks, ZWJ/ZWNJ and the bidi *marks* (LRM, RLM, ALM)
  are text and pass unchanged.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, TypeAlias, TypedDict, Unpack, get_args

from rulepress.i18n.typography import typeset
from rulepress.invisible import FORMAT_CHARACTERS

Tag = Literal[
    "html",
    "head",
    "meta",
    "title",
    "body",
    "base",
    "main",
    "header",
    "footer",
    "section",
    "nav",
    "div",
    "p",
    "span",
    "b",
    "i",
    "a",
    "h1",
    "h2",
    "h3",
    "h4",
    "ol",
    "ul",
    "li",
    "dl",
    "dt",
    "dd",
    "table",
    "caption",
    "tr",
    "th",
    "td",
    "img",
]
TAGS: frozenset[str] = frozenset(get_args(Tag))
#: elements written without an end tag (and so without children)
VOID: frozenset[str] = frozenset({"meta", "base", "img"})
#: elements set inside a line of text (the space before one goes inside it, see _write)
INLINE: frozenset[str] = frozenset({"span", "b", "i", "a", "img"}) & TAGS
#: the only images there are: SVG icons checked by rulepress.print.icons, inline, so
#: that nothing is ever fetched
IMAGE_SOURCE = "data:image/svg+xml;base64,"


class Attrs(TypedDict, total=False):
    """The attributes an element may have; nothing else can be set."""

    cls: str
    id: str
    href: str
    lang: str
    charset: str
    name: str
    content: str
    style: str
    src: str
    alt: str
    translate: str


#: an attribute's name as written in HTML
AttrName = Literal[
    "class",
    "id",
    "href",
    "lang",
    "charset",
    "name",
    "content",
    "style",
    "src",
    "alt",
    "translate",
]
#: each keyword of :func:`el` (a key of :class:`Attrs`) and the attribute it sets
ATTRS: dict[str, AttrName] = {
    "cls": "class",
    "id": "id",
    "href": "href",
    "lang": "lang",
    "charset": "charset",
    "name": "name",
    "content": "content",
    "style": "style",
    "src": "src",
    "alt": "alt",
    "translate": "translate",
}

#: children of an element: elements, text, and (nested) sequences of them, flattened
Content: TypeAlias = "Element | str | Sequence[Content]"


@dataclass(frozen=True, slots=True)
class Element:
    """One element: a name from :data:`Tag`, attributes, and children (elements or text)."""

    tag: Tag
    attrs: tuple[tuple[AttrName, str], ...] = ()
    children: tuple[Element | str, ...] = ()

    def __post_init__(self) -> None:
        # mypy already refuses a plain str here; this guards casts and Any
        if self.tag not in TAGS:
            raise ValueError(f"not an element rulepress writes: {self.tag!r}")
        for name, value in self.attrs:
            if name not in ATTRS.values() or not isinstance(value, str):
                raise ValueError(f"not an attribute rulepress writes: {name!r}")
        for child in self.children:
            if not isinstance(child, Element | str):
                raise TypeError(f"an element holds elements and text, not {type(child).__name__}")
        if self.tag in VOID and self.children:
            raise ValueError(f"<{self.tag}> has no content")
        for name, value in self.attrs:
            if name == "src" and not value.startswith(IMAGE_SOURCE):
                raise ValueError("an image is an inline SVG icon (a data: URI), never a link")


def el(tag: Tag, *children: Content, **attrs: Unpack[Attrs]) -> Element:
    """Make an element from its name, its children and its attributes.

    For example ``el("p", "text ", el("b", "bold"), cls="lead")``. Attributes keep the order they are given in; an empty sequence or empty
    string among the children adds nothing.
    """
    flat: list[Element | str] = []
    _flatten(children, flat)
    names: list[tuple[AttrName, str]] = []
    for key, value in attrs.items():
        if key not in ATTRS:  # only reachable by ``**mapping``, which mypy lets through
            raise ValueError(f"not an attribute rulepress writes: {key!r}")
        if not isinstance(value, str):
            raise TypeError(f"attribute {key!r} must be text")
        names.append((ATTRS[key], value))
    return Element(tag, tuple(names), tuple(flat))


def _flatten(children: Sequence[Content], out: list[Element | str]) -> None:
    for child in children:
        if isinstance(child, str):
            if child:
                out.append(child)
        elif isinstance(child, Element):
            out.append(child)
        else:
            _flatten(child, out)


# Line breaks of every kind but LF, and tabs: whitespace, never structure.
_BREAKS = re.compile("[\t\r\x0b\x0c\x85\u2028\u2029]")
# Everything else that is a control, not text (see the module docstring).
_CONTROLS = re.compile(f"[\x00-\x08\x0e-\x1f\x7f-\x84\x86-\x9f{FORMAT_CHARACTERS}]")


def clean_prose(text: str) -> str:
    """Spec prose before its paragraphs and list items are found: only LF stays a line break.

    A CR (also the CR of a CRLF pair), VT, FF, NEL, U+2028 and U+2029 become a
    space and other controls U+FFFD, so none of them can start a paragraph or a
    list item that the spec's markup (blank lines, ``- `` at a line start) did
    not ask for — ``str.splitlines`` and ``str.strip`` would treat all of them,
    and even U+001C–U+001F, as line ends or whitespace.
    """
    return _CONTROLS.sub("\ufffd", _BREAKS.sub(" ", text))


def clean_text(text: str) -> str:
    """``text`` as it may appear in HTML: every line break a space, other controls U+FFFD."""
    return clean_prose(text).replace("\n", " ")


def _escape(text: str) -> str:
    """The choke point: the only way a string reaches the HTML."""
    return html.escape(clean_text(text), quote=True)


def _write(node: Element, out: list[str], lang: str, lead: str = "") -> None:
    out.append("<" + node.tag)
    verbatim = False
    for name, value in node.attrs:
        out.append(f' {name}="{_escape(value)}"')
        if name == "lang":
            lang = value  # what it holds is set in its own language's typography
        # words quoted from a source document: shown exactly as the document has them
        verbatim = verbatim or (name == "translate" and value == "no")
    out.append(">")
    if node.tag in VOID:
        return
    if lead:
        out.append(lead)
    text = ""  # adjacent strings are set as one text ("1" + " bod" keeps its no-break space)
    for child in node.children:
        if isinstance(child, Element):
            space = ""
            if text:
                set_text = text if verbatim else typeset(text, lang)
                if child.tag in INLINE:
                    # The space before an inline element goes inside it. Outside it, a
                    # text that filled its line exactly up to the element made WeasyPrint
                    # (70) break that text after its first word: "Kostka" / "Komek, …"
                    # (an inline-boundary line-breaking bug of WeasyPrint's).
                    kept = set_text.rstrip(" ")
                    space = set_text[len(kept) :]
                    set_text = kept
                out.append(_escape(set_text))
                text = ""
            _write(child, out, lang, space)
        else:
            # text a reader sees is set in the document's language (attributes are not text)
            text += child
    if text:
        out.append(_escape(text if verbatim else typeset(text, lang)))
    out.append(f"</{node.tag}>")


def serialize(node: Element, lang: str = "") -> str:
    """One element and everything in it as HTML; its text typeset for ``lang``."""
    out: list[str] = []
    _write(node, out, lang)
    return "".join(out)


def document(root: Element) -> str:
    """A whole HTML document: the doctype and ``root`` (an ``<html lang=…>`` element)."""
    if root.tag != "html":
        raise ValueError("a document's root is <html>")
    lang = dict(root.attrs).get("lang", "")
    return "<!doctype html>" + serialize(root, lang)
