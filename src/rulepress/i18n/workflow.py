"""The steps of the catalog workflow, as the CLI and the benchmark run them."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from babel.messages.catalog import Catalog

from rulepress.errors import Location, Problem, UsageError
from rulepress.i18n import catalogs
from rulepress.i18n.catalogs import CatalogError
from rulepress.i18n.extract import all_templates
from rulepress.output import replace_files


@dataclass
class Project:
    """Where a project keeps its specs and catalogs."""

    root: Path
    spec_root: Path
    locales: Path
    languages: tuple[str, ...] = catalogs.LANGUAGES
    _templates: dict[str, Catalog] | None = field(default=None, repr=False)

    def templates(self, domains: tuple[str, ...] = ()) -> dict[str, Catalog]:
        """Every domain's template, or only those of ``domains`` (unknown names are an error)."""
        if self._templates is None:
            self._templates = all_templates(self.root, self.spec_root)
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


def extract(project: Project, *, check: bool, domains: tuple[str, ...] = ()) -> list[Path]:
    """Write every domain's template (or ``domains``'); with ``check``, raise if any would change."""
    files = {
        catalogs.template_path(project.locales, domain): catalogs.render(template)
        for domain, template in project.templates(domains).items()
    }
    changed = _sync(files, check=check)
    if check and changed:
        raise CatalogError("templates are stale", [_stale(p) for p in changed])
    return changed


def update(project: Project, *, check: bool, domains: tuple[str, ...] = ()) -> list[Path]:
    """Merge each template (of ``domains``, or all) into each language's catalog.

    Changed English becomes fuzzy. ``domains`` lets one domain be updated while
    translators have the others' files open.
    """
    files: dict[Path, bytes] = {}
    for domain, template in project.templates(domains).items():
        for lang in project.languages:
            path = catalogs.catalog_path(project.locales, lang, domain)
            old = catalogs.read_catalog(path, lang) if path.exists() else None
            files[path] = catalogs.render(catalogs.merge(template, old, lang))
    changed = _sync(files, check=check)
    if check and changed:
        raise CatalogError("catalogs are stale", [_stale(p) for p in changed])
    return changed


def existing_catalogs(project: Project) -> list[tuple[str, str, Path]]:
    out = []
    for domain in project.templates():
        for lang in project.languages:
            path = catalogs.catalog_path(project.locales, lang, domain)
            if path.exists():
                out.append((lang, domain, path))
    return out


def compile_all(project: Project) -> list[Path]:
    """Compile every catalog; every .mo is made in memory before any is written."""
    files = {
        path.with_suffix(".mo"): catalogs.compile_catalog(catalogs.read_catalog(path, lang))
        for lang, _domain, path in existing_catalogs(project)
    }
    return _sync(files, check=False)


def all_stats(project: Project) -> list[catalogs.Stats]:
    out = []
    for domain, template in project.templates().items():
        for lang in project.languages:
            path = catalogs.catalog_path(project.locales, lang, domain)
            if path.exists():
                out.append(catalogs.stats(catalogs.read_catalog(path, lang), lang, domain))
            else:
                total = sum(1 for m in template if m.id)
                out.append(catalogs.Stats(lang, domain, total, 0, 0, total, 0))
    return out
