"""Spec markup → MyST Markdown, safe for untrusted (translated) text.

Everything a translator wrote is escaped: every character CommonMark or MyST
could read as markup (backticks, braces, brackets, angle brackets, ``*``,
``_``, ``#``, ``|``, ``$``, ``:`` …) gets a backslash, and line starts that
would open a list, a quote or a fence are neutralised. The only markup in
the output is what this module writes itself: rule links to the permalink
labels, glossary roles, and bullet lists where the source has them. So a
msgstr can never add a directive, raw HTML or a doctest to a page.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from rulepress.spec.text import Ref, transform

_SPECIAL = frozenset("\\`*_{}[]<>#!|~$:&=^+")
_LINE_START = re.compile(r"^(\s*)(\d+)([.)])")


def rule_label(number: str) -> str:
    """The permalink label of a rule: the same anchor in every language (``rule-16-4-8``)."""
    return "rule-" + number.replace(".", "-")


def _chars(text: str) -> str:
    return "".join("\\" + c if c in _SPECIAL else c for c in text)


def escape(text: str) -> str:
    """Plain text as MyST that renders to exactly that text."""
    return _line_starts(_chars(text))


def _line_starts(out: str) -> str:
    """Neutralise what only matters at the start of a line (lists, quotes, numbered items)."""
    lines = []
    for raw in out.split("\n"):
        stripped = raw.lstrip()
        line = raw
        if stripped.startswith(("-", ">")):
            line = raw[: len(raw) - len(stripped)] + "\\" + stripped
        lines.append(_LINE_START.sub(r"\1\2\\\3", line))
    return "\n".join(lines)


def _role_text(text: str) -> str:
    """Text inside a role: no backticks or angle brackets may survive there."""
    return re.sub(r"[`<>]", "", text).strip() or "?"


@dataclass(frozen=True)
class Links:
    """What inline references resolve to on the pages."""

    rules: frozenset[str]  # reproduced rules (they have a permalink)
    params: Mapping[str, str]  # parameter → number as the reader's locale writes it
    terms: Mapping[str, str]  # glossary id → term in the page's language
    rulings: Mapping[str, str]  # ruling id → title in the page's language


def ruling_label(ruling_id: str) -> str:
    return f"ruling-{ruling_id}"


def inline(text: str, links: Links, args: Callable[[str], str] | None = None) -> str:
    """One line or paragraph of spec text as MyST inline markup."""
    return _line_starts(transform(text, _chars, lambda token: _ref(token, links, args)))


def _ref(token: Ref, links: Links, args: Callable[[str], str] | None) -> str:
    if token.kind == "rule":
        if token.target in links.rules:
            return f"{{ref}}`{token.target} <{rule_label(token.target)}>`"
        return _chars(token.target)  # an external rule: cited, not reproduced
    if token.kind == "param":
        return _chars(links.params.get(token.target, token.target))
    if token.kind == "ruling":
        title = links.rulings.get(token.target, token.target)
        return f"{{ref}}`{_role_text(title)} <{ruling_label(token.target)}>`"
    if token.kind == "term":
        term = links.terms.get(token.target)
        if term is None:
            return _chars(token.words or token.target)
        words = token.words or term
        return f"{{term}}`{_role_text(words)} <{_role_text(term)}>`"
    value = args(token.target) if args else "{" + token.target + "}"
    return _chars(value)


def blocks(text: str, links: Links) -> str:
    """Spec text (paragraphs and ``- `` lists) as MyST blocks."""
    out = []
    for block in text.strip().split("\n\n"):
        lines = [line.strip() for line in block.strip().splitlines() if line.strip()]
        rendered = []
        for line in lines:
            if line.startswith("- "):
                rendered.append("- " + inline(line[2:], links))
            elif rendered and not rendered[-1].startswith("- "):
                rendered[-1] += " " + inline(line, links)
            elif rendered:
                rendered[-1] += " " + inline(line, links)  # a wrapped list item
            else:
                rendered.append(inline(line, links))
        if rendered:
            # a list needs a blank line before it when it follows a paragraph
            joined = []
            for i, line in enumerate(rendered):
                if i and line.startswith("- ") and not rendered[i - 1].startswith("- "):
                    joined.append("")
                joined.append(line)
            out.append("\n".join(joined))
    return "\n\n".join(out)
