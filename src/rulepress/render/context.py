"""What every renderer needs: the spec in the reader's language and how to word and number things."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import NamedTuple

from babel.lists import format_list

from rulepress.i18n.runtime import LocaleNumbers, Localized
from rulepress.i18n.typography import number_range, sort_key
from rulepress.model.languages import SOURCE_LANGUAGE
from rulepress.model.spec_model import (
    Bound,
    Ruling,
    Spec,
    Table,
    Tally,
    Term,
    Winners,
    all_steps,
    bound_value,
)
from rulepress.model.text import PluralIndex, english_plural
from rulepress.uitext import PluralText, english_form, ui


class RenderContext(NamedTuple):
    """A spec already translated into ``lang``, and the interface translation and number format.

    A NamedTuple (a variant is made with ``_replace``): a frozen dataclass's methods were
    compiled each time a score imported this module.
    """

    spec: Spec
    lang: str
    translate: Callable[[str], str]
    number: Callable[[int], str]
    #: the plural rule of the spec's text (its catalog's, or English for the source)
    plural: PluralIndex = english_plural
    #: by glossary term id, the term's checked icon as a data URI (print only)
    icons: Mapping[str, str] = MappingProxyType({})
    #: an interface sentence with forms by number, in the form the reader's language uses
    translate_plural: Callable[[PluralText, int], str] = english_form

    @classmethod
    def of(
        cls, local: Localized, lang: str, icons: Mapping[str, str] | None = None
    ) -> RenderContext:
        """The context of a spec localized into ``lang``.

        Its texts, the interface's translations, the language's numbers (English's
        are plain) and its plural rule.
        """
        numbers: Callable[[int], str] = LocaleNumbers(lang) if lang != SOURCE_LANGUAGE else str
        return cls(
            local.loaded.spec,
            lang,
            local.renderer.translate,
            numbers,
            local.renderer.plain.plural,
            icons or {},
            local.renderer.translate_plural,
        )

    def t(self, text: str) -> str:
        """An interface sentence (marked with ``ui``) in the reader's language."""
        return self.translate(text)

    def table_rows(self, table: Table) -> list[tuple[str, str]]:
        """A table's rows as the reader's locale writes them: (the key or range, the value).

        A row of a table keyed by a named set shows its member as the vocabulary's word.
        """
        params = self.spec.parameters
        words = self.spec.vocabulary

        def num(value: Bound | None) -> str:
            return "" if value is None else self.number(bound_value(value, params))

        rows = []
        for row in table.rows:
            if row.key is not None:
                rows.append((words.get(row.key, row.key), num(row.value)))
                continue
            low, high = num(row.min), num(row.max)
            key = low if not high or high == low else number_range(low, high, self.lang)
            rows.append((key, num(row.value)))
        return rows

    @staticmethod
    def states_who_cannot_win(rule: Winners) -> bool:
        """Whether the spec has a rule on who cannot win (an always-true test says nothing)."""
        return rule.eligible.test.strip() != "True"

    def glossary(self) -> list[Term]:
        """The glossary in the language's alphabetical order (Japanese by the termbase's reading)."""
        key = sort_key(self.lang)
        base = self.spec.termbase.get(self.lang)
        renderings: Mapping[str, object] = base.terms if base is not None else {}

        def reading(term: Term) -> str:
            return str(getattr(renderings.get(term.id), "reading", "") or term.term)

        return sorted(self.spec.glossary, key=lambda t: key(t.term, reading(t)))


#: what a vote's facts are called, by the key an example states them with
#: (totals, ranking, winners, flows), in the score report and on the examples page
TALLY_FACTS = {
    "totals": ui("report.tally", "Votes"),
    "ranking": ui("report.tally", "Ranking"),
    "winners": ui("report.tally", "Won"),
    "flows": ui("report.tally", "Where the cubes go"),
}


def listed(items: list[str], lang: str) -> str:
    """Like things as the language lists them ("a, b a c"; "a、b、c"), or "—" for none."""
    return format_list(items, locale=lang) if items else "—"


def votes(name: str, count: str) -> str:
    """A candidate and its votes, as a vote's totals list them: "Komek 5"."""
    return f"{name} {count}"


def route(player: str, where: str) -> str:
    """Where a player's cubes go after a vote: "Blue → Council"."""
    return f"{player} → {where}"


def offering(spec: Spec, option: str) -> Ruling | None:
    """The ruling that offers ``option`` (an option id), or None if none does."""
    for ruling in spec.rulings:
        if any(candidate.id == option for candidate in ruling.options):
            return ruling
    return None


def option_title(spec: Spec, option: str) -> str:
    """A ruling option's title in the spec's language (its id only if no ruling offers it)."""
    ruling = offering(spec, option)
    if ruling is None:
        return option
    return next(c.title for c in ruling.options if c.id == option)


class IdNames:
    """What the reader calls a spec id: a vote's candidate or route label, a word, a term.

    Shared by the writers (pages, score reports), so an id shows the same name
    everywhere, and never itself where the spec gives one.
    """

    def __init__(self, spec: Spec) -> None:
        self.vocabulary = dict(spec.vocabulary)
        self.tallies: dict[str, Tally] = {
            step.tally.id: step.tally
            for seq in spec.sequences
            for step in all_steps(seq.steps)
            if step.tally is not None
        }
        self.terms = {t.id: t.term for t in spec.glossary}

    def name(self, tally_id: str, value: str) -> str:
        tally = self.tallies.get(tally_id)
        if tally is not None:
            found = tally.candidates.get(value) or tally.routes.get(value)
            if found:
                return found
        return self.vocabulary.get(value) or self.terms.get(value) or value

    def stage(self, tally_id: str, stage_id: str) -> str:
        """The title of a stage of a vote's counting (its id if the vote has no such stage)."""
        tally = self.tallies.get(tally_id)
        found = [s.title for s in tally.stages if s.id == stage_id] if tally else []
        return found[0] if found else stage_id
