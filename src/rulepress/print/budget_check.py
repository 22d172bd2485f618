"""Where each message is met, as template comments; and the check of translations against their budgets.

spec → places (:mod:`rulepress.render.places`) + budgets
(:mod:`rulepress.print.budgets`) → ``#.`` lines for the game's template, and
translations (a ``.po`` file) → findings located ``file.po:line: msgctxt: …``
for ``rulepress i18n check``. Nothing here lays anything out: the check runs
before any PDF is built, in a fraction of a second per catalog.

The comment lines, one per place::

    #. site: brink/sequences.html#step-end-of-game-2
    #. print: reference-a5.pdf, front
    #. budget: 4 lines of 63 mm at 8.5 pt (21 em)
    #. print: cards-poker.pdf, card 'end-of-game step 2'
    #. budget: 14 lines of 55 mm at 8.5 pt (18 em)

(a budget line is the budget at the place above it; ``em``: the width in the
type's size, about two Latin letters or one Japanese character each).
A text shown in many places (a term's words in every link to it) lists its
first few places in each file and then how many more; one shown nowhere says so.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog

from rulepress.errors import UsageError
from rulepress.games.messages import translate_data
from rulepress.i18n.catalogs import CatalogError
from rulepress.i18n.qa import Finding
from rulepress.i18n.runtime import LocaleNumbers
from rulepress.i18n.safety import read_spec_catalog
from rulepress.i18n.spec_loads import loaded_spec
from rulepress.model import LoadedSpec, Spec
from rulepress.model.text import PlainContext, to_plain
from rulepress.print.budgets import Budget, budgets, used_lines
from rulepress.print.measure import FontError
from rulepress.render.places import Place, mark
from rulepress.render.places_cache import cached_places
from rulepress.scoring.notes import plain_context
from rulepress.yamlsrc import GAME_FILE

#: places listed per file before "and N more"
SHOWN_PER_FILE = 3
#: the comment on a message no page or print file shows
NOWHERE = "where: no page or print file shows it"


@dataclass(frozen=True)
class Where:
    """A game's messages' places and budgets, by msgctxt, and the English of each."""

    places: dict[str, list[Place]]
    budgets: dict[str, list[Budget]]
    english: dict[str, str]


def where(loaded: LoadedSpec) -> Where:
    """Every message's places and budgets (a missing print font is a usage error)."""
    marked = mark(loaded)
    places = cached_places(loaded, marked)
    plain = plain_context(loaded.spec)
    english = {c: to_plain(text, plain) for c, text in marked.texts.items()}
    try:
        found = budgets(loaded.spec, places, english)
    except FontError as exc:
        raise UsageError(f"cannot measure the print budgets: {exc}") from None
    return Where(places, found, english)


def comments(context: str, found: Where) -> list[str]:
    """The ``#.`` lines that say where a message is met (and its budget there)."""
    places = found.places.get(context)
    if not places:
        return [NOWHERE]
    budget_at = {str(b.place): b for b in found.budgets.get(context, [])}
    out: list[str] = []
    per_file: dict[str, int] = {}
    for place in places:
        line = str(place)
        if line in out:
            continue
        per_file[place.file] = per_file.get(place.file, 0) + 1
        if per_file[place.file] > SHOWN_PER_FILE:
            continue
        out.append(line)
        budget = budget_at.get(line)
        if budget is not None:
            # a line of its own, under its place: Babel wraps comments at 76 columns
            out.append(str(budget))
    for file, count in per_file.items():
        if count > SHOWN_PER_FILE:
            medium = "site" if file.endswith(".html") else "print"
            out.append(f"{medium}: {file}, and {count - SHOWN_PER_FILE} more places")
    return out


def add_comments(catalog: Catalog, found: Where) -> None:
    """Each message's places after its other extracted comments."""
    for message in catalog:
        if message.id and message.context is not None:
            message.auto_comments = [*message.auto_comments, *comments(message.context, found)]


def add_places(catalog: Catalog, game_dir: Path) -> None:
    """Where readers meet each message of ``game_dir``'s template (i18n.extract's ``places``)."""
    add_comments(catalog, where(loaded_spec(game_dir)))


def _translated(
    loaded: LoadedSpec, catalog: Catalog, lang: str
) -> tuple[dict[str, str], PlainContext]:
    """Every message's usable translation (its English if none), and the translated spec's references."""
    texts: dict[str, str] = {}

    def lookup(context: str, text: str) -> str | None:
        message = catalog.get(text, context)
        string = message.string if message is not None and not message.fuzzy else None
        texts[context] = string if isinstance(string, str) and string else text
        return texts[context]

    data = translate_data(loaded.spec.model_dump(), lookup)
    try:
        plain = plain_context(Spec.model_validate(data))
    except ValueError:  # a catalog the safety checks refuse: its references stay English
        plain = plain_context(loaded.spec)
    numbers = LocaleNumbers(lang) if lang != "en" else None
    return texts, PlainContext(
        plain.params, plain.terms, plain.rulings, numbers, plain.plural, plain.names
    )


def check_budgets(loaded: LoadedSpec, path: Path, lang: str, found: Where) -> list[Finding]:
    """Every translation in ``path`` that takes more lines than its budget allows.

    Over a card's budget is an error. The reference card's texts share its
    faces, so one over its budget is reported (a warning) only when its face's
    texts together take more height than their budgets add up to.
    """
    # as spec markup: a plural or ICU entry turned back into the text the writers set
    catalog = read_spec_catalog(path, lang)
    texts, plain = _translated(loaded, catalog, lang)
    shown = {c: to_plain(text, plain) for c, text in texts.items()}
    lines_of = {m.context: m.lineno for m in catalog if m.id and m.context is not None}
    measured: list[tuple[str, int, Budget, int]] = []
    seen: set[tuple[str, int]] = set()
    for context, lineno in lines_of.items():
        for budget in found.budgets.get(context, []):
            key = (str(budget.place), budget.place.block)
            if key in seen:
                continue
            seen.add(key)
            try:
                used = used_lines(budget, shown)
            except FontError as exc:
                raise UsageError(f"cannot measure the print budgets: {exc}") from None
            measured.append((context, lineno or 0, budget, used))
    # how much taller than their budgets each shared face's texts are, in mm
    excess: dict[str, float] = {}
    for _, _, budget, used in measured:
        if not budget.hard:
            face = str(budget.place)
            excess[face] = excess.get(face, 0.0) + (used - budget.lines) * budget.box.line_mm()
    findings: list[Finding] = []
    for context, lineno, budget, used in measured:
        if used <= budget.lines:
            continue
        where_ = str(budget.place).removeprefix("print: ")
        together = [c for c in budget.contexts if c != context]
        also = f" (with {', '.join(together)})" if together else ""
        if budget.hard:
            message = f"too long for {where_}: it takes {used} lines{also}, {budget}"
        elif excess[str(budget.place)] > 0:
            message = (
                f"may not fit for {where_}: it takes {used} lines{also}, {budget}; the face's"
                f" texts take {excess[str(budget.place)]:.1f} mm more than their budgets"
            )
        else:
            continue  # the others on its face leave it the room
        findings.append(Finding(str(path), lineno, context, message, error=budget.hard))
    return findings


class Budgets:
    """``i18n check``'s view: each game's places and budgets, worked out once per run."""

    def __init__(self, spec_root: Path) -> None:
        self.spec_root = spec_root
        self._games: dict[str, tuple[LoadedSpec, Where] | None] = {}

    def _game(self, domain: str) -> tuple[LoadedSpec, Where] | None:
        if domain not in self._games:
            directory = self.spec_root / domain
            if not (directory / GAME_FILE).is_file():
                self._games[domain] = None  # rulepress's own domains: no print budgets
            else:
                loaded = loaded_spec(directory)
                self._games[domain] = (loaded, where(loaded))
        return self._games[domain]

    def check(self, domain: str, path: Path, lang: str) -> list[Finding]:
        """The translations of ``path`` (a catalog of ``domain``) that exceed their budgets."""
        game = self._game(domain)
        if game is None:
            return []
        try:
            return check_budgets(*game[:1], path, lang, game[1])
        except CatalogError:
            return []  # a catalog that cannot be read: check_file has said why, located
