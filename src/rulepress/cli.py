"""The ``rulepress`` command.

This is the only module that turns errors into exit codes (see
:mod:`rulepress.errors`); everything below it raises. Output meant for
programs (``--format json``, ``schema``) goes to stdout, problems to stderr.
"""

from __future__ import annotations

import contextlib
import errno
import gc
import sys
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any, TypeVar

import click

from rulepress import __version__
from rulepress.errors import ExitCode, RulepressError, UsageError
from rulepress.expressions import BudgetError, command_budget

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


class LazyGroup(click.Group):
    """A group whose commands are imported when one is run or listed, as click's docs show.

    Defining every command and its options took about 2 ms of every command's start
    (most of this module's own import): ``rulepress score`` now imports its own module
    only. ``--help``, the references and click's guess at a mistyped command list every
    command (:meth:`list_commands`, :meth:`get_command`), each with its help, as before.
    """

    def __init__(
        self, *args: Any, lazy_subcommands: Mapping[str, str] | None = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        #: command name -> "module:attribute" of its command
        self.lazy_subcommands = dict(lazy_subcommands or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *self.lazy_subcommands])

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.lazy_subcommands:
            return self._lazy_load(cmd_name)
        return super().get_command(ctx, cmd_name)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        try:
            return super().resolve_command(ctx, args)
        except click.exceptions.NoSuchCommand as error:
            # click guesses what was meant among the commands it holds: these are named
            # here, so it is told them ("Did you mean 'score'?", as before)
            raise click.exceptions.NoSuchCommand(
                error.command_name, possibilities=self.list_commands(ctx), ctx=ctx
            ) from None

    def _lazy_load(self, cmd_name: str) -> click.Command:
        import importlib

        module_name, attribute = self.lazy_subcommands[cmd_name].split(":")
        command = getattr(importlib.import_module(module_name), attribute)
        if not isinstance(command, click.Command):  # a slip in COMMANDS
            raise TypeError(f"{module_name}:{attribute} is not a click command")
        return command


#: every command, by name: "module:attribute" of its click command
COMMANDS = {
    "build": "rulepress.commands.build:build",
    "diff": "rulepress.commands.specs:diff",
    "examples": "rulepress.commands.specs:examples",
    "games": "rulepress.commands.specs:games",
    "gate": "rulepress.commands.build:gate",
    "i18n": "rulepress.commands.i18n:i18n",
    "impact": "rulepress.commands.specs:impact",
    "new": "rulepress.commands.specs:new",
    "provenance": "rulepress.commands.specs:provenance",
    "reference": "rulepress.commands.specs:reference",
    "schema": "rulepress.commands.specs:schema",
    "score": "rulepress.commands.score:score",
    "state-template": "rulepress.commands.specs:state_template",
    "validate": "rulepress.commands.specs:validate",
}


@click.group(
    cls=LazyGroup,
    lazy_subcommands=COMMANDS,
    context_settings={"help_option_names": ["-h", "--help"]},
)
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


def _check_option(func: F) -> F:
    return click.option(
        "--check", is_flag=True, help="Change nothing; fail if any file is out of date."
    )(func)


#: where ``rulepress reference`` writes by default (the repository commits its shared files)


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
