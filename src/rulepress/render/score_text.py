"""The scorer's result as a terminal report: votes, one table per player, the winners.

Reads only the result data (:mod:`rulepress.scoring.result`), so what the
terminal shows and what ``--format json`` gives can never disagree.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from rulepress.scoring.result import PlayerResult, ScoreResult, TallyResult, WinnerResult
from rulepress.spec.model import Spec, Step
from rulepress.uitext import ui

#: interface labels (translated with rulepress's own catalog)
LABELS = {
    "heading": ui("report", "{game}: {sequence}"),
    "spec": ui("report", "spec version {version}"),
    "variants": ui("report", "Rulings: {variants}"),
    "no_variants": ui("report", "the spec's defaults"),
    "events": ui("report", "What changed during the sequence"),
    "step": ui("report.column", "Step"),
    "rule": ui("report.column", "Rule"),
    "score": ui("report.column", "Score"),
    "points": ui("report.column", "Points"),
    "amount": ui("report.column", "Amount"),
    "can_win": ui("report.player", "can win"),
    "cannot_win": ui("report.player", "cannot win: {reason}"),
    "winners": ui("report.heading", "Winners"),
    "places": ui("report", "Step {step} ({rules}): {note}"),
    "rank": ui("report.player", "rank {rank}"),
    "votes": ui("report.tally", "Votes"),
    "ranking": ui("report.tally", "Ranking"),
    "won": ui("report.tally", "Won"),
    "flows": ui("report.tally", "Where the cubes go"),
}


def _rules(rules: list[str]) -> str:
    return ", ".join(rules)


class _Labels:
    """The interface labels in the reader's language, and the spec's words for ids."""

    def __init__(self, translate: Callable[[str], str], spec: Spec) -> None:
        self.translate = translate
        self.vocabulary = dict(spec.vocabulary)
        self.tallies = {
            step.tally.id: step.tally
            for seq in spec.sequences
            for step in _steps(seq.steps)
            if step.tally
        }

    def __getitem__(self, key: str) -> str:
        return self.translate(LABELS[key])

    def word(self, value: object) -> str:
        return self.vocabulary.get(value, str(value)) if isinstance(value, str) else str(value)


def _steps(steps: list[Step]) -> Iterator[Step]:
    for step in steps:
        yield step
        yield from _steps(step.steps)


def _player(
    p: PlayerResult,
    total_label: str | None,
    shown_labels: dict[str, str],
    ranked: bool,
    LABELS: _Labels,  # noqa: N803 - reads like the module table it translates
) -> list[str]:
    facts = [f"{shown_labels.get(k, k)}: {LABELS.word(v)}" for k, v in p.shown.items()]
    head = f"{p.id}" + (f"  ({'; '.join(facts)})" if facts else "")
    titles = [len(line.title) for line in p.lines] + [len(total_label or ""), 12]
    width_title = max(titles)
    width_rule = max([len(_rules(line.rules)) for line in p.lines] + [len(LABELS["rule"])])
    out = [head, "-" * len(head)]
    out.append(
        f"  {LABELS['step']:<5} {LABELS['rule']:<{width_rule}}  "
        f"{LABELS['score']:<{width_title}} {LABELS['points' if total_label else 'amount']:>7}"
    )
    for line in p.lines:
        out.append(
            f"  {line.step:<5} {_rules(line.rules):<{width_rule}}  "
            f"{line.title:<{width_title}} {line.points:>7}"
        )
        out.extend(f"  {'':<5} {'':<{width_rule}}    · {note.text}" for note in line.notes)
    if total_label is not None and p.total is not None:
        out.append(f"  {'':<5} {'':<{width_rule}}  {total_label:<{width_title}} {p.total:>7}")
    if ranked:
        standing = (
            LABELS["can_win"]
            if p.eligible
            else LABELS["cannot_win"].format(
                reason=p.ineligible_reason.text if p.ineligible_reason else "?"
            )
        )
        if p.rank is not None:
            standing += f", {LABELS['rank'].format(rank=p.rank)}"
        out.append(f"  {standing}")
    return out


def _tally(t: TallyResult, LABELS: _Labels) -> list[str]:  # noqa: N803
    head = f"{LABELS['step']} {t.step} {t.title} ({_rules(t.rules)})"
    out = [head, "-" * len(head)]
    out.extend(f"  · {b.note.text}" for b in t.ballots)
    out.append(f"  {LABELS['votes']}: " + ", ".join(f"{c} {v}" for c, v in t.totals.items()))
    out.extend(f"  · {note.text}" for note in t.ties)
    out.append(
        f"  {LABELS['ranking']}: {', '.join(t.ranking)}; {LABELS['won']}: {', '.join(t.winners)}"
    )
    out.append(f"  {LABELS['flows']}:")
    for player, routes in t.flows.items():
        moves = "; ".join(
            f"{route}: " + ", ".join(f"{n} {unit}" for unit, n in units.items())
            for route, units in routes.items()
        )
        out.append(f"    {player}: {moves}")
    return out


def _winners(w: WinnerResult, LABELS: _Labels) -> list[str]:  # noqa: N803
    out = [LABELS["winners"], "-" * len(LABELS["winners"])]
    out.append(LABELS["places"].format(step=w.step, rules=_rules(w.rules), note=w.places_note.text))
    out.extend(f"  {i}. {row.note.text}" for i, row in enumerate(w.trace, start=1))
    out.append(f"  → {w.conclusion.text}")
    return out


def render_text(
    result: ScoreResult, spec: Spec, translate: Callable[[str], str] = lambda text: text
) -> str:
    """The whole report as text, ending with a newline.

    ``spec`` is the spec in the report's language (see :mod:`rulepress.i18n.runtime`);
    ``translate`` translates rulepress's interface labels.
    """
    LABELS = _Labels(translate, spec)  # noqa: N806
    seq = next(s for s in spec.sequences if s.id == result.sequence)
    defaults = {r.id: r.default for r in spec.rulings}
    version = LABELS["spec"].format(version=result.spec_version)
    out = [LABELS["heading"].format(game=spec.game.title, sequence=seq.title) + f" ({version})"]
    chosen = [v for k, v in result.variants.items() if defaults.get(k) != v]
    out.append(LABELS["variants"].format(variants=", ".join(chosen) or LABELS["no_variants"]))
    out.append("")
    if result.events:
        out.append(LABELS["events"])
        out.extend(
            f"  {LABELS['step']} {e.step} {e.title} ({_rules(e.rules)}): {e.note.text}"
            for e in result.events
        )
        out.append("")
    for tally in result.tallies:
        out.extend(_tally(tally, LABELS))
        out.append("")
    for p in result.players:
        out.extend(_player(p, seq.total_label, dict(seq.show), result.winners is not None, LABELS))
        out.append("")
    if result.winners is not None:
        out.extend(_winners(result.winners, LABELS))
    return "\n".join(out).rstrip() + "\n"
