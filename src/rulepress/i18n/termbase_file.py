"""A new language's termbase: the file a translator fills in, one entry per glossary term.

Adding a language to ``game.languages`` and running ``rulepress i18n update``
writes the game's empty catalogs and, beside the spec, ``termbase.<lang>.yaml``
(see :func:`skeleton`). The file loads as it is, an empty termbase for that
language, so the spec stays valid; every glossary term waits in it as a
commented entry with its English name and definition, ready to be uncommented
and given its approved rendering. ``i18n check`` counts the terms still
missing, as it does for any termbase.

The glossary is the spec's, so it is untrusted text: each commented line is
written by the YAML emitter and then prefixed with ``#``, line by line, so no
term or definition can end a comment and become data.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from rulepress.errors import RulepressError
from rulepress.games import load_spec
from rulepress.i18n.runtime import english_name


def termbase_path(game_dir: Path, lang: str) -> Path:
    """Where a game keeps its termbase in ``lang`` (``termbase.cs.yaml``)."""
    return game_dir / f"termbase.{lang}.yaml"


def _commented(data: Any) -> list[str]:
    # the emitter quotes whatever needs it; the prefix keeps every line a comment
    text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=88)
    return ["    # " + line if line else "    #" for line in text.splitlines()]


def _one_line(text: str, limit: int = 160) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


def skeleton(game_dir: Path, lang: str) -> bytes:
    """The text of ``game_dir``'s empty termbase in ``lang``, with every glossary term to fill in."""
    name = english_name(lang)
    try:
        spec = load_spec(game_dir).spec
    except RulepressError as exc:
        # the catalogs are still made; `validate` reports the spec, and the terms wait
        lines = [
            f"# The {name} termbase of the game in {game_dir.name}/ (see docs/translators.md).",
            f"# Its glossary could not be read ({exc.summary}): once `rulepress validate`",
            "# passes, add an entry per glossary term under the language below.",
            "termbase:",
            f"  {lang}:",
            "    vocabulary: {}",
            "",
        ]
        return "\n".join(lines).encode("utf-8")
    lines = [
        f"# The {name} termbase of {spec.game.title}: the approved {name} rendering of each",
        "# glossary term, which translator QA (`rulepress i18n check`) holds the catalogs to.",
        "#",
        "# Written by `rulepress i18n update` when the language was added to game.languages.",
        "# For each term you settle, uncomment its entry (the lines under its id), put the",
        "# rendering in `term` and, for a language that inflects, every form a sentence may",
        "# use in `forms`. Entries left commented are reported as missing by `i18n check`.",
        "# `vocabulary` lists recurring words outside the glossary (see docs/translators.md).",
        "termbase:",
        f"  {lang}:",
    ]
    for term in spec.glossary:
        entry = {
            term.id: {
                "term": "",
                "forms": [],
            }
        }
        lines.append("")
        lines += _commented({"English": term.term, "definition": _one_line(term.definition)})
        lines += _commented(entry)
    lines += ["", "    vocabulary: {}", ""]
    return "\n".join(lines).encode("utf-8")
