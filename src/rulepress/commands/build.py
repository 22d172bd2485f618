"""``rulepress build`` (the sites and the printed documents) and ``rulepress gate``.

Loaded by the command line (:class:`rulepress.cli.LazyGroup`) only when one of them runs.
"""

from __future__ import annotations

from pathlib import Path

import click

from rulepress.cli import (
    DEFAULT_LOCALES,
    PRINT_OUT,
    SITE_OUT,
    _base_url_option,
    _bleed,
    _check_since,
    _checked,
    _folder_option,
    _langs_option,
    _locales_option,
    _out_option,
    _profile,
    _progress,
    _quiet_option,
    _require_games,
    _since_option,
    _spec_root_option,
    _warn,
    project_root,
    require_extra,
    require_pdf_reader,
)


@click.group(invoke_without_command=True)
@_spec_root_option
@_base_url_option
@click.option(
    "--force",
    is_flag=True,
    help="Replace output folders that are not (all) rulepress's, keeping what they held aside.",
)
@_since_option
@_quiet_option
@click.pass_context
def build(
    ctx: click.Context,
    spec_root: Path,
    base_url: str | None = None,
    force: bool = False,
    since: str | None = None,
) -> None:
    """The main job: validate specs, check worked examples, build the sites (and, alone, all of it)."""
    if ctx.invoked_subcommand is None:
        from rulepress.commands.specs import validate

        require_extra("build print")  # before any work, not after the validation
        require_extra("build site")
        _check_since(since, spec_root)
        ctx.invoke(validate, path=spec_root, examples=True)
        # the PDFs first: each game's pages link the player's PDFs of their language
        ctx.invoke(build_print, spec_root=spec_root, force=force, since=since)
        ctx.invoke(build_site, spec_root=spec_root, base_url=base_url, force=force, since=since)
        ctx.invoke(gate, spec_root=spec_root)


@click.command()
@_spec_root_option
@_locales_option
@_folder_option("--site", default=SITE_OUT, help="The built sites to check (skipped if absent).")
@_folder_option(
    "--print", "printed", default=PRINT_OUT, help="The built PDFs to check (skipped if absent)."
)
def gate(
    spec_root: Path,
    locales: Path = DEFAULT_LOCALES,
    site: Path = SITE_OUT,
    printed: Path = PRINT_OUT,
) -> None:
    """Check what readers will see: every page, every PDF's text, every example's report.

    Fails on spec markup left in the output, English interface words and
    translated game words (a player colour) in English on Czech or Japanese
    pages, ASCII punctuation, "。：" and a hyphen for a minus in Japanese text, a
    breaking space after a Czech one-letter preposition, and any message the
    builds showed in English
    instead of a translation, naming the file, the page and the text (or the
    message's context and .po line). A preview language's English is a warning.
    """
    require_pdf_reader(printed)
    from rulepress.gate import run_gate

    previews = run_gate(site, printed, spec_root, locales, warn=_warn)
    preview = f" ({previews} message(s) of previews in English)" if previews else ""
    click.echo(f"gate: nothing found that a reader should not see{preview}")


@build.command("site")
@_spec_root_option
@_locales_option
@_out_option(SITE_OUT)
@_langs_option
@click.option(
    "--doctest/--no-doctest",
    default=True,
    show_default=True,
    help="Also run every worked example's doctest.",
)
@_folder_option("--docs", default=Path("docs"), help="The project's own guides (English site).")
@_folder_option(
    "--pdfs",
    default=PRINT_OUT,
    help="The built PDFs that each game's pages link, copied beside them (skipped if absent).",
)
@_base_url_option
@_since_option
@_quiet_option
def build_site(
    spec_root: Path,
    locales: Path = DEFAULT_LOCALES,
    out: Path = SITE_OUT,
    langs: tuple[str, ...] = (),
    doctest: bool = True,
    docs: Path = Path("docs"),
    pdfs: Path = PRINT_OUT,
    base_url: str | None = None,
    force: bool = False,
    since: str | None = None,
) -> None:
    """Build the rules site of every game, in each of the languages its spec lists."""
    require_extra("build site")
    from rulepress.sphinx_ext import worker

    worker.start()  # Sphinx is imported in the background while the build's own code loads
    from rulepress.model import all_languages
    from rulepress.sphinx_ext.build import SiteBuild

    _require_games(spec_root)
    _check_since(since, spec_root)
    site = SiteBuild(
        project_root(spec_root),
        spec_root,
        locales,
        out,
        tuple(langs) or all_languages(spec_root),
        docs=docs if docs.is_dir() else None,
        pdfs=pdfs if pdfs.is_dir() else None,
        base_url=base_url,
        since=since,
        force=force,
        warn=_warn,
    )
    with _progress() as site.report:
        site.build(doctest=doctest)
    click.echo(
        f"site: {out}/index.html ({', '.join(site.languages)}; {len(site.written)} source file(s) changed)"
    )
    if base_url is None:
        click.echo("site: no sitemap.xml: give --base-url, the address the site is served from")
    else:
        click.echo(f"site: {out}/sitemap.xml (pages at {base_url})")


@build.command("print")
@_spec_root_option
@_locales_option
@_out_option(PRINT_OUT)
@_langs_option
@click.option(
    "--format",
    "formats",
    multiple=True,
    metavar="FORMAT",
    help="Reference card format: a4, a5, letter, poker, tarot or e.g. 100x150mm (repeatable; default: the spec's).",
)
@click.option(
    "--bleed",
    type=float,
    default=3.0,
    show_default=True,
    callback=lambda ctx, param, value: _checked(_bleed, value),
    help="Bleed around the trim size, in mm (0 to 10).",
)
@click.option(
    "--icc-profile",
    "profile",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    callback=lambda ctx, param, value: None if value is None else _checked(_profile, value),
    help=(
        "CMYK output-intent profile for every language (default: the spec's per language, "
        "else Ghostscript's SWOP profile)."
    ),
)
@click.option(
    "--duplex",
    type=click.Choice(["long", "short"]),
    default="long",
    show_default=True,
    help="How print-and-play sheets are turned over: the backs land behind the fronts.",
)
@click.option(
    "--marks",
    is_flag=True,
    help="Crop and bleed marks outside the bleed, and a slug line, on the press files.",
)
@_since_option
@_quiet_option
def build_print(
    spec_root: Path,
    locales: Path = DEFAULT_LOCALES,
    out: Path = PRINT_OUT,
    langs: tuple[str, ...] = (),
    formats: tuple[str, ...] = (),
    bleed: float = 3.0,
    profile: Path | None = None,
    duplex: str = "long",
    marks: bool = False,
    force: bool = False,
    since: str | None = None,
) -> None:
    """Build the press files and print-and-play sheets of every game, in each of its languages."""
    require_extra("build print")
    from rulepress.model import all_languages
    from rulepress.print.build import PrintBuild
    from rulepress.print.formats import parse_format

    for name in formats:
        parse_format(name)  # a bad format is a usage error before any work
    _require_games(spec_root)
    _check_since(since, spec_root)
    job = PrintBuild(
        project_root(spec_root),
        spec_root,
        locales,
        out,
        tuple(langs) or all_languages(spec_root),
        formats,
        bleed,
        profile,
        duplex="short" if duplex == "short" else "long",
        marks=marks,
        since=since,
        force=force,
        warn=_warn,
    )
    with _progress() as job.report:
        written = job.build()
    total = sum(job.timings.values())
    click.echo(f"print: {len(written)} PDF file(s) in {out}/ ({total:.1f} s of rendering)")
