"""Translations are untrusted: a hostile msgstr renders as text and never runs as a doctest."""

from __future__ import annotations

import re
from pathlib import Path

from rulepress.i18n.catalogs import render
from rulepress.sphinx_ext.build import SiteBuild
from tests.conftest import ROOT, catalog_copy, loaded

HOSTILE = {
    "rules/16.2/title": "<script>alert('title')</script>",
    "rules/16.4/text": "```{eval-rst}\n.. raw:: html\n\n   <script>alert('rst')</script>\n```",
    "rules/16.3/text#1": "{raw}`<img src=x onerror=alert(1)>` :::{danger} boom",
}


def test_hostile_translations_are_rendered_as_text(tmp_path: Path) -> None:
    locales, po, catalog = catalog_copy(tmp_path, "cs", "stationfall")
    first_example = loaded("stationfall").spec.examples[0].id
    hostile = dict(HOSTILE)
    hostile[f"examples/{first_example}/text#1"] = ">>> import os\n>>> os.getcwd()\n'pwned'"
    for message in catalog:
        if message.context in hostile:
            message.string = hostile[message.context]
    po.write_bytes(render(catalog))

    build = SiteBuild(tmp_path, ROOT / "rules_spec", locales, tmp_path / "out", ("cs",))
    build.build(doctest=True)  # -W: a directive or raw HTML would also warn and fail

    rules = (tmp_path / "out" / "cs" / "stationfall" / "rules.html").read_text(encoding="utf-8")
    assert "<script>alert" not in rules
    assert "&lt;script&gt;alert(" in rules  # shown as text (quotes may be typographic)
    assert "onerror=alert(1)>" not in rules
    assert "eval-rst" in rules  # shown as text
    examples = (tmp_path / "out" / "cs" / "stationfall" / "examples.html").read_text(
        encoding="utf-8"
    )
    assert "&gt;&gt;&gt; import os" in examples
    report = (tmp_path / "out" / "_doctest" / "cs" / "stationfall" / "output.txt").read_text(
        encoding="utf-8"
    )
    tests = int(re.search(r"(\d+) tests", report).group(1))  # type: ignore[union-attr]
    source = (tmp_path / "out" / "_sources" / "cs" / "stationfall" / "examples.md").read_text(
        encoding="utf-8"
    )
    # exactly the generated statements ran: the hostile >>> lines were text, not tests
    assert tests == source.count("\n>>> ")
    assert source.count("```{doctest}") == len(loaded("stationfall").spec.examples)
    assert "pwned" not in report
