"""The print stylesheets, generated per document kind and format.

Every colour is written as ``device-cmyk(…)`` so that it reaches the PDF as
CMYK; a ``@color-profile device-cmyk`` rule names the output-intent profile
(needed by PDF/X-4). Fonts: a Latin font first, then the CJK font, since
Noto Sans CJK lacks precomposed Czech letters.
"""

from __future__ import annotations

from pathlib import Path

from rulepress.print.formats import Format

INK = "device-cmyk(0 0 0 1)"
ACCENT = "device-cmyk(0.85 0.45 0 0.3)"
TINT = "device-cmyk(0.04 0.02 0 0)"
PAPER = "device-cmyk(0 0 0 0)"
FONTS = '"Noto Sans", "Noto Sans CJK JP", sans-serif'

BASE = f"""
html {{ font-family: {FONTS}; color: {INK}; font-size: 9pt; line-height: 1.35; }}
h1, h2, h3, h4 {{ color: {ACCENT}; line-height: 1.2; margin: 0.6em 0 0.25em; break-after: avoid; }}
p {{ margin: 0.2em 0 0.4em; }}
ul, ol {{ margin: 0.2em 0 0.4em; padding-left: 1.3em; }}
.rule {{ font-weight: 700; color: {ACCENT}; white-space: nowrap; }}
.cites {{ font-size: 0.85em; }}
.n {{ font-weight: 700; color: {ACCENT}; }}
.term {{ font-style: italic; }}
"""


def color_profile(profile: Path) -> str:
    return (
        f'@color-profile device-cmyk {{ src: url("{profile.resolve().as_uri()}"); '
        "components: cyan magenta yellow black }\n"
    )


def page_rule(fmt: Format, *, bleed_mm: float, margin_mm: float, extra: str = "") -> str:
    bleed = f"bleed: {bleed_mm:g}mm;" if bleed_mm else ""
    return (
        f"@page {{ size: {fmt.css}; margin: {margin_mm:g}mm; {bleed} marks: none; "
        f"background: {PAPER}; {extra} }}\n"
    )


def reference_css(
    fmt: Format, bleed_mm: float, profile: Path, columns: int, margin_mm: float = 6.0
) -> str:
    return (
        color_profile(profile)
        + page_rule(fmt, bleed_mm=bleed_mm, margin_mm=margin_mm, extra=f"background: {TINT};")
        + BASE
        + f"""
body.reference {{ font-size: 7.1pt; line-height: 1.3; }}
header h1 {{ font-size: 15pt; margin: 0; }}
header .kind {{ margin: 0 0 0.4em; text-transform: uppercase; letter-spacing: 0.08em; font-size: 7pt; }}
.sequence {{ columns: {columns}; column-gap: 5mm; }}
.sequence h2 {{ column-span: all; font-size: 10.5pt; border-bottom: 0.4pt solid {ACCENT}; }}
.lead {{ column-span: all; font-style: italic; }}
ol.steps {{ list-style: none; padding: 0; }}
ol.steps > li {{ margin: 0 0 0.35em; break-inside: avoid; }}
ol.substeps {{ list-style: none; padding-left: 0.8em; border-left: 0.6pt solid {ACCENT}; }}
.tiebreak {{ break-inside: avoid; border: 0.5pt solid {ACCENT}; padding: 1mm 2mm; }}
.tiebreak h3 {{ font-size: 9pt; margin-top: 0; }}
footer {{ margin-top: 0.6em; font-size: 6.5pt; }}
.tables {{ display: flex; gap: 4mm; margin-top: 0.5em; }}
table.lookup {{ border-collapse: collapse; font-size: 7pt; break-inside: avoid; }}
table.lookup caption {{ text-align: left; font-weight: 700; color: {ACCENT}; padding-bottom: 0.2em; }}
table.lookup th, table.lookup td {{ border: 0.4pt solid {ACCENT}; padding: 0.5mm 1.5mm; }}
"""
    )


def rulebook_css(fmt: Format, bleed_mm: float, profile: Path) -> str:
    return (
        color_profile(profile)
        + page_rule(
            fmt,
            bleed_mm=bleed_mm,
            margin_mm=18,
            extra=(
                "@top-center { content: string(chapter); font-size: 7.5pt; color: "
                f"{ACCENT}; }} @bottom-center {{ content: counter(page); font-size: 7.5pt; }}"
            ),
        )
        + "@page :first { @top-center { content: none } @bottom-center { content: none } }\n"
        + BASE
        + f"""
body.rulebook {{ font-size: 9.5pt; }}
.cover {{ break-after: page; padding-top: 40mm; }}
.cover h1 {{ font-size: 30pt; }}
.toc {{ break-after: page; }}
.toc ol {{ list-style: none; padding: 0; }}
.toc a {{ color: {INK}; text-decoration: none; }}
.toc a::after {{ content: leader(".") target-counter(attr(href), page); }}
h2.chapter {{ string-set: chapter content(); break-before: page; font-size: 16pt; }}
h3 {{ font-size: 11.5pt; }} h4 {{ font-size: 10pt; }}
dt {{ font-weight: 700; color: {ACCENT}; margin-top: 0.4em; break-after: avoid; }}
dd {{ margin: 0 0 0.3em 1em; }}
.example, .ruling {{ break-inside: avoid; }}
"""
    )


def card_css(fmt: Format, bleed_mm: float, profile: Path) -> str:
    return (
        color_profile(profile)
        + page_rule(fmt, bleed_mm=bleed_mm, margin_mm=4, extra=f"background: {TINT};")
        + BASE
        + CARD_FACES
    )


CARD_FACES = f"""
.card-front {{ font-size: 7.4pt; }}
.card-front .seq {{ font-size: 6pt; text-transform: uppercase; letter-spacing: 0.06em; margin: 0; }}
.card-front h2 {{ font-size: 10pt; margin: 0.2em 0 0.4em; }}
.card-front .foot {{ font-size: 6.5pt; margin-top: 0.6em; }}
.card-back {{ text-align: center; padding-top: 28mm; color: {ACCENT}; }}
.card-back .game {{ font-size: 14pt; font-weight: 700; }}
.card-back .kind, .card-back .lang {{ font-size: 7pt; text-transform: uppercase; letter-spacing: 0.1em; }}
"""
