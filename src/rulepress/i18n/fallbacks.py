"""What a build showed in English instead of a translation, as data the gate reads.

The translation of a spec and the interface's lookups (see
:mod:`rulepress.i18n.runtime`) fall back to English for a message whose
catalog entry is missing, empty or fuzzy. A reader would meet that English
unannounced, so every build notes each such message as a :class:`Fallback`
(its domain, context, English and the ``.po`` line of its entry, or the
catalog it belongs in when it has none) and writes them, per language, into a
:class:`FallbackRecord`: one JSON file *beside* its output folder
(``build/site`` → ``build/site-fallbacks.json``), so that it is never served
as a page, and written after the output is swapped in, so that it always
describes the output beside it. ``rulepress gate`` reads it back.

A language may be published as a *preview* (see :class:`~rulepress.model.spec_model.Translation`):
its record says so, and the gate lists its fallbacks as warnings instead of
failing on them.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Literal, get_args

from rulepress.errors import Location

#: why a message fell back: its entry is absent or empty, marked fuzzy, or its
#: translation is its English with only invisible characters added (rulepress.i18n.visible)
Reason = Literal["untranslated", "fuzzy", "disguised"]
#: the record's format, written into it: a gate refuses a record of another
RECORD_VERSION = 1
#: how many contexts the build's warning line names
FIRST_FEW = 3


@dataclass(frozen=True, order=True)
class Fallback:
    """One message shown in English in a translated output."""

    #: the game whose pages or PDFs show it ("": the pages every game shares)
    game: str
    domain: str
    context: str
    msgid: str
    reason: Reason
    #: the catalog holding the entry (or the one it belongs in) and the entry's line (0: none)
    file: str
    line: int = 0

    @property
    def location(self) -> Location:
        return Location(self.file, self.line, 1 if self.line else 0)

    def describe(self) -> str:
        """One finding: ``fuzzy, shown in English: 'English …'`` (the context goes in ``where``)."""
        what = {
            "fuzzy": "fuzzy, shown in English",
            "untranslated": "not translated, shown in English",
            "disguised": "its translation is the English with invisible characters in it",
        }[self.reason]
        english = " ".join(self.msgid.split())
        if len(english) > 60:
            english = english[:59] + "…"
        return f"{what}: {english!r}"


@dataclass(frozen=True)
class GameRecord:
    """One game in one language: how complete its catalogs are, and whether it is a preview."""

    #: the share of its catalogs' messages that are translated (percent; 100 for English)
    completeness: float = 100.0
    preview: bool = False


@dataclass
class LanguageRecord:
    """One language of a build: its games, and what fell back."""

    games: dict[str, GameRecord] = field(default_factory=dict)
    fallbacks: list[Fallback] = field(default_factory=list)

    def add(self, found: Iterable[Fallback]) -> None:
        self.fallbacks = sorted(set(self.fallbacks) | set(found))

    @property
    def preview(self) -> bool:
        """Whether every game of the language is a preview (so is its start page, then)."""
        return bool(self.games) and all(g.preview for g in self.games.values())

    def shows_preview(self, parts: tuple[str, ...]) -> bool:
        """Whether a page or file at ``parts`` (under the language's folder) is a preview's.

        A game's own folder follows its game; the language's shared pages (its start
        page, search) are a preview's when every game in the language is one.
        """
        game = self.games.get(parts[0]) if len(parts) > 1 else None
        return game.preview if game is not None else self.preview

    def in_preview(self, found: Fallback) -> bool:
        """Whether ``found`` is shown on a preview (reported, but no reason to stop)."""
        game = self.games.get(found.game)
        return game.preview if game is not None else self.preview


@dataclass
class FallbackRecord:
    """Every language of one build (site or print) and what it showed in English."""

    languages: dict[str, LanguageRecord] = field(default_factory=dict)

    def language(self, lang: str) -> LanguageRecord:
        return self.languages.setdefault(lang, LanguageRecord())

    def to_json(self) -> str:
        data = {
            "version": RECORD_VERSION,
            "languages": {lang: asdict(rec) for lang, rec in sorted(self.languages.items())},
        }
        return json.dumps(data, ensure_ascii=False, indent=1) + "\n"

    @classmethod
    def from_json(cls, text: str) -> FallbackRecord:
        """The record written by :meth:`to_json`; ValueError for anything else."""
        data = json.loads(text)
        if not isinstance(data, dict) or data.get("version") != RECORD_VERSION:
            raise ValueError(f"not a fallback record of version {RECORD_VERSION}")
        out = cls()
        try:
            for lang, rec in data["languages"].items():
                games = {
                    str(g): GameRecord(float(v["completeness"]), bool(v["preview"]))
                    for g, v in rec["games"].items()
                }
                fallbacks = [Fallback(**item) for item in rec["fallbacks"]]
                if any(f.reason not in get_args(Reason) for f in fallbacks):
                    raise TypeError("an unknown reason")
                out.languages[str(lang)] = LanguageRecord(games, fallbacks)
        except (KeyError, TypeError, AttributeError) as exc:
            raise ValueError(f"a fallback record with a wrong shape ({exc})") from None
        return out

    def warnings(self, output: str) -> list[str]:
        """One line per language that showed English: the count and the first few contexts."""
        lines = []
        for lang, rec in sorted(self.languages.items()):
            if not rec.fallbacks:
                continue
            contexts = list(dict.fromkeys(f.context or f.msgid for f in rec.fallbacks))
            named = ", ".join(contexts[:FIRST_FEW]) + (", …" if len(contexts) > FIRST_FEW else "")
            preview = " (a preview)" if all(rec.in_preview(f) for f in rec.fallbacks) else ""
            lines.append(
                f"{output} ({lang}){preview}: {len(rec.fallbacks)} message(s) shown in"
                f" English: {named}"
            )
        return lines


def record_path(out: Path) -> Path:
    """Where the record of the build written into ``out`` is kept: beside it, never inside."""
    return out.with_name(f"{out.name}-fallbacks.json")


def write_record(out: Path, record: FallbackRecord, built: Collection[str] = ()) -> Path:
    """Write ``record`` beside ``out``, keeping the earlier record's other languages.

    A build of some languages (``built``) leaves the others' files in ``out`` as
    they were, so their entries of the earlier record still describe them.
    """
    path = record_path(out)
    try:
        earlier = FallbackRecord.from_json(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        earlier = FallbackRecord()  # none, or unreadable: the gate names what is unrecorded
    for lang, rec in earlier.languages.items():
        if lang not in built and lang not in record.languages and (out / lang).is_dir():
            record.languages[lang] = rec
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(record.to_json(), encoding="utf-8")
    return path
