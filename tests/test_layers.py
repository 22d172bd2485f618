"""The layers of GUIDE.md hold.

The stage packages and scoring import no publishing or CLI library; the import
graph of rulepress (grimp) has no cycle, of modules or of packages, and no
layer imports a higher one; README's Layout names every package.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import grimp
import pytest

from tests.conftest import DATA, ROOT, SPEC_ROOT

FORBIDDEN = ("sphinx", "docutils", "weasyprint", "click", "myst_parser", "sphinx_design", "babel")


def test_spec_and_scoring_stay_free_of_heavy_layers() -> None:
    code = (
        "import json, sys\n"
        "import rulepress, rulepress.games, rulepress.scoring\n"
        "import rulepress.scoring.examples, rulepress.games.schema\n"
        "from pathlib import Path\n"
        "from rulepress.games import load_spec\n"
        "load_spec(Path('rules_spec/stationfall'))\n"
        "print(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=600
    ).stdout
    loaded = set(json.loads(out))
    assert not loaded & set(FORBIDDEN)
    assert "pydantic" in loaded  # sanity: the probe really imported the layers


#: what only building needs (the `site` and `print` extras); the core commands never import it
BUILD_ONLY = ("sphinx", "myst_parser", "sphinx_design", "weasyprint", "pydyf", "PIL")
#: the commands a core install serves (each also given --spec-root)
CORE_CALLS = (
    ["games"],
    ["examples", "brink"],
    ["schema", "--state", "stationfall"],
    ["state-template", "stationfall"],
    ["score", "brink", "--example", "bill-bendo-cost", "--lang", "ja"],
)


def test_core_commands_import_nothing_of_the_build_extras(tmp_path: Path) -> None:
    """score, validate, schema, games and examples run on a core install (pyproject's extras)."""
    state = DATA / "states" / "stationfall-four-players.yaml"
    code = (
        "import json, sys\n"
        "from rulepress.cli import main\n"
        f"calls = {CORE_CALLS!r}\n"
        f"codes = [main([*c, '--spec-root', {str(SPEC_ROOT)!r}]) for c in calls]\n"
        f"codes.append(main(['score', 'stationfall', {str(state)!r}, '--lang', 'cs',"
        f" '--spec-root', {str(SPEC_ROOT)!r}, '--locales', {str(ROOT / 'locales')!r}]))\n"
        f"codes.append(main(['validate', {str(SPEC_ROOT)!r}]))\n"
        "print(json.dumps([codes, sorted({m.split('.')[0] for m in sys.modules})]))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=tmp_path,
        check=False,
    )
    codes, loaded = json.loads(proc.stdout.splitlines()[-1])
    assert codes == [0] * (len(CORE_CALLS) + 2), proc.stderr
    assert not set(loaded) & set(BUILD_ONLY)
    assert "babel" in loaded  # sanity: the Czech report really ran


#: GUIDE.md §2's layers, bottom first, as top-level modules and packages of rulepress: a
#: module imports only from its own layer or below (inside functions too). Within a layer
#: its members may import each other; the cycle tests below keep that acyclic.
LAYERS: tuple[tuple[str, ...], ...] = (
    # shared leaves: errors and exit codes, writing files, work folders, caches, UI words,
    # which build of the hot path is in use (compiled imports its modules by name only),
    # regular expressions compiled when first used
    (
        "lazy_pattern",
        "errors",
        "invisible",
        "isolation",
        "progress",
        "uitext",
        "output",
        "workdir",
        "cache_files",
        "compiled",
    ),
    # the stage packages, in the order a spec goes through them
    ("expressions",),
    ("yamlsrc",),
    ("model",),
    ("states",),
    ("checks",),
    ("games",),
    # scoring · i18n · render (editions: comparing two editions of a spec, scored)
    ("scoring",),
    # the built-in operations, on the scorer's machinery as a plugin's are (the scorer
    # finds them through the entry points, never by import)
    ("operations",),
    ("editions",),
    # populations of tables: drawn from a state format (the sequence found as the scorer
    # finds it), shrunk, or recorded; the executor that runs jobs over them; what impact
    # questions and the rulings' weight are asked over
    ("population",),
    # how much a rule change matters: two rule sets scored over a population of tables
    ("impact",),
    ("i18n",),
    ("render",),
    ("doctest_api", "edition_reports", "impact_reports", "gate", "reference"),
    # sphinx_ext · print · cli (the site shows the print files, so print sits below it)
    ("print",),
    ("sphinx_ext",),
    ("cli", "__main__"),
    # the commands, on the command line's shared options; the command line imports each
    # only by name, when it runs (rulepress.cli.LazyGroup)
    ("commands",),
)


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    # every import statement, inside functions and under TYPE_CHECKING too; no cache file
    # (tests never write into the repository)
    return grimp.build_graph("rulepress", cache_dir=None)


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
            elif child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(edges.get(child, ())))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return found


def _top(module: str) -> str:
    return ".".join(module.split(".")[:2])


def test_no_module_imports_another_in_a_cycle(graph: grimp.ImportGraph) -> None:
    edges = {m: set(graph.find_modules_directly_imported_by(m)) for m in graph.modules}
    assert _cycles(edges) == []


def test_no_package_imports_another_in_a_cycle(graph: grimp.ImportGraph) -> None:
    edges: dict[str, set[str]] = {_top(m): set() for m in graph.modules}
    for module in graph.modules:
        edges[_top(module)] |= {_top(d) for d in graph.find_modules_directly_imported_by(module)}
        edges[_top(module)].discard(_top(module))
    assert _cycles(edges) == []


def test_every_package_and_module_has_its_layer(graph: grimp.ImportGraph) -> None:
    placed = {f"rulepress.{name}" for layer in LAYERS for name in layer}
    assert {_top(m) for m in graph.modules} - {"rulepress"} == placed


def test_no_layer_imports_a_higher_one(graph: grimp.ImportGraph) -> None:
    layers = [grimp.Layer(*names, independent=False) for names in reversed(LAYERS)]
    illegal = graph.find_illegal_dependencies_for_layers(layers, containers={"rulepress"})
    shown = sorted(
        f"{d.importer} -> {d.imported}: "
        + "; ".join(
            " -> ".join(["|".join(sorted(r.heads)), *r.middle, "|".join(sorted(r.tails))])
            for r in d.routes
        )
        for d in illegal
    )
    assert shown == []


def test_readme_layout_names_every_package() -> None:
    """README's Layout section has a line for each package under src/rulepress."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    layout = readme.split("## Layout", 1)[1].split("\n## ", 1)[0]
    named = set(re.findall(r"^\s+(\w+)/", layout, flags=re.MULTILINE))
    packages = {p.parent.name for p in (ROOT / "src" / "rulepress").glob("*/__init__.py")}
    assert packages - named == set()
    assert named - packages == set()
