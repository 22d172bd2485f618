"""``rulepress new GAME``: a minimal, valid game spec to start from.

The scaffold is written to teach by example: every file is short, shows one
part of the spec format and says in comments what that part is for, and the
whole game validates, scores its worked example and builds as it is. A
designer then changes it into their own game one part at a time, running
``rulepress validate`` after each change.

The files are Python strings here rather than package data: there are only a
few, they need one substitution each (the game's id, title and languages), and
a string in a module cannot go missing from a wheel.

Writing is all-or-nothing: the folder is filled beside its final place (a
hidden sibling in the specs' folder, on the same file system), loaded and
checked there, and renamed into place only when it is complete. An existing
game folder is never touched.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import tempfile
import unicodedata
from collections.abc import Iterable, Iterator
from pathlib import Path
from string import Template

from rulepress.errors import Location, OutputError, Problem, SpecError, UsageError
from rulepress.games.load import load_spec
from rulepress.model.languages import SOURCE_LANGUAGE, language_code
from rulepress.model.spec_model import ID_RE
from rulepress.yamlsrc import display_path

GAME_YAML = """\
# $title: the game itself. Every .yaml file in this folder is read by
# `rulepress validate`; each file holds one or more top-level sections (game,
# rules, sequences, ...), and a list section may be split over several files.
game:
  # the game's id: the folder's name, the catalogs' name, `rulepress score $game`
  id: $game
  title: $title_yaml
  edition: First draft
  # the spec's own version: change it when you publish a new one
  version: "0.1"
  players: 2–4
  # the document the rules below are taken from (here: your own draft)
  source:
    language: en
    document: the designer's draft rules
  # the languages the game is published in: English (the spec's own) first; add a
  # language here, then run `rulepress i18n update` to make its catalog
  languages: $languages
  # below this share of its messages translated (percent), a language is published only
  # as a preview: its pages say so and stay out of search engines, no PDFs are printed
  # in it, and the publication gate lists its English without failing
  translation: {complete_at: 90}
  summary: >-
    Collect Stars during play. At the end, every Star and a completed Goal card
    score points, and the player with the most points wins.

# the procedure `rulepress score $game STATE.yaml` runs (see sequence.yaml)
scorer:
  sequence: $game-scoring

# what `rulepress build print` makes: a reference card of the scoring sequence,
# a deck of step cards (one step per card) and the rulebook, in these formats
publishing:
  reference_card: {sequences: [$game-scoring], format: a5}
  step_cards: {sequences: [$game-scoring], format: poker}
  rulebook_format: a4
"""

PARAMETERS_YAML = """\
# Every number a reader sees is a parameter: the rules show it with
# {param:name}, the scorer reads it as param.name. Change a value here and the
# pages, the scorer and the checked examples all follow. Each one names the rule
# that sets it.
parameters:
  max_players:
    value: 4
    description: The most players a game can have.
    rule: "1"
  stars_in_game:
    value: 30
    description: How many Stars the game holds.
    rule: "1.1"
  points_per_star:
    value: 2
    description: Points for each Star a player holds at the end.
    rule: "1.1"
  goal_bonus:
    value: 3
    description: Points for a completed Goal card.
    rule: "1.1"
  hand_size:
    value: 5
    description: The most cards a player holds in hand.
    rule: "1.2"
"""

RULES_YAML = """\
# The rules as readers see them: a numbered tree, where a child extends its
# parent's number by one part ("1" -> "1.1"). The numbers are permanent: every
# language shows the same ones, and the scorer cites them on every line.
#
# Prose is English with a little markup that survives translation:
#   {param:name}          a number from the parameters (never digits in prose)
#   [words](term:id)      a link to a glossary term (glossary.yaml)
#   {rule:1.2}            a reference to another rule
rules:
  - number: "1"
    title: End of the Game
    text: |
      The game ends after the last round. Up to {param:max_players} players then
      score their points and find the winner.
    rules:
      - number: "1.1"
        title: Scoring
        text: |
          Each [Star](term:star) you hold scores {param:points_per_star}. If you
          completed your Goal card, score {param:goal_bonus} more.
      - number: "1.2"
        title: Winner
        text: |
          Add up each player's points from {rule:1.1}. The player with the most
          points wins. If players are tied, the one with the fewest cards in hand
          wins; players still tied share the win.
"""

GLOSSARY_YAML = """\
# The game's words, defined once. Rules link to them with [words](term:id); the
# site shows a glossary with links both ways, and translators get each term
# with its definition.
glossary:
  - id: star
    term: Star
    definition: A token players collect during play; each one scores points at the end.
    rules: ["1.1"]
"""

STATE_YAML = """\
# The table state: what a player writes down at the end of a game for the scorer.
# Each field has a type (int, bool, choice, text, player, list, record), bounds
# and a description; `rulepress score` refuses a state that does not fit, with one
# located line per problem, and `rulepress state-template $game` prints a starter
# state with every field explained.
table_states:
  $game-table:
    description: Each player's Stars, Goal card and the cards left in hand.
    players:
      min: 1
      max: param:max_players
      fields:
        stars:
          title: Stars
          type: int
          min: 0
          max: param:stars_in_game
          description: The Stars the player holds at the end.
        goal_completed:
          title: Goal completed
          type: bool
          default: false
          description: The player completed their Goal card.
        cards_in_hand:
          title: Cards in hand
          type: int
          min: 0
          max: param:hand_size
          description: The cards left in the player's hand (for ties).
"""

SEQUENCE_YAML = """\
# A sequence is a procedure: ordered steps, each citing the rules it carries out.
# The scorer runs the steps in order on a table state; the site shows them as a
# step-by-step guide. A step can `score` a line for every player or decide the
# `winners`. Expressions (when, value, key, ...) are a small safe subset of
# Python: a player's fields by name (stars), parameters as param.name.
sequences:
  - id: $game-scoring
    title: Scoring
    text: Score every player, then find the winner.
    rules: ["1"]
    # the table-state format this sequence reads (state.yaml)
    state: $game-table
    # the players' lines add up to a total, shown under this label
    total_label: Total
    steps:
      - number: "1"
        title: Stars and Goal
        text: >-
          {param:points_per_star} for each Star, and {param:goal_bonus} for a
          completed Goal card.
        rules: ["1.1"]
        score:
          # the line's id: worked examples state what it comes to (star_points: 9)
          id: star_points
          title: Stars and Goal
          component:
            # sum: every part whose `when` holds adds its `value`, with its note
            op: sum
            parts:
              - when: stars > 0
                value: stars * param.points_per_star
                # the note readers see; numbers are arguments, with their two
                # English forms, so that every language says them right
                note: "{count|# Star|# Stars}"
                args: {count: stars}
              - when: goal_completed
                value: param.goal_bonus
                note: Goal card completed
      - number: "2"
        title: Winner
        text: >-
          The most points wins. Ties: the fewest cards in hand, then the tied
          players share the win.
        rules: ["1.2"]
        winners:
          # who may win at all (every player here), and why not when they may not
          eligible:
            test: "True"
            fails: every player can win
          count: 1
          # the tie-break chain: the first criterion that separates the players
          # decides, and the score report says which one did
          criteria:
            - id: most-points
              key: total
              order: highest
              label: Most points
            - id: fewest-cards
              key: cards_in_hand
              order: lowest
              label: Fewest cards in hand
          final_tie: share
          final_tie_note: Players still tied share the win.
"""

EXAMPLES_YAML = """\
# Worked examples: a table state and the results the text states, worked out by
# hand from the rules. `rulepress validate` scores each one and fails if the
# scorer disagrees; the site shows them under their rules and runs them as
# doctests; `rulepress score $game --example ID` prints the report.
examples:
  - id: fewest-cards-break-a-tie
    title: A tie broken by the cards in hand
    rules: ["1.1", "1.2"]
    text: |
      Ada holds three Stars and completed her Goal card. Ben holds three Stars
      and completed his Goal card too, so both score the same ({rule:1.1}). Ada
      has fewer cards left in hand, so she wins the tie ({rule:1.2}). Cleo holds
      four [Stars](term:star) but no Goal card.
    state:
      players:
        - {id: Ada, stars: 3, goal_completed: true, cards_in_hand: 1}
        - {id: Ben, stars: 3, goal_completed: true, cards_in_hand: 2}
        - {id: Cleo, stars: 4, cards_in_hand: 0}
    expect:
      players:
        Ada: {total: 9, star_points: 9}
        Ben: {total: 9}
        Cleo: {total: 8}
      winners: [Ada]
      decided_by: fewest-cards
"""

#: the files of a new game, by name (in the order a reader should open them)
FILES = {
    "game.yaml": GAME_YAML,
    "parameters.yaml": PARAMETERS_YAML,
    "rules.yaml": RULES_YAML,
    "glossary.yaml": GLOSSARY_YAML,
    "state.yaml": STATE_YAML,
    "sequence.yaml": SEQUENCE_YAML,
    "examples.yaml": EXAMPLES_YAML,
}


def check_game_id(game: str) -> str:
    """``game`` if it is a valid spec id (the folder's and the catalogs' name); else UsageError."""
    if not ID_RE.match(game):
        raise UsageError(
            f"{game!r} is not a valid game id: lower-case letters and digits, words"
            " joined by '-', starting with a letter (e.g. 'star-hunt')"
        )
    return game


def default_title(game: str) -> str:
    """A title from the id: ``star-hunt`` becomes ``Star Hunt``."""
    return " ".join(word.capitalize() for word in game.split("-"))


def _check_title(title: str) -> str:
    title = title.strip()
    # the loader would refuse these too, but located in a folder the user never sees
    if not title or any(unicodedata.category(c).startswith("C") for c in title):
        raise UsageError(f"--title {title!r}: give a title of one line, with no control characters")
    return title


def languages_of(extra: Iterable[str]) -> list[str]:
    """The game's languages: English (the spec's own) first, then ``extra`` once each.

    A code Babel does not know is a usage error here, before anything is written.
    """
    out = [SOURCE_LANGUAGE]
    for lang in extra:
        try:
            language_code(lang)
        except ValueError as exc:
            raise UsageError(f"--lang {lang}: {exc}") from None
        if lang not in out:
            out.append(lang)
    return out


def scaffold_files(game: str, title: str, languages: Iterable[str]) -> dict[str, str]:
    """The text of every file of a new game ``game`` (by file name)."""
    values = {
        "game": check_game_id(game),
        "title": title,
        # a JSON string is a YAML double-quoted scalar: any title stays one safe value
        "title_yaml": json.dumps(title, ensure_ascii=False),
        "languages": json.dumps(list(languages), ensure_ascii=False),
    }
    # Template, not str.format: the spec's own markup uses braces
    return {name: Template(text).substitute(values) for name, text in FILES.items()}


def _relocated(problems: Iterable[Problem], staged: Path, folder: Path) -> list[Problem]:
    """Problems found in the staging folder, named in the folder the user asked for."""
    was, now = display_path(staged), display_path(folder)
    out = []
    for problem in problems:
        loc = problem.location
        file = now + loc.file[len(was) :] if loc.file.startswith(was) else loc.file
        out.append(Problem(Location(file, loc.line, loc.column), problem.where, problem.message))
    return out


@contextlib.contextmanager
def new_game(
    spec_root: Path, game: str, title: str | None = None, languages: Iterable[str] = ()
) -> Iterator[Path]:
    """Write a new game's folder under ``spec_root``, all or nothing; yields the folder.

    The files are written into a staging folder beside it and loaded there (a
    title or language the spec refuses is reported, located in the final
    folder), then renamed into place. The block can make more from the game
    (its catalogs): if it fails, the new folder is removed again. An existing
    folder is refused (:class:`~rulepress.errors.OutputError`), never changed.
    """
    check_game_id(game)
    title = _check_title(default_title(game) if title is None else title)
    folder = spec_root / game
    if folder.exists() or folder.is_symlink():
        raise OutputError(
            f"{display_path(folder)}: a game folder is already there; rulepress new never"
            " overwrites one (choose another id, or move that folder away)"
        )
    files = scaffold_files(game, title, languages_of(languages))
    try:
        spec_root.mkdir(parents=True, exist_ok=True)
        # a hidden sibling on the same file system, so that the rename below is atomic
        staged = Path(tempfile.mkdtemp(prefix=f".{game}.new-", dir=spec_root))
    except OSError as exc:
        raise OutputError(f"{display_path(spec_root)}: {exc.strerror or exc}") from None
    try:
        try:
            for name, text in files.items():
                (staged / name).write_text(text, encoding="utf-8")
            os.chmod(staged, 0o777 & ~_umask())  # mkdtemp makes it private
        except OSError as exc:
            raise OutputError(
                f"{display_path(folder)}: {exc.strerror or exc}; nothing was written"
            ) from None
        try:
            load_spec(staged)
        except SpecError as exc:
            raise SpecError(
                f"{display_path(folder)}: not written", _relocated(exc.problems, staged, folder)
            ) from None
        try:
            # fails, leaving it alone, if a non-empty folder appeared there meanwhile
            os.rename(staged, folder)
        except OSError as exc:
            raise OutputError(
                f"{display_path(folder)}: {exc.strerror or exc}; nothing was written"
            ) from None
    finally:
        shutil.rmtree(staged, ignore_errors=True)
    try:
        yield folder
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)  # all or nothing: no game without its catalogs
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
