"""What a print shop checks, read back from the PDFs with pdfplumber (pdfminer).

Duplex registration, type sizes and inks, tints, the two faces of the
reference card, a rulebook ready to bind, the output intent and the options.
"""

from __future__ import annotations

import functools
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pdfplumber
import pytest
from click.testing import CliRunner

from rulepress.cli import cli
from rulepress.model.languages import translations
from rulepress.print import impose, pdf, styles
from rulepress.print.build import PrintBuild, PrintError
from rulepress.print.formats import PRESETS, parse_format
from rulepress.print.profiles import DEFAULT_PROFILE, read_profile
from rulepress.render import print_trees, print_writer
from rulepress.render.context import RenderContext
from rulepress.render.html_tree import document, el
from tests.conftest import (
    GAME_LANGUAGES,
    GAMES,
    LANGUAGES,
    LOCALES,
    PUBLISHED,
    ROOT,
    SPEC_ROOT,
    loaded,
)

pytestmark = [pytest.mark.slow, pytest.mark.print]

MM = 72 / 25.4
LANGS = LANGUAGES
BLACK = (0.0, 0.0, 0.0, 1.0)


@pytest.fixture(scope="module")
def printed(built_print: tuple[Path, object]) -> Path:
    return built_print[0]


def _cards(page: object) -> list[tuple[float, float, float, float]]:
    """The card slots of a print-and-play sheet, in the order they are drawn (x, top, w, h)."""
    return [
        (r["x0"], r["top"], r["width"], r["height"])
        for r in page.rects  # type: ignore[attr-defined]
        if r["fill"] and r["width"] > 30 * MM
    ]


def _flipped(
    rects: list[tuple[float, float, float, float]], width: float, height: float, flip: str
) -> list[tuple[float, float, float, float]]:
    if flip == "long":
        return [(width - x - w, y, w, h) for x, y, w, h in rects]
    return [(x, height - y - h, w, h) for x, y, w, h in rects]


def _registration_errors_mm(path: Path, flip: str) -> Iterator[float]:
    """For each card, how far its back lands from its front after the sheet is turned."""
    with pdfplumber.open(path) as doc:
        assert len(doc.pages) % 2 == 0
        for front, back in zip(doc.pages[::2], doc.pages[1::2], strict=True):
            fronts = _cards(front)
            backs = _flipped(_cards(back), float(back.width), float(back.height), flip)
            assert len(fronts) == len(backs) > 0
            # the n-th back drawn is the n-th card's: compared card by card, not as sets
            for f, b in zip(fronts, backs, strict=True):
                yield max(abs(p - q) for p, q in zip(f, b, strict=True)) / MM


@pytest.mark.parametrize(("game", "lang"), PUBLISHED)
@pytest.mark.parametrize("sheet", ["a4", "letter"])
def test_every_back_lands_behind_its_front_after_a_long_edge_flip(
    printed: Path, lang: str, game: str, sheet: str
) -> None:
    path = printed / lang / game / f"pnp-{sheet}.pdf"
    errors = list(_registration_errors_mm(path, "long"))
    assert max(errors) <= 0.1, errors
    # the grid is centred, measured from the paper's edge, and the cards fill its slots in
    # order: a game of few cards leaves the last slots of a sheet empty, not off-centre
    pub = loaded(game).spec.publishing
    assert pub is not None
    grid = impose.grid(parse_format(pub.step_cards.format), PRESETS[sheet])
    used = grid.cols * grid.card.width_mm, grid.rows * grid.card.height_mm
    assert abs(grid.x0 - (grid.sheet.width_mm - grid.x0 - used[0])) <= 0.1
    assert abs(grid.y0 - (grid.sheet.height_mm - grid.y0 - used[1])) <= 0.1
    with pdfplumber.open(path) as doc:
        cards = _cards(doc.pages[0])
    slots = list(grid.positions())[: len(cards)]
    for (x, y, _, _), (sx, sy) in zip(cards, slots, strict=True):
        assert abs(x / MM - sx) <= 0.1
        assert abs(y / MM - sy) <= 0.1


def _faces(n: int) -> list[object]:
    return [el("div", el("p", f"card {i}"), cls="card-front") for i in range(n)]


@pytest.mark.parametrize("flip", impose.FLIPS)
@pytest.mark.parametrize("count", [9, 11])
def test_backs_register_for_either_flip_even_on_a_partial_sheet(
    tmp_path: Path, flip: str, count: int
) -> None:
    sheet, card = PRESETS["a4"], PRESETS["poker"]
    grid = impose.grid(card, sheet)
    body = impose.sheets(_faces(count), _faces(count), grid, flip)  # type: ignore[arg-type]
    html = document(el("html", el("head", el("meta", charset="utf-8")), el("body", body)))
    path = tmp_path / "pnp.pdf"
    path.write_bytes(pdf.render(html, impose.sheet_css(sheet, card, DEFAULT_PROFILE)).pdf)
    errors = list(_registration_errors_mm(path, flip))
    assert len(errors) == count
    assert max(errors) <= 0.1, errors
    # the other flip would not register: the test can tell them apart
    other = "short" if flip == "long" else "long"
    assert max(_registration_errors_mm(path, other)) > 1


@functools.cache
def _objects(path: Path) -> tuple[tuple[list[dict[str, Any]], list[dict[str, Any]]], ...]:
    """Each page's characters and rectangles of one of the main job's PDFs.

    Read once for all the module's tests: pdfminer reads a rulebook's characters in
    seconds, and the type and tint checks read the same files.
    """
    with pdfplumber.open(path) as doc:
        return tuple((page.chars, page.rects) for page in doc.pages)


def _chars(path: Path) -> Iterator[dict[str, object]]:
    for chars, _ in _objects(path):
        yield from (c for c in chars if str(c["text"]).strip())


@pytest.mark.parametrize(("game", "lang"), PUBLISHED)
def test_type_is_big_enough_and_small_type_is_black_only(
    printed: Path, lang: str, game: str
) -> None:
    folder = printed / lang / game
    for name, body_min in (("reference-a5", 8.5), ("rulebook-a4", 9.0), ("cards-poker", 8.5)):
        chars = list(_chars(folder / f"{name}.pdf"))
        sizes = [round(float(c["size"]), 2) for c in chars]  # type: ignore[arg-type]
        body = max(set(sizes), key=sizes.count)
        assert body >= body_min, (name, body)
        assert min(sizes) >= styles.MIN_PT - 0.01, (name, min(sizes))
        small = [
            (c["text"], c["size"], c["non_stroking_color"])
            for c in chars
            if float(c["size"]) < styles.ONE_INK_BELOW_PT - 0.01  # type: ignore[arg-type]
            and tuple(c["non_stroking_color"] or ()) != BLACK  # type: ignore[arg-type]
        ]
        assert small == [], (name, small[:5])
    # rule numbers (bold, in the citations) are at least 7 pt too: every size is
    chars = list(_chars(folder / "reference-a5.pdf"))
    assert any(re.fullmatch(r"\d", str(c["text"])) for c in chars)


def test_a_card_uses_the_largest_size_that_fits(printed: Path) -> None:
    low, high = styles.CARD_PT
    bodies = []
    for chars, _ in _objects(printed / "ja" / "stationfall" / "cards-poker.pdf")[::2]:
        sizes = [round(float(c["size"]), 2) for c in chars if c["size"] >= low - 0.01]
        titles = max(sizes)  # the title is set at 1.25 em of the card's body
        bodies.append(min(s for s in sizes if s < titles))
    # short steps fill their card at the top of the range, long ones lower down
    assert max(bodies) == high
    assert min(bodies) < high
    assert min(bodies) >= low


@pytest.mark.parametrize("game", GAMES)
def test_tints_are_ten_percent_or_none(printed: Path, game: str) -> None:
    # in one language, a translation if the game has one (longer words, other fonts)
    lang = next(iter(translations(GAME_LANGUAGES[game])), "en")
    for name in ("reference-a5", "cards-poker", "pnp-a4", "rulebook-a4"):
        for _, rects in _objects(printed / lang / game / f"{name}.pdf"):
            for r in rects:
                colour = r["non_stroking_color"]
                if not r["fill"] or not isinstance(colour, tuple) or len(colour) != 4:
                    continue
                inks = [v for v in colour if v > 0]
                # a light tint is one ink at 10 % or more; solid colours are fine
                assert all(v >= 0.1 for v in inks), (name, colour)


@pytest.mark.parametrize("lang", LANGS)
def test_the_reference_card_has_the_sequence_in_front_and_who_wins_behind(
    printed: Path, lang: str
) -> None:
    path = printed / lang / "stationfall" / "reference-a5.pdf"
    with pdfplumber.open(path) as doc:
        front, back = (page.extract_text() for page in doc.pages)
    assert "16.4.4" in front  # the Agenda step, on the front
    assert "16.4.8" in back  # who wins and the winners table, behind
    assert "16.4.4" not in back
    words = set(back.split()) | set(front.split())
    assert not words & {"EN", "CS", "JA", "en", "cs", "ja"}  # no language code is printed


def _text(path: Path) -> str:
    return subprocess.run(
        ["pdftotext", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout


@pytest.mark.parametrize(("game", "lang"), PUBLISHED)
def test_the_rulebook_is_ready_to_bind(printed: Path, lang: str, game: str) -> None:
    text = _text(printed / lang / game / "rulebook-a4.pdf")
    pages = text.split("\f")[:-1]
    assert len(pages) % 4 == 0
    # cross-references carry the page their target is on
    # (a line may break inside one: pdftotext gives a line break for a space)
    marker = {"en": r",\s+p\.\s+(\d+)", "cs": r",\s+s\.\s+(\d+)", "ja": r"(\d+)\s*ページ"}[lang]
    found = [int(n) for n in re.findall(marker, text)]
    # page numbers when the book has cross-references (a game's may have none)
    ctx = RenderContext(loaded(game).spec, "en", str, str)
    references = print_writer.write(print_trees.rulebook(ctx), "2026-01-01").count('"pageref"')
    assert bool(found) == bool(references), f"{len(found)} page numbers, {references} references"
    assert all(1 <= n <= len(pages) for n in found)
    if lang == "en":
        assert '"' not in text  # typographic quotes only


def test_chapters_can_continue_on_the_same_page(tmp_path: Path, printed: Path) -> None:
    specs = tmp_path / "rules_spec"
    shutil.copytree(SPEC_ROOT / "stationfall", specs / "stationfall")
    game = specs / "stationfall" / "game.yaml"
    game.write_text(
        game.read_text(encoding="utf-8").replace(
            "  rulebook_format: a4\n", "  rulebook_format: a4\n  chapter_breaks: false\n"
        ),
        encoding="utf-8",
    )
    PrintBuild(ROOT, specs, LOCALES, tmp_path / "out", ("en",)).build()
    together = _text(tmp_path / "out/en/stationfall/rulebook-a4.pdf").split("\f")[:-1]
    apart = _text(printed / "en/stationfall/rulebook-a4.pdf").split("\f")[:-1]
    assert len(together) % 4 == 0
    # pages come in fours, so the pages saved show in the count only when they cross a
    # multiple of four; a chapter that starts mid-page (below) is what shows the option
    assert len(together) <= len(apart)
    # a chapter after the first begins on a page where another ends
    assert any("Glossary" in page and not page.lstrip().startswith("Glossary") for page in together)


def test_the_output_intent_names_the_profile_used(printed: Path) -> None:
    from pdfminer.pdftypes import resolve1  # pdfplumber's PDF reader

    name = read_profile(DEFAULT_PROFILE).description.encode()
    for lang in LANGS:
        for path in (printed / lang).glob("*/*-pdfx4.pdf"):
            with pdfplumber.open(path) as doc:
                (intent,) = (resolve1(i) for i in resolve1(doc.doc.catalog["OutputIntents"]))
            assert intent["OutputConditionIdentifier"] == name, path
            assert intent["Info"] == name


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bleed", "nan"], "the bleed must be a number from 0 to 10 mm"),
        (["--bleed", "inf"], "the bleed must be a number"),
        (["--bleed", "11"], "the bleed must be a number"),
        (["--icc-profile", "/usr/share/color/icc/ghostscript/srgb.icc"], "not an output"),
        (["--icc-profile", "{printer-rgb}"], "is a profile for RGB, not for CMYK"),
        (["--icc-profile", str(ROOT / "README.md")], "is not an ICC profile"),
    ],
)
def test_bad_options_are_refused_and_nothing_is_written(
    tmp_path: Path, args: list[str], message: str
) -> None:
    out = tmp_path / "out"
    # an RGB profile that calls itself a printer's: the colour space is checked too
    data = bytearray(Path("/usr/share/color/icc/ghostscript/srgb.icc").read_bytes())
    data[12:16] = b"prtr"
    (tmp_path / "printer-rgb.icc").write_bytes(bytes(data))
    args = [a.replace("{printer-rgb}", str(tmp_path / "printer-rgb.icc")) for a in args]
    result = CliRunner().invoke(cli, ["build", "print", "--out", str(out), *args])
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output
    assert not out.exists()


def test_a_profile_per_language_comes_from_the_spec_and_is_checked(tmp_path: Path) -> None:
    specs = tmp_path / "rules_spec"
    shutil.copytree(SPEC_ROOT / "stationfall", specs / "stationfall")
    game = specs / "stationfall" / "game.yaml"
    text = game.read_text(encoding="utf-8")
    shutil.copy(DEFAULT_PROFILE, specs / "stationfall" / "press-cs.icc")
    (specs / "stationfall" / "not-a-profile.icc").write_text("hello", encoding="utf-8")
    game.write_text(
        text.replace(
            "  rulebook_format: a4\n",
            "  rulebook_format: a4\n  output_profiles:"
            " {cs: press-cs.icc, ja: not-a-profile.icc, en: ../../outside.icc}\n",
        ),
        encoding="utf-8",
    )
    shutil.copy(DEFAULT_PROFILE, tmp_path / "outside.icc")  # a real profile, outside the game
    job = PrintBuild(ROOT, specs, LOCALES, tmp_path / "out", ("en", "cs", "ja"))
    with pytest.raises(PrintError) as caught:
        job.build()
    problems = {p.where: p for p in caught.value.problems}
    assert sorted(problems) == ["output profile (en)", "output profile (ja)"]
    for problem in problems.values():
        assert "game.yaml:" in str(problem.location)  # located in the spec
    assert "not-a-profile.icc is not an ICC profile" in problems["output profile (ja)"].message
    assert "not a file in the game's folder" in problems["output profile (en)"].message
    assert not (tmp_path / "out").exists()
    # the Czech profile alone is fine, and its files name it
    game.write_text(
        text.replace(
            "  rulebook_format: a4\n",
            "  rulebook_format: a4\n  output_profiles: {cs: press-cs.icc}\n",
        ),
        encoding="utf-8",
    )
    PrintBuild(ROOT, specs, LOCALES, tmp_path / "out", ("cs",)).build()
    assert (tmp_path / "out" / "cs" / "stationfall" / "reference-a5-pdfx4.pdf").is_file()


@pytest.mark.parametrize(("lang", "kind"), [("en", "STEP CARDS"), ("cs", "KARTY KROKŮ")])
def test_step_cards_say_what_they_are_on_their_backs(printed: Path, lang: str, kind: str) -> None:
    for game, title in (("stationfall", "Stationfall"), ("brink", "Brink")):
        with pdfplumber.open(printed / lang / game / "cards-poker.pdf") as doc:
            backs = [page.extract_text() for page in doc.pages[1::2]]
        for back in backs:
            assert title in back
            assert kind in back.upper()
            assert not set(back.split()) & {"EN", "CS", "JA"}


def test_printers_marks_sit_outside_the_bleed_with_a_slug_line(tmp_path: Path) -> None:
    specs = tmp_path / "rules_spec"
    shutil.copytree(SPEC_ROOT / "stationfall", specs / "stationfall")
    job = PrintBuild(ROOT, specs, LOCALES, tmp_path / "out", ("cs",), marks=True)
    job.build()
    folder = tmp_path / "out" / "cs" / "stationfall"
    for name in ("reference-a5-pdfx4", "rulebook-a4-pdfx4", "cards-poker-pdfx4"):
        with pdfplumber.open(folder / f"{name}.pdf") as doc:
            page = doc.pages[0]
            # pdfplumber gives boxes, lines and words alike from the top of the page's
            # own coordinates: the sheet runs from page.bbox[1] to page.bbox[3]
            x0 = page.trimbox[0]
            bx0, btop, bx1, bbottom = page.bleedbox
            assert round((x0 - bx0) / MM, 1) == 3.0  # the BleedBox is the real bleed again
            marks = [line for line in page.lines if line["stroking_color"] == (1, 1, 1, 1)]
            assert len(marks) == 16  # crop and bleed marks at the four corners
            for line in marks:  # every one outside the bleed, inside the sheet
                outside = (
                    line["x1"] <= bx0
                    or line["x0"] >= bx1
                    or line["bottom"] <= btop
                    or line["top"] >= bbottom
                )
                assert outside, (name, line["x0"], line["top"])
            slug = [w for w in page.extract_words() if w["top"] > bbottom]
            text = " ".join(w["text"] for w in slug)
            assert "Stationfall · cs ·" in text, (name, text)
            assert " cs " in f" {text} ", (name, text)
            assert all(w["bottom"] <= float(page.bbox[3]) for w in slug)  # on the sheet
            lowest = max(line["bottom"] for line in marks)
            assert all(w["top"] >= lowest for w in slug)  # below the marks
        _qpdf_check(folder / f"{name}.pdf")  # the marks drawn into it keep the file sound
    # print-and-play sheets keep their own crop marks only, and a player's file has none:
    # its page is the trim, so neither marks nor slug line are on it
    for name in ("pnp-a4", "reference-a5", "rulebook-a4", "cards-poker"):
        with pdfplumber.open(folder / f"{name}.pdf") as doc:
            page = doc.pages[0]
            assert not [line for line in page.lines if line["stroking_color"] == (1, 1, 1, 1)]
            shown = " ".join(w["text"] for w in page.within_bbox(page.bbox).extract_words())
            assert "Stationfall · cs ·" not in shown, name


def _qpdf_check(path: Path) -> None:
    result = subprocess.run(
        ["qpdf", "--check", str(path)], check=False, capture_output=True, text=True
    )
    assert result.returncode == 0, (path, result.stdout + result.stderr)
    assert "No syntax or stream encoding errors found" in result.stdout


@pytest.mark.parametrize("lang", LANGS)
def test_qpdf_finds_nothing_wrong_in_any_file(printed: Path, lang: str) -> None:
    files = sorted((printed / lang).glob("*/*.pdf"))
    assert len(files) >= 14
    for path in files:
        _qpdf_check(path)
