"""The scorer's report as a page tree: votes, one table per player, the winners.

Every decision of the report is taken here: which lines it has and in which
order, their labels in the reader's language (filled with
:func:`~rulepress.render.patterns.fill_text`, which replaces only the named
``{placeholders}`` it is given: a translation cannot reach attributes
(``{0.__class__}``) or crash the report with an unknown name), how the
pieces of a line are joined (the language's punctuation), the quotes around
a ruling's title. A writer only lays the tree out: the terminal
(:mod:`rulepress.render.text_writer`), the site
(:mod:`rulepress.sphinx_ext.doctree`) or print
(:mod:`rulepress.render.print_writer`).

Reads only the result data (:mod:`rulepress.scoring.result`), so what the
report shows and what ``--format json`` gives can never disagree. Player ids,
agenda texts and notes are untrusted text: they go into :class:`~rulepress.render.tree.Text`
nodes as they are, and each writer shows them safely (the terminal's
:func:`~rulepress.render.text_writer.visible`).

The shape, which the terminal writer turns into the familiar layout:

* one :class:`~rulepress.render.tree.Section`, the report, titled with the game,
  sequence and spec version; its first paragraph says the rulings;
* what changed during the sequence: a paragraph and a
  :class:`~rulepress.render.tree.Group` of events under it;
* a section per vote, per player (a table with the score lines, their notes
  under them, the total as its last row) and for the winners.
"""

from __future__ import annotations

from collections.abc import Callable

from rulepress.i18n.typography import quote
from rulepress.model import Spec
from rulepress.render import tree
from rulepress.render.context import TALLY_FACTS, IdNames, listed, option_title, route, votes
from rulepress.render.patterns import (
    BOTH,
    DETAIL,
    PAIR,
    RULES,
    SPEC_VERSION,
    UNITS,
    Joined,
    fill_text,
    side_by_side,
)
from rulepress.scoring.result import PlayerResult, ScoreResult, TallyResult, WinnerResult
from rulepress.uitext import ui

#: interface labels (translated with rulepress's own catalog)
LABELS = {
    "heading": ui("report", "{game}: {sequence}"),
    "spec": SPEC_VERSION,
    "variants": ui("report", "Rulings: {variants}"),
    "no_variants": ui("report", "the spec's defaults"),
    "events": ui("report", "What changed during the sequence"),
    "step": ui("report.column", "Step"),
    # a step named in a heading: "Step 1 Council vote" (Japanese: ステップ1「評議会の投票」)
    "step_title": ui("report", "Step {step} {title}"),
    "rule": ui("report.column", "Rule"),
    "score": ui("report.column", "Score"),
    # the same column in a sequence that works out amounts (an economy), not a score
    "quantity": ui("report.column", "Quantity"),
    "points": ui("report.column", "Points"),
    "amount": ui("report.column", "Amount"),
    "can_win": ui("report.player", "can win"),
    "cannot_win": ui("report.player", "cannot win: {reason}"),
    # number-neutral: one winner or several (the conclusion says which)
    "winners": ui("report.heading", "Who wins"),
    "places": ui("report", "Step {step} ({rules}): {note}"),
    "rank": ui("report.player", "rank {rank}"),
    "votes": TALLY_FACTS["totals"],
    "ranking": TALLY_FACTS["ranking"],
    "won": TALLY_FACTS["winners"],
    "flows": TALLY_FACTS["flows"],
    "no_ballots": ui("report.tally", "No ballots were cast."),
    # how pieces of a line go together: the language's punctuation (rulepress.render.patterns)
    "pair": PAIR,
    "detail": DETAIL,
    "units": UNITS,
    "and_also": BOTH,
    "rule_list": RULES,
}

#: the columns of a player's table: step, cited rules, the line's title, its amount
PLAYER_COLUMNS: list[tree.ColumnRole] = ["number", "cites", "text", "amount"]


class _Labels(Joined):
    """The interface labels in the reader's language, and the spec's words for ids."""

    def __init__(self, translate: Callable[[str], str], spec: Spec, lang: str) -> None:
        super().__init__(translate)
        self.lang = lang
        self.names = IdNames(spec)
        self.vocabulary = self.names.vocabulary

    def __getitem__(self, key: str) -> str:
        return self.translate(LABELS[key])

    def word(self, value: object) -> str:
        return self.vocabulary.get(value, str(value)) if isinstance(value, str) else str(value)

    def name(self, tally_id: str, value: str) -> str:
        """What the reader calls an id of a vote: its candidate or route label, else its word."""
        return self.names.name(tally_id, value)

    def join(self, items: list[str]) -> str:
        """Items joined as the language joins a list ("a, b a c"; "a、b、c")."""
        return listed(items, self.lang)

    def facts(self, items: list[str]) -> str:
        """Separate facts side by side (not a list of like things): "a; b"."""
        return "".join(side_by_side(self["and_also"], [[i] for i in items], str))


# The nodes are made with ``model_construct``, without pydantic's validation: this tree
# goes from the result straight to the terminal writer, and building the node classes'
# validators (deferred until first use, and each class's includes every node type its
# children may be) took about 40 ms of ``rulepress score``, a fifth of its budget. The
# values are the result's texts and this module's labels, typed here; the writers'
# tests check that every report of every game reads back as a valid tree.


def _text(value: str) -> list[tree.Inline]:
    """Plain text as inline content (as :func:`rulepress.render.tree.text`, unvalidated)."""
    return [tree.Text.model_construct(text=value)]


def _line(text: str) -> tree.Paragraph:
    return tree.Paragraph.model_construct(children=_text(text))


def _bullets(texts: list[str]) -> list[tree.Block]:
    """``texts`` as a bulleted list, or nothing when there are none."""
    return [tree.BulletList.model_construct(items=[[_line(t)] for t in texts])] if texts else []


def _under(blocks: list[tree.Block]) -> list[tree.Block]:
    """``blocks`` as a group under the line before, or nothing when there are none."""
    return [tree.Group.model_construct(children=blocks)] if blocks else []


def _player(
    index: int,
    p: PlayerResult,
    total_label: str | None,
    shown_labels: dict[str, str],
    ranked: bool,
    LABELS: _Labels,  # noqa: N803 - reads like the module table it translates
    standing_shown: bool = True,
) -> tree.Section:
    """One player's table; ``standing_shown``: whether to say if the player can win.

    (Said only when someone cannot: "can win" under every player of a game
    where everyone can tells the reader nothing.)
    """
    facts = [LABELS.pair(shown_labels.get(k, k), LABELS.word(v)) for k, v in p.shown.items()]
    name = LABELS.word(p.id)  # a player the vocabulary has a word for ("blue": "Blue")
    head = LABELS.detail(name, LABELS.facts(facts)) if facts else name
    amount = LABELS["points" if total_label else "amount"]
    what = LABELS["score" if total_label else "quantity"]
    rows = [
        [_text(line.step), _text(LABELS.rules(line.rules))]
        + [_text(line.title), _text(str(line.points))]
        for line in p.lines
    ]
    notes = [
        [_text(note.text) for note in line.notes]
        + [_text(choice.note.text) for choice in line.rulings]
        for line in p.lines
    ]
    if total_label is not None and p.total is not None:
        rows.append([[], [], _text(total_label), _text(str(p.total))])
        notes.append([])
    table = tree.Table.model_construct(
        header=[_text(LABELS["step"]), _text(LABELS["rule"])] + [_text(what), _text(amount)],
        rows=rows,
        columns=PLAYER_COLUMNS,
        notes=notes,
    )
    body: list[tree.Block] = [table]
    if ranked:
        standing = []
        if standing_shown:
            standing.append(
                LABELS["can_win"]
                if p.eligible
                else fill_text(
                    LABELS["cannot_win"],
                    reason=p.ineligible_reason.text if p.ineligible_reason else "?",
                )
            )
        if p.rank is not None:
            standing.append(fill_text(LABELS["rank"], rank=p.rank))
        if standing:
            body.append(_line(LABELS.facts(standing)))
    return tree.Section.model_construct(
        label=f"player-{index}",
        title=_text(head),
        children=[tree.Group.model_construct(children=body)],
    )


def _tally(index: int, t: TallyResult, LABELS: _Labels) -> tree.Section:  # noqa: N803
    def name(value: str) -> str:
        return LABELS.name(t.id, value)

    def cited(text: str, rules: list[str]) -> str:
        """``text`` with the rules that decide it in front ("14.4.4: …"), if there are any."""
        return LABELS.pair(LABELS.rules(rules), text) if rules else text

    def totals(values: dict[str, int]) -> str:
        return LABELS.join([votes(name(c), str(v)) for c, v in values.items()])

    head = LABELS.detail(
        fill_text(LABELS["step_title"], step=t.step, title=t.title), LABELS.rules(t.rules)
    )
    body: list[tree.Block] = []
    if not t.ballots:
        body.append(_line(LABELS["no_ballots"]))
    ballots = []
    for b in t.ballots:
        # why the ballot counts as it does, and the rules that say so, when the spec tells
        why = cited(b.reason.text, b.rules) if b.reason is not None else LABELS.rules(b.rules)
        ballots.append(LABELS.detail(b.note.text, why) if why else b.note.text)
    body += _bullets(ballots)
    for stage in t.stages:
        label = stage.title
        if stage.rules:
            label = LABELS.detail(label, LABELS.rules(stage.rules))
        body.append(_line(LABELS.pair(label, totals(stage.totals))))
    if not t.stages:
        body.append(_line(LABELS.pair(LABELS["votes"], totals(t.totals))))
    body += _bullets([note.text for note in t.floored])
    body += _bullets([cited(note.text, t.tie_rules) for note in t.ties])
    body += _under(_bullets([choice.note.text for choice in t.tie_rulings]))
    body.append(_line(LABELS.pair(LABELS["ranking"], LABELS.join([name(c) for c in t.ranking]))))
    body.append(_line(LABELS.pair(LABELS["won"], LABELS.join([name(c) for c in t.winners]))))
    body += _under(_bullets([choice.note.text for choice in t.rulings]))
    if t.flows or t.placements:
        body.append(_line(LABELS.pair(LABELS["flows"], "").rstrip()))
    moves: list[tree.Block] = [
        _line(cited(placed.note.text, placed.rules)) for placed in t.placements
    ]
    for player, routes in t.flows.items():
        for to, units in routes.items():
            moved = LABELS.join(
                [fill_text(LABELS["units"], count=n, unit=name(unit)) for unit, n in units.items()]
            )
            where = name(to)
            if t.route_rules.get(to):
                where = LABELS.detail(where, LABELS.rules(t.route_rules[to]))
            moves.append(_line(LABELS.pair(route(LABELS.word(player), where), moved)))
    body += _under(moves)
    return tree.Section.model_construct(
        label=f"vote-{index}",
        title=_text(head),
        children=[tree.Group.model_construct(children=body)],
    )


def _winners(w: WinnerResult, LABELS: _Labels) -> tree.Section:  # noqa: N803
    places = fill_text(
        LABELS["places"], step=w.step, rules=LABELS.rules(w.rules), note=w.places_note.text
    )
    trace: list[tree.Block] = []
    if w.trace:
        trace.append(
            tree.NumberedList.model_construct(items=[[_line(row.note.text)] for row in w.trace])
        )
    # the arrow is the report's sign for "so": what the trace concludes
    trace.append(
        tree.Paragraph.model_construct(
            children=[
                tree.Text.model_construct(text="→ "),
                tree.Text.model_construct(text=w.conclusion.text),
            ]
        )
    )
    trace += _under(_bullets([choice.note.text for choice in w.rulings]))
    return tree.Section.model_construct(
        label="winners",
        title=_text(LABELS["winners"]),
        children=[_line(places), tree.Group.model_construct(children=trace)],
    )


def report_tree(
    result: ScoreResult, spec: Spec, translate: Callable[[str], str] = lambda text: text
) -> tree.Page:
    """The whole report as one section of a page.

    ``spec`` is the spec in the report's language (see :mod:`rulepress.i18n.runtime`);
    ``translate`` translates rulepress's interface labels.
    """
    LABELS = _Labels(translate, spec, result.language)  # noqa: N806
    seq = next(s for s in spec.sequences if s.id == result.sequence)
    version = fill_text(LABELS["spec"], version=result.spec_version)
    heading = fill_text(LABELS["heading"], game=spec.game.title, sequence=seq.title)
    # each ruling decided otherwise than by default: the ruling's title and its
    # option's, never their ids
    chosen = [
        LABELS.pair(quote(ruling.title, result.language), option_title(spec, option))
        for ruling in spec.rulings
        if (option := result.variants.get(ruling.id, ruling.default)) != ruling.default
    ]
    variants = LABELS.facts(chosen) if chosen else LABELS["no_variants"]
    parts: list[tree.Block] = [_line(fill_text(LABELS["variants"], variants=variants))]
    if result.events:
        parts.append(_line(LABELS["events"]))
        events: list[tree.Block] = []
        for e in result.events:
            step = fill_text(LABELS["step_title"], step=e.step, title=e.title)
            events.append(
                _line(LABELS.pair(LABELS.detail(step, LABELS.rules(e.rules)), e.note.text))
            )
            events += _under(_bullets([choice.note.text for choice in e.rulings]))
        parts.append(tree.Group.model_construct(children=events))
    parts += [_tally(i, tally, LABELS) for i, tally in enumerate(result.tallies, start=1)]
    someone_cannot_win = any(not p.eligible for p in result.players)
    ranked = result.winners is not None
    shown = dict(seq.show)
    parts += [
        _player(i, p, seq.total_label, shown, ranked, LABELS, someone_cannot_win)
        for i, p in enumerate(result.players, start=1)
    ]
    if result.winners is not None:
        parts.append(_winners(result.winners, LABELS))
    title = _text(LABELS.detail(heading, version))
    return tree.Page.model_construct(
        blocks=[tree.Section.model_construct(label="score-report", title=title, children=parts)]
    )
