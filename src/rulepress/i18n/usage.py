"""Which catalog messages the outputs look up, and which of those have no translation.

``with recording() as usage:`` around any rendering (site pages, print files,
score reports) records every lookup that :func:`rulepress.i18n.runtime.localize`
makes: each spec message as the spec is translated, each interface sentence as
a writer asks for it. Set against the catalogs, the record shows the two ways
translation counts can lie: a message an output uses that has no translation
(the reader sees English), and a catalog message no output uses (a translator
works on it for nothing, and ``i18n stats`` counts it).

Recording is off unless a caller turns it on; a lookup then costs one
context-variable read.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field


@dataclass
class Usage:
    """Lookups per (language, domain): the msgids used, and those found untranslated."""

    used: dict[tuple[str, str], set[str]] = field(default_factory=dict)
    missing: dict[tuple[str, str], set[str]] = field(default_factory=dict)

    def record(self, lang: str, domain: str, msgid: str, *, translated: bool) -> None:
        self.used.setdefault((lang, domain), set()).add(msgid)
        if not translated:
            self.missing.setdefault((lang, domain), set()).add(msgid)


_CURRENT: ContextVar[Usage | None] = ContextVar("rulepress_catalog_usage", default=None)


@contextmanager
def recording() -> Iterator[Usage]:
    """Record the lookups made inside the block (nested blocks record separately)."""
    usage = Usage()
    token = _CURRENT.set(usage)
    try:
        yield usage
    finally:
        _CURRENT.reset(token)


def recording_now() -> bool:
    """Whether a recording is in progress (a process working for this one records too)."""
    return _CURRENT.get() is not None


def merge(other: Usage) -> None:
    """Add the lookups another process recorded to the recording in progress, if any."""
    usage = _CURRENT.get()
    if usage is None:
        return
    for record, found in ((usage.used, other.used), (usage.missing, other.missing)):
        for key, msgids in found.items():
            record.setdefault(key, set()).update(msgids)


def looked_up(lang: str, domain: str, msgid: str, *, translated: bool) -> None:
    """Report one lookup to the recording in progress, if any."""
    usage = _CURRENT.get()
    if usage is not None:
        usage.record(lang, domain, msgid, translated=translated)
