"""``rulepress build site``: every game in every language, as Sphinx HTML sites.

Stages, each inspectable on disk:

1. per language, the specs are translated (:mod:`rulepress.i18n.runtime`) and
   built into page trees (:mod:`rulepress.render.pages`), written as JSON
   (``*.rptree``) into one Sphinx project per language,
   ``<work>/sources/<lang>/``: the landing page, a folder per game and, in
   English, the guides; so one search covers every game. Beside them: the
   project's configuration as data (``rulepress-site.json``), a ``conf.py``
   that only reads it and the checked theme catalog as ``locale/<lang>/
   LC_MESSAGES/sphinx.mo``. Files are written only when they change, so
   Sphinx rebuilds only what changed;
2. Sphinx builds ``<work>/html/<lang>/`` (HTML in the rulepress theme, warnings are
   errors) and, with ``doctest=True``, runs every worked example's doctest.
   Each build runs in a process forked from a server that imported Sphinx
   while stage 1 ran (:mod:`rulepress.sphinx_ext.worker`), languages in
   parallel; a game whose inputs did not change keeps its page trees, so an
   edit to one game's rules regenerates and rebuilds that game's pages only.
3. ``index.html`` sends a reader to their language. A clean build is then
   copied, whole, into a folder beside ``<out>`` and swapped in
   (:mod:`rulepress.output`): a failed build leaves the published site as it
   was. Nothing is written into the project's sources.
4. What the pages show in English instead of a translation is written beside
   ``<out>`` (``<out>-fallbacks.json``, :mod:`rulepress.i18n.fallbacks`) for the
   publication gate, with one warning line per language. A game whose
   language is only a preview (:mod:`rulepress.i18n.preview`) says so on each
   of its pages, which carry ``noindex`` and stay out of the sitemap.

``<work>`` is a private folder in the user's cache (:mod:`rulepress.workdir`),
never one in the project, where a contribution could place files (Sphinx loads
a pickle from it). A build holds its lock, so that a second build into the same
``--out`` waits. What an earlier build left there is used only when it is
exactly what that build recorded (a manifest of sha256 per file, per language):
anything else, a missing manifest too, means that language is built afresh.
Nothing is written through a link, and only this build's languages and pages
are published.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from rulepress import output, workdir
from rulepress.edition_reports import PreviousEdition, previous_edition
from rulepress.editions.previous import Since, previous_edition_of
from rulepress.editions.sources import edition_files, has_edition
from rulepress.errors import ExitCode, Location, Problem, RulepressError
from rulepress.games import find_game_dirs, load_spec
from rulepress.i18n.extract import INTERFACE
from rulepress.i18n.fallbacks import Fallback, FallbackRecord, GameRecord, write_record
from rulepress.i18n.preview import completeness, readiness
from rulepress.i18n.runtime import (
    game_translator,
    interface_translator,
    localize,
    native_name,
)
from rulepress.impact.report import ImpactReport
from rulepress.model import LoadedSpec, all_languages, game_languages
from rulepress.population.executor import available_cores
from rulepress.print import written as print_record
from rulepress.progress import Counter, Report, silent
from rulepress.reference import author_reference
from rulepress.render import tree
from rulepress.render.changes import PAGE as CHANGES_PAGE
from rulepress.render.changes import changes_page
from rulepress.render.context import RenderContext
from rulepress.render.impact_cache import SEED as IMPACT_SEED
from rulepress.render.impact_cache import TABLES as IMPACT_TABLES
from rulepress.render.impact_cache import edition_report, option_reports
from rulepress.render.impact_lines import weight_blocks
from rulepress.render.markup import blocks, inline
from rulepress.render.pages import DOWNLOAD_DIR, DOWNLOADS, T, game_pages, links_of
from rulepress.render.preview import LABEL as PREVIEW_LABEL
from rulepress.render.preview import with_notice
from rulepress.render.tree import Block, Grid, LinkCard, Page, Paragraph, Section, TocTree, text
from rulepress.sphinx_ext import deploy, rootpage, worker
from rulepress.sphinx_ext.reference import cli_reference, schema_json, schema_page
from rulepress.sphinx_ext.siteconf import CONF_PY, LOCALE_DIR, GameSite, SiteConfig
from rulepress.sphinx_ext.theme import compile_theme
from rulepress.uitext import ui

ICON = Path(__file__).parent / "static" / "rulepress-icon.svg"
#: rulepress's own code and theme, which shape every page (see SiteBuild.inputs)
PACKAGE = Path(__file__).resolve().parent.parent
SITE_TITLE = ui("site", "Board-game rules")
SITE_INTRO = ui(
    "site",
    "Rules references published with rulepress: every rule with a permanent link, checked worked examples, each game in the languages it is published in.",
)
#: the caption of the guides, which exist in English only (so it is no interface message:
#: a translation would never be shown)
GUIDES = "rulepress documentation"
#: the one file of the work folder that belongs to no language (its manifest: "top")
TOP = f"html/{deploy.NOT_FOUND_PAGE}"
#: the suffix of generated page trees (read by rulepress.sphinx_ext.doctree.PageParser)
PAGE_SUFFIX = ".rptree"


class SiteError(RulepressError):
    """Sphinx reported warnings or errors, or a doctest failed."""

    exit_code = ExitCode.SITE


class GeneratedGame(BaseModel):
    """What generating one game's pages in one language made (kept in its stamp)."""

    model_config = ConfigDict(extra="forbid")

    game: str
    #: the digest of the inputs they were made from (see SiteBuild._game_inputs)
    inputs: str
    #: the page trees' file names, in the game's folder
    pages: list[str]
    site: GameSite
    card: LinkCard
    #: how complete the language is for the game, and whether its pages are a preview
    readiness: GameRecord = GameRecord()
    #: the messages its pages show in English (see rulepress.i18n.fallbacks)
    fallbacks: list[Fallback] = []


@dataclass
class SiteBuild:
    root: Path
    spec_root: Path
    locales: Path
    out: Path
    #: the languages to build (default: every language of the specs' games); each
    #: game appears in those of its own languages (``game.languages``) only
    languages: tuple[str, ...] = ()
    theme: str = "rulepress"
    docs: Path | None = None
    #: the print build's output (``<pdfs>/<lang>/<game>/*.pdf``): each game's pages link
    #: the player's PDFs of their language, copied beside them (None: no PDFs)
    pdfs: Path | None = None
    #: replace an output folder that is not (all) rulepress's, keeping its files aside
    force: bool = False
    #: where a word about that goes (the command line's stderr)
    warn: Callable[[str], None] | None = None
    #: told of each game's pages, each Sphinx build and the publishing as they complete
    report: Report = silent
    #: the address the site is served from (``https://…/``): the sitemap and canonical
    #: links need it (None: no sitemap, and the 404 page assumes the server's root)
    base_url: str | None = None
    #: the previous edition of every game (a git revision, or a folder holding the game's
    #: spec), instead of the one each spec records (``game.previous_edition``): a game
    #: compared with one gets the page "Changes in this edition"
    since: str | None = None
    #: where the work goes (None: a private folder in the user's cache, see :attr:`work`)
    work_dir: Path | None = None
    #: the drawn tables each ruling option and the edition are weighed over on the
    #: Rulings and changes pages, and their seed (rulepress.render.impact_cache)
    impact_tables: int = IMPACT_TABLES
    impact_seed: int = IMPACT_SEED
    written: list[Path] = field(default_factory=list)
    unchanged: set[Path] = field(default_factory=set)
    #: what the pages show in English, by language (made by generate(), written by build())
    record: FallbackRecord = field(default_factory=FallbackRecord)
    #: by language, the digest of its inputs (see :meth:`inputs`), and the languages
    #: whose inputs are those of their last clean build (nothing to generate or build)
    digests: dict[str, str] = field(default_factory=dict)
    skipped: set[str] = field(default_factory=set)
    #: the digest of the inputs every language shares, and the games, for one generate()
    #: (rulepress's code and the options; those and every spec; the game folders)
    _shared: tuple[Any, Any, list[Path]] | None = field(default=None, init=False, repr=False)
    #: each game's languages, read once per build (see games_in)
    _languages: dict[Path, tuple[str, ...]] = field(default_factory=dict, init=False, repr=False)
    #: each game's previous edition, compared once per build (see _changes)
    _previous: dict[Path, PreviousEdition] = field(default_factory=dict, init=False, repr=False)
    #: each game's ruling options, and its edition, weighed once per build (see impact_cache)
    _weights: dict[Path, dict[str, ImpactReport]] = field(
        default_factory=dict, init=False, repr=False
    )
    _edition_weight: dict[Path, ImpactReport] = field(default_factory=dict, init=False, repr=False)
    #: which edition each game is compared with, found once per build (see since_of)
    _since: dict[Path, Since | None] = field(default_factory=dict, init=False, repr=False)
    #: each game's completeness in each language, read once per build (see _completeness)
    _complete: dict[tuple[str, str], float] = field(default_factory=dict, init=False, repr=False)
    #: the PDFs of each (language, game) that the print build wrote, read once per build
    _pdfs: dict[tuple[str, str], dict[Path, bytes]] = field(
        default_factory=dict, init=False, repr=False
    )

    def __post_init__(self) -> None:
        if not self.languages:
            self.languages = all_languages(self.spec_root)

    def games_in(self, lang: str) -> list[Path]:
        """The folders of the games published in ``lang``, in the order of the specs' folder."""
        dirs = self._shared[2] if self._shared is not None else find_game_dirs(self.spec_root)
        return [d for d in dirs if lang in self._game_languages(d)]

    def since_of(self, directory: Path) -> Since | None:
        """The edition the game is compared with: ``since``, else its spec's (None: none)."""
        if directory not in self._since:
            self._since[directory] = previous_edition_of(directory, self.since, self.warn)
        return self._since[directory]

    def _game_languages(self, directory: Path) -> tuple[str, ...]:
        if directory not in self._languages:
            self._languages[directory] = game_languages(directory)
        return self._languages[directory]

    @property
    def work(self) -> Path:
        """What the build needs but a server must not serve: sources, doctrees, doctest reports.

        A private folder of the user's cache, keyed by ``<out>`` (see
        :mod:`rulepress.workdir`), checked (and made) when first asked for.
        """
        if self.work_dir is None:
            self.work_dir = workdir.work_folder("site", self.out)
        return self.work_dir

    @property
    def stage(self) -> Path:
        """Where Sphinx builds the site, kept between builds so that a rebuild is incremental.

        Only a complete, clean build is copied from here into ``<out>``, as a whole
        (:meth:`publish`): a reader never meets half a site.
        """
        return self.work / "html"

    @property
    def guides(self) -> Path | None:
        """The guides' folder, if it holds guides: their start page is its ``index.md``."""
        if self.docs is None or not (self.docs / "index.md").is_file():
            return None
        return self.docs

    @property
    def sources(self) -> Path:
        return self.work / "sources"

    @property
    def doctest_reports(self) -> Path:
        return self.work / "doctest"

    def write(self, path: Path, text: str) -> None:
        self.write_bytes(path, text.encode("utf-8"))

    def write_bytes(self, path: Path, data: bytes) -> None:
        if not path.is_symlink() and path.is_file() and path.read_bytes() == data:
            self.unchanged.add(path)
            return
        _write_new(path, data)
        self.written.append(path)

    # ----------------------------------------------------------------- stage 1

    def inputs(self, lang: str) -> str:
        """A digest of everything a language's project is generated from.

        The specs, the language's catalogs, the guides (in English), the
        build's options and rulepress's own code and theme (which shape the
        pages): when none of them changed since the last clean build, that
        language's sources and pages are as they would be made again.
        """
        if self._shared is None:
            # what every language reads: rulepress's code and theme, the options, the specs
            options: list[object] = [
                self.languages,
                self.theme,
                self.base_url,
                self.impact_tables,
                self.impact_seed,
            ]
            dirs = find_game_dirs(self.spec_root)
            since_files: list[Path] = []
            for directory in dirs:
                # each game's previous edition as it is now: a commit, or a folder's files
                previous = self.since_of(directory)
                if previous is not None:
                    since, read = edition_files(previous.given, directory)
                    options.append([directory.name, since])
                    since_files += read
            code = hashlib.sha256(json.dumps(options).encode())
            _digest_files(code, [*PACKAGE.rglob("*"), *since_files])
            shared = code.copy()
            _digest_files(shared, (f for d in dirs for f in d.glob("*.yaml")))
            self._shared = (code, shared, dirs)
        _, shared, _dirs = self._shared
        digest = shared.copy()
        digest.update(lang.encode())
        files: list[Path] = []
        if lang != "en":
            files += (self.locales / lang / "LC_MESSAGES").glob("*.po")
        if lang == "en" and self.guides is not None:
            files += self.guides.glob("*.md")
        for directory in self.games_in(lang):
            digest.update(self._preview_inputs(directory).encode())
        _digest_files(digest, files)
        for directory in self.games_in(lang):
            _digest_pdfs(digest, self._pdfs_of(lang, directory.name))
        return digest.hexdigest()

    def _completeness(self, lang: str, game: str) -> float:
        if (lang, game) not in self._complete:
            self._complete[(lang, game)] = completeness(self.locales, lang, (game, INTERFACE))
        return self._complete[(lang, game)]

    def _preview_inputs(self, directory: Path) -> str:
        """What decides, in every language built, whether a game is a preview there.

        A game's pages mark the languages it is a preview in (the switcher), so
        they change with the other languages' completeness, not only with their own
        catalogs: the completeness itself is digested, not the other catalogs, so
        that a translator's edit rebuilds another language only when it moves it.
        """
        game = directory.name
        shares = {lang: self._completeness(lang, game) for lang in self._built_in(directory)}
        return json.dumps(shares, sort_keys=True)

    def _built_in(self, directory: Path) -> list[str]:
        """The languages of this build that the game is published in."""
        return [lang for lang in self.languages if lang in self._game_languages(directory)]

    def downloads(self, lang: str, game: str) -> list[Path]:
        """The PDFs of ``game`` in ``lang``: rulebook, reference card, cards, print and play.

        Each as the player's file and, but for print and play, the press file
        (PDF/X-4), which the game's page for print shops offers.
        """
        return sorted(self._pdfs_of(lang, game))

    def _pdfs_of(self, lang: str, game: str) -> dict[Path, bytes]:
        """The player's PDFs of a game in a language, read once: those the print build wrote.

        Each is read without following a link and must hold the bytes the print
        build recorded for it (:mod:`rulepress.print.written`); another file is
        left out, with a word on stderr.
        """
        if self.pdfs is None:
            return {}
        if (lang, game) not in self._pdfs:
            self._pdfs[(lang, game)] = print_record.players_pdfs(
                self.pdfs, f"{lang}/{game}", DOWNLOADS, self.warn
            )
        return self._pdfs[(lang, game)]

    def _sitemap(self) -> None:
        """``sitemap.xml`` and ``robots.txt`` for the pages built, if the site's address is known."""
        sitemap, robots = self.stage / deploy.SITEMAP, self.stage / deploy.ROBOTS
        if self.base_url is None:
            # none made for another address may stay behind
            sitemap.unlink(missing_ok=True)
            robots.unlink(missing_ok=True)
            return
        # a preview's pages are noindex: a sitemap listing them would contradict it
        previews = {
            (lang, game)
            for lang, record in self.record.languages.items()
            for game, ready in [*record.games.items(), ("", GameRecord(preview=record.preview))]
            if ready.preview
        }
        sitemap_xml = deploy.sitemap(self.stage, self.languages, self.base_url, previews)
        self.write_bytes(sitemap, sitemap_xml)
        self.write(robots, deploy.robots(self.base_url))

    def _copy_downloads(self) -> None:
        """Each game's PDFs beside its pages (``<out>/<lang>/<game>/downloads/``)."""
        for lang in self.languages:
            for game in self.games_in(lang):
                for path, data in self._pdfs_of(lang, game.name).items():
                    target = self.stage / lang / game.name / DOWNLOAD_DIR / path.name
                    if target.is_symlink() or not target.is_file() or target.read_bytes() != data:
                        _write_new(target, data)

    def _stamp(self, lang: str) -> Path:
        return self.work / "stamps" / f"{lang}.json"

    def _stamped(self, lang: str) -> dict[str, object]:
        """What the last clean build of ``lang`` recorded (nothing if it did not finish)."""
        try:
            data = json.loads(self._stamp(lang).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def _current(self, lang: str, inputs: str) -> bool:
        """Whether ``lang`` was built cleanly from exactly these inputs and its pages are there."""
        pages = self.stage / lang
        return (
            self._stamped(lang).get("inputs") == inputs
            and (self.sources / lang / "conf.py").is_file()
            and (pages / "index.html").is_file()
            and (pages / "search.html").is_file()
        )

    def plan(self) -> None:
        """Which languages have inputs other than those of their last clean build."""
        self._shared = None  # read the inputs anew: this instance may build again after an edit
        # and what the last build wrote or kept is not this one's (pruning keeps only these)
        self.written = []
        self.unchanged = set()
        self._languages = {}
        self._previous = {}
        self._weights = {}
        self._edition_weight = {}
        self._since = {}
        self._complete = {}
        self._pdfs = {}
        self.digests = {lang: self.inputs(lang) for lang in self.languages}
        self.skipped = {lang for lang in self.languages if self._current(lang, self.digests[lang])}

    def generate(self) -> None:
        self.plan()
        todo = [lang for lang in self.languages if lang not in self.skipped]
        # nothing changed for a language: its sources stay as they are (and are kept)
        self.record = FallbackRecord()
        for lang in self.skipped:
            self.unchanged.update(p for p in (self.sources / lang).rglob("*") if p.is_file())
            self._record_kept(lang)
        assert self._shared is not None
        specs: dict[Path, LoadedSpec] = {}  # each game's spec, read once if any language needs it
        #: rulepress's own sentences, by language (each catalog checked once)
        translators: dict[str, Callable[[str], str]] = {}
        pages = Counter(self.report, "site: pages", sum(len(self.games_in(lang)) for lang in todo))
        for lang in todo:
            project = self.sources / lang
            cards = []
            sites: dict[str, GameSite] = {}
            record = self.record.language(lang)
            # the start page's own sentences and the theme's words shown in English
            shared: set[Fallback] = set()
            translate = translators[lang] = interface_translator(self.locales, lang, shared)
            # the theme's words, checked and compiled once per language (None: English)
            chrome = compile_theme(self.locales, lang, shared) if lang != "en" else None
            for directory in self.games_in(lang):
                inputs = self._game_inputs(lang, directory)
                made = self._generated(lang, directory, inputs)
                if made is None:
                    if directory not in specs:
                        specs[directory] = load_spec(directory)
                    made = self._generate_game(project, lang, specs[directory], inputs)
                    stamp = self._game_stamp(lang, directory)
                    stamp.parent.mkdir(parents=True, exist_ok=True)
                    stamp.write_text(made.model_dump_json() + "\n", encoding="utf-8")
                else:
                    # made from these very inputs before: its page trees are kept as they are
                    self.unchanged.update(project / made.game / page for page in made.pages)
                sites[made.game] = made.site
                cards.append(made.card)
                record.games[made.game] = made.readiness
                record.add(made.fallbacks)
                pages(f"{made.game} ({lang})")
            guides = lang == "en" and self.guides is not None
            landing = self._landing(cards, list(sites), translate, guides)
            self.write(project / f"index{PAGE_SUFFIX}", landing.to_json())

            config = SiteConfig(
                project="rulepress",
                title=translate(SITE_TITLE),
                language=lang,
                languages=list(self.languages),
                language_names={code: native_name(code) for code in self.languages},
                theme=self.theme,
                favicon=str(ICON),
                spec_root=str(self.spec_root.resolve()),
                guides=guides,
                single_language=["guide/*"] if guides else [],
                home_label=translate(T["home"]),
                games=sites,
                base_url=f"{self.base_url}{lang}/" if self.base_url else "",
                preview=record.preview,
            )
            self.write(*config.write(project))
            record.add(shared)
            self.write(project / "conf.py", CONF_PY)
            if chrome is not None:
                self.write_bytes(project / LOCALE_DIR / lang / "LC_MESSAGES" / "sphinx.mo", chrome)
            if guides:
                self._guides(project / "guide")
        previews = {
            lang: translators[lang](PREVIEW_LABEL)
            for lang in todo
            if self.record.language(lang).preview
        }
        for lang in self.skipped:
            if self.record.language(lang).preview:
                previews[lang] = interface_translator(self.locales, lang)(PREVIEW_LABEL)
        self.write(self.stage / "index.html", rootpage.root_page(list(self.languages), previews))
        not_found = self.stage / deploy.NOT_FOUND_PAGE
        if todo or not not_found.is_file():  # its words are the catalogs' (a language's inputs)
            for lang in self.languages:
                if lang not in translators:
                    translators[lang] = interface_translator(self.locales, lang)
            self.write(not_found, deploy.not_found_page(self.languages, translators, self.base_url))
        else:
            self.unchanged.add(not_found)  # as the last build wrote it (see _verify)
        self._prune()

    def _record_kept(self, lang: str) -> None:
        """What a language built before from the same inputs shows in English, from its stamps."""
        record = self.record.language(lang)
        for directory in self.games_in(lang):
            try:
                stamp = self._game_stamp(lang, directory).read_bytes()
                made = GeneratedGame.model_validate_json(stamp)
            except (OSError, ValueError):
                continue  # cannot be: a language is skipped only with every game's pages there
            record.games[made.game] = made.readiness
            record.add(made.fallbacks)
        # the start page's sentences and the theme's words, looked up again (a few ms)
        shared: set[Fallback] = set()
        translate = interface_translator(self.locales, lang, shared)
        for sentence in (SITE_TITLE, SITE_INTRO, T["home"]):
            translate(sentence)
        if lang != "en":
            compile_theme(self.locales, lang, shared)
        record.add(shared)

    def _game_inputs(self, lang: str, directory: Path) -> str:
        """A digest of what one game's page trees in ``lang`` are made from.

        rulepress's code, the build's options, the game's spec files, the
        language's catalogs and the game's PDFs: a game whose inputs are
        unchanged keeps its page trees when another game is edited.
        """
        assert self._shared is not None  # plan() ran
        digest = self._shared[0].copy()  # the code and options, not the other games' specs
        digest.update(f"{lang}\0{directory.name}\0".encode())
        files = list(directory.glob("*.yaml"))
        if lang != "en":
            files += (self.locales / lang / "LC_MESSAGES").glob("*.po")
        digest.update(self._preview_inputs(directory).encode())
        _digest_files(digest, files)
        _digest_pdfs(digest, self._pdfs_of(lang, directory.name))
        return str(digest.hexdigest())

    def _game_stamp(self, lang: str, directory: Path) -> Path:
        return self.work / "stamps" / lang / f"{directory.name}.json"

    def _generated(self, lang: str, directory: Path, inputs: str) -> GeneratedGame | None:
        """What an earlier build generated of a game from exactly ``inputs``, if all still there."""
        try:
            made = GeneratedGame.model_validate_json(self._game_stamp(lang, directory).read_bytes())
        except (OSError, ValueError):
            return None
        folder = self.sources / lang / made.game
        if made.inputs != inputs or not all((folder / page).is_file() for page in made.pages):
            return None
        return made

    def _generate_game(
        self, project: Path, lang: str, loaded: LoadedSpec, inputs: str
    ) -> GeneratedGame:
        """One game's page trees in ``lang``, written into the language's project."""
        local = localize(loaded, lang, self.locales)
        game_id = loaded.spec.game.id
        ready = readiness(loaded.spec, lang, self.locales, self._completeness(lang, game_id))
        ctx = RenderContext.of(local, lang)
        offered = [path.name for path in self.downloads(lang, game_id)]
        changes = self._changes(ctx, loaded)
        extra = {CHANGES_PAGE: changes} if changes is not None else {}
        # each ruling option's weight, from drawn tables scored once per spec (cached)
        weights = {
            option: weight_blocks(
                report, ctx.spec, lang, ctx.translate, option, ctx.translate_plural
            )
            for option, report in self._option_reports(loaded).items()
        }
        pages = []
        for name, made in game_pages(ctx, offered, extra, weights).items():
            pages.append(f"{name}{PAGE_SUFFIX}")
            page = with_notice(made, local.renderer.translate) if ready.preview else made
            self.write(project / game_id / pages[-1], page.to_json())
        game = local.loaded.spec.game
        site = GameSite(
            title=game.title,
            # the footer shows it as text: references in it become their words
            edition=tree.plain_text(inline(game.edition, links_of(ctx, linked=False))),
            copyright=game.copyright,
            summary=" ".join(
                tree.plain_text(inline(game.summary, links_of(ctx, linked=False))).split()
            ),
            # its pages link the same pages in the other languages built that it has
            languages=[code for code in self.languages if code in game.languages],
            previews={
                code: interface_translator(self.locales, code)(PREVIEW_LABEL)
                for code in self._built_in(loaded.directory)
                if readiness(
                    loaded.spec, code, self.locales, self._completeness(code, game_id)
                ).preview
            },
        )
        return GeneratedGame(
            game=game_id,
            inputs=inputs,
            pages=pages,
            site=site,
            card=_game_card(ctx, game_id),
            readiness=GameRecord(ready.completeness, ready.preview),
            fallbacks=sorted(local.fallbacks),
        )

    def _changes(self, ctx: RenderContext, loaded: LoadedSpec) -> Page | None:
        """The game's page "Changes in this edition" in ``ctx``'s language, from its previous edition.

        None for a game compared with no edition, or one that the previous
        edition does not have (a new game).
        """
        directory = loaded.directory
        since = self.since_of(directory)
        if since is None or not has_edition(since.given, directory):
            return None
        if directory not in self._previous:
            langs = tuple(code for code in self.languages if code in loaded.spec.game.languages)
            self._previous[directory] = previous_edition(
                directory, loaded, since.given, self.locales, langs
            )
        previous = self._previous[directory]
        new_text = game_translator(self.locales, ctx.lang, loaded.spec.game.id)
        if directory not in self._edition_weight:
            self._edition_weight[directory] = edition_report(
                loaded,
                previous.spec,
                since.given,
                tables=self.impact_tables,
                seed=self.impact_seed,
            )
        weight = weight_blocks(
            self._edition_weight[directory],
            ctx.spec,
            ctx.lang,
            ctx.translate,
            translate_plural=ctx.translate_plural,
        )
        return changes_page(
            ctx, previous.diff, previous.spec, previous.old_text[ctx.lang], new_text, weight
        )

    def _option_reports(self, loaded: LoadedSpec) -> dict[str, ImpactReport]:
        """Each ruling option's impact report, worked out once per build (and kept in the cache)."""
        if loaded.directory not in self._weights:
            self._weights[loaded.directory] = option_reports(
                loaded, tables=self.impact_tables, seed=self.impact_seed
            )
        return self._weights[loaded.directory]

    def _landing(
        self, cards: list[LinkCard], games: list[str], tr: Callable[[str], str], guides: bool
    ) -> Page:
        children: list[Block] = [
            Paragraph(children=text(tr(SITE_INTRO))),
            Grid(columns=(1, 1, 2, 2), gutter=3, cards=cards),
            # the games' start pages, for navigation (the cards above are their links)
            TocTree(entries=[f"{game}/index" for game in games], hidden=True),
        ]
        if guides:
            # a heading of its own: a toctree's caption is a <p role="heading"> with no
            # level, which screen readers cannot place (axe: aria-required-attr)
            toc = TocTree(entries=["guide/index"])
            children.append(Section(label="guides", title=text(GUIDES), children=[toc]))
        return Page(blocks=[Section(label="index", title=text(tr(SITE_TITLE)), children=children)])

    def _prune(self) -> None:
        """Remove generated sources that this build did not write (a page or game now gone)."""
        wanted = set(self.written) | self.unchanged
        for path in sorted(self.sources.rglob("*")):
            if (
                path.is_file()
                and path not in wanted
                and "guide" not in path.relative_to(self.sources).parts
            ):
                path.unlink()

    def _guides(self, target: Path) -> None:
        assert self.guides is not None
        for path in sorted(self.guides.glob("*.md")):
            self.write(target / path.name, path.read_text(encoding="utf-8"))
        # the generated references sit where the repository keeps its copies (docs/reference/,
        # `rulepress reference`), so a guide's link to one works on the site and in the repository
        self.write(target / "reference" / "cli.md", cli_reference())
        self.write(target / "reference" / "spec-schema.md", schema_page())
        self.write(target / "reference" / "spec-reference.md", author_reference())
        self.write(target / "reference" / "spec.schema.json", schema_json())

    # ----------------------------------------------------------------- stage 2

    def sphinx_argv(self, builder: str, lang: str) -> list[str]:
        """Sphinx's command line for ``builder`` over a language's project (warnings are errors)."""
        out = self.stage / lang if builder == "html" else self.doctest_reports / lang
        return [
            "-b",
            builder,
            "-W",
            "--keep-going",
            "-q",
            "-d",
            str(self.work / "doctrees" / lang),
            str(self.sources / lang),
            str(out),
        ]

    def _todo(self, doctest: bool) -> list[tuple[str, str]]:
        """The Sphinx builds to run: (builder, language), after :meth:`plan`."""
        # a language built cleanly from the same inputs, doctests too if asked, is done
        done = self._done(doctest)
        tasks = [("html", lang) for lang in self.languages if lang not in done]
        if doctest:
            tasks += [("doctest", lang) for lang in self.languages if lang not in done]
        return tasks

    def _done(self, doctest: bool) -> set[str]:
        return {
            lang
            for lang in self.skipped
            if not doctest or self._stamped(lang).get("doctest") is True
        }

    def _run(
        self, executor: Executor, tasks: list[tuple[str, str]]
    ) -> list[tuple[tuple[str, str], int, str]]:
        """Run the Sphinx builds; a language's builds one after another, languages in parallel.

        A language's HTML and doctest builds share its environment and doctrees, so
        the doctest build starts only when the HTML build is done (together, one
        could read a doctree while the other writes it).
        """
        queues: dict[str, list[tuple[str, str]]] = {}
        for task in tasks:
            queues.setdefault(task[1], []).append(task)
        running: dict[Future[tuple[int, str]], tuple[str, str]] = {}

        def start(lang: str) -> None:
            if queues[lang]:
                task = queues[lang].pop(0)
                running[executor.submit(worker.run, self.sphinx_argv(*task))] = task

        done = Counter(self.report, "site: sphinx", len(tasks))
        for lang in queues:
            start(lang)
        results: list[tuple[tuple[str, str], int, str]] = []
        while running:
            finished, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in finished:
                task = running.pop(future)
                try:
                    results.append((task, *future.result()))
                except BrokenProcessPool as exc:  # the build's process died
                    results.append((task, 1, f"the Sphinx process ended abruptly ({exc})"))
                verdict = "" if results[-1][1] == 0 else ": failed"
                done(f"{task[0]} ({task[1]}){verdict}")
                start(task[1])
        return results

    def build(self, *, doctest: bool = True, jobs: int | None = None) -> None:
        output.check(self.out, "site", force=self.force)  # a refusal now, not after the build
        # one build at a time into an output folder: a second one waits, then finds
        # this one's work done (two at once would rewrite each other's files)
        with workdir.locked(self.work, self.out, self.warn):
            self._build(doctest, jobs)

    def _manifest(self, lang: str) -> Path:
        return self.work / "manifests" / f"{lang}.json"

    def _work_of(self, lang: str) -> list[str]:
        """A language's folders in the work folder, relative to it (what its manifest covers)."""
        if lang == "top":
            return [TOP]
        folders = ("sources", "html", "doctrees", "doctest", "stamps")
        return [*(f"{folder}/{lang}" for folder in folders), f"stamps/{lang}.json"]

    def _verify(self) -> None:
        """Start afresh each language whose work is not what the last build recorded.

        A file added, edited, removed or replaced by a link since (or a manifest
        missing: a build that was killed, or none yet) means the language's work
        is removed, its pickled environment with it: it is never loaded.
        """
        for lang in self.languages:
            if workdir.unchanged(self.work, self._work_of(lang), self._recorded(lang)):
                continue
            for folder in self._work_of(lang):
                _remove(self.work / folder)
            self._manifest(lang).unlink(missing_ok=True)
        # the page for missing addresses, made for every language at once: made again
        if not workdir.unchanged(self.work, [TOP], self._recorded("top")):
            _remove(self.work / TOP)

    def _recorded(self, name: str) -> object:
        try:
            return json.loads(self._manifest(name).read_bytes())
        except (OSError, ValueError):
            return None

    def _record(self, langs: Iterable[str]) -> None:
        """Record what this build left in the work folder of ``langs`` (see :meth:`_verify`)."""
        for lang in langs:
            found = workdir.manifest(self.work, self._work_of(lang))
            _write_new(self._manifest(lang), json.dumps(found, sort_keys=True).encode())

    def _build(self, doctest: bool, jobs: int | None) -> None:
        self._verify()
        try:
            self._build_verified(doctest, jobs)
        except RulepressError:
            # a located error (a spec, a catalog, Sphinx's warnings, a full disk): the work
            # folder holds this build's own writes, which the next build goes on from
            self._record([*self.languages, "top"])
            raise

    def _build_verified(self, doctest: bool, jobs: int | None) -> None:
        self.plan()
        workers = jobs or available_cores()
        results: list[tuple[tuple[str, str], int, str]] = []
        if not self._todo(doctest):
            self.generate()  # the root page and the pruning, as always; nothing to build
        else:
            # the workers' server imports Sphinx while the page trees are generated
            with worker.pool(workers) as executor:
                self.generate()
                results = self._run(executor, self._todo(doctest))
        done = self._done(doctest)
        problems = [
            Problem(Location(str(self.sources / lang)), f"sphinx {builder} ({lang})", _tail(output))
            for (builder, lang), code, output in results
            if code != 0
        ]
        if problems:
            for lang in self.languages:
                self._stamp(lang).unlink(missing_ok=True)
            raise SiteError("the site did not build cleanly", problems)
        self._copy_downloads()
        self._sitemap()
        for lang in self.languages:
            if lang in done:
                continue
            stamp = json.dumps({"inputs": self.digests[lang], "doctest": doctest}) + "\n"
            _write_new(self._stamp(lang), stamp.encode())
        for folder in sorted(self.stage.rglob("_sources"), reverse=True):
            # Sphinx makes the folder even when it copies no source (html_copy_source off)
            if folder.is_dir() and not any(folder.iterdir()):
                folder.rmdir()
        self._record([*(lang for lang in self.languages if lang not in done), "top"])
        self.publish()
        # beside the site, not in it (never served); after the swap, so it describes it
        write_record(self.out, self.record, self.languages)
        for line in self.record.warnings("site"):
            if self.warn is not None:
                self.warn(line)

    def publish(self) -> None:
        """Copy the built site into a folder beside ``<out>`` and swap it in, whole."""
        done = Counter(self.report, "site: publish", 1)
        with output.replacing(self.out, "site", force=self.force, warn=self.warn) as staged:
            # a copy, not hard links: Sphinx rewrites its files in place on the next build;
            # only this build's languages (verified, see _verify) and the files at the top
            # that it wrote: nothing else that the stage may hold
            for lang in self.languages:
                staged.copy_from(self.stage / lang, lang, keep=deploy.deployed)
            for name in ("index.html", deploy.NOT_FOUND_PAGE, deploy.SITEMAP, deploy.ROBOTS):
                path = self.stage / name
                if path in self.written or path in self.unchanged:
                    staged.write(name, path.read_bytes())
        done(f"{len(staged.files)} files in {self.out}")


def _digest_files(digest: Any, files: Iterable[Path]) -> None:
    """Add each file's path and bytes to ``digest``, in path order (caches left out)."""
    for path in sorted(files):
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(str(path).encode() + b"\0" + path.read_bytes() + b"\0")


def _digest_pdfs(digest: Any, pdfs: dict[Path, bytes]) -> None:
    for path, data in sorted(pdfs.items()):
        digest.update(str(path).encode() + b"\0" + data + b"\0")


def _remove(path: Path) -> None:
    """Remove a file, a link or a folder (links in it are removed, never followed)."""
    if path.is_symlink() or path.is_file():
        path.unlink()
    elif path.is_dir():
        shutil.rmtree(path)


def _write_new(path: Path, data: bytes) -> None:
    """Write ``path`` as a new file: a link there is replaced, never written through."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.is_symlink():
        path.unlink()
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | os.O_CLOEXEC, 0o666)
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)


def _game_card(ctx: RenderContext, game_id: str) -> LinkCard:
    """A game on the landing page: its title and summary, a link to its pages."""
    g = ctx.spec.game
    return LinkCard(
        title=text(g.title),
        body=blocks(g.summary, links_of(ctx, linked=False)),
        url=f"{game_id}/index.html",
    )


def _tail(output: str, lines: int = 25) -> str:
    kept = [line for line in output.strip().splitlines() if line.strip()]
    return "\n".join(kept[-lines:])


def build_site(
    root: Path,
    spec_root: Path,
    locales: Path,
    out: Path,
    languages: Iterable[str] = (),
    *,
    doctest: bool = True,
    docs: Path | None = None,
    theme: str = "rulepress",
    pdfs: Path | None = None,
    since: str | None = None,
) -> SiteBuild:
    site = SiteBuild(
        root, spec_root, locales, out, tuple(languages), theme, docs, pdfs=pdfs, since=since
    )
    site.build(doctest=doctest)
    return site
