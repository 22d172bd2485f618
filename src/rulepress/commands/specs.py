"""The commands that read, check, compare and document the specs.

``validate``, ``diff``, ``impact``, ``schema``, ``games``, ``examples``, ``provenance``,
``state-template``, ``new`` and ``reference``: loaded by the command line
(:class:`rulepress.cli.LazyGroup`) only when one of them runs.
"""

from __future__ import annotations

from pathlib import Path

import click

from rulepress.cli import (
    SPEC_ROOT_HINT,
    _folder_option,
    _format_option,
    _game_dir,
    _load,
    _locales_option,
    _spec_root_option,
    find_spec_root,
    project_root,
)
from rulepress.errors import ExitCode, Problem, SpecError, UsageError
from rulepress.invisible import json_text


@click.command()
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


@click.command()
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


@click.command()
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


@click.command()
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


@click.command()
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


@click.command()
@click.argument("game")
@_spec_root_option
def examples(game: str, spec_root: Path) -> None:
    """List a game's worked examples: the id to give `score --example`, and the title."""
    spec = _load(spec_root, game).spec
    width = max((len(ex.id) for ex in spec.examples), default=0)
    for ex in spec.examples:
        click.echo(f"{ex.id:<{width}}  {ex.title}")


@click.command()
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


@click.command("state-template")
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


@click.command()
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


REFERENCE_OUT = Path("docs/reference")


@click.command()
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
    from rulepress.cli import cli
    from rulepress.reference.files import Reference, check_reference, write_reference
    from rulepress.yamlsrc import display_path

    documented = Reference(cli, "rulepress", spec_root)
    if check:
        check_reference(documented, out)
        click.echo(f"reference: up to date in {display_path(out)}/")
        return
    changed = write_reference(documented, out)
    click.echo(f"reference: {display_path(out)}/ ({len(changed)} file(s) written)")
