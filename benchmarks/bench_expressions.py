"""Benchmark: evaluating the spec's own expressions, in µs per evaluation.

The mix is what the scorer really evaluates: every expression evaluation
made while scoring a few generated 9-player Stationfall states is recorded
with a copy of its namespace, then replayed. The baseline, measured in the
same run, is Python's own ``eval`` of the same sources (compiled once) over
the same data as attribute objects: the design ``rulepress`` had before its
own interpreter. ``eval`` appears here only as that reference measurement.

    .venv/bin/python benchmarks/bench_expressions.py [--states N] [--repeat R]
"""

from __future__ import annotations

import argparse
import dataclasses
import random
from collections.abc import Callable, Mapping
from pathlib import Path
from types import CodeType, SimpleNamespace
from typing import Any

from rulepress.expressions import Expression, Record
from rulepress.games import load_spec
from rulepress.scoring import components, engine, plan, score, tally, winners
from rulepress.states.validation import compiled, validate_state
from rulepress.yamlsrc import SourceMap
from timing import best_of  # benchmarks/timing.py, beside this script

ROOT = Path(__file__).resolve().parent.parent

Case = tuple[Expression, dict[str, Any], Mapping[str, Callable[..., Any]] | None]


def _recording(expr: Expression, cases: list[Case]) -> Expression:
    """``expr`` with evaluators that record each call (expression, namespace, functions).

    A real Expression, not a stand-in: a compiled scorer (rulepress.compiled) takes
    nothing else. Without ``plain``, so that every caller goes through the recorder.
    """

    def evaluate(
        names: Mapping[str, Any], functions: Mapping[str, Callable[..., Any]] | None = None
    ) -> Any:
        cases.append((expr, dict(names), functions))
        return expr.evaluate(names, functions)

    # the scorer's one-call-less evaluator is recorded (and timed) as the checked one
    return dataclasses.replace(expr, evaluate=evaluate, fast=evaluate, plain=None)


def record_mix(states: int, seed: int) -> list[Case]:
    """Every evaluation made while scoring ``states`` generated states."""
    # a sibling script, which imports this one: imported here, not at the top
    from bench_stationfall_scoring import generate_state  # noqa: PLC0415

    loaded = load_spec(ROOT / "rules_spec" / "stationfall")
    spec = loaded.spec
    fmt = spec.table_states[next(s.state for s in spec.sequences if s.id == spec.scorer.sequence)]
    rng = random.Random(seed)
    cases: list[Case] = []
    modules = (components, engine, plan, tally, winners)
    saved = [m.compiled for m in modules]
    # the scorer compiles a sequence's steps once: compiled again while recording,
    # and dropped afterwards, so that no recorder stays in the scorer's cache
    engine._PLANS.clear()
    try:
        for m in modules:
            m.compiled = lambda src: _recording(compiled(src), cases)  # type: ignore[attr-defined]
        for _ in range(states):
            state, problems = validate_state(fmt, spec.parameters, generate_state(rng), SourceMap())
            assert not problems
            score(loaded, state)
    finally:
        for m, c in zip(modules, saved, strict=True):
            m.compiled = c  # type: ignore[attr-defined]
        engine._PLANS.clear()
    return cases


def _as_objects(value: Any) -> Any:
    """The data as the eval()-based design saw it: records as attribute objects."""
    if isinstance(value, Record):
        return SimpleNamespace(**{k: _as_objects(v) for k, v in value.items()})
    if isinstance(value, list):
        return [_as_objects(v) for v in value]
    return value


def _old_get(record: Any, name: str) -> Any:
    return getattr(record, name.replace("-", "_"))


_OLD_FUNCTIONS: dict[str, Any] = {
    "min": min,
    "max": max,
    "sum": sum,
    "len": len,
    "abs": abs,
    "any": any,
    "all": all,
    "count": lambda items: sum(1 for i in items if i),
    "first": lambda items: next(iter(items), None),
    "get": _old_get,
    "zip": zip,
    "sorted": sorted,
    "named_in": lambda text, ids: (
        text is not None and text.strip().casefold() in {i.casefold() for i in ids}
    ),
}


def baseline_mix(cases: list[Case]) -> list[tuple[CodeType, dict[str, Any]]]:
    out = []
    for expr, names, functions in cases:
        env: dict[str, Any] = {"__builtins__": {}, **_OLD_FUNCTIONS}
        env.update({k: _as_objects(v) for k, v in names.items()})
        env.update(functions or {})
        source = "(" + expr.source.strip() + "\n)"
        out.append((compile(source, "<bench>", "eval"), env))
    return out


def measure(states: int, repeat: int, seed: int) -> tuple[int, int, float, float]:
    """(evaluations, distinct expressions, µs per evaluation: interpreter, eval baseline)."""
    cases = record_mix(states, seed)
    base = baseline_mix(cases)
    for (expr, names, functions), (code, env) in zip(cases, base, strict=True):
        ours = expr.evaluate(names, functions)
        theirs = eval(code, env)  # the reference measurement, never in src/
        if not isinstance(ours, Record | list):  # same answers, or the comparison is void
            assert ours == theirs, (expr.source, ours, theirs)

    def ours_all() -> None:
        for expr, names, functions in cases:
            expr.evaluate(names, functions)

    def eval_all() -> None:
        for code, env in base:
            eval(code, env)  # the reference measurement

    n = len(cases)
    t_ours = best_of(repeat, ours_all)
    t_eval = best_of(repeat, eval_all)
    distinct = len({expr.source for expr, _, _ in cases})
    return n, distinct, t_ours * 1e6 / n, t_eval * 1e6 / n


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--states", type=int, default=50)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=20261130)
    args = parser.parse_args()
    n, distinct, ours, theirs = measure(args.states, args.repeat, args.seed)
    print(f"expressions: {n} evaluations of {distinct} spec expressions, best of {args.repeat}")
    print(f"interpreter         {ours:7.2f} µs/evaluation")
    print(f"eval() baseline     {theirs:7.2f} µs/evaluation  (Python compiling the source)")
    print(f"interpreter / eval  {ours / theirs:7.2f}x")


if __name__ == "__main__":
    main()
