"""``rulepress score``: one table state (or worked example) scored, as text or JSON.

Loaded by the command line (:class:`rulepress.cli.LazyGroup`) only when it runs.
"""

from __future__ import annotations

from pathlib import Path

import click

from rulepress.cli import (
    _format_option,
    _game_dir,
    _load,
    _locales_option,
    _spec_root_option,
)
from rulepress.errors import SpecError, UsageError


@click.command()
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
