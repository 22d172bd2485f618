"""The steps of the catalog workflow, as the CLI and the benchmark run them.

Which catalogs exist comes from the specs (:mod:`rulepress.model.languages`):
a game's domain has one catalog per language the game lists besides English,
and the shared domains (the interface, the theme) one per language of any
game. So a game published in English only has a template and no catalog, and
adding a language to ``game.languages`` and running ``rulepress i18n update``
makes its empty catalogs.

Rulepress's own domains (the interface, the theme) are the package's: their
templates come from its source and their catalogs ship inside it
(``rulepress/locales/``). In rulepress's own repository those are the files
every step writes. Any other project reads them and writes none of them: for a
language rulepress ships it uses the package's catalog (unless it has its own
``locales/<lang>/LC_MESSAGES/<domain>.po``, which then overrides it, and which
the steps keep up to date); for a language rulepress does not ship,
``i18n update`` makes the project's own catalog from the package's template, so
its translators get every message.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from babel.messages.catalog import Catalog

from rulepress.errors import Location, Problem, UsageError
from rulepress.i18n import catalogs
from rulepress.i18n.catalogs import PACKAGE_DOMAINS, PACKAGE_LOCALES, CatalogError
from rulepress.i18n.content import Content, content_of, read_content, readable_header
from rulepress.i18n.extract import PACKAGE_DIR, Places, all_templates
from rulepress.i18n.header_fields import kept_header
from rulepress.i18n.headers import header_text
from rulepress.i18n.termbase_file import skeleton, termbase_path
from rulepress.model.languages import spec_languages, translations, union
from rulepress.output import replace_files


@dataclass
class Project:
    """Where a project keeps its specs and catalogs."""

    root: Path
    spec_root: Path
    locales: Path
    #: what adds to game templates where readers meet each message (the CLI gives
    #: rulepress.print.budget_check.add_places, from a layer above the catalogs)
    places: Places | None = None
    _templates: dict[str, Catalog] | None = field(default=None, repr=False)
    _games: dict[str, tuple[str, ...]] | None = field(default=None, repr=False)

    def games(self) -> dict[str, tuple[str, ...]]:
        """Each game's languages (``game.languages``), by its domain."""
        if self._games is None:
            self._games = spec_languages(self.spec_root)
        return self._games

    def domains(self) -> list[str]:
        """Every domain, in the order of :meth:`templates`, without extracting any template.

        Listing the catalogs to check or compile needs the names only; making the
        templates renders every game for its places and reads the package's source.
        """
        return [*self.games(), *PACKAGE_DOMAINS]

    def languages(self, domain: str) -> tuple[str, ...]:
        """The languages ``domain`` has catalogs in (English, the source, has none).

        A game's own languages for its domain; for the shared domains, every
        language of any game.
        """
        games = self.games()
        return translations(games[domain] if domain in games else union(games.values()))

    def owns_package(self) -> bool:
        """Whether this is rulepress's own repository, with its own catalogs folder.

        Its root holds the package's source. A ``--locales`` elsewhere (a copy
        a test corrupts, say) is a project's folder like any other: the steps
        then never write into the package.
        """
        root = self.root.resolve()
        return PACKAGE_DIR.is_relative_to(root) and self.locales.resolve() == root / "locales"

    def _package_locales(self) -> Path:
        """The package's catalogs folder, as the project's own is given (relative, if it is)."""
        return self.locales.parent / PACKAGE_LOCALES.relative_to(self.root.resolve())

    def needs_template(self, domain: str) -> bool:
        """Whether ``domain``'s template must exist for its files to be current.

        A domain with catalogs needs its template: the catalogs are merged from it,
        and a translator opens it beside them. A game published in English only has
        no catalog, so a template no one has extracted yet holds back nothing: it is
        not stale, and a designer who adds a game to ``rules_spec/`` and never runs
        ``i18n extract`` keeps ``--check`` green. Once written (``extract`` and
        ``update`` always write it), it is checked like any other.
        """
        return bool(self.languages(domain))

    def template_file(self, domain: str) -> Path | None:
        """Where ``domain``'s template is written (None: the package's, not this project's)."""
        if domain not in PACKAGE_DOMAINS:
            return catalogs.template_path(self.locales, domain)
        return (
            catalogs.template_path(self._package_locales(), domain) if self.owns_package() else None
        )

    def catalog_file(self, lang: str, domain: str) -> Path | None:
        """Where ``domain``'s catalog in ``lang`` is written (None: the package's, read only).

        Outside rulepress's repository a shipped domain's catalog is the
        project's own when it has one, or when rulepress ships none in ``lang``.
        """
        if domain not in PACKAGE_DOMAINS:
            return catalogs.catalog_path(self.locales, lang, domain)
        if self.owns_package():
            return catalogs.catalog_path(self._package_locales(), lang, domain)
        own = catalogs.catalog_path(self.locales, lang, domain)
        if own.exists() or not catalogs.catalog_path(PACKAGE_LOCALES, lang, domain).exists():
            return own
        return None

    def templates(self, domains: tuple[str, ...] = ()) -> dict[str, Catalog]:
        """Every domain's template, or only those of ``domains`` (unknown names are an error)."""
        if self._templates is None:
            self._templates = all_templates(self.root, self.spec_root, places=self.places)
        if not domains:
            return self._templates
        unknown = [d for d in domains if d not in self._templates]
        if unknown:
            known = ", ".join(self._templates)
            raise UsageError(f"no domain {', '.join(unknown)} (domains: {known})")
        return {d: t for d, t in self._templates.items() if d in domains}


def _stale(path: Path) -> Problem:
    return Problem(Location(str(path)), "", "out of date (run the same command without --check)")


def _sync(files: dict[Path, bytes], *, check: bool) -> list[Path]:
    """Write the files whose bytes change, all or none (with ``check``, only name them)."""
    if check:
        return [p for p, data in files.items() if not p.is_file() or p.read_bytes() != data]
    # a full disk halfway leaves every catalog as it was, and no temporary file behind
    return replace_files(files)


@dataclass(frozen=True)
class _Planned:
    """A catalog or template to write, and what the file there says now (None: no file).

    ``in_file``: what the file says is read from it only when its bytes differ
    from ``data`` (a template, whose reading is otherwise not needed at all).
    """

    data: bytes
    lang: str | None  # the language it is read in (None: a template)
    current: Content | None
    in_file: bool = False


def _planned_template(path: Path, template: Catalog) -> _Planned:
    return _Planned(catalogs.render(template), None, None, in_file=path.is_file())


def _sync_content(files: dict[Path, _Planned], *, check: bool) -> list[Path]:
    """As :func:`_sync` for catalogs: a file that says the same (by content) is left alone.

    So a catalog saved by another tool is not stale for its layout, and keeps
    it (:mod:`rulepress.i18n.content`).
    """
    stale = {path: plan.data for path, plan in files.items() if _changes(path, plan)}
    return list(stale) if check else _sync(stale, check=False)


def _changes(path: Path, plan: _Planned) -> bool:
    """Whether writing ``plan`` would change what the file at ``path`` says."""
    if plan.in_file:
        raw = path.read_bytes()
        text = raw.decode("utf-8", "replace")
        if raw == plan.data:
            # the usual case in CI: the template as it would be written, so what it says
            # needs no reading; a file that reads as no catalog is stale all the same
            return readable_header(text) is None
        current = read_content(text, None)
        return current is None or current != read_content(plan.data.decode("utf-8"), plan.lang)
    if plan.current is None:
        return True
    if path.read_bytes() == plan.data:
        return False  # the usual case in CI: no second reading needed
    return plan.current != read_content(plan.data.decode("utf-8"), plan.lang)


def _planned_templates(
    project: Project, domains: tuple[str, ...], *, check: bool
) -> dict[Path, _Planned]:
    """Every template of ``domains`` (or all) the project writes, planned.

    With ``check``, only those it must have or has: a missing template the project
    need not have is not stale (:meth:`Project.needs_template`).
    """
    return {
        path: _planned_template(path, template)
        for domain, template in project.templates(domains).items()
        if (path := project.template_file(domain)) is not None
        and (not check or path.is_file() or project.needs_template(domain))
    }


def extract(project: Project, *, check: bool, domains: tuple[str, ...] = ()) -> list[Path]:
    """Write every domain's template (or ``domains``'); with ``check``, raise if any would change."""
    files = _planned_templates(project, domains, check=check)
    changed = _sync_content(files, check=check)
    if check and changed:
        raise CatalogError("templates are stale", [_stale(p) for p in changed])
    return changed


def update(project: Project, *, check: bool, domains: tuple[str, ...] = ()) -> list[Path]:
    """Write each template (as :func:`extract`), then merge it into each language's catalog.

    Changed English becomes fuzzy. ``domains`` lets one domain be updated while
    translators have the others' files open. The templates are written in the
    same step as the catalogs, all or none, so the ``.pot`` a translator opens
    is never older than the catalogs merged from it; with ``check``, a stale
    template fails as a stale catalog does. Returns the files written.
    """
    files = _planned_templates(project, domains, check=check)
    for domain, template in project.templates(domains).items():
        for lang in project.languages(domain):
            path = project.catalog_file(lang, domain)
            if path is None:
                continue  # the package's catalog, read only here
            spec_text = domain not in PACKAGE_DOMAINS
            if not path.exists():
                files.update(_new_termbase(project, domain, lang))
            files[path] = _merged(path, template, lang, spec_text=spec_text)
    changed = _sync_content(files, check=check)
    if check and changed:
        raise CatalogError("catalogs or templates are stale", [_stale(p) for p in changed])
    return changed


def _new_termbase(project: Project, domain: str, lang: str) -> dict[Path, _Planned]:
    """A game's empty termbase in a language it has no catalog in yet, unless it has one.

    Made with the language's first catalog, so that adding a language gives its
    translators the game's terms to settle; an existing termbase is never touched.
    """
    if domain not in project.games():
        return {}
    path = termbase_path(project.spec_root / domain, lang)
    return (
        {}
        if path.exists()
        else {path: _Planned(skeleton(project.spec_root / domain, lang), None, None)}
    )


def _merged(path: Path, template: Catalog, lang: str, *, spec_text: bool) -> _Planned:
    """The catalog ``path`` (made if missing) with ``template`` merged in, its header kept."""
    if not path.exists():
        return _Planned(
            catalogs.render(catalogs.merge(template, None, lang, spec_text=spec_text)), lang, None
        )
    old = catalogs.read_catalog(path, lang)  # located errors if it cannot be read
    text = path.read_text(encoding="utf-8")
    current = content_of(old, header_text(text) or "")  # before merge reuses its messages
    data = catalogs.render(
        catalogs.merge(template, old, lang, spec_text=spec_text), kept_header(text)
    )
    return _Planned(data, lang, current)


def new_game_catalogs(project: Project, game: str) -> list[Path]:
    """A new game's catalog files: its template and an empty catalog per language it lists.

    For a language no game had before, the shared domains' catalogs are made
    too (untranslated), unless the package's serve (see :meth:`Project.catalog_file`); catalogs that exist already are left as they are, so a new
    game never touches what translators have open. Returns the files written.
    """
    templates = project.templates()
    if game not in project.games():
        raise UsageError(f"no game {game!r} under {project.spec_root}")
    files = {catalogs.template_path(project.locales, game): catalogs.render(templates[game])}
    for lang in translations(project.games()[game]):
        for domain in (game, *(d for d in templates if d not in project.games())):
            path = project.catalog_file(lang, domain)
            if path is not None and (domain == game or not path.exists()):
                spec_text = domain not in PACKAGE_DOMAINS
                files[path] = _merged(path, templates[domain], lang, spec_text=spec_text).data
    return _sync(files, check=False)


def existing_catalogs(project: Project) -> list[tuple[str, str, Path]]:
    """(language, domain, file) of every catalog the project has and writes (not the package's)."""
    out = []
    for domain in project.domains():
        for lang in project.languages(domain):
            path = project.catalog_file(lang, domain)
            if path is not None and path.exists():
                out.append((lang, domain, path))
    return out


def compile_all(project: Project, out: Path) -> list[Path]:
    """Compile every catalog into ``out`` (``<lang>/LC_MESSAGES/<domain>.mo``); the files changed.

    ``out`` is a build folder, never the catalogs' own: a ``.mo`` beside its
    ``.po`` outlives the next edit of the ``.po``, and any tool that prefers
    compiled catalogs would read the stale one (rulepress itself reads only the
    ``.po`` files). Every ``.mo`` is made in memory before any is written.
    """
    files = {
        catalogs.compiled_path(out, lang, domain): catalogs.compile_catalog(
            catalogs.read_catalog(path, lang)
        )
        for lang, domain, path in existing_catalogs(project)
    }
    return _sync(files, check=False)


def all_stats(project: Project) -> list[catalogs.Stats]:
    """Each domain's figures in each language, from the catalog the project reads (maybe the package's)."""
    out = []
    for domain, template in project.templates().items():
        for lang in project.languages(domain):
            path = project.catalog_file(lang, domain) or catalogs.find_catalog(
                project.locales, lang, domain
            )
            if path.exists():
                out.append(catalogs.stats(catalogs.read_catalog(path, lang), lang, domain))
            else:
                total = sum(1 for m in template if m.id)
                out.append(catalogs.Stats(lang, domain, total, 0, 0, total, 0))
    return out
