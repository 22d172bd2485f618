"""Translators' own PO readers and writers, run on a catalog as their tools would.

GNU gettext (msgfmt, msgcat, msgmerge) is what Poedit and Lokalize build on,
polib what many scripts use, and translate-toolkit's PO storage what Weblate
reads and writes with. A catalog is valid for translators when all of them
read it with no error and no warning.
"""

from __future__ import annotations

import contextlib
import io
import subprocess
import warnings
from pathlib import Path

import polib
from translate.storage import po


def _gettext(*args: str) -> list[str]:
    proc = subprocess.run(list(args), capture_output=True, text=True, check=False)
    if proc.returncode != 0 or proc.stderr.strip():
        return [f"{args[0]} exited {proc.returncode}: {proc.stderr.strip()}"]
    return []


def _quietly(name: str, read: object) -> list[str]:
    """Run ``read`` (a callable) and report what it raised, warned or printed."""
    err = io.StringIO()
    try:
        with warnings.catch_warnings(record=True) as caught, contextlib.redirect_stderr(err):
            warnings.simplefilter("always")
            read()  # type: ignore[operator]
    except Exception as exc:  # any failure of a reader is the finding
        return [f"{name} raised {type(exc).__name__}: {exc}"]
    found = [f"{name} warned: {w.message}" for w in caught]
    if err.getvalue().strip():
        found.append(f"{name} printed: {err.getvalue().strip()}")
    return found


def units(store: po.pofile) -> list[tuple[object, ...]]:
    """What translate-toolkit reads of every entry: context, source, target, state, previous."""
    return [
        (
            u.getcontext(),
            tuple(u.source.strings) if u.hasplural() else u.source,
            tuple(u.target.strings) if u.hasplural() else u.target,
            u.isfuzzy(),
            u.isobsolete(),
            u.prev_source,
            tuple(u.getnotes("translator").split("\n")),
        )
        for u in store.units
        if not u.isheader()
    ]


def _toolkit_round_trip(path: Path) -> None:
    store = po.pofile.parsefile(str(path))
    again = po.pofile.parsestring(bytes(store))
    if units(again) != units(store):
        raise AssertionError("reads differently once saved")
    if not units(store):
        raise AssertionError("no entries read")


def tool_problems(path: Path, template: Path | None = None) -> list[str]:
    """Every error or warning any translators' tool gives on ``path`` (a .po, or a .pot).

    msgfmt checks headers with ``-c`` on catalogs only: a template's header
    holds gettext's placeholders by design (xgettext's own templates warn alike).
    """
    name = str(path)
    checks = ["--check-format", "--check-domain"]
    if path.suffix == ".po":
        checks.append("--check-header")
    found = _gettext("msgfmt", *checks, "-o", "/dev/null", name)
    found += _gettext("msgcat", "-o", "/dev/null", name)
    if template is not None:
        found += _gettext("msgmerge", "--quiet", "-o", "/dev/null", name, str(template))
    found += _quietly("polib", lambda: polib.pofile(name))
    found += _quietly("translate-toolkit", lambda: _toolkit_round_trip(path))
    return [f"{name}: {p}" for p in found]
