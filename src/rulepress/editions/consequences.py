"""What a rule change does: every worked example of the old edition, scored under the new.

An example's result is reduced to its facts (each player's points per
score line, total, whether they can win; the winners and what decided
them; each vote's totals and winners), scored once under each edition with
the rulings the example names. An example whose facts differ is a
consequence of the change; one whose table state the new spec refuses (a
field gone, a bound narrowed, a ruling option dropped) is reported with the
reasons, located in the old edition's files.
"""

from __future__ import annotations

from typing import Any

from rulepress.editions.compare import Messages
from rulepress.editions.facts import Fact, FactNames, fact_changes, result_facts
from rulepress.editions.model import Consequence
from rulepress.errors import RulepressError
from rulepress.model import LoadedSpec
from rulepress.scoring.engine import find_sequence, score
from rulepress.scoring.examples import run_example
from rulepress.states import validate_state


def rescore(
    old: LoadedSpec, new: LoadedSpec, om: Messages, nm: Messages
) -> tuple[list[Consequence], int]:
    """Each old example whose result under ``new`` is not its result under ``old``; the count run."""
    out = []
    messages = om
    names = FactNames(new.spec, nm.by_path)
    for index, example in enumerate(old.spec.examples):
        title = messages.text(("examples", index, "title"), example.title)
        before = result_facts(run_example(old, index))
        problems: list[str] = []
        after: dict[Fact, Any] | None = None
        try:
            _, seq = find_sequence(new.spec, example.sequence)
            fmt = new.spec.table_states[seq.state]
            state, found = validate_state(
                fmt,
                new.spec.parameters,
                example.state,
                old.sources,  # the state is the old edition's: its problems are located there
                ("examples", index, "state"),
                new.spec.game.id,
                sets=new.spec.sets,
            )
            problems = [str(p) for p in found]
            if not problems:
                result = score(new, state, sequence=example.sequence, variants=example.variants)
                after = result_facts(result)
        except RulepressError as exc:  # the sequence, a variant or a bound the new spec lacks
            problems = exc.render().splitlines()
        if after is None:
            out.append(
                Consequence(
                    kind="unscorable", id=example.id, title=title, changes=[], problems=problems
                )
            )
            continue
        changes = fact_changes(before, after, names)
        if changes:
            out.append(
                Consequence(
                    kind="changed", id=example.id, title=title, changes=changes, problems=[]
                )
            )
    return out, len(old.spec.examples)
