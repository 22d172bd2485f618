"""The scorer's result: plain, read-only data that the CLI, pages and tests all read.

The JSON form (:func:`to_json`) is the documented machine interface; its JSON
Schema is printed by ``rulepress schema --result``. Field names and meanings
are stable within a major version. Every text in the result is carried twice:
as ``template`` + ``args`` (so any front end can translate it) and as
``text`` in the language the result was rendered for.

Nothing updates a result once it is made, yet only :class:`Note` is a
frozen dataclass (:class:`LazyNote` relies on it): a frozen dataclass's
``__init__`` sets each field through ``object.__setattr__``, which made
building a result's lines, players and trace cost four to five times as
much, a fifth of scoring a table state.
"""

# annotations are objects, not postponed strings: see rulepress.render.tree
import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import TypeAdapter

from rulepress.invisible import json_text

#: bumped when a field is removed or changes meaning
RESULT_FORMAT = 1


@dataclass(frozen=True, slots=True)
class Note:
    """One explanatory sentence: a source template, its arguments, and the rendered text."""

    template: str
    args: dict[str, Any] = field(default_factory=dict)
    text: str = ""


#: how a lazy note works out its JSON arguments and its text, once:
#: ``function(template, args)`` (a renderer's method, the template and its arguments)
Render = tuple[Callable[[Any, Any], tuple[dict[str, Any], str]], Any, Any]


class LazyNote(Note):
    """A :class:`Note` whose ``args`` and ``text`` are worked out when first read.

    Rendering every sentence of a result costs more than scoring it, and
    most results (a batch of states, a check of the examples) are never
    shown; a writer that reads ``text`` gets exactly what an eager note
    would have held. Equality, ``repr``, :func:`dataclasses.asdict` and the
    JSON form all read the fields through these properties.
    """

    __slots__ = ("_render",)
    _render: Render | None

    def __init__(
        self,
        template: str,
        args: dict[str, Any] | None = None,
        text: str = "",
        *,
        render: Render | None = None,
    ) -> None:
        # args and text stay unset until first read when there is a render function
        object.__setattr__(self, "template", template)
        object.__setattr__(self, "_render", render)
        if render is None:
            _ARGS.__set__(self, {} if args is None else args)
            _TEXT.__set__(self, text)

    def _rendered(self) -> None:
        render = self._render
        if render is not None:
            function, template, raw = render
            args, text = function(template, raw)
            _ARGS.__set__(self, args)
            _TEXT.__set__(self, text)
            object.__setattr__(self, "_render", None)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Note):
            return NotImplemented
        return (self.template, self.args, self.text) == (other.template, other.args, other.text)

    __hash__ = None  # type: ignore[assignment]  # as Note's: its args are a dict

    def __repr__(self) -> str:
        return f"Note(template={self.template!r}, args={self.args!r}, text={self.text!r})"

    @property
    def args(self) -> dict[str, Any]:
        self._rendered()
        value: dict[str, Any] = _ARGS.__get__(self, Note)
        return value

    @property
    def text(self) -> str:
        self._rendered()
        value: str = _TEXT.__get__(self, Note)
        return value


# the storage of the fields a lazy note fills in on first reading (slot descriptors of Note)
_ARGS: Any = Note.__dict__["args"]
_TEXT: Any = Note.__dict__["text"]


def lazy_notes(
    function: Callable[[Any, Any], tuple[dict[str, Any], str]],
) -> Callable[[str, Any], Note]:
    """``make(template, args)``: ``LazyNote(template, render=(function, template, args))``.

    The scorer makes a few dozen notes per table state; setting the two
    slots directly costs half of calling ``LazyNote.__init__`` (keywords,
    a frozen class's ``object.__setattr__`` by name).
    """
    new = object.__new__
    set_template = Note.__dict__["template"].__set__
    set_render = LazyNote.__dict__["_render"].__set__
    cls = LazyNote

    def make(template: str, args: Any) -> Note:
        note = new(cls)
        set_template(note, template)
        set_render(note, (function, template, args))
        return note

    return make


@dataclass(slots=True)  # not frozen: see the module's docstring
class RulingChoice:
    """A ruling that decided a line, an event or the winners, and the option that did.

    Decided means: with another of the ruling's options (every other ruling
    as chosen), the line would have other points, the event would not have
    happened, or other players would win. ``note`` names the ruling's title
    and the option's title.
    """

    ruling: str
    option: str
    note: Note


#: nothing decided by a ruling (a shared empty default: scoring makes a line per
#: player and step, and a new empty list for each costs a call)
NO_RULINGS: tuple[RulingChoice, ...] = ()


@dataclass(slots=True)  # not frozen: see the module's docstring
class Line:
    """One scoring line of one player: a step, the rules it cites, and its points."""

    score: str
    step: str
    title: str
    rules: list[str]
    points: int
    notes: list[Note]
    breakdown: dict[str, int] = field(default_factory=dict)
    #: the rulings that decided it (when the scorer was asked to name them)
    rulings: tuple[RulingChoice, ...] = NO_RULINGS


@dataclass(slots=True)  # not frozen: see the module's docstring
class PlayerResult:
    """One player's lines, total (where the sequence totals), rank, and whether they may win."""

    id: str
    lines: list[Line]
    total: int | None
    eligible: bool
    ineligible_reason: Note | None
    rank: int | None
    shown: dict[str, Any]


@dataclass(slots=True)  # not frozen: see the module's docstring
class Event:
    """A change a sequence step made to the table state (e.g. Guilty → Suspect)."""

    step: str
    title: str
    rules: list[str]
    player: str
    field: str
    before: Any
    after: Any
    note: Note
    #: the rulings that decided it (when the scorer was asked to name them)
    rulings: tuple[RulingChoice, ...] = NO_RULINGS


@dataclass(slots=True)  # not frozen: see the module's docstring
class Ballot:
    """One ballot of a tally: who, on what, how many units of what, its votes and where it goes."""

    player: str
    target: str
    unit: str
    units: int
    votes: int
    route: str
    note: Note
    #: the rules that give the ballot its weight, and why (a weight without cases: none)
    rules: list[str] = field(default_factory=list)
    reason: Note | None = None
    #: the stage of counting it is cast at (a tally without stages: "")
    stage: str = ""


@dataclass(slots=True)  # not frozen: see the module's docstring
class StageTotals:
    """The totals of a tally after one stage of counting (initial totals, Riders …)."""

    id: str
    title: str
    rules: list[str]
    totals: dict[str, int]


@dataclass(slots=True)  # not frozen: see the module's docstring
class Placed:
    """Units of a winning candidate moved after the vote (cubes onto a council track)."""

    candidate: str
    place: int
    units: int
    rules: list[str]
    note: Note


@dataclass(slots=True)  # not frozen: see the module's docstring
class TallyResult:
    """A vote settled by a step: totals per candidate, ranking, winners, ballots and cube flows.

    ``totals`` are the final ones the ranking uses (raised to the tally's floor,
    if it has one, each raised total explained in ``floored``); ``stages`` the
    totals after each stage of counting, as counted, when the tally counts in stages. ``tie_rules`` (and
    ``tie_rulings``) are cited on ``ties``, ``route_rules`` (by route) where the
    cubes go, and ``placements`` are the winners' units moved after the vote.
    """

    id: str
    step: str
    title: str
    rules: list[str]
    totals: dict[str, int]
    ranking: list[str]
    winners: list[str]
    ballots: list[Ballot]
    ties: list[Note]
    flows: dict[str, dict[str, dict[str, int]]]
    stages: list[StageTotals] = field(default_factory=list)
    tie_rules: list[str] = field(default_factory=list)
    route_rules: dict[str, list[str]] = field(default_factory=dict)
    placements: list[Placed] = field(default_factory=list)
    #: one note per final total raised to the tally's floor (``totals`` are the raised ones)
    floored: list[Note] = field(default_factory=list)
    #: the rulings that decided the vote's totals, ranking or winners, and those that
    #: say how its ties are read (cited on the ties), when the scorer was asked to name them
    rulings: tuple[RulingChoice, ...] = NO_RULINGS
    tie_rulings: tuple[RulingChoice, ...] = NO_RULINGS


@dataclass(slots=True)  # not frozen: see the module's docstring
class TieBreakStep:
    """One criterion applied to the players still contending for the last winning place."""

    criterion: str
    label: str
    values: dict[str, Any]
    winners_so_far: list[str]
    still_tied: list[str]
    note: Note


@dataclass(slots=True)  # not frozen: see the module's docstring
class WinnerResult:
    """Who wins: the places, the players eligible, and the tie-break steps that decided it."""

    step: str
    rules: list[str]
    places: int
    places_note: Note
    eligible: list[str]
    winners: list[str]
    decided_by: str
    shared: bool
    trace: list[TieBreakStep]
    conclusion: Note
    #: the rulings that decided who wins (when the scorer was asked to name them)
    rulings: tuple[RulingChoice, ...] = NO_RULINGS


@dataclass(slots=True)  # not frozen: see the module's docstring
class ScoreResult:
    """The scoring of one table state: every player's lines, the events, tallies and winners."""

    format: int
    game: str
    spec_version: str
    sequence: str
    language: str
    variants: dict[str, str]
    players: list[PlayerResult]
    events: list[Event]
    tallies: list[TallyResult]
    winners: WinnerResult | None
    #: whether the lines carry their notes and the winners their tie-break trace:
    #: ``score(..., trace=False)`` makes neither (see docs/score-json.md)
    traced: bool = True


def to_data(result: ScoreResult) -> dict[str, Any]:
    return dataclasses.asdict(result)


def to_json(result: ScoreResult) -> str:
    return json_text(to_data(result), indent=2, sort_keys=False)


def json_schema() -> dict[str, Any]:
    """The JSON Schema of :func:`to_json`'s output, generated from the dataclasses."""
    schema = TypeAdapter(ScoreResult).json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "rulepress score result"
    return schema
