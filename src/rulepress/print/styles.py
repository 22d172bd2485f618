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
#: a zone's background: one ink at 10 % or more, which a press holds evenly (less
#: breaks up into visible dots), and never behind text smaller than its readers need
ZONES = ("device-cmyk(0.12 0 0 0)", "device-cmyk(0 0 0.18 0)", "device-cmyk(0 0.10 0 0)")
TINT = ZONES[0]
PAPER = "device-cmyk(0 0 0 0)"
FONTS = '"Noto Sans", "Noto Sans CJK JP", sans-serif'
#: printer's marks (``--marks``): how far outside the bleed they start, how long they
#: are, and the room they need beyond the bleed (the slug line sits in it too), in mm
MARK_GAP_MM = 1.0
MARK_LENGTH_MM = 5.0
MARK_ROOM_MM = 10.0
#: the smallest type in any document, and the size below which text is black only
#: (100 % K: one ink, so no registration error can blur it)
MIN_PT = 7.0
ONE_INK_BELOW_PT = 9.0
#: body sizes: the reference card's and the cards' range (the largest that fits is
#: used, see rulepress.print.build), and the rulebook's
REFERENCE_PT = (8.5, 10.5)
CARD_PT = (8.5, 12.0)
RULEBOOK_PT = 9.5

BASE = f"""
html {{ font-family: {FONTS}; color: {INK}; font-size: 9pt; line-height: 1.35; }}
h1, h2, h3, h4 {{ color: {ACCENT}; line-height: 1.2; margin: 0.6em 0 0.25em; break-after: avoid; }}
p {{ margin: 0.2em 0 0.4em; }}
ul, ol {{ margin: 0.2em 0 0.4em; padding-left: 1.3em; }}
.rule {{ font-weight: 700; white-space: nowrap; }}
.cites {{ font-size: 0.85em; color: {INK}; }}
.n {{ font-weight: 700; }}
h1 .n, h2 .n, h3 .n, h4 .n {{ color: {ACCENT}; }}
.term {{ font-style: italic; }}
img.icon {{ height: 1.1em; width: auto; vertical-align: -0.2em; margin-right: 0.15em; }}
"""


def color_profile(profile: Path) -> str:
    return (
        f'@color-profile device-cmyk {{ src: url("{profile.resolve().as_uri()}"); '
        "components: cyan magenta yellow black }\n"
    )


def page_rule(
    fmt: Format, *, bleed_mm: float, margin_mm: float, extra: str = "", marks: bool = False
) -> str:
    """The ``@page`` rule of a press file; with ``marks``, room for printer's marks and a slug.

    The marks themselves are drawn into the PDF (:func:`rulepress.print.pdf.write`):
    WeasyPrint's own are RGB and sit inside the bleed. The slug line (the
    document's ``.slug`` element: title, language, edition, date) is set below
    the bleed, in black.
    """
    room = MARK_ROOM_MM if marks else 0.0
    bleed = f"bleed: {bleed_mm + room:g}mm;" if bleed_mm + room else ""
    # The slug line: the bottom-left margin box, its top pushed down from the page
    # area's bottom (WeasyPrint places margin boxes as if the page began at the outer
    # edge of its CSS bleed, hence the room taken off) to just below the marks.
    # tests/print/test_press_checks.py reads where it lands.
    below = bleed_mm + MARK_GAP_MM + MARK_LENGTH_MM
    slug = (
        f"@bottom-left {{ content: string(slug); font-size: {MIN_PT}pt; color: {INK}; "
        "white-space: nowrap; vertical-align: top; "
        f"margin-top: {margin_mm + below - (bleed_mm + room):g}mm; }}"
        if marks
        else ""
    )
    return (
        f"@page {{ size: {fmt.css}; margin: {margin_mm:g}mm; {bleed} marks: none; "
        f"background: {PAPER}; {extra} {slug} }}\n"
        # the slug's words, for the margin box; the element itself takes no room and is not drawn
        ".slug { string-set: slug content(); visibility: hidden; height: 0; margin: 0;"
        " overflow: hidden; }\n"
    )


def reference_css(
    fmt: Format,
    bleed_mm: float,
    profile: Path,
    columns: int,
    margin_mm: float = 6.0,
    body_pt: float = REFERENCE_PT[0],
    *,
    marks: bool = False,
) -> str:
    """The two-sided reference card: the sequences in front, who wins and the tables behind."""
    zones = "".join(
        f".sequence.zone-{i} {{ background: {colour}; }}\n" for i, colour in enumerate(ZONES)
    )
    return (
        color_profile(profile)
        + page_rule(fmt, bleed_mm=bleed_mm, margin_mm=margin_mm, marks=marks)
        + BASE
        + f"""
body.reference {{ font-size: {body_pt:g}pt; line-height: 1.3; }}
.face {{ break-after: page; }}
header h1 {{ font-size: 15pt; margin: 0; }}
header .kind {{ margin: 0 0 0.4em; text-transform: uppercase; letter-spacing: 0.08em; font-size: {MIN_PT}pt; }}
.sequence {{ columns: {columns}; column-gap: 5mm; padding: 1.5mm 2.5mm; margin-bottom: 2mm; }}
{zones}.sequence h2 {{ column-span: all; font-size: 11pt; margin-top: 0.2em; border-bottom: 0.5pt solid {ACCENT}; }}
.lead {{ column-span: all; font-style: italic; }}
ol.steps {{ list-style: none; padding: 0; }}
ol.steps > li {{ margin: 0 0 0.45em; break-inside: avoid; }}
ol.steps > li.group {{ background: {PAPER}; padding: 1mm 1.5mm; }}
ol.substeps {{ list-style: none; padding-left: 0.3em; margin-top: 0.3em; }}
ol.substeps > li {{ margin: 0 0 0.3em; break-inside: avoid; }}
/* step badges: the number knocked out of a solid accent, big enough for reversed type */
.badge {{ display: inline-block; min-width: 1.5em; padding: 0 0.25em; margin-right: 0.3em;
  border-radius: 0.75em; background: {ACCENT}; color: {PAPER}; font-weight: 700;
  font-size: {ONE_INK_BELOW_PT}pt; text-align: center; }}
.back h2 {{ font-size: 11pt; border-bottom: 0.5pt solid {ACCENT}; }}
.tiebreak {{ break-inside: avoid; border: 0.75pt solid {ACCENT}; padding: 1.5mm 2.5mm; margin-bottom: 3mm; }}
.tiebreak h3 {{ font-size: 11pt; margin-top: 0; }}
footer {{ margin-top: 0.6em; font-size: {MIN_PT}pt; }}
.tables {{ display: flex; flex-wrap: wrap; gap: 4mm; margin-top: 0.5em; }}
table.lookup {{ border-collapse: collapse; break-inside: avoid; }}
table.lookup caption {{ text-align: left; font-weight: 700; color: {ACCENT}; font-size: {ONE_INK_BELOW_PT}pt; padding-bottom: 0.3em; }}
table.lookup th, table.lookup td {{ border: 0.5pt solid {INK}; padding: 0.6mm 2mm; }}
"""
    )


def rulebook_css(
    fmt: Format, bleed_mm: float, profile: Path, *, chapter_breaks: bool = True, marks: bool = False
) -> str:
    return (
        color_profile(profile)
        + page_rule(
            fmt,
            bleed_mm=bleed_mm,
            margin_mm=18,
            marks=marks,
            extra=(
                "@top-center { content: string(chapter); font-size: 8pt; color: "
                f"{INK}; }} @bottom-center {{ content: counter(page); font-size: 8pt; }}"
            ),
        )
        + "@page :first { @top-center { content: none } @bottom-center { content: none } }\n"
        + BASE
        + f"""
body.rulebook {{ font-size: {RULEBOOK_PT:g}pt; }}
.cover {{ break-after: page; padding-top: 40mm; }}
.cover h1 {{ font-size: 30pt; }}
.toc {{ break-after: page; }}
.toc ol {{ list-style: none; padding: 0; }}
.toc a {{ color: {INK}; text-decoration: none; }}
.toc a::after {{ content: leader(".") target-counter(attr(href), page); }}
h2.chapter {{ string-set: chapter content(); {"break-before: page; " if chapter_breaks else "margin-top: 1.4em; "}font-size: 16pt; }}
a.xref {{ color: {INK}; text-decoration: none; }}
a.pageref::after {{ content: target-counter(attr(href), page); }}
a.pageref {{ color: {INK}; text-decoration: none; }}
.notes {{ break-after: page; }}
.notes:last-child {{ break-after: auto; }}
.notes .line {{ border-bottom: 0.5pt solid {INK}; height: 8mm; }}

h3 {{ font-size: 11.5pt; }} h4 {{ font-size: 10pt; }}
dt {{ font-weight: 700; color: {ACCENT}; margin-top: 0.4em; break-after: avoid; }}
dd {{ margin: 0 0 0.3em 1em; }}
.example, .ruling {{ break-inside: avoid; }}
"""
    )


#: added to the rulebook's stylesheet for its notes pages, laid out on their own: no
#: running head and no page number (theirs would count from 1)
NOTES_PAGES = "@page { @top-center { content: none } @bottom-center { content: none } }\n"


def card_css(fmt: Format, bleed_mm: float, profile: Path, *, marks: bool = False) -> str:
    return (
        color_profile(profile)
        + page_rule(fmt, bleed_mm=bleed_mm, margin_mm=4, extra=f"background: {TINT};", marks=marks)
        + BASE
        + CARD_FACES
    )


#: a step card's faces: the step in front (its body size is set on each card, the
#: largest of CARD_PT that fits), the deck's name behind
CARD_FACES = f"""
.card-front {{ font-size: {CARD_PT[0]:g}pt; }}
.card-front .seq {{ font-size: {MIN_PT}pt; text-transform: uppercase; letter-spacing: 0.06em; margin: 0; }}
.card-front h2 {{ font-size: 1.25em; margin: 0.2em 0 0.4em; }}
.card-front .foot {{ font-size: {MIN_PT}pt; margin-top: 0.6em; }}
.card-front .foot .cites {{ font-size: 1em; }}
.card-back {{ text-align: center; padding-top: 28mm; color: {ACCENT}; }}
.card-back .game {{ font-size: 14pt; font-weight: 700; }}
.card-back .kind {{ font-size: {ONE_INK_BELOW_PT}pt; text-transform: uppercase; letter-spacing: 0.1em; }}
"""


def errata_css(fmt: Format, profile: Path) -> str:
    """The errata sheet: a player's A4 or Letter page, no bleed, the changes as ruled tables."""
    return (
        color_profile(profile)
        + page_rule(
            fmt,
            bleed_mm=0,
            margin_mm=15,
            extra=f"@bottom-center {{ content: counter(page); font-size: {MIN_PT}pt; }}",
        )
        + BASE
        + f"""
body.errata h1 {{ font-size: 16pt; }}
body.errata h2 {{ font-size: 12pt; margin-top: 1.2em; break-after: avoid; }}
table.changes {{ border-collapse: collapse; width: 100%; margin: 0.4em 0; }}
table.changes th, table.changes td {{ border: 0.5pt solid {INK}; padding: 1mm 1.5mm;
  vertical-align: top; text-align: left; }}
table.changes th {{ color: {ACCENT}; }}
table.changes th:first-child {{ width: 30%; }}
table.changes tr {{ break-inside: avoid; }}
.code {{ font-size: {MIN_PT}pt; }}
"""
    )
