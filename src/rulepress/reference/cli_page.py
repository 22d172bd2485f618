"""The CLI reference as plain Markdown: every command's ``--help``, as click itself prints it.

The site's page is sphinx-click's, which needs Sphinx. For the repository's
copy, click's own help formatting is the whole of the work: each command's
help text is what ``rulepress <command> --help`` prints, under a heading
that names the command, at a fixed width so the file does not depend on the
terminal it was made in. A Markdown generator for click exists (mkdocs-click),
but it is an MkDocs extension (it brings Markdown and MkDocs' plugin API for one
loop over the command tree), and its Markdown is not the text users meet in
their terminal.
"""

from __future__ import annotations

from collections.abc import Iterator

import click

#: the width help text is wrapped at: that of a terminal, and of a readable page
WIDTH = 88


def _commands(
    command: click.Command, ctx: click.Context
) -> Iterator[tuple[click.Command, click.Context]]:
    """``command`` and every command under it, depth first, each group's in its listed order."""
    yield command, ctx
    if isinstance(command, click.Group):
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            if sub is None or sub.hidden:
                continue
            sub_ctx = click.Context(sub, info_name=name, parent=ctx, **sub.context_settings)
            yield from _commands(sub, sub_ctx)


def cli_markdown(command: click.Command, prog: str) -> str:
    """The reference of ``command`` (run as ``prog``): a heading and the help of each command."""
    # as click makes a command's context when it runs (its context_settings: the help
    # option's names, say), at a fixed width
    settings = {**command.context_settings, "terminal_width": WIDTH, "max_content_width": WIDTH}
    root = click.Context(command, info_name=prog, **settings)
    out = [
        "# CLI reference",
        "",
        f"Generated from the `{prog}` command itself: each section is what"
        f" `{prog} … --help` prints.",
        "",
    ]
    for cmd, ctx in _commands(command, root):
        out += [f"## `{ctx.command_path}`", "", "```text", cmd.get_help(ctx).rstrip(), "```", ""]
    return "\n".join(out)
