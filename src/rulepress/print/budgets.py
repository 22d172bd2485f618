"""Length budgets: how much room a message has on a step card or the reference card.

print places of the messages (:mod:`rulepress.render.places`) + the print
layout's boxes (:mod:`rulepress.print.styles`) → a budget per message:
``N lines of W mm at P pt``. The extractor writes each budget into the
templates beside its print place; ``rulepress i18n check`` measures each
translation with the real fonts (:mod:`rulepress.print.measure`) and reports
one that exceeds its budget, before any PDF is built.

How many lines a budget allows (the issue leaves it open; decided here):

- **A step card** is one page with nothing else to share its room: the card's
  text box (the format less its margins) at the smallest body size the build
  may choose (``CARD_PT[0]``), the step's title two lines (at the title size),
  the sequence's name on one line, and the step's text every line the card
  has left after those and its footer. A card whose messages keep to their
  budgets fits, whatever the language.
- **The reference card** is two faces shared by many texts, so no one text
  owns the spare room. The build sets it at the largest size from
  ``REFERENCE_PT`` that fits; a translation may take the lines its English
  takes *at the largest size*, measured at the *smallest*: it may be
  ``REFERENCE_PT[1] / REFERENCE_PT[0]`` (about a quarter) wider than the
  English, which is the room the build gains by shrinking the type. Kept to,
  the card fits wherever the English fits at the largest size. A text over
  its budget may still fit when others are shorter: ``i18n check`` weighs the
  texts of each face together, and warns of those over budget only when the
  face's texts take more height than their budgets add up to. Over a step
  card's budget is an error.

Not budgeted: the game's title and the tables (numbers and short labels),
and the rulebook, whose pages flow.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from rulepress.model import Spec
from rulepress.print import styles
from rulepress.print.formats import parse_format
from rulepress.print.measure import PT_MM, Style, lines, width_em
from rulepress.render.places import Place

#: the elements a reference to another message is set in (a term's words, a ruling's title)
_REFERENCES = ("span.term", "span.ruling")


@dataclass(frozen=True, slots=True)
class Box:
    """Where a text is set: the box's width, the type, and what stands before it on line one."""

    width_mm: float
    style: Style
    offset_mm: float = 0.0
    #: the line height, in em (what a line of it takes down the face)
    line_height: float = styles.LINE_HEIGHT

    def line_mm(self) -> float:
        return self.style.pt * self.line_height * PT_MM


@dataclass(frozen=True, slots=True)
class Budget:
    """The lines a message (with the others of its block) may take in its box at a place."""

    place: Place
    box: Box
    lines: int
    #: every message set in the same block, in order (the paragraphs of a step's text)
    contexts: tuple[str, ...]
    #: whether a text over budget overflows for certain (a card: an error) or may (the
    #: reference card, whose texts share two faces: a warning)
    hard: bool = True

    def __str__(self) -> str:
        style = self.box.style
        face = ", bold" if style.bold else ", italic" if style.italic else ""
        face += ", capitals" if style.upper else ""
        em = self.box.width_mm / (style.pt * PT_MM)
        unit = "line" if self.lines == 1 else "lines"
        width = f"{self.box.width_mm:.1f}".removesuffix(".0")
        return f"budget: {self.lines} {unit} of {width} mm at {style.pt:g} pt{face} ({em:.0f} em)"


def _has(chain: tuple[str, ...], start: str) -> bool:
    return any(c == start or c.startswith(start + ".") for c in chain)


def _reference_box(spec: Spec, chain: tuple[str, ...], prefix: str) -> Box | None:
    """The box of a text on the reference card, by the elements it sits in."""
    pub = spec.publishing
    assert pub is not None
    fmt = parse_format(pub.reference_card.format)
    body = styles.REFERENCE_PT[0]
    ruled = styles.REFERENCE_LINE_HEIGHT
    inner = fmt.width_mm - 2 * styles.REFERENCE_MARGIN_MM - 2 * styles.UA_BODY_MARGIN_PT * PT_MM
    if _has(chain, "section.sequence"):
        across = inner - 2 * styles.SEQUENCE_PADDING_MM[1]
        columns = pub.reference_card.columns
        column = (across - (columns - 1) * styles.COLUMN_GAP_MM) / columns
        if _has(chain, "ol.substeps"):
            column -= 2 * styles.GROUP_PADDING_MM + styles.SUBSTEP_INDENT_EM * body * PT_MM
        if _has(chain, "div.text"):
            return Box(column, Style(body), 0.0, ruled)
        if _has(chain, "p.lead"):
            return Box(across, Style(body, italic=True), 0.0, ruled)
        if _has(chain, "h2"):
            heading = Style(styles.REFERENCE_HEADING_PT, bold=True)
            return Box(across, heading, 0.0, styles.HEADING_LINE_HEIGHT)
        if _has(chain, "b") and _has(chain, "li"):
            # the number's badge before the title, at its own size
            badge_pt = styles.ONE_INK_BELOW_PT
            number = width_em(prefix.strip(), Style(badge_pt, bold=True))
            badge = max(styles.BADGE_MIN_EM, number + 2 * styles.BADGE_PADDING_EM)
            offset = (badge + styles.BADGE_GAP_EM) * badge_pt * PT_MM
            return Box(column, Style(body, bold=True), offset, ruled)
        return None
    if _has(chain, "section.tiebreak"):
        border = 2 * styles.TIEBREAK_BORDER_PT * PT_MM
        width = inner - 2 * styles.TIEBREAK_PADDING_MM[1] - border
        if _has(chain, "ol"):
            return Box(width - styles.LIST_INDENT_EM * body * PT_MM, Style(body), 0.0, ruled)
        if _has(chain, "p") and not _has(chain, "b"):
            # after its bold label ("If still tied:")
            label = _prefix_mm(prefix, Style(body, bold=True))
            return Box(width, Style(body), label, ruled)
    return None


def _prefix_mm(prefix: str, style: Style) -> float:
    return width_em(prefix, style) * style.pt * PT_MM


def _card_box(spec: Spec, chain: tuple[str, ...], prefix: str) -> tuple[Box, int] | None:
    """The box of a text on a step card's front and the lines it has (see the module's docstring)."""
    pub = spec.publishing
    assert pub is not None
    assert pub.step_cards is not None
    if not _has(chain, "div.card-front"):
        return None
    fmt = parse_format(pub.step_cards.format)
    body_margin_mm = styles.UA_BODY_MARGIN_PT * PT_MM
    width = fmt.width_mm - 2 * styles.CARD_MARGIN_MM - 2 * body_margin_mm
    body = styles.CARD_PT[0]
    title = Style(body * styles.CARD_TITLE_EM, bold=True)
    sequence = Style(styles.MIN_PT, upper=True, spacing_em=styles.CARD_SEQUENCE_SPACING_EM)
    title_lines = 2
    if _has(chain, "p.seq"):
        return Box(width, sequence), 1
    if _has(chain, "h2"):
        return Box(width, title, _prefix_mm(prefix, title)), title_lines
    if not _has(chain, "div.text"):
        return None
    # the text has the card's height less the sequence line, the title and the footer
    used_pt = styles.MIN_PT * styles.LINE_HEIGHT
    used_pt += title.pt * (
        title_lines * styles.HEADING_LINE_HEIGHT + sum(styles.CARD_TITLE_MARGIN_EM)
    )
    # the footer's margin below, and the body's, fall at the end of the page, where a
    # layout drops them (CSS fragmentation truncates margins at a break)
    used_pt += styles.MIN_PT * (styles.LINE_HEIGHT + styles.CARD_FOOT_SPACE_EM)
    height_pt = (fmt.height_mm - 2 * styles.CARD_MARGIN_MM) / PT_MM - styles.UA_BODY_MARGIN_PT
    text_lines = math.floor((height_pt - used_pt) / (body * styles.LINE_HEIGHT))
    return Box(width, Style(body)), text_lines


def budgets(
    spec: Spec, places: Mapping[str, list[Place]], english: Mapping[str, str]
) -> dict[str, list[Budget]]:
    """Every budgeted message's budgets, by msgctxt; ``english``: the plain English of each.

    Messages that share a block (the paragraphs of one step's text) share one
    budget, listed under each of them.
    """
    if spec.publishing is None:
        return {}
    reference = f"reference-{spec.publishing.reference_card.format}.pdf"
    cards = f"cards-{spec.publishing.step_cards.format}.pdf" if spec.publishing.step_cards else None
    blocks: dict[tuple[str, str, int], list[tuple[str, Place]]] = {}
    for context, found in places.items():
        for place in found:
            # a term's words or a ruling's title inside another text count as that text's
            if any(c.startswith(_REFERENCES) for c in place.chain):
                continue
            if place.medium == "print" and place.file in (reference, cards):
                blocks.setdefault((place.file, place.part, place.block), []).append(
                    (context, place)
                )
    scale = styles.REFERENCE_PT[1] / styles.REFERENCE_PT[0]
    out: dict[str, list[Budget]] = {}
    for (file, _, _), members in blocks.items():
        first = members[0][1]
        contexts = tuple(dict.fromkeys(context for context, _ in members))
        if file == cards:
            fitted = _card_box(spec, first.chain, first.prefix)
            if fitted is None:
                continue
            box, count = fitted
        else:
            found_box = _reference_box(spec, first.chain, first.prefix)
            if found_box is None:
                continue
            box = found_box
            text = " ".join(english.get(c, "") for c in contexts)
            # the English at the largest size: the same box, the type a quarter larger
            larger = Style(
                box.style.pt * scale,
                box.style.bold,
                box.style.italic,
                box.style.upper,
                box.style.spacing_em,
            )
            count = max(1, lines(text, box.width_mm, larger, box.offset_mm))
        budget = Budget(first, box, count, contexts, hard=file == cards)
        for context in contexts:
            out.setdefault(context, []).append(budget)
    return out


def used_lines(budget: Budget, texts: Mapping[str, str]) -> int:
    """How many lines the texts of a budget's block take in its box (``texts``: plain, by context)."""
    text = " ".join(texts.get(c, "") for c in budget.contexts)
    return lines(text, budget.box.width_mm, budget.box.style, budget.box.offset_mm)
