"""The diff of two editions as a terminal report, in the reader's language.

Reads only the diff data (:mod:`rulepress.editions.model`), as the score
report reads only the result, so ``rulepress diff`` and ``--json`` cannot
disagree. The interface's words come from rulepress's catalog; titles and
other texts of the game from the game's catalog, by the context each text
carries (English where it has no usable translation). The old and the new
wording of a changed text are the spec's English, which is what changed:
the translations of the new wording are the translators' to check
(``rulepress i18n changes``). Every line goes through
:func:`~rulepress.render.text_writer.visible` (specs and catalogs are
untrusted) and is set in the report's language.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from datetime import date
from typing import Any

from babel.dates import format_date
from babel.lists import format_list
from babel.numbers import format_decimal
from wcwidth import wcswidth

from rulepress.editions.model import (
    CellChange,
    Diff,
    Edition,
    Owner,
    Text,
    TextChange,
    ValueChange,
)
from rulepress.i18n.typography import quote, typeset
from rulepress.model import SOURCE_LANGUAGE
from rulepress.render.context import TALLY_FACTS
from rulepress.render.markup import Links, inline
from rulepress.render.pages import DECIDED, YES_NO
from rulepress.render.pages import T as PAGE_TITLES
from rulepress.render.patterns import BOTH, Joined, fill_text
from rulepress.render.sources import T as SOURCE_TITLES
from rulepress.render.text_writer import visible
from rulepress.render.tree import plain_text
from rulepress.uitext import ui

LABELS = {
    "heading": ui("diff", "{game}: from {old} to {new}"),
    # one edition: its version and where it was read from ("2026.11, HEAD~1")
    "edition": ui("diff", "{version}, {source}"),
    "edition_dated": ui("diff", "{version} of {date}, {source}"),
    "changelog": ui("diff.heading", "Changelog"),
    "rules": ui("diff.heading", "Rules"),
    "parameters": ui("diff.heading", "Numbers"),
    "tables": ui("diff.heading", "Tables"),
    "orders": ui("diff.heading", "Order of steps and tie-breaks"),
    "rulings": ui("diff.heading", "Rulings"),
    "examples": ui("diff.heading", "Worked examples"),
    "texts": ui("diff.heading", "Other texts"),
    "consequences": ui("diff.heading", "What the new rules do to the old worked examples"),
    "added": ui("diff.rule", "added"),
    "removed": ui("diff.rule", "removed"),
    "changed": ui("diff.rule", "changed"),
    # a rule with a new number: "16.3 → 16.5"
    "renumbered": ui("diff.rule", "renumbered from {old}"),
    "old": ui("diff.text", "before"),
    "new": ui("diff.text", "now"),
    "value": ui("diff", "{old} → {new}"),
    "keys": ui("diff.table", "{label} {first}–{last}"),
    "key": ui("diff.table", "{label} {key}"),
    "steps": ui("diff.order", "Steps of {sequence}"),
    "criteria": ui("diff.order", "Tie-breaks of {step}"),
    "ruling_added": ui("diff.ruling", "added; by default: {option}"),
    "ruling_removed": ui("diff.ruling", "removed"),
    "ruling_default": ui("diff.ruling", "new default: {old} → {new}"),
    "example_added": ui("diff.example", "added"),
    "example_removed": ui("diff.example", "removed"),
    "example_stated": ui("diff.example", "states other results"),
    "unscorable": ui("diff.example", "cannot be scored under the new spec"),
    # number-neutral: the count stands after a colon
    "rescored": ui("diff", "Worked examples of the old edition scored under the new spec: {count}"),
    # number-neutral: the count stands after a colon (`rulepress validate` on the old
    # edition says why its check refuses them; `rulepress diff --json` lists them)
    "left_out": ui(
        "diff",
        "Worked examples of the old edition left out, as its own check refuses them: {count}",
    ),
    # the old wording of a text in a language the old edition's catalog had no words for
    "untranslated": ui("diff.text", "not translated in the previous edition"),
    "no_consequences": ui("diff", "No worked example of the old edition scores differently."),
    "nothing": ui("diff", "No difference between the two editions."),
    "none": ui("diff.value", "none"),
    # a fact of one player: "Total of Ada" (Japanese: Adaの合計)
    "fact_of": ui("diff.fact", "{fact} of {player}"),
    "total": ui("diff.fact", "Total"),
    "rank": ui("diff.fact", "Place"),
    "eligible": ui("diff.fact", "Can win"),
    "winners": ui("diff.fact", "Winners"),
    "decided_by": ui("diff.fact", "Decided by"),
}


#: a placeholder of a note's template (``{faction}``, ``{weight|# vote|# votes}``, ``{}``):
#: filled by the scorer, so a changed template shows its words with a gap for each
PLACEHOLDER = re.compile(r"\{(?:[a-z_][a-z0-9_]*(?:\|[^{}]*)?)?\}")
#: what a placeholder is shown as
GAP = "…"


def readable(text: str, english: str) -> str:
    """A template's words with a gap for each placeholder (no template reaches a reader).

    ``english``: the text's source. Its placeholders, by name, are the ones the scorer
    fills; anything else in braces is the text's own (a rule title is no template, and
    a translator's braces in it are shown as written).
    """
    names = {_name(m) for m in PLACEHOLDER.finditer(english)}
    if not names:
        return text
    return PLACEHOLDER.sub(lambda m: GAP if _name(m) in names else m.group(), text)


def _name(match: re.Match[str]) -> str:
    """A placeholder's name: ``weight`` of ``{weight|# vote|# votes}``, "" of ``{}``."""
    return match.group()[1:-1].split("|", 1)[0]


def _underline(text: str, mark: str) -> str:
    """A line under ``text`` as wide as the terminal shows it (Japanese takes two columns)."""
    return mark * max(wcswidth(visible(text)), len(text))


class DiffWords(Joined):
    """The diff's pieces in one language, as text: values, facts, editions (the report's and the changes page's)."""

    def __init__(
        self,
        lang: str,
        translate: Callable[[str], str],
        spec_text: Callable[[str, str], str],
        old_text: Callable[[str, str], str | None] | None = None,
        links: Links | None = None,
    ) -> None:
        super().__init__(translate)
        #: what the spec's markup ({rule:…}, {term:…} …) shows in the reader's language
        self.links = links
        self.lang = lang
        self.spec_text = spec_text
        #: the old edition's catalog: a text's context and English to its translation
        #: then (None: none usable); without one, the old texts are looked up as the new
        self.old_text = old_text
        self.lines: list[str] = []

    def __getitem__(self, key: str) -> str:
        return self.translate(LABELS[key])

    def text(self, text: Text) -> str:
        return self.spec_text(text.context, text.text)

    def new(self, context: str, english: str) -> str:
        """A text of the new edition in the reader's language (``…/text#1`` as ``…/text``)."""
        found = self.spec_text(context, english)
        if found == english and context.endswith("#1"):
            found = self.spec_text(context.removesuffix("#1"), english)
        return found

    def old(self, context: str, english: str) -> str:
        """A text of the old edition in the reader's language: its catalog's words then.

        Else the words today's catalog has for the same English under the same
        context (a text that did not change); else, outside English, a note that the
        old edition had no words in this language: never its English.
        """
        for ctx in (context, context.removesuffix("#1")) if context.endswith("#1") else (context,):
            found = self.old_text(ctx, english) if self.old_text is not None else None
            if found is not None:
                return found
        found = self.new(context, english)
        if found == english and self.lang != SOURCE_LANGUAGE:
            return self["untranslated"]
        return found

    def old_title(self, text: Text) -> str:
        return self.old(text.context, text.text)

    def owner(self, owners: list[Owner]) -> str:
        """What a text belongs to: its titles, each after the one it lies in (a step with its number)."""
        shown = ""
        for item in owners:
            title = self.new(item.title.context, item.title.text)
            if item.number:
                title = f"{item.number} {title}"
            shown = title if not shown else self.pair(shown, title)
        return shown

    def date(self, edition: Edition) -> str | None:
        """The edition's date as the language writes it (None: none, or not a date)."""
        if not edition.date:
            return None
        try:
            return format_date(date.fromisoformat(edition.date), format="long", locale=self.lang)
        except ValueError:
            return None

    def value(self, value: Any, words: dict[str, Text] | None = None) -> str:
        """A value in words: numbers as the language writes them, ids as the spec's words."""
        words = words or {}
        if value is None:
            return self["none"]
        if isinstance(value, bool):
            return self.translate(YES_NO[value])
        if isinstance(value, int):
            return format_decimal(value, locale=self.lang)
        if isinstance(value, list):
            shown = [self.value(v, words) for v in value]
            return format_list(shown, locale=self.lang) if shown else "—"
        if isinstance(value, dict):
            shown = [f"{self.value(k, words)} {self.value(v, words)}" for k, v in value.items()]
            return format_list(shown, locale=self.lang) if shown else "—"
        if isinstance(value, str) and value in words:
            return self.text(words[value])
        return str(value)

    def change(self, old: Any, new: Any, words: dict[str, Text] | None = None) -> str:
        return fill_text(self["value"], old=self.value(old, words), new=self.value(new, words))

    def fact(self, change: ValueChange) -> str:
        """What a fact is called: the score line (and its part), the vote's fact, or the word."""
        if change.title is not None and change.fact == "points":
            what = self.text(change.title)
            if change.part is not None:
                what = self.detail(what, self.text(change.part))
        elif change.title is not None:
            fact = TALLY_FACTS.get(change.fact)
            what = self.detail(
                self.text(change.title), self.translate(fact) if fact else change.fact
            )
        elif change.fact in ("total", "rank", "eligible", "winners", "decided_by"):
            what = self[change.fact]
        else:
            what = change.fact
        if change.player is None:
            return what
        player = change.words.get(change.player)
        shown = change.player if player is None else self.text(player)
        return fill_text(self["fact_of"], fact=what, player=shown)

    def known_words(self, change: ValueChange) -> dict[str, Text]:
        """The words for the ids among a fact's values (the spec's, and the interface's)."""
        words = dict(change.words)
        if change.fact == "decided_by":
            # how a game is decided other than by a criterion, in words
            for value in (change.old, change.new):
                if isinstance(value, str) and value not in words and value in DECIDED:
                    words[value] = Text(context="", text=self.translate(DECIDED[value]))
        return words

    def fact_change(self, change: ValueChange) -> str:
        words = self.known_words(change)
        return self.pair(self.fact(change), self.change(change.old, change.new, words))

    def keys(self, cell: CellChange) -> str:
        """The keys of a run of table cells: "Players 6–8", or one key."""
        first, last = cell.keys
        label = self.text(cell.key_label)
        if first == last:
            return fill_text(self["key"], label=label, key=self.value(first))
        return fill_text(self["keys"], label=label, first=self.value(first), last=self.value(last))

    def heading(self, key: str) -> None:
        if self.lines:
            self.lines.append("")
        self.lines += [self[key], _underline(self[key], "-")]

    def facts(self, changes: list[ValueChange], indent: str = "    ") -> None:
        self.lines += [f"{indent}{self.fact_change(c)}" for c in changes]

    def words_of(self, text: str, english: str) -> str:
        """A text as a reader sees it: its markup as words, its placeholders as gaps.

        ``english``: the text's source, which says what its placeholders are.
        """
        if self.links is not None:
            text = plain_text(inline(text, self.links))
        return readable(text, english)

    def texts(self, changes: list[TextChange], prefix: tuple[str, str] = ("", "")) -> None:
        """Old and new wording, each in the reader's language from its own edition's catalog.

        ``prefix``: the old and the new edition's start of the contexts (a rule's own
        texts are ``text#1`` under ``rules/16.4/``, then maybe ``rules/16.5/``).
        """
        for change in changes:
            if change.old is not None:
                shown = self.old(prefix[0] + change.context, change.old)
                self.lines.append(f"    {self.pair(self['old'], self.words_of(shown, change.old))}")
            if change.new is not None:
                shown = self.new(prefix[1] + change.context, change.new)
                self.lines.append(f"    {self.pair(self['new'], self.words_of(shown, change.new))}")

    def edition(self, edition: Edition) -> str:
        """An edition: its version, its date, and where it was read from (never a machine path).

        A revision is shown as it was given; a folder only by a relative path
        (an absolute one names this machine's folders, not the edition).
        """
        day = self.date(edition)
        source = "" if os.path.isabs(edition.source) else edition.source
        if not source:
            return edition.version if day is None else self.detail(edition.version, day)
        if day is not None:
            return fill_text(
                self["edition_dated"], version=edition.version, date=day, source=source
            )
        return fill_text(self["edition"], version=edition.version, source=source)


#: the page that shows the texts of a context's first part (``game``: the game's start
#: page, named by the game's title; others: no page)
WHERE = {
    "rules": "rules",
    "external_rules": "rules",
    "sequences": "sequences",
    "parameters": "scoring",
    "tables": "scoring",
    "rulings": "rulings",
    "glossary": "glossary",
    "examples": "examples",
    # the words of a table state and its fields are shown in the worked examples
    "vocabulary": "examples",
    "table_states": "examples",
    "not_in_source": "not-in-source",
    "sources": "sources",
}


#: the titles of the pages about sources, which their own module gives
_SOURCED_TITLES = {"not-in-source": SOURCE_TITLES["missing"], "sources": SOURCE_TITLES["sources"]}


def page_title(context: str) -> str | None:
    """The (English) title of the page that shows a text of this catalog context, if any."""
    key = WHERE.get(context.split("/", 1)[0])
    if key is None:
        return None
    return _SOURCED_TITLES.get(key) or PAGE_TITLES[key]


def where(w: DiffWords, change: TextChange, game_title: str) -> str:
    """What a changed text is: the page that shows it, and the items it belongs to.

    ("Rulings: Sorelia ambassadors in a set: One per set"); a text of the game
    itself is on the game's start page, named by the game's title.
    """
    page = page_title(change.context)
    shown = game_title if page is None else w.translate(page)
    owner = w.owner(change.owner)
    return w.pair(shown, owner) if owner else shown


def table_cell(w: DiffWords, cell: CellChange) -> str:
    """A run of a table's cells: the table, the rule it belongs to and the keys."""
    keys = w.keys(cell)
    detail = (
        keys if cell.rule is None else fill_text(w.translate(BOTH), first=cell.rule, second=keys)
    )
    return w.detail(w.text(cell.title), detail)


def render_diff(
    diff: Diff,
    lang: str,
    game_title: str,
    translate: Callable[[str], str] = lambda text: text,
    spec_text: Callable[[str, str], str] = lambda context, text: text,
    old_text: Callable[[str, str], str | None] | None = None,
    links: Links | None = None,
) -> str:
    """The report, ending with a newline.

    ``translate``: the interface's words; ``spec_text``: the new edition's catalog of
    the game; ``old_text``: the old edition's (see :meth:`DiffWords.old`).
    """
    w = DiffWords(lang, translate, spec_text, old_text, links)
    head = fill_text(
        w["heading"], game=game_title, old=w.edition(diff.old), new=w.edition(diff.new)
    )
    out = [head, _underline(head, "="), ""]
    if diff.changelog:
        w.heading("changelog")
        for entry in diff.changelog:
            line = w.pair(entry.version, w.words_of(w.text(entry.text), entry.text.text))
            rules = entry.numbers or entry.rules
            w.lines.append(f"  · {w.detail(line, w.rules(rules)) if rules else line}")
    if diff.rules:
        w.heading("rules")
        for rule in diff.rules:
            number = rule.new_number or rule.old_number or ""
            if rule.kind == "renumbered":
                kind = fill_text(w["renumbered"], old=rule.old_number)
            else:
                kind = w[rule.kind]
            title = w.old_title(rule.title) if rule.kind == "removed" else w.text(rule.title)
            w.lines.append(f"  {w.detail(f'{number} {title}', kind)}")
            # a rule that came or went has its title in the line above already
            whole = rule.kind in ("added", "removed")
            prefixes = (f"rules/{rule.old_number}/", f"rules/{rule.new_number}/")
            w.texts([t for t in rule.texts if not (whole and t.context == "title")], prefixes)
    if diff.parameters:
        w.heading("parameters")
        for param in diff.parameters:
            label = w.detail(w.text(param.description), param.rule)
            w.lines.append(f"  {w.pair(label, w.change(param.old, param.new))}")
    if diff.tables:
        w.heading("tables")
        for cell in diff.tables:
            what = w.pair(w.text(cell.value_label), w.change(cell.old, cell.new))
            w.lines.append(f"  {w.pair(table_cell(w, cell), what)}")
    if diff.orders:
        w.heading("orders")
        for order in diff.orders:
            key = "steps" if order.kind == "steps" else "criteria"
            label = fill_text(w[key], sequence=w.text(order.title), step=w.text(order.title))
            w.lines.append(f"  {label}")
            for side, items in (("old", order.old), ("new", order.new)):
                named = w.old_title if side == "old" else w.text
                shown = [
                    f"{i.key} {named(i.title)}" if order.kind == "steps" else named(i.title)
                    for i in items
                ]
                w.lines.append(
                    f"    {w.pair(w[side], format_list(shown, locale=lang) if shown else '—')}"
                )
    if diff.rulings:
        w.heading("rulings")
        for ruling in diff.rulings:
            ruling_title = (
                w.old_title(ruling.title) if ruling.kind == "removed" else w.text(ruling.title)
            )
            title = quote(ruling_title, lang)
            if ruling.kind == "added":
                assert ruling.new_default is not None
                what = fill_text(w["ruling_added"], option=w.text(ruling.new_default))
            elif ruling.kind == "removed":
                what = w["ruling_removed"]
            else:
                assert ruling.old_default is not None
                assert ruling.new_default is not None
                what = fill_text(
                    w["ruling_default"],
                    old=w.old_title(ruling.old_default),
                    new=w.text(ruling.new_default),
                )
            w.lines.append(f"  {w.pair(title, what)}")
    if diff.examples:
        w.heading("examples")
        for example in diff.examples:
            name = (
                w.old_title(example.title) if example.kind == "removed" else w.text(example.title)
            )
            w.lines.append(f"  {w.pair(name, w['example_' + example.kind])}")
            w.facts(example.stated)
    if diff.texts:
        w.heading("texts")
        for change in diff.texts:
            # named by the page that shows it and what it belongs to, as the changes page
            # names it (its context is for translators), in the reader's words
            w.lines.append(f"  {where(w, change, game_title)}")
            w.texts([change])
    w.heading("consequences")
    w.lines.append(fill_text(w["rescored"], count=w.value(diff.rescored)))
    if diff.left_out:
        w.lines.append(fill_text(w["left_out"], count=w.value(len(diff.left_out))))
    if not diff.consequences:
        w.lines.append(w["no_consequences"])
    for found in diff.consequences:
        name = w.old_title(found.title)
        if found.kind == "unscorable":
            w.lines.append(f"  {w.pair(name, w['unscorable'])}")
            if lang == SOURCE_LANGUAGE:
                # why, located in the old edition's files: the spec check's own English,
                # for the spec's authors (the JSON has it in every language)
                w.lines += [f"    {problem}" for problem in found.problems]
        else:
            w.lines.append(f"  {name}")
            w.facts(found.changes)
    if not diff.changed:
        w.lines += ["", w["nothing"]]
    out += w.lines
    return "\n".join(visible(typeset(line, lang)) for line in out).rstrip() + "\n"
