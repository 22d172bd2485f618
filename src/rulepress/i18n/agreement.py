"""QA of ``{param:x|…}``: a number from the spec and the words that agree with it.

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
from rulepress.spec.text import PluralIndex, Ref, english_plural, scan, show_param, transform

#: the counts a message is re-rendered with: one, few and other in Czech, and 21,
#: which some languages (Russian, Polish) put back in a different form than 5
COUNTS = (1, 2, 5, 21)
#: stands for the number while renderings are compared
_NUMBER = "\x00"


def _render(text: str, name: str, count: int, plural: PluralIndex) -> str:
    """``text`` with parameter ``name`` at ``count`` (the number itself masked)."""

    def ref(token: Ref) -> str:
        if token.kind == "param" and token.target == name:
            return show_param(token, count, _NUMBER, plural)
        return text[token.start : token.end]

    return transform(text, str, ref)


def _params(text: str) -> dict[str, list[Ref]]:
    out: dict[str, list[Ref]] = {}
    for token in scan(text):
        if isinstance(token, Ref) and token.kind == "param":
            out.setdefault(token.target, []).append(token)
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
                            f"{{param:{name}|…}} has {len(token.forms)} form(s); {language}"
                            f" has {rule.nplurals} (nplurals in the catalog's Plural-Forms)",
                            True,
                        )
                    )
                if token.forms and not all(form.strip() for form in token.forms):
                    problems.append((f"{{param:{name}|…}} has an empty form", True))
    if rule is None or rule.nplurals < 2:
        return problems  # one form for every count (Japanese): nothing can be frozen
    distinguished = len({rule.index(n) for n in COUNTS})
    for name in _params(source):
        if name not in translated:
            continue  # a missing placeholder is reported by the placeholder check
        english = {_render(source, name, n, english_plural) for n in COUNTS}
        if len(english) < 2:
            continue  # the source's words do not change with the count
        ours = {_render(string, name, n, rule.index) for n in COUNTS}
        if len(ours) < 2 <= distinguished:
            problems.append(
                (
                    f"{{param:{name}}}: the source's words change with the number, the"
                    f" translation reads the same for {', '.join(map(str, COUNTS))}: give its"
                    f" {rule.nplurals} forms, {{param:{name}|…}} (# is the number)",
                    True,
                )
            )
    return problems
