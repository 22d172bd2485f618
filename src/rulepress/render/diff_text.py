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

from collections.abc import Callable
from typing import Any

from babel.lists import format_list
from babel.numbers import format_decimal
from wcwidth import wcswidth

from rulepress.editions.model import CellChange, Diff, Edition, Text, TextChange, ValueChange
from rulepress.i18n.typography import quote, typeset
from rulepress.render.context import TALLY_FACTS
from rulepress.render.pages import DECIDED, YES_NO
from rulepress.render.pages import T as PAGE_TITLES
from rulepress.render.patterns import Joined, fill_text
from rulepress.render.sources import T as SOURCE_TITLES
from rulepress.render.text_writer import visible
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
    # worked examples by id, which `rulepress validate` on the old edition explains
    "left_out": ui("diff", "Left out, as the old edition's own check refuses them: {examples}"),
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
    ) -> None:
        super().__init__(translate)
        self.lang = lang
        self.spec_text = spec_text
        self.lines: list[str] = []

    def __getitem__(self, key: str) -> str:
        return self.translate(LABELS[key])

    def text(self, text: Text) -> str:
        return self.spec_text(text.context, text.text)

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
        return fill_text(self["fact_of"], fact=what, player=change.player)

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

    def texts(
        self, changes: list[TextChange], context: str | None = None, indent: str = "    "
    ) -> None:
        """Old and new wording, each as the game's catalog has it when ``context`` is given.

        (The old English, which today's catalog no longer holds, stays English.)
        """
        for change in changes:
            for key, wording in (("old", change.old), ("new", change.new)):
                if wording is None:
                    continue
                shown = wording if context is None else self.spec_text(context, wording)
                self.lines.append(f"{indent}{self.pair(self[key], shown)}")

    def edition(self, edition: Edition) -> str:
        if edition.date:
            return fill_text(
                self["edition_dated"],
                version=edition.version,
                date=edition.date,
                source=edition.source,
            )
        return fill_text(self["edition"], version=edition.version, source=edition.source)


#: the page that shows the texts of a context's first part (others: no page)
WHERE = {
    "rules": "rules",
    "sequences": "sequences",
    "parameters": "scoring",
    "tables": "scoring",
    "rulings": "rulings",
    "glossary": "glossary",
    "examples": "examples",
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


def render_diff(
    diff: Diff,
    lang: str,
    game_title: str,
    translate: Callable[[str], str] = lambda text: text,
    spec_text: Callable[[str, str], str] = lambda context, text: text,
) -> str:
    """The report, ending with a newline (``translate``: interface words; ``spec_text``: the game's)."""
    w = DiffWords(lang, translate, spec_text)
    head = fill_text(
        w["heading"], game=game_title, old=w.edition(diff.old), new=w.edition(diff.new)
    )
    out = [head, _underline(head, "="), ""]
    if diff.changelog:
        w.heading("changelog")
        for entry in diff.changelog:
            line = w.pair(entry.version, w.text(entry.text))
            w.lines.append(f"  · {w.detail(line, w.rules(entry.rules)) if entry.rules else line}")
    if diff.rules:
        w.heading("rules")
        for rule in diff.rules:
            number = rule.new_number or rule.old_number or ""
            if rule.kind == "renumbered":
                kind = fill_text(w["renumbered"], old=rule.old_number)
            else:
                kind = w[rule.kind]
            w.lines.append(f"  {w.detail(f'{number} {w.text(rule.title)}', kind)}")
            # a rule that came or went has its title in the line above already
            whole = rule.kind in ("added", "removed")
            w.texts([t for t in rule.texts if not (whole and t.context == "title")])
    if diff.parameters:
        w.heading("parameters")
        for param in diff.parameters:
            label = w.detail(w.text(param.description), param.rule)
            w.lines.append(f"  {w.pair(label, w.change(param.old, param.new))}")
    if diff.tables:
        w.heading("tables")
        for cell in diff.tables:
            keys = w.keys(cell)
            what = w.pair(w.text(cell.value_label), w.change(cell.old, cell.new))
            w.lines.append(f"  {w.pair(w.detail(w.text(cell.title), keys), what)}")
    if diff.orders:
        w.heading("orders")
        for order in diff.orders:
            key = "steps" if order.kind == "steps" else "criteria"
            label = fill_text(w[key], sequence=w.text(order.title), step=w.text(order.title))
            w.lines.append(f"  {label}")
            for side, items in (("old", order.old), ("new", order.new)):
                shown = [
                    f"{i.key} {w.text(i.title)}" if order.kind == "steps" else w.text(i.title)
                    for i in items
                ]
                w.lines.append(
                    f"    {w.pair(w[side], format_list(shown, locale=lang) if shown else '—')}"
                )
    if diff.rulings:
        w.heading("rulings")
        for ruling in diff.rulings:
            title = quote(w.text(ruling.title), lang)
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
                    old=w.text(ruling.old_default),
                    new=w.text(ruling.new_default),
                )
            w.lines.append(f"  {w.pair(title, what)}")
    if diff.examples:
        w.heading("examples")
        for example in diff.examples:
            name = w.detail(w.text(example.title), example.id)
            w.lines.append(f"  {w.pair(name, w['example_' + example.kind])}")
            w.facts(example.stated)
    if diff.texts:
        w.heading("texts")
        for change in diff.texts:
            # named by the page that shows it, as the changes page does (the context, which
            # is for translators, only where no page shows the text), in the reader's words
            page = page_title(change.context)
            w.lines.append(f"  {change.context if page is None else w.translate(page)}")
            w.texts([change], change.context)
    w.heading("consequences")
    w.lines.append(fill_text(w["rescored"], count=w.value(diff.rescored)))
    if diff.left_out:
        ids = format_list(diff.left_out, locale=lang)
        w.lines.append(fill_text(w["left_out"], examples=ids))
    if not diff.consequences:
        w.lines.append(w["no_consequences"])
    for found in diff.consequences:
        name = w.detail(w.text(found.title), found.id)
        if found.kind == "unscorable":
            w.lines.append(f"  {w.pair(name, w['unscorable'])}")
            w.lines += [f"    {problem}" for problem in found.problems]
        else:
            w.lines.append(f"  {name}")
            w.facts(found.changes)
    if not diff.changed:
        w.lines += ["", w["nothing"]]
    out += w.lines
    return "\n".join(visible(typeset(line, lang)) for line in out).rstrip() + "\n"
