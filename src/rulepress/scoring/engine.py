"""The reference scorer: runs one of a game's sequences over a table state.

``score(loaded, state)`` is a pure function of the spec and the state. It
walks the sequence step by step, in the spec's order, doing what each step
declares: ``updates`` change the table state (Antimatter annihilates,
Evidence clears guilt), ``tally`` settles a vote, ``score`` adds one line
per player, ``winners`` settles the game. Every line, event, vote and
tie-break step cites the rules of the step that produced it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Final, TypeVar

from rulepress.errors import Problem, StateError, UsageError
from rulepress.expressions import BudgetError, Evaluate, within_budget
from rulepress.expressions.expression import (
    EVAL_FAILURES,
    MAX_INT,
    Expression,
    ExpressionEvalError,
    ExpressionLimitError,
    parse,
)
from rulepress.expressions.records import Record, fields_record, owned, plain, record
from rulepress.model import LoadedSpec
from rulepress.model.sets import spelled_out
from rulepress.model.spec_model import Sequence, Spec, Step, Winners
from rulepress.scoring import components, plan, winners
from rulepress.scoring import rulings as cited
from rulepress.scoring.notes import NestedPlural, NoteRenderer, Player, snapshot
from rulepress.scoring.result import (
    RESULT_FORMAT,
    Event,
    Line,
    PlayerResult,
    ScoreResult,
    TallyResult,
    WinnerResult,
)
from rulepress.scoring.tally import run_tally
from rulepress.states.validation import compiled, params_record
from rulepress.uitext import ui_plural
from rulepress.yamlsrc import DataPath

#: interface sentences for the number of winning places: each agrees with one number,
#: so the players are counted in a sentence of their own (``with_players``)
PLACES_NOTE = ui_plural(
    "winners.places",
    "{places} winning place {with_players}.",
    "{places} winning places {with_players}.",
    "places",
)
WITH_PLAYERS = ui_plural(
    "winners.places", "with {players} player", "with {players} players", "players"
)


def places_args(places: int, players: int) -> dict[str, Any]:
    """The arguments of :data:`PLACES_NOTE` (``players`` stays a number for JSON readers)."""
    return {
        "places": places,
        "players": players,
        "with_players": NestedPlural(WITH_PLAYERS, {"players": players}),
    }


def resolve_variants(spec: Spec, chosen: list[str]) -> dict[str, str]:
    """Ruling id → chosen option id; unknown or conflicting variants are usage errors."""
    choice = dict(_spec_data(spec).defaults)  # the caller's own copy
    if not chosen:  # the common case: the default rulings
        return choice
    owner = {o.id: r.id for r in spec.rulings for o in r.options}
    problems: list[str] = []
    picked: dict[str, str] = {}
    for name in chosen:
        ruling = owner.get(name)
        if ruling is None:
            known = ", ".join(sorted(owner)) or "none"
            # Variants were once spelled with '-': name the new spelling rather
            # than accept both, so that each variant keeps one name everywhere
            snake = name.replace("-", "_")
            hint = f"; variants are lower_snake_case: write {snake!r}" if snake in owner else ""
            problems.append(f"unknown variant {name!r} (known: {known}){hint}")
        elif ruling in picked and picked[ruling] != name:
            problems.append(f"variants {picked[ruling]!r} and {name!r} answer the same ruling")
        else:
            picked[ruling] = name
            choice[ruling] = name
    if problems:
        raise UsageError("; ".join(problems))
    return choice


def find_sequence(spec: Spec, sequence_id: object) -> tuple[int, Sequence]:
    """The sequence to run: the one named, or the scorer's default.

    ``sequence_id`` is typed ``object``: it may come from a state's ``sequence`` key,
    which holds whatever the file says (a list is no sequence, and is reported so).
    """
    wanted = sequence_id or spec.scorer.sequence
    for index, seq in enumerate(spec.sequences):
        if seq.id == wanted:
            return index, seq
    known = ", ".join(s.id for s in spec.sequences)
    raise UsageError(f"{spec.game.id} has no sequence {wanted!r} (sequences: {known})")


def _walk(steps: list[Step], path: DataPath) -> Iterator[tuple[DataPath, Step]]:
    for i, step in enumerate(steps):
        yield (*path, i), step
        yield from _walk(step.steps, (*path, i, "steps"))


@dataclass(frozen=True, slots=True)
class _SpecData:
    """What scoring reads from a spec on every run, worked out once per spec."""

    #: the spec itself, kept so that its id cannot be reused while cached
    spec: Spec
    tables: dict[str, dict[int | str, int]]
    #: the ``param`` record (expressions cannot change a record, nor does the scorer)
    params: Record
    vocabulary: dict[str, str]
    #: ruling id → its default option
    defaults: dict[str, str]
    #: the ``sets`` record: each named set's members (read-only, as ``param``)
    sets: Record
    #: the context functions ``lookup`` and ``label``: they read only the spec, so every
    #: run shares them (``player`` reads the run's players: each run makes its own)
    lookup: Callable[[str, int | str], int]
    label: Callable[[str], str]


#: the most specs whose data and renderer are kept (below): a build scores every game in
#: each of its languages and an earlier edition's; the oldest goes first, so that a
#: process that loads specs again and again (a test run, a server) keeps a few, not
#: every spec it ever scored, each with its whole model
_MAX_SPECS = 16

_SPEC_DATA: dict[int, _SpecData] = {}

_V = TypeVar("_V")


def _keep(cache: dict[int, _V], spec: Spec, value: _V) -> _V:
    """``value`` kept in ``cache`` for ``spec``, the oldest entry dropped past the bound."""
    cache.pop(id(spec), None)
    if len(cache) >= _MAX_SPECS:
        cache.pop(next(iter(cache)))
    cache[id(spec)] = value
    return value


def _spec_data(spec: Spec) -> _SpecData:
    cached = _SPEC_DATA.get(id(spec))
    if cached is None or cached.spec is not spec:
        tables = {t.id: components.table_values(t, spec.parameters) for t in spec.tables}
        vocabulary = dict(spec.vocabulary)
        cached = _SpecData(
            spec,
            tables,
            params_record(spec.parameters),
            vocabulary,
            {r.id: r.default for r in spec.rulings},
            fields_record(spelled_out(spec.sets)),
            _lookup(tables, {t.id: t.keys for t in spec.tables}),
            _label(vocabulary),
        )
        _keep(_SPEC_DATA, spec, cached)
    return cached


def _lookup(
    tables: dict[str, dict[int | str, int]], keyed_by: Mapping[str, object]
) -> Callable[[str, int | str], int]:
    """The ``lookup(table, key)`` of expressions: a row of one of the spec's tables."""

    # expressions pass any values (hence ``object``, which a compiled build does not check)
    def lookup(table_id: object, key: object) -> int:
        if table_id not in tables:
            raise ValueError(f"no table {table_id!r}")
        keys = keyed_by.get(table_id)
        if not isinstance(key, str if keys else int):  # a list or a record is no key
            wanted = f"a member of {keys}" if keys else "an integer"
            raise ValueError(f"table {table_id!r} is looked up by {wanted}, not {key!r}")
        if key not in tables[table_id]:
            shown = key if isinstance(key, int) else repr(key)
            raise ValueError(f"table {table_id!r} has no row for {shown}")
        return tables[table_id][key]

    return lookup


def _label(vocabulary: dict[str, str]) -> Callable[[str], str]:
    """The ``label(key)`` of expressions: the vocabulary's word for an id, or the id."""

    def label(key: str) -> str:
        return vocabulary.get(key, key)

    return label


_ENGLISH: dict[int, tuple[Spec, NoteRenderer]] = {}


def english(spec: Spec) -> NoteRenderer:
    """The spec's default (English) renderer, made once: it caches the templates it splits."""
    cached = _ENGLISH.get(id(spec))
    if cached is None or cached[0] is not spec:
        cached = _keep(_ENGLISH, spec, (spec, NoteRenderer.english(spec)))
    return cached[1]


#: a sequence's compiled steps, the records its updates write into (see records.owned),
#: and the fields its results show, each split into its names
_Plan = tuple[
    list[plan.StepPlan], tuple[tuple[str, ...], ...], tuple[tuple[str, tuple[str, ...]], ...]
]
#: plans by sequence, choice of rulings (None: nothing folded) and whether they trace;
#: bounded, as the choices come from callers
_PLANS: dict[tuple[int, int, tuple[tuple[str, str], ...] | None, bool], tuple[Sequence, _Plan]] = {}
_MAX_PLANS = 256
#: the records a plan folds into its expressions (see _plan)
_CONSTANT_NAMES = frozenset({"param", "ruling", "sets"})


def _plan(
    spec: Spec,
    seq: Sequence,
    index: int,
    variants: dict[str, str] | None,
    trace: bool = True,
    items: tuple[tuple[str, str], ...] | None = None,
) -> _Plan:
    """Every step of a sequence in order, compiled (worked out once per sequence and rulings).

    With ``variants``, ``param``, ``ruling`` and ``sets`` are folded into the
    expressions as constants: they are the same for every run with that
    choice of rulings, so ``ruling.x == 'y' and …`` is decided and
    ``n * param.points`` multiplies by a constant once, not per player.
    Only a name nothing in the sequence can hide is folded (a ``let``, an
    item, a score or tally id of that name); the caller passes None when a
    player's own field hides one. Without ``trace``, the components make no
    notes (see :func:`components.compile_component`). ``items``: the
    variants' items as a tuple, when the caller has them (see :func:`_choice`).
    """
    if variants is not None and items is None:
        items = tuple(variants.items())
    key = (id(seq), index, None if variants is None else items, trace)
    cached = _PLANS.get(key)
    if cached is None or cached[0] is not seq:
        data = _spec_data(spec)
        tables, params = data.tables, data.params
        expression: plan.Parse = compiled
        if variants is not None:
            constants = {"param": params, "ruling": _ruling_record(variants), "sets": data.sets}
            for _, step in _walk(seq.steps, ()):
                hidden = [step.tally.id] if step.tally is not None else []
                if step.score is not None:
                    hidden += [step.score.id, *step.score.let]
                    hidden += components.writes(step.score.component)
                for name in hidden:
                    constants.pop(name, None)
            memo: dict[str, Expression] = {}

            def expression(source: str) -> Expression:
                found = memo.get(source)
                if found is None:
                    found = memo[source] = parse(source, constants)
                return found

        walked = _walk(seq.steps, ("sequences", index, "steps"))
        steps = [
            plan.compile_step(path, step, tables, expression, trace=trace) for path, step in walked
        ]
        written = dict.fromkeys(u.path[:-1] for s in steps for u in s.updates if len(u.path) > 1)
        show = tuple((name, tuple(name.split("."))) for name in seq.show)
        if len(_PLANS) >= _MAX_PLANS:
            del _PLANS[next(iter(_PLANS))]
        cached = _PLANS[key] = (seq, (steps, tuple(written), show))
    return cached[1]


#: (spec, sequence asked for, variants asked for) → the spec (kept: the key holds its id),
#: the sequence's index, the sequence and the choice of rulings: a batch scores thousands
#: of states with one question. Only questions that have an answer; bounded as the
#: specs whose data is kept are (each entry keeps its spec)
_CHOICES: dict[tuple[int, str | None, tuple[str, ...]], tuple[Any, ...]] = {}


def _choice(
    spec: Spec, sequence: str | None, variants: list[str] | None
) -> tuple[int, Sequence, dict[str, str], tuple[tuple[str, str], ...], Record]:
    """:func:`find_sequence` and :func:`resolve_variants` of a question, worked out once.

    With the choice of rulings as a tuple of its items and as the ``ruling``
    record, which every run of the question reads (making them per run was a
    seventieth of scoring a state).
    """
    key = (id(spec), sequence, tuple(variants) if variants else ())
    found = _CHOICES.get(key)
    if found is None or found[0] is not spec:
        index, seq = find_sequence(spec, sequence)
        resolved = resolve_variants(spec, variants or [])
        items = tuple(resolved.items())
        found = (spec, index, seq, resolved, items, _ruling_record(resolved))
        if len(_CHOICES) >= _MAX_SPECS:
            del _CHOICES[next(iter(_CHOICES))]
        _CHOICES[key] = found
    return found[1], found[2], found[3], found[4], found[5]


#: the ``ruling`` record of each choice of rulings met so far (records are read-only to
#: expressions, so every run with the same choice shares one); bounded, as choices come
#: from callers
_RULINGS: dict[tuple[tuple[str, str], ...], Record] = {}


def _ruling_record(variants: dict[str, str]) -> Record:
    key = tuple(variants.items())
    found = _RULINGS.get(key)
    if found is None:
        found = fields_record(variants)
        if len(_RULINGS) < 1024:
            _RULINGS[key] = found
    return found


class _Run:
    """One run of a sequence over one table state.

    Each player has one namespace for the whole run (the table's names, then
    the player's fields, scores, decisions and ``total``), kept up to date as
    scores are added, instead of one merged dict per player and step: that
    was a tenth of scoring a state. What a step writes into it (``let``
    values, a ``lines`` item) is put back when the step is done, so every
    step sees exactly the names it would in a namespace of its own.
    """

    def __init__(
        self,
        loaded: LoadedSpec,
        sequence: Sequence,
        variants: dict[str, str],
        renderer: NoteRenderer,
        players: list[Record],
        table: Record,
        written: tuple[tuple[str, ...], ...] = (),
        shared: list[bool] | None = None,
        trace: bool = True,
        uniform: bool | None = None,
        ruling: Record | None = None,
    ) -> None:
        self.loaded = loaded
        #: whether the winners' tie-break trace is made (the lines' notes are the plan's)
        self.trace = trace
        self.sequence = sequence
        self.variants = variants
        self.renderer = renderer
        self.make = renderer.note_maker()
        self.players = players
        self.table = table
        #: the records updates write into (see records.owned), and which players'
        #: records are still the caller's: those are copied when first written
        self.written = written
        self.shared = shared if shared is not None else [False] * len(players)
        self.events: list[Event] = []
        self.tallies: list[TallyResult] = []
        self.winner_result: WinnerResult | None = None
        self.rule: Winners | None = None
        self.eligible: set[str] | None = None
        self.ranks: dict[str, int] = {}
        #: the player being evaluated, named in error messages
        self.current = "the table"
        #: whether plan.TABLE_NAMES hold the same values in every namespace (see
        #: uniform(); None: not known yet)
        self._uniform = uniform
        spec = loaded.spec
        by_id = self.by_id = {p["id"]: p for p in players}
        data = _spec_data(spec)
        self.tables = data.tables

        def player(pid: str) -> Record:
            if pid not in by_id:
                raise ValueError(f"no player {pid!r}")
            return by_id[pid]

        #: the context functions expressions may call (apart from the data names)
        self.functions: dict[str, Callable[..., Any]] = {
            "label": data.label,
            "player": player,
            "lookup": data.lookup,
        }
        # Filled in name by name, not written as one display of six: a compiled build
        # makes a display of more than five entries as CPython's presized dict, whose
        # key table is the general one (keys of any type), and every namespace copied
        # from this one then compared its names through a call instead of in the fast
        # path for text keys (callgrind: 2.5 % of a lean score's instructions)
        base: dict[str, Any] = {}
        base["param"] = data.params
        base["ruling"] = ruling if ruling is not None else _ruling_record(variants)
        base["sets"] = data.sets
        base["n_players"] = len(players)
        base["table"] = table
        base["players"] = players
        self.base = base
        self.ids: list[str] = [p["id"] for p in players]
        n = len(players)
        #: by player index (score_step walks the players in order): the decisions of
        #: earlier steps (read as ``chosen.<score id>``) and the lines (one per score:
        #: a player's scores so far)
        self.chosen: list[Record] = [Record() for _ in range(n)]
        self.line_lists: list[list[Line]] = [[] for _ in range(n)]
        #: each player's total so far (``sum(scores)``, kept as scores are added)
        self.totals = [0] * n
        #: the ids of the scores made so far (the same for every player)
        self.scored: set[str] = set()
        # fresh() of each player, with no scores yet
        base = self.base
        self.ns: list[dict[str, Any]] = [
            {**base, **p, "chosen": chosen, "total": 0}
            for p, chosen in zip(players, self.chosen, strict=True)
        ]

    def uniform(self) -> bool:
        """Whether plan.TABLE_NAMES hold the same values in every player's namespace.

        They do unless a player's own field has one of their names (a state
        format may declare one), which hides the table's in that namespace.
        """
        if self._uniform is None:
            names = plan.TABLE_NAMES
            self._uniform = all(p.keys().isdisjoint(names) for p in self.players)
        return self._uniform

    def fresh(self, i: int) -> dict[str, Any]:
        """Player ``i``'s namespace made anew: the table's names, fields, scores, decisions."""
        scores = {line.score: line.points for line in self.line_lists[i]}
        ns = {**self.base, **self.players[i]}
        ns.update(scores)
        ns["chosen"] = self.chosen[i]
        ns["total"] = sum(scores.values())
        return ns

    def update(self, step: Step, upd: plan.UpdatePlan) -> None:
        fns = self.functions
        when, value, args_of, dotted = upd.fast_when, upd.fast_value, upd.args, upd.set
        *parents, last = upd.path
        if upd.gate is not None and self.ns and self.uniform():
            try:
                if not upd.gate(self.ns[0], fns):
                    return  # false for every player: so is ``when``
            except EVAL_FAILURES:
                pass  # evaluated per player, where the failure is located and named
        for i in range(len(self.players)):
            ns = self.ns[i]
            try:
                if not when(ns, fns):
                    continue
                after = value(ns, fns)
            except EVAL_FAILURES:
                # The fast evaluators fail unlocated: this player is evaluated
                # again, checked and named, to raise the located error
                # (evaluation is a pure function of the namespace).
                self.current = f"player {self.ids[i]}"
                if not upd.when(ns, fns):
                    continue
                after = upd.value(ns, fns)
            self.current = f"player {self.ids[i]}"  # for the note's arguments, checked
            p = self.players[i]
            if self.shared[i]:
                # Copied on first write, not when the run starts: most states have
                # few updates that change anything, and copying every player's
                # records up front was a twentieth of scoring a state. Nothing read
                # so far depends on the copy (it holds the same values), and the
                # players list and player() see it from now on.
                p = owned(p, self.written)
                self.players[i] = self.by_id[p["id"]] = p
                self.shared[i] = False
            target: Any = p  # a record on the way, or None where one is left out
            for depth, name in enumerate(parents):  # the spec check proved the path exists
                target = target[name]
                if target is None:  # an optional record this player's state leaves out
                    missing = ".".join(upd.path[: depth + 1])
                    raise ExpressionEvalError(
                        f"cannot change {dotted!r}: the player has no {missing!r}"
                    )
            before = target[last]
            if before == after:
                continue
            target[last] = after
            # evaluated before the namespace is made anew, as the step saw the player
            args = {n: evaluate(ns, fns) for n, evaluate in args_of}
            self.ns[i] = self.fresh(i)
            args.update(player=Player(p["id"]), before=before, after=after)
            note = self.make(upd.note, snapshot(args))
            self.events.append(
                Event(
                    step.number, step.title, list(step.rules), p["id"], dotted, before, after, note
                )
            )

    def tally(self, step: Step) -> None:
        assert step.tally is not None
        self.current = "the table"
        outcome = run_tally(
            step.tally,
            dict(self.base),
            self.functions,
            self.renderer.note,
            step.number,
            list(step.rules),
        )
        self.base[step.tally.id] = outcome.record
        self.ns = [self.fresh(i) for i in range(len(self.players))]
        self.tallies.append(outcome.result)

    def score_step(self, step: plan.ScorePlan) -> None:
        fns = self.functions
        make = self.make
        lets, run, hidden, hidden_set = step.lets, step.run, step.hidden, step.hidden_set
        written_lets, maybe_written = step.written_lets, step.maybe_written
        sid, number, title, rules = step.id, step.number, step.title, step.rules
        chosen, totals = self.chosen, self.totals
        # (the sequence check keeps score ids unique and apart from the names a
        # namespace is built on; what it lets through is handled as fresh() would)
        resets_chosen = sid == "chosen"
        shared: tuple[tuple[str, Any], ...] = ()
        if step.shared_lets and self.ids:
            try:
                first = self.ns[0]  # any player's: these names are the same in each
                shared = tuple((name, evaluate(first, fns)) for name, evaluate in step.shared_lets)
            except EVAL_FAILURES:
                # evaluated per player instead, where a failure is located and named
                lets = step.shared_lets + lets
        # (the run's lists and the plan's fields are read into locals once per step, not
        # once per player: this loop runs for every player of every step of every table)
        namespaces, line_lists = self.ns, self.line_lists
        # a score id met before (only in a spec the sequence check refuses): the total is
        # then summed afresh, the later score in place of the earlier (as fresh() has it)
        again = sid in self.scored
        self.scored.add(sid)
        checked_lets, checked_run = step.checked_lets, step.checked_run
        bound = MAX_INT
        i = 0
        try:
            for i in range(len(self.ids)):
                ns = namespaces[i]
                # What the step hides is put back afterwards. Usually it hides
                # nothing (its names are new): one test in C, then removal.
                saved = None
                if hidden and not ns.keys().isdisjoint(hidden_set):
                    saved = [ns.get(name, _MISSING) for name in hidden]
                try:
                    for name, value in shared:
                        ns[name] = value
                    for name, evaluate in lets:
                        ns[name] = evaluate(ns, fns)
                    points, notes, breakdown, export = run(ns, fns, make)
                except BudgetError:
                    raise  # spent: a checked rerun would only blame its first expression
                except EVAL_FAILURES:
                    # The fast evaluators fail unlocated (Python's own errors, or
                    # ours without the source): the step runs again for this
                    # player, checked, to raise the located error (it fails the
                    # same way: evaluation is a pure function of the namespace).
                    for name, evaluate in checked_lets:
                        ns[name] = evaluate(ns, fns)
                    points, notes, breakdown, export = checked_run(ns, fns, make)
                if saved is not None:
                    for name, value in zip(hidden, saved, strict=True):
                        if value is _MISSING:
                            ns.pop(name, None)
                        else:
                            ns[name] = value
                else:
                    # (``del``: no method call, and a let is always there by now)
                    for name in written_lets:
                        del ns[name]
                    for name in maybe_written:
                        ns.pop(name, None)  # a lines item over no items is never written
                # as fresh() would have it: scores over fields, then decisions and total.
                # The total is kept as it goes (summing a player's scores per step was
                # 36 calls a state); ``chosen`` is the one record, updated in place.
                if again:
                    own = {line.score: line.points for line in line_lists[i]}
                    own[sid] = points
                    total = sum(own.values())
                else:
                    total = totals[i] + points
                # every step's points lie within ±MAX_INT, their sum need not: a total
                # past the bound is refused, as an expression's result would be
                if not -bound <= total <= bound:
                    raise ExpressionLimitError(
                        f"the total {total} after step {number} is beyond the bound of ±{MAX_INT}"
                    )
                totals[i] = total
                if export:
                    chosen[i][sid] = record(export)
                ns[sid] = points
                if resets_chosen:
                    ns["chosen"] = chosen[i]
                ns["total"] = total
                line_lists[i].append(Line(sid, number, title, rules, points, notes, breakdown))
        except ExpressionEvalError:
            self.current = f"player {self.ids[i]}"  # named in the error; set only when there is one
            raise

    def chosen_by_table(self, rule: Winners, plan: plan.WinnersPlan) -> tuple[int, winners.Choices]:
        """The winning places and the rule's choices (see :meth:`places`, :meth:`choices`).

        When they read only what every table of this size and choice of rulings
        shares (``plan.by_size``), they are worked out once for such tables: the
        same expressions of the same values give the same (evaluation is pure).
        """
        if not plan.by_size:
            places = self.places(rule, plan)
            return places, self.choices(rule, places, plan)
        ruling = self.base["ruling"]
        key = (len(self.players), id(ruling))
        known = plan.known.get(key)
        if known is not None and known[0] is ruling:  # (the id of that very record)
            return known[1], known[2]
        places = self.places(rule, plan)
        choices = self.choices(rule, places, plan)
        if len(plan.known) >= _MAX_KNOWN:
            plan.known.clear()
        plan.known[key] = (ruling, places, choices)
        return places, choices

    def places(self, rule: Winners, plan: plan.WinnersPlan) -> int:
        if isinstance(rule.count, int):
            return rule.count
        assert plan.count_key is not None
        key = plan.count_key(self.base, self.functions)
        try:
            return int(self.functions["lookup"](rule.count.table, key))
        except ValueError as exc:  # no row for that many players
            raise ExpressionEvalError(str(exc)) from None

    def choices(self, rule: Winners, places: int, plan: plan.WinnersPlan) -> winners.Choices:
        """The rule's fields a ruling may choose, as this table chooses them.

        Evaluated once, of the table (the rulings, parameters, player count
        and ``places``): every player is decided by the same choice. (The
        plan's expressions have the rulings folded in: usually constants.)
        """
        table = {**self.base, "places": places}

        def chosen(
            what: str, value: str, evaluate: Evaluate | None, allowed: tuple[str, ...]
        ) -> str:
            if evaluate is None:  # written as one of the allowed values
                return value
            got = evaluate(table, self.functions)
            if got not in allowed:
                wanted = " or ".join(repr(a) for a in allowed)
                raise ExpressionEvalError(f"{what} must give {wanted}, not {got!r}")
            return str(got)

        used = [bool(when(table, self.functions)) for when in plan.used]
        return winners.Choices(
            chosen("final_tie", rule.final_tie, plan.final_tie, FINAL_TIES),
            chosen("places_among", rule.places_among, plan.places_among, PLACES_AMONG) == "all",
            used,
        )

    def decide(self, step: Step, plan: plan.WinnersPlan) -> None:
        rule = step.winners
        assert rule is not None
        self.current = "the table"
        places, choices = self.chosen_by_table(rule, plan)
        ids, namespaces = self.ids, self.ns
        # the renderer's own note maker: the trace's sentences have plural forms
        note = self.renderer.note
        try:
            # Fast evaluators, as score steps have them: their failures are
            # unlocated, so on one the players are decided again, checked (and
            # naming the player), to raise the located error. Deciding makes
            # nothing but the outcome, so the first attempt leaves no trace.
            outcome = winners.decide(
                rule,
                places,
                ids,
                namespaces.__getitem__,
                self.functions,
                note,
                plan.fast,
                choices,
                trace=self.trace,
            )
        except EVAL_FAILURES:

            def namespace_of(i: int) -> dict[str, Any]:
                self.current = f"player {ids[i]}"
                return namespaces[i]

            outcome = winners.decide(
                rule,
                places,
                ids,
                namespace_of,
                self.functions,
                note,
                plan.checked,
                choices,
                trace=self.trace,
            )
        self.ranks = outcome.ranks
        self.eligible = set(outcome.eligible)
        trace = outcome.trace
        self.winner_result = WinnerResult(
            step.number,
            list(step.rules),
            places,
            self.renderer.note(PLACES_NOTE, places_args(places, len(self.players))),
            outcome.eligible,
            outcome.winners,
            outcome.decided_by,
            outcome.shared,
            trace,
            self.renderer.note(outcome.conclusion, outcome.conclusion_args),
        )
        self.rule = rule


#: the values of a winners rule's final_tie and places_among (literal, or an expression's)
FINAL_TIES, PLACES_AMONG = winners.FINAL_TIES, winners.PLACES_AMONG
#: the most tables' choices of a winners rule kept (by size and choice of rulings)
_MAX_KNOWN = 256
#: marks a name a step's namespace did not have before the step wrote it
_MISSING: Final[Any] = object()
#: values plain() gives back as they are
_SCALARS = frozenset({str, int, bool, type(None)})


@within_budget
def score(
    loaded: LoadedSpec,
    state: Mapping[str, Any],
    *,
    sequence: str | None = None,
    variants: list[str] | None = None,
    renderer: NoteRenderer | None = None,
    cite_rulings: bool = False,
    trace: bool = True,
) -> ScoreResult:
    """Run a sequence over a validated table state (see :mod:`rulepress.scoring.state`).

    With ``cite_rulings``, every line, event and winner list a ruling decided
    names it (see :mod:`rulepress.scoring.rulings`: one more run per other
    option of every ruling, so only when asked).

    Without ``trace`` (for callers that score many states and read the
    outcome: points, breakdowns, totals, events, votes, ranks and winners),
    the lines carry no notes, and what only notes show (a line's label, a
    part's note arguments) is not evaluated, and the winners carry no
    tie-break trace (the result's ``traced`` is False); everything else is
    as with ``trace``. Scoring the same state again with ``trace`` gives both.
    """
    return _score(
        loaded,
        state,
        sequence,
        variants,
        renderer,
        cite_rulings=cite_rulings,
        trace=trace,
        fold=True,
    )


def _score(
    loaded: LoadedSpec,
    state: Mapping[str, Any],
    sequence: str | None,
    variants: list[str] | None,
    renderer: NoteRenderer | None,
    *,
    cite_rulings: bool,
    trace: bool,
    fold: bool,
) -> ScoreResult:
    """:func:`score`; without ``fold``, with the plan that reads the rulings as the run's data.

    A plan with the rulings folded in is compiled for each choice of rulings, and pays
    for itself over the many tables scored with one choice. Citing the rulings scores
    one table once per other option of every ruling: those runs share the one plan that
    folds nothing (the same points, as when a player's field hides a folded name).
    """
    spec = loaded.spec
    index, seq, resolved, items, ruling = _choice(spec, sequence or state.get("sequence"), variants)
    chosen = dict(resolved)  # the result's own copy
    given = state["players"]
    table = state.get("table", Record())
    # the folded plan reads param and ruling as the run's records: not when a
    # player's own field of that name hides one (a state format may declare one).
    # Usually no player's field has the name of any of the table's names (see
    # _Run.uniform), which are more: then none hides a folded record either
    uniform = True
    for p in given:
        if not p.keys().isdisjoint(plan.TABLE_NAMES):
            uniform = False
            break
    hides = not uniform and any(not p.keys().isdisjoint(_CONSTANT_NAMES) for p in given)
    folded = chosen if fold and not hides else None
    steps, written, show = _plan(spec, seq, index, folded, trace, items)
    run = _Run(
        loaded,
        seq,
        chosen,
        renderer or english(spec),
        # the caller's state is never mutated: updates write into copies of the records
        # they change (made when first written), and the rest (records of a validated
        # state) is shared read-only; plain data is made records, copied whole
        [p if type(p) is Record else record(p) for p in given],
        table if type(table) is Record else record(table),
        written,
        [type(p) is Record for p in given],
        trace,
        uniform,
        ruling,
    )
    step_path: DataPath = ("sequences", index)
    step: Step | None = None
    try:
        for compiled_step in steps:
            step_path, step = compiled_step.path, compiled_step.step
            for upd in compiled_step.updates:
                run.update(step, upd)
            if step.tally is not None:
                run.tally(step)
            if compiled_step.score is not None:
                run.score_step(compiled_step.score)
            if compiled_step.winners is not None:
                run.decide(step, compiled_step.winners)
    except ExpressionEvalError as exc:
        # The spec check proves that every name exists; what remains is a
        # value the state format let through but an expression cannot use.
        where = f"step {step.number} ({step.title})" if step else seq.id
        raise StateError(
            "the table state cannot be scored",
            [Problem(loaded.locate(step_path), where, f"{run.current}: {exc}")],
        ) from None
    result = _result(run, show)
    if cite_rulings:
        quiet = english(spec)  # the other runs' sentences are never read

        def rescore(rulings: dict[str, str]) -> ScoreResult:
            # only points, events, votes and winners are compared: no notes
            values = list(rulings.values())
            return _score(
                loaded, state, seq.id, values, quiet, cite_rulings=False, trace=False, fold=False
            )

        cited.cite(spec, result, rescore, run.renderer.note)
    return result


def _result(run: _Run, show: tuple[tuple[str, tuple[str, ...]], ...]) -> ScoreResult:
    """The result of a run; ``show``: the sequence's shown fields, each split into its names."""
    seq = run.sequence
    players = []
    eligible, ranks = run.eligible, run.ranks
    with_total = seq.total_label is not None
    reason_of = None
    for i, p in enumerate(run.players):
        pid = run.ids[i]
        is_eligible = pid in eligible if eligible is not None else True
        reason = None
        if not is_eligible and run.rule is not None:
            if reason_of is None:  # the same sentence for every player who cannot win
                reason_of = run.renderer.note(run.rule.eligible.fails, {})
            reason = reason_of
        shown = {}
        for name, path in show:  # plain data for JSON
            value: Any = p
            for part in path:
                value = value[part]
            shown[name] = value if type(value) in _SCALARS else plain(value)
        players.append(
            PlayerResult(
                pid,
                run.line_lists[i],
                run.totals[i] if with_total else None,
                is_eligible,
                reason,
                ranks.get(pid),
                shown,
            )
        )
    spec = run.loaded.spec
    return ScoreResult(
        RESULT_FORMAT,
        spec.game.id,
        spec.game.version,
        seq.id,
        run.renderer.language,
        run.variants,
        players,
        run.events,
        run.tallies,
        run.winner_result,
        run.trace,
    )
