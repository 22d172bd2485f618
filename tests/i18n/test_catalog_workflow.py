"""The catalog workflow on the real specs: extraction, staleness checks, fuzzy on change."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from rulepress.i18n.catalogs import PACKAGE_LOCALES, compile_catalog, read_catalog
from tests.conftest import (
    DATA,
    GAME_LANGUAGES,
    LOCALES,
    ROOT,
    SPEC_ROOT,
    TRANSLATIONS,
    edit,
    project_copy,
    run_cli,
    run_main,
)


def test_committed_templates_and_catalogs_are_current() -> None:
    assert run_main("i18n", "extract", "--check").code == 0
    assert run_main("i18n", "update", "--check").code == 0


def test_plain_pybabel_extracts_the_same_messages(tmp_path: Path) -> None:
    out = tmp_path / "stationfall.pot"
    subprocess.run(
        [
            str(Path(sys.executable).with_name("pybabel")),
            "extract",
            "-F",
            "locales/babel-spec.cfg",
            "-o",
            str(out),
            "rules_spec/stationfall",
        ],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    with out.open("rb") as fp:
        plain = {(m.context, m.id) for m in read_po(fp) if m.id}
    with (LOCALES / "stationfall.pot").open("rb") as fp:
        ours = {(m.context, m.id) for m in read_po(fp) if m.id}
    assert plain == ours
    assert len(ours) > 200


def test_messages_carry_context_comment_and_location() -> None:
    with (LOCALES / "stationfall.pot").open("rb") as fp:
        catalog = read_po(fp)
    title = catalog.get("Winning", "rules/16.4.8/title")
    assert title is not None
    assert title.locations[0][0] == "rules_spec/stationfall/rules.yaml"
    assert title.auto_comments[0] == "YAML: rules[0].rules[3].rules[4].title"
    text = next(m for m in catalog if m.context == "rules/16.4.7/text")
    # two counts: ICU MessageFormat, numbers still placeholders
    assert "{param:cubes_per_player, plural, one {# [Influence cube]" in text.id
    assert "icu-message-format" in text.flags
    assert "next to {param:cubes_per_player} agree" in " ".join(text.auto_comments)
    assert any("{param:cubes_per_player} = 8" in c for c in text.auto_comments)
    noted = catalog.get("Stationfall", "rules/16/title")
    assert noted is not None
    assert any("pád stanice" in c for c in noted.auto_comments)  # the spec author's note
    child = catalog.get("When the Station Falls", "rules/16.1/title")
    assert child is not None
    assert not any("pád stanice" in c for c in child.auto_comments)  # not inherited
    with (PACKAGE_LOCALES / "rulepress.pot").open("rb") as fp:
        plurals = [m for m in read_po(fp) if isinstance(m.id, tuple)]
    assert "winners.places" in {m.context for m in plurals}
    assert all(m.context for m in plurals)


def _project_copy(tmp_path: Path, game: str = "stationfall") -> Path:
    # one game: the workflow is the same for every game
    return project_copy(tmp_path, (game,))


@pytest.mark.slow  # i18n commands over every catalog: not in the quick run
def test_changed_english_becomes_fuzzy_until_updated(tmp_path: Path) -> None:
    work = _project_copy(tmp_path)
    with (work / "locales/cs/LC_MESSAGES/stationfall.po").open("rb") as fp:
        before = read_po(fp)
    old = before.get("Winning", "rules/16.4.8/title")
    assert old is not None
    assert old.string
    assert not old.fuzzy
    edit(work / "rules_spec/stationfall/rules.yaml", "title: Winning", "title: Winning the Game")
    stale = run_main("i18n", "extract", "--check", cwd=work)
    assert stale.code == 5
    assert "locales/stationfall.pot: out of date" in stale.err
    assert run_main("i18n", "update", "--check", cwd=work).code == 5
    assert run_main("i18n", "extract", cwd=work).code == 0
    assert run_main("i18n", "update", cwd=work).code == 0
    after = read_catalog(work / "locales/cs/LC_MESSAGES/stationfall.po")  # reads #| msgid too
    new = after.get("Winning the Game", "rules/16.4.8/title")
    assert new is not None
    assert new.fuzzy
    assert new.previous_id == ["Winning"]
    assert new.string == old.string  # the translation is kept for review
    assert run_main("i18n", "update", "--check", cwd=work).code == 0
    assert run_main("i18n", "update", cwd=work).out == "catalogs: up to date\n"  # #| msgid survives
    qa = run_main("i18n", "check", "--lang", "cs", "--domain", "stationfall", cwd=work)
    assert qa.code == 5
    assert "rules/16.4.8/title: fuzzy" in qa.err


#: the catalogs the specs ask for: each game's own translations, and the shared
#: domains in every language of any game
CATALOGS = {
    (lang, game) for game, langs in GAME_LANGUAGES.items() for lang in langs if lang != "en"
} | {(lang, domain) for lang in TRANSLATIONS for domain in ("rulepress", "theme")}


@pytest.mark.slow  # i18n commands over every catalog: not in the quick run
def test_stats_are_complete_for_every_catalog_the_specs_ask_for() -> None:
    result = run_main("i18n", "stats", "--format", "json")
    assert result.code == 0
    rows = json.loads(result.out)
    assert {(r["lang"], r["domain"]) for r in rows} == CATALOGS
    for row in rows:
        assert row["percent"] == 100.0, row
        assert row["fuzzy"] == 0, row
        assert row["untranslated"] == 0, row
    text = run_main("i18n", "stats").out
    lang, game = min(CATALOGS)
    assert f"{lang:<5} {game:<12}" in text


@pytest.mark.slow  # i18n commands over every catalog: not in the quick run
def test_translator_qa_passes_on_every_catalog() -> None:
    result = run_main("i18n", "check")
    assert result.code == 0, result.err
    assert f"{len(CATALOGS)} catalog(s) checked: 0 error(s)" in result.out


def test_msgfmt_agrees_the_catalogs_are_valid() -> None:
    """GNU msgfmt --check as an independent second opinion (syntax, plurals, formats)."""
    found = [*(LOCALES).glob("*/LC_MESSAGES/*.po"), *PACKAGE_LOCALES.glob("*/*/*.po")]
    assert len(found) == len(CATALOGS)
    for po in sorted(found):
        proc = subprocess.run(
            ["msgfmt", "--check", "-o", "/dev/null", str(po)],
            capture_output=True,
            text=True,
            check=False,
        )
        assert proc.returncode == 0, (po, proc.stderr)


def test_update_alone_brings_the_template_up_to_date(tmp_path: Path) -> None:
    """A translator who runs only `update` never merges from, nor leaves, a stale .pot."""
    work = _project_copy(tmp_path)
    edit(work / "rules_spec/stationfall/rules.yaml", "title: Winning", "title: Winning the Game")
    stale = run_main("i18n", "update", "--check", cwd=work)
    assert stale.code == 5
    assert "locales/stationfall.pot: out of date" in stale.err
    updated = run_main("i18n", "update", cwd=work)
    assert updated.code == 0, updated.err
    assert "updated locales/stationfall.pot" in updated.out.splitlines()
    assert 'msgid "Winning the Game"' in (work / "locales/stationfall.pot").read_text()
    assert run_main("i18n", "extract", "--check", cwd=work).code == 0
    assert run_main("i18n", "update", "--check", cwd=work).code == 0
    # a template the catalogs agree with, alone stale, is stale for update --check too
    (work / "locales/stationfall.pot").write_text("", encoding="utf-8")
    assert run_main("i18n", "update", "--check", cwd=work).code == 5


def test_only_a_game_with_catalogs_must_have_its_template(tmp_path: Path) -> None:
    """A game published in English only has no catalog to keep current: its designer, who
    never ran ``extract``, is not told its template is stale. Once written, the template
    is checked like any other; and a game with catalogs must have it."""
    game = tmp_path / "rules_spec" / "tidewater"
    shutil.copytree(DATA / "specs" / "tidewater", game)
    (tmp_path / "locales").mkdir()
    template = tmp_path / "locales" / "tidewater.pot"
    for step in ("extract", "update"):
        unextracted = run_main("i18n", step, "--check", cwd=tmp_path)
        assert unextracted.code == 0, unextracted.err
    assert not template.exists()
    # extract still writes it when run, and then it must be current
    assert run_main("i18n", "extract", cwd=tmp_path).code == 0
    assert 'msgid "Tides"' in template.read_text(encoding="utf-8")
    edit(game / "rules.yaml", "title: Tides\n", "title: Tides and Quays\n")
    for step in ("extract", "update"):
        stale = run_main("i18n", step, "--check", cwd=tmp_path)
        assert stale.code == 5
        assert "locales/tidewater.pot: out of date" in stale.err
    # published in Czech too: the template and the Czech catalog are missing, and stale
    template.unlink()
    edit(game / "game.yaml", "languages: [en]", "languages: [en, cs]")
    missing = run_main("i18n", "extract", "--check", cwd=tmp_path)
    assert missing.code == 5
    assert "locales/tidewater.pot: out of date" in missing.err
    missing = run_main("i18n", "update", "--check", cwd=tmp_path)
    assert missing.code == 5
    assert "locales/tidewater.pot: out of date" in missing.err
    assert "locales/cs/LC_MESSAGES/tidewater.po: out of date" in missing.err


def test_compile_writes_mo_files_into_the_build_folder(tmp_path: Path) -> None:
    work = _project_copy(tmp_path, "brink")
    result = run_main("i18n", "compile", cwd=work)
    assert (result.code, result.out) == (0, "compiled 2 catalog(s) into build/locales/\n")
    assert (work / "build/locales/cs/LC_MESSAGES/brink.mo").stat().st_size > 1000
    assert list((work / "locales").rglob("*.mo")) == []  # never beside the .po
    elsewhere = run_main("i18n", "compile", "--out", str(tmp_path / "mo"), cwd=work)
    assert elsewhere.code == 0
    assert (tmp_path / "mo/cs/LC_MESSAGES/brink.mo").read_bytes() == (
        work / "build/locales/cs/LC_MESSAGES/brink.mo"
    ).read_bytes()


def test_a_stale_mo_beside_a_catalog_is_never_read(tmp_path: Path) -> None:
    """rulepress reads the .po: a .mo left beside it from an older compile changes nothing."""
    work = _project_copy(tmp_path, "brink")
    po = work / "locales/cs/LC_MESSAGES/brink.po"
    args = ("score", "brink", "--example", "bill-bendo-cost", "--lang", "cs")
    before = run_main(*args, cwd=work)
    assert before.code == 0, before.err
    catalog = read_catalog(po, "cs")
    shown = [m for m in catalog if m.id and m.string and str(m.string) in before.out]
    assert shown  # sanity: the report shows translations of this catalog
    for message in shown:
        message.string = "ZASTARALÉ"  # what an older compile would still say
    po.with_suffix(".mo").write_bytes(compile_catalog(catalog))
    assert "ZASTARALÉ".encode() in po.with_suffix(".mo").read_bytes()
    after = run_main(*args, cwd=work)
    assert (after.code, after.out) == (0, before.out)


@pytest.mark.slow  # i18n commands over every catalog: not in the quick run
def test_the_theme_domain_comes_from_the_templates(tmp_path: Path) -> None:
    """A word changed in a theme template makes theme.pot stale; --domain updates that domain only.

    The copy's own src/ is the rulepress that runs, so the copy is rulepress's
    repository: its theme catalogs are the package's, in src/rulepress/locales/. (A real
    process: the copy's rulepress is imported from PYTHONPATH.)
    """
    work = _project_copy(tmp_path)
    own = {"PYTHONPATH": str(work / "src")}
    package = Path("src/rulepress/locales")
    assert run_cli("i18n", "extract", "--check", "--domain", "theme", cwd=work, env=own).code == 0
    layout = work / "src/rulepress/sphinx_ext/theme/rulepress/layout.html"
    edit(layout, "_('Skip to content')", "_('Skip to the rules')")
    stale = run_cli("i18n", "extract", "--check", cwd=work, env=own)
    assert stale.code == 5
    assert f"{package / 'theme.pot'}: out of date" in stale.err
    assert "stationfall.pot" not in stale.err
    assert run_cli("i18n", "extract", "--domain", "theme", cwd=work, env=own).code == 0
    before = {p: p.read_bytes() for p in work.rglob("*.po") if p.name != "theme.po"}
    updated = run_cli("i18n", "update", "--domain", "theme", cwd=work, env=own)
    assert updated.code == 0
    assert updated.out.splitlines() == [
        f"updated {package / lang / 'LC_MESSAGES' / 'theme.po'}" for lang in TRANSLATIONS
    ]
    assert all(p.read_bytes() == data for p, data in before.items())  # no other domain touched
    catalog = read_catalog(work / package / "cs/LC_MESSAGES/theme.po")
    new = catalog.get("Skip to the rules")
    assert new is not None
    assert not new.string  # no msgctxt: a changed word is a new word for the translator
    assert "Skip to content" in {m.id for m in catalog.obsolete.values()}
    stats = json.loads(run_cli("i18n", "stats", "--format", "json", cwd=work, env=own).out)
    theme = [r for r in stats if r["domain"] == "theme"]
    assert {r["untranslated"] for r in theme} == {1}
    unknown = run_cli("i18n", "update", "--domain", "nope", cwd=work, env=own)
    assert unknown.code == 2


def test_listing_the_catalogs_extracts_no_template(monkeypatch: pytest.MonkeyPatch) -> None:
    """check and compile list the catalogs by domain name: making every template (each
    game rendered for its places, the package's source read) took seconds for nothing."""
    from rulepress.i18n import workflow

    def extracted(*_: object, **__: object) -> None:
        raise AssertionError("a template was made to list the catalogs")

    monkeypatch.setattr(workflow, "all_templates", extracted)
    project = workflow.Project(ROOT, SPEC_ROOT, LOCALES)
    listed = workflow.existing_catalogs(project)
    assert {(lang, domain) for lang, domain, _ in listed} == {
        (lang, domain)
        for lang in TRANSLATIONS
        for domain in (*GAME_LANGUAGES, "rulepress", "theme")
        if domain not in GAME_LANGUAGES or lang in GAME_LANGUAGES[domain]
    }
