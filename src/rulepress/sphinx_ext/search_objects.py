"""The search's own results: rules, terms, examples and rulings, each with its own words.

Sphinx indexes whole pages: a word in rule 16.4.8 finds the page "Rules",
which every game has. The site's search lists the numbered rule, the
glossary term, the worked example or the ruling instead. Three pieces make that:

- :func:`record` (called by the page parser, :mod:`rulepress.sphinx_ext.doctree`)
  keeps each such object's anchor, kind, number, name and *own* text: the
  words under its heading, without its sub-rules and without its "Source"
  note (where a rule comes from is not what a player searches for);
- :func:`search_data` turns them, when Sphinx writes the search page, into
  the words Sphinx's own index would make of them (the language's splitter,
  stemmer and filter, from the builder's indexer), so that a word the search
  script looks up matches the object exactly as it matched the page;
- ``static/rulepress-search.js`` expands each page Sphinx finds into the
  objects of that page whose words hold every search term.

The objects live in the build environment (one list per document), so an
incremental build keeps those of the pages it did not read again, and
parallel reading merges them (:func:`purge`, :func:`merge`).
"""

from __future__ import annotations

import re
from typing import Any

from docutils import nodes

#: the environment's attribute: {docname: [(kind, anchor, number, name, text), …]}
ATTRIBUTE = "rulepress_search_objects"
#: the kinds of objects, by the prefix of their anchor (rulepress.render.pages labels them)
KINDS = {"rule-": "rule", "term-": "term", "example-": "example", "ruling-": "ruling"}
#: a rule's title starts with its number ("16.4.8 Winning")
_NUMBER = re.compile(r"^(\d+(?:\.\d+)*)\s+(.*)$", re.DOTALL)
#: the class of a rule's (or term's) "Source" note (rulepress.render.pages)
SOURCE_CLASS = "rp-source"

Entry = tuple[str, str, str, str, str]


def kind_of(anchor: str) -> str | None:
    """The kind of search object an anchor names, or None (a section that is no object)."""
    for prefix, kind in KINDS.items():
        if anchor.startswith(prefix):
            return kind
    return None


def own_text(children: list[nodes.Node]) -> str:
    """The text of ``children`` without sub-sections, titles, Source notes and hidden doctests."""
    parts = []
    for child in children:
        if isinstance(child, nodes.section | nodes.title | nodes.comment):
            continue
        if isinstance(child, nodes.Element) and SOURCE_CLASS in child.get("classes", []):
            continue
        parts.append(child.astext())
    return " ".join(" ".join(parts).split())


def record(env: Any, docname: str, anchor: str, title: str, children: list[nodes.Node]) -> None:
    """Keep the object at ``anchor`` of ``docname`` (if its anchor names a kind of object)."""
    kind = kind_of(anchor)
    if kind is None:
        return
    number, name = "", " ".join(title.split())
    match = _NUMBER.match(name) if kind == "rule" else None
    if match is not None:
        number, name = match.group(1), match.group(2)
    # the environment is Sphinx's (or a test's stand-in): the attribute is made on first use
    found: dict[str, list[Entry]] | None = getattr(env, ATTRIBUTE, None)
    if found is None:
        found = {}
        setattr(env, ATTRIBUTE, found)
    found.setdefault(docname, []).append((kind, anchor, number, name, own_text(children)))


def purge(app: Any, env: Any, docname: str) -> None:
    """Forget a document's objects before Sphinx reads it again (``env-purge-doc``)."""
    getattr(env, ATTRIBUTE, {}).pop(docname, None)


def merge(app: Any, env: Any, docnames: set[str], other: Any) -> None:
    """Take the objects a parallel reader found (``env-merge-info``)."""
    theirs: dict[str, list[Entry]] = getattr(other, ATTRIBUTE, {})
    ours: dict[str, list[Entry]] | None = getattr(env, ATTRIBUTE, None)
    if ours is None:
        ours = {}
        setattr(env, ATTRIBUTE, ours)
    for docname in docnames:
        if docname in theirs:
            ours[docname] = theirs[docname]


def search_data(env: Any, language: Any) -> dict[str, list[list[Any]]]:
    """Per document, its objects as the search script reads them.

    Each is ``[anchor, kind, number, name, words]``; ``words`` are the
    object's own words (its title's too), split, stemmed and filtered by
    ``language`` (Sphinx's :class:`~sphinx.search.SearchLanguage` of the
    index) exactly as :meth:`sphinx.search.IndexBuilder.feed` treats a page's.
    """
    found: dict[str, list[Entry]] = getattr(env, ATTRIBUTE, {})
    out: dict[str, list[list[Any]]] = {}
    for docname in sorted(found):
        if docname not in env.all_docs:
            continue
        out[docname] = [
            [anchor, kind, number, name, _words(language, f"{number} {name} {text}")]
            for kind, anchor, number, name, text in found[docname]
        ]
    return out


def _words(language: Any, text: str) -> list[str]:
    kept: set[str] = set()
    for word in language.split(text):
        stemmed = language.stem(word).lower()
        # as IndexBuilder.feed: the stem if the filter keeps it, else the word itself
        if not language.word_filter(stemmed) and language.word_filter(word):
            # (lower case: the search script compares lower-case terms)
            stemmed = word.lower()
        if language.word_filter(stemmed):
            kept.add(stemmed)
    return sorted(kept)
