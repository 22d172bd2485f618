"""A spec's SVG icons are untrusted: each kind of hostile or unprintable icon is refused."""

from __future__ import annotations

import re
import shutil
import zlib
from pathlib import Path

import pytest

from rulepress.print.build import PrintBuild, PrintError
from rulepress.print.icons import check_icon
from tests.conftest import LOCALES, ROOT, SPEC_ROOT

SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" fill="{fill}">{body}</svg>'
GOOD = SVG.format(fill="device-cmyk(0.85 0.45 0 0.3)", body='<circle cx="5" cy="5" r="4"/>')


def _icon(folder: Path, text: str, name: str = "icon.svg") -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_cmyk_icon_in_the_games_folder_is_accepted_as_data(tmp_path: Path) -> None:
    uri = check_icon(_icon(tmp_path, GOOD), tmp_path)
    assert uri.startswith("data:image/svg+xml;base64,")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('<!DOCTYPE svg [<!ENTITY a "aaaa">]><svg fill="none">&a;</svg>', "DOCTYPE or an entity"),
        ("<svg fill='none'><circle", "not well-formed"),
        ("<html fill='none'/>", "not SVG"),
        (SVG.format(fill="none", body="<script>alert(1)</script>"), "<script> is not allowed"),
        (SVG.format(fill="none", body="<foreignObject/>"), "<foreignObject> is not allowed"),
        (SVG.format(fill="none", body='<image href="file:///etc/passwd"/>'), "<image> is not"),
        (SVG.format(fill="none", body='<a href="https://x.example/">x</a>'), "a link to"),
        (SVG.format(fill="none", body='<rect onload="x()"/>'), "event attribute onload"),
        (SVG.format(fill="none", body='<rect fill="url(file:///x.svg#p)"/>'), "url(file:"),
        (SVG.format(fill="#ff0000", body=""), "is not CMYK"),
        (SVG.format(fill="none", body='<rect style="fill: red"/>'), "is not CMYK"),
        ('<svg xmlns="http://www.w3.org/2000/svg"><rect/></svg>', "sets no fill"),
    ],
)
def test_a_hostile_or_unprintable_icon_is_refused(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        check_icon(_icon(tmp_path, text), tmp_path)


def test_an_icon_outside_the_games_folder_or_too_big_is_refused(tmp_path: Path) -> None:
    game = tmp_path / "game"
    game.mkdir()
    outside = _icon(tmp_path, GOOD)
    with pytest.raises(ValueError, match="not a file in the game's folder"):
        check_icon(game / ".." / outside.name, game)
    big = _icon(game, GOOD.replace("</svg>", " " * 70_000 + "</svg>"))
    with pytest.raises(ValueError, match="an icon may have"):
        check_icon(big, game)


@pytest.mark.slow
@pytest.mark.print
def test_a_terms_icon_is_printed_before_it_in_cmyk_and_a_bad_one_stops_the_build(
    tmp_path: Path,
) -> None:
    specs = tmp_path / "rules_spec"
    shutil.copytree(SPEC_ROOT / "stationfall", specs / "stationfall")
    game = specs / "stationfall" / "game.yaml"
    text = game.read_text(encoding="utf-8")
    _icon(specs / "stationfall", GOOD.replace("0.85 0.45 0 0.3", "0.1 0.9 0.8 0.05"), "bribe.svg")
    _icon(specs / "stationfall", SVG.format(fill="red", body=""), "red.svg")
    pub = "  rulebook_format: a4\n"
    game.write_text(text.replace(pub, pub + "  icons: {bribe: red.svg, nothing: bribe.svg}\n"))
    with pytest.raises(PrintError) as caught:
        PrintBuild(ROOT, specs, LOCALES, tmp_path / "out", ("en",)).build()
    problems = sorted(p.where for p in caught.value.problems)
    assert problems == ["icon (bribe)", "icon (nothing)"]
    assert all("game.yaml:" in str(p.location) for p in caught.value.problems)
    assert not (tmp_path / "out").exists()
    # the Influence cube: linked in the rules' text, and in the glossary
    game.write_text(text.replace(pub, pub + "  icons: {influence-cube: bribe.svg}\n"))
    PrintBuild(ROOT, specs, LOCALES, tmp_path / "out", ("en",)).build()
    data = (tmp_path / "out/en/stationfall/rulebook-a4.pdf").read_bytes()
    # a decompressor object, since the pattern can end a binary stream early at bytes
    # that look like its end: what it decoded so far is kept, with no "truncated" error
    content = b"".join(
        zlib.decompressobj().decompress(m.group(1))
        for m in re.finditer(rb"stream\r?\n(.*?)\r?\nendstream", data, re.S)
        if m.group(1)[:1] == b"x"
    )
    # the icon's own CMYK colour, drawn where the text links the term and in the glossary
    assert b"0.1 0.9 0.8 0.05 scn" in content
    assert not re.search(rb"[\d.]+ [\d.]+ [\d.]+ (rg|RG)\b", content)  # and no RGB at all
