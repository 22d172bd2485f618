"""Translator QA: checks every msgstr against its msgid, knowing the domain.

Each problem is reported as ``file.po:line: msgctxt: problem``. Errors (exit
non-zero): untranslated or fuzzy entries, placeholders or glossary links
missing or added, rule numbers or numbers that differ once read the way the
locale writes them (Czech ``1,5`` is 1.5 and ``1 234`` is 1234; Japanese
full-width ``１２`` is 12 — Translate Toolkit's number check gets both wrong;
in Japanese a digit may also stand for an English number word of the msgid,
"three rounds" as ``3ラウンド``, never more often than the msgid has it),
markup or directive syntax the source does not have, a broken bullet list,
the wrong number of plural forms, and a linked glossary term whose words are
not an approved rendering, and invisible or line-breaking characters the
source does not have (CR, NUL, NEL, U+2028/2029, bidi controls), English
left in the translation (:mod:`rulepress.i18n.english_left`), number words
changed (:mod:`rulepress.i18n.number_words`: "five" written "šest"), and what
the publication gate would find on the page (:mod:`rulepress.i18n.reader_text`:
ASCII punctuation in Japanese, spec markup). Warnings: a glossary term named in
the English without a link whose approved rendering does not appear in the
translation, and a cardinal of the English that the translation does not
have.

The split between *unsafe* and *QA only* is explicit: a finding with
``safety=True`` (printed ``unsafe:``) is one that
:func:`rulepress.i18n.safety.check_safe` also finds, so every build refuses
the catalog; every other error is for the translator to fix, and the builds
show such text as text (see the docstring of :mod:`rulepress.i18n.safety`).
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from functools import cache, lru_cache
from pathlib import Path

from babel import Locale, UnknownLocaleError
from babel.messages.catalog import Catalog, Message

from rulepress.errors import Problem
from rulepress.i18n.agreement import agreement_issues
from rulepress.i18n.english_left import english_issues
from rulepress.i18n.number_words import number_words, word_issues
from rulepress.i18n.plural import PluralRule
from rulepress.i18n.reader_text import RawIds, japanese_punctuation, raw_ids, spec_markup
from rulepress.i18n.safety import check_structure, message_problems
from rulepress.i18n.vocabulary import vocabulary_issues
from rulepress.model.spec_model import Term, TermRendering
from rulepress.model.text import Ref, Stray, scan_deep, transform


@dataclass(frozen=True, slots=True)
class Issue:
    """One problem with an entry: an error or a warning, and whether it makes the catalog unsafe.

    ``safety`` issues are the ones :func:`rulepress.i18n.safety.check_safe` also
    finds, so the builds refuse the catalog; the rest are QA only (the builds
    show the text as text).
    """

    message: str
    error: bool = True
    safety: bool = False


@dataclass(frozen=True, slots=True)
class Finding:
    file: str
    line: int
    context: str
    message: str
    error: bool = True
    safety: bool = False
    column: int = 0

    def __str__(self) -> str:
        kind = "unsafe: " if self.safety else "" if self.error else "warning: "
        where = f"{self.file}:{self.line}" + (f":{self.column}" if self.column else "")
        return f"{where}: {self.context or '-'}: {kind}{self.message}"

    @classmethod
    def unsafe(cls, problem: Problem) -> Finding:
        loc = problem.location
        return cls(loc.file, loc.line, problem.where, problem.message, True, True, loc.column)


@dataclass(frozen=True)
class Terms:
    """A domain's glossary (English names) and its approved renderings in one language."""

    english: Mapping[str, str]
    approved: Mapping[str, TermRendering]

    @classmethod
    def empty(cls) -> Terms:
        return cls({}, {})

    @classmethod
    def of(cls, glossary: Iterable[Term], termbase: Mapping[str, TermRendering]) -> Terms:
        return cls({t.id: t.term for t in glossary}, termbase)

    def forms(self, term_id: str) -> list[str]:
        entry = self.approved.get(term_id)
        if entry is None:
            return []
        return [f.casefold() for f in (entry.term, *entry.forms)]


# Markup that may never appear in a translation unless the source has it: it
# would turn a translated string into markup, a directive or executable code.
_MARKUP = [
    (re.compile(r"</?[A-Za-z][^>]*>"), "an HTML tag"),
    (re.compile(r"`"), "a backtick"),
    (re.compile(r"\*\*|__"), "Markdown emphasis"),
    (re.compile(r"(^|\s):[a-z][a-z-]*:"), "a role (:name:)"),
    (re.compile(r"(^|\n)\s*\.\. "), "a reST directive"),
    (re.compile(r">>>|\.\.\. "), "a doctest prompt"),
    (re.compile(r"\]\((?!term:)"), "a Markdown link"),
    (re.compile(r"\$\$|\\\("), "a math block"),
    (re.compile(r"(^|\n)\s*#{1,6} "), "a heading"),
    (re.compile(r"&[a-z]+;|&#"), "an HTML entity"),
]
# named here because unicodedata calls them only "<control>" or by a long name
_CONTROL_NAMES = {
    "\x00": "NUL",
    "\r": "carriage return",
    "\x85": "next line (NEL)",
    "\u2028": "line separator",
    "\u2029": "paragraph separator",
    "\u202a": "left-to-right embedding",
    "\u202b": "right-to-left embedding",
    "\u202c": "pop directional formatting",
    "\u202d": "left-to-right override",
    "\u202e": "right-to-left override",
    "\u2066": "left-to-right isolate",
    "\u2067": "right-to-left isolate",
    "\u2068": "first strong isolate",
    "\u2069": "pop directional isolate",
    "\u200e": "left-to-right mark",
    "\u200f": "right-to-left mark",
    "\u061c": "arabic letter mark",
}
# A bare rule number outside a {rule:…} placeholder: three or more parts, since
# "1.5" is a decimal in English (rule numbers in spec text are placeholders anyway).
_RULE_NUMBER = re.compile(r"(?<![\d.,])\d+(?:\.\d+){2,}(?![\d.,])")


def _refs(text: str) -> tuple[Counter[str], Counter[str], int]:
    """Placeholders (as written), glossary-link targets, and stray braces of a text."""
    placeholders: Counter[str] = Counter()
    links: Counter[str] = Counter()
    stray = 0
    for token in scan_deep(text):
        if isinstance(token, Stray):
            stray += 1
        elif token.words:
            links[token.target] += 1
        else:
            # as kept: a {param:x|…}'s forms are words, translated like the rest
            placeholders[token.placeholder] += 1
    return placeholders, links, stray


def _without_refs(text: str) -> str:
    """The text with placeholders and link targets removed (their digits are not numbers)."""
    return transform(text, str, lambda token: token.words)


# Target languages that write counts as digits where English writes a number word.
# Czech is not here: like English it spells small counts (dva hráči, třikrát).
_DIGITS_FOR_WORDS = frozenset({"ja"})


def numbers(text: str, lang: str) -> Counter[Decimal]:
    """The numbers a reader of ``lang`` sees in ``text``, as values."""
    plain = unicodedata.normalize("NFKC", _without_refs(text))  # full-width digits → ASCII
    plain = _RULE_NUMBER.sub(" ", plain)  # rule numbers are compared on their own
    pattern, groups, decimal = _number_format(lang)
    out: Counter[Decimal] = Counter()
    for match in pattern.finditer(plain):
        raw = match.group(0)
        raw = "".join(c for c in raw if c not in groups).replace(decimal, ".")
        try:
            out[Decimal(raw)] += 1
        except InvalidOperation:  # pragma: no cover - the patterns only match numbers
            continue
    return out


#: spaces a group separator written as a space may be typed as (1 234, 1\u00a0234, 1\u202f234)
_SPACES = " \u00a0\u202f"


@cache
def _number_format(lang: str) -> tuple[re.Pattern[str], str, str]:
    """How ``lang`` writes a number: a pattern, its group separators and its decimal sign.

    From CLDR (through Babel): Czech 1 234,5, German 1.234,5, English and
    Japanese 1,234.5. A separator that is a space may be any of the spaces a
    translator types for it. A code Babel does not know reads as English.
    """
    try:
        symbols = Locale.parse(lang).number_symbols.get("latn", {})
    except (ValueError, TypeError, UnknownLocaleError):
        symbols = {}
    group, decimal = str(symbols.get("group", ",")), str(symbols.get("decimal", "."))
    groups = _SPACES if group in _SPACES else group
    g, d = f"[{re.escape(groups)}]", re.escape(decimal)
    return re.compile(rf"\d{{1,3}}(?:{g}\d{{3}})+(?:{d}\d+)?|\d+(?:{d}\d+)?"), groups, decimal


def _bullets(text: str) -> int:
    return sum(1 for line in text.splitlines() if line.lstrip().startswith("- "))


def _mentions(text: str, term: str) -> bool:
    # most terms are not in most texts: the substring test spares the search (a match
    # holds the term as written), and each term's pattern is compiled once
    return term in text and _mention_pattern(term).search(text) is not None


@lru_cache(maxsize=1024)  # the glossaries' terms: a few hundred at most
def _mention_pattern(term: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w-]){re.escape(term)}(?![\w-])")


def check_message(
    msg: Message, lang: str, terms: Terms, plural: PluralRule | None = None
) -> list[Issue]:
    """Every issue with one catalog entry, safety issues marked (``plural``: the catalog's rule)."""
    problems: list[Issue] = []
    if msg.fuzzy:
        problems.append(Issue("fuzzy: review the translation and remove the fuzzy flag"))
    sources = list(msg.id) if isinstance(msg.id, tuple | list) else [msg.id]
    strings = list(msg.string) if isinstance(msg.string, tuple | list) else [msg.string]
    if not any(strings):
        return [*problems, Issue("untranslated")]
    if not all(strings):
        problems.append(Issue("a plural form is empty"))
    source = sources[-1]
    unsafe = set(message_problems(msg))
    for string in (s for s in strings if s):
        for message, error in _compare(source, string, lang, terms):
            problems.append(Issue(message, error, message in unsafe))
        for message, error in agreement_issues(source, string, plural, lang):
            problems.append(Issue(message, error))
    return list(dict.fromkeys(problems))


def _controls(source: str, string: str) -> list[tuple[str, bool]]:
    """Invisible or line-breaking characters the source does not have (errors, QA only).

    They cannot run or inject anything (the renderers keep them as text), but a
    reader cannot see them: a bidi override reorders what is shown (Trojan
    Source), NUL ends the string for C gettext tools, CR, NEL, U+2028/2029
    break lines where the source does not.
    """
    found: list[tuple[str, bool]] = []
    for char in dict.fromkeys(string):
        if char in source or char in "\n\t":
            continue
        name = _CONTROL_NAMES.get(char)
        if name is None and unicodedata.category(char) in ("Cc", "Cf", "Zl", "Zp"):
            name = unicodedata.name(char, "a control character").lower()
        if name is not None:
            what = f"U+{ord(char):04X} ({name}) is not in the source: remove it"
            found.append((what, True))
    return found


def _compare(source: str, string: str, lang: str, terms: Terms) -> list[tuple[str, bool]]:
    problems: list[tuple[str, bool]] = _controls(source, string)
    src_ph, src_links, _ = _refs(source)
    dst_ph, dst_links, stray = _refs(string)
    for ph in sorted((src_ph - dst_ph).elements()):
        problems.append((f"placeholder {ph} is missing", True))
    for ph in sorted((dst_ph - src_ph).elements()):
        problems.append((f"placeholder {ph} is not in the source", True))
    for target in sorted((src_links - dst_links).elements()):
        problems.append((f"glossary link (term:{target}) is missing", True))
    for target in sorted((dst_links - src_links).elements()):
        problems.append((f"glossary link (term:{target}) is not in the source", True))
    if stray:
        problems.append(("a brace that is no placeholder", True))
    src_rules = Counter(_RULE_NUMBER.findall(_without_refs(source)))
    dst_rules = Counter(_RULE_NUMBER.findall(unicodedata.normalize("NFKC", _without_refs(string))))
    for number in sorted((dst_rules - src_rules).elements()):
        problems.append((f"rule number {number} is not in the source", True))
    for number in sorted((src_rules - dst_rules).elements()):
        problems.append((f"rule number {number} is missing", True))
    problems.extend(_compare_numbers(source, string, lang))
    for pattern, what in _MARKUP:
        if pattern.search(string) and not pattern.search(source):
            problems.append((f"{what} is not in the source: translations may not add markup", True))
    if _bullets(source) != _bullets(string):
        problems.append(
            (
                f"the source has {_bullets(source)} list item(s), the translation {_bullets(string)}",
                True,
            )
        )
    problems.extend(_terms(source, string, terms))
    problems.extend(vocabulary_issues(string, terms))
    problems.extend(english_issues(source, string, getattr(terms, "kept", ())))
    raw = getattr(terms, "raw_ids", None)
    problems.extend((finding, True) for finding in _reader_text(source, string, lang, raw))
    return problems


def _reader_text(source: str, string: str, lang: str, raw: RawIds | None) -> list[str]:
    """What the publication gate would find in this msgstr once it is on a page.

    Read as the page shows it: a glossary link as its words, and for spec
    markup and raw ids any other reference as a digit (where the reader sees a
    number, a rule number or a title). For Japanese punctuation the other
    references stay as written, so that the excerpt is the translator's own
    text: their marks touch no Japanese (``{rule:1.2}``'s colon follows
    "rule"), and a mark next to one is next to it on the page too.
    ``raw``: the spec ids of the catalog's game, which a translation may not
    show where a label belongs.
    """
    shown = transform(string, str, lambda token: token.words or "0")
    found = spec_markup(shown)
    # an id the English names on purpose (rare: a guide's --variant foreign_cubes) may stay
    found += [f for f in raw_ids(shown, raw) if f not in raw_ids(source, raw)]
    if lang == "ja":
        found += japanese_punctuation(transform(string, str, lambda t: t.words or t.placeholder))
    return found


def _compare_numbers(source: str, string: str, lang: str) -> list[tuple[str, bool]]:
    """Every number of the source in the translation, and no other.

    Where ``lang`` writes counts as digits (:data:`_DIGITS_FOR_WORDS`), a number
    word of the source may be written as digits instead: "two rounds" may be
    ``2ラウンド``, but a value may not appear more often than the source has it
    as digits and words together.
    """
    problems: list[tuple[str, bool]] = []
    src_numbers, dst_numbers = numbers(source, "en"), numbers(string, lang)
    words = number_words(source) if lang in _DIGITS_FOR_WORDS else Counter[Decimal]()
    for value in sorted((src_numbers - dst_numbers).elements()):
        problems.append((f"the number {value} is missing", True))
    extra = dst_numbers - src_numbers
    for value in sorted(extra):
        if not words[value]:
            problems.extend([(f"the number {value} is not in the source", True)] * extra[value])
        elif extra[value] > words[value]:
            allowed = src_numbers[value] + words[value]
            problems.append(
                (
                    f"the number {value} appears {dst_numbers[value]} times, the source has it"
                    f" {allowed} time(s) as digits or words",
                    True,
                )
            )
    problems.extend(word_issues(source, string, lang, src_numbers, dst_numbers))
    return problems


def _terms(source: str, string: str, terms: Terms) -> list[tuple[str, bool]]:
    problems: list[tuple[str, bool]] = []
    linked = set()
    for token in scan_deep(string):
        if isinstance(token, Ref) and token.words:
            linked.add(token.target)
            forms = terms.forms(token.target)
            if forms and not any(f in token.words.casefold() for f in forms):
                problems.append(
                    (
                        f"[{token.words}] is not an approved rendering of '{terms.english.get(token.target, token.target)}'",
                        True,
                    )
                )
    lowered = string.casefold()
    for term_id, english in terms.english.items():
        if term_id in linked or not _mentions(source, english):
            continue
        forms = terms.forms(term_id)
        if forms and not any(f in lowered for f in forms):
            approved = terms.approved[term_id].term
            problems.append((f"'{english}' should be rendered as '{approved}'", False))
    return problems


def check_catalog(
    catalog: Catalog,
    path: Path,
    lang: str,
    terms: Terms,
    display: str | None = None,
    plural: PluralRule | None = None,
) -> list[Finding]:
    name = display or str(path)
    findings = []
    for msg in catalog:
        if not msg.id:
            continue
        for issue in check_message(msg, lang, terms, plural):
            line, context = msg.lineno or 0, msg.context or ""
            findings.append(Finding(name, line, context, issue.message, issue.error, issue.safety))
    return findings


def check_file(path: Path, lang: str | None, terms: Terms) -> list[Finding]:
    """All of QA on one file: the safety checks (marked ``unsafe``) and the translator checks.

    A catalog whose header is unusable is still checked message by message
    (with its language's own plural rules), so one run shows everything.
    """
    checked = check_structure(path, lang)
    findings = [Finding.unsafe(p) for p in checked.problems]
    if checked.catalog is not None:
        catalog = checked.catalog
        language = lang or (str(catalog.locale) if catalog.locale else "")
        code = language.split("_")[0]
        found = check_catalog(catalog, path, code, terms, plural=checked.plural)
        # an entry whose plural forms or ICU cannot be read is shown in English; say why,
        # not merely that it is untranslated
        unread = {p.location.line for p in checked.unreadable}
        findings += [f for f in found if not (f.line in unread and f.message == "untranslated")]
        findings += [
            Finding(p.location.file, p.location.line, p.where, p.message)
            for p in checked.unreadable
        ]
    return sorted(findings, key=lambda f: (f.line, f.column, not f.error))
