"""The catalog workflow: templates, per-language catalogs, compiling, statistics.

Files (all under ``locales/``; rulepress's own domains, the interface and the
theme, ship inside the package in ``rulepress/locales/``, laid out alike)::

    <domain>.pot                         template, made by ``rulepress i18n extract``
    <lang>/LC_MESSAGES/<domain>.po       what translators edit (Poedit, Weblate, an editor),
                                         for the languages the specs list (rulepress.i18n.workflow)

Compiled catalogs are build output, never beside these (``rulepress i18n
compile`` writes ``build/locales/<lang>/LC_MESSAGES/<domain>.mo`` by default,
:func:`compiled_path`); rulepress reads the ``.po`` files themselves.

Updating merges a template into a catalog by msgctxt, which is stable (rule
numbers and spec ids): a message whose English text changed keeps its
translation but becomes fuzzy, with the previous English kept as
``#| msgid``, exactly as gettext tools do; a message that disappeared becomes
obsolete (``#~``). Every writer is deterministic and every step has a
``--check`` mode that only reports what would change, so CI fails when a
committed catalog is stale; stale means its content would change, whatever
tool last saved it (:mod:`rulepress.i18n.content`). The text is written by
:mod:`rulepress.i18n.po_writer`.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from babel import Locale
from babel.messages.catalog import Catalog, Message
from babel.messages.mofile import write_mo
from babel.messages.pofile import PoFileError, read_po, unescape

from rulepress.errors import ExitCode, Location, Problem, RulepressError
from rulepress.expressions import budget
from rulepress.i18n.catalog_shapes import Language, carry, set_flags
from rulepress.i18n.headers import Header, blank_header, po_lines, read_header
from rulepress.i18n.icu import ICU_FLAG
from rulepress.i18n.plural import PluralFormsError, PluralRule, parse_plural_forms
from rulepress.i18n.po_writer import render

__all__ = ["render"]  # the writer, used with the reader below


class CatalogError(RulepressError):
    """A catalog cannot be read, or is stale where CI needs it current."""

    exit_code = ExitCode.CATALOG


#: the interface domain (rulepress's own sentences)
INTERFACE = "rulepress"
#: the theme domain (the site theme's words)
THEME = "theme"
#: the domains whose catalogs rulepress ships inside its package, for every project
PACKAGE_DOMAINS = (INTERFACE, THEME)
#: the largest catalog read, in bytes (the largest shipped one, Brink's, is about 0.6 MiB):
#: a bound on what reading one may cost, as rulepress.expressions.budget bounds the rest
MAX_CATALOG_BYTES = 16 * 1024 * 1024
#: where the package keeps them (its templates and the languages it is translated into)
PACKAGE_LOCALES = Path(__file__).resolve().parent.parent / "locales"


def template_path(locales: Path, domain: str) -> Path:
    return locales / f"{domain}.pot"


def catalog_path(locales: Path, lang: str, domain: str) -> Path:
    return locales / lang / "LC_MESSAGES" / f"{domain}.po"


def compiled_path(out: Path, lang: str, domain: str) -> Path:
    """Where ``i18n compile`` writes a catalog's ``.mo`` in its output folder (gettext's layout)."""
    return out / lang / "LC_MESSAGES" / f"{domain}.mo"


def find_template(locales: Path, domain: str) -> Path:
    """The template a project reads for ``domain``: its own, else the package's (shipped domains)."""
    own = template_path(locales, domain)
    if domain in PACKAGE_DOMAINS and not own.exists():
        return template_path(PACKAGE_LOCALES, domain)
    return own


def find_catalog(locales: Path, lang: str, domain: str) -> Path:
    """The catalog a project reads for ``domain`` in ``lang``: its own file first.

    For the domains rulepress ships, a project without a catalog of its own
    reads the package's, so a game made outside rulepress's repository shows
    rulepress's words in every language rulepress is translated into, and a
    project's own catalog of a language overrides the package's. The path
    returned may not exist (no catalog in that language at all).
    """
    own = catalog_path(locales, lang, domain)
    if domain in PACKAGE_DOMAINS and not own.exists():
        packaged = catalog_path(PACKAGE_LOCALES, lang, domain)
        if packaged.exists():
            return packaged
    return own


def _key(message: Message) -> tuple[Any, str | None]:
    return (message.id, message.context)


_KEYWORD_LINE = re.compile(r'^(msgctxt|msgid|msgid_plural|msgstr(\[\d+\])?)\s+"(?:[^"\\]|\\.)*"$')
_STRING_LINE = re.compile(r'^"(?:[^"\\]|\\.)*"$')


def lint_po(text: str, name: str) -> list[Problem]:
    """Syntax problems Babel's reader would silently repair (it drops a missing quote)."""
    problems = []
    for number, raw in enumerate(po_lines(text), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith(("msgctxt", "msgid", "msgstr")):
            ok = _KEYWORD_LINE.match(line) is not None
        else:
            ok = _STRING_LINE.match(line) is not None
        if not ok:
            shown = line if len(line) <= 40 else line[:37] + "..."
            problems.append(Problem(Location(name, number, 1), "", f"malformed line: {shown}"))
    return problems


def plural_counts(text: str) -> list[tuple[int, int]]:
    """(line of msgid_plural, number of msgstr[n] lines) for every plural entry."""
    out: list[tuple[int, int]] = []
    current: list[int] | None = None
    for number, raw in enumerate(po_lines(text), start=1):
        line = raw.strip()
        if line.startswith("msgid_plural"):
            current = [number, 0]
            out.append((number, 0))
        elif current is not None and line.startswith("msgstr["):
            current[1] += 1
            out[-1] = (current[0], current[1])
        elif line.startswith(("msgctxt", "msgid ")) or not line:
            current = None
    return out


@dataclass
class Inspected:
    """A catalog as far as it could be read, its header, and every problem found reading it."""

    catalog: Catalog | None
    header: Header
    problems: list[Problem]


def inspect_catalog(path: Path, locale: str | None = None) -> Inspected:
    """Read a .po/.pot file and report every problem in reading it, without raising.

    The file must be UTF-8 and well-formed, and its header usable (see
    :mod:`rulepress.i18n.headers`). With an unusable header the messages are
    still read (the header emptied, so Babel falls back on the language's own
    rules) so that a check can report everything at once; ``catalog`` is None
    only when the text itself cannot be parsed.
    """
    name = str(path)
    try:
        raw = read_bounded(path)
    except OSError as exc:
        problem = Problem(Location(name), "", f"cannot be read: {exc.strerror}")
        return Inspected(None, Header(), [problem])
    return inspect_bytes(raw, name, locale)


def read_bounded(path: Path) -> bytes:
    """A catalog file's bytes, no more than one past the bound: a huge file is not read whole."""
    with path.open("rb") as fh:
        return fh.read(MAX_CATALOG_BYTES + 1)


def inspect_bytes(raw: bytes, name: str, locale: str | None = None) -> Inspected:
    """As :func:`inspect_catalog`, for a file's bytes (read with :func:`read_bounded`)."""
    if len(raw) > MAX_CATALOG_BYTES:
        size = f"{MAX_CATALOG_BYTES // 1024 // 1024} MiB"
        problem = Problem(Location(name), "", f"larger than {size}, the most a catalog may be")
        return Inspected(None, Header(), [problem])
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        problem = Problem(Location(name), "", f"not UTF-8 (byte {exc.start})")
        return Inspected(None, Header(), [problem])
    problems = lint_po(text, name)
    header = read_header(text, name, locale)
    problems += header.problems
    if len(problems) > len(header.problems):
        return Inspected(None, header, problems)
    usable = text if not header.problems else blank_header(text, header)
    try:
        catalog = parse_po(usable, header.language)
        budget.current().check_memory(f"the catalog {name}")
    except PoFileError as exc:
        line = getattr(exc, "lineno", 0) or 0
        problems.append(Problem(Location(name, line, 1), "", str(exc).split(" on ")[0]))
        return Inspected(None, header, problems)
    except budget.MemoryBudgetError as exc:
        problems.append(Problem(Location(name), "", exc.message))
        return Inspected(None, header, problems)
    if (
        not header.problems
        and header.plural is not None
        and (
            catalog.num_plurals != header.plural.nplurals
            or catalog.plural_expr.strip() != header.plural.expression
        )
    ):  # pragma: no cover - the header parser accepts only forms Babel reads alike
        problems.append(Problem(Location(name, 1, 1), "Plural-Forms", "read differently by Babel"))
    return Inspected(catalog, header, problems)


def parse_po(text: str, locale: str | None) -> Catalog:
    """Babel's reading of a PO text, with the previous msgids it misreads put in place.

    Babel reads ``#| msgid`` as a translator comment, and stops at gettext's
    ``#~| msgid`` (the previous msgid of an obsolete entry) as at a bad keyword
    line; both are read here (:func:`previous_ids`) and set as ``previous_id``.
    Raises Babel's ``PoFileError`` on a syntax error.
    """
    lines = po_lines(text)
    # "#~|" becomes "#|" (a comment to Babel, dropped below); the line numbers stay
    fed = ["#|" + line.lstrip()[3:] if line.lstrip().startswith("#~|") else line for line in lines]
    # str lines, never bytes: Babel would decode bytes with the header's charset
    catalog = read_po(fed, locale=locale, abort_invalid=True)
    catalog.charset = "utf-8"  # what write_po / write_mo encode with
    obsolete = {_key(m): m for m in catalog.obsolete.values()}
    for message in [*catalog, *obsolete.values()]:
        message.user_comments = [c for c in message.user_comments if not c.startswith("|")]
    for (msgid, context, is_obsolete), previous in previous_ids(text).items():
        entry = obsolete.get((msgid, context)) if is_obsolete else catalog.get(msgid, context)
        if entry is not None:
            entry.previous_id = previous
    return catalog


def read_catalog(path: Path, locale: str | None = None) -> Catalog:
    """Read a .po/.pot file; any problem (syntax, header) becomes one located CatalogError."""
    found = inspect_catalog(path, locale)
    if found.problems or found.catalog is None:
        raise CatalogError(f"{path}: not a valid catalog", found.problems)
    return found.catalog


def _fields(lines: list[str]) -> dict[str, str]:
    """The keyword fields (msgctxt, msgid, …) of some PO lines, their strings joined."""
    fields: dict[str, list[str]] = {}
    current: str | None = None
    for line in lines:
        if line.startswith('"'):
            if current is not None:
                fields[current].append(line)
            continue
        keyword, _, rest = line.partition(" ")
        current = keyword
        fields[keyword] = [rest.strip()]
    return {k: "".join(unescape(part) for part in v) for k, v in fields.items()}


def previous_ids(text: str) -> dict[tuple[Any, str | None, bool], list[str]]:
    """Previous msgids (``#|``, ``#~|``) by the (msgid, msgctxt, obsolete) of their entry.

    Entries are separated by blank lines, as every PO writer does.
    """
    out: dict[tuple[Any, str | None, bool], list[str]] = {}
    for block in re.split(r"\n\s*\n", text):
        lines = [line.strip() for line in po_lines(block)]
        history = [
            line[3:] if line.startswith("#~|") else line[2:]
            for line in lines
            if line.startswith(("#|", "#~|"))
        ]
        previous = _fields([line.strip() for line in history])
        if "msgid" not in previous:
            continue
        obsolete = any(line.startswith("#~ msgid") for line in lines)
        body = [line[3:] if line.startswith("#~ ") else line for line in lines]
        current = _fields([line for line in body if line and not line.startswith("#")])
        if "msgid" not in current:
            continue
        msgid: Any = current["msgid"]
        if "msgid_plural" in current:
            msgid = (msgid, current["msgid_plural"])
        ids = [previous["msgid"]]
        if "msgid_plural" in previous:
            ids.append(previous["msgid_plural"])
        out[(msgid, current.get("msgctxt"), obsolete)] = ids
    return out


def merge(template: Catalog, old: Catalog | None, lang: str, *, spec_text: bool = False) -> Catalog:
    """A catalog for ``lang`` with the template's messages and ``old``'s translations.

    ``spec_text``: a game's domain, whose entries take the shape of their
    counts (see :mod:`rulepress.i18n.catalog_shapes`): a translation is
    carried into an entry of another shape, fuzzy only if its English changed.
    """
    new = Catalog(
        locale=Locale.parse(lang),
        domain=None,
        project=template.project,
        version=template.version,
        copyright_holder=template.copyright_holder,
        charset="utf-8",
        fuzzy=False,
    )
    new.msgid_bugs_address = template.msgid_bugs_address
    new.language_team = f"{Locale.parse(lang).english_name} <>"
    # defaults for a new catalog: the translators' own header fields of an existing
    # one are kept when it is written (rulepress.i18n.header_fields)
    new.last_translator = "rulepress translators"
    exact: dict[tuple[Any, str | None], Message] = {}
    by_context: dict[str, Message] = {}
    # obsolete entries come after the live ones: a message that comes back gets
    # its old translation again, as msgmerge does
    previously = [*old, *old.obsolete.values()] if old is not None else []
    for m in previously:
        if not m.id:
            continue
        exact.setdefault(_key(m), m)
        if m.context:
            by_context.setdefault(m.context, m)
    used: set[tuple[Any, str | None]] = set()
    languages = _languages(old, new, lang) if spec_text else None
    for m in template:
        if not m.id:
            continue
        prior = exact.get(_key(m))
        flags = set()
        previous: Any = ()
        string: Any = _empty(m.id, new.num_plurals)
        if prior is not None:
            used.add(_key(prior))
            string = _fit(prior.string, m.id, new.num_plurals)
            if languages and ICU_FLAG in m.flags and ICU_FLAG not in prior.flags:
                # the same msgid, newly ICU (two counts the English gives no forms):
                # the translation's own {x|…} forms become ICU plurals
                carried = carry(prior, languages[0], m, languages[1])
                string = carried.string if carried is not None else string
            if prior.fuzzy:
                flags.add("fuzzy")
                previous = prior.previous_id
        elif m.context in by_context and _key(by_context[m.context]) not in used:
            # same place, new English: keep the translation, flag it for review
            prior = by_context[m.context]
            used.add(_key(prior))
            string = _fit(prior.string, m.id, new.num_plurals)
            carried = carry(prior, languages[0], m, languages[1]) if languages else None
            if carried is not None:
                string = carried.string
            if carried is not None and carried.same_english:
                # only the shape changed (a singular became a plural entry, or ICU)
                if prior.fuzzy:
                    flags.add("fuzzy")
                    previous = prior.previous_id
            elif _has_text(string):
                flags.add("fuzzy")
                # the English the translation was made from: a translation already
                # fuzzy keeps its older previous msgid, as msgmerge does
                previous = prior.previous_id if prior.fuzzy and prior.previous_id else prior.id
        added = new.add(
            m.id,
            string,
            list(m.locations),
            flags=flags | (m.flags & {ICU_FLAG}),
            auto_comments=list(m.auto_comments),
            user_comments=list(prior.user_comments) if prior is not None else [],
            previous_id=previous,
            context=m.context,
        )
        if spec_text:
            set_flags(added)
    # what the template no longer has stays as obsolete (#~), those already obsolete
    # first, so that a second update writes the same file
    gone = [*old.obsolete.values(), *old] if old is not None else []
    for m in gone:
        if m.id and _key(m) not in used and _has_text(m.string):
            used.add(_key(m))
            # Babel keys obsolete entries by msgid, or (msgid, msgctxt) when there is one
            key: Any = (m.id, m.context) if m.context else m.id
            new.obsolete[key] = m
    return new


def _languages(old: Catalog | None, new: Catalog, lang: str) -> tuple[Language, Language]:
    """How the old catalog's and the new one's translations read their plural forms."""
    name = str(Locale.parse(lang).english_name or lang)
    rules = []
    for catalog in (old, new):
        try:
            rule: PluralRule | None = (
                parse_plural_forms(catalog.plural_forms).rule if catalog is not None else None
            )
        except PluralFormsError:
            rule = None
        rules.append(rule)
    old_rule = rules[0] or rules[1]
    return (
        Language.of(lang, name, old_rule, new.num_plurals),
        Language.of(lang, name, rules[1], new.num_plurals),
    )


def _empty(msgid: Any, plurals: int) -> Any:
    return ("",) * plurals if isinstance(msgid, tuple | list) else ""


def _fit(string: Any, msgid: Any, plurals: int) -> Any:
    """A translation in the shape the message needs (singular, or one string per plural form)."""
    if isinstance(msgid, tuple | list):
        forms = list(string) if isinstance(string, tuple | list) else [string]
        return tuple((forms + [""] * plurals)[:plurals])
    if isinstance(string, tuple | list):
        return string[0] if string else ""
    return string


def _has_text(string: Any) -> bool:
    if isinstance(string, tuple | list):
        return any(string)
    return bool(string)


@dataclass(frozen=True)
class Stats:
    lang: str
    domain: str
    total: int
    translated: int
    fuzzy: int
    untranslated: int
    obsolete: int

    @property
    def percent(self) -> float:
        return 100.0 * self.translated / self.total if self.total else 100.0


def stats(catalog: Catalog, lang: str, domain: str) -> Stats:
    messages = [m for m in catalog if m.id]
    fuzzy = sum(1 for m in messages if m.fuzzy)
    done = sum(1 for m in messages if not m.fuzzy and _complete(m.string))
    return Stats(
        lang,
        domain,
        len(messages),
        done,
        fuzzy,
        len(messages) - done - fuzzy,
        len(catalog.obsolete),
    )


def _complete(string: Any) -> bool:
    if isinstance(string, tuple | list):
        return all(string)
    return bool(string)


def compile_catalog(catalog: Catalog) -> bytes:
    """The .mo bytes of a catalog (fuzzy entries left out, as gettext does)."""
    buf = io.BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    return buf.getvalue()
