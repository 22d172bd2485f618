"""Press files and player files, read back with pikepdf: the output intent, the page boxes.

Every document a print shop gets comes twice (rulepress.print.build): the press
file (``*-pdfx4.pdf``: bleed, boxes, PDF/X-4 output intent) and the player's file
(cut to the paper, no output intent). The intent's ICC profile is checked three
ways that do not share code with WeasyPrint: the PDF stream's ``/N`` (pikepdf,
over qpdf), the profile's header as LittleCMS reads it (Pillow's ImageCms), and
Argyll's ``iccdump``.
"""

from __future__ import annotations

import io
import math
import re
import subprocess
from pathlib import Path

import pikepdf
import pytest
from PIL import ImageCms

from rulepress.print import pdf, styles
from rulepress.print.formats import PRESETS, Format
from rulepress.print.profiles import DEFAULT_PROFILE
from rulepress.render.html_tree import document, el
from tests.conftest import LANGUAGES, PUBLISHED, loaded

pytestmark = [pytest.mark.slow, pytest.mark.print]

MM = 72 / 25.4
#: channels per ICC colour space signature (ICC.1:2010, 7.2.6), as a PDF's /N counts them
CHANNELS = {"GRAY": 1, "RGB": 3, "CMY": 3, "Lab": 3, "CMYK": 4}
#: the paper (trim) size of each file the print build writes, by the start of its name
PAPER = {
    "rulebook-a4": PRESETS["a4"],
    "errata-a4": PRESETS["a4"],
    "reference-a5": PRESETS["a5"],
    "cards-poker": PRESETS["poker"],
    "pnp-a4": PRESETS["a4"],
    "pnp-letter": PRESETS["letter"],
}


@pytest.fixture(scope="module")
def printed(built_print: tuple[Path, object]) -> Path:
    return built_print[0]


def _press_files(printed: Path) -> list[Path]:
    return sorted(printed.glob("*/*/*-pdfx4.pdf"))


def _player_files(printed: Path) -> list[Path]:
    return sorted(p for p in printed.glob("*/*/*.pdf") if not p.stem.endswith("-pdfx4"))


def _size_mm(box: pikepdf.Array) -> tuple[float, float]:
    x0, y0, x1, y1 = (float(v) for v in box)
    return (x1 - x0) / MM, (y1 - y0) / MM


def _same_size(found: tuple[float, float], fmt: Format, plus_mm: float = 0.0) -> bool:
    want = (fmt.width_mm + 2 * plus_mm, fmt.height_mm + 2 * plus_mm)
    return all(math.isclose(f, w, abs_tol=0.05) for f, w in zip(found, want, strict=True))


def _check_intent(path: Path) -> None:
    """The file's one output intent: PDF/X, with a CMYK printer profile that says /N 4."""
    with pikepdf.open(path) as doc:
        (intent,) = doc.Root.OutputIntents
        assert intent.S == "/GTS_PDFX", path
        stream = intent.DestOutputProfile
        data = stream.read_bytes()
        header = ImageCms.ImageCmsProfile(io.BytesIO(data)).profile
        assert header.device_class.strip() == "prtr", path
        assert header.xcolor_space.strip() == "CMYK", path
        assert int(stream.N) == CHANNELS[header.xcolor_space.strip()] == 4, path
        # the ICCBased colour spaces the pages name (the same stream) say the same
        spaces = doc.pages[0].obj.Resources.ColorSpace
        for name, space in spaces.items():
            if isinstance(space, pikepdf.Array) and space[0] == "/ICCBased":
                assert int(space[1].N) == 4, (path, name)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_press_file_has_a_well_formed_cmyk_output_intent(printed: Path, lang: str) -> None:
    found = [p for p in _press_files(printed) if p.relative_to(printed).parts[0] == lang]
    # reference card, rulebook and cards, for each game published in the language
    assert {p.name.split("-")[0] for p in found} == {"reference", "rulebook", "cards"}
    for path in found:
        _check_intent(path)


def test_argyll_reads_the_intent_profile_as_four_channel_cmyk(
    printed: Path, tmp_path: Path
) -> None:
    """A second, independent ICC parser (Argyll CMS) agrees with the stream's /N."""
    path = printed / "cs" / "stationfall" / "rulebook-a4-pdfx4.pdf"
    with pikepdf.open(path) as doc:
        stream = doc.Root.OutputIntents[0].DestOutputProfile
        n = int(stream.N)
        (tmp_path / "intent.icc").write_bytes(stream.read_bytes())
    dump = subprocess.run(
        ["iccdump", "-v", "1", str(tmp_path / "intent.icc")],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert re.search(r"Device Class\s*=\s*Output", dump), dump
    assert re.search(r"Color Space\s*=\s*CMYK", dump), dump
    assert n == 4


def test_one_document_s_intent_reads_four_channels(tmp_path: Path) -> None:
    """The stylesheet's ``@color-profile`` rule alone, in a one-page document: /N is 4."""
    head = el("head", el("meta", charset="utf-8"))
    html = document(el("html", head, el("body", el("p", "Pád stanice")), lang="cs"))
    css = styles.color_profile(DEFAULT_PROFILE) + "@page { size: a6; }"
    path = tmp_path / "one.pdf"
    path.write_bytes(pdf.write(pdf.layout(html, css), x4=True))
    _check_intent(path)


def test_press_files_are_trim_plus_bleed_with_their_boxes(printed: Path) -> None:
    files = _press_files(printed)
    # the rulebook, the reference card and the step cards (if the game has them), of
    # every game in each of its languages
    expected = [
        (lang, game, name)
        for game, lang in PUBLISHED
        for name in ("rulebook", "reference", "cards")
        if name != "cards" or loaded(game).spec.publishing.step_cards  # type: ignore[union-attr]
    ]
    assert len(files) == len(expected)
    assert {(p.parent.parent.name, p.parent.name) for p in files} == {
        (lang, game) for lang, game, _ in expected
    }
    for path in files:
        fmt = PAPER[path.stem.removesuffix("-pdfx4")]
        with pikepdf.open(path) as doc:
            for page in doc.pages:
                assert _same_size(_size_mm(page.obj.MediaBox), fmt, 3.0), path
                assert _same_size(_size_mm(page.obj.TrimBox), fmt), path
                assert _same_size(_size_mm(page.obj.BleedBox), fmt, 3.0), path


def test_player_files_are_the_paper_size_with_no_intent(printed: Path) -> None:
    files = _player_files(printed)
    names = {p.stem for p in files}
    assert {"rulebook-a4", "reference-a5", "cards-poker", "pnp-a4", "pnp-letter"} <= names
    for path in files:
        fmt = PAPER[path.stem]
        with pikepdf.open(path) as doc:
            assert "/OutputIntents" not in doc.Root, path  # not PDF/X: no printing condition
            for page in doc.pages:
                assert _same_size(_size_mm(page.obj.MediaBox), fmt), path
                for box in ("/TrimBox", "/BleedBox"):
                    if box in page.obj:
                        assert _same_size(_size_mm(page.obj[box]), fmt), (path, box)
                # CMYK as designed, shown through the press file's profile
                default = page.obj.Resources.ColorSpace.DefaultCMYK
                assert default[0] == "/ICCBased", path
                assert int(default[1].N) == 4, path


def test_a_player_file_has_the_pages_and_words_of_its_press_file(printed: Path) -> None:
    for press in _press_files(printed):
        player = press.with_name(press.name.replace("-pdfx4", ""))
        with pikepdf.open(press) as a, pikepdf.open(player) as b:
            assert len(a.pages) == len(b.pages), player
        # sorted: pdftotext orders text by where it sits on the page, which the
        # player's cut page changes for lines the press file's bleed puts side by side
        words = [
            sorted(
                subprocess.run(
                    ["pdftotext", str(p), "-"], capture_output=True, text=True, check=True
                ).stdout.split()
            )
            for p in (press, player)
        ]
        assert words[0] == words[1], player
