"""The scorer's result as a terminal report: votes, one table per player, the winners.

Reads only the result data (:mod:`rulepress.scoring.result`), so what the
terminal shows and what ``--format json`` gives can never disagree.

Player ids, agenda texts and notes come from table states, titles and labels
from specs and catalogs: all untrusted. So every line of the report goes
through :func:`visible` before it is written, which makes each piece of text
single-line and free of controls: a C0 or C1 control (CR, LF, TAB, ESC …),
DEL, U+2028/U+2029, the bidi marks (ALM, LRM, RLM) and the bidi embeddings,
overrides and isolates (U+202A–U+202E, U+2066–U+2069) are shown as
``<U+XXXX>`` (``"\r"`` becomes ``<U+000D>``, ``"\u202e"`` ``<U+202E>``). So a
player id cannot forge a report line, move the cursor, colour the terminal or
reorder the text around it, and whoever reads the report sees that the input
held something odd. The loader refuses all of these in specs and states
already (:data:`rulepress.yamlsrc.reader.CONTROLS`); this is the second line of
defence, for text that comes another way (a catalog, a state given as data).
Letters, combining marks, full-width characters and ZWJ are text and stay as
they are.

Columns are padded by display width (``wcwidth``), so Japanese full-width
text and Czech combining marks line up. Interface labels are filled with
:func:`~rulepress.render.patterns.fill_text`, which replaces only the named ``{placeholders}`` it is given:
a translation cannot reach attributes (``{0.__class__}``) or crash the
report with an unknown name.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from wcwidth import wcswidth, wcwidth

from rulepress.i18n.typography import quote, typeset
from rulepress.invisible import FORMAT_CHARACTERS
from rulepress.model import Spec
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


# controls, line/paragraph separators, bidi marks, and the invisible format characters
# (bidi embeddings/overrides/isolates, zero-width spaces, tags …: rulepress.invisible)
_INVISIBLE = re.compile(f"[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029{FORMAT_CHARACTERS}]")


def visible(text: str) -> str:
    """``text`` on one line with every control shown as ``<U+XXXX>`` (see the module docstring)."""
    return _INVISIBLE.sub(lambda m: f"<U+{ord(m.group()):04X}>", text)


def _width(text: str) -> int:
    """Columns ``text`` takes in a terminal, once made :func:`visible`."""
    shown = visible(text)
    width = wcswidth(shown)
    # -1 means a character wcwidth cannot place; count each one it can, the rest as one
    return width if width >= 0 else sum(max(wcwidth(c), 1) for c in shown)


def _left(text: str, width: int) -> str:
    return visible(text) + " " * max(0, width - _width(text))


def _right(text: object, width: int) -> str:
    shown = str(text)
    return " " * max(0, width - _width(shown)) + visible(shown)


def _rule_line(text: str) -> str:
    return "-" * _width(text)


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


def _player(
    p: PlayerResult,
    total_label: str | None,
    shown_labels: dict[str, str],
    ranked: bool,
    LABELS: _Labels,  # noqa: N803 - reads like the module table it translates
    standing_shown: bool = True,
) -> list[str]:
    """One player's table; ``standing_shown``: whether to say if the player can win.

    (Said only when someone cannot: "can win" under every player of a game
    where everyone can tells the reader nothing.)
    """
    facts = [LABELS.pair(shown_labels.get(k, k), LABELS.word(v)) for k, v in p.shown.items()]
    name = LABELS.word(p.id)  # a player the vocabulary has a word for ("blue": "Blue")
    head = LABELS.detail(name, LABELS.facts(facts)) if facts else name
    amount = LABELS["points" if total_label else "amount"]
    what = LABELS["score" if total_label else "quantity"]
    w_step = max([_width(line.step) for line in p.lines] + [_width(LABELS["step"]), 5])
    w_rule = max([_width(LABELS.rules(line.rules)) for line in p.lines] + [_width(LABELS["rule"])])
    w_title = max(
        [_width(line.title) for line in p.lines] + [_width(total_label or ""), _width(what), 12]
    )
    w_points = max([_width(str(line.points)) for line in p.lines] + [_width(amount), 7])
    blank = f"  {_left('', w_step)} {_left('', w_rule)}  "
    out = [head, _rule_line(head)]
    out.append(
        f"  {_left(LABELS['step'], w_step)} {_left(LABELS['rule'], w_rule)}  "
        f"{_left(what, w_title)} {_right(amount, w_points)}"
    )
    for line in p.lines:
        out.append(
            f"  {_left(line.step, w_step)} {_left(LABELS.rules(line.rules), w_rule)}  "
            f"{_left(line.title, w_title)} {_right(line.points, w_points)}"
        )
        out.extend(f"{blank}  · {note.text}" for note in line.notes)
        out.extend(f"{blank}  · {choice.note.text}" for choice in line.rulings)
    if total_label is not None and p.total is not None:
        out.append(f"{blank}{_left(total_label, w_title)} {_right(p.total, w_points)}")
    if ranked:
        facts = []
        if standing_shown:
            facts.append(
                LABELS["can_win"]
                if p.eligible
                else fill_text(
                    LABELS["cannot_win"],
                    reason=p.ineligible_reason.text if p.ineligible_reason else "?",
                )
            )
        if p.rank is not None:
            facts.append(fill_text(LABELS["rank"], rank=p.rank))
        if facts:
            out.append(f"  {LABELS.facts(facts)}")
    return out


def _tally(t: TallyResult, LABELS: _Labels) -> list[str]:  # noqa: N803
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
    out = [head, _rule_line(head)]
    if not t.ballots:
        out.append("  " + LABELS["no_ballots"])
    for b in t.ballots:
        # why the ballot counts as it does, and the rules that say so, when the spec tells
        why = cited(b.reason.text, b.rules) if b.reason is not None else LABELS.rules(b.rules)
        out.append(f"  · {LABELS.detail(b.note.text, why) if why else b.note.text}")
    for stage in t.stages:
        label = stage.title
        if stage.rules:
            label = LABELS.detail(label, LABELS.rules(stage.rules))
        out.append("  " + LABELS.pair(label, totals(stage.totals)))
    if not t.stages:
        out.append("  " + LABELS.pair(LABELS["votes"], totals(t.totals)))
    out.extend(f"  · {cited(note.text, t.tie_rules)}" for note in t.ties)
    out.extend(f"    · {choice.note.text}" for choice in t.tie_rulings)
    out.append("  " + LABELS.pair(LABELS["ranking"], LABELS.join([name(c) for c in t.ranking])))
    out.append("  " + LABELS.pair(LABELS["won"], LABELS.join([name(c) for c in t.winners])))
    out.extend(f"    · {choice.note.text}" for choice in t.rulings)
    if t.flows or t.placements:
        out.append("  " + LABELS.pair(LABELS["flows"], "").rstrip())
    out.extend(f"    {cited(placed.note.text, placed.rules)}" for placed in t.placements)
    for player, routes in t.flows.items():
        for to, units in routes.items():
            moved = LABELS.join(
                [fill_text(LABELS["units"], count=n, unit=name(unit)) for unit, n in units.items()]
            )
            where = name(to)
            if t.route_rules.get(to):
                where = LABELS.detail(where, LABELS.rules(t.route_rules[to]))
            out.append("    " + LABELS.pair(route(LABELS.word(player), where), moved))
    return out


def _winners(w: WinnerResult, LABELS: _Labels) -> list[str]:  # noqa: N803
    out = [LABELS["winners"], _rule_line(LABELS["winners"])]
    out.append(
        fill_text(
            LABELS["places"], step=w.step, rules=LABELS.rules(w.rules), note=w.places_note.text
        )
    )
    out.extend(f"  {i}. {row.note.text}" for i, row in enumerate(w.trace, start=1))
    out.append(f"  → {w.conclusion.text}")
    out.extend(f"    · {choice.note.text}" for choice in w.rulings)
    return out


def render_text(
    result: ScoreResult, spec: Spec, translate: Callable[[str], str] = lambda text: text
) -> str:
    """The whole report as text, ending with a newline.

    ``spec`` is the spec in the report's language (see :mod:`rulepress.i18n.runtime`);
    ``translate`` translates rulepress's interface labels.
    """
    LABELS = _Labels(translate, spec, result.language)  # noqa: N806
    seq = next(s for s in spec.sequences if s.id == result.sequence)
    version = fill_text(LABELS["spec"], version=result.spec_version)
    heading = fill_text(LABELS["heading"], game=spec.game.title, sequence=seq.title)
    out = [LABELS.detail(heading, version)]
    # each ruling decided otherwise than by default: the ruling's title and its
    # option's, never their ids
    chosen = [
        LABELS.pair(quote(ruling.title, result.language), option_title(spec, option))
        for ruling in spec.rulings
        if (option := result.variants.get(ruling.id, ruling.default)) != ruling.default
    ]
    out.append(
        fill_text(
            LABELS["variants"], variants=LABELS.facts(chosen) if chosen else LABELS["no_variants"]
        )
    )
    out.append("")
    if result.events:
        out.append(LABELS["events"])
        for e in result.events:
            step = fill_text(LABELS["step_title"], step=e.step, title=e.title)
            out.append("  " + LABELS.pair(LABELS.detail(step, LABELS.rules(e.rules)), e.note.text))
            out.extend(f"    · {choice.note.text}" for choice in e.rulings)
        out.append("")
    for tally in result.tallies:
        out.extend(_tally(tally, LABELS))
        out.append("")
    someone_cannot_win = any(not p.eligible for p in result.players)
    for p in result.players:
        ranked = result.winners is not None
        shown = dict(seq.show)
        out.extend(_player(p, seq.total_label, shown, ranked, LABELS, someone_cannot_win))
        out.append("")
    if result.winners is not None:
        out.extend(_winners(result.winners, LABELS))
    # the one place lines are joined: each is set in the report's language (no-break
    # spaces and minus signs keep their width) and made visible, so none holds a line break
    lang = result.language
    return "\n".join(visible(typeset(line, lang)) for line in out).rstrip() + "\n"
