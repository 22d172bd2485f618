"""Reference pages generated from the code itself: the CLI and the spec's JSON Schema.

These are MyST pages of the English guides. Their text is rulepress's own
(click's help texts, the JSON Schema of the spec model), never a spec's or a
catalog's, so writing them as MyST is safe; game pages are document trees.
"""

from __future__ import annotations

import json
from typing import Any

import click

from rulepress.cli import cli
from rulepress.games import spec_schema

#: what MyST could read as markup in the CLI's help texts (ours, not a spec's or a catalog's)
_SPECIAL = frozenset("\\`*_{}[]<>#!|~$:&=^+")


def escape(text: str) -> str:
    """Our own help text as MyST that shows exactly that text."""
    return "".join("\\" + c if c in _SPECIAL else c for c in text)


def _commands(group: click.Group, prefix: str) -> list[tuple[str, click.Command]]:
    out: list[tuple[str, click.Command]] = []
    ctx = click.Context(group)
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        if command is None:
            continue
        full = f"{prefix} {name}"
        out.append((full, command))
        if isinstance(command, click.Group):
            out.extend(_commands(command, full))
    return out


def cli_reference() -> str:
    """Every command's usage, description and options, as the CLI itself defines them."""
    lines = ["# CLI reference", "", "Generated from the `rulepress` command itself.", ""]
    for full, command in _commands(cli, "rulepress"):
        ctx = click.Context(command, info_name=full)
        lines += [f"## `{full}`", "", "```text", command.get_usage(ctx), "```", ""]
        if command.help:
            lines += [escape(" ".join(command.help.split())), ""]
        rows = []
        for param in command.get_params(ctx):
            record = param.get_help_record(ctx)
            if record:
                rows.append(f"| `{record[0]}` | {escape(' '.join(record[1].split()))} |")
        if rows:
            lines += ["| option | meaning |", "| --- | --- |", *rows, ""]
    return "\n".join(lines)


def schema_page() -> str:
    """The JSON Schema of spec files, for editors."""
    schema: dict[str, Any] = spec_schema()
    return "\n".join(
        [
            "# Spec file schema",
            "",
            "`rulepress schema` prints this JSON Schema; point your editor's YAML support at it",
            "to validate and complete files in `rules_spec/`.",
            "",
            "```json",
            json.dumps(schema, indent=2, ensure_ascii=False),
            "```",
            "",
        ]
    )
