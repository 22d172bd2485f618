"""QA of ``{param:x|…}`` and ``{count|…}``: a number and the words that agree with it.

A parameter's value can change (a variant, a second edition), so a sentence
that counts something with it must agree with every value, not only with
today's: "1 bod", "2 body", "5 bodů". Spec text gives the forms inline,
``{param:x|# point|# points}``, and a translation gives its own language's
forms in its ``Plural-Forms`` order. This module re-renders a message with
the counts in :data:`COUNTS` and reports:

- a number of forms other than the catalog's ``nplurals``, or an empty form;
- agreement frozen to one value: the English words change with the count,
  but the translation reads the same for 1, 2, 5 and 21 although its language
  tells those counts apart.
"""

from __future__ import annotations

import contextlib

from babel import Locale, UnknownLocaleError

from rulepress.i18n.plural import PluralRule
from rulepress.model.text import PluralIndex, Ref, english_plural, scan, show_param, transform

#: the counts a message is re-rendered with: one, few and other in Czech, and 21,
#: which some languages (Russian, Polish) put back in a different form than 5
COUNTS = (1, 2, 5, 21)
#: stands for the number while renderings are compared
_NUMBER = "\x00"


def _label(token: Ref) -> str:
    """How a counted placeholder is named in a finding: ``{param:x|…}`` or ``{count|…}``."""
    if token.kind == "param":
        return f"{{param:{token.target}|…}}"
    return f"{{{token.target}|…}}"


def _render(text: str, name: str, count: int, plural: PluralIndex) -> str:
    """``text`` with the number ``name`` at ``count`` (the number itself masked)."""

    def ref(token: Ref) -> str:
        if token.kind in ("param", "arg") and _label(token) == name:
            return show_param(token, count, _NUMBER, plural)
        return text[token.start : token.end]

    return transform(text, str, ref)


def _params(text: str) -> dict[str, list[Ref]]:
    """The numbers of a text that words may count: parameters and the scorer's arguments."""
    out: dict[str, list[Ref]] = {}
    for token in scan(text):
        if isinstance(token, Ref) and token.kind in ("param", "arg"):
            out.setdefault(_label(token), []).append(token)
    return out


def agreement_issues(
    source: str, string: str, rule: PluralRule | None, language: str
) -> list[tuple[str, bool]]:
    """(message, is an error) for each ``{param:…}`` of ``string`` that does not agree."""
    problems: list[tuple[str, bool]] = []
    translated = _params(string)
    with contextlib.suppress(ValueError, UnknownLocaleError):  # else the code as given
        language = Locale.parse(language).english_name or language
    if rule is not None:
        for name, found in translated.items():
            for token in found:
                if token.forms and len(token.forms) != rule.nplurals:
                    problems.append(
                        (
                            f"{name} has {len(token.forms)} form(s); {language}"
                            f" has {rule.nplurals} (nplurals in the catalog's Plural-Forms)",
                            True,
                        )
                    )
                if token.forms and not all(form.strip() for form in token.forms):
                    problems.append((f"{name} has an empty form", True))
    if rule is None or rule.nplurals < 2:
        return problems  # one form for every count (Japanese): nothing can be frozen
    distinguished = len({rule.index(n) for n in COUNTS})
    for name in _params(source):
        if name not in translated:
            continue  # a missing placeholder is reported by the placeholder check
        if all(token.forms for token in translated[name]):
            # forms given, one per plural form: the translator has said what each count
            # reads (a noun may be the same in all of them: "1 vítězství", "5 vítězství")
            continue
        english = {_render(source, name, n, english_plural) for n in COUNTS}
        if len(english) < 2:
            continue  # the source's words do not change with the count
        ours = {_render(string, name, n, rule.index) for n in COUNTS}
        if len(ours) < 2 <= distinguished:
            problems.append(
                (
                    f"{name.replace('|…', '')}: the source's words change with the number,"
                    f" the translation reads the same for {', '.join(map(str, COUNTS))}: give"
                    f" its {rule.nplurals} forms, {name} (# is the number)",
                    True,
                )
            )
    return problems
