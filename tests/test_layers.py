"""The layers of GUIDE.md hold: spec and scoring import no publishing or CLI library."""

from __future__ import annotations

import json
import subprocess
import sys

FORBIDDEN = ("sphinx", "docutils", "weasyprint", "click", "myst_parser", "sphinx_design", "babel")


def test_spec_and_scoring_stay_free_of_heavy_layers() -> None:
    code = (
        "import json, sys\n"
        "import rulepress, rulepress.spec, rulepress.scoring\n"
        "import rulepress.scoring.examples, rulepress.spec.schema\n"
        "from pathlib import Path\n"
        "from rulepress.spec import load_spec\n"
        "load_spec(Path('rules_spec/stationfall'))\n"
        "print(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    ).stdout
    loaded = set(json.loads(out))
    assert not loaded & set(FORBIDDEN)
    assert "pydantic" in loaded  # sanity: the probe really imported the layers
