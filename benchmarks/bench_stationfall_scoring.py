"""Benchmark: scoring large batches of generated 9-player Stationfall states.

Prints states per second for validating and for scoring with the spec-driven
engine, and the ratio to a baseline measured in the same run: a hand-written
Python scorer of the same rules (default rulings), which has no spec to
interpret. The baseline also cross-checks the engine: both must agree on
every total and every winner list, or the benchmark fails.

Scoring keeps the full trace (every line, note and tie-break step, with its
template and arguments); a note's text is rendered when first read, so a
second figure scores and then reads every note's text and arguments (as the
text and JSON writers do). A third scores without the trace
(``score(..., trace=False)``: the lines' points but not their notes, the winners
but not their tie-break trace), as a caller scoring many tables for their
outcome does (issue 32, ``rulepress impact``); it is timed in turns with the
baseline too, and cross-checked.
Last, the spec's expressions in µs per evaluation, next to Python's own
``eval`` of the same sources (see bench_expressions.py).

    .venv/bin/python benchmarks/bench_stationfall_scoring.py [--states N] [--repeat R] [--seed S]
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path
from typing import Any

from bench_expressions import measure
from rulepress import compiled
from rulepress.games import load_spec
from rulepress.scoring import score
from rulepress.scoring.result import Note, ScoreResult
from rulepress.states import validate_state
from rulepress.yamlsrc import SourceMap
from timing import best_of, paired  # benchmarks/timing.py, beside this script

ROOT = Path(__file__).resolve().parent.parent
STATES = ("live", "down", "escaped", "offsite", "annihilated")
#: the most the engine may be slower than the baseline (issue 9: 5,000/s against 44,000/s)
TARGET_RATIO = 44_000 / 5_000
#: the most the engine without its trace may be (issue 32: "at most 3× a hand-written
#: scorer", the full trace available by scoring again)
LEAN_TARGET_RATIO = 3.0
#: issue 32: checking a state takes at most this times scoring it
CHECK_RATIO = 1.0
#: issue 32: states checked and scored per second on one core, at least
END_TO_END = 5_000
NAMES = ("Security", "Medical", "Legal", "Corpsicle", "Boarder", "Pilot", "Captain")
DATA_KINDS = ("evidence", "x_secret", "digital_assistant", "nda")
INSTITUTIONS = ("authorities", "news")
#: the Secret Identities whose card lets a Guilty player win (the spec's sets.win_while_guilty,
#: ids a state's identity names in any case, as the spec's named_in matches them)
WIN_WHILE_GUILTY = ("engineer",)
#: the character states that provide Data in step 3 under each reading of the spec's ruling
#: data_providers (its options)
PROVIDERS = {
    "escaped_characters": ("escaped",),
    "surviving_characters": ("escaped", "live"),
    "escaped_or_offsite": ("escaped", "offsite"),
}


def _data(rng: random.Random) -> list[dict[str, Any]]:
    """A character's Data and the Institutions it gives each to (step 3)."""
    return [
        {
            "kind": rng.choice(DATA_KINDS),
            "to": rng.sample(INSTITUTIONS, rng.randint(0, len(INSTITUTIONS))),
        }
        for _ in range(rng.randint(0, 2))
    ]


def generate_state(rng: random.Random, players: int = 9) -> dict[str, Any]:
    ids = [f"p{i}" for i in range(players)]
    # each player's one Bribe is unused, spent elsewhere, or lies on another player's card
    placed: dict[str, list[str]] = {pid: [] for pid in ids}
    unused: dict[str, bool] = {}
    for pid in ids:
        fate = rng.random()
        unused[pid] = fate < 0.4
        if fate >= 0.7:
            placed[rng.choice([x for x in ids if x != pid])].append(pid)
    out = []
    for pid in ids:
        box = rng.randint(0, 3)
        on_cards = rng.randint(0, 8 - box)
        agenda = []
        for i in range(rng.randint(1, 5)):
            line: dict[str, Any] = {"points": rng.randint(1, 4)}
            if rng.random() < 0.2:  # a line about who holds what after step 3
                line["held_after_data"] = {
                    "institution": rng.choice(INSTITUTIONS),
                    "data": rng.choice(DATA_KINDS),
                    "held": rng.random() < 0.6,
                }
            else:
                line["met"] = rng.random() < 0.6
            if i and rng.random() < 0.3:
                line["plus"] = True
            if rng.random() < 0.2:
                line["possession"] = True
            if rng.random() < 0.2:
                line["per"] = rng.randint(0, 3)
            agenda.append(line)
        out.append(
            {
                "id": pid,
                "identity": rng.choice(("Pilot", "Pilot", "Engineer")),
                "influence_limit": rng.randint(2, 6),
                # Annihilated is left to the Antimatter, which these states leave out
                "character": {"state": rng.choice(STATES[:4]), "data": _data(rng)},
                "bonus_character": {
                    "name": rng.choice(NAMES),
                    "kind": rng.choice(("friend", "grudge")),
                    "symbols": rng.randint(1, 3),
                    "state": rng.choice(STATES),
                    "data": _data(rng),
                },
                "guilt": rng.choice(("innocent", "suspect", "guilty")),
                "agenda": agenda,
                "bribe_unused": unused[pid],
                "foreign_bribes": placed[pid],
                "cubes": {"supply": 8 - box - on_cards, "on_cards": on_cards, "betrayal_box": box},
            }
        )
    return {"players": out}


def baseline_score(
    state: dict[str, Any], data_providers: str = "escaped_characters"
) -> tuple[dict[str, int], list[str]]:
    """Stationfall's end game written directly in Python.

    Default rulings, but for who provides Data in step 3: ``data_providers`` names
    the reading (an option of that ruling, a key of PROVIDERS).
    """
    providers = PROVIDERS[data_providers]
    totals: dict[str, int] = {}
    guilt: dict[str, str] = {}
    table = state.get("table") or {}
    # what each Institution holds after step 3: what it held, and what the providers give
    held = {(h["institution"], h["data"]) for h in table.get("held_before_data") or []}
    for p in state["players"]:
        for c in (p["character"], p["bonus_character"]):
            if c["state"] in providers:
                held.update((i, d["kind"]) for d in c["data"] for i in d["to"])
    for p in state["players"]:
        g = p["guilt"]
        own = p["character"]
        evidence = any(d["kind"] == "evidence" and "authorities" in d["to"] for d in own["data"])
        if g == "guilty" and evidence and own["state"] in providers:
            g = "suspect"
        guilt[p["id"]] = g
        agenda = 0
        base_ok = True
        for line in p["agenda"]:
            holder = p["character"] if line["holder"] == "identity" else p["bonus_character"]
            barred = line["possession"] and holder["state"] != "escaped"
            about = line.get("held_after_data")
            if about is None:
                met = line["met"]
            else:
                met = ((about["institution"], about["data"]) in held) == about["held"]
            if line["plus"] and not base_ok:
                pass
            elif met and not barred:
                agenda += line["points"] * (line["per"] if line["per"] is not None else 1)
            if not line["plus"]:
                base_ok = met
        bc = p["bonus_character"]
        if bc["kind"] == "friend":
            bonus = bc["symbols"] if bc["state"] == "escaped" else 0
        else:
            bonus = bc["symbols"] if bc["state"] in ("down", "annihilated") else 0
        other = int(p["bribe_unused"]) + len(p["foreign_bribes"])
        outside = p["cubes"]["on_cards"] + p["cubes"]["betrayal_box"]
        excess = -max(0, outside - p["influence_limit"])
        totals[p["id"]] = agenda + bonus + other + excess
    n = len(state["players"])
    places = 1 if n <= 5 else 2 if n <= 8 else 3
    eligible = [
        p
        for p in state["players"]
        if guilt[p["id"]] != "guilty" or p["identity"].strip().casefold() in WIN_WHILE_GUILTY
    ]
    key = {
        p["id"]: (-totals[p["id"]], p["cubes"]["betrayal_box"], -p["cubes"]["supply"])
        for p in eligible
    }
    ordered = sorted(key, key=lambda pid: key[pid])
    winners = [pid for pid in ordered if sum(1 for q in ordered if key[q] < key[pid]) < places]
    return totals, winners


def every_note(result: ScoreResult) -> list[Note]:
    notes = [n for p in result.players for line in p.lines for n in line.notes]
    notes += [p.ineligible_reason for p in result.players if p.ineligible_reason]
    notes += [e.note for e in result.events]
    for t in result.tallies:
        notes += [b.note for b in t.ballots] + t.ties
    if result.winners is not None:
        w = result.winners
        notes += [w.places_note, w.conclusion] + [row.note for row in w.trace]
    return notes


def read_texts(result: ScoreResult) -> int:
    """Read every note's text and arguments, as a writer does; the number of characters."""
    return sum(len(n.text) + len(n.args) for n in every_note(result))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--states", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=20261130)
    args = parser.parse_args()

    loaded = load_spec(ROOT / "rules_spec" / "stationfall")
    spec = loaded.spec
    rng = random.Random(args.seed)
    raw = [generate_state(rng) for _ in range(args.states)]
    empty = SourceMap()
    fmt = spec.table_states[next(s.state for s in spec.sequences if s.id == spec.scorer.sequence)]

    def validate_all(keep: bool = True) -> list[dict[str, Any]]:
        out = []
        for data in raw:
            # as the scorer's state check calls it (scoring.state.check_state)
            state, problems = validate_state(
                fmt, spec.parameters, data, empty, (), spec.game.id, spec.sets
            )
            assert not problems, problems[0]
            if keep:
                out.append(state)
        return out

    states = validate_all()
    for state in states:  # cross-check before timing anything
        totals, winners = baseline_score(state)
        for result in (score(loaded, state), score(loaded, state, trace=False)):
            assert {p.id: p.total for p in result.players} == totals
            assert result.winners is not None
            assert sorted(result.winners.winners) == sorted(winners)

    # results are dropped as they come, as a caller streaming states would: keeping
    # thousands alive makes the timing measure the garbage collector's heap walks
    t_validate = best_of(args.repeat, lambda: validate_all(keep=False))
    t_engine, t_baseline, ratio = paired(
        args.repeat,
        lambda: [score(loaded, s).format for s in states],
        lambda: [baseline_score(s) for s in states],
    )
    t_lean, t_baseline_lean, lean_ratio = paired(
        args.repeat,
        lambda: [score(loaded, s, trace=False).format for s in states],
        lambda: [baseline_score(s) for s in states],
    )
    t_baseline = min(t_baseline, t_baseline_lean)
    t_text = best_of(args.repeat, lambda: [read_texts(score(loaded, s)) for s in states])
    n = args.states
    print(f"states: {n} generated 9-player states (seed {args.seed}), best of {args.repeat}")
    # the hot path compiled by mypyc (tools/setup.sh, where there is a C compiler) or not
    print(f"build               {compiled.build():>10}")
    print(
        f"validate            {n / t_validate:10.0f} states/s  ({t_validate * 1e6 / n:7.1f} µs/state)"
    )
    print(
        f"score (engine)      {n / t_engine:10.0f} states/s  ({t_engine * 1e6 / n:7.1f} µs/state)"
    )
    print(f"score + read texts  {n / t_text:10.0f} states/s  ({t_text * 1e6 / n:7.1f} µs/state)")
    print(
        f"score (engine, trace off) {n / t_lean:4.0f} states/s  ({t_lean * 1e6 / n:7.1f} µs/state)"
    )
    print(
        f"baseline (by hand)  {n / t_baseline:10.0f} states/s  ({t_baseline * 1e6 / n:7.1f} µs/state)"
    )
    print(
        f"engine / baseline   {ratio:10.1f}x slower (interpreting the spec, tracing every line;"
        " timed in turns, the median of the rounds)"
    )
    print(
        f"trace off / baseline {lean_ratio:9.1f}x slower (the lines' points without their notes;"
        " timed in turns, the median of the rounds)"
    )
    print(f"validate + score    {n / (t_validate + t_engine):10.0f} states/s end to end")
    # Issue 32: checking a state costs no more than scoring it, and checking and scoring
    # together make at least 5,000 states/s on one core (this loop runs on one)
    print(
        f"checking vs scoring {t_validate / t_lean:10.2f}x  (validate / score without the trace, as"
        f" impact scores; target at most {CHECK_RATIO:g}: "
        + ("met" if t_validate <= CHECK_RATIO * t_lean else "NOT met")
        + f"; against the traced score {t_validate / t_engine:.2f}x)"
    )
    per_core = n / (t_validate + t_lean)
    print(
        f"end to end          {per_core:10.0f} states/s per core  (target at least"
        f" {END_TO_END:,}: " + ("met" if per_core >= END_TO_END else "NOT met") + ")"
    )
    # Issue 9's target, as a ratio: 5,000 states/s where the baseline made 44,000/s.
    # The ratio is what carries from machine to machine (both run here, now).
    print(
        f"target (issue 9)    {TARGET_RATIO:10.1f}x slower at most: "
        + ("met" if ratio <= TARGET_RATIO else "NOT met")
    )
    # Issue 32's: scoring many tables for their outcome, the trace available on demand
    print(
        f"target (issue 32)   {LEAN_TARGET_RATIO:10.1f}x slower at most, trace off: "
        + ("met" if lean_ratio <= LEAN_TARGET_RATIO else "NOT met")
    )
    evals, distinct, ours, theirs = measure(max(2, n // 100), args.repeat, args.seed)
    print(
        f"expressions         {ours:10.2f} µs/evaluation  (eval() of the same: {theirs:.2f} µs;"
        f" {evals} evaluations of {distinct} expressions)"
    )


if __name__ == "__main__":
    main()
