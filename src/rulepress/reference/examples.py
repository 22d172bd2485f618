"""The author's reference's runnable examples: one small spec fragment per step kind and operation.

Each :class:`Example` is a step (or two) of a sequence, the fields of the
table state it reads, a table state, and what its result must be, written by
hand. :func:`reference_game` writes them into one small game (each example
its own sequence, state format and worked example), which rulepress loads and
checks like any other: the spec check sees every fragment, and each worked
example's ``expect`` is compared with what the scorer gives, by
``rulepress.scoring.examples.check_examples`` (the reference's tests run it),
so no result the reference shows can be wrong.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from textwrap import indent

import yaml


@dataclass(frozen=True)
class Example:
    """One runnable example: what the reference shows, and what makes it a game."""

    #: the step kind or operation it shows (``updates``, ``sum``, …)
    name: str
    #: one sentence on what it shows
    title: str
    #: YAML: the sequence's ``steps``
    steps: str
    #: YAML: the ``fields`` of the players in its state format
    fields: str
    #: YAML: the worked example's ``state``
    state: str
    #: YAML: the worked example's ``expect``
    expect: str
    #: YAML: the ``fields`` of the table in its state format
    table_fields: str = ""
    #: YAML: sections of the game it needs besides (``tables``, ``vocabulary``, ``sets``)
    extra: str = ""
    #: YAML: the ``constraints`` on each player in its state format
    constraints: str = ""
    #: YAML: the ``constraints`` on the table in its state format
    table_constraints: str = ""
    #: YAML: a table state the constraints refuse (the page shows what is reported)
    refused: str = ""


_CARDS = """\
cards:
  type: int
  min: 0
  max: 20
  description: Cards in the player's hand.
"""

EXAMPLES: tuple[Example, ...] = (
    Example(
        name="updates",
        title="An update changes a field of every player for whom `when` holds.",
        fields=_CARDS
        + """\
status:
  type: choice
  choices: [playing, out]
  default: playing
  description: Whether the player is still in the game.
""",
        constraints="""\
- test: cards <= 20 or status == 'out'
  field: cards
  message: holds {cards} cards, more than the deck has
  args: {cards: cards}
""",
        steps="""\
- number: "1"
  title: Bust
  text: A player holding more than ten cards is out.
  rules: ["1"]
  updates:
    - when: cards > 10
      set: status
      value: "'out'"
      note: "{player} holds {cards} cards and is out."
      args: {cards: cards}
- number: "2"
  title: Cards
  text: Players still in score their cards.
  rules: ["1"]
  score:
    id: hand
    title: Cards in hand
    component:
      op: sum
      parts:
        - when: status == 'playing'
          value: cards
          note: "{cards} cards"
          args: {cards: cards}
""",
        state="""\
players:
  - {id: Ada, cards: 12}
  - {id: Bo, cards: 7}
""",
        expect="""\
players:
  Ada: {hand: 0, total: 0}
  Bo: {hand: 7, total: 7}
""",
    ),
    Example(
        name="sum",
        title="`sum` adds every part whose `when` holds; `let` names a value the parts share.",
        fields=_CARDS,
        steps="""\
- number: "1"
  title: Cards
  text: Each pair of cards scores 3; five cards or more score 2 more.
  rules: ["1"]
  score:
    id: pairs_score
    title: Pairs
    let:
      pairs: cards // 2
    component:
      op: sum
      parts:
        - value: pairs * 3
          note: "pairs: {pairs}"
          args: {pairs: pairs}
        - when: cards >= 5
          value: "2"
          note: five cards or more
""",
        state="""\
players:
  - {id: Ada, cards: 5}
  - {id: Bo, cards: 3}
""",
        expect="""\
players:
  Ada: {pairs_score: 8}
  Bo: {pairs_score: 3}
""",
    ),
    Example(
        name="first",
        title="`first` takes the first part whose `when` holds: a case analysis.",
        fields="""\
laps:
  type: int
  min: 0
  max: 10
  description: Laps the player finished.
""",
        steps="""\
- number: "1"
  title: Race
  text: Three laps or more score 5, one lap or more 2, none 0.
  rules: ["1"]
  score:
    id: race
    title: Race
    component:
      op: first
      parts:
        - when: laps >= 3
          value: "5"
          note: three laps or more
        - when: laps >= 1
          value: "2"
          note: at least one lap
        - value: "0"
          note: no lap
""",
        state="""\
players:
  - {id: Ada, laps: 4}
  - {id: Bo, laps: 1}
  - {id: Cy, laps: 0}
""",
        expect="""\
players:
  Ada: {race: 5}
  Bo: {race: 2}
  Cy: {race: 0}
""",
    ),
    Example(
        name="lines",
        title=(
            "`lines` scores a list of lines; a continuation line scores only while its"
            " base line is met."
        ),
        fields="""\
goals:
  type: list
  max: 6
  description: The player's goal lines, in card order.
  item:
    type: record
    description: One goal line.
    fields:
      name: {type: text, description: What the line asks for.}
      points: {type: int, min: 0, max: 9, description: What it scores.}
      met: {type: bool, description: Whether it is met.}
      plus: {type: bool, default: false, description: It continues the line above.}
      blocked: {type: bool, default: false, description: Something stops it from scoring.}
""",
        constraints="""\
- items: goals
  item: goal
  test: goal.met or not goal.blocked
  field: goals.{goal}
  message: "{name} is blocked but not met: only a met goal can be blocked"
  args: {name: goal.name}
""",
        refused="""\
players:
  - id: Ada
    goals:
      - {name: Tower, points: 4, met: true, blocked: true}
      - {name: Gate, points: 3, met: false, blocked: true}
      - {name: Moat, points: 2, met: false, blocked: true}
""",
        steps="""\
- number: "1"
  title: Goals
  text: Each met goal scores its points; a "+" goal needs the goal above it.
  rules: ["1"]
  score:
    id: goals_score
    title: Goals
    component:
      op: lines
      items: goals
      item: goal
      label: goal.name
      continuation: goal.plus
      conditions:
        - test: goal.met
          fails: not met
      restrictions:
        - test: not goal.blocked
          fails: blocked
      restriction_voids_continuation: "True"
      value: goal.points
      voided_note: "{base} did not score"
""",
        state="""\
players:
  - id: Ada
    goals:
      - {name: Tower, points: 4, met: true}
      - {name: Moat, points: 2, met: true, plus: true}
      - {name: Gate, points: 3, met: false}
      - {name: Bridge, points: 5, met: true, plus: true}
  - id: Bo
    goals:
      - {name: Tower, points: 4, met: true, blocked: true}
      - {name: Moat, points: 2, met: true, plus: true}
""",
        expect="""\
players:
  Ada: {goals_score: 6}
  Bo: {goals_score: 0}
""",
    ),
    Example(
        name="sets",
        title=(
            "`sets` groups units of different kinds into sets, scored by size from a table;"
            " wild units fill in for missing kinds."
        ),
        fields="""\
gems:
  type: record
  default: {}
  description: The player's gems, by colour.
  fields:
    ruby: {type: int, min: 0, max: 9, default: 0, description: Rubies.}
    jade: {type: int, min: 0, max: 9, default: 0, description: Jades.}
    onyx: {type: int, min: 0, max: 9, default: 0, description: Onyxes.}
jokers:
  type: int
  min: 0
  max: 3
  default: 0
  description: Jokers, each a gem of any colour.
""",
        extra="""\
vocabulary: {ruby: Ruby, jade: Jade, onyx: Onyx}
sets:
  gem_colours: [ruby, jade, onyx]
tables:
  - id: gem-sets
    title: Gem sets
    rule: "1"
    key_label: Different gems
    value_label: Points
    rows:
      - {min: 1, value: 1}
      - {min: 2, value: 3}
      - {min: 3, value: 6}
""",
        steps="""\
- number: "1"
  title: Gems
  text: Sets of different gems score 1, 3 or 6; a joker is a gem of any colour.
  rules: ["1"]
  score:
    id: gem_sets
    title: Gem sets
    component:
      op: sets
      kinds: sets.gem_colours
      count: get(gems, kind)
      wild: jokers
      wild_label: joker
      wild_per_set: 1
      values: gem-sets
""",
        state="""\
players:
  - id: Ada
    gems: {ruby: 2, jade: 1}
    jokers: 1
  - id: Bo
    gems: {onyx: 2}
""",
        expect="""\
players:
  Ada: {gem_sets: 7}
  Bo: {gem_sets: 2}
""",
    ),
    Example(
        name="weighted_counts",
        title=(
            "`weighted_counts` scores units of several kinds, each worth its kind's multiplier;"
            " choices are tried and the best kept, and each item gets its best use."
        ),
        fields="""\
goods:
  type: record
  default: {}
  description: The player's goods, by kind.
  fields:
    grain: {type: int, min: 0, max: 9, default: 0, description: Grain.}
    wool: {type: int, min: 0, max: 9, default: 0, description: Wool.}
gold:
  type: int
  min: 0
  max: 9
  default: 0
  description: Gold, worth as much as the best good.
contracts:
  type: list
  max: 4
  default: []
  description: Contract cards in hand.
  item:
    type: record
    description: One contract.
    fields:
      good: {type: choice, choices: [grain, wool], description: The good it counts as.}
      points: {type: int, min: 0, max: 9, description: What it scores kept.}
""",
        table_fields="""\
wool_price:
  type: int
  min: 1
  max: 5
  description: Points per wool this game.
""",
        extra="""\
vocabulary: {grain: Grain, wool: Wool, storehouse: the storehouse}
""",
        steps="""\
- number: "1"
  title: Market
  text: >-
    Grain scores 1 each and wool the table's price; you double one kind of your
    choice. Gold scores as the best good; a contract counts as a good, or scores
    its own points.
  rules: ["1"]
  score:
    id: market
    title: Market
    component:
      op: weighted_counts
      kinds: {grain: Grain, wool: Wool}
      count: get(goods, kind)
      # where a kind's units come from, for the report ([name, amount] pairs adding
      # up to count; the names are vocabulary words)
      count_sources: "[[label('storehouse'), get(goods, kind)]]"
      choices:
        - name: doubled
          options: "['grain', 'wool']"
          note: "{choice} doubled"
      multiplier:
        - when: kind == 'grain'
          value: "1"
          note: grain
        - when: kind == 'wool'
          value: table.wool_price
          note: the wool price
        - when: kind == doubled
          value: "1 if kind == 'grain' else table.wool_price"
          note: doubled
      wild: gold
      wild_value: max(multipliers.grain, multipliers.wool)
      wild_note: "gold: {count} × {value}"
      item_uses:
        items: contracts
        item: contract
        uses:
          - id: as-good
            title: as a good
            kind: contract.good
          - id: kept
            title: kept for its points
            value: contract.points
""",
        state="""\
table: {wool_price: 2}
players:
  - id: Ada
    goods: {grain: 3, wool: 1}
    gold: 1
    contracts:
      - {good: wool, points: 3}
""",
        expect="""\
players:
  Ada: {market: 15}
""",
    ),
    Example(
        name="majorities",
        title=(
            "`majorities` ranks the players in each area by presence; tied players share"
            " the places they cover as `ties` says."
        ),
        fields="""\
towers:
  type: record
  default: {}
  description: The player's towers, by district.
  fields:
    docks: {type: int, min: 0, max: 9, default: 0, description: Towers in the docks.}
    market: {type: int, min: 0, max: 9, default: 0, description: Towers in the market.}
""",
        extra="""\
vocabulary: {docks: Docks, market: Market}
sets:
  districts: [docks, market]
""",
        steps="""\
- number: "1"
  title: Districts
  text: The most towers in a district score 5, the second-most 2; tied players split.
  rules: ["1"]
  score:
    id: districts_score
    title: Districts
    component:
      op: majorities
      areas: sets.districts
      presence: get(rival.towers, area)
      least: "1"
      places: ["5", "2"]
      ties: "'split'"
""",
        state="""\
players:
  - id: Ada
    towers: {docks: 3, market: 1}
  - id: Bo
    towers: {docks: 1, market: 1}
  - id: Cy
    towers: {docks: 2}
""",
        expect="""\
players:
  Ada: {districts_score: 8}
  Bo: {districts_score: 3}
  Cy: {districts_score: 2}
""",
    ),
    Example(
        name="tally",
        title=(
            "A tally counts weighted ballots for candidates, ranks them (ties by an order),"
            " and routes each ballot; later steps read its outcome. Here the weight is"
            " given as cases, each with its rules and why; a recount stage makes big piles"
            " count double, and the winner's cube goes to the guild hall."
        ),
        fields="""\
backed:
  type: choice
  choices: [owls, foxes]
  description: The guild the player backs.
""",
        table_fields="""\
votes:
  type: list
  max: 9
  description: The votes cast.
  item:
    type: record
    description: One vote.
    fields:
      player: {type: player, description: Who cast it.}
      guild: {type: choice, choices: [owls, foxes], description: The guild it is for.}
      count: {type: int, min: 1, max: 5, description: Cubes cast.}
tie_order:
  type: list
  max: 2
  description: The guilds in tie-break order, first wins.
  item: {type: choice, choices: [owls, foxes], description: A guild.}
""",
        table_constraints="""\
- test: len(tie_order) == 2
  field: tie_order
  message: the tie order names {count} guilds, not both
  args: {count: len(tie_order)}
""",
        constraints="""\
- items: sets.guilds
  item: guild
  let:
    cast: sum(v.count for v in table.votes if v.player == id and v.guild == guild)
  test: cast <= 3
  message: casts {cast} cubes for {guild}, {over} more than the 3 a player has of each colour
  args: {over: cast - 3}
""",
        refused="""\
table:
  votes:
    - {player: Ada, guild: owls, count: 4}
    - {player: Ada, guild: foxes, count: 5}
    - {player: Bo, guild: foxes, count: 2}
  tie_order: [foxes, owls]
players:
  - {id: Ada, backed: owls}
  - {id: Bo, backed: foxes}
""",
        extra="""\
vocabulary: {owls: Owls, foxes: Foxes}
sets:
  guilds: [owls, foxes]
""",
        steps="""\
- number: "1"
  title: Vote
  text: Each cube is a vote; the guild with the most votes wins the vote.
  rules: ["1"]
  tally:
    id: vote
    title: Guild vote
    candidates: {owls: Owls, foxes: Foxes}
    stages:
      - {id: count, title: First count, rules: ["1"]}
      - {id: recount, title: Recount, rules: ["1"]}
    ballots:
      - items: table.votes
        item: ballot
        player: ballot.player
        target: ballot.guild
        units: ballot.count
        unit: "'cube'"
        weights:
          - when: ballot.count >= 2
            value: "2"
            stage: recount
            rules: ["1"]
            because: a pile of two or more counts {weight} per cube in the recount
          - value: "1"
            rules: ["1"]
            because: each cube is a vote
        route: "'kept' if ballot.guild in winners else 'lost'"
        args: {guild: label(ballot.guild)}
        note: "{player}: {units} on the {guild}, votes: {votes}; then {route}"
    places: "1"
    tie_order: table.tie_order
    tie_note: "{tied} are tied on {votes}: the tie order decides"
    tie_rules: ["1"]
    routes:
      kept: back to its owner
      lost: out of the game
    route_rules: {kept: ["1"], lost: ["1"]}
    placement:
      count: "1"
      places: [the guild hall]
      rules: ["1"]
      note: "{candidate} × {count} to {place}"
- number: "2"
  title: Backing
  text: Backing the guild that won scores 4.
  rules: ["1"]
  score:
    id: backing
    title: Backing
    component:
      op: sum
      parts:
        - when: backed in vote.winners
          value: "4"
          note: backed the winner
""",
        state="""\
table:
  votes:
    - {player: Ada, guild: owls, count: 2}
    - {player: Bo, guild: foxes, count: 2}
  tie_order: [foxes, owls]
players:
  - {id: Ada, backed: owls}
  - {id: Bo, backed: foxes}
""",
        expect="""\
players:
  Ada: {backing: 0}
  Bo: {backing: 4}
tallies:
  vote:
    stages: {count: {owls: 2, foxes: 2}, recount: {owls: 4, foxes: 4}}
    winners: [foxes]
""",
    ),
    Example(
        name="winners",
        title=(
            "`winners` ranks the eligible players by criteria in order; the first that"
            " tells tied players apart decides."
        ),
        fields=_CARDS
        + """\
coins:
  type: int
  min: 0
  max: 20
  description: Coins left.
""",
        extra="""\
tables:
  - id: winners-by-players
    title: Winners
    rule: "1"
    key_label: Players
    value_label: Winners
    rows:
      - {min: 1, max: 4, value: 1}
""",
        steps="""\
- number: "1"
  title: Cards
  text: Each card scores 1.
  rules: ["1"]
  score:
    id: card_points
    title: Cards
    component:
      op: sum
      parts:
        - value: cards
          note: "{cards} cards"
          args: {cards: cards}
- number: "2"
  title: Winner
  text: The most points wins; then the most coins.
  rules: ["1"]
  winners:
    eligible:
      test: cards > 0
      fails: holds no card
    count:
      table: winners-by-players
      key: n_players
    criteria:
      - id: most-points
        key: total
        order: highest
        label: Most points
      - id: most-coins
        key: coins
        order: highest
        label: Most coins
    final_tie: share
    final_tie_note: Players still tied share the win.
""",
        state="""\
players:
  - {id: Ada, cards: 4, coins: 1}
  - {id: Bo, cards: 4, coins: 3}
  - {id: Cy, cards: 0, coins: 9}
""",
        expect="""\
players:
  Ada: {total: 4}
  Bo: {total: 4, rank: 1}
  Cy: {eligible: false}
winners: [Bo]
decided_by: most-coins
""",
    ),
)

_GAME = """\
game:
  id: reference
  title: Reference examples
  edition: generated
  version: "1"
  players: 1–4
  source:
    language: en
    document: none (the examples of rulepress's author's reference)
  languages: [en]
  summary: The runnable examples of the author's reference, one sequence each.
rules:
  - number: "1"
    title: Scoring
    text: Score as each example's steps say.
"""


def example_id(example: Example) -> str:
    """The id of an example's sequence, state format and worked example."""
    return "ref-" + example.name.replace("_", "-")


def _load(text: str) -> object:
    return yaml.safe_load(text) if text.strip() else None


def game_files(examples: tuple[Example, ...] = EXAMPLES) -> dict[str, str]:
    """The reference game's YAML files, by name: one sequence, format and example each."""
    files = {"game.yaml": _GAME + f"scorer:\n  sequence: {example_id(examples[0])}\n"}
    for example in examples:
        ident = example_id(example)
        table = (
            "    table:\n      fields:\n" + indent(example.table_fields, " " * 8)
            if example.table_fields
            else ""
        )
        if example.table_constraints:
            table += "      constraints:\n" + indent(example.table_constraints, " " * 8)
        players = (
            "      constraints:\n" + indent(example.constraints, " " * 8)
            if example.constraints
            else ""
        )
        files[f"{example.name}.yaml"] = "\n".join(
            [
                "table_states:",
                f"  {ident}:",
                f"    description: The table state of the {example.name} example.",
                "    players:",
                "      max: 4",
                "      fields:",
                indent(example.fields, " " * 8).rstrip(),
                players.rstrip(),
                table.rstrip(),
                "sequences:",
                f"  - id: {ident}",
                f"    title: {example.name}",
                f"    text: The {example.name} example.",
                '    rules: ["1"]',
                f"    state: {ident}",
                "    total_label: Points",
                "    steps:",
                indent(example.steps, " " * 6).rstrip(),
                "examples:",
                f"  - id: {ident}",
                f"    title: The {example.name} example",
                '    rules: ["1"]',
                f"    text: The {example.name} example.",
                f"    sequence: {ident}",
                "    state:",
                indent(example.state, " " * 6).rstrip(),
                "    expect:",
                indent(example.expect, " " * 6).rstrip(),
                "",
            ]
        )
        if example.extra:
            # sections such as vocabulary or tables: each file may give part of them
            files[f"{example.name}-extra.yaml"] = example.extra
    return files


@contextmanager
def reference_game(examples: tuple[Example, ...] = EXAMPLES) -> Iterator[Path]:
    """The reference game written into a temporary folder, removed afterwards."""
    with tempfile.TemporaryDirectory(prefix="rulepress-reference-") as tmp:
        game = Path(tmp) / "rules_spec" / "reference"
        game.mkdir(parents=True)
        for name, text in game_files(examples).items():
            (game / name).write_text(text, encoding="utf-8")
        yield game
