"""The ``rulepress`` command.

This is the only module that turns errors into exit codes (see
:mod:`rulepress.errors`); everything below it raises. Output meant for
programs (``--format json``, ``schema``) goes to stdout, problems to stderr.
"""

from __future__ import annotations

import contextlib
import errno
import gc
import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import click

from rulepress import __version__
from rulepress.errors import ExitCode, Problem, RulepressError, SpecError, UsageError
from rulepress.expressions import BudgetError, command_budget
from rulepress.invisible import json_text

F = TypeVar("F", bound=Callable[..., Any])
T = TypeVar("T")

DEFAULT_SPEC_ROOT = Path("rules_spec")


#: where rulepress looks for the specs when no --spec-root is given (see find_spec_root)
SPEC_ROOT_HINT = (
    "give --spec-root, set RULEPRESS_SPEC_ROOT, or run rulepress inside a project that has"
    " a rules_spec/ folder"
)


def find_spec_root(given: Path | None) -> Path:
    """The specs' folder.

    ``given`` (--spec-root or $RULEPRESS_SPEC_ROOT), else the nearest ``rules_spec/``
    in the current folder or one above it, as git finds its repository.
    """
    if given is not None:
        return given
    here = Path.cwd()
    if DEFAULT_SPEC_ROOT.is_dir():
        return DEFAULT_SPEC_ROOT  # here: named as the user would (messages show it)
    for folder in here.parents:
        if (folder / DEFAULT_SPEC_ROOT).is_dir():
            return folder / DEFAULT_SPEC_ROOT
    return DEFAULT_SPEC_ROOT


#: what building needs beyond the core install, per command: the extra that brings its
#: Python packages, the modules that extra installs, and the system libraries pip cannot
#: install (the README's "Installing" lists the same)
EXTRAS: dict[str, tuple[str, tuple[str, ...], str]] = {
    "build site": ("site", ("sphinx", "myst_parser", "sphinx_design"), ""),
    "build print": (
        "print",
        ("weasyprint", "pydyf", "PIL"),
        "Pango (Debian: apt-get install libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0)",
    ),
}


def require_extra(command: str) -> None:
    """Stop with one line, not a traceback, when ``command``'s optional packages are missing.

    A core install (``pip install rulepress``) scores and validates with no system
    packages; building sites and PDFs is an extra (pyproject.toml).
    """
    import importlib.util

    extra, modules, system = EXTRAS[command]
    missing = [name for name in modules if importlib.util.find_spec(name) is None]
    if not missing and system:
        try:
            import weasyprint  # noqa: F401 - it loads Pango, which pip cannot install
        except OSError:
            missing = ["Pango"]
    if missing:
        also = f", and from the system {system}" if system else ""
        raise UsageError(
            f"rulepress {command} needs {', '.join(missing)}, not installed here:"
            f" pip install 'rulepress[{extra}]'{also}"
        )


def require_pdf_reader(printed: Path) -> None:
    """Stop with one line when there are PDFs in ``printed`` to read and no pdftotext."""
    import shutil

    if shutil.which("pdftotext") is None and any(printed.glob("*/*/*.pdf")):
        raise UsageError(
            f"rulepress gate reads the PDFs in {printed} with pdftotext, which is not"
            " installed: install the system package poppler-utils"
        )


#: where the specs' folder found for this command is kept (Context.meta is shared by a
#: command and the subcommands it runs)
_SPEC_ROOT = "rulepress.spec_root"


def _found_spec_root(ctx: click.Context, param: click.Parameter, value: Path | None) -> Path:
    root = find_spec_root(value)
    ctx.meta[_SPEC_ROOT] = root
    return root


def _spec_root_option(func: F) -> F:
    return click.option(
        "--spec-root",
        type=click.Path(path_type=Path, file_okay=False),
        default=None,
        envvar="RULEPRESS_SPEC_ROOT",
        # first, so that the other folders' defaults can be found beside it
        is_eager=True,
        callback=_found_spec_root,
        help=(
            "Directory holding one sub-directory per game (default: $RULEPRESS_SPEC_ROOT, "
            "else the nearest rules_spec/ here or above)."
        ),
    )(func)


def project_root(spec_root: Path) -> Path:
    """The project a specs' folder belongs to: the folder it sits in.

    The catalogs, the guides and the outputs are found there by default, as git
    finds paths from its work tree's top, so rulepress works the same from any
    folder of a project.
    """
    return spec_root.parent


def _in_project(relative: Path) -> Callable[[], Path]:
    """An option's default: ``relative`` inside the project of the command's specs."""

    def default() -> Path:
        root = click.get_current_context().meta.get(_SPEC_ROOT) or find_spec_root(None)
        return project_root(root) / relative

    return default


def _require_games(spec_root: Path) -> None:
    """Stop with a clear error when there is no game spec to work on."""
    from rulepress.games import find_game_dirs

    if not find_game_dirs(spec_root):
        raise UsageError(f"no game specs under {spec_root}: {SPEC_ROOT_HINT}")


def _spec_languages(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
    """``--lang``: any language of the specs (their ``game.languages``), checked against them.

    The languages are the specs', not a list of rulepress's, so they are checked
    here (after --spec-root, which is eager) rather than as a click.Choice.
    """
    asked = value if isinstance(value, tuple) else (value,) if value else ()
    if not asked:
        return value
    from rulepress.model import all_languages

    root = ctx.meta.get(_SPEC_ROOT) or find_spec_root(None)
    known = all_languages(root)
    unknown = [lang for lang in asked if lang not in known]
    if unknown:
        listed = ", ".join(known)
        raise click.BadParameter(
            f"{', '.join(map(repr, unknown))} is no language of the specs (languages: {listed})"
        )
    return value


def _langs_option(func: F) -> F:
    return click.option(
        "--lang",
        "langs",
        multiple=True,
        callback=_spec_languages,
        help="Only these languages (default: every language of the specs' games).",
    )(func)


#: where ``build site`` and ``build print`` write, and where ``gate`` reads, by default
SITE_OUT = Path("build/site")
PRINT_OUT = Path("build/print")


def _folder_option(*decls: str, default: Path, help: str) -> Callable[[F], F]:
    """An option naming a folder, with its default shown in ``--help``."""

    def decorate(func: F) -> F:
        return click.option(
            *decls,
            type=click.Path(path_type=Path, file_okay=False),
            default=_in_project(default),
            show_default=f"{default.as_posix()} beside the specs' folder",
            help=help,
        )(func)

    return decorate


def _out_option(default: Path) -> Callable[[F], F]:
    def decorate(func: F) -> F:
        func = click.option(
            "--force",
            is_flag=True,
            help=(
                "Replace an output folder that is not (all) rulepress's; what it held is "
                "kept beside it as <name>.replaced-<time>."
            ),
        )(func)
        return _folder_option("--out", default=default, help="Where the output goes.")(func)

    return decorate


def _warn(message: str) -> None:
    # once per command: `build` runs validate, the print and the site builds, which
    # each find (and would each tell of) a previous edition that cannot be read
    ctx = click.get_current_context(silent=True)
    if ctx is not None:
        told: set[str] = ctx.find_root().ensure_object(dict).setdefault("warned", set())
        if message in told:
            return
        told.add(message)
    click.echo(f"warning: {message}", err=True)


def _format_option(func: F) -> F:
    """``--format text|json`` of a report, given to the command as ``fmt``."""
    return click.option(
        "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
    )(func)


def _quiet_option(func: F) -> F:
    """``--quiet``: no progress; given to ``build`` it holds for every stage it runs."""

    def remember(ctx: click.Context, param: click.Parameter, value: bool) -> None:
        if value:
            ctx.ensure_object(dict)["quiet"] = True

    return click.option(
        "--quiet",
        "-q",
        is_flag=True,
        expose_value=False,
        callback=remember,
        help="Show no progress (a terminal gets a live status line, other output plain lines).",
    )(func)


@contextlib.contextmanager
def _progress() -> Iterator[Any]:
    """The report a build gives its progress to: shown on stderr, unless --quiet."""
    from rulepress.progress import Display, silent

    ctx = click.get_current_context()
    if (ctx.find_object(dict) or {}).get("quiet"):
        yield silent
        return
    display = Display(sys.stderr)
    try:
        yield display
    finally:
        display.close()


def _game_dir(spec_root: Path, game: str) -> Path:
    """A game's folder by its name (any case) or its path; a clear error, with a guess, if none."""
    from rulepress.games import find_game_dirs

    candidate = Path(game)
    if candidate.is_dir() and (candidate / "game.yaml").is_file():
        return candidate
    _require_games(spec_root)
    dirs = {p.name.casefold(): p for p in find_game_dirs(spec_root)}
    if game.casefold() in dirs:
        return dirs[game.casefold()]
    import difflib  # only to guess what was meant

    known = ", ".join(p.name for p in dirs.values())
    guess = difflib.get_close_matches(game.casefold(), list(dirs), n=1)
    hint = f"; did you mean {dirs[guess[0]].name!r}?" if guess else ""
    raise UsageError(f"no game {game!r} under {spec_root} (games: {known}){hint}")


def _load(spec_root: Path, game: str, *, isolate_examples: bool = False) -> Any:
    from rulepress.games import load_spec

    return load_spec(_game_dir(spec_root, game), isolate_examples=isolate_examples)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="rulepress")
def cli() -> None:
    """Publish board-game rules from one executable rules spec."""


DEFAULT_LOCALES = Path("locales")


def _project(spec_root: Path, locales: Path) -> Any:
    from rulepress.i18n.workflow import Project
    from rulepress.print.budget_check import add_places

    _require_games(spec_root)
    return Project(project_root(spec_root), spec_root, locales, places=add_places)


def _checked(check: Callable[[T], object], value: T) -> T:
    """``value`` if ``check`` accepts it; its ValueError becomes click's usage error."""
    try:
        check(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None
    return value


def _bleed(value: float) -> None:
    from rulepress.print.profiles import checked_bleed

    checked_bleed(value)


def _profile(path: Path) -> None:
    require_extra("build print")  # reading a profile needs Pillow, as printing does
    from rulepress.print.profiles import read_profile

    read_profile(path)


def _base_url(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is None or value == "":
        return None
    from rulepress.sphinx_ext.deploy import checked_base_url

    try:
        return checked_base_url(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None


def _since_option(func: F) -> F:
    return click.option(
        "--since",
        envvar="RULEPRESS_SINCE",
        default=None,
        metavar="REV",
        help=(
            "The previous edition of every game (a git revision such as a tag, or a folder"
            " holding the specs; or $RULEPRESS_SINCE), instead of the one each spec records"
            " (game.previous_edition): a game compared with one gets the page 'Changes in"
            " this edition' and an errata sheet PDF."
        ),
    )(func)


def _check_since(since: str | None, spec_root: Path) -> None:
    """A --since that is neither a folder nor a revision is refused before any work."""
    if since is not None and not Path(since).is_dir():
        from rulepress.editions.sources import revision

        revision(since, spec_root)


def _base_url_option(func: F) -> F:
    return click.option(
        "--base-url",
        envvar="RULEPRESS_BASE_URL",
        default=None,
        callback=_base_url,
        help=(
            "The address the site is served from (https://…/; or $RULEPRESS_BASE_URL): "
            "with it, the build writes sitemap.xml and each page's canonical link."
        ),
    )(func)


def _locales_option(func: F) -> F:
    return click.option(
        "--locales",
        type=click.Path(path_type=Path, file_okay=False),
        default=_in_project(DEFAULT_LOCALES),
        show_default=f"{DEFAULT_LOCALES.as_posix()} beside the specs' folder",
        help="Directory of the gettext catalogs.",
    )(func)


@cli.command()
@click.argument(
    "path",
    type=click.Path(path_type=Path),
    required=False,
    callback=lambda ctx, param, value: find_spec_root(value),
)
@click.option(
    "--examples/--no-examples",
    default=True,
    show_default=True,
    help="Also run every worked example and compare it with its stated result.",
)
def validate(path: Path, examples: bool) -> None:
    """Check every game spec under PATH and report all problems at once."""
    from rulepress.checks.languages import language_problems
    from rulepress.editions.previous import previous_problems
    from rulepress.games import find_game_dirs, load_spec
    from rulepress.scoring.examples import check_examples
    from rulepress.yamlsrc import content_problems

    games = find_game_dirs(path)
    if not games:
        raise UsageError(
            f"no game spec (a directory with game.yaml) under {path}: {SPEC_ROOT_HINT}"
        )
    # a file that is not data (a Python file above all) is reported, never read
    problems: list[Problem] = content_problems(path, str(path))
    if problems:
        click.echo(f"{path}: {len(problems)} file(s) a spec folder may not hold")
    for directory in games:
        try:
            # a broken worked example is reported with the rest, and the others still run
            loaded = load_spec(directory, isolate_examples=True)
        except SpecError as exc:
            problems.extend(exc.problems)
            click.echo(f"{directory}: {len(exc.problems)} problem(s)")
            continue
        broken = [p for listed in loaded.broken_examples.values() for p in listed]
        # whether Babel knows its languages (the loader checks their form only)
        # (a recorded revision this checkout cannot read is the builds' to tell of: the
        # spec is right, and a copy of it outside its repository validates as it is)
        unknown = broken + language_problems(loaded) + previous_problems(directory)
        problems.extend(unknown)
        found = check_examples(loaded) if examples else []
        problems.extend(found)
        count = len(loaded.spec.examples)
        if unknown:
            click.echo(f"{directory}: {len(unknown)} problem(s)")
        elif not examples:
            click.echo(f"{directory}: ok ({count} examples not run)")
        elif found:
            click.echo(f"{directory}: {len(found)} example result(s) wrong")
        else:
            click.echo(f"{directory}: ok ({count} examples checked)")
    if problems:
        raise SpecError("the specs have problems", problems)


@cli.group(invoke_without_command=True)
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
        require_extra("build print")  # before any work, not after the validation
        require_extra("build site")
        _check_since(since, spec_root)
        ctx.invoke(validate, path=spec_root, examples=True)
        # the PDFs first: each game's pages link the player's PDFs of their language
        ctx.invoke(build_print, spec_root=spec_root, force=force, since=since)
        ctx.invoke(build_site, spec_root=spec_root, base_url=base_url, force=force, since=since)
        ctx.invoke(gate, spec_root=spec_root)


@cli.command()
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


@cli.command()
@click.argument("game")
@click.argument("state", type=click.Path(path_type=Path, dir_okay=False), required=False)
@click.option(
    "--example",
    "example_id",
    metavar="ID",
    help="Score a worked example of the spec instead of a STATE file.",
)
@click.option(
    "--variant",
    "variants",
    multiple=True,
    metavar="NAME",
    help="Apply an alternative ruling (repeatable).",
)
@click.option(
    "--sequence",
    "sequence_id",
    metavar="ID",
    help="Run this sequence of the spec instead of the scorer's default (a state may also name it).",
)
@_format_option
@click.option(
    "--lang",
    default="en",
    show_default=True,
    # checked against the game's own languages when it is loaded (rulepress.i18n.runtime)
    help="Language of the report (labels, rule titles, notes, numbers): one of the game's.",
)
@click.option(
    "--no-cache",
    is_flag=True,
    help=(
        "Load and check the spec afresh instead of reading it from the user's cache"
        " (also: RULEPRESS_NO_CACHE=1)."
    ),
)
@_locales_option
@_spec_root_option
def score(
    game: str,
    state: Path | None,
    example_id: str | None,
    variants: tuple[str, ...],
    sequence_id: str | None,
    fmt: str,
    lang: str,
    no_cache: bool,
    locales: Path,
    spec_root: Path,
) -> None:
    """Score a table STATE file (YAML) of GAME, citing a rule on every line.

    The checked spec is kept in your cache (~/.cache/rulepress/specs/, or under
    $XDG_CACHE_HOME), so that the next score of the same spec skips reading and
    checking it; remove that folder at any time to clear it.
    """
    from rulepress.i18n.runtime import localize
    from rulepress.render import text_writer
    from rulepress.render.report_tree import report_tree
    from rulepress.scoring import load_state
    from rulepress.scoring import score as run_score
    from rulepress.scoring.result import to_json
    from rulepress.yamlsrc import display_path

    # a broken worked example stops this call only if it is the one scored
    if no_cache:
        loaded = _load(spec_root, game, isolate_examples=True)
    else:
        from rulepress.games.spec_cache import load_spec_cached

        loaded = load_spec_cached(_game_dir(spec_root, game), isolate_examples=True)
    if (state is None) == (example_id is None):
        raise UsageError("give either a STATE file or --example ID")
    broken = loaded.broken_examples
    if example_id is not None and example_id in broken:
        raise SpecError(
            f"{display_path(loaded.directory)}: the example {example_id!r} is broken",
            list(broken[example_id]),
        )
    if broken:
        click.echo(
            f"warning: {len(broken)} worked example(s) of {game} have problems"
            f" ({', '.join(broken)}); `rulepress validate` lists them",
            err=True,
        )
    local = localize(loaded, lang, locales)
    for warning in local.warnings():
        click.echo(f"warning: {warning}", err=True)
    loaded = local.loaded
    if example_id is not None:
        # (a state file needs neither)
        from rulepress.scoring.examples import find_example, run_example

        if sequence_id is not None:
            raise UsageError("an example names its own sequence; drop --sequence")
        index, _ = find_example(loaded, example_id)
        result = run_example(
            loaded,
            index,
            renderer=local.renderer,
            variants=list(variants) if variants else None,
            cite_rulings=True,
        )
    else:
        assert state is not None
        if not state.is_file():
            raise UsageError(f"no state file at {state}")
        data = load_state(loaded, state, sequence_id)
        result = run_score(
            loaded, data, variants=list(variants), renderer=local.renderer, cite_rulings=True
        )
    if fmt == "json":
        click.echo(to_json(result))
        return
    # the report's tree (every text, label and order), laid out for the terminal
    report = report_tree(result, loaded.spec, local.renderer.translate)
    click.echo(text_writer.write(report, result.language), nl=False)


@cli.command()
@click.argument("game")
@click.argument("old", required=False)
@click.argument("new", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print the diff as JSON (for programs).")
@click.option(
    "--lang",
    default="en",
    show_default=True,
    help="Language of the report: one of the game's (the changed wording stays English).",
)
@_locales_option
@_spec_root_option
def diff(
    game: str,
    old: str | None,
    new: str | None,
    as_json: bool,
    lang: str,
    locales: Path,
    spec_root: Path,
) -> None:
    """What changed in GAME from edition OLD to NEW, rule by rule.

    OLD and NEW are folders (the game's, or one holding GAME/ or
    rules_spec/GAME/) or git revisions (HEAD~1, a tag), read without touching
    the work tree; OLD defaults to the previous edition the game records
    (game.previous_edition in its game.yaml), the one its site's changes page
    compares with, and NEW to the game's folder as it is now. Rules added,
    removed, renumbered and changed, numbers, table cells, the order of steps
    and tie-breaks, rulings, worked examples; and every worked example of OLD
    scored under NEW, with each result that changes. Exits 0 once the editions
    are compared, whatever changed (the JSON's "changed" says whether anything
    did).
    """
    from rulepress.edition_reports import diff_report
    from rulepress.editions.previous import recorded_old

    game_dir = _game_dir(spec_root, game)
    since = old if old is not None else recorded_old(game_dir)
    shown = diff_report(game_dir, since, new, as_json=as_json, lang=lang, locales=locales)
    click.echo(shown, nl=False)


@cli.command()
@click.argument("game")
@click.option(
    "--variant",
    "variants",
    multiple=True,
    metavar="NAME",
    help="A ruling option the later rule set takes (repeatable); the earlier keeps the defaults.",
)
@click.option(
    "--since",
    metavar="REV",
    default=None,
    help="Compare with this earlier edition (a git revision or a folder holding the game).",
)
@click.option("--sequence", "sequence_id", metavar="ID", help="The sequence the tables are for.")
@click.option(
    "--tables",
    type=int,
    default=10_000,
    show_default=True,
    help="How many tables to draw (a seeded sample of the game's legal tables).",
)
@click.option("--seed", type=int, default=1, show_default=True, help="The seed of the draw.")
@click.option(
    "--corpus",
    type=click.Path(path_type=Path),
    default=None,
    help="Recorded tables instead of drawn ones: a folder of state files or a JSON Lines file.",
)
@click.option(
    "--workers",
    type=int,
    default=None,
    help="Processes to run on (default: every core this process may use).",
)
@click.option(
    "--scheduler",
    metavar="ADDRESS",
    default=None,
    help="Run on a Dask cluster (tcp://host:port); needs pip install 'rulepress[scale]'.",
)
@_format_option
@click.option(
    "--lang",
    default="en",
    show_default=True,
    help="Language of the text report: one of the game's.",
)
@click.option(
    "--out",
    type=click.Path(path_type=Path, file_okay=False),
    default=None,
    help="Also write the report folder (report.json, report.txt, chart.svg) here.",
)
@click.option("--force", is_flag=True, help="With --out: replace a folder rulepress did not make.")
@_locales_option
@_spec_root_option
def impact(
    game: str,
    variants: tuple[str, ...],
    since: str | None,
    sequence_id: str | None,
    tables: int,
    seed: int,
    corpus: Path | None,
    workers: int | None,
    scheduler: str | None,
    fmt: str,
    lang: str,
    out: Path | None,
    force: bool,
    locales: Path,
    spec_root: Path,
) -> None:
    """How often a rule change changes who wins, over many tables of GAME.

    Compares two rule sets over one population of tables: the spec's
    defaults (or the earlier edition --since REV) against the spec with the
    --variant options. The tables are drawn from the game's state format
    (--tables, --seed: the same seed draws the same tables) or read from
    --corpus. Reports how many tables change winner, place and score, the
    score differences, the steps, lines and rulings that account for them,
    and the smallest table that shows each change, as a worked example.
    """
    from rulepress.impact_reports import (
        Asked,
        impact_report,
        report_chart,
        report_text,
        write_folder,
    )

    game_dir = _game_dir(spec_root, game)
    if corpus is not None and tables != 10_000:
        raise UsageError("--tables counts drawn tables; a --corpus is read whole")
    asked = Asked(game_dir, variants, since, sequence_id, tables, seed, corpus, workers, scheduler)
    report = impact_report(asked)
    text = report_text(report, game_dir, lang, locales)
    if out is not None:
        chart = report_chart(report, game_dir, lang, locales)
        write_folder(out, report, text, chart=chart, force=force)
    click.echo(report.to_json() if fmt == "json" else text, nl=fmt == "json")


@cli.command()
@click.option(
    "--state",
    "state_game",
    metavar="GAME",
    help="Print the schema of GAME's table-state files instead.",
)
@click.option(
    "--sequence",
    "sequence_id",
    metavar="ID",
    help="With --state: the states of this sequence (default: the scorer's).",
)
@click.option(
    "--result", is_flag=True, help="Print the schema of `score --format json` output instead."
)
@click.option(
    "--diff", "of_diff", is_flag=True, help="Print the schema of `diff --json` output instead."
)
@_spec_root_option
def schema(
    state_game: str | None, sequence_id: str | None, result: bool, of_diff: bool, spec_root: Path
) -> None:
    """Print a JSON Schema of the spec format (for editors)."""
    from rulepress.games import spec_schema, state_schema

    if sum((bool(state_game), result, of_diff)) > 1:
        raise UsageError("--state, --result and --diff exclude each other")
    if of_diff:
        from rulepress.editions.model import json_schema as diff_schema

        data = diff_schema()
    elif result:
        from rulepress.scoring.result import json_schema

        data = json_schema()
    elif state_game:
        try:
            data = state_schema(_load(spec_root, state_game).spec, sequence_id)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
    else:
        data = spec_schema()
    click.echo(json_text(data, indent=2))


@cli.command()
@_spec_root_option
def games(spec_root: Path) -> None:
    """List the games under the spec root."""
    from rulepress.games import find_game_dirs, load_spec

    found = find_game_dirs(spec_root)
    if not found:
        raise UsageError(f"no game specs under {spec_root}: {SPEC_ROOT_HINT}")
    for directory in found:
        spec = load_spec(directory).spec
        click.echo(f"{spec.game.id}\t{spec.game.title}\t{len(spec.examples)} examples")


@cli.command()
@click.argument("game")
@_spec_root_option
def examples(game: str, spec_root: Path) -> None:
    """List a game's worked examples: the id to give `score --example`, and the title."""
    spec = _load(spec_root, game).spec
    width = max((len(ex.id) for ex in spec.examples), default=0)
    for ex in spec.examples:
        click.echo(f"{ex.id:<{width}}  {ex.title}")


@cli.command()
@click.argument("game")
@click.option(
    "--kind",
    "kinds",
    multiple=True,
    # the kinds of rulepress.model.provenance.KINDS, spelled out so that --help imports no
    # model (tests/test_cli.py checks that they agree)
    type=click.Choice(["stated", "inferred", "components", "table-state"]),
    help="Only entries of this kind (repeatable): stated by a quoted source, inferred or"
    " settled by a ruling, read off the components, or supplied by the table state.",
)
@click.option(
    "--audit",
    is_flag=True,
    help="Compare every entry and ruling with the record of the last audit (the spec's"
    " audit.yaml): each entry's kind, quotes and status, each ruling's options against the"
    " readings the audit found. Exits 1 if anything is due for the next audit.",
)
@click.option("--json", "as_json", is_flag=True, help="Write the list as JSON.")
@_spec_root_option
def provenance(
    game: str, kinds: tuple[str, ...], audit: bool, as_json: bool, spec_root: Path
) -> None:
    """List where every rule, step, parameter, table row and glossary entry of GAME comes from.

    Each entry names the lines of a source document and the words it quotes from
    them, the rulings that infer or settle it, the components it is read off, or
    the table-state fields that supply what no source gives. `--kind inferred`
    lists everything a ruling infers or settles. A citation of a document the
    game does not ship is marked unchecked: no quote of it could be verified.
    """
    from rulepress.games.provenance_report import (
        audit_lines,
        audit_report,
        provenance_report,
        report_lines,
    )
    from rulepress.model.provenance import KINDS

    spec = _load(spec_root, game).spec
    if audit:
        report = audit_report(spec)
        lines = audit_lines(report)
    else:
        report = provenance_report(spec, kinds or KINDS)
        lines = report_lines(report)
    if as_json:
        click.echo(json_text(report, indent=2))
    else:
        for line in lines:
            click.echo(line)
    if audit and report["findings"]:
        # click's exit, whose code main() returns (a SystemExit would escape main)
        raise click.exceptions.Exit(ExitCode.FAILED)


@cli.command("state-template")
@click.argument("game")
@click.option(
    "--sequence",
    "sequence_id",
    metavar="ID",
    help="A starter state for this sequence of the spec (default: the scorer's).",
)
@_spec_root_option
def state_template(game: str, sequence_id: str | None, spec_root: Path) -> None:
    """Print a commented starter table state (YAML) of GAME, to fill in and score.

    Every field of the state format, with its meaning, type, bounds and the
    rules that read it, and placeholder values that `score` accepts.
    """
    from rulepress.states import state_template as template

    click.echo(template(_load(spec_root, game).spec, sequence_id), nl=False)


@cli.command()
@click.argument("game")
@click.option("--title", metavar="TITLE", help="The game's title (default: from GAME).")
@click.option(
    "--lang",
    "langs",
    multiple=True,
    metavar="LANG",
    help="Also publish the game in this language (repeatable; English always).",
)
@_spec_root_option
@_locales_option
def new(
    game: str, title: str | None, langs: tuple[str, ...], spec_root: Path, locales: Path
) -> None:
    """Start a new game GAME (its id): a small valid spec to change into yours.

    Writes rules_spec/GAME/ (rules, a state format, a scoring sequence, a worked
    example, a glossary; every file explains itself in comments) and the game's
    catalogs, all or nothing. An existing game folder is never overwritten.
    """
    from rulepress.games import new_game
    from rulepress.i18n.workflow import Project, new_game_catalogs
    from rulepress.print.budget_check import add_places
    from rulepress.yamlsrc import display_path

    # the catalogs are made from the game once it is in place; if they cannot be
    # written, the game folder goes again
    with new_game(spec_root, game, title, langs) as folder:
        project = Project(project_root(spec_root), spec_root, locales, places=add_places)
        written = new_game_catalogs(project, game)
    click.echo(f"new game: {display_path(folder)}/")
    for path in written:
        click.echo(f"new catalog: {display_path(path)}")
    click.echo(f"next: rulepress validate, then rulepress score {game} --example ID")


def _check_option(func: F) -> F:
    return click.option(
        "--check", is_flag=True, help="Change nothing; fail if any file is out of date."
    )(func)


#: where ``rulepress reference`` writes by default (the repository commits its shared files)
REFERENCE_OUT = Path("docs/reference")


@cli.command()
@_folder_option("--out", default=REFERENCE_OUT, help="Where the reference goes.")
@click.option(
    "--check",
    is_flag=True,
    help="Change nothing; fail if a file every project shares (all but table-states/) is"
    " out of date.",
)
@_spec_root_option
def reference(out: Path, check: bool, spec_root: Path) -> None:
    """Write the spec and CLI references and the JSON Schemas into a folder, without a site build.

    spec-reference.md lists every field, step, operation, function, bound and
    fixed value a spec may use; cli.md every command's help; spec.schema.json
    is the schema of spec files, and table-states/GAME.SEQUENCE.schema.json
    that of each game's table states.
    """
    from rulepress.reference.files import Reference, check_reference, write_reference
    from rulepress.yamlsrc import display_path

    documented = Reference(cli, "rulepress", spec_root)
    if check:
        check_reference(documented, out)
        click.echo(f"reference: up to date in {display_path(out)}/")
        return
    changed = write_reference(documented, out)
    click.echo(f"reference: {display_path(out)}/ ({len(changed)} file(s) written)")


@cli.group()
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
UNCOLLECTED = frozenset({"score"})


def command_of(args: list[str]) -> str | None:
    """The command that ``args`` (the command line after ``rulepress``) runs.

    The group's own options (--help, --version) take no value: the first other word
    names the command.
    """
    return next((arg for arg in args if not arg.startswith("-")), None)


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; map rulepress errors to their exit codes without a traceback."""
    args = sys.argv[1:] if argv is None else argv
    collecting = gc.isenabled()
    if command_of(args) in UNCOLLECTED:
        gc.disable()
    try:
        return _run(args)
    finally:
        if collecting:
            gc.enable()


def _run(args: list[str]) -> int:
    """:func:`main`'s command, its errors mapped to their exit codes."""
    try:
        # one budget of operations for the whole command, whatever the spec says
        with command_budget():
            # every command returns None: an int is the code of click's Exit, which
            # click returns rather than raises when it is not in standalone mode
            done = cli.main(args=args, prog_name="rulepress", standalone_mode=False)
    except RulepressError as exc:
        click.echo(exc.render(), err=True)
        return exc.exit_code
    except BudgetError as exc:  # met outside a load or a scoring, which locate it
        click.echo(str(exc), err=True)
        return ExitCode.SPEC
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        return ExitCode.ABORTED
    except click.ClickException as exc:
        exc.show()
        return exc.exit_code
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except MemoryError:  # the machine's memory (or a ulimit) ran out before the budget did
        click.echo(
            "out of memory: the machine (or a limit set on this process) has less memory than"
            " this command needs",
            err=True,
        )
        return ExitCode.FAILED
    except OSError as exc:  # a file that cannot be read or written, met outside any check
        where = f"{exc.filename}: " if exc.filename is not None else ""
        click.echo(f"{where}{exc.strerror or exc}", err=True)
        # a full disk (or a read-only one) is an output that cannot be written: the table's 9
        return ExitCode.OUTPUT if exc.errno in _FULL else ExitCode.FAILED
    return done if isinstance(done, int) else 0


#: what a failed write says when the disk, the quota or the file system is full (or read-only)
_FULL = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EROFS})


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
