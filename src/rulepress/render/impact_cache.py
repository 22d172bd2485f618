"""How much each ruling option, and an edition, weighs: impact reports made at build time and cached.

The Rulings page says, for each option other than the default, at how many
drawn tables the winner changes, and the changes page says the same of the
edition (:mod:`rulepress.render.impact_lines`). The figures come from
:mod:`rulepress.impact`: a question per option (the spec's defaults against
the defaults with that option), over one seeded sample of tables drawn from
the game's scoring sequence, the same for every option and every language.

Scoring thousands of tables takes seconds, so the reports are kept in the
user's cache (:mod:`rulepress.cache_files`) under a key of all they depend
on: the spec as loaded (and the earlier edition's, for an edition),
rulepress's own code (its version among it), the sample's size and its seed.
A rebuild with the same spec reads them back and runs nothing; an edited spec
has another key and runs anew. What is read back is JSON checked against the
report's model; anything that does not read back whole is worked out anew.

Every option's chunks go to one pool of worker processes (every core), so
each worker loads the spec once for all the options.
"""

from __future__ import annotations

from dataclasses import replace

from pydantic import TypeAdapter, ValidationError

from rulepress import cache_files
from rulepress.impact.question import Chunk, Question, chunks, run_chunk
from rulepress.impact.report import ImpactReport, build_report
from rulepress.impact.rulesets import RuleSet
from rulepress.impact.tally import Tally
from rulepress.model import LoadedSpec, Spec
from rulepress.population.executor import available_cores, run_chunks

#: the tables drawn for each figure of the site, and their seed: declared once here, for
#: every game (docs/publishers.md), and given to the site build (SiteBuild.impact_tables).
#: Small, because scoring each table under each option is the cold build's cost (over
#: 200 tables, in one process, Stationfall's eleven options took 1.8 s and Brink's
#: twelve 7.9 s: its end-of-game grouping search is the costliest scoring; the tables
#: are drawn, and scored under the defaults, once for all options); the page shows the
#: figure with its sample size; 50 keeps the test suite's many cold site builds within
#: its time budget
TABLES = 50
SEED = 1
#: the most tables (over all of a game's questions) run in the build's own process: a
#: pool's start-up (a Python and both specs loaded per process, seconds) costs more than
#: it saves on a sample this small, and a test run already keeps every core busy
IN_PROCESS = 5_000
#: the cache's folder of impact reports
KIND = "impact"
#: bumped when what is stored changes shape (the key holds it: older files are not read)
FORMAT = "1"
#: the label of the edition's report among a game's reports
EDITION = "edition"

_STORED = TypeAdapter(dict[str, ImpactReport])


def _read(data: bytes) -> dict[str, ImpactReport] | None:
    try:
        return _STORED.validate_json(data)
    except ValidationError:
        return None


def _cached(
    name: str, key: str, questions: dict[str, Question], workers: int | None
) -> dict[str, ImpactReport]:
    """The reports of ``questions`` (label → question), from the cache when it has them all."""
    data = cache_files.read(KIND, name, key)
    found = _read(data) if data is not None else None
    if found is not None and found.keys() == questions.keys():
        return found
    reports = run_questions(questions, workers=workers)
    cache_files.write(KIND, name, key, _STORED.dump_json(reports))
    return reports


def option_reports(
    loaded: LoadedSpec, *, tables: int = TABLES, seed: int = SEED, workers: int | None = None
) -> dict[str, ImpactReport]:
    """Option id → the report of that option against the defaults, for every option not a default."""
    spec = loaded.spec
    game_dir = str(loaded.directory.resolve())
    defaults = RuleSet(game_dir)
    questions = {
        option.id: Question(
            before=defaults,
            after=RuleSet(game_dir, None, (option.id,)),
            sequence=spec.scorer.sequence,
            seed=seed,
            tables=tables,
        )
        for ruling in spec.rulings
        for option in ruling.options
        if option.id != ruling.default
    }
    if not questions:
        return {}
    key = cache_files.key(FORMAT, spec.model_dump_json(), str(tables), str(seed))
    return _cached(f"{spec.game.id}.rulings", key, questions, workers)


def edition_report(
    loaded: LoadedSpec,
    previous: Spec,
    edition: str,
    *,
    tables: int = TABLES,
    seed: int = SEED,
    workers: int | None = None,
) -> ImpactReport:
    """The report of this spec against the earlier ``edition`` (``previous``, as loaded), defaults both.

    ``edition`` is what the build was given (a folder or a git revision): the
    workers read it as the build did; ``previous`` is its spec, for the key.
    """
    spec = loaded.spec
    game_dir = str(loaded.directory.resolve())
    question = Question(
        before=RuleSet(game_dir, edition),
        after=RuleSet(game_dir),
        sequence=spec.scorer.sequence,
        seed=seed,
        tables=tables,
    )
    key = cache_files.key(
        FORMAT,
        spec.model_dump_json(),
        previous.model_dump_json(),
        str(tables),
        str(seed),
    )
    # the edition's name is in the question the workers get, so it is in the key too
    key = cache_files.key(key, edition)
    return _cached(f"{spec.game.id}.edition", key, {EDITION: question}, workers)[EDITION]


# --------------------------------------------------------------------- running


def _job(labelled: tuple[str, Chunk]) -> dict[str, Tally]:
    """One question's chunk, scored (the executor's job: runs in a worker process)."""
    label, chunk = labelled
    return {label: run_chunk(chunk)}


def _merge(a: dict[str, Tally], b: dict[str, Tally]) -> dict[str, Tally]:
    """Tallies by label, each merged in chunk order (the executor merges left to right)."""
    out = dict(a)
    for label, tally in b.items():
        out[label] = out[label].merged(tally) if label in out else tally
    return out


def run_questions(
    questions: dict[str, Question], *, workers: int | None = None
) -> dict[str, ImpactReport]:
    """Each question run over its population, all in one pool, and its report.

    The site shows no smallest table, so none is looked for (the tables that
    show a change are dropped before the report is built).
    """
    if workers is None and sum(q.tables for q in questions.values()) <= IN_PROCESS:
        workers = 1
    spread = workers or available_cores()
    work: list[tuple[str, Chunk]] = [
        (label, chunk)
        for label, question in questions.items()
        for chunk in chunks(question, question.tables, spread)
    ]
    tallies = run_chunks(_job, work, _merge, workers=workers)
    return {
        label: build_report(question, replace(tallies.get(label, Tally()), first={}))
        for label, question in questions.items()
    }
