"""The print files read back with poppler: boxes, fonts, text, pages, CMYK, reproducibility.

Every page of every card and reference card is also rendered to PNG for a person to
look at: under $RULEPRESS_TEST_ARTIFACTS/print when that is set, else in a temporary
folder (tests never write into the repository).
"""

from __future__ import annotations

import itertools
import math
import os
import re
import shutil
import subprocess
import zlib
from pathlib import Path

import pytest

from rulepress.i18n.usage import recording
from rulepress.print.build import PrintBuild, PrintError
from tests.conftest import (
    GAMES,
    LANGUAGES,
    LOCALES,
    PUBLISHED,
    ROOT,
    SPEC_ROOT,
    loaded,
    one_game_root,
)

#: renders PDFs: left out of the quick run (-m 'not slow') and of -m 'not print'
pytestmark = [pytest.mark.slow, pytest.mark.print]

MM = 72 / 25.4
LANGS = LANGUAGES


@pytest.fixture(scope="module")
def artifacts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the PNG pages go: $RULEPRESS_TEST_ARTIFACTS/print, else a temporary folder."""
    chosen = os.environ.get("RULEPRESS_TEST_ARTIFACTS")
    folder = Path(chosen) / "print" if chosen else tmp_path_factory.mktemp("pages")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(scope="module")
def printed(built_print: tuple[Path, object]) -> Path:
    return built_print[0]


def poppler(*args: str) -> str:
    return subprocess.run(args, capture_output=True, text=True, check=True).stdout


def boxes(path: Path) -> dict[str, list[float]]:
    out = {}
    for line in poppler("pdfinfo", "-box", str(path)).splitlines():
        match = re.match(r"(\w+Box):\s+([-\d.\s]+)$", line)
        if match:
            out[match.group(1)] = [float(v) for v in match.group(2).split()]
    return out


def pages(path: Path) -> int:
    return int(re.search(r"Pages:\s+(\d+)", poppler("pdfinfo", str(path))).group(1))  # type: ignore[union-attr]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(
    ("game", "name", "size"),
    [
        ("stationfall", "reference-a5", (148, 210)),
        ("brink", "reference-a5", (148, 210)),
        ("stationfall", "rulebook-a4", (210, 297)),
        ("brink", "cards-poker", (63, 88)),
    ],
)
def test_press_files_have_trim_and_bleed_boxes(
    printed: Path, lang: str, game: str, name: str, size: tuple[int, int]
) -> None:
    found = boxes(printed / lang / game / f"{name}-pdfx4.pdf")
    width, height = size
    x0, y0, x1, y1 = found["TrimBox"]
    assert math.isclose(x1 - x0, width * MM, abs_tol=0.5)
    assert math.isclose(y1 - y0, height * MM, abs_tol=0.5)
    bx0, _, _, by1 = found["BleedBox"]
    assert math.isclose(x0 - bx0, 3 * MM, abs_tol=0.3)
    assert math.isclose(by1 - y1, 3 * MM, abs_tol=0.3)
    assert found["MediaBox"] == found["BleedBox"]


@pytest.mark.parametrize(("game", "lang"), PUBLISHED)
def test_every_font_is_embedded(printed: Path, lang: str, game: str) -> None:
    for pdf in sorted((printed / lang / game).glob("*.pdf")):
        rows = poppler("pdffonts", str(pdf)).splitlines()[2:]
        assert rows, pdf
        for row in rows:
            assert row.split()[-5] == "yes", (pdf.name, row)  # the "emb" column


@pytest.mark.parametrize(
    ("lang", "game", "expected"),
    [
        ("cs", "stationfall", ["Přehledová karta", "pole zrady", "Pád stanice"]),
        ("cs", "brink", ["Hlasování rady", "prestiž"]),
        ("ja", "stationfall", ["リファレンスカード", "裏切りボックス"]),
        ("ja", "brink", ["評議会", "名声"]),
        ("en", "brink", ["Reference card", "Council Vote"]),
    ],
)
def test_text_is_extractable_in_every_script(
    printed: Path, lang: str, game: str, expected: list[str]
) -> None:
    text = poppler("pdftotext", str(printed / lang / game / "reference-a5.pdf"), "-")
    book = poppler("pdftotext", str(printed / lang / game / "rulebook-a4.pdf"), "-")
    for word in expected:
        assert word.casefold() in (text + book).casefold(), word
    assert "\ufffd" not in text  # no replacement characters (missing glyphs)


@pytest.mark.parametrize(
    ("lang", "markers"),
    [
        ("cs", ("Přehledová karta", "Pravidla hry", "Karty kroků", "Změny v tomto vydání")),
        ("ja", ("リファレンスカード", "ルールブック", "ステップカード", "この版の変更点")),
    ],
)
def test_every_pdf_carries_text_in_its_language(
    printed: Path, lang: str, markers: tuple[str, ...]
) -> None:
    for game in GAMES:
        for pdf in sorted((printed / lang / game).glob("*.pdf")):
            text = poppler("pdftotext", str(pdf), "-")
            # letter-spaced capitals come out as "P ŘEHLEDOVÁ": compare without spaces or case
            flat = re.sub(r"\s+", "", text).casefold()
            assert any(re.sub(r"\s+", "", m).casefold() in flat for m in markers), pdf.name
            assert "\ufffd" not in text, pdf.name


def test_japanese_lines_never_start_with_closing_punctuation_or_small_kana(printed: Path) -> None:
    forbidden = "、。，．）」』】ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ"
    for game, lang in PUBLISHED:
        if lang != "ja":
            continue  # the games published in Japanese
        text = poppler("pdftotext", "-layout", str(printed / "ja" / game / "rulebook-a4.pdf"), "-")
        starts = [line.strip()[0] for line in text.splitlines() if line.strip()]
        assert not [c for c in starts if c in forbidden]


def test_page_counts(printed: Path) -> None:
    for game, lang in PUBLISHED:
        folder = printed / lang / game
        assert pages(folder / "reference-a5.pdf") == 2  # front and back
        publishing = loaded(game).spec.publishing
        assert publishing is not None
        # a card per step of the sequences on the step cards (not those of the reference
        # card: a game may put a sequence on one and not the other)
        deck = publishing.step_cards
        if deck is not None:
            cards = sum(len(_steps_of(game, seq)) for seq in deck.sequences)
            assert pages(folder / f"cards-{deck.format}.pdf") == 2 * cards
            sheets = math.ceil(cards / 9)
            assert pages(folder / "pnp-a4.pdf") == 2 * sheets
            assert pages(folder / "pnp-letter.pdf") == 2 * sheets
        book = pages(folder / "rulebook-a4.pdf")
        assert book > 5
        assert book % 4 == 0  # ready to saddle-stitch (notes pages fill the last sheet)


def _steps_of(game: str, sequence: str) -> list[str]:
    seq = next(s for s in loaded(game).spec.sequences if s.id == sequence)
    out: list[str] = []

    def walk(steps: list) -> None:  # type: ignore[type-arg]
        for step in steps:
            out.append(step.number)
            walk(step.steps)

    walk(seq.steps)
    return out


def _streams(path: Path) -> list[bytes]:
    data = path.read_bytes()
    out = []
    for match in re.finditer(rb"stream\r?\n(.*?)\r?\nendstream", data, re.S):
        try:
            out.append(zlib.decompress(match.group(1)))
        except zlib.error:
            out.append(match.group(1))
    return out


def test_press_colours_are_cmyk(printed: Path) -> None:
    for name in ("reference-a5.pdf", "rulebook-a4.pdf", "cards-poker.pdf"):
        content = b"\n".join(_streams(printed / "cs" / "stationfall" / name))
        assert b"/DeviceCMYK cs" in content  # colours are set in the CMYK space
        assert re.search(rb"[\d.]+ [\d.]+ [\d.]+ [\d.]+ scn\b", content)
        assert b"/DeviceRGB" not in content
        assert not re.search(rb"[\d.]+ [\d.]+ [\d.]+ (rg|RG)\b", content)  # no RGB colour


def test_pdfx4_has_a_cmyk_output_intent(printed: Path) -> None:
    path = printed / "ja" / "brink" / "reference-a5-pdfx4.pdf"
    data = path.read_bytes() + b"\n".join(_streams(path))  # dictionaries may sit in object streams
    assert b"/OutputIntents" in data
    assert b"/GTS_PDFX" in data
    assert b"PDF/X-4" in data
    assert b"/DestOutputProfile" in data


def test_print_and_play_sheets_are_3x3_with_crop_marks(printed: Path) -> None:
    for sheet in ("pnp-a4.pdf", "pnp-letter.pdf"):
        path = printed / "en" / "stationfall" / sheet
        text = poppler("pdftotext", "-f", "1", "-l", "1", str(path), "-")
        assert text.count("Stationfall and Scoring".upper()) == 9  # nine fronts on the first sheet
        content = b"\n".join(_streams(path))
        assert content.count(b" re") >= 9  # the card slots


def test_png_artifacts_for_people(printed: Path, artifacts: Path) -> None:
    for game, lang in PUBLISHED:
        for name in ("reference-a5", "cards-poker", "pnp-a4"):
            target = artifacts / f"{lang}-{game}-{name}"
            subprocess.run(
                [
                    "pdftoppm",
                    "-r",
                    "50",
                    "-png",
                    "-l",
                    "2",
                    str(printed / lang / game / f"{name}.pdf"),
                    str(target),
                ],
                check=True,
            )
    assert len(list(artifacts.glob("*.png"))) >= 3 * 2 * 3


def test_same_sources_give_identical_pdfs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Twice alike, whether laid out here or in worker processes, with the same record.

    The first build lays out two languages side by side in two processes; the
    second lays out Japanese alone, here. The Japanese files (fonts subset, glyphs
    shaped) are the same bytes, and so are the catalog lookups and fallbacks the
    build records of them (the workers send theirs back).
    """
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")
    first, second = tmp_path / "a", tmp_path / "b"
    specs = one_game_root(tmp_path)
    builds = []
    for out, langs, workers in ((first, ("en", "ja"), 2), (second, ("ja",), 1)):
        # one print-and-play sheet size: the Letter sheets impose the same cards by the
        # same code as the A4 ones (and take a tenth of each build's layout time)
        job = PrintBuild(ROOT, specs, LOCALES, out, langs, workers=workers, pnp_sheets=("a4",))
        with recording() as used:
            job.build()
        builds.append((job, used))
    files = sorted(p.relative_to(second) for p in second.rglob("*.pdf"))
    assert files
    assert (first / "en" / "stationfall" / "rulebook-a4.pdf").is_file()
    for rel in files:
        assert (first / rel).read_bytes() == (second / rel).read_bytes(), rel
    (parallel, parallel_used), (here, here_used) = builds
    ja = {key: ids for key, ids in parallel_used.used.items() if key[0] == "ja"}
    assert ja
    assert ja == here_used.used
    assert parallel.record.languages["ja"] == here.record.languages["ja"]
    assert parallel.timings.keys() >= here.timings.keys()
    info = poppler("pdfinfo", str(first / "ja/stationfall/reference-a5.pdf"))
    assert "CreationDate:    Thu Jan  1 00:00:00 2026 UTC" in info  # SOURCE_DATE_EPOCH


def test_overflow_names_card_language_and_amount_and_writes_nothing(tmp_path: Path) -> None:
    job = PrintBuild(ROOT, one_game_root(tmp_path), LOCALES, tmp_path / "out", ("cs",), ("poker",))
    with pytest.raises(PrintError) as info:
        job.build()
    # a build that writes nothing lays out no more than can overflow: not the rulebook
    # or the errata sheet, and still the step cards (for problems of their own)
    laid = {Path(name).stem for name in job.timings}
    assert laid, "the cards are laid out"
    assert not {"rulebook-a4", "errata-a4"} & laid, laid
    message = info.value.render()
    assert re.search(
        r"stationfall \(cs\) reference card, poker: overflow: the content is \d+\.\d mm taller",
        message,
    )
    assert not (tmp_path / "out").exists()


def test_cli_reports_overflow_without_traceback(tmp_path: Path) -> None:
    from tests.conftest import run_cli

    specs = one_game_root(tmp_path)
    result = run_cli(
        "build",
        "print",
        "--spec-root",
        str(specs),
        "--lang",
        "en",
        "--format",
        "tarot",
        "--out",
        str(tmp_path / "o"),
    )
    assert result.code == 7
    assert "reference card, tarot: overflow" in result.err
    assert "Traceback" not in result.err
    bad = run_cli("build", "print", "--format", "huge")
    assert bad.code == 2
    assert "unknown format 'huge'" in bad.err
    shutil.rmtree(tmp_path, ignore_errors=True)


def test_the_publication_gate_passes_on_every_pdf(printed: Path) -> None:
    from rulepress.gate import English, RawIds, scan_print, source_quotes

    raw = RawIds.from_specs(SPEC_ROOT)
    english = English.from_templates(LOCALES)
    # the source documents' own words, quoted in the Sources appendix, are the source's
    # (the Japanese rulebook's ASCII brackets and hyphens): run_gate takes them out too
    quotes = source_quotes(SPEC_ROOT)
    assert scan_print(printed, english, raw, quotes=quotes) == []


def test_no_line_breaks_after_its_first_word_before_an_inline_element(printed: Path) -> None:
    # WeasyPrint broke a text that fills its line exactly, followed by an inline element
    # (rule numbers, a term), after its first word ("To," / "že postava má …"); the HTML
    # writer puts the space before an inline element inside it, which it lays out right
    for game, lang in PUBLISHED:
        if lang in ("en", "cs"):
            pdf = printed / lang / game / "rulebook-a4.pdf"
            lines = poppler("pdftotext", "-layout", str(pdf), "-").splitlines()
            stranded = [
                (first.strip(), after.strip()[:30])
                for first, after in itertools.pairwise(lines)
                if len(first.split()) == 1
                and len(first.strip()) <= 10
                and len(after.strip()) > 60
                and after.strip()[0].islower()
            ]
            assert stranded == [], (pdf, stranded)
    text = poppler("pdftotext", "-layout", str(printed / "cs/stationfall/rulebook-a4.pdf"), "-")
    assert "To, že postava má u sebe" in text
    # the same before any inline element (a glossary term here), not only rule numbers
    text = poppler("pdftotext", "-layout", str(printed / "cs/brink/rulebook-a4.pdf"), "-")
    assert "Kostka Komek, Henko, Magnomi nebo Ventus" in text
