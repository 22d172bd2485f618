"""The typical translator's mistakes, made in copies of the shipped catalogs, each found by `i18n check`.

Each mistake is made in one message of a copy of Brink's Czech or Japanese
catalog (in tmp_path); the real ``rulepress i18n check`` then runs once per
copy and must exit 5 and report every mistake at its ``file.po:line: msgctxt``.
The shipped catalogs, unchanged, must give no error at all (the new checks
have no false positives on real translations): that is
tests/i18n/test_catalog_workflow.py::test_translator_qa_passes_on_every_catalog.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from babel.messages.pofile import escape, read_po

from tests.conftest import LOCALES, Run, run_main


@dataclass(frozen=True)
class Mistake:
    name: str
    lang: str
    context: str
    change: Callable[[str, str], str]  # (msgid, msgstr) -> the mistaken msgstr
    #: what `i18n check` says after "file.po:line: msgctxt: " (and "unsafe: " for what builds refuse)
    expected: str


def _zero_width(text: str) -> str:
    """English with a zero-width space after the first letter of each word: it reads as English."""
    return " ".join(word[:1] + "\u200b" + word[1:] for word in text.split(" "))


MISTAKES = [
    Mistake(
        "english-left-in",
        "cs",
        "rules/2/text",
        lambda msgid, _: msgid,
        "the translation is the English text",
    ),
    Mistake(
        "english-behind-zero-width-spaces",
        "ja",
        "rules/2/text",
        lambda msgid, _: _zero_width(msgid),
        "the translation is the English text",
    ),
    Mistake(
        "number-word-changed",
        "cs",
        "examples/bill-bendo-cost/text",
        lambda _, msgstr: msgstr.replace("cena je pět", "cena je šest"),
        "the number word 'šest' (6) is not in the source",
    ),
    Mistake(
        "ascii-punctuation-in-japanese",
        "ja",
        "sequences/cost-payment/steps/2/score/component/parts/1/note",
        lambda _, msgstr: msgstr.replace("：", ":"),
        "ASCII punctuation in Japanese: '{faction}のコスト:{amount}、全額を満た'",
    ),
    Mistake(
        "placeholder-renamed",
        "cs",
        "sequences/cost-payment/steps/1/score/component/parts/0/note",
        lambda _, msgstr: msgstr.replace("{amount}", "{cost}"),
        "placeholder {amount} is missing",
    ),
    Mistake(
        "rule-number-changed",
        "cs",
        "examples/sorelia-revolt/text#1",
        lambda _, msgstr: msgstr.replace("{rule:8.4.1}", "{rule:8.4.2}"),
        "placeholder {rule:8.4.1} is missing",
    ),
    Mistake(
        "glossary-link-target-changed",
        "cs",
        "examples/council-three-way-tie/text#3",
        lambda _, msgstr: msgstr.replace("(term:council-track)", "(term:council-trak)"),
        "glossary link (term:council-track) is missing",
    ),
    Mistake(
        "markup-added",
        "cs",
        "examples/sorelia-exchange/text",
        lambda _, msgstr: msgstr.replace("Ada vrátí", "**Ada** vrátí"),
        "Markdown emphasis is not in the source: translations may not add markup",
    ),
    Mistake(
        "digit-changed",
        "cs",
        "game/edition",
        lambda _, msgstr: msgstr.replace("2024", "2025"),
        "the number 2024 is missing",
    ),
    Mistake(
        "raw-id-for-a-label",
        "cs",
        "rulings/rider_targets/options/council_factions_only/description",
        lambda _, msgstr: "council_factions_only: " + msgstr,
        "raw id where a label exists: 'council_factions_only'",
    ),
    Mistake(
        "bullet-list-broken",
        "cs",
        "rules/3.1/text#1",
        lambda _, msgstr: msgstr.replace("\n- Okraj z dvojité", "\nOkraj z dvojité"),
        "the source has 2 list item(s), the translation 1",
    ),
]


def _mistaken(po: Path, mistakes: list[Mistake]) -> dict[str, int]:
    """Make each mistake in ``po`` (rewriting only its msgstr); the line `i18n check` names for each."""
    text = po.read_text(encoding="utf-8")
    with po.open("rb") as fh:
        messages = {m.context: m for m in read_po(fh) if m.id}
    for mistake in mistakes:
        message = messages[mistake.context]
        wrong = mistake.change(str(message.id), str(message.string))
        assert wrong != message.string, f"{mistake.name}: the change changes nothing"
        start = text.index(f"msgctxt {escape(mistake.context)}\n")
        begin = text.index("\nmsgstr ", start) + 1
        end = text.find("\n\n", begin)
        text = text[:begin] + f"msgstr {escape(wrong)}" + text[end if end >= 0 else len(text) :]
    po.write_text(text, encoding="utf-8")
    with po.open("rb") as fh:
        return {m.context: m.lineno for m in read_po(fh) if m.context}


@pytest.fixture(scope="module")
def checked(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Run, str, dict[str, int]]]:
    """By language: the run of `i18n check` on the mistaken copy, its path as shown, and the lines."""
    out = {}
    for lang in ("cs", "ja"):
        folder = tmp_path_factory.mktemp(f"mistakes-{lang}")
        po = folder / "brink.po"
        shutil.copyfile(LOCALES / lang / "LC_MESSAGES" / "brink.po", po)
        lines = _mistaken(po, [m for m in MISTAKES if m.lang == lang])
        out[lang] = (run_main("i18n", "check", str(po)), str(po), lines)
    return out


@pytest.mark.parametrize("mistake", MISTAKES, ids=[m.name for m in MISTAKES])
def test_each_typical_mistake_is_reported_at_its_line(
    checked: dict[str, tuple[Run, str, dict[str, int]]], mistake: Mistake
) -> None:
    run, path, lines = checked[mistake.lang]
    assert run.code == 5, run.err
    assert "Traceback" not in run.err
    where = f"{path}:{lines[mistake.context]}: {mistake.context}: "
    said = {line.replace(": unsafe: ", ": ", 1) for line in run.err.splitlines()}
    assert f"{where}{mistake.expected}" in said, run.err


def test_nothing_else_is_reported_in_the_mistaken_copies(
    checked: dict[str, tuple[Run, str, dict[str, int]]],
) -> None:
    """Every error line names one of the mistaken messages: the rest of the catalog stays clean."""
    for lang, (run, path, lines) in checked.items():
        mistaken = {f"{path}:{lines[m.context]}: {m.context}: " for m in MISTAKES if m.lang == lang}
        errors = [
            line
            for line in run.err.splitlines()
            if line.startswith(path) and ": warning: " not in line
        ]
        assert errors
        assert [e for e in errors if not any(e.startswith(m) for m in mistaken)] == []
