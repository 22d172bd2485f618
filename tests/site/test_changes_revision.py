"""The changes page of the default build, against the real revision Brink's spec records.

``rulepress build site`` with no ``--since``: Brink's ``game.previous_edition`` names a
commit of this repository (the one at which its spec first named edition 2026.11), which
the build reads with ``git archive``, catalogs and all. What it changed since (a ruling's
reason and a new option, step notes that are templates, sources, words of the table
states) must reach Czech and Japanese readers in their language: no English of either
edition, no template, no catalog context, no path. The publication gate then runs over
the site. A checkout without that commit (a tarball, a shallow clone) skips the test, as
the build then leaves the page out (tests/editions/test_previous.py).
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
import yaml

from rulepress.gate import run_gate
from rulepress.i18n.visible import as_seen
from rulepress.model.previous import PreviousEdition
from tests.conftest import LOCALES, ROOT, SPEC_ROOT, loaded, run_main
from tests.editions.test_previous import _have, diff_english, words_only

pytestmark = [pytest.mark.slow]

GAME = "brink"


def _recorded() -> str:
    from rulepress.editions.previous import recorded_previous

    recorded = recorded_previous(SPEC_ROOT / GAME)
    assert isinstance(recorded, PreviousEdition)
    assert recorded.revision is not None  # the shipped spec records a revision
    return recorded.revision


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Brink's site, en, cs and ja, no doctests: the default build, in a project of its own."""
    revision = _recorded()
    if not _have(revision):
        pytest.skip(f"this checkout has no commit {revision} (no history)")
    project = tmp_path_factory.mktemp("revision")
    (project / "rules_spec").mkdir()
    (project / "rules_spec" / GAME).symlink_to(SPEC_ROOT / GAME)
    (project / "locales").symlink_to(LOCALES)
    run = run_main(
        "build",
        "site",
        "--spec-root",
        str(project / "rules_spec"),
        "--out",
        str(project / "site"),
        "--no-doctest",
        "--quiet",
        cwd=project,
    )
    assert run.code == 0, run.err
    assert "warning" not in run.err, run.err
    return project


class _Text:
    """The text a reader sees on a page: no tags, scripts or styles."""

    def __init__(self, html: str) -> None:
        from html.parser import HTMLParser

        parts: list[str] = []

        class Reader(HTMLParser):
            skip = 0

            def handle_starttag(self, tag: str, attrs: object) -> None:
                self.skip += tag in ("script", "style")

            def handle_endtag(self, tag: str) -> None:
                self.skip -= tag in ("script", "style")

            def handle_data(self, data: str) -> None:
                if not self.skip:
                    parts.append(data)

        Reader().feed(html)
        self.text = as_seen(" ".join(" ".join(parts).split()))


def test_the_default_build_has_the_changes_page(built: Path) -> None:
    for lang in ("en", "cs", "ja"):
        page = built / "site" / lang / GAME / "changes.html"
        assert page.is_file(), lang
        assert 'href="changes.html"' in (built / "site" / lang / GAME / "index.html").read_text(
            encoding="utf-8"
        )


@pytest.mark.parametrize("lang", ["cs", "ja"])
def test_no_english_template_context_or_path_reaches_a_reader(built: Path, lang: str) -> None:
    revision = _recorded()
    english = diff_english(GAME, revision, "--spec-root", str(built / "rules_spec"))
    assert len(english) > 20  # the revision differs: there is English to look for
    text = _Text((built / "site" / lang / GAME / "changes.html").read_text(encoding="utf-8")).text
    seen = words_only(text)
    shown = [phrase for phrase in english if phrase in seen]
    assert shown == []
    assert "{" not in text
    assert "}" not in text
    # no catalog context (rulings/…/reason, vocabulary/…), no path of this machine or the repo
    assert not re.search(r"\b(rulings|sequences|vocabulary|not_in_source|table_states)/", text)
    assert "rules_spec" not in text
    assert str(ROOT) not in text
    assert "/tmp" not in text
    # every row says what changed
    html = (built / "site" / lang / GAME / "changes.html").read_text(encoding="utf-8")
    for row in re.findall(r"<tr[^>]*>\s*<td[^>]*>(.*?)</td>", html, re.S):
        assert _Text(row).text.strip(), row
    # the versions line names the edition once, by its own version and date: the spec
    # kept version 2026.11, so this is what changed since then
    since = {
        "cs": "Změny od verze 2026.11 (30.\u00a0listopadu 2026).",
        "ja": "バージョン2026.11（2026年11月30日）からの変更点です。",
    }[lang]
    assert as_seen(since) in text
    # and the changelog names it once more before each line added since that revision
    old_game = subprocess.run(
        ["git", "show", f"{revision}:rules_spec/{GAME}/game.yaml"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    kept = {e["id"] for e in yaml.safe_load(old_game)["game"].get("changelog", [])}
    added = [e for e in loaded(GAME).spec.game.changelog if e.id not in kept]
    assert {e.version for e in added} == {"2026.11"}  # issue 30's: rulings quote the rulebook
    assert text.count("2026.11") == 1 + len(added)


def test_the_gate_passes_the_site(built: Path) -> None:
    run_gate(built / "site", None, built / "rules_spec", LOCALES)
