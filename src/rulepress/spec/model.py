"""The typed, frozen model of a game's rules spec.

One :class:`Spec` per game, built from every YAML file of
``rules_spec/<game>/``. The model holds data only: loading and located
error reporting live in :mod:`rulepress.spec.load`, cross-reference checks
in :mod:`rulepress.spec.check`, and behaviour in :mod:`rulepress.scoring`.

Reader-facing text fields are English source text and may use this inline
markup (see :mod:`rulepress.spec.text`): ``{rule:16.4.8}``, ``{param:name}``,
``{ruling:id}``, ``{term:id}`` and ``[words](term:id)``.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, ClassVar, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field

RULE_NUMBER_RE = re.compile(r"^[0-9]+(\.[0-9]+)*$")
STEP_NUMBER_RE = re.compile(r"^[0-9]+[a-z]?$")
ID_RE = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")
NAME_RE = re.compile(r"^[a-z][a-z0-9_]*$")


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


RuleNumber = Annotated[
    str,
    BeforeValidator(_must_be_text("a rule number", "16.4")),
    AfterValidator(_pattern(RULE_NUMBER_RE, "rule number (digits separated by dots)")),
]
StepNumber = Annotated[
    str,
    BeforeValidator(_must_be_text("a step number", "4")),
    AfterValidator(_pattern(STEP_NUMBER_RE, "step number (e.g. 4 or 4a)")),
]
Id = Annotated[str, AfterValidator(_pattern(ID_RE, "id (lower-case words joined by '-')"))]
Name = Annotated[str, AfterValidator(_pattern(NAME_RE, "name (lower_snake_case)"))]
Lang = Literal["en", "cs", "ja"]


class FieldKind:
    """Marks a string field for the checks and the translation extractor."""

    def __init__(self, kind: str) -> None:
        self.kind = kind


#: reader-facing text that may contain inline markup (translatable)
PROSE = FieldKind("prose")
#: an expression in the language of :mod:`rulepress.spec.expr`
EXPR = FieldKind("expr")

Text = Annotated[str, Field(min_length=1), PROSE]
ExprText = Annotated[
    str, BeforeValidator(lambda v: str(v) if isinstance(v, bool | int) else v), EXPR
]


class Model(BaseModel):
    """Base: unknown keys are errors, instances are immutable."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


# --------------------------------------------------------------------------- game


class SourceDocument(Model):
    language: Lang | Literal["de", "pl"]
    document: Text
    note: Annotated[str, PROSE] = ""


class Game(Model):
    id: Id
    title: Text
    edition: Text
    version: Text
    designer: str = ""
    publisher: str = ""
    players: Text
    source: SourceDocument
    languages: list[Lang]
    summary: Text


# --------------------------------------------------------------------------- rules


class Rule(Model):
    number: RuleNumber
    title: Text
    text: Annotated[str, PROSE] = ""
    rules: list[Rule] = []


class ExternalRule(Model):
    """A rule the spec cites but does not reproduce (e.g. from another manual)."""

    number: RuleNumber
    title: Text
    source: Text
    summary: Annotated[str, PROSE] = ""


class Parameter(Model):
    value: int
    description: Text
    rule: RuleNumber


class Term(Model):
    id: Id
    term: Text
    definition: Text
    rules: list[RuleNumber] = []


class TableRow(Model):
    min: int
    max: int | None = None
    value: int


class Table(Model):
    """A lookup table from an integer key to an integer value, by ranges."""

    id: Id
    title: Text
    rule: RuleNumber
    key_label: Text
    value_label: Text
    rows: list[TableRow] = Field(min_length=1)


class RulingOption(Model):
    id: Id
    title: Text
    description: Text


class Ruling(Model):
    """What the source leaves unclear, the choice made, and the alternatives."""

    id: Id
    title: Text
    rules: list[RuleNumber] = []
    question: Text
    decision: Text
    reason: Text
    default: Id
    options: list[RulingOption] = Field(min_length=1)


# --------------------------------------------------------------------------- state format


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


class FieldSpec(Model):
    """One field of the table-state format: its type, bounds and help text."""

    type: FieldType
    description: Text
    min: Bound | None = None
    max: Bound | None = None
    choices: list[Text] = []
    default: Any = None
    optional: bool = False
    item: FieldSpec | None = None
    fields: dict[Name, FieldSpec] = {}
    unique: bool = False


class Constraint(Model):
    """A cross-field rule of the state format; ``message`` may use ``{arg}``s."""

    test: ExprText
    message: Text
    field: str = ""
    args: dict[Name, ExprText] = {}


class RecordFormat(Model):
    fields: dict[Name, FieldSpec] = {}
    constraints: list[Constraint] = []


class PlayersFormat(RecordFormat):
    min: Bound = 1
    max: Bound


class StateFormat(Model):
    description: Text
    players: PlayersFormat
    table: RecordFormat = RecordFormat()


# --------------------------------------------------------------------------- actions


class Condition(Model):
    """A test with the reason shown when it fails."""

    test: ExprText
    fails: Text


class Part(Model):
    when: ExprText = "True"
    value: ExprText
    note: Text
    args: dict[Name, ExprText] = {}


class SumComponent(Model):
    """Adds every part whose ``when`` holds."""

    op: Literal["sum"]
    parts: list[Part] = Field(min_length=1)


class FirstComponent(Model):
    """Takes the first part whose ``when`` holds (a case analysis)."""

    op: Literal["first"]
    parts: list[Part] = Field(min_length=1)


class LinesComponent(Model):
    """Scores a list of lines; continuation lines depend on the nearest base line.

    ``conditions`` decide whether a line is met; a continuation line scores
    only while its base line is met. ``restrictions`` can stop a met line from
    scoring; whether that also voids its continuations is the expression
    ``restriction_voids_continuation`` (usually a ruling).
    """

    op: Literal["lines"]
    items: ExprText
    item: Name = "line"
    continuation: ExprText = "False"
    conditions: list[Condition] = []
    restrictions: list[Condition] = []
    restriction_voids_continuation: ExprText = "False"
    value: ExprText
    label: ExprText = "''"
    voided_note: Text


Component = Annotated[SumComponent | FirstComponent | LinesComponent, Field(discriminator="op")]


class Score(Model):
    """One scoring line per player; ``let`` names values its expressions share."""

    id: Name
    title: Text
    let: dict[Name, ExprText] = {}
    component: Component


class Update(Model):
    """Changes one field of every player for whom ``when`` holds."""

    when: ExprText
    set: str
    value: ExprText
    note: Text
    args: dict[Name, ExprText] = {}


class Criterion(Model):
    id: Id
    key: ExprText
    order: Literal["highest", "lowest"]
    label: Text


class Lookup(Model):
    table: Id
    key: ExprText


class Winners(Model):
    eligible: Condition
    count: int | Lookup
    criteria: list[Criterion] = Field(min_length=1)
    final_tie: Literal["share", "report"]
    final_tie_note: Text


class Step(Model):
    number: StepNumber
    title: Text
    text: Text
    rules: list[RuleNumber] = []
    steps: list[Step] = []
    updates: list[Update] = []
    score: Score | None = None
    winners: Winners | None = None


class Sequence(Model):
    id: Id
    title: Text
    text: Text
    rules: list[RuleNumber] = []
    steps: list[Step] = Field(min_length=1)


class Scorer(Model):
    """Which sequence the reference scorer executes, and the labels it prints."""

    sequence: Id
    total_label: Text
    show: dict[Name, Text] = {}


# --------------------------------------------------------------------------- examples


class Expectation(Model):
    players: dict[str, dict[str, Any]] = {}
    winners: list[str]
    decided_by: str


class Example(Model):
    id: Id
    title: Text
    rules: list[RuleNumber] = Field(min_length=1)
    text: Text
    variants: list[Id] = []
    state: dict[str, Any]
    expect: Expectation


# --------------------------------------------------------------------------- the spec


class Spec(Model):
    """Every section of one game's spec, merged from its YAML files."""

    game: Game
    rules: list[Rule] = Field(min_length=1)
    external_rules: list[ExternalRule] = []
    parameters: dict[Name, Parameter] = {}
    glossary: list[Term] = []
    tables: list[Table] = []
    rulings: list[Ruling] = []
    sequences: list[Sequence] = []
    table_state: StateFormat
    scorer: Scorer
    examples: list[Example] = []

    #: the sections that are lists and may be split over several files
    LIST_SECTIONS: ClassVar[frozenset[str]] = frozenset(
        {"rules", "external_rules", "glossary", "tables", "rulings", "sequences", "examples"}
    )
