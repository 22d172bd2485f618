"""Reference pages generated from the code itself: the CLI and the spec's JSON Schema.

These are MyST pages of the English guides. Their text is rulepress's own
(click's help texts, through sphinx-click's ``click`` directive; the JSON Schema
of the spec model), never a spec's or a catalog's, so writing them as MyST is
safe; game pages are document trees.
"""

from __future__ import annotations

import json
from typing import Any

from rulepress.games import spec_schema

#: the command whose reference sphinx-click documents, by name: the site extension never
#: imports the CLI (the CLI imports the site extension, GUIDE.md's layers)
CLI_OBJECT = "rulepress.cli:cli"


def cli_reference() -> str:
    """Every command's usage, description and options, as the CLI itself defines them.

    sphinx-click reads the click commands when Sphinx builds the page.
    """
    return "\n".join(
        [
            "# CLI reference",
            "",
            "Generated from the `rulepress` command itself.",
            "",
            # reStructuredText: sphinx-click writes reST (MyST would read it as Markdown)
            "```{eval-rst}",
            f".. click:: {CLI_OBJECT}",
            "   :prog: rulepress",
            "   :nested: full",
            "```",
            "",
        ]
    )


def schema_json() -> str:
    """The JSON Schema of spec files, as ``rulepress schema`` prints it (and the page's download)."""
    schema: dict[str, Any] = spec_schema()
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def schema_page() -> str:
    """The JSON Schema of spec files, for editors."""
    return "\n".join(
        [
            "# Spec file schema",
            "",
            "`rulepress schema` prints this JSON Schema ([spec.schema.json](spec.schema.json));"
            " point your editor's YAML support at it",
            "to validate and complete files in `rules_spec/`.",
            "",
            "```json",
            schema_json().rstrip(),
            "```",
            "",
        ]
    )
