"""``{param:x|…}``: a spec number and the words that agree with it, in every output.

The same token is rendered by the plain-text writer (scorer, JSON), the site's
document trees and the print HTML; each must pick the form of the reader's
language for the parameter's value, so a variant or a new edition that
changes the value changes the words with it. QA's side (forms per language,
agreement frozen to one value) is pinned by the bad catalogs
tests/data/bad_catalogs/*.param-plurals-*.po.
"""

from __future__ import annotations

import pytest

from rulepress.i18n.agreement import agreement_issues
from rulepress.i18n.plural import parse_plural_forms
from rulepress.model.text import english_plural, scan, to_plain
from rulepress.render.context import RenderContext
from rulepress.render.markup import inline
from rulepress.render.pages import links_of
from rulepress.render.print_trees import inline as print_inline
from rulepress.render.tree import Span, Text, plain_text
from rulepress.scoring.notes import NoteRenderer, plain_context
from tests.conftest import loaded

CZECH = parse_plural_forms("nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;").rule
KOLA = "Hra trvá {param:rounds|# kolo|# kola|# kol}."


def _spec_with_rounds(value: int):  # type: ignore[no-untyped-def]
    spec = loaded("brink").spec
    rounds = spec.parameters["rounds"]
    return spec.model_copy(
        update={
            "parameters": {**spec.parameters, "rounds": rounds.model_copy(update={"value": value})}
        }
    )


def test_the_token_keeps_its_forms_whole_and_its_placeholder_without_them() -> None:
    (token,) = scan("{param:rounds|# kolo|# kola|# kol}")
    assert (token.kind, token.target, token.forms) == (
        "param",
        "rounds",
        ("# kolo", "# kola", "# kol"),
    )
    assert token.placeholder == "{param:rounds}"
    (plain,) = scan("{param:rounds}")
    assert plain.forms == ()
    assert plain.placeholder == "{param:rounds}"


@pytest.mark.parametrize(
    ("value", "czech", "english"),
    [
        (1, "1 kolo", "1 round"),
        (2, "2 kola", "2 rounds"),
        (5, "5 kol", "5 rounds"),
        (21, "21 kol", "21 rounds"),
    ],
)
def test_plain_text_agrees_with_the_value(value: int, czech: str, english: str) -> None:
    ctx = plain_context(_spec_with_rounds(value))
    assert to_plain(KOLA, ctx._replace(plural=CZECH.index)) == f"Hra trvá {czech}."
    assert to_plain("It lasts {param:rounds|# round|# rounds}.", ctx) == f"It lasts {english}."


def test_a_form_may_place_the_number_anywhere_or_leave_it_out() -> None:
    ctx = plain_context(_spec_with_rounds(1))
    assert to_plain("{param:rounds|one round|# rounds}", ctx) == "one round"
    assert (
        to_plain("ゲームは{param:rounds|#ラウンド}", ctx._replace(plural=lambda n: 0))
        == "ゲームは1ラウンド"
    )


@pytest.mark.parametrize(("value", "shown"), [(1, "1 kolo"), (3, "3 kola"), (8, "8 kol")])
def test_site_and_print_pick_the_same_form(value: int, shown: str) -> None:
    ctx = RenderContext(_spec_with_rounds(value), "cs", str, str, CZECH.index)
    assert inline(KOLA, links_of(ctx)) == [Text(text=f"Hra trvá {shown}.")]
    printed = print_inline(KOLA, ctx)
    assert all(isinstance(n, Text) for n in printed)  # text only
    assert plain_text(printed) == f"Hra trvá {shown}."


def test_the_english_source_agrees_too() -> None:
    ctx = RenderContext(_spec_with_rounds(1), "en", str, str)
    assert ctx.plural is english_plural
    assert inline("over {param:rounds|# round|# rounds}", links_of(ctx)) == [
        Text(text="over 1 round")
    ]


def test_qa_flags_agreement_frozen_to_todays_value_and_only_that() -> None:
    source = "The game lasts {param:rounds|# round|# rounds}."
    frozen = agreement_issues(source, "Hra trvá {param:rounds} kol.", CZECH, "cs")
    assert [error for _, error in frozen] == [True]
    assert "reads the same for 1, 2, 5, 21" in frozen[0][0]
    assert agreement_issues(source, KOLA, CZECH, "cs") == []
    # a source whose words do not change with the number leaves the translation free
    assert agreement_issues("Lose {param:rounds}.", "Ztrácíte {param:rounds}.", CZECH, "cs") == []
    # one form for every count: Japanese cannot freeze anything
    japanese = parse_plural_forms("nplurals=1; plural=0;").rule
    assert agreement_issues(source, "ゲームは{param:rounds}ラウンド続く。", japanese, "ja") == []


def test_a_form_may_hold_a_glossary_link_and_every_writer_links_it() -> None:
    source = "Draw {param:rounds|# [Rider](term:rider) card|# [Rider](term:rider) cards}."
    spec = _spec_with_rounds(2)
    assert to_plain(source, plain_context(spec)) == "Draw 2 Rider cards."
    ctx = RenderContext(spec, "en", str, str)
    nodes = inline(source, links_of(ctx))
    assert [type(n).__name__ for n in nodes] == ["Text", "Ref", "Text"]
    assert nodes[0] == Text(text="Draw 2 ")
    assert nodes[2] == Text(text=" cards.")
    printed = print_inline(source, ctx)
    shown = "".join(
        "[" + plain_text(n.children) + "]" if isinstance(n, Span) else plain_text([n])
        for n in printed
    )
    assert shown == "Draw 2 [Rider] cards."


def test_checks_read_the_links_inside_forms() -> None:
    from rulepress.model.text import scan_deep

    source = "{param:rounds|# [Rider](term:rider) card|# [Rider](term:rider) cards}"
    links = [t.target for t in scan_deep(source) if getattr(t, "words", "")]
    assert links == ["rider"]  # repeated in every form, counted once
    czech = "{param:rounds|# kartu [doložky](term:rider)|# karty [doložek](term:rider)|# karet [doložek](term:rider)}"
    assert agreement_issues(source, czech, CZECH, "cs") == []


# --- the scorer's own numbers: ``{count|# unit|# units}`` in a note template


@pytest.mark.parametrize(
    ("wins", "english", "czech"),
    [
        (1, "bonus for 1 council win", "1 výhra"),
        (3, "bonus for 3 council wins", "3 výhry"),
        (5, "bonus for 5 council wins", "5 výher"),
    ],
)
def test_a_note_argument_agrees_with_its_value(wins: int, english: str, czech: str) -> None:
    spec = loaded("brink").spec
    en = NoteRenderer.english(spec)
    assert en.text("bonus for {wins|# council win|# council wins}", {"wins": wins}) == english
    cs = NoteRenderer("cs", plain_context(spec)._replace(plural=CZECH.index))
    assert cs.text("{wins|# výhra|# výhry|# výher}", {"wins": wins}) == czech
    # the lazy note of a scoring line reads the same
    assert cs.note("{wins|# výhra|# výhry|# výher}", {"wins": wins}).text == czech
    # plain text (JSON fields) too
    ctx = plain_context(spec)._replace(plural=CZECH.index)
    assert to_plain("{wins|# výhra|# výhry|# výher}", ctx, {"wins": wins}) == czech


def test_an_argument_that_is_not_a_number_shows_as_it_is() -> None:
    en = NoteRenderer.english(loaded("brink").spec)
    assert en.text("{wins|# win|# wins}", {"wins": "Komek"}) == "Komek"
    (token,) = scan("{wins|# win|# wins}")
    assert (token.kind, token.forms, token.placeholder) == ("arg", ("# win", "# wins"), "{wins}")


def test_qa_reads_argument_forms_like_parameter_forms() -> None:
    source = "bonus for {wins|# council win|# council wins}"
    frozen = agreement_issues(source, "bonus za {wins} výher", CZECH, "cs")
    assert [error for _, error in frozen] == [True]
    assert "{wins}: the source's words change" in frozen[0][0]
    assert agreement_issues(source, "bonus za {wins|# výhru|# výhry|# výher}", CZECH, "cs") == []
    two = agreement_issues(source, "bonus za {wins|# výhru|# výher}", CZECH, "cs")
    assert "{wins|…} has 2 form(s)" in two[0][0]
    assert two[0][1]


def test_forms_that_read_the_same_are_the_translators_word() -> None:
    # Czech "vítězství" is the same for every count: forms given, nothing is frozen
    source = "bonus for {wins|# council win|# council wins}"
    same = "bonus za {wins|# vítězství|# vítězství|# vítězství}"
    assert agreement_issues(source, same, CZECH, "cs") == []
