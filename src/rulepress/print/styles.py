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
#: the channels of a CMYK profile, in order: ``@color-profile``'s ``components``
CMYK_COMPONENTS = ("cyan", "magenta", "yellow", "black")
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
#: the reference card's back (who wins, the tables): from the front's size up to this,
#: the largest that fits, so that the back is not mostly empty paper
REFERENCE_BACK_PT = 14.0
CARD_PT = (8.5, 12.0)
RULEBOOK_PT = 9.5

# The boxes text is set in on the reference card and the step cards, declared once:
# the stylesheets below are written from them, and the translators' length budgets
# (rulepress.print.budgets) are measured from them, so the two cannot drift apart.
#: page margins of a step card and of the reference card, in mm
CARD_MARGIN_MM = 4.0
REFERENCE_MARGIN_MM = 6.0
#: the margin the user agent's stylesheet gives ``body`` (WeasyPrint's html5_ua.css:
#: 8 px, 6 pt), which these stylesheets keep: it is room the text does not have
UA_BODY_MARGIN_PT = 6.0
#: line heights (in em): every document's, the reference card's body, headings'
LINE_HEIGHT = 1.35
REFERENCE_LINE_HEIGHT = 1.3
HEADING_LINE_HEIGHT = 1.2
#: a paragraph's margins above and below (em), and a list's indent (em)
PARAGRAPH_MARGIN_EM = (0.2, 0.4)
LIST_INDENT_EM = 1.3
#: the reference card: a sequence's padding (mm, top/bottom and sides), the gap
#: between its columns, a group of sub-steps' padding and the sub-steps' indent
SEQUENCE_PADDING_MM = (1.5, 2.5)
COLUMN_GAP_MM = 5.0
GROUP_PADDING_MM = 1.5
SUBSTEP_INDENT_EM = 0.3
#: a step's number badge (at ONE_INK_BELOW_PT): its least width, side padding and the gap after it (em)
BADGE_MIN_EM = 1.5
BADGE_PADDING_EM = 0.25
BADGE_GAP_EM = 0.3
#: the reference card's headings (a sequence's title, "Who wins") in pt
REFERENCE_HEADING_PT = 11.0
#: the tie-break box: its border (pt) and padding (mm, top/bottom and sides)
TIEBREAK_BORDER_PT = 0.75
TIEBREAK_PADDING_MM = (1.5, 2.5)
#: a step card: its title's size (em of the body) and margins (em of the title), the
#: sequence line's letter spacing (em) and the footer's space above it (em)
CARD_TITLE_EM = 1.25
CARD_TITLE_MARGIN_EM = (0.2, 0.4)
CARD_SEQUENCE_SPACING_EM = 0.06
CARD_FOOT_SPACE_EM = 0.6

BASE = f"""
html {{ font-family: {FONTS}; color: {INK}; font-size: 9pt; line-height: {LINE_HEIGHT:g}; }}
h1, h2, h3, h4 {{ color: {ACCENT}; line-height: {HEADING_LINE_HEIGHT:g}; margin: 0.6em 0 0.25em; break-after: avoid; }}
p {{ margin: {PARAGRAPH_MARGIN_EM[0]:g}em 0 {PARAGRAPH_MARGIN_EM[1]:g}em; }}
ul, ol {{ margin: 0.2em 0 0.4em; padding-left: {LIST_INDENT_EM:g}em; }}
.rule {{ font-weight: 700; white-space: nowrap; }}
.cites {{ font-size: 0.85em; color: {INK}; }}
.n {{ font-weight: 700; }}
h1 .n, h2 .n, h3 .n, h4 .n {{ color: {ACCENT}; }}
.term {{ font-style: italic; }}
img.icon {{ height: 1.1em; width: auto; vertical-align: -0.2em; margin-right: 0.15em; }}
"""


def color_profile(profile: Path) -> str:
    """The ``@color-profile`` rule naming the output-intent profile of a CMYK document.

    ``components`` is a comma-separated list (CSS Color 5; WeasyPrint's
    descriptor parser splits it at commas), and WeasyPrint writes its length as
    the ICC stream's ``/N``: without the commas, the four names are one
    component, and a four-channel CMYK profile goes out labelled ``/N 1``.
    """
    return (
        f'@color-profile device-cmyk {{ src: url("{profile.resolve().as_uri()}"); '
        f"components: {', '.join(CMYK_COMPONENTS)} }}\n"
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
    # area's bottom, past the bottom margin and the trim, to just below the marks
    # (WeasyPrint 70 places margin boxes from the trimmed page, not from the outer
    # edge of the CSS bleed: taking the bleed off put the slug inside the trim).
    # tests/print/test_press_checks.py reads where it lands.
    below = bleed_mm + MARK_GAP_MM + MARK_LENGTH_MM
    slug = (
        f"@bottom-left {{ content: string(slug); font-size: {MIN_PT}pt; color: {INK}; "
        "white-space: nowrap; vertical-align: top; "
        f"margin-top: {margin_mm + below:g}mm; }}"
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
    margin_mm: float = REFERENCE_MARGIN_MM,
    body_pt: float = REFERENCE_PT[0],
    *,
    marks: bool = False,
    back_pt: float | None = None,
) -> str:
    """The two-sided reference card: the sequences in front, who wins and the tables behind.

    ``back_pt``: the back's body size (default: the front's). The back holds
    less than the front, so it is set larger to use its page
    (:data:`REFERENCE_BACK_PT`); its headings are sized in em to grow with it.
    """
    back = body_pt if back_pt is None else back_pt
    heading_em = REFERENCE_HEADING_PT / REFERENCE_PT[0]
    zones = "".join(
        f".sequence.zone-{i} {{ background: {colour}; }}\n" for i, colour in enumerate(ZONES)
    )
    return (
        color_profile(profile)
        + page_rule(fmt, bleed_mm=bleed_mm, margin_mm=margin_mm, marks=marks)
        + BASE
        + f"""
body.reference {{ font-size: {body_pt:g}pt; line-height: {REFERENCE_LINE_HEIGHT:g}; }}
.face {{ break-after: page; }}
header h1 {{ font-size: 15pt; margin: 0; }}
header .kind {{ margin: 0 0 0.4em; text-transform: uppercase; letter-spacing: 0.08em; font-size: {MIN_PT}pt; }}
.sequence {{ padding: {SEQUENCE_PADDING_MM[0]:g}mm {SEQUENCE_PADDING_MM[1]:g}mm; margin-bottom: 2mm; }}
.sequence .columns {{ columns: {columns}; column-gap: {COLUMN_GAP_MM:g}mm; }}
{zones}.sequence h2 {{ font-size: {REFERENCE_HEADING_PT:g}pt; margin-top: 0.2em; border-bottom: 0.5pt solid {ACCENT}; }}
.lead {{ font-style: italic; }}
ol.steps {{ list-style: none; padding: 0; }}
ol.steps > li {{ margin: 0 0 0.45em; break-inside: avoid; }}
ol.steps > li.group {{ background: {PAPER}; padding: 1mm {GROUP_PADDING_MM:g}mm; }}
ol.substeps {{ list-style: none; padding-left: {SUBSTEP_INDENT_EM:g}em; margin-top: 0.3em; }}
ol.substeps > li {{ margin: 0 0 0.3em; break-inside: avoid; }}
/* step badges: the number knocked out of a solid accent, big enough for reversed type */
.badge {{ display: inline-block; min-width: {BADGE_MIN_EM:g}em; padding: 0 {BADGE_PADDING_EM:g}em; margin-right: {BADGE_GAP_EM:g}em;
  border-radius: 0.75em; background: {ACCENT}; color: {PAPER}; font-weight: 700;
  font-size: {ONE_INK_BELOW_PT}pt; text-align: center; }}
.face.back {{ font-size: {back:g}pt; }}
.back h2 {{ font-size: {heading_em:.4g}em; border-bottom: 0.5pt solid {ACCENT}; }}
.tiebreak {{ break-inside: avoid; border: {TIEBREAK_BORDER_PT:g}pt solid {ACCENT}; padding: {TIEBREAK_PADDING_MM[0]:g}mm {TIEBREAK_PADDING_MM[1]:g}mm; margin-bottom: 3mm; }}
.tiebreak h3 {{ font-size: {heading_em:.4g}em; margin-top: 0; }}
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
        + page_rule(
            fmt,
            bleed_mm=bleed_mm,
            margin_mm=CARD_MARGIN_MM,
            extra=f"background: {TINT};",
            marks=marks,
        )
        + BASE
        + CARD_FACES
    )


#: a step card's faces: the step in front (its body size is set on each card, the
#: largest of CARD_PT that fits), the deck's name behind
CARD_FACES = f"""
.card-front {{ font-size: {CARD_PT[0]:g}pt; }}
.card-front .seq {{ font-size: {MIN_PT}pt; text-transform: uppercase; letter-spacing: {CARD_SEQUENCE_SPACING_EM:g}em; margin: 0; }}
.card-front h2 {{ font-size: {CARD_TITLE_EM:g}em; margin: {CARD_TITLE_MARGIN_EM[0]:g}em 0 {CARD_TITLE_MARGIN_EM[1]:g}em; }}
.card-front .foot {{ font-size: {MIN_PT}pt; margin-top: {CARD_FOOT_SPACE_EM:g}em; }}
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
