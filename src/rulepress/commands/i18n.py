"""``rulepress i18n``: the gettext catalogs (extract, update, compile, stats, changes, check).

Loaded by the command line (:class:`rulepress.cli.LazyGroup`) only when it runs.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from rulepress.cli import (
    F,
    _check_option,
    _folder_option,
    _format_option,
    _game_dir,
    _langs_option,
    _locales_option,
    _project,
    _spec_root_option,
)
from rulepress.errors import UsageError


@click.group()
def i18n() -> None:
    """Gettext catalogs: extract, update, compile, statistics and translator QA."""


def _domain_option(func: F) -> F:
    return click.option(
        "--domain", "domains", multiple=True, help="Only these domains (default: all)."
    )(func)


@i18n.command("extract")
@_spec_root_option
@_locales_option
@_check_option
@_domain_option
def i18n_extract(spec_root: Path, locales: Path, check: bool, domains: tuple[str, ...]) -> None:
    """Write the templates (locales/<domain>.pot) of every game, the interface and the theme."""
    from rulepress.i18n.workflow import extract

    changed = extract(_project(spec_root, locales), check=check, domains=domains)
    click.echo(f"templates: {len(changed)} written" if changed else "templates: up to date")


@i18n.command("update")
@_spec_root_option
@_locales_option
@_check_option
@_domain_option
def i18n_update(spec_root: Path, locales: Path, check: bool, domains: tuple[str, ...]) -> None:
    """Write the templates (as extract does), then merge them into every language's catalog.

    Changed English becomes fuzzy. With --check, a stale template fails as a
    stale catalog does.
    """
    from rulepress.i18n.workflow import update

    changed = update(_project(spec_root, locales), check=check, domains=domains)
    for path in changed:
        click.echo(f"updated {path}")
    if not changed:
        click.echo("catalogs: up to date")


#: where ``i18n compile`` writes by default: build output, never beside the catalogs
COMPILED_OUT = Path("build/locales")


@i18n.command("compile")
@_spec_root_option
@_locales_option
@_folder_option(
    "--out",
    default=COMPILED_OUT,
    help="Where the .mo files go, as <lang>/LC_MESSAGES/<domain>.mo (never beside the .po).",
)
def i18n_compile(spec_root: Path, locales: Path, out: Path) -> None:
    """Compile every catalog to .mo (fuzzy entries are left out), for other gettext tools.

    rulepress itself reads the .po files: the sites, the print files and score
    need no compiled catalog.
    """
    from rulepress.i18n.workflow import compile_all
    from rulepress.yamlsrc import display_path

    written = compile_all(_project(spec_root, locales), out)
    where = f"{display_path(out)}/"
    click.echo(
        f"compiled {len(written)} catalog(s) into {where}"
        if written
        else f"compiled catalogs: up to date in {where}"
    )


@i18n.command("stats")
@_spec_root_option
@_locales_option
@_format_option
@click.option(
    "--since",
    metavar="EDITION",
    help=(
        "Also count each game's messages whose English changed since this edition (a folder"
        " or a git revision, as for `rulepress diff`) and how many are translated again."
    ),
)
def i18n_stats(spec_root: Path, locales: Path, fmt: str, since: str | None) -> None:
    """Translated, fuzzy, untranslated and obsolete messages per language and domain."""
    from dataclasses import asdict

    from rulepress.games import find_game_dirs
    from rulepress.i18n.workflow import all_stats

    rows = all_stats(_project(spec_root, locales))
    counts: dict[tuple[str, str], tuple[int, int]] = {}
    if since is not None:
        from rulepress.edition_reports import since_counts

        counts = since_counts({d.name: d for d in find_game_dirs(spec_root)}, since, rows, locales)
    if fmt == "json":
        data = [asdict(r) | {"percent": round(r.percent, 1)} for r in rows]
        for r, item in zip(rows, data, strict=True):
            if (r.lang, r.domain) in counts:
                changed, redone = counts[(r.lang, r.domain)]
                item |= {"changed_since": changed, "retranslated_since": redone}
        click.echo(json.dumps(data, indent=2))
        return
    extra = f" {'changed':>7} {'redone':>6}" if since is not None else ""
    click.echo(
        f"{'lang':<5} {'domain':<12} {'total':>6} {'done':>6} {'fuzzy':>6} {'todo':>6} {'obsolete':>8} {'%':>6}"
        + extra
    )
    for r in rows:
        line = (
            f"{r.lang:<5} {r.domain:<12} {r.total:>6} {r.translated:>6} {r.fuzzy:>6} "
            f"{r.untranslated:>6} {r.obsolete:>8} {r.percent:>5.1f}%"
        )
        if (r.lang, r.domain) in counts:
            changed, redone = counts[(r.lang, r.domain)]
            line += f" {changed:>7} {redone:>6}"
        click.echo(line)
    if since is not None:
        click.echo(
            f"changed: messages whose English changed since {since}; redone: translated again"
        )


@i18n.command("changes")
@click.argument("game")
@click.argument("old", required=False)
@click.argument("new", required=False)
@click.option("--lang", required=True, help="The catalog's language (one of the game's).")
@_format_option
@_spec_root_option
@_locales_option
def i18n_changes(
    game: str, old: str, new: str | None, lang: str, fmt: str, spec_root: Path, locales: Path
) -> None:
    """GAME's messages whose English changed from edition OLD to NEW, with their LANG translation.

    Old and new English side by side, the translation the catalog holds now and
    its state: fuzzy (as `i18n update` leaves a changed message), translated
    again, untranslated, or removed. OLD and NEW as for `rulepress diff`.
    """
    from rulepress.edition_reports import changes_report

    shown = changes_report(
        _game_dir(spec_root, game), old, new, lang=lang, locales=locales, as_json=fmt == "json"
    )
    click.echo(shown, nl=False)


@i18n.command("check")
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path, dir_okay=False))
@_langs_option
@click.option("--domain", "domains", multiple=True, help="Only these domains (default: all).")
@_spec_root_option
@_locales_option
def i18n_check(
    paths: tuple[Path, ...],
    langs: tuple[str, ...],
    domains: tuple[str, ...],
    spec_root: Path,
    locales: Path,
) -> None:
    """Translator QA on the catalogs (or on the given .po files): one line per problem.

    A file given by path is checked against the domain its name starts with
    (brink.cs.part1.po → brink) and the language in its header.
    """
    from rulepress.i18n.catalogs import CatalogError
    from rulepress.i18n.qa import check_file
    from rulepress.i18n.terms import terms_for
    from rulepress.i18n.workflow import existing_catalogs
    from rulepress.print.budget_check import Budgets

    targets: list[tuple[str | None, str, Path]]
    if paths:
        targets = [(None, p.name.split(".")[0], p) for p in paths]
    else:
        targets = [
            (lang, domain, path)
            for lang, domain, path in existing_catalogs(_project(spec_root, locales))
            if (not langs or lang in langs) and (not domains or domain in domains)
        ]
    errors = warnings = 0
    budgets = Budgets(spec_root)
    for lang, domain, path in targets:
        if not path.is_file():
            raise UsageError(f"no catalog at {path}")
        terms, note = terms_for(spec_root, domain, lang or _catalog_language(path))
        if note:
            click.echo(f"warning: {note}", err=True)
        # and, before any PDF is built, whether each translation fits its room in print
        found = check_file(path, lang, terms)
        found += budgets.check(domain, path, lang or _catalog_language(path))
        for finding in found:
            click.echo(str(finding), err=True)
            errors += finding.error
            warnings += not finding.error
    click.echo(f"{len(targets)} catalog(s) checked: {errors} error(s), {warnings} warning(s)")
    if errors:
        raise CatalogError(f"translator QA found {errors} error(s)")


def _catalog_language(path: Path) -> str:
    from rulepress.i18n.catalogs import read_catalog

    catalog = read_catalog(path)
    return str(catalog.locale).split("_")[0] if catalog.locale else ""


#: The commands that run without Python's cycle collector. A score reads one state, within
#: the command's budget of operations: what it allocates is freed when the process ends,
#: and the collector's passes over the hundreds of thousands of objects the imports and
#: the spec leave (all kept to the end) found nothing to free, for about a tenth of a warm
#: score's time. Builds, impact questions and the catalog commands keep it.
