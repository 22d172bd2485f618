"""Translations are untrusted: in the print HTML a hostile msgstr is text, never markup or controls.

The tests read the HTML stage (:mod:`rulepress.render.print_writer`), which is
fast; one lays a card out with WeasyPrint and reads it back with pdftotext.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

import pytest

from rulepress.games.messages import translate_data
from rulepress.i18n.runtime import LocaleNumbers, localize
from rulepress.model.spec_model import Spec
from rulepress.print import pdf, styles
from rulepress.print.formats import parse_format
from rulepress.print.profiles import DEFAULT_PROFILE
from rulepress.render import print_trees, print_writer
from rulepress.render.context import RenderContext
from tests.conftest import LOCALES, loaded

PAYLOADS = (
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    '"><b>x</b>',
    "&amp;",
    "{0.__class__}",
)
# line breaks that are not LF, each followed by what would start a list item or a heading
FORGED_LINES = (
    "\r- forged item\r# forged heading\u2028- item\x85- item\x1c- item\x0b- item\x0c- item"
)
CONTROLS = "nul\x00rlo\u202eiso\u2066end"

# one kind of printed text each: a spec message context, or an interface sentence
PLACES = {
    "rule title": "rules/16.2/title",
    "rule text": "rules/16.2/text#1",
    "step title": "sequences/stationfall-sequence/steps/1/title",
    "step text": "sequences/stationfall-sequence/steps/1/text",
    "sequence title": "sequences/stationfall-sequence/title",
    "glossary term": "glossary/{term}/term",
    "glossary definition": "glossary/{term}/definition",
    "ruling title": "rulings/{ruling}/title",
    "ruling decision": "rulings/{ruling}/decision",
    "table title": "tables/winners-by-player-count/title",
    "table label": "tables/winners-by-player-count/key_label",
}
INTERFACE = {
    "interface label": print_trees.T["reference"],
    "interface heading": print_trees.T["glossary"],
}


def hostile(place: str) -> str:
    """A payload that names its place, so that each can be found again as text."""
    return f"[{place}] " + " ".join(PAYLOADS) + FORGED_LINES + " " + CONTROLS


def shown(place: str) -> str:
    """How :func:`hostile` must read in the HTML: breaks as spaces, controls as U+FFFD."""
    text = hostile(place)
    for brk in "\r\u2028\x85\x0b\x0c":
        text = text.replace(brk, " ")
    for ctl in "\x00\u202e\u2066\x1c":
        text = text.replace(ctl, "\ufffd")
    return " ".join(text.split())


@dataclass
class Parsed(HTMLParser):
    """The elements (name and attributes, in order) and the visible text of an HTML document."""

    elements: list[tuple[str, tuple[tuple[str, str | None], ...]]] = field(default_factory=list)
    text: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        super().__init__(convert_charrefs=True)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append((tag, tuple(attrs)))

    def handle_data(self, data: str) -> None:
        self.text.append(data)

    @classmethod
    def of(cls, html: str) -> Parsed:
        parser = cls()
        parser.feed(html)
        parser.close()
        return parser

    @property
    def words(self) -> str:
        return " ".join("".join(self.text).split())


def _documents(
    spec_lookup: Callable[[str, str], str | None] | None = None,
    ui_lookup: Callable[[str], str | None] | None = None,
) -> dict[str, str]:
    """Every print HTML document of Stationfall in Czech: reference card, rulebook, cards.

    The lookups replace spec messages (by context) and interface sentences on
    top of the real Czech catalogs, in memory: the catalog reader has checks
    of its own, and the print writer must hold even without them.
    """
    local = localize(loaded("stationfall"), "cs", LOCALES)
    spec = local.loaded.spec
    if spec_lookup is not None:
        spec = Spec.model_validate(translate_data(spec.model_dump(), spec_lookup))

    def translate(text: str) -> str:
        found = ui_lookup(text) if ui_lookup else None
        return found if found is not None else local.renderer.translate(text)

    ctx = RenderContext(spec, "cs", translate, LocaleNumbers("cs"))
    pub = spec.publishing
    assert pub is not None
    assert pub.step_cards is not None
    created = "2026-01-01T00:00:00Z"
    docs = {
        "reference": print_writer.write(
            print_trees.reference_card(
                ctx, pub.reference_card.sequences, pub.reference_card.tables
            ),
            created,
        ),
        "rulebook": print_writer.write(print_trees.rulebook(ctx), created),
    }
    deck = print_trees.step_cards(ctx, pub.step_cards.sequences)
    for card in print_writer.cards(deck):
        docs[card.name] = print_writer.card_document(
            deck, [card.front, card.back], created, card.name
        )
    return docs


def _replaced(text_for: Callable[[str], str]) -> dict[str, str]:
    """The documents with every place of :data:`PLACES` and :data:`INTERFACE` replaced."""
    spec = loaded("stationfall").spec
    ids = {"ruling": spec.rulings[0].id, "term": spec.glossary[0].id}
    contexts = {context.format(**ids): place for place, context in PLACES.items()}
    interface = {text: place for place, text in INTERFACE.items()}
    found: set[str] = set()

    def spec_lookup(context: str, text: str) -> str | None:
        place = contexts.get(context)
        if place is None:
            return None
        found.add(place)
        return text_for(place)

    def ui_lookup(text: str) -> str | None:
        place = interface.get(text)
        return None if place is None else text_for(place)

    docs = _documents(spec_lookup, ui_lookup)
    assert found == set(PLACES)  # every context still names a message of the spec
    return docs


@pytest.fixture(scope="module")
def honest() -> dict[str, str]:
    """The same places translated with plain words: the structure hostile text must keep."""
    return _replaced(lambda place: f"[{place}] plain words")


@pytest.fixture(scope="module")
def attacked() -> dict[str, str]:
    return _replaced(hostile)


def test_every_kind_of_text_is_attacked(attacked: dict[str, str]) -> None:
    words = " ".join(Parsed.of(html).words for html in attacked.values())
    for place in [*PLACES, *INTERFACE]:
        assert shown(place) in words, place


def test_hostile_text_makes_no_markup(honest: dict[str, str], attacked: dict[str, str]) -> None:
    assert honest.keys() == attacked.keys()
    for name, html in attacked.items():
        parsed = Parsed.of(html)
        tags = {tag for tag, _ in parsed.elements}
        attrs = {attr for _, pairs in parsed.elements for attr, _ in pairs}
        assert not tags & {"script", "img"}, name
        assert "onerror" not in attrs, name
        assert "<script" not in html, name
        assert "<img" not in html, name
        # the same elements with the same attributes, in the same order: no forged paragraph,
        # list item, heading or bold text, whichever line break or markup the text carried
        assert parsed.elements == Parsed.of(honest[name]).elements, name


def test_controls_never_reach_the_html(attacked: dict[str, str]) -> None:
    for name, html in attacked.items():
        for char in "\x00\u202e\u2066\r\u2028\x85\x0b\x0c\x1c":
            assert char not in html, (name, hex(ord(char)))
    assert "nul\ufffdrlo\ufffdiso\ufffdend" in attacked["rulebook"]  # shown, not dropped


@pytest.mark.slow
@pytest.mark.print
def test_a_laid_out_card_shows_the_payload_as_text(
    attacked: dict[str, str], tmp_path: Path
) -> None:
    name = next(n for n in attacked if n.endswith("step 1"))
    css = styles.card_css(parse_format("poker"), 3.0, DEFAULT_PROFILE)
    path = tmp_path / "card.pdf"
    path.write_bytes(pdf.render(attacked[name], css).pdf)
    text = subprocess.run(
        ["pdftotext", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout
    flat = " ".join(text.split())
    assert "<script>alert(1)</script>" in flat
    assert "<img src=x onerror=alert(1)>" in flat
    assert '"><b>x</b>' in flat
    assert "\u202e" not in text
    assert "\x00" not in text
