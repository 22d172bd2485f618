"""The layers of GUIDE.md hold: spec and scoring import no publishing or CLI library."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

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
