"""The publication gate: what a reader would see that no reader should.

Run over what ``rulepress build`` wrote (every HTML page of the sites, the
text of every PDF through ``pdftotext``) and over the scorer's report of
every worked example in every language, it looks for:

* **spec markup left in the output**: ``{param:…}``, ``{rule:…}``,
  ``{ruling:…}``, ``{term:…}``, ``](term:…)``;
* **English interface words on a Czech or Japanese page**: a phrase of an
  English interface sentence (the ``rulepress`` and ``theme`` templates in
  ``locales/``) that the page's language translates differently. The game's
  own English is not the interface's: a game text its catalog leaves
  untranslated is shown in English on purpose, and where an interface phrase
  sits inside such a text (a rule that says "share the win", as an interface
  sentence does) it is not reported. The game texts are those the
  translation of the spec fell back on (see :func:`own_english`);
* **English game words on a Czech or Japanese page**: a word of a game's
  vocabulary (a player colour such as "Green", a faction objective) that the
  language's catalog translates, shown in English all the same, outside the
  game's own untranslated texts (as for the interface's phrases);
* **ASCII punctuation in Japanese text**: a colon, semicolon, comma,
  bracket, exclamation or question mark, or a full stop against Japanese
  characters, where Japanese uses ：；、（）！？。, a colon after a full stop
  (``。：``), and half-width katakana;
* **a hyphen for a minus in Japanese text** (``（-4票）``), where the writers
  set U+2212;
* **Czech one-letter prepositions and conjunctions** (k, s, v, z, o, u, a,
  i) followed by a breaking space, which Czech typography forbids;
* **messages shown in English instead of a translation**, as the builds
  recorded them beside their output (:mod:`rulepress.i18n.fallbacks`), each
  named by its context and the ``.po`` line of its entry. A game that is only
  a preview in a language has its English listed as warnings, not failures.

The checks of one text are those of :mod:`rulepress.i18n.reader_text`, which
translator QA runs on each catalog message too. Each finding names the file, where in it (the page or the example) and the
offending text; :class:`GateError` carries them all. Text is read as the
reader gets it: HTML without its tags, scripts and styles, and, for the
English check, without the characters a reader does not see (zero-width
spaces and joiners, soft hyphens, bidi controls …) and in NFKC form, so that
English with invisible characters inside its words is still English.
"""

from __future__ import annotations

import functools
import re
import subprocess
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from html.parser import HTMLParser
from pathlib import Path
from typing import TYPE_CHECKING

from babel.messages.pofile import read_po

from rulepress.errors import ExitCode, Location, Problem, RulepressError
from rulepress.i18n.catalogs import PACKAGE_LOCALES, find_catalog, find_template
from rulepress.i18n.fallbacks import FallbackRecord, record_path
from rulepress.i18n.reader_text import (
    RawIds,
    czech_spacing,
    japanese_minus,
    japanese_punctuation,
    raw_ids,
    spec_markup,
)
from rulepress.i18n.visible import as_seen

if TYPE_CHECKING:  # the gate imports the spec model only when it reads specs
    from rulepress.i18n.runtime import Localized
    from rulepress.model import LoadedSpec

#: the translations a gate run has made, by game folder and language (see :func:`translation`)
Translations = dict[tuple[Path, str], "Localized"]

#: how much of an English sentence must match to count: a phrase of two words or more
_MIN_PHRASE = 2


class GateError(RulepressError):
    """The built outputs show a reader something they should not."""

    exit_code = ExitCode.GATE


@dataclass(frozen=True)
class English:
    """The interface phrases of the English templates, as a Czech or Japanese page must not show them.

    ``kept``: by language, the phrases its catalogs translate with the same words
    (a translator's decision, such as the paper size "US Letter" in Czech), which
    that language's pages may show.

    ``own``: by language, the runs of the games' own texts that its pages show in
    English because their catalogs do not translate them yet (see
    :func:`own_english`). An interface phrase is excused only where it lies
    inside one of these runs, never on the whole page: the same words in an
    untranslated interface sentence beside them are still found.
    """

    phrases: tuple[str, ...]
    kept: dict[str, frozenset[str]] = field(default_factory=dict)
    own: dict[str, frozenset[str]] = field(default_factory=dict)
    #: each phrase as its msgid writes it ("No tie-break"), for the findings
    shown: dict[str, str] = field(default_factory=dict)
    #: by language, the games' vocabulary words its catalogs translate (see
    #: :func:`translated_vocabulary`): single words such as "Green" count too
    words: dict[str, frozenset[str]] = field(default_factory=dict)

    @classmethod
    def from_templates(
        cls, locales: Path, domains: Iterable[str] = ("rulepress", "theme")
    ) -> English:
        found: dict[str, str] = {}
        kept: dict[str, set[str]] = {}
        for domain in domains:
            # rulepress's own domains: the project's files first, then the package's
            path = find_template(locales, domain)
            if not path.is_file():
                continue
            with path.open("rb") as fh:
                catalog = read_po(fh)
            for message in catalog:
                ids = message.id if isinstance(message.id, tuple) else (message.id,)
                for msgid in ids:
                    found.update(_phrases(str(msgid)))
            langs = {
                po.parent.parent.name
                for folder in (locales, PACKAGE_LOCALES)
                for po in folder.glob(f"*/LC_MESSAGES/{domain}.po")
            }
            for lang in sorted(langs):
                po = find_catalog(locales, lang, domain)
                with po.open("rb") as fh:
                    translated = read_po(fh)
                for message in translated:
                    if message.id and isinstance(message.id, str) and message.string == message.id:
                        kept.setdefault(lang, set()).update(_phrases(message.id))
        return cls(
            tuple(sorted(found, key=len, reverse=True)),
            {lang: frozenset(p) for lang, p in kept.items()},
            shown=found,
        )

    def with_own(self, texts: Mapping[str, Iterable[str]]) -> English:
        """These phrases, knowing the games' untranslated texts (English, by language)."""
        own = {lang: frozenset(r for t in found for r in _runs(t)) for lang, found in texts.items()}
        return replace(self, own=own)

    def with_vocabulary(self, words: Mapping[str, Iterable[str]]) -> English:
        """These phrases, and the games' vocabulary words each language translates."""
        flat = {lang: frozenset(_flat(w) for w in found) for lang, found in words.items()}
        return replace(self, words=flat)

    def in_text(self, text: str, lang: str = "") -> Iterator[str]:
        flat = _flat(as_seen(text))
        allowed = self.kept.get(lang, frozenset())
        own = self.own.get(lang, frozenset())
        # the interface's phrases, longest first, then the games' words, also one long
        vocabulary = sorted(self.words.get(lang, frozenset()) - allowed, key=len, reverse=True)
        for phrase in (*self.phrases, *vocabulary):
            # a whole-word occurrence is an occurrence: the plain substring test (in C)
            # leaves the pattern, ten times slower, to the few phrases a text holds
            if phrase in allowed or phrase not in flat:
                continue
            spans = [m.span() for m in _bounded(phrase).finditer(flat)]
            if not spans:
                continue
            # only the runs that hold the phrase can excuse it, and only a phrase found
            # costs a search for them (most pages have none)
            covers = [
                m.span()
                for run in own
                if phrase in run and run in flat
                for m in _bounded(run).finditer(flat)
            ]
            if any(not any(a <= s and e <= b for a, b in covers) for s, e in spans):
                yield self.shown.get(phrase, phrase)


def _flat(text: str) -> str:
    """Text as the phrases are matched in: words and punctuation marks, one space apart."""
    return " ".join(re.findall(r"[A-Za-z][A-Za-z']*|[^A-Za-z\s]", text))


def _bounded(flat: str) -> re.Pattern[str]:
    """Where ``flat`` occurs in flattened text as whole words."""
    return re.compile(rf"(?<![A-Za-z]){re.escape(flat)}(?![A-Za-z])")


def _runs(message: str) -> set[str]:
    """The runs of a game's English message that a page shows as written, flattened.

    The page fills in what a reference stands for (a rule's number, a parameter's
    value, a term's translated title, a scorer's value), so a run ends at each
    one; a glossary link shows the message's own words. A bullet item loses its
    ``- ``. Runs of fewer words than a phrase cannot hold one.
    """
    from rulepress.model.text import transform  # noqa: PLC0415  (see _games)

    gap = "\x00"
    plain = transform(message, str, lambda ref: ref.words or gap)
    out = set()
    for line in plain.splitlines():
        for chunk in line.strip().removeprefix("- ").split(gap):
            flat = _flat(chunk)
            if len(re.findall(r"[A-Za-z]+", flat)) >= _MIN_PHRASE:
                out.add(flat)
    return out


def _phrases(msgid: str) -> dict[str, str]:
    """The runs of two English words or more in a msgid, between its placeholders.

    Each flattened (as it is matched), with its words as the msgid writes them.
    """
    out = {}
    for chunk in re.split(r"\{[a-z_]+\}", msgid):
        # flattened as the pages are, so that a phrase with a hyphen, a comma or a
        # bracket inside ("No tie-break separates them") can match one; the marks at
        # its ends belong to the text around the placeholder and are left out
        tokens = _flat(chunk).split()
        while tokens and not tokens[0][0].isalpha():
            tokens.pop(0)
        while tokens and not tokens[-1][0].isalpha():
            tokens.pop()
        if sum(t[0].isalpha() for t in tokens) >= _MIN_PHRASE:
            start = chunk.index(tokens[0])
            end = chunk.rindex(tokens[-1]) + len(tokens[-1])
            out[" ".join(tokens)] = " ".join(chunk[start:end].split())
    return out


def scan_text(
    text: str, lang: str, english: English | None = None, raw: RawIds | None = None
) -> list[str]:
    """What is wrong in one text a reader of ``lang`` sees (each finding with its excerpt).

    ``lang`` "" checks only what holds in every language (spec markup, raw ids).
    """
    found = spec_markup(text)
    found += raw_ids(text, raw)
    if lang not in ("en", "") and english is not None:
        found += [f"English words: {phrase!r}" for phrase in english.in_text(text, lang)]
    if lang == "ja":
        found += japanese_punctuation(text)
        found += japanese_minus(text)
    if lang == "cs":
        found += czech_spacing(text)
    return found


class _Visible(HTMLParser):
    """A page's text as a reader sees it (and its text-bearing attributes).

    Text inside inline ``<code>`` is kept apart, marked, so that one reading
    gives both the page's sentences and, for the raw-id check, its code too.
    Text inside an element that names its own language (``lang``: a quote of a
    source document, a language's own name in the switcher) is in that
    language, not the page's: it is kept apart the same way.
    """

    _HIDDEN = ("script", "style", "pre", "head")
    #: elements that have no end tag, so never open a language of their own
    _VOID = frozenset(
        {
            "area",
            "base",
            "br",
            "col",
            "embed",
            "hr",
            "img",
            "input",
            "link",
            "meta",
            "source",
            "wbr",
        }
    )

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        #: (text, whether it sits in inline code or in another language)
        self.parts: list[tuple[str, bool]] = []
        self._hidden = 0
        self._code = 0
        #: the open elements below <html>, each with whether it names its own language
        self._open: list[tuple[str, bool]] = []

    @property
    def _apart(self) -> bool:
        return self._code > 0 or any(foreign for _, foreign in self._open)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in self._VOID and tag != "html":
            self._open.append((tag, any(name == "lang" for name, _ in attrs)))
        if tag in self._HIDDEN:
            # the head is metadata, and a tab's title never breaks a line
            self._hidden += 1
        elif tag == "code":  # the spec's ids and values, not sentences
            self._code += 1
        if self._hidden:
            return
        for name, value in attrs:
            if name in ("title", "aria-label", "alt", "placeholder") and value:
                self.parts.append(("\n" + value + "\n", self._apart))

    def handle_endtag(self, tag: str) -> None:
        if tag in self._HIDDEN:
            self._hidden = max(0, self._hidden - 1)
        elif tag == "code":
            self._code = max(0, self._code - 1)
        # close up to the element this ends (an unclosed <p> or <li> before it ends too)
        for i in range(len(self._open) - 1, -1, -1):
            if self._open[i][0] == tag:
                del self._open[i:]
                break

    def handle_data(self, data: str) -> None:
        if not self._hidden:
            self.parts.append((data, self._apart))


def html_texts(html: str) -> tuple[str, str]:
    """A page's text without scripts, styles, the head, code and text in another language.

    Returns (without, with inline code and the other languages' text).
    """
    parser = _Visible()
    parser.feed(html)
    prose = "".join(text for text, in_code in parser.parts if not in_code)
    return prose, "".join(text for text, _ in parser.parts)


def html_text(html: str) -> str:
    """The text of a page as a reader reads it (see :func:`html_texts`), code left out."""
    return html_texts(html)[0]


def pdf_text(path: Path) -> str:
    proc = subprocess.run(
        ["pdftotext", "-enc", "UTF-8", str(path), "-"], capture_output=True, text=True, check=True
    )
    return proc.stdout


def problems(where: Location, what: str, found: list[str]) -> list[Problem]:
    return [Problem(where, what, finding) for finding in found]


def scan_site(out: Path, english: English, raw: RawIds | None = None) -> list[Problem]:
    """Every page of a built site (``<out>/<lang>/…``), in the language of its folder."""
    found: list[Problem] = []
    for lang_dir in sorted(p for p in out.iterdir() if p.is_dir() and not p.name.startswith("_")):
        for page in sorted(lang_dir.rglob("*.html")):
            if "_static" in page.parts or page.name in ("search.html", "genindex.html"):
                continue  # Sphinx's own search and index pages hold no text of ours
            prose, with_code = html_texts(page.read_text(encoding="utf-8"))
            lang = lang_dir.name
            checked = scan_text(prose, lang, english)
            # the guides, for spec authors, name ids on purpose (--variant foreign_cubes)
            if "guide" not in page.relative_to(lang_dir).parts:
                checked += raw_ids(with_code, raw)
            found += problems(Location(str(page)), f"page ({lang})", checked)
    return found


#: a scan of a built output folder: its findings, read in each folder's language
Scan = Callable[..., list[Problem]]


def quote_pattern(quotes: Iterable[str]) -> re.Pattern[str] | None:
    """A pattern of the source quotes as a PDF's text holds them (None: no quotes).

    Any whitespace may stand between two characters: a line may break anywhere in a
    quote, and pdftotext writes a space there even between Japanese characters.
    """
    alternatives = {
        r"\s*".join(re.escape(c) for c in "".join(q.split())) for q in quotes if q.strip()
    }
    if not alternatives:
        return None
    return re.compile("|".join(sorted(alternatives, key=len, reverse=True)))


def without_quotes(text: str, quotes: Iterable[str]) -> str:
    """A PDF's ``text`` with the source quotes in it taken out (each left as one space).

    A PDF's text does not say which language a word is in, as a page's ``lang`` does:
    a Czech card's words quoted in a Japanese rulebook's appendix, or the Japanese
    rulebook's own ASCII brackets and hyphens, are the source's, not ours to check.
    """
    pattern = quote_pattern(quotes)
    return text if pattern is None else pattern.sub(" ", text)


def source_quotes(spec_root: Path) -> list[str]:
    """Every quote the games under ``spec_root`` cite from their source documents."""
    return _quotes_of(_games(spec_root))


def _quotes_of(games: Iterable[LoadedSpec]) -> list[str]:
    # imported here, as _games imports the spec model: the gate reads pages without it
    from rulepress.checks.sources import quotes  # noqa: PLC0415

    return [q for game in games for q in quotes(game.spec)]


def scan_print(
    out: Path, english: English, raw: RawIds | None = None, quotes: Iterable[str] = ()
) -> list[Problem]:
    """The text of every PDF (``<out>/<lang>/<game>/*.pdf``), X-4 variants aside (same text).

    ``quotes``: words quoted from the source documents, in their own language (a Czech
    card's words in a Japanese rulebook's appendix): a PDF's text does not say which
    language a word is in, as a page's ``lang`` does, so they are taken out before the
    text is read in the PDF's language.
    """
    found: list[Problem] = []
    quoted = quote_pattern(quotes)
    for pdf in sorted(out.glob("*/*/*.pdf")):
        if pdf.stem.endswith("pdfx4"):
            continue
        lang = pdf.relative_to(out).parts[0]
        text = pdf_text(pdf)
        if quoted is not None:
            text = quoted.sub(" ", text)
        text = " ".join(text.split())
        # pdftotext writes a no-break space as a plain one, so Czech spacing is not checked
        # here (the print HTML is set by the same code as the site's, which is checked)
        checked = scan_text(text, "" if lang == "cs" else lang, english, raw)
        found += problems(Location(str(pdf)), f"PDF text ({lang})", checked)
    return found


def _games(spec_root: Path) -> list[LoadedSpec]:
    # imported here: the gate reads sites and PDFs without the spec model otherwise
    from rulepress.games import find_game_dirs, load_spec  # noqa: PLC0415

    return [load_spec(directory) for directory in find_game_dirs(spec_root)]


def translation(
    loaded: LoadedSpec, lang: str, locales: Path, kept: Translations | None = None
) -> Localized:
    """``loaded`` translated into ``lang``, made once per gate run when ``kept`` keeps them.

    A translation is the costliest step of the gate's set-up (every text of the spec
    looked up, the spec checked again): the games' English and the worked examples'
    reports read the same one, as the pages and PDFs were made with one.
    """
    from rulepress.i18n.runtime import localize  # noqa: PLC0415  (see scan_reports)

    if kept is None:
        return localize(loaded, lang, locales)
    key = (loaded.directory, lang)
    if key not in kept:
        kept[key] = localize(loaded, lang, locales)
    return kept[key]


def games_english(
    games: Iterable[LoadedSpec], locales: Path, kept: Translations | None = None
) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """By language: the game texts shown in English, and the vocabulary words translated.

    Both from one translation of each game per language, the costly part of the
    gate's set-up (see :func:`own_english` and :func:`translated_vocabulary`);
    ``kept`` keeps those translations for the reports (:func:`translation`).
    """
    from rulepress.model import SOURCE_LANGUAGE  # noqa: PLC0415  (see _games)

    own: dict[str, set[str]] = {}
    words: dict[str, set[str]] = {}
    for loaded in games:
        english = loaded.spec.vocabulary
        for lang in loaded.spec.game.languages:
            if lang == SOURCE_LANGUAGE:
                continue
            local = translation(loaded, lang, locales, kept)
            own.setdefault(lang, set()).update(local.untranslated)
            shown = local.loaded.spec.vocabulary
            found = words.setdefault(lang, set())
            found.update(word for key, word in english.items() if shown.get(key, word) != word)
    return own, words


def own_english(games: Iterable[LoadedSpec], locales: Path) -> dict[str, set[str]]:
    """By language, every game text its pages show in English (untranslated, one paragraph each).

    Asked of the very translation the pages, the PDFs and the reports are made
    with (:func:`rulepress.i18n.runtime.localize`), so that a text counts as the
    game's own English exactly when a reader gets it in English: its catalog
    entry missing, empty or fuzzy, or no catalog of that language yet. The
    interface's sentences are never among them: they come from another catalog.
    """
    return games_english(games, locales)[0]


def translated_vocabulary(games: Iterable[LoadedSpec], locales: Path) -> dict[str, set[str]]:
    """By language, the games' vocabulary words (English) that its catalogs translate.

    A word the catalog keeps as it is ("Komek", "UA") or does not translate yet is
    left out: the first is the translator's choice, the second a fallback the
    build's record reports.
    """
    return games_english(games, locales)[1]


def scan_reports(
    spec_root: Path,
    locales: Path,
    english: English,
    raw: RawIds | None = None,
    games: list[LoadedSpec] | None = None,
    previews: list[Problem] | None = None,
    kept: Translations | None = None,
) -> list[Problem]:
    """The scorer's text report of every worked example, in every language of its game.

    ``games``: the specs of ``spec_root`` when the caller has loaded them already.
    ``previews``: where to put the findings in a language the game publishes only as a
    preview (reported, not failed, as its pages are); without it they are failures.
    ``kept``: the translations the caller has made already (:func:`translation`).
    """
    # imported here: the gate reads sites and PDFs without the scorer otherwise
    from rulepress.i18n.preview import readiness  # noqa: PLC0415
    from rulepress.render.score_text import render_text  # noqa: PLC0415
    from rulepress.scoring.examples import run_example  # noqa: PLC0415

    found: list[Problem] = []
    for loaded in games if games is not None else _games(spec_root):
        for lang in loaded.spec.game.languages:
            preview = previews is not None and readiness(loaded.spec, lang, locales).preview
            local = translation(loaded, lang, locales, kept)
            for i, ex in enumerate(local.loaded.spec.examples):
                result = run_example(local.loaded, i, renderer=local.renderer)
                text = render_text(result, local.loaded.spec, local.renderer.translate)
                where = f"score {loaded.spec.game.id} --example {ex.id} --lang {lang}"
                checked = scan_text(text, lang, english, raw)
                made = problems(Location(str(loaded.directory)), where, checked)
                if preview and previews is not None:
                    previews += made
                else:
                    found += made
    return found


def _read_record(out: Path, output: str) -> tuple[FallbackRecord | None, list[Problem]]:
    """The fallback record of the build in ``out``, or why it cannot be had."""
    path = record_path(out)
    try:
        return FallbackRecord.from_json(path.read_text(encoding="utf-8")), []
    except OSError:
        what = f"no record of the messages {output} shows in English; build it again"
        return None, [Problem(Location(str(path)), output, what)]
    except ValueError as exc:
        return None, [Problem(Location(str(path)), output, f"unreadable record: {exc}")]


def split_previews(
    out: Path, record: FallbackRecord | None, found: list[Problem]
) -> tuple[list[Problem], list[Problem]]:
    """Findings on the pages or files of ``out``: (failures, those on a preview's).

    A preview says on every page that it is unfinished, so what its pages show in
    English is reported without stopping the gate, as its fallbacks are.
    """
    if record is None:
        return found, []
    failures: list[Problem] = []
    previews: list[Problem] = []
    for problem in found:
        try:
            parts = Path(problem.location.file).relative_to(out).parts
        except ValueError:
            failures.append(problem)
            continue
        rec = record.languages.get(parts[0]) if parts else None
        in_preview = rec is not None and rec.shows_preview(parts[1:])
        (previews if in_preview else failures).append(problem)
    return failures, previews


def scan_record(
    out: Path, output: str, read: tuple[FallbackRecord | None, list[Problem]] | None = None
) -> tuple[list[Problem], list[Problem]]:
    """The messages the build in ``out`` showed in English: (failures, preview warnings).

    A build that left no record (an older rulepress's, or one that failed
    before writing it) is a failure: what it shows in English is unknown.
    ``read``: the record as :func:`_read_record` gave it, when the caller has it.
    """
    path = record_path(out)
    record, unreadable = read if read is not None else _read_record(out, output)
    if record is None:
        return unreadable, []
    failures: list[Problem] = []
    warnings: list[Problem] = []
    for folder in sorted(p for p in out.iterdir() if p.is_dir() and not p.name.startswith("_")):
        if folder.name not in record.languages:
            what = f"the record does not cover {folder.name}: build that language again"
            failures.append(Problem(Location(str(path)), output, what))
    for lang, rec in record.languages.items():
        for found in rec.fallbacks:
            where = f"{found.context or found.msgid} ({output}, {lang}, {found.domain})"
            problem = Problem(found.location, where, found.describe())
            (warnings if rec.in_preview(found) else failures).append(problem)
    return failures, warnings


def run_gate(
    site: Path | None,
    printed: Path | None,
    spec_root: Path,
    locales: Path,
    warn: Callable[[str], None] | None = None,
) -> int:
    """Scan what was built; raise :class:`GateError` listing every finding.

    ``warn`` is told each message a preview shows in English. Returns how many it was told.
    """
    games = _games(spec_root)  # loaded once, for the raw ids, the games' English and the reports
    kept: Translations = {}  # and translated once, for the games' English and the reports
    own, words = games_english(games, locales, kept)
    english = English.from_templates(locales).with_own(own).with_vocabulary(words)
    raw = RawIds.of(game.spec for game in games)
    found: list[Problem] = []
    previews: list[Problem] = []
    quotes = _quotes_of(games)
    scans: tuple[tuple[Path | None, str, Scan], ...] = (
        (site, "site", scan_site),
        (printed, "print", functools.partial(scan_print, quotes=quotes)),
    )
    for out, output, scan in scans:
        if out is not None and out.is_dir():
            read = _read_record(out, output)  # once: for the pages and for the fallbacks
            on_pages, on_previews = split_previews(out, read[0], scan(out, english, raw))
            found += on_pages
            previews += on_previews
            failures, warnings = scan_record(out, output, read)
            found += failures
            previews += warnings
    found += scan_reports(spec_root, locales, english, raw, games, previews, kept)
    if warn is not None:
        for line in preview_lines(previews):
            warn(line)
    if found:
        raise GateError("the publication gate found what no reader should see", found)
    return len(set(previews))


#: the language a finding is in, from where our scans say it is
_FOUND_IN = re.compile(
    r"^(?:page|PDF text) \((?P<page>[A-Za-z_]+)\)$"  # a page or a PDF: scan_site, scan_print
    r"|\((?:site|print), (?P<record>[A-Za-z_]+), [^,()]+\)$"  # a fallback: scan_record
    r"|--lang (?P<report>[A-Za-z_]+)$"  # a worked example's report: scan_reports
)
#: how many findings of a preview its line names (the rest are counted)
PREVIEW_SHOWN = 3


def preview_lines(previews: Iterable[Problem]) -> list[str]:
    """One warning line per preview language: how much English it shows, and the first few.

    A preview is unfinished by design: the translator's own list of what is left is
    ``rulepress i18n check --lang LANG``, so the gate names a few and counts the rest.
    """
    by_lang: dict[str, list[Problem]] = {}
    for problem in sorted(set(previews), key=Problem.sort_key):
        match = _FOUND_IN.search(problem.where)
        lang = next((g for g in match.groups() if g), "?") if match else "?"
        by_lang.setdefault(lang, []).append(problem)
    lines = []
    for lang, found in sorted(by_lang.items()):
        shown = "; ".join(str(p) for p in found[:PREVIEW_SHOWN])
        more = f"; and {len(found) - PREVIEW_SHOWN} more" if len(found) > PREVIEW_SHOWN else ""
        lines.append(
            f"{lang} is a preview: {len(found)} text(s) in English, not a failure"
            f" (rulepress i18n check --lang {lang} lists what is left): {shown}{more}"
        )
    return lines
