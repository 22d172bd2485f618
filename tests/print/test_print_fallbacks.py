"""The print build records what its PDFs show in English, and prints nothing of a preview."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from babel.messages.pofile import write_po

from rulepress.i18n.fallbacks import FallbackRecord
from tests.conftest import SPEC_ROOT, catalog_copy, edit, run_cli

pytestmark = [pytest.mark.slow, pytest.mark.print]


def test_a_fuzzy_message_is_recorded_and_a_preview_is_not_printed(tmp_path: Path) -> None:
    shutil.copytree(SPEC_ROOT / "stationfall", tmp_path / "rules_spec" / "stationfall")
    _, po, catalog = catalog_copy(tmp_path, "cs", "stationfall")
    message = next(m for m in catalog if (m.context or "").startswith("rules/") and m.id)
    message.flags.add("fuzzy")
    with po.open("wb") as fh:
        write_po(fh, catalog)

    build = run_cli("build", "print", "--lang", "cs", cwd=tmp_path)
    assert build.code == 0, build.err
    assert f"warning: print (cs): 1 message(s) shown in English: {message.context}\n" in build.err
    out = tmp_path / "build" / "print"
    record = FallbackRecord.from_json((tmp_path / "build" / "print-fallbacks.json").read_text())
    [shown] = record.language("cs").fallbacks
    assert (shown.context, shown.reason, shown.file) == (
        message.context,
        "fuzzy",
        "locales/cs/LC_MESSAGES/stationfall.po",
    )
    assert list((out / "cs" / "stationfall").glob("rulebook-*.pdf"))

    edit(
        tmp_path / "rules_spec" / "stationfall" / "game.yaml",
        "translation: {complete_at: 90}",
        "translation: {complete_at: 100}",
    )
    build = run_cli("build", "print", "--lang", "cs", cwd=tmp_path)
    assert build.code == 0, build.err
    assert "warning: print (cs): no files for stationfall, a preview in this language" in build.err
    assert not (out / "cs" / "stationfall").exists()
    record = FallbackRecord.from_json((tmp_path / "build" / "print-fallbacks.json").read_text())
    assert record.language("cs").games["stationfall"].preview
    assert record.language("cs").fallbacks == []  # nothing printed, nothing shown
