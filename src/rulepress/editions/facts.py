"""The facts of a worked example's result, and the spec's words for them.

A fact is what an example's text may state, or what its score gives: a
player's points on one score line (or one part of it), total, rank and
whether they can win; the winners and what decided them; a vote's totals,
ranking and winners. Each is keyed by its subject (a player's id, ``tally:``
and a vote's id, or nothing for the game) and its name. :class:`FactNames`
turns a fact into a :class:`~.model.ValueChange` that carries the spec's
words for it (the score line's title, the criterion's label, a candidate's
word), so that no writer has to show a raw id.
"""

from __future__ import annotations

from typing import Any

from rulepress.editions.model import Text, ValueChange
from rulepress.model.spec_model import Example, Spec, Step
from rulepress.scoring.result import ScoreResult
from rulepress.yamlsrc import DataPath

#: (subject, fact): ("Ada", "total"), ("tally:council", "winners"), ("", "decided_by")
Fact = tuple[str, str]
TALLY = "tally:"


def stated_facts(example: Example) -> dict[Fact, Any]:
    """What an example's text states, one value per fact."""
    expect = example.expect
    out: dict[Fact, Any] = {}
    for pid, facts in expect.players.items():
        out.update({(pid, key): value for key, value in facts.items()})
    for tally, facts in expect.tallies.items():
        out.update({(TALLY + tally, key): value for key, value in facts.items()})
    if expect.winners is not None:
        out[("", "winners")] = sorted(expect.winners)
    if expect.decided_by is not None:
        out[("", "decided_by")] = expect.decided_by
    return out


def result_facts(result: ScoreResult) -> dict[Fact, Any]:
    """A result's facts, named as :func:`stated_facts` names the stated ones."""
    out: dict[Fact, Any] = {}
    for player in result.players:
        for line in player.lines:
            out[(player.id, line.score)] = line.points
        if player.total is not None:
            out[(player.id, "total")] = player.total
        if result.winners is not None:
            out[(player.id, "eligible")] = player.eligible
            out[(player.id, "rank")] = player.rank
    for tally in result.tallies:
        out[(TALLY + tally.id, "totals")] = tally.totals
        out[(TALLY + tally.id, "winners")] = tally.winners
    if result.winners is not None:
        out[("", "winners")] = sorted(result.winners.winners)
        out[("", "decided_by")] = result.winners.decided_by
    return out


class FactNames:
    """The words of one spec for facts: score titles, criteria, votes and their candidates."""

    def __init__(self, spec: Spec, by_path: dict[DataPath, str]) -> None:
        def text(path: DataPath, english: str) -> Text:
            return Text(context=by_path.get(path, ""), text=english)

        self.scores: dict[str, Text] = {}
        self.criteria: dict[str, Text] = {}
        self.tallies: dict[str, Text] = {}
        self.candidates: dict[str, dict[str, Text]] = {}
        self.vocabulary = {k: text(("vocabulary", k), v) for k, v in spec.vocabulary.items()}
        for s, seq in enumerate(spec.sequences):
            stack: list[tuple[Step, DataPath]] = [
                (step, ("sequences", s, "steps", i)) for i, step in enumerate(seq.steps)
            ]
            while stack:
                step, path = stack.pop()
                stack += [(sub, (*path, "steps", i)) for i, sub in enumerate(step.steps)]
                if step.score is not None:
                    self.scores[step.score.id] = text((*path, "score", "title"), step.score.title)
                if step.winners is not None:
                    for c, crit in enumerate(step.winners.criteria):
                        where = (*path, "winners", "criteria", c, "label")
                        self.criteria[crit.id] = text(where, crit.label)
                if step.tally is not None:
                    tally = step.tally
                    self.tallies[tally.id] = text((*path, "tally", "title"), tally.title)
                    self.candidates[tally.id] = {
                        k: text((*path, "tally", "candidates", k), v)
                        for k, v in tally.candidates.items()
                    }

    def change(self, fact: Fact, old: Any, new: Any) -> ValueChange:
        """A fact's two values, with the words a writer shows for the fact and its ids."""
        subject, name = fact
        key = f"{subject}.{name}" if subject else name
        title: Text | None = None
        part: Text | None = None
        words: dict[str, Text] = {}
        if subject.startswith(TALLY):
            tally = subject.removeprefix(TALLY)
            title = self.tallies.get(tally)
            words = self.candidates.get(tally, {})
        elif name == "decided_by":
            words = self.criteria
        elif name not in ("total", "rank", "eligible", "winners"):
            score, _, piece = name.partition(".")
            title = self.scores.get(score)
            part = self.vocabulary.get(piece) if piece else None
            if piece and part is None:
                part = Text(context="", text=piece)
        player = subject if subject and not subject.startswith(TALLY) else None
        used = {w for w in (old, new) if isinstance(w, str)} | {
            k for v in (old, new) if isinstance(v, dict) for k in v
        }
        if player is not None and player in self.vocabulary:
            # a player named by a word of the spec (Brink's colours: blue), shown as it
            words = {**words, player: self.vocabulary[player]}
            used.add(player)
        return ValueChange(
            key=key,
            old=old,
            new=new,
            player=player,
            fact=name if title is None or subject.startswith(TALLY) else "points",
            title=title,
            part=part,
            words={k: w for k, w in words.items() if k in used},
        )


def fact_changes(old: dict[Fact, Any], new: dict[Fact, Any], names: FactNames) -> list[ValueChange]:
    """Each fact whose value differs (None: not stated, or not given), in the order first met."""
    keys = list(dict.fromkeys([*old, *new]))
    return [names.change(k, old.get(k), new.get(k)) for k in keys if old.get(k) != new.get(k)]
