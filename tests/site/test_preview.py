"""Preview languages: below the completeness a spec sets, a language is published as a preview.

Fast tests for each piece (the spec's field, completeness, the notice, the
switcher, the sitemap, the root page) and one real build of one game in one
language: a fuzzy message gives the build's warning and the gate's failure,
and the same catalog under a spec's bar gives a preview the gate lets through.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from babel.messages.pofile import read_po, write_po

from rulepress.i18n.preview import completeness, readiness
from rulepress.model.spec_model import Spec, Translation
from rulepress.render.preview import NOTICE, NOTICE_CLASS, with_notice
from rulepress.render.tree import Page, Paragraph, Section, text
from rulepress.sphinx_ext import deploy, language_links
from rulepress.sphinx_ext.rootpage import root_page
from tests.conftest import (
    DATA,
    LOCALES,
    SPEC_ROOT,
    catalog_copy,
    edit,
    loaded,
    run_cli,
    run_main,
)


def _with_bar(spec: Spec, bar: int) -> Spec:
    game = spec.game.model_copy(update={"translation": Translation(complete_at=bar)})
    return spec.model_copy(update={"game": game})


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("150", "game.translation.complete_at: expected less than or equal to 100"),
        ("-1", "game.translation.complete_at: expected greater than or equal to 0"),
        ("ninety", "game.translation.complete_at: expected an integer, got 'ninety'"),
    ],
)
def test_the_spec_sets_the_bar_and_a_bad_one_is_located(
    tmp_path: Path, value: str, message: str
) -> None:
    game = tmp_path / "rules_spec" / "tiny"
    shutil.copytree(DATA / "specs" / "tiny", game)
    edit(
        game / "game.yaml",
        "  languages: [en]\n",
        f"  languages: [en]\n  translation: {{complete_at: {value}}}\n",
    )
    run = run_main("validate", "--no-examples", "rules_spec/tiny", cwd=tmp_path)
    assert run.code == 3
    assert f"rules_spec/tiny/game.yaml:13:30: {message}" in run.err
    assert "Traceback" not in run.err


def test_a_language_below_the_bar_is_a_preview(tmp_path: Path) -> None:
    spec = loaded("stationfall").spec
    locales = LOCALES
    assert completeness(locales, "cs", ("stationfall", "rulepress")) == 100.0
    assert not readiness(_with_bar(spec, 100), "cs", locales).preview
    assert not readiness(_with_bar(spec, 0), "cs", tmp_path).preview  # no bar: never a preview
    # half of the game's messages emptied: under a bar of 90, not under no bar at all
    copy, po, catalog = catalog_copy(tmp_path, "cs", "stationfall")
    messages = [m for m in catalog if m.id]
    for message in messages[::2]:
        message.string = ""
    with po.open("wb") as fh:
        write_po(fh, catalog)
    ready = readiness(_with_bar(spec, 90), "cs", copy)
    assert ready.preview
    assert 40 < ready.completeness < 70  # the interface catalog is whole
    assert not readiness(_with_bar(spec, 0), "cs", copy).preview
    assert not readiness(_with_bar(spec, 100), "en", copy).preview  # English is the source
    # no catalog of the game at all: nothing of it is translated
    assert completeness(tmp_path / "none", "cs", ("stationfall", "rulepress")) == 0.0


def test_each_page_of_a_preview_opens_with_the_notice_as_a_text_node() -> None:
    page = Page(
        blocks=[
            Section(label="rules", title=text("Pravidla"), children=[Paragraph(children=text("…"))])
        ]
    )
    marked = with_notice(page, lambda s: "<b>Ukázka</b>" if s == NOTICE else s)
    section = marked.blocks[0]
    assert isinstance(section, Section)
    assert section.title == page.blocks[0].title
    notice = section.children[0]
    assert isinstance(notice, Paragraph)
    assert notice.classes == [NOTICE_CLASS]
    # a translation is text, never markup
    assert [c.model_dump() for c in notice.children] == [{"kind": "text", "text": "<b>Ukázka</b>"}]


def test_the_switcher_names_a_preview_as_one() -> None:
    links = language_links(
        "brink/rules",
        "brink/rules.html",
        "en",
        ["en", "cs"],
        {"cs": "Čeština"},
        [],
        {"cs": "ukázka"},
    )
    assert [(link["code"], link["preview"]) for link in links] == [("en", ""), ("cs", "ukázka")]


def test_the_root_page_lists_a_preview_but_never_picks_it() -> None:
    page = root_page(["en", "cs", "ja"], {"cs": "předběžná <verze>"})
    sites = json.loads(re.search(r"var sites=(.*);", page).group(1))  # type: ignore[union-attr]
    assert sites == [["en", "en"], ["ja", "ja"]]
    assert "Čeština <small>předběžná &lt;verze&gt;</small></a>" in page
    # every language a preview: a reader still lands somewhere, on the first
    page = root_page(["cs"], {"cs": "ukázka"})
    assert 'var sites=[["cs", "cs"]]' in page


def test_a_previews_pages_stay_out_of_the_sitemap(tmp_path: Path) -> None:
    for lang in ("en", "cs"):
        for page in ("index.html", "brink/index.html", "harbour/index.html"):
            (tmp_path / lang / page).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / lang / page).write_text("<p></p>", "utf-8")
    xml = deploy.sitemap(tmp_path, ["en", "cs"], "https://x.example/", {("cs", "brink")}).decode()
    locs = re.findall(r"<loc>https://x.example/(.*?)</loc>", xml)
    assert sorted(locs) == sorted(
        ["en/index.html", "en/brink/index.html", "en/harbour/index.html"]
        + ["cs/index.html", "cs/harbour/index.html"]
    )


@pytest.mark.slow
def test_one_fuzzy_message_warns_fails_the_gate_and_a_preview_passes_it(tmp_path: Path) -> None:
    """The issue's case: one message left fuzzy, ``build site --lang cs``, then ``gate``."""
    shutil.copytree(SPEC_ROOT / "stationfall", tmp_path / "rules_spec" / "stationfall")
    _, po, catalog = catalog_copy(tmp_path, "cs", "stationfall")
    for other in (tmp_path / "locales").glob("*/LC_MESSAGES/brink.po"):
        other.unlink()
    message = next(m for m in catalog if (m.context or "").startswith("rules/") and m.id)
    message.flags.add("fuzzy")
    with po.open("wb") as fh:
        write_po(fh, catalog)
    with po.open("rb") as fh:
        line = read_po(fh).get(message.id, message.context).lineno  # type: ignore[union-attr]

    build = run_cli("build", "site", "--lang", "cs", "--no-doctest", cwd=tmp_path)
    assert build.code == 0, build.err
    warning = f"warning: site (cs): 1 message(s) shown in English: {message.context}\n"
    assert warning in build.err
    assert not list((tmp_path / "build" / "site").rglob("*fallbacks*"))  # never served
    gate = run_cli("gate", "--print", "none", cwd=tmp_path)
    assert gate.code == 8, gate.err
    where = (
        f"locales/cs/LC_MESSAGES/stationfall.po:{line}:1: {message.context} (site, cs, stationfall)"
    )
    assert f"{where}: fuzzy, shown in English: " in gate.err

    # the same catalog, under a bar the spec sets: a preview
    edit(
        tmp_path / "rules_spec" / "stationfall" / "game.yaml",
        "translation: {complete_at: 90}",
        "translation: {complete_at: 100}",
    )
    build = run_cli("build", "site", "--lang", "cs", "--no-doctest", cwd=tmp_path)
    assert build.code == 0, build.err
    assert "warning: site (cs) (a preview): 1 message(s) shown in English" in build.err
    page = (tmp_path / "build" / "site" / "cs" / "stationfall" / "rules.html").read_text("utf-8")
    assert '<meta name="robots" content="noindex" />' in page
    assert f'<p class="{NOTICE_CLASS}">Tento překlad je předběžná verze' in page
    gate = run_cli("gate", "--print", "none", cwd=tmp_path)
    assert gate.code == 0, gate.err
    assert "warning: cs is a preview: 1 text(s) in English, not a failure" in gate.err
    assert f"{where}: fuzzy, shown in English: " in gate.err
    assert gate.out.startswith("gate: nothing found that a reader should not see (1 message(s)")
