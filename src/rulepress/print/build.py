"""``rulepress build print``: every game's print files in every language.

Per game and language, into ``<out>/<lang>/<game>/``.

Each document the print shop gets comes twice, from one layout: a **press
file** ``<kind>-<format>-pdfx4.pdf`` (trim size plus bleed, TrimBox and
BleedBox, CMYK with the language's output intent: PDF/X-4; printer's marks with
``marks``) and a **player file** ``<kind>-<format>.pdf`` (the same pages cut to
the paper size, no bleed, no marks, not PDF/X), for a screen or a home printer:

- ``reference-<format>``: the reference card;
- ``rulebook-<format>``: the rulebook;
- ``cards-<format>``: one page per card face;

and for players only:

- ``pnp-a4.pdf`` and ``pnp-letter.pdf``: the cards n-up with crop marks, each
  sheet of fronts followed by its sheet of backs, placed to land behind their
  fronts after a long-edge flip (or, on request, a short-edge one);
- ``errata-<format>.pdf``, with ``since`` (the previous edition): the changes
  page of the site as a sheet for copies already sold, in the rulebook's format.

Everything is laid out in memory first, each game in each language in a
process of its own, one per core (``workers``), and the files are the same bytes
however many there are. A card whose content does not fit its page stops the
build with the card, the language and the overflow in mm, and then no file is
written at all.

What the PDFs show in English instead of a translation is written beside
``<out>`` (``<out>-fallbacks.json``, :mod:`rulepress.i18n.fallbacks`) for the
publication gate, with one warning line per language. A language that is only
a preview for a game (:mod:`rulepress.i18n.preview`) gets no print files for it:
paper cannot be corrected the way a page is, a press file goes to a print shop
as final, and the site, where the preview says what it is, is the place to
read an unfinished translation.
"""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import nullcontext
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from functools import partial
from pathlib import Path

from weasyprint.document import Document

from rulepress import workdir
from rulepress.edition_reports import PreviousEdition, previous_edition
from rulepress.editions.previous import Since, previous_edition_of
from rulepress.editions.sources import has_edition
from rulepress.errors import ExitCode, Location, Problem, RulepressError, UsageError
from rulepress.games import find_game_dirs, load_spec
from rulepress.i18n import usage
from rulepress.i18n.fallbacks import Fallback, FallbackRecord, GameRecord, write_record
from rulepress.i18n.preview import readiness
from rulepress.i18n.runtime import game_translator, localize
from rulepress.model import LoadedSpec, all_languages
from rulepress.output import check, replacing
from rulepress.population.executor import available_cores, run_each
from rulepress.print import impose, pdf, styles, written
from rulepress.print.formats import PRESETS, Format, parse_format
from rulepress.print.icons import check_icon
from rulepress.print.profiles import DEFAULT_PROFILE, Profile, checked_bleed, read_profile
from rulepress.progress import Counter, Report, silent
from rulepress.render import print_trees, print_writer
from rulepress.render.changes import changes_page
from rulepress.render.context import RenderContext
from rulepress.render.errata_print import errata_sheet
from rulepress.render.html_tree import el
from rulepress.render.pages import PRESS_SUFFIX

#: (declared with the other boxes of the print layout, which the translators' budgets read)
CARD_MARGIN_MM = styles.CARD_MARGIN_MM
REFERENCE_MARGIN_MM = styles.REFERENCE_MARGIN_MM


@dataclass
class Laid:
    """A laid-out document and the seconds its layout took (not yet counted)."""

    document: Document
    seconds: float


class PrintError(RulepressError):
    """A print file cannot be made: content overflows its page, or a profile is missing."""

    exit_code = ExitCode.PRINT


def build_date(root: Path) -> str:
    """The documents' date: SOURCE_DATE_EPOCH, else the last commit, else a fixed date."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch is None:
        try:
            epoch = (
                subprocess.run(
                    ["git", "log", "-1", "--format=%ct"],
                    cwd=root,
                    capture_output=True,
                    text=True,
                    check=True,
                ).stdout.strip()
                or None
            )
        except (OSError, subprocess.CalledProcessError):
            epoch = None
    stamp = datetime.fromtimestamp(int(epoch), UTC) if epoch else datetime(2026, 1, 1, tzinfo=UTC)
    return stamp.strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass
class PrintBuild:
    root: Path
    spec_root: Path
    locales: Path
    out: Path
    #: the languages to print (default: every language of the specs' games); each game
    #: is printed in those of its own languages (``game.languages``) only
    languages: tuple[str, ...] = ()
    reference_formats: tuple[str, ...] = ()
    bleed_mm: float = 3.0
    #: the output profile of every language (None: each game's spec says, or the default)
    profile: Path | None = None
    pnp_sheets: tuple[str, ...] = ("a4", "letter")
    #: how the print-and-play sheets are turned over between their sides
    duplex: impose.Flip = "long"
    #: crop and bleed marks outside the bleed, and a slug line, on the press files
    marks: bool = False
    #: replace an output folder that is not (all) rulepress's, keeping its files aside
    force: bool = False
    #: where a word about that goes (the command line's stderr)
    warn: Callable[[str], None] | None = None
    #: told of each game and language as its files are laid out
    report: Report = silent
    #: the previous edition of every game (a git revision or a folder), instead of the one
    #: each spec records (``game.previous_edition``): a game compared with one gets an
    #: errata sheet
    since: str | None = None
    files: dict[Path, bytes] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    #: what the PDFs show in English, by language (written beside ``out``)
    record: FallbackRecord = field(default_factory=FallbackRecord)
    #: processes that lay out games and languages side by side (None: one per core)
    workers: int | None = None
    _previous: dict[Path, PreviousEdition] = field(default_factory=dict, init=False, repr=False)
    _since: dict[Path, Since | None] = field(default_factory=dict, init=False, repr=False)

    def build(self) -> list[Path]:
        try:
            checked_bleed(self.bleed_mm)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        check(self.out, "print", force=self.force)  # a refusal now, not after the layout
        created = build_date(self.root)
        games = [load_spec(d) for d in find_game_dirs(self.spec_root)]
        games = [g for g in games if g.spec.publishing is not None]
        languages = self.languages or all_languages(self.spec_root)
        jobs = [(g, lang) for g in games for lang in languages if lang in g.spec.game.languages]
        # every profile and icon is checked, once, before anything is laid out: a bad
        # one writes nothing
        profiles = {(g.spec.game.id, lang): self._profile(g, lang) for g, lang in jobs}
        icons = {g.spec.game.id: self._icons(g) for g in games}
        if self.problems:
            raise PrintError(
                "an output profile or an icon cannot be used; nothing was written", self.problems
            )
        done = Counter(self.report, "print", len(jobs))
        self.record = FallbackRecord()
        tasks: list[_Task] = []
        for loaded, lang in jobs:
            profile = profiles[(loaded.spec.game.id, lang)]
            assert profile is not None
            ready = readiness(loaded.spec, lang, self.locales)
            game_id = loaded.spec.game.id
            self.record.language(lang).games[game_id] = GameRecord(
                ready.completeness, ready.preview
            )
            if ready.preview:
                bar = loaded.spec.game.translation.complete_at
                self._warn(
                    f"print ({lang}): no files for {game_id}, a preview in this language"
                    f" ({ready.completeness:g} % translated; complete at {bar} %)"
                )
                done(f"{game_id} ({lang}): a preview, not printed")
                continue
            since = self._since_of(loaded.directory)  # here, so that it warns once per game
            task = _Task(
                loaded, loaded.directory, game_id, lang, created, profile, icons[game_id], since
            )
            tasks.append(task)
        for task, printed in zip(tasks, self._run(tasks), strict=True):
            self._take(task.lang, printed)
            done(f"{task.game} ({task.lang}): {len(printed.files)} PDF file(s)")
        if self.problems:
            raise PrintError("some print files cannot be made; none was written", self.problems)
        # every file goes into a copy of the output folder, which is swapped in whole: a
        # full disk or Ctrl-C leaves the earlier files as they were (rulepress.output);
        # another print build into the same folder waits, so that the record of what is
        # there (below) is always this folder's
        made = {path.relative_to(self.out).as_posix(): data for path, data in self.files.items()}
        with workdir.locked(workdir.work_folder("print", self.out), self.out, self.warn):
            with replacing(
                self.out, "print", force=self.force, keep=True, warn=self.warn
            ) as staged:
                for path, data in sorted(self.files.items()):
                    staged.write(path.relative_to(self.out), data)
                # a game now a preview in a language: its earlier files there go too
                for lang, rec in self.record.languages.items():
                    for game, kept in rec.games.items():
                        if kept.preview:
                            staged.remove(Path(lang) / game)
            # what the site build may publish from here: these bytes, and no others
            written.record(self.out, made, staged.files)
            # beside the output, not in it; after the swap, so that it describes the files there
            write_record(self.out, self.record, languages)
        for line in self.record.warnings("print"):
            self._warn(line)
        return sorted(self.files)

    def _warn(self, line: str) -> None:
        if self.warn is not None:
            self.warn(line)

    def _icons(self, loaded: LoadedSpec) -> dict[str, str]:
        """The game's checked icons by term id; a refused one is a located problem."""
        pub = loaded.spec.publishing
        assert pub is not None
        terms = {t.id for t in loaded.spec.glossary}
        out = {}
        for term, name in pub.icons.items():
            where = loaded.locate(("publishing", "icons", term))
            try:
                if term not in terms:
                    raise ValueError(f"no glossary term {term!r} to give an icon")
                out[term] = check_icon(loaded.directory / name, loaded.directory)
            except ValueError as exc:
                self.problems.append(Problem(where, f"icon ({term})", str(exc)))
        return out

    def _profile(self, loaded: LoadedSpec, lang: str) -> Profile | None:
        """The checked output profile of ``lang``'s press files (None, with a problem, if bad)."""
        pub = loaded.spec.publishing
        assert pub is not None
        where = Location("--icc-profile")
        if self.profile is not None:
            path = self.profile
        elif lang in pub.output_profiles:
            folder = loaded.directory.resolve()
            path = (folder / pub.output_profiles[lang]).resolve()
            where = loaded.locate(("publishing", "output_profiles", lang))
            if not path.is_relative_to(folder):  # the spec is untrusted: its folder only
                outside = f"{pub.output_profiles[lang]} is not a file in the game's folder"
                self.problems.append(Problem(where, f"output profile ({lang})", outside))
                return None
        else:
            path = DEFAULT_PROFILE
            where = Location(str(DEFAULT_PROFILE))
        try:
            return read_profile(path)
        except ValueError as exc:
            hint = (
                " (give --icc-profile, or install libgs10-common)"
                if path == DEFAULT_PROFILE
                else ""
            )
            problem = Problem(where, f"output profile ({lang})", f"{exc}{hint}")
            if problem not in self.problems:  # --icc-profile is one file for every game
                self.problems.append(problem)
            return None

    def _game(
        self,
        loaded: LoadedSpec,
        lang: str,
        created: str,
        profile: Profile,
        icons: dict[str, str],
    ) -> None:
        local = localize(loaded, lang, self.locales)
        spec = local.loaded.spec
        pub = spec.publishing
        assert pub is not None
        ctx = RenderContext.of(local, lang, icons)
        folder = self.out / lang / spec.game.id
        name = f"{spec.game.id} ({lang})"

        for fmt_name in self.reference_formats or (pub.reference_card.format,):
            fmt = parse_format(fmt_name)
            card = pub.reference_card
            html = print_writer.write(
                print_trees.reference_card(ctx, card.sequences, card.tables), created
            )

            def reference(
                pt: float,
                back_pt: float | None = None,
                fmt: Format = fmt,
                html: str = html,
                columns: int = card.columns,
            ) -> tuple[str, str]:
                css = styles.reference_css(
                    fmt,
                    self.bleed_mm,
                    profile.path,
                    columns,
                    REFERENCE_MARGIN_MM,
                    pt,
                    marks=self.marks,
                    back_pt=back_pt,
                )
                return html, css

            fitted = self._fit(
                f"{name} reference card, {fmt.name}",
                styles.REFERENCE_PT,
                reference,
                print_writer.REFERENCE_FACES,
                fmt,
                REFERENCE_MARGIN_MM,
            )
            if fitted is not None:
                front_pt = fitted[1]

                def back(pt: float, front: float = front_pt) -> tuple[str, str]:
                    return reference(front, pt)

                # then the back, on its own: the largest size at which it still fits
                backed = self._fit(
                    f"{name} reference card, {fmt.name}",
                    (front_pt, max(front_pt, styles.REFERENCE_BACK_PT)),
                    back,
                    print_writer.REFERENCE_FACES,
                    fmt,
                    REFERENCE_MARGIN_MM,
                    first=fitted[0],
                )
                assert backed is not None  # its first size is the front's, which fits
                self._both(backed[0], folder, f"reference-{fmt.name}", profile)

        book_fmt = parse_format(pub.rulebook_format)
        # Only the cards can overflow as the reference card can: once anything has, the
        # build writes nothing, and the rulebook and errata sheet (seconds of layout) are
        # left out; the cards are still laid out, for their own problems (all at once)
        if not self.problems:
            book = print_writer.write(print_trees.rulebook(ctx), created)
            book_css = styles.rulebook_css(
                book_fmt,
                self.bleed_mm,
                profile.path,
                chapter_breaks=pub.chapter_breaks,
                marks=self.marks,
            )
            laid_book = self._bound(self._layout(book, book_css), ctx, created, book_css)
            self._both(laid_book, folder, f"rulebook-{book_fmt.name}", profile)
            self._errata(loaded, ctx, folder, created, profile, book_fmt)
        if pub.step_cards is not None:
            self._cards(
                ctx,
                pub.step_cards.sequences,
                parse_format(pub.step_cards.format),
                folder,
                name,
                created,
                profile,
            )
        # every sentence of the PDFs has been looked up by now (they are laid out in memory)
        self.record.language(lang).add(local.fallbacks)

    def _since_of(self, directory: Path) -> Since | None:
        """The edition a game's errata sheet compares with (None: no errata sheet)."""
        if directory not in self._since:
            self._since[directory] = previous_edition_of(directory, self.since, self.warn)
        return self._since[directory]

    def _run(self, tasks: list[_Task]) -> Iterator[_Printed]:
        """Each task's files, in the tasks' order, from one process per core at most.

        A game in one language is seconds of WeasyPrint layout, all of it in
        Python, so games and languages are laid out side by side, each in a
        process of its own; one task, one core or ``workers=1`` is done here.
        """
        recording = usage.recording_now()
        settings = self._settings()
        if min(len(tasks), self.workers or available_cores()) <= 1:
            # here, with the specs as loaded and each game's previous edition read once for
            # all its languages (a worker loads its game, and that edition, again)
            for task in tasks:
                yield _print(settings, recording, task)
            return
        job = partial(_print, settings, recording)
        yield from run_each(job, [task.away() for task in tasks], workers=self.workers)

    def _settings(self) -> PrintBuild:
        """A copy of this build's settings that a process of its own can take (no callbacks)."""
        return replace(self, warn=None, report=silent)

    def _take(self, lang: str, printed: _Printed) -> None:
        """A task's outcome, as if it had been made in this process."""
        self.files.update(printed.files)
        self.timings.update(printed.timings)
        self.problems.extend(printed.problems)
        self.record.language(lang).add(printed.fallbacks)
        for line in printed.warnings:
            self._warn(line)
        if printed.usage is not None:
            usage.merge(printed.usage)

    def _errata(
        self,
        loaded: LoadedSpec,
        ctx: RenderContext,
        folder: Path,
        created: str,
        profile: Profile,
        fmt: Format,
    ) -> None:
        """The errata sheet: what changed since the previous edition, a player's PDF (no press variant)."""
        directory = loaded.directory
        since = self._since_of(directory)
        if since is None or not has_edition(since.given, directory):
            return  # no edition to compare with, or a game new since that edition
        if directory not in self._previous:
            langs = self.languages or loaded.spec.game.languages
            self._previous[directory] = previous_edition(
                directory, loaded, since.given, self.locales, tuple(langs)
            )
        previous = self._previous[directory]
        new_text = game_translator(self.locales, ctx.lang, loaded.spec.game.id)
        page = changes_page(
            ctx, previous.diff, previous.spec, previous.old_text[ctx.lang], new_text
        )
        html = errata_sheet(ctx, page, created)
        self._player_pdf(
            folder / f"errata-{fmt.name}.pdf", html, styles.errata_css(fmt, profile.path), profile
        )

    def _bound(self, laid: Laid, ctx: RenderContext, created: str, css: str) -> Laid:
        """The rulebook with notes pages after it, so that its pages are a multiple of 4.

        Saddle stitching folds sheets of four pages. The notes pages are laid
        out once, on their own, and added to the book's pages (the book is not
        laid out again).
        """
        missing = -len(laid.document.pages) % 4
        if not missing:
            return laid
        notes = self._layout(
            print_writer.write(print_trees.notes_pages(ctx, missing), created),
            css + styles.NOTES_PAGES,
        )
        pages = [*laid.document.pages, *notes.document.pages]
        return Laid(laid.document.copy(pages), laid.seconds + notes.seconds)

    def _fit(
        self,
        what: str,
        sizes: tuple[float, float],
        make: Callable[[float], tuple[str, str]],
        faces: int,
        fmt: Format,
        margin_mm: float,
        first: Laid | None = None,
    ) -> tuple[Laid, float] | None:
        """The layout at the largest body size in ``sizes`` (by half points) that fits ``faces`` pages, and that size.

        A size fits when the document has exactly one page per face. If even the
        smallest does not, that is a problem saying by how much the content
        overflows, and None.
        """
        low, high = sizes
        steps = [low + i * 0.5 for i in range(int((high - low) / 0.5) + 1)]
        spent = 0.0
        last = len(steps) - 1
        if last > 0:
            # most step cards and reference backs fit at the largest size: tried first,
            # it is the one layout they take, where the search takes four (the search
            # finds the largest size too: the pages grow with the size, as it assumes)
            top = self._layout(*make(steps[last]))
            if len(top.document.pages) == faces:
                return top, steps[last]
            spent, last = top.seconds, last - 1
        # ``first``: the smallest size's layout, when the caller has it already
        first = first or self._layout(*make(steps[0]))
        if len(first.document.pages) != faces:
            html, css = make(steps[0])
            self._overflow(what, html, css, fmt, margin_mm)
            return None
        best, size, lo, hi = first, steps[0], 1, last
        while lo <= hi:  # the pages a document has grow with its type size
            mid = (lo + hi) // 2
            laid = self._layout(*make(steps[mid]))
            spent += laid.seconds
            if len(laid.document.pages) == faces:
                best, size, lo = laid, steps[mid], mid + 1
            else:
                hi = mid - 1
        # the layouts tried count as the kept one's rendering time
        best.seconds = first.seconds + spent
        return best, size

    def _overflow(self, what: str, html: str, css: str, fmt: Format, margin_mm: float) -> None:
        height = pdf.content_height_mm(html, css, f"{fmt.width_mm:g}mm", margin_mm)
        available = fmt.height_mm - 2 * margin_mm
        self.problems.append(
            Problem(
                Location(what),
                "overflow",
                f"the content is {height - available:.1f} mm taller than the {available:.0f} mm "
                f"the {fmt.name} page leaves for it; shorten the text or choose a larger format",
            )
        )

    def _layout(self, html: str, css: str) -> Laid:
        start = time.perf_counter()
        document = pdf.layout(html, css)
        return Laid(document, time.perf_counter() - start)

    def _both(self, laid: Laid, folder: Path, stem: str, profile: Profile) -> None:
        """A document's player file (``<stem>.pdf``) and press file (``<stem>-pdfx4.pdf``).

        Both are written from the one layout (no second render): the player's
        is the press file cut to its paper size, without PDF/X or marks
        (:func:`rulepress.print.pdf.write`, ``player``).
        """
        self._write(laid, folder / f"{stem}.pdf", profile, press=False)
        self._write(laid, folder / f"{stem}{PRESS_SUFFIX}.pdf", profile, x4=True)

    def _write(
        self,
        laid: Laid,
        path: Path,
        profile: Profile,
        *,
        x4: bool = False,
        press: bool = True,
    ) -> None:
        """Write a laid-out document; its layout time counts once, for the first file.

        ``press``: a press file, which gets the printer's marks when asked for;
        else a player's file (cut to the trim, no output intent).
        """
        start = time.perf_counter()
        marks = self.bleed_mm if self.marks and press else None
        self.files[path] = pdf.write(
            laid.document,
            x4=x4,
            condition=profile.description,
            marks_bleed_mm=marks,
            player=not press,
        )
        spent = time.perf_counter() - start + laid.seconds
        laid.seconds = 0.0
        self.timings[str(path.relative_to(self.out))] = spent

    def _player_pdf(self, path: Path, html: str, css: str, profile: Profile) -> None:
        """A file for players only (print-and-play sheets, errata), laid out on its own."""
        self._write(self._layout(html, css), path, profile, press=False)

    def _cards(
        self,
        ctx: RenderContext,
        sequences: list[str],
        fmt: Format,
        folder: Path,
        name: str,
        created: str,
        profile: Profile,
    ) -> None:
        deck = print_trees.step_cards(ctx, sequences)
        cards = print_writer.cards(deck)
        css = styles.card_css(fmt, self.bleed_mm, profile.path, marks=self.marks)
        sized = []
        for card in cards:

            def make(pt: float, card: print_writer.Card = card) -> tuple[str, str]:
                front = print_writer.sized(card.front, pt)
                return print_writer.card_document(deck, front, created, card.name), css

            fitted = self._fit(
                f"{name} card '{card.name}', {fmt.name}",
                styles.CARD_PT,
                make,
                1,
                fmt,
                CARD_MARGIN_MM,
            )
            if fitted is not None:
                front = print_writer.sized(card.front, fitted[1])
                sized.append(print_writer.Card(card.name, front, card.back))
        if len(sized) != len(cards):
            return
        cards = sized
        faces = [
            el("section", face, style="break-after: page")
            for card in cards
            for face in (card.front, card.back)
        ]
        laid = self._layout(print_writer.card_document(deck, faces, created), css)
        self._both(laid, folder, f"cards-{fmt.name}", profile)
        for sheet_name in self.pnp_sheets:
            sheet = PRESETS[sheet_name]
            grid = impose.grid(fmt, sheet)
            fronts, backs = [c.front for c in cards], [c.back for c in cards]
            body = impose.sheets(fronts, backs, grid, self.duplex)
            sheet_css = impose.sheet_css(sheet, fmt, profile.path)
            # print-and-play has crop marks of its own, on the sheet
            self._player_pdf(
                folder / f"pnp-{sheet_name}.pdf",
                print_writer.card_document(deck, body, created),
                sheet_css,
                profile,
            )


@dataclass(frozen=True)
class _Task:
    """One game in one language, checked and ready to lay out."""

    #: the game, loaded (None: load it from ``directory``, in the process that lays it out)
    loaded: LoadedSpec | None
    directory: Path
    game: str
    lang: str
    created: str
    profile: Profile
    icons: dict[str, str]
    since: Since | None

    def away(self) -> _Task:
        """The task as another process takes it: the game's folder, not its loaded spec."""
        return replace(self, loaded=None)

    def spec(self) -> LoadedSpec:
        return self.loaded if self.loaded is not None else load_spec(self.directory)


@dataclass
class _Printed:
    """What laying out one task made: its files and everything the build records of it."""

    files: dict[Path, bytes]
    timings: dict[str, float]
    problems: list[Problem]
    fallbacks: list[Fallback]
    warnings: list[str]
    #: the catalog lookups it made, when the caller records them (rulepress.i18n.usage)
    usage: usage.Usage | None


def _print(settings: PrintBuild, recording: bool, task: _Task) -> _Printed:
    """Lay out one task with ``settings`` (in this process or a worker's)."""
    warnings: list[str] = []
    # what it makes starts empty; the previous editions read are kept with the settings
    job = replace(
        settings,
        warn=warnings.append,
        files={},
        problems=[],
        timings={},
        record=FallbackRecord(),
    )
    job._previous = settings._previous
    job._since[task.directory] = task.since
    loaded = task.spec()
    with usage.recording() if recording else nullcontext() as used:
        job._game(loaded, task.lang, task.created, task.profile, task.icons)
    fallbacks = job.record.language(task.lang).fallbacks
    return _Printed(job.files, job.timings, job.problems, fallbacks, warnings, used)
