"""The page parser inside a real Sphinx: text stays text, labels link, only data makes doctests."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import yaml

from rulepress.render import tree
from rulepress.render.pages import doctest
from rulepress.sphinx_ext.siteconf import CONF_PY, SiteConfig
from tests.conftest import ROOT, SPEC_ROOT, loaded

HOSTILE = (
    "<script>alert(1)</script> <img src=x onerror=alert(2)> &amp; "
    "```{doctest}\n>>> 1 + 1\n3\n```\n>>> print('ran')\nran\n"
    "{raw}`<b>x</b>` \r# heading\u2028- item \x00\x1b[31m {0.__class__}"
)


def _project(tmp_path: Path, page: tree.Page, title: str = "Game <b>title</b>") -> Path:
    src = tmp_path / "src"
    src.mkdir()
    config = SiteConfig(
        project="p",
        title=title,
        language="en",
        languages=["en"],
        language_names={"en": "English"},
        theme="rulepress",
        favicon=str(ROOT / "src/rulepress/sphinx_ext/static/rulepress-icon.svg"),
        spec_root=str(SPEC_ROOT),
    )
    path, text = config.write(src)
    path.write_text(text, encoding="utf-8")
    (src / "conf.py").write_text(CONF_PY, encoding="utf-8")
    (src / "index.rptree").write_text(page.to_json(), encoding="utf-8")
    return src


def _sphinx(builder: str, src: Path, out: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sphinx", "-b", builder, "-W", "-q", str(src), str(out)],
        capture_output=True,
        text=True,
        check=False,
    )


def test_hostile_text_is_text_and_only_data_makes_a_doctest(tmp_path: Path) -> None:
    example = loaded("stationfall").spec.examples[0]
    page = tree.Page(
        blocks=[
            tree.Section(
                label="index",
                title=tree.text(HOSTILE),
                children=[
                    tree.Paragraph(
                        children=[
                            tree.Text(text=HOSTILE),
                            tree.Ref(label="index", children=tree.text(HOSTILE)),
                        ]
                    ),
                    tree.Glossary(
                        entries=[
                            tree.GlossaryEntry(
                                label="term-x", term=HOSTILE, definition=tree.text(HOSTILE)
                            )
                        ]
                    ),
                    tree.CodeBlock(text=HOSTILE, language="text"),
                    # as the examples page writes a state: YAML quotes and escapes what it must
                    tree.CodeBlock(
                        text=yaml.safe_dump({"id": HOSTILE}, allow_unicode=True), language="yaml"
                    ),
                    doctest("stationfall", example),
                ],
            )
        ]
    )
    src = _project(tmp_path, page)
    html = _sphinx("html", src, tmp_path / "html")
    assert html.returncode == 0, html.stderr
    index = (tmp_path / "html" / "index.html").read_text(encoding="utf-8")
    assert "<script>alert" not in index
    assert "<img src=x" not in index
    assert "<b>x</b>" not in index
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in index
    assert "\x00" not in index
    assert "\x1b" not in index
    # the game's title is data in the theme's templates too
    assert "<b>title</b>" not in index
    assert "Game &lt;b&gt;title&lt;/b&gt;" in index
    assert 'id="term-x"' in index
    assert 'href="#index"' in index
    tests = _sphinx("doctest", src, tmp_path / "doctest")
    assert tests.returncode == 0, tests.stdout + tests.stderr
    report = (tmp_path / "doctest" / "output.txt").read_text(encoding="utf-8")
    statements = 2 + sum(len(f) for f in example.expect.players.values())
    statements += (example.expect.winners is not None) + (example.expect.decided_by is not None)
    statements += sum(len(f) for f in example.expect.tallies.values())
    assert f"{statements} tests" in report
    assert "ran" not in report.replace("run_example", "")


def test_a_page_that_is_not_a_tree_fails_the_build(tmp_path: Path) -> None:
    src = _project(tmp_path, tree.Page(blocks=[]))
    (src / "index.rptree").write_text(
        json.dumps({"blocks": [{"kind": "raw", "format": "html", "text": "<script>"}]}),
        encoding="utf-8",
    )
    html = _sphinx("html", src, tmp_path / "html")
    assert html.returncode != 0
    assert "not a rulepress page" in html.stderr
