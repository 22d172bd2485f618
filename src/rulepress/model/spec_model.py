"""The typed, frozen model of a game's rules spec.

One :class:`Spec` per game, built from every YAML file of
``rules_spec/<game>/``. The model holds data only: loading and located
error reporting live in :mod:`rulepress.games.load`, cross-reference checks
in :mod:`rulepress.checks.checker`, and behaviour in :mod:`rulepress.scoring`.

Any part that has ``translator_note`` passes it to translators as a comment
on each of its messages. Reader-facing text fields are English source text
and may use this inline
markup (see :mod:`rulepress.model.text`): ``{rule:16.4.8}``, ``{param:name}``,
``{ruling:id}``, ``{term:id}`` and ``[words](term:id)``.
"""

import datetime
import re
import unicodedata
from collections.abc import Iterator, Mapping
from functools import cache
from typing import Annotated, Any, ClassVar, Literal, Union

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Discriminator,
    Field,
    GetPydanticSchema,
    ModelWrapValidatorHandler,
    Tag,
    WrapSerializer,
    WrapValidator,
    create_model,
    model_validator,
)

from rulepress.lazy_pattern import LazyPattern
from rulepress.model import operations
from rulepress.model.audit import Audit
from rulepress.model.declared import declared_expression
from rulepress.model.languages import language_syntax, published_languages
from rulepress.model.previous import PreviousEdition
from rulepress.model.provenance import Passage, Provenance
from rulepress.model.sets import (
    SET_REF_RE,
    SET_REF_SYNTAX,
    as_written,
    resolving,
    set_labels,
    set_list,
)

RULE_NUMBER_RE = LazyPattern(r"^[0-9]+(\.[0-9]+)*$")
STEP_NUMBER_RE = re.compile(r"^[0-9]+[a-z]?$")
ID_RE = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")
NAME_RE = re.compile(r"^[a-z][a-z0-9_]*$")
#: a shipped source document: a relative path of plain names below the game's folder,
#: a text file (quotes are checked in it), never ``..``, never absolute
SOURCE_FILE_RE = r"^([A-Za-z0-9][A-Za-z0-9._-]*/){0,3}[A-Za-z0-9][A-Za-z0-9._-]*\.(txt|md)$"
#: a reading: hiragana or katakana, the prolonged sound mark and the middle dot
KANA_RE = LazyPattern(r"^[\u3041-\u3096\u309d\u309e\u30a1-\u30fa\u30fc-\u30fe\u30fb]*$")


def _must_be_text(kind: str, example: str) -> Any:
    def check(value: Any) -> Any:
        if isinstance(value, int | float) and not isinstance(value, bool):
            raise ValueError(f"{kind} must be quoted text, e.g. '{example}' (YAML read {value!r})")
        return value

    return check


def _pattern(regex: re.Pattern[str], kind: str) -> Any:
    def check(value: str) -> str:
        if not regex.match(value):
            raise ValueError(f"{value!r} is not a valid {kind}")
        return value

    return check


#: The longest id, name, rule number or step number. Each is part of the anchors of
#: the pages and print files that show it (``rule-16-4-8``, ``step-<sequence id>-4a``),
#: which the page model keeps to 200 characters (rulepress.render.tree.Label): an id
#: of 300 characters validated, and then failed the site build with a traceback. The
#: shipped games' longest id has 43.
MAX_ID_LENGTH = 64


def _short(kind: str) -> Any:
    def check(value: str) -> str:
        if len(value) > MAX_ID_LENGTH:
            raise ValueError(f"{kind} has {len(value)} characters; at most {MAX_ID_LENGTH}")
        return value

    return check


RuleNumber = Annotated[
    str,
    BeforeValidator(_must_be_text("a rule number", "16.4")),
    AfterValidator(_short("a rule number")),
    AfterValidator(_pattern(RULE_NUMBER_RE, "rule number (digits separated by dots)")),
]
StepNumber = Annotated[
    str,
    BeforeValidator(_must_be_text("a step number", "4")),
    AfterValidator(_short("a step number")),
    AfterValidator(_pattern(STEP_NUMBER_RE, "step number (e.g. 4 or 4a)")),
]
Id = Annotated[
    str,
    AfterValidator(_short("an id")),
    AfterValidator(_pattern(ID_RE, "id (lower-case words joined by '-')")),
]


def _rule_ref(value: str) -> str:
    if not (RULE_NUMBER_RE.match(value) or ID_RE.match(value)):
        raise ValueError(
            f"{value!r} is neither a rule number (digits separated by dots) nor a rule's id"
        )
    return value


#: a rule named by its number (``16.4.8``) or by its id (``winners-by-count``)
RuleRef = Annotated[
    str,
    BeforeValidator(_must_be_text("a rule number", "16.4")),
    AfterValidator(_short("a rule number or id")),
    AfterValidator(_rule_ref),
]


def _iso_date(value: str) -> str:
    # YAML reads 2026-12-01 as text here (rulepress's loader has no timestamps), so the
    # date is checked as text: a calendar date, written as ISO 8601 writes it
    try:
        ok = len(value) == 10 and datetime.date.fromisoformat(value).isoformat() == value
    except ValueError:
        ok = False
    if not ok:
        raise ValueError(f"{value!r} is not a date written YYYY-MM-DD (e.g. 2026-12-01)")
    return value


#: a calendar date, ``YYYY-MM-DD`` (quoted: an editor's YAML reads a bare one as a date)
IsoDate = Annotated[
    str,
    BeforeValidator(_must_be_text("a date", "2026-12-01")),
    AfterValidator(_iso_date),
    Field(json_schema_extra={"format": "date"}),
]

#: the longest id a table state gives (a player's) or chooses (a choice's value)
MAX_STATE_ID = 32
#: how a message describes the syntax of :func:`is_state_id`
STATE_ID_SYNTAX = f"a letter, then letters, digits, '-' or '_', at most {MAX_STATE_ID} characters"


#: an ASCII table-state id (see is_state_id): what isalpha and isalnum accept in ASCII
_ASCII_STATE_ID = LazyPattern(rf"[A-Za-z][A-Za-z0-9_-]{{0,{MAX_STATE_ID - 1}}}")


def is_state_id(text: str) -> bool:
    """Whether ``text`` is a table-state id: a player's id, a choice's value.

    A letter of any script, then letters, digits, combining marks, ``-`` or
    ``_``; 1 to :data:`MAX_STATE_ID` characters. Players name themselves
    (``ada``, ``Tomáš``, ``p1``, ``blue``), so this is wider than a spec's
    :data:`Id`; what it keeps out is what could break a line of a report:
    spaces, punctuation, line breaks and every control or bidi character.
    Checked character by character (``str.isalpha``/``isalnum`` follow
    Unicode's categories): no regular expression says "a letter of any
    script" without also matching ``_`` or digits.
    """
    if text.isascii():  # the common case, decided in C: the same ids (no marks in ASCII)
        return _ASCII_STATE_ID.fullmatch(text) is not None
    if not 0 < len(text) <= MAX_STATE_ID or not text[0].isalpha():
        return False
    return all(
        c.isalnum() or c in "-_" or unicodedata.category(c) in ("Mn", "Mc") for c in text[1:]
    )


def _state_id(value: str) -> str:
    if not is_state_id(value):
        raise ValueError(f"{value!r} is not a valid table-state id ({STATE_ID_SYNTAX})")
    return value


StateId = Annotated[str, AfterValidator(_state_id)]
Name = Annotated[
    str,
    AfterValidator(_short("a name")),
    AfterValidator(_pattern(NAME_RE, "name (lower_snake_case)")),
]
#: a named set where a list could be written (see :mod:`rulepress.model.sets`)
SetRef = Annotated[str, AfterValidator(_pattern(SET_REF_RE, "set ('sets.<name>')"))]
#: an entry of a named set: an id, or another set's members
SetEntry = Annotated[str, AfterValidator(lambda v: v if SET_REF_RE.match(v) else _state_id(v))]
#: ids a table state may give: written out, or ``sets.<name>``
IdList = Annotated[
    list[StateId],
    WrapValidator(set_list, json_schema_input_type=list[StateId] | SetRef),
    WrapSerializer(as_written),
]


def _ruling_name(value: str) -> str:
    # One spelling everywhere a ruling or option is named: its id in YAML, the
    # field an expression reads (ruling.grudge_state), the text it is compared
    # with ('not_live'), --variant on the command line and the JSON result's
    # ``variants``. Expressions only read lower_snake_case names, so that is the
    # spelling; the message shows the id rewritten, the fix a reader would make.
    if NAME_RE.match(value):
        return value
    fixed = re.sub(r"[^a-z0-9]+", "_", value.lower()).strip("_")
    hint = f"write {fixed!r}; " if NAME_RE.match(fixed) else ""
    raise ValueError(
        f"{value!r} is not a valid ruling or option id: {hint}rulings and their options"
        " are lower_snake_case, as expressions (ruling.<id> == '<option>') and"
        " --variant name them"
    )


#: the id of a ruling or of one of its options (see :func:`_ruling_name`)
RulingName = Annotated[
    str, AfterValidator(_short("a ruling or option id")), AfterValidator(_ruling_name)
]
#: a language: a locale code as Babel writes it; whether Babel knows it is checked by
#: ``rulepress validate`` and the commands that publish (rulepress.model.languages)
Lang = Annotated[str, AfterValidator(language_syntax)]


class FieldKind:
    """Marks a string field for the checks and the translation extractor."""

    def __init__(self, kind: str) -> None:
        self.kind = kind


#: reader-facing text that may contain inline markup (translatable)
PROSE = FieldKind("prose")
#: an expression in the language of :mod:`rulepress.expressions.expression`
EXPR = FieldKind("expr")

Text = Annotated[str, Field(min_length=1), PROSE]
#: text for spec authors and editors only (state-format help); never translated
AuthorText = Annotated[str, Field(min_length=1)]
#: an expression: its text, or a declaration of one (a value per ruling option, or
#: cases in order; see :mod:`rulepress.model.declared`)
ExprText = Annotated[
    str,
    BeforeValidator(lambda v: str(v) if isinstance(v, bool | int) else v),
    WrapValidator(
        declared_expression, json_schema_input_type=str | int | bool | dict[str, Any] | list[Any]
    ),
    EXPR,
]
#: ids with the label readers see for each: written out, or ``sets.<name>`` (the
#: labels are then the spec's vocabulary words for its members)
Labelled = Annotated[
    dict[Id, Text],
    WrapValidator(set_labels, json_schema_input_type=dict[Id, Text] | SetRef),
    WrapSerializer(as_written),
]


def _set_ref_only(value: Any) -> Any:
    # {} is no keys: the default, as a spec's dump (a translated spec's source) writes it
    if not isinstance(value, str) and value != {}:
        raise ValueError(f"expected a named set ({SET_REF_SYNTAX}), got {type(value).__name__}")
    return value


#: the members of a named set with their labels, the vocabulary's words: only
#: ``sets.<name>``, so that each label is a message once, in the vocabulary
SetMembers = Annotated[Labelled, BeforeValidator(_set_ref_only)]


class Model(BaseModel):
    """Base: unknown keys are errors, instances are immutable."""

    # field docstrings are the fields' descriptions: in the JSON Schema and the
    # author's reference (rulepress.reference), which read them when they show them
    # (rulepress.model.field_docs; pydantic's use_attribute_docstrings read every
    # class's source as it was made, which was most of the cost of importing this)
    # A model's schema is built when it is first used (defer_build), not when its class
    # is made: a score's component is a union of the operations the registry finds,
    # whose modules import this one (see component_union).
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, defer_build=True)


# --------------------------------------------------------------------------- game


class SourceDocument(Model):
    language: Lang
    document: Text
    note: Annotated[str, PROSE] = ""


class SourceText(Model):
    """A document the spec was made from (the `sources` section), which provenance names."""

    id: Id
    """The document's id, as a `source: {document: …}` names it."""
    title: Text
    """What the document is, for readers."""
    language: Lang
    """The language it is written in."""
    lines: int = Field(ge=1)
    """How many lines the copy the spec was made from has; passages lie within them."""
    file: Annotated[str, Field(pattern=SOURCE_FILE_RE)] | None = None
    """That copy, shipped in the game's folder as it was received (`sources/rules.ja.txt`).
    Without it (a printed rulebook the game cannot ship) citations are recorded as unchecked."""
    sha256: Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")] | None = None
    """The SHA-256 of the file's bytes, which `validate` checks: the copy cited is the copy shipped."""
    encoding: Annotated[str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.:-]{0,39}$")] = "utf-8"
    """The file's own text encoding, as received (`utf-8`, `cp1250`, `shift_jis` …)."""
    note: str = ""
    """Where that copy comes from, for editors (not shown to readers)."""

    @model_validator(mode="after")
    def _file_and_hash(self) -> "SourceText":
        if (self.file is None) != (self.sha256 is None):
            raise ValueError(
                "a shipped document gives both 'file' and 'sha256' (`rulepress validate` prints"
                " the hash a file has)"
            )
        return self


class NotInSource(Model):
    """Something a player needs that the source documents do not give (`not_in_source`)."""

    id: Id
    """The item's id (its anchor on the page that lists these)."""
    title: Text
    """What is missing, in a few words."""
    text: Text
    """Where a player finds it instead (the components of their copy of the game)."""
    nearby: list[Passage] = []
    """What the sources do say nearby, quoted with their lines: the reader sees what is there
    and what is not."""
    table_state: list[Annotated[str, Field(pattern=r"^(table|players)\.[a-z][a-z0-9_]*$")]] = []
    """The table-state fields through which the scorer receives it, if it needs it."""


class CardException(Model):
    """A component card that makes an exception to the rules (`card_exceptions`).

    Characters' cards change the rules for their own player (one may win while
    Guilty); the source documents of a spec rarely say so, so each exception is
    game data of its own: the card by its id, what it changes, and where that
    comes from (a `not_in_source` entry naming the component). The scorer applies
    it through the named sets that list the card, which expressions read
    (`named_in(identity, sets.win_while_guilty)`): the table of exceptions and the
    scoring cannot disagree about which card is meant.
    """

    id: StateId
    """The card's id, as the spec's sets list it; readers see the vocabulary's word for it."""
    text: Text
    """What the card changes, in a sentence or two (shown in the table of card exceptions)."""
    rules: list[RuleNumber] = Field(min_length=1)
    """The rules it makes an exception to."""
    sets: list[Name] = []
    """The named sets that list the card, through which the scorer applies the exception
    (`win_while_guilty`); none when the scorer does not apply it (then `text` says why)."""
    example: Id | None = None
    """The worked example that shows the exception applied."""
    source: Provenance | None = None
    """Where it comes from: the components, named by their `not_in_source` entry."""
    translator_note: str = ""


class Change(Model):
    """One line of the changelog: what an edition changed, and why, in the author's words."""

    id: Id
    """The change's id (its translation is kept by it)."""
    version: AuthorText
    """The version of the spec (`game.version`) that made the change."""
    text: Text
    """What changed and why, in one line, for players and translators."""
    rules: list[RuleRef] = []
    """The rules it concerns, by number or by id."""
    translator_note: str = ""


class Translation(Model):
    """How complete a language must be to be published as a full one."""

    #: the share of a language's messages (its catalog of the game and rulepress's
    #: interface catalog, in percent) below which it is published only as a preview:
    #: its pages say so and are kept out of search engines, the root page never picks
    #: it and the publication gate reports its English without failing. 0: never a
    #: preview (every message shown in English then fails the gate)
    complete_at: Annotated[int, Field(ge=0, le=100)] = 0


class Game(Model):
    id: Id
    title: Text
    edition: Text
    version: AuthorText
    #: the day this edition (``version``) was published, YYYY-MM-DD
    date: IsoDate | None = None
    #: what each edition changed, newest first: a line per change (see ``rulepress diff``)
    changelog: list[Change] = []
    #: the edition this one follows (a git revision or a folder): the default build then
    #: makes the page "Changes in this edition" and the errata sheet against it
    previous_edition: PreviousEdition | None = None
    designer: str = ""
    publisher: str = ""
    #: the game's copyright line, shown as written in the footer of its pages
    #: ("Stationfall © 2023 Ion Game Design"): names and a year, never translated
    copyright: str = ""
    players: Text
    source: SourceDocument
    #: the languages the game is published in; English, the source language, among them
    languages: Annotated[list[Lang], Field(min_length=1), AfterValidator(published_languages)]
    summary: Text
    translator_note: str = ""
    #: when a language counts as complete enough to be more than a preview
    # (a default made with model_construct: made validated, it built the model's validator
    # as this module was imported, which every command does)
    translation: Translation = Translation.model_construct()


# --------------------------------------------------------------------------- rules


class Rule(Model):
    number: RuleNumber
    #: a name for the rule that stays when its number changes (``rulepress diff`` follows a
    #: renumbered rule by it); optional
    id: Id | None = None
    title: Text
    translator_note: str = ""
    text: Annotated[str, PROSE] = ""
    rules: list["Rule"] = []
    #: where the rule comes from (rulepress.model.provenance)
    source: Provenance | None = None


class ExternalRule(Model):
    """A rule the spec cites but does not reproduce (e.g. from another manual)."""

    number: RuleNumber
    title: Text
    source: Text
    summary: Annotated[str, PROSE] = ""


class Parameter(Model):
    """A number of the game, named: `{param:name}` in text, `param.name` in expressions.

    A number per member of a named set (the first place's points in each district)
    is a *parameter map*: `keys` names the set and `value` gives a number for each of
    its members, every member once; expressions read it as a record,
    `get(param.first, area)`.
    """

    value: int | dict[StateId, int]
    """The number; or, with `keys`, a number per member of that set."""
    keys: SetRef | None = None
    """The named set whose members a parameter map's `value` gives a number for (`sets.districts`)."""
    description: Text
    rule: RuleNumber
    #: where the value comes from (rulepress.model.provenance)
    source: Provenance | None = None


class Term(Model):
    id: Id
    term: Text
    translator_note: str = ""
    definition: Text
    rules: list[RuleNumber] = []
    #: where the definition comes from (rulepress.model.provenance)
    source: Provenance | None = None


FieldType = Literal["int", "bool", "choice", "text", "player", "list", "record"]
Bound = (
    int
    | Annotated[
        str,
        AfterValidator(
            _pattern(re.compile(r"^param:[a-z][a-z0-9_]*$"), "bound ('param:name' or an integer)")
        ),
    ]
)


def bound_value(value: Bound, params: Mapping[str, Parameter]) -> int:
    """A bound's number: the integer itself, or the value of the parameter it names.

    (The spec check refuses a parameter map as a bound, before anything reads one.)
    """
    if isinstance(value, int):
        return value
    named = params[value.removeprefix("param:")].value
    assert isinstance(named, int), f"{value} is a parameter map, which the spec check refuses"
    return named


def every_number(params: Mapping[str, Parameter]) -> dict[str, int]:
    """Every number the parameters give, by the name text gives it (``{param:name}``).

    A map's numbers are under ``name.member`` (``{param:first.docks}``), in its order.
    """
    out: dict[str, int] = {}
    for name, param in params.items():
        if isinstance(param.value, int):
            out[name] = param.value
        else:
            out.update({f"{name}.{member}": n for member, n in param.value.items()})
    return out


class TableRow(Model):
    """Keys ``min``..``max`` (inclusive; one key without ``max``) map to ``value``.

    Each may be an integer or ``param:name``, so a number printed in the
    rules text and used in a table is written once. In a table keyed by a
    named set (``keys``) a row gives its member as ``key`` instead.
    """

    min: Bound | None = None
    """The least key of the row (a table keyed by numbers)."""
    max: Bound | None = None
    """The greatest key of the row, if it covers more than `min`."""
    key: StateId | None = None
    """The row's member of the table's `keys` (a table keyed by a named set)."""
    value: Bound
    """The value every key of the row maps to."""
    #: where the row comes from (rulepress.model.provenance)
    source: Provenance | None = None


class Table(Model):
    """A lookup table to an integer value: from an integer key, by ranges, or from a set's members.

    `lookup('<table>', key)` reads it in expressions. Keyed by numbers (a count of
    players, of sets), each row gives `min` (and `max`); keyed by a named set (a
    district, a faction, a card: `keys: sets.districts`), each row gives its member
    as `key`, and readers see the vocabulary's word for it.
    """

    id: Id
    title: Text
    rule: RuleNumber
    keys: SetRef | None = None
    """The named set whose members key the table (`sets.districts`); none: integer keys."""
    key_label: Text
    value_label: Text
    rows: list[TableRow] = Field(min_length=1)


class RulingOption(Model):
    id: RulingName
    title: Text
    description: Text


class Ruling(Model):
    """What the source leaves unclear, the choice made, and the alternatives."""

    id: RulingName
    title: Text
    rules: list[RuleNumber] = []
    question: Text
    says: list[Passage] = []
    """What the sources say on the question, quoted with their lines (checked like every
    quote): the words each option reads differently."""
    decision: Text
    reason: Text
    default: RulingName
    options: list[RulingOption] = Field(min_length=1)
    translator_note: str = ""


# --------------------------------------------------------------------------- state format


class Draw(Model):
    """How often each value comes up in drawn tables: relative weights, or a typical range.

    Tables are drawn for `rulepress impact` and the rulings' weight on the site; a
    real table is not always uniform (some player counts are more common, a score
    seldom nears the most the format allows). Without `draw` every value the field
    allows is as likely as any other: draws are uniform where the spec says nothing.
    Give either `weights` (each value its own weight) or `typical` with `share` (a
    range of common values and how often a value comes from it), only where a fact of
    the game supports it (the player counts the box names, the most the board can
    give), with the fact in a comment beside it.
    """

    weights: dict[
        Annotated[str, Field(min_length=1, max_length=64)], Annotated[int, Field(ge=0)]
    ] = {}
    """Value → its relative weight (a whole number, 0 or more, not all 0): for an `int`
    field its values, for a `choice` its choices, for a `list` its lengths, for
    `players` the numbers of players. Keys are text, as every key of a spec: quote a
    number. `{'2': 1, '3': 3, '4': 3}` draws three- and four-player tables three times
    as often as two-player ones, and never five: a value left out is never drawn."""
    typical: Annotated[list[int], Field(min_length=2, max_length=2)] | None = None
    """The typical values, `[lo, hi]`, both ends included and within the field's bounds:
    of an `int` field, a `list`'s length or the number of `players`. A drawn value
    comes from this range with probability `share`, uniformly among its values, and
    otherwise uniformly among the field's other values. `typical: [0, 19]` with
    `share: 0.9` on a field bounded 0 to 40 draws 0 to 19 nine times in ten, and 20
    to 40 the tenth time."""
    share: float | None = None
    """With `typical`, and only with it: how often a drawn value comes from the typical
    range, above 0 and at most 1 (`1`: a value outside it is never drawn)."""

    def weight(self, value: int | str) -> int:
        """The weight of ``value`` (0 for a value the weights leave out)."""
        return self.weights.get(str(value), 0)


class FieldSpec(Model):
    """One field of a table-state format: its type, bounds and help text.

    A field gives its `type`, or reuses a named field type of the spec's
    `field_types` with `use` (its own description, title, default, `optional`
    and `translate` win). A record whose fields are the members of a named
    set gives `keys: sets.<name>` and, in `item`, the one type they all have:
    each field is named by its member, and readers see the vocabulary's word
    for it. The loader resolves both forms once (see
    :mod:`rulepress.states.fields`).
    """

    type: FieldType | None = None
    """What the field holds; a `player` field holds a player's id."""
    use: Name | None = None
    """A named field type of `field_types` this field is, instead of `type`."""
    description: AuthorText
    """What the field means, for whoever writes a table state (the schema and template)."""
    title: Text | None = None
    """What readers see for the field where a worked example's state is shown (translated);
    without one, the vocabulary's word for its name, or the name."""
    min: Bound | None = None
    """The least allowed: of an integer, or of a list's length (a number or `param:name`)."""
    max: Bound | None = None
    """The most allowed, as `min`; every integer and list field needs one."""
    choices: IdList = []
    """The ids a `choice` field allows."""
    labels: dict[StateId, Text] = {}
    """What readers see for a choice, by id (else the vocabulary's word, or the id)."""
    default: Any = None
    """The value of the field when a state leaves it out (checked like a value)."""
    optional: bool = False
    """The field may be left out, and then has no value."""
    item: "FieldSpec | None" = None
    """The type of a list's items; or, with `keys`, of each field of the record."""
    fields: dict[Name, "FieldSpec"] = {}
    """A record's fields, by name."""
    keys: SetMembers = {}
    """A record's fields as the members of a named set (`sets.colours`), each of type `item`."""
    unique: bool = False
    """No item of the list may be given twice."""
    translate: bool = False
    """A text readers see (an Agenda line's wording): translated in the worked examples'
    states (see `rulepress.states.texts`)."""
    draw: Draw | None = None
    """How often each value comes up in drawn tables (an `int`, `choice` or `list`
    field): weights, or a typical range; without it, uniformly."""


class Constraint(Model):
    """A rule across a record's fields that a table state must keep, or it is refused.

    Written plainly, ``test`` is asked once per record (each player, or the
    table). With ``items`` it is asked once for each member of a collection
    (a named set such as ``sets.colours``, a list field such as ``ships``),
    read by the name ``item`` gives, and every member that fails is its own
    problem, with its own message. ``let`` names values worked out once (per
    member) for ``test``, the message and ``args``.
    """

    items: ExprText | None = None
    """The members to check one by one (a list: `sets.colours`, a list field such as
    `ships`); leave it out to check the record once."""
    item: Name = "item"
    """The name each member is read by, in `let`, `test`, `args`, `message` and `field`."""
    let: dict[Name, ExprText] = {}
    """Names for values `test`, `args` and the message share, worked out once (for each
    member); each sees the ones before it."""
    test: ExprText
    """What must hold (for each member)."""
    field: str = ""
    """Where a failure is reported: a field of the record (`influence`), a field inside it
    (`cubes.supply`); `{item}` (the name `item` gives, in braces) stands for the member:
    its key in a record (`influence.{colour}`) or its place in a list (`ships.{ship}`).
    Empty: the record itself."""
    message: AuthorText
    """What the refusal says; `{name}` shows an `args` value, a `let` name or the member."""
    args: dict[Name, ExprText] = {}
    """More values the message shows, by placeholder name."""


class RecordFormat(Model):
    fields: dict[Name, FieldSpec] = {}
    constraints: list[Constraint] = []


class PlayersFormat(RecordFormat):
    min: Bound = 1
    max: Bound
    draw: Draw | None = None
    """How often each number of players comes up in drawn tables (weights, or a typical
    range); without it, uniformly."""


class StateFormat(Model):
    description: AuthorText
    players: PlayersFormat
    table: RecordFormat = RecordFormat.model_construct()  # (as Game.translation's)


# --------------------------------------------------------------------------- actions


class Condition(Model):
    """A test with the reason shown when it fails."""

    test: ExprText
    """The expression that must hold."""
    fails: Text
    """Why it failed, as readers see it (a note or a reason for not winning)."""


class Part(Model):
    when: ExprText = "True"
    """Whether the part applies."""
    value: ExprText
    """Its points (in `weighted_counts`' `multiplier`: what it adds to the kind's multiplier)."""
    note: Text
    """The line of the breakdown that explains it; `{points}` and the `args` are filled in."""
    args: dict[Name, ExprText] = {}
    """Values for the note's placeholders, by name, each an expression."""


def _not_installed(schema: dict[str, Any]) -> None:
    # so that an editor's schema matches exactly one operation: an op no installed
    # operation has (the spec check refuses it, located, with the operations there are)
    schema["properties"]["op"]["not"] = {"enum": list(operations.installed())}


class PluginComponent(Model):
    """An operation a plugin provides (see :mod:`rulepress.model.operations`).

    Its fields besides ``op`` are the plugin's own, validated against the
    plugin's model as the built-in operations' are. An ``op`` that no installed
    operation has is kept as written here and reported by the spec check,
    located, with the operations that are installed.
    """

    model_config = ConfigDict(
        extra="allow", frozen=True, strict=True, json_schema_extra=_not_installed
    )

    op: Name
    """The operation's name, as its plugin registers it."""

    @property
    def config(self) -> dict[str, Any]:
        """The component's fields besides ``op``, as written."""
        return dict(self.__pydantic_extra__ or {})


def _operation_tag(value: Any) -> str:
    op = value.get("op") if isinstance(value, dict) else getattr(value, "op", None)
    return op if isinstance(op, str) and op in operations.installed() else "plugin"


@cache
def component_model(op: str) -> type[BaseModel]:
    """The model of a component of the installed operation ``op``: its fields and ``op``.

    rulepress's own operations declare ``op`` in their model; a plugin's model
    has only its own fields (:mod:`rulepress.model.operations`), so ``op`` is
    added to it here, as the one value it may take.
    """
    model = operations.installed()[op].model
    if "op" in model.model_fields:
        return model
    plugin: type[BaseModel] = create_model(
        model.__name__,
        __base__=model,
        __module__=model.__module__,
        __doc__=model.__doc__,
        # (a Literal of a value known only now: no static type can name it)
        op=(Literal[op], ...),  # type: ignore[arg-type]
    )
    return plugin


def component_models() -> list[type[BaseModel]]:
    """The models a score's ``component`` can be, in the registry's order, unknown ops' last."""
    return [*(component_model(op) for op in operations.installed()), PluginComponent]


@cache
def component_union() -> Any:
    """A score's ``component`` as a type: a union of the operations, chosen by ``op``.

    Made when it is first needed (a model's schema is built then, see
    :class:`Model`), not when this module is imported: the operations'
    modules import this one, and the registry imports them.
    """
    members = [Annotated[component_model(op), Tag(op)] for op in operations.installed()]
    members.append(Annotated[PluginComponent, Tag("plugin")])
    return Annotated[Union[tuple(members)], Discriminator(_operation_tag)]  # noqa: UP007


#: the mark of a score's component type: walkers over the model's types (the catalogs'
#: extractor, the author's reference) read :func:`component_union` where they find it
COMPONENT = GetPydanticSchema(lambda _, handler: handler.generate_schema(component_union()))
#: a score's component: one of the installed operations (see :func:`component_union`)
Component = Annotated[BaseModel, COMPONENT]


class Score(Model):
    """One scoring line per player; ``let`` names values its expressions share."""

    id: Name
    """The score's id: later steps read its points by it, and examples state them."""
    title: Text
    """The score line's title."""
    let: dict[Name, ExprText] = {}
    """Values the component's expressions share, by name; each sees those before it."""
    component: Component
    """The operation that gives the points (see the operations below)."""


class Update(Model):
    """Changes one field of every player for whom ``when`` holds."""

    when: ExprText
    """Whether the player's field changes."""
    set: str
    """The field that changes: `name` or `record.field` of the player."""
    value: ExprText
    """Its new value."""
    note: Text
    """What the report says changed (`{player}`, `{before}`, `{after}` and the `args`)."""
    args: dict[Name, ExprText] = {}
    """Values for the note's placeholders, by name."""


class Criterion(Model):
    id: Id
    """The criterion's id (examples state `decided_by` with it)."""
    key: ExprText
    """The value compared, per player."""
    order: Literal["highest", "lowest"]
    """Whether the `highest` or the `lowest` value ranks first."""
    label: Text
    """How the tie-break trace names it."""
    when: ExprText = "True"
    """Whether the game uses the criterion at all: an expression of the table (`ruling`,
    `param`, `n_players`, and `places`, the number of winning places), so a ruling can
    leave a tie-break out. A criterion left out ranks and places nobody."""


class Lookup(Model):
    table: Id
    """The table's id."""
    key: ExprText
    """The integer key (usually `n_players`)."""


class Winners(Model):
    eligible: Condition
    """Who can win; a player who cannot is shown the reason."""
    count: int | Lookup
    """How many players win: a number, or a table lookup."""
    criteria: list[Criterion] = Field(min_length=1)
    """The ranking criteria, in order: each later one only splits players the earlier ones
    left tied."""
    final_tie: Literal["share", "report"] | ExprText
    """Players still tied after every criterion: `share` the place, or `report` the tie
    unresolved (none of them takes it); or an expression of the table (as a criterion's
    `when`) that gives `'share'` or `'report'`, when a ruling chooses."""
    places_among: Literal["eligible", "all"] | ExprText = "eligible"
    """Who the places are counted among: `eligible` (a player who cannot win takes no place,
    the next who can takes it), or `all` (the criteria place every player, and a place that
    falls to a player who cannot win stays empty); or an expression of the table that gives
    `'eligible'` or `'all'`."""
    final_tie_note: Text
    """What the report says of such a tie."""


class Weight(Model):
    """A case of a ballot's weight: when it holds, the votes per unit, the rules and why."""

    when: ExprText = "True"
    """Whether the case applies to the ballot (the cases are tried in order)."""
    value: ExprText
    """Votes per unit when it does."""
    rules: list[RuleNumber] = []
    """The rules that give the ballot this weight (cited on the ballot's line)."""
    because: Text | None = None
    """Why the ballot counts as it does, for the reader (`{weight}` and the ballot's `args`)."""
    stage: Id | None = None
    """The stage of the tally from which the case applies (a Rider's effect: later than the
    first); before it, the case is passed over."""


class TallyStage(Model):
    """A stage of counting (initial totals, Riders, action cards): totals are shown after each."""

    id: Id
    """The stage's id (ballots and weight cases name it)."""
    title: Text
    """What the totals after the stage are called."""
    rules: list[RuleNumber] = []
    """The rules of the stage (cited on its totals)."""


class Placement(Model):
    """Units of each winning candidate moved after the vote (cubes onto a council track)."""

    count: ExprText
    """How many units of each winner are moved."""
    places: list[Text] = Field(min_length=1)
    """Where the winner of each place goes, first place first (winners past the list: none)."""
    rules: list[RuleNumber] = []
    """The rules that move them."""
    note: Text
    """The report's line for one winner: `{units}` (how many of which), `{candidate}`,
    `{place}` (the `places` entry)."""


class Ballots(Model):
    """One kind of ballot in a tally (cubes in vote trays, cards added as votes)."""

    items: ExprText
    """The ballots (a list, usually a field of the table)."""
    item: Name = "ballot"
    """The name each ballot is read by."""
    player: ExprText
    """The id of the player who cast it."""
    target: ExprText
    """The candidate it is cast for."""
    units: ExprText = "1"
    """How many units it holds (cubes in a tray)."""
    unit: ExprText = "''"
    """What kind of unit it is (a cube's colour), shown and used by `weight`."""
    weight: ExprText = "1"
    """Votes per unit (or give `weights`, which also say why)."""
    weights: list[Weight] = []
    """Votes per unit as cases, each with its rules and reason: the first case that holds
    gives the weight; instead of `weight`."""
    stage: Id | None = None
    """The stage of the tally (`stages`) at which these ballots are cast (else the first)."""
    route: ExprText | None = None
    """Where the ballot goes after the vote: one of the tally's `routes` (may read `winners`);
    given exactly when the tally declares routes."""
    note: Text
    """The line of the tally's trace for the ballot."""
    args: dict[Name, ExprText] = {}
    """Values for the note's placeholders, by name."""


class Tally(Model):
    """A vote over candidates: weighted ballots, a ranking, ties by an order list.

    After the step, ``<id>.winners``, ``<id>.ranking`` and ``<id>.totals`` can
    be read by later steps. With ``routes``, every ballot is routed to a
    destination named there (for example back to its owner, or out of the
    game); a vote whose ballots stay where they are declares none.
    """

    id: Name
    """The tally's id: later steps read `<id>.winners`, `<id>.ranking` and `<id>.totals`."""
    title: Text
    """The tally's title."""
    candidates: Labelled
    """The candidates, with the words readers see, or `sets.<name>`."""
    ballots: list[Ballots] = Field(min_length=1)
    """The kinds of ballot counted."""
    places: ExprText
    """How many candidates win."""
    tie_order: ExprText | None = None
    """The candidates in tie-break order, earliest first; without one, the order of
    `candidates`."""
    floor: ExprText | None = None
    """The lowest total a candidate ranks with (an integer, or `None` for no floor), read
    before ranking: a final total below it is raised to it, and ranking and ties use the
    raised totals. Written `by_ruling` when a ruling decides whether totals stop at a floor."""
    floor_note: Text | None = None
    """What the trace says of a total raised to the floor (`{candidate}`, `{votes}`: the
    total as counted, `{floor}`); given exactly when `floor` is."""
    tie_note: Text
    """What the trace says of a tie (`{tied}`, `{votes}`)."""
    tie_rules: list[RuleNumber] = []
    """The rules that break ties (cited on each tie)."""
    tie_rulings: list[RulingName] = []
    """The rulings that say how ties are broken (named on the ties, when there are any)."""
    stages: list[TallyStage] = []
    """The stages of counting, in order, with the totals after each reported (none: only the
    final totals)."""
    routes: dict[Id, Text] = {}
    """Where ballots can go, with the words readers see (none: ballots are not routed)."""
    route_rules: dict[Id, list[RuleNumber]] = {}
    """The rules that send ballots along a route, by route (cited where the cubes go)."""
    placement: Placement | None = None
    """Units of each winner moved after the vote, and where (reported with the flows)."""


class Step(Model):
    number: StepNumber
    """The step's number: `4`, or `4a` for a sub-step of step 4."""
    title: Text
    """The step's title."""
    text: Text
    """What the step says to do, as readers see it."""
    rules: list[RuleNumber] = []
    """The rules it applies (cited on every line it scores)."""
    steps: list["Step"] = []
    """Its sub-steps."""
    updates: list[Update] = []
    """Changes to the players' fields, made first."""
    tally: Tally | None = None
    """A vote the step settles."""
    score: Score | None = None
    """A score line for every player."""
    winners: Winners | None = None
    """Who wins (once per sequence, in its last scoring step)."""
    translator_note: str = ""
    """A comment for translators on the step's messages."""
    source: Provenance | None = None
    """Where the step comes from: a document's passage, rulings, table-state fields."""


def all_rules(rules: list[Rule]) -> Iterator[Rule]:
    """Every rule and sub-rule, in reading order (a rule before its sub-rules)."""
    for rule in rules:
        yield rule
        yield from all_rules(rule.rules)


def all_steps(steps: list[Step]) -> Iterator[Step]:
    """Every step and sub-step, in reading order (a step before its sub-steps)."""
    for step in steps:
        yield step
        yield from all_steps(step.steps)


class Sequence(Model):
    """An ordered procedure; the scorer can execute it over a table state.

    ``state`` names the format of the table states it runs on. With a
    ``total_label`` each player's lines add up to a total (points, prestige);
    without one the lines are separate amounts (cubes paid, power gained).
    """

    id: Id
    title: Text
    text: Text
    rules: list[RuleNumber] = []
    state: Id
    total_label: Text | None = None
    show: dict[Name, Text] = {}
    steps: list[Step] = Field(min_length=1)
    translator_note: str = ""


class Scorer(Model):
    """Which sequence ``rulepress score`` executes when a state names none."""

    sequence: Id


# --------------------------------------------------------------------------- examples


class Expectation(Model):
    """What an example's text states; only what is given is compared."""

    players: dict[StateId, dict[str, Any]] = {}
    winners: list[StateId] | None = None
    decided_by: str | None = None
    tallies: dict[Name, dict[str, Any]] = {}


class Example(Model):
    id: Id
    title: Text
    rules: list[RuleNumber] = Field(min_length=1)
    text: Text
    sequence: Id | None = None
    variants: list[RulingName] = []
    state: dict[str, Any]
    expect: Expectation
    translator_note: str = ""


class TermRendering(Model):
    """An approved translation of a glossary term, and the forms QA accepts for it.

    Czech inflects: ``forms`` lists the case forms a translation may use
    ("pole zrady", "poli zrady", …). Without ``forms`` only ``term`` counts.
    ``reading`` is the term's reading in kana, for a language whose script has
    no alphabetical order of its own: a Japanese glossary is sorted by it (五十音順).
    """

    term: AuthorText
    forms: list[AuthorText] = []
    reading: Annotated[str, AfterValidator(_pattern(KANA_RE, "reading (kana only)"))] = ""


class VocabularyEntry(Model):
    """Recurring vocabulary outside the glossary: one approved word and the variants QA flags.

    The glossary holds the game's own terms; words such as *tie*, *board* or
    *draw* are not game terms, yet translations drift between synonyms for
    them. An entry names the approved rendering (``term`` and its accepted
    ``forms``, case forms in Czech) and the variants to ``avoid``: a msgstr
    that uses one of them gets a QA warning naming ``term``. Each variant is
    matched as a whole word, so every inflected form to flag is listed.
    """

    term: AuthorText
    forms: list[AuthorText] = []
    avoid: list[AuthorText] = Field(min_length=1)
    #: why this word was chosen (a review, a published edition); for translators only
    note: str = ""

    @model_validator(mode="after")
    def _avoid_is_not_approved(self) -> "VocabularyEntry":
        # a variant that is also an accepted form would flag every correct use
        approved = {f.casefold() for f in (self.term, *self.forms)}
        both = [v for v in self.avoid if v.casefold() in approved]
        if both:
            raise ValueError(f"{', '.join(map(repr, both))} is both approved and avoided")
        return self


class LanguageTermbase(Model):
    """One language's termbase: glossary ids mapped to their renderings, and ``vocabulary``.

    The glossary ids are the mapping's own keys (as in every termbase file
    since the first), so they are pydantic's *extra* items, each validated as
    a :class:`TermRendering` and located like any other key; ``vocabulary``
    is the one reserved key, keyed by the English word or phrase.
    """

    model_config = ConfigDict(extra="allow", frozen=True, strict=True)
    __pydantic_extra__: dict[str, TermRendering] = Field(init=False)

    vocabulary: dict[AuthorText, VocabularyEntry] = {}

    @property
    def terms(self) -> dict[str, TermRendering]:
        """The approved renderings of glossary terms, by term id."""
        return self.__pydantic_extra__ or {}


class ReferenceCard(Model):
    """What the printed reference card shows, and on which format by default."""

    sequences: list[Id] = Field(min_length=1)
    tables: list[Id] = []
    format: Annotated[str, Field(min_length=2)] = "a5"
    columns: int = Field(default=1, ge=1, le=3)


class StepCards(Model):
    """Cards with one step each, for print-and-play decks."""

    sequences: list[Id] = Field(min_length=1)
    format: Annotated[str, Field(min_length=2)] = "poker"


class Publishing(Model):
    reference_card: ReferenceCard
    step_cards: StepCards | None = None
    rulebook_format: Annotated[str, Field(min_length=2)] = "a4"
    #: by language, the CMYK output profile (an ICC file) its press files are meant
    #: for: a file in the game's folder (a spec reads nothing outside it).
    #: ``--icc-profile`` overrides it; without either, Ghostscript's SWOP profile
    #: (rulepress.print.profiles)
    output_profiles: dict[Lang, Annotated[str, Field(min_length=1)]] = {}
    #: whether each chapter of the rulebook starts on a new page
    chapter_breaks: bool = True
    #: by glossary term id, an SVG icon (a file in the game's folder) that print sets
    #: before the term where cards name it (checked as untrusted: rulepress.print.icons)
    icons: dict[Id, Annotated[str, Field(min_length=1)]] = {}


# --------------------------------------------------------------------------- the spec


class Spec(Model):
    """Every section of one game's spec, merged from its YAML files."""

    game: Game
    #: the documents the spec was made from; once any is listed, every rule, step,
    #: parameter, table row and glossary entry names its source (rulepress.checks.sources)
    sources: list[SourceText] = []
    #: what players need that those documents do not give (rulepress.checks.sources)
    not_in_source: list[NotInSource] = []
    #: the component cards that make exceptions to the rules, by the card's id
    card_exceptions: list[CardException] = []
    rules: list[Rule] = Field(min_length=1)
    external_rules: list[ExternalRule] = []
    parameters: dict[Name, Parameter] = {}
    glossary: list[Term] = []
    tables: list[Table] = []
    rulings: list[Ruling] = []
    sequences: list[Sequence] = []
    vocabulary: dict[StateId, Text] = {}
    #: named lists of ids, used as ``sets.<name>`` (see :mod:`rulepress.model.sets`)
    sets: dict[Name, list[SetEntry]] = {}
    termbase: dict[Lang, LanguageTermbase] = {}
    field_types: dict[Name, FieldSpec] = {}
    table_states: dict[Id, StateFormat]
    scorer: Scorer
    publishing: Publishing | None = None
    examples: list[Example] = []
    #: the last audit of the provenance, for ``rulepress provenance --audit`` (rulepress.model.audit)
    audit: Audit | None = None

    #: the sections that are lists and may be split over several files
    LIST_SECTIONS: ClassVar[frozenset[str]] = frozenset(
        {
            "sources",
            "not_in_source",
            "card_exceptions",
            "rules",
            "external_rules",
            "glossary",
            "tables",
            "rulings",
            "sequences",
            "examples",
        }
    )

    @model_validator(mode="wrap")
    @classmethod
    def _named_sets(cls, data: Any, handler: ModelWrapValidatorHandler["Spec"]) -> "Spec":
        # every sets.<name> inside the spec is resolved from this spec's own sets
        with resolving(data):
            return handler(data)
