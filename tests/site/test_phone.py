"""The built site on a phone, in Chromium with touch emulation: previews, the switcher, long pages.

Checked as a phone reader would use the site: a tap on a cited rule shows its
preview (with a link that opens it) instead of leaving the page; the preview
stays inside the window at every size; the language links keep the page and,
with a script, the anchor; the header and menu leave at least 85 % of the first
screen to the page; a long page's chapters are a tap away from anywhere on it;
and a player gets from a language's landing page to each game's tie rules in
few taps and few screens (counted by walking the site's own links).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urldefrag, urlsplit

import pytest

from rulepress.model.spec_model import all_steps
from rulepress.sphinx_ext.build import SiteBuild
from tests.conftest import LANGUAGES, TRANSLATED, loaded
from tests.site.chromium import watched_page

pytestmark = [pytest.mark.slow, pytest.mark.browser]

#: the phone of the issue (an iPhone 12-14's CSS size), and a small and a large screen
PHONE = {"width": 390, "height": 844}
SIZES = {
    "small-phone": (320, 568),
    "phone": (390, 844),
    "short-desktop": (1280, 480),
    "desktop": (1280, 900),
}
#: how much of a link must be in view to tap it (px): a finger's width, and the
#: height of the site's smaller controls
TAP_STRIP = 44.0
#: the most of the first phone screen the header and the menu may take
HEADER_SHARE = 0.15


def _context(chromium: Any, width: int, height: int, *, script: bool = True) -> Any:
    """A phone (touch, mobile) below 600 px wide, a desktop with a mouse above."""
    phone = width < 600
    return chromium.new_context(
        viewport={"width": width, "height": height},
        has_touch=phone,
        is_mobile=phone,
        java_script_enabled=script,
    )


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    context = _context(browser, PHONE["width"], PHONE["height"])
    yield watched_page(context)
    context.close()


def _inside_window(tab: Any, selector: str) -> tuple[bool, dict[str, float]]:
    box = tab.evaluate(
        """(sel) => { const r = document.querySelector(sel).getBoundingClientRect();
        return {left: r.left, top: r.top, right: r.right, bottom: r.bottom,
                width: document.documentElement.clientWidth, height: innerHeight}; }""",
        selector,
    )
    inside = (
        box["left"] >= 0
        and box["top"] >= 0
        and box["right"] <= box["width"]
        and box["bottom"] <= box["height"]
    )
    return inside, box


# ------------------------------------------------------------------ previews on a tap


@pytest.mark.parametrize(("game", "lang"), TRANSLATED)
def test_a_tap_on_a_cited_rule_previews_it_with_a_link_that_opens_it(
    phone: Any,
    base_url: str,
    game: str,
    lang: str,
) -> None:
    url = f"{base_url}/{lang}/{game}/sequences.html"
    phone.goto(url)
    link = phone.locator(".rp-rule a[href*='#rule-']").first
    href = link.get_attribute("href")
    link.scroll_into_view_if_needed()
    link.tap()
    popover = phone.locator("#rp-popover")
    popover.wait_for(state="visible", timeout=10000)
    assert phone.url == url  # the tap previewed the rule; it did not leave the page
    assert popover.get_attribute("role") == "dialog"
    assert _inside_window(phone, "#rp-popover")[0]
    # its heading is the link that opens the rule
    opener = popover.locator(".rp-popover-title a")
    assert opener.get_attribute("href").endswith(href)
    rule_words = opener.inner_text()
    assert rule_words.split()[0] == link.inner_text().strip()
    # a tap elsewhere closes it; the link in it opens the rule
    phone.locator("h1").tap()
    popover.wait_for(state="detached", timeout=5000)
    link.tap()
    popover.wait_for(state="visible", timeout=10000)
    popover.locator(".rp-popover-title a").tap()
    phone.wait_for_url(f"**/{lang}/{game}/{href}")
    assert phone.errors == []


def test_a_second_tap_on_the_same_rule_opens_it(phone: Any, base_url: str) -> None:
    phone.goto(f"{base_url}/en/stationfall/sequences.html")
    link = phone.locator(".rp-rule a[href='rules.html#rule-16-4-8']").first
    link.scroll_into_view_if_needed()
    link.tap()
    phone.locator("#rp-popover").wait_for(state="visible", timeout=10000)
    link.tap()
    phone.wait_for_url("**/en/stationfall/rules.html#rule-16-4-8")


@pytest.mark.parametrize("size", SIZES)
def test_the_preview_stays_inside_the_window(
    browser: Any,
    base_url: str,
    size: str,
) -> None:
    """A rule number at the window's top and bottom edge, on phones (a tap) and desktops (hover).

    Brink's sequences cite long rules (14.4, the council's counting), the case
    where a preview opened below the number ran past the bottom of the screen.
    """
    width, height = SIZES[size]
    context = _context(browser, width, height)
    try:
        tab = context.new_page()
        tab.goto(f"{base_url}/en/brink/sequences.html")
        links = tab.locator(".rp-rule a[href*='#rule-']")
        count = links.count()
        assert count > 10
        tried = {"top": 0, "bottom": 0}
        for where in tried:
            for i in range(0, count, max(1, count // 6)):
                link = links.nth(i)
                # put the number on the window's edge (scrollIntoView's block: start or end)
                block = "start" if where == "top" else "end"
                link.evaluate(f"(a) => a.scrollIntoView({{block: '{block}'}})")
                if width < 600:
                    link.tap()
                else:
                    link.hover()
                popover = tab.locator("#rp-popover")
                popover.wait_for(state="visible", timeout=10000)
                inside, box = _inside_window(tab, "#rp-popover")
                assert inside, (where, i, link.get_attribute("href"), box)
                tab.keyboard.press("Escape")
                popover.wait_for(state="detached", timeout=5000)
                tab.mouse.move(0, 0)
                tried[where] += 1
        assert min(tried.values()) >= 5
    finally:
        context.close()


# ------------------------------------------------------------------------ the switcher


def test_the_language_switch_keeps_the_page_and_the_anchor(phone: Any, base_url: str) -> None:
    phone.goto(f"{base_url}/en/stationfall/rules.html#rule-16-4-8")
    phone.locator('.rp-langs a[hreflang="cs"]').tap()
    phone.wait_for_url("**/cs/stationfall/rules.html#rule-16-4-8")
    # the rule is where the page opened, in the other language
    assert (
        phone.evaluate("document.getElementById('rule-16-4-8').getBoundingClientRect().top") < 100
    )
    # an anchor reached on the page (its contents list) is carried too
    phone.locator("#contents a").nth(1).tap()
    anchor = phone.evaluate("location.hash")
    assert anchor.startswith("#rule-")
    phone.locator('.rp-langs a[hreflang="ja"]').tap()
    phone.wait_for_url(f"**/ja/stationfall/rules.html{anchor}")
    assert phone.evaluate("document.documentElement.lang") == "ja"
    # the phone menu's own anchor is not one to carry
    phone.goto(f"{base_url}/ja/stationfall/rules.html#rp-menu")
    href = phone.locator('.rp-langs a[hreflang="en"]').get_attribute("href")
    assert href.endswith("en/stationfall/rules.html")
    assert phone.errors == []


def test_without_a_script_the_language_links_lead_to_the_page(
    browser: Any,
    base_url: str,
) -> None:
    context = _context(browser, PHONE["width"], PHONE["height"], script=False)
    try:
        tab = context.new_page()
        tab.goto(f"{base_url}/en/brink/rules.html#rule-14-4-4")
        href = tab.locator('.rp-langs a[hreflang="ja"]').get_attribute("href")
        assert href.endswith("ja/brink/rules.html")  # a plain link to the same page
        tab.locator('.rp-langs a[hreflang="ja"]').tap()
        tab.wait_for_url("**/ja/brink/rules.html")
    finally:
        context.close()


# ------------------------------------------------- every page, as a phone opens it


@dataclass
class _Layout:
    """A page as laid out on the phone: its links and anchors, in page coordinates."""

    height: float
    links: list[tuple[str, float, float, bool]] = field(default_factory=list)
    anchors: dict[str, float] = field(default_factory=dict)


_MEASURE = """() => {
  const y = window.scrollY;
  const fixed = (el) => { for (; el; el = el.parentElement)
    if (getComputedStyle(el).position === 'fixed') return true; return false; };
  const links = [];
  for (const a of document.querySelectorAll('a[href]')) {
    // a card that is one big link: its link is stretched over the card, its text hidden
    const r = (a.closest('.sd-card:has(> .sd-stretched-link), .sd-card:has(.sd-stretched-link)') &&
      a.classList.contains('sd-stretched-link') ? a.closest('.sd-card') : a).getBoundingClientRect();
    if (!r.width || !r.height || getComputedStyle(a).visibility === 'hidden') continue;
    links.push([a.href, r.top + y, r.bottom + y, fixed(a)]);
  }
  const anchors = {};
  for (const el of document.querySelectorAll('[id]')) {
    const r = el.getBoundingClientRect();
    const margin = parseFloat(getComputedStyle(el).scrollMarginTop) || 0;
    anchors[el.id] = r.top + y - margin;
  }
  return {height: document.documentElement.scrollHeight, links, anchors, y};
}"""


def _layout(tab: Any) -> _Layout:
    """The page's layout as the tab has it (from its top: where a page opens without an anchor)."""
    tab.evaluate("window.scrollTo(0, 0)")
    found = tab.evaluate(_MEASURE)
    return _Layout(found["height"], [tuple(x) for x in found["links"]], found["anchors"])


def _pages_of(site: SiteBuild, lang: str) -> list[str]:
    out = [f"{lang}/index.html"]
    for game in sorted(p for p in (site.out / lang).iterdir() if (p / "rules.html").is_file()):
        out += [f"{lang}/{game.name}/{page.name}" for page in sorted(game.glob("*.html"))]
    return out


@dataclass
class _Opened:
    """A page as a phone with a script opens it: what the tests of this module read of it."""

    #: where the text starts (<main>'s top), as a share of the window's height
    header: float
    #: how many windows high the page is
    screens: float
    #: whether it has a contents list (nav#contents), and how many chapters (<h2>)
    contents: bool
    chapters: int
    #: its layout with the menu shut and open (the menu is the page's own anchor, #rp-menu)
    shut: _Layout
    opened: _Layout
    #: script errors and console errors while it was read
    errors: list[str]


@pytest.fixture(scope="module")
def opened(browser: Any, base_url: str, site: SiteBuild) -> dict[str, _Opened]:
    """Every page of every language, opened once on the phone for every test that reads it.

    The header's share of the first screen, the long pages and the walk to the
    tie rules each read every page of a language: one load of each serves them all.
    """
    context = _context(browser, PHONE["width"], PHONE["height"])
    out: dict[str, _Opened] = {}
    try:
        tab = watched_page(context)
        for lang in LANGUAGES:
            for url in _pages_of(site, lang):
                tab.errors.clear()
                tab.goto(f"{base_url}/{url}")
                # the text starts where the header and the menu end
                top = tab.evaluate("document.querySelector('main').getBoundingClientRect().top")
                screens = tab.evaluate("document.documentElement.scrollHeight / innerHeight")
                contents = tab.locator("nav#contents").count() > 0
                chapters = tab.locator("main h2").count()
                shut = _layout(tab)
                # the menu opens as the link's target: the same page, its anchor changed
                tab.evaluate("location.hash = 'rp-menu'")
                open_ = _layout(tab)
                out[url] = _Opened(
                    top / PHONE["height"], screens, contents, chapters, shut, open_, []
                )
                out[url].errors = list(tab.errors)
    finally:
        context.close()
    return out


#: a page of each game in each language, and each language's landing page, without a script
def _headers(site: SiteBuild) -> list[str]:
    out = []
    for lang in LANGUAGES:
        out.append(f"{lang}/index.html")
        games = sorted(p for p in (site.out / lang).iterdir() if (p / "rules.html").is_file())
        out += [f"{lang}/{game.name}/rules.html" for game in games]
    return out


@pytest.mark.parametrize("script", [True, False], ids=["script", "no-script"])
def test_the_header_and_menu_take_at_most_15_percent_of_the_first_phone_screen(
    browser: Any,
    base_url: str,
    site: SiteBuild,
    opened: dict[str, _Opened],
    script: bool,
) -> None:
    """With a script, every page of every language (as :func:`opened` measured them).

    Without one, each language's landing page and a page of each game: the header
    and the shut menu are the template's, the same on every page of a game in a
    language but for the game's title and the language's words, and what the
    script changes on a phone (the menu a button instead of a link's target) is
    the same on all of them.
    """
    measured: dict[str, float] = {}
    context = _context(browser, PHONE["width"], PHONE["height"], script=script)
    try:
        tab = context.new_page()
        if script:
            measured = {url: page.header for url, page in opened.items()}
        else:
            for url in _headers(site):
                tab.goto(f"{base_url}/{url}")
                top = tab.evaluate("document.querySelector('main').getBoundingClientRect().top")
                measured[url] = top / PHONE["height"]
        # the menu is still there: "Menu" opens the page list and the search
        tab.goto(f"{base_url}/cs/brink/rules.html")
        pages = tab.locator(".rp-pages a").first
        assert not pages.is_visible()
        tab.locator(".rp-menu-link").tap()
        pages.wait_for(state="visible", timeout=5000)
        assert tab.locator(".rp-search input").is_visible()
        if script:
            assert tab.locator(".rp-menu-link").get_attribute("aria-expanded") == "true"
            tab.locator(".rp-menu-link").tap()
            pages.wait_for(state="hidden", timeout=5000)
    finally:
        context.close()
    assert len(measured) >= (20 if script else 3 * len(LANGUAGES))
    too_big = {url: f"{share:.0%}" for url, share in measured.items() if share > HEADER_SHARE}
    assert too_big == {}


# ---------------------------------------------------------------------- long pages


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_long_page_has_its_chapters_a_tap_away_from_anywhere(
    phone: Any,
    base_url: str,
    site: SiteBuild,
    opened: dict[str, _Opened],
    lang: str,
) -> None:
    """Every page of the language is seen (:func:`opened`); the way to the contents and
    back is tried on one long page of each kind, the games in turn from language to
    language: every page's list and its way back are the template's, around chapters
    the same code makes for every game."""
    long_pages = []
    for url in _pages_of(site, lang):
        page = opened[url]
        assert page.errors == [], url
        if not page.contents:
            # a page without a list is short, or has no chapters to list (a glossary's
            # terms, the rules index's table)
            assert page.screens < 4 or page.chapters == 0, url
            continue
        long_pages.append(url)
    kinds: dict[str, list[str]] = {}
    for url in long_pages:
        kinds.setdefault(url.rsplit("/", 1)[1], []).append(url)
    turn = LANGUAGES.index(lang)
    tried = [urls[(i + turn) % len(urls)] for i, urls in enumerate(kinds.values())]
    for url in tried:
        phone.goto(f"{base_url}/{url}")
        # from the bottom of the page, the way back is in view and leads to the list
        phone.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
        back = phone.locator(".rp-to-contents a")
        assert _inside_window(phone, ".rp-to-contents a")[0], url
        back.tap()
        phone.wait_for_function("location.hash === '#contents'")
        assert _inside_window(phone, "nav#contents .topic-title")[0], url
        # and an entry leads to its chapter
        entry = phone.locator("nav#contents a").last
        target = entry.get_attribute("href")
        entry.tap()
        phone.wait_for_function(f"location.hash === '{target}'")
        top = phone.evaluate(f"document.getElementById('{target[1:]}').getBoundingClientRect().top")
        # at the top of the window (less the last chapter, when the page ends first)
        assert -2 <= top < PHONE["height"] - 48, (url, target, top)
    # Brink's rules (49 screens before) are among them, and both our games' examples
    # (a game added beside them may have a short page of examples or a long one)
    assert any(u.endswith("brink/rules.html") for u in long_pages)
    examples = {u.split("/")[-2] for u in long_pages if u.endswith("examples.html")}
    assert {"brink", "stationfall"} <= examples
    assert phone.errors == []


# ------------------------------------------------------------- the way to a tie rule


class _Walker:
    """Counts a reader's taps and screens through the site's links on a phone.

    A tap is following one link (or opening the menu). A screen is one window's
    height scrolled to bring the next thing to tap, or the rule sought, into
    view: a link already in view, or pinned in view, costs none. A page opens
    where the browser puts it (its top, or its anchor), as measured in Chromium.
    """

    def __init__(self, tab: Any, root: str, known: dict[tuple[str, bool], _Layout]) -> None:
        self.tab = tab
        self.root = root  # only this language's pages are walked
        #: (page address, menu open) -> its layout: those known already, and those read here
        self.layouts = dict(known)
        self.view = float(PHONE["height"])

    def layout(self, page: str, menu: bool) -> _Layout:
        key = (page, menu)
        if key not in self.layouts:
            self.tab.goto(page + ("#rp-menu" if menu else ""))
            self.layouts[key] = _layout(self.tab)
        return self.layouts[key]

    def arrive(self, url: str) -> tuple[str, float]:
        """The page a link leads to and where it opens (its scroll position)."""
        page, anchor = urldefrag(url)
        if not anchor:
            return page, 0.0
        layout = self.layout(page, False)
        top = layout.anchors.get(anchor, 0.0)
        return page, max(0.0, min(top, layout.height - self.view))

    def screens_to(self, scroll: float, top: float, bottom: float) -> int:
        if top >= scroll and bottom <= scroll + self.view:
            return 0
        if bottom > scroll + self.view:
            return math.ceil((bottom - scroll - self.view) / self.view)
        return math.ceil((scroll - top) / self.view)

    def walk(
        self, start: str, targets: set[str], most_taps: int
    ) -> dict[int, tuple[int, list[str]]]:
        """For each number of taps up to ``most_taps``: the fewest screens to a target, and the way.

        ``targets``: page addresses with an anchor; one is reached when that
        anchor's heading is in view. A number of taps that reaches none is left out.
        """
        found: dict[int, tuple[int, list[str], tuple[int, bool]]] = {}
        # (page, menu open, scroll) -> the fewest screens so far, and the links tapped
        level: dict[tuple[str, bool, float], tuple[int, list[str]]] = {(start, False, 0.0): (0, [])}
        for taps in range(most_taps + 1):
            following: dict[tuple[str, bool, float], tuple[int, list[str]]] = {}
            for (page, menu, scroll), (screens, way) in level.items():
                here = self.layout(page, menu)
                for target in targets:
                    t_page, anchor = urldefrag(target)
                    if t_page == page and anchor in here.anchors:
                        top = here.anchors[anchor]
                        cost = screens + self.screens_to(scroll, top, top + 48)
                        # of ways as short, the one whose last tap was the rule's own link
                        rank = (cost, not way or way[-1] != target)
                        if taps not in found or rank < found[taps][2]:
                            found[taps] = (cost, way, rank)
                if taps < most_taps:
                    self._follow(page, menu, scroll, screens, way, following)
            level = following
        return {taps: (cost, way) for taps, (cost, way, _) in found.items()}

    def _follow(
        self,
        page: str,
        menu: bool,
        scroll: float,
        screens: int,
        way: list[str],
        following: dict[tuple[str, bool, float], tuple[int, list[str]]],
    ) -> None:
        """Every tap from one place: each link of this language, and "Menu" when it is shut."""
        here = self.layout(page, menu)
        moves = list(here.links)
        if not menu:
            moves.append((page + "#rp-menu", 0.0, 48.0, False))
        for url, top, bottom, pinned in moves:
            if not url.startswith(self.root) or urlsplit(url).path.endswith(".pdf"):
                continue
            # a finger needs a strip of a link in view, not all of a tall card that is one link
            reach = min(bottom, top + TAP_STRIP)
            cost = screens + (0 if pinned else self.screens_to(scroll, top, reach))
            if url == page + "#rp-menu":
                if menu:
                    continue
                # the menu opens in place, under the header (the script's way)
                state = (page, True, scroll)
            else:
                where, opened = self.arrive(url)
                state = (where, False, opened)
            known = following.get(state)
            if known is None or cost < known[0]:
                following[state] = (cost, [*way, url])


def _tie_targets(base: str, lang: str, game: str, sequence: str) -> set[str]:
    """Where a sequence's tie rules are: the scoring page's tie sections and the rules they cite."""
    spec = loaded(game).spec
    out: set[str] = set()
    for seq in spec.sequences:
        if seq.id != sequence:
            continue
        for step in all_steps(seq.steps):
            scoring = f"{base}/{lang}/{game}/scoring.html"
            rules = f"{base}/{lang}/{game}/rules.html"
            if step.tally is not None:
                out.add(f"{scoring}#ties-{seq.id}-{step.number.lower()}")
                out |= {f"{rules}#rule-{n.replace('.', '-')}" for n in step.tally.tie_rules}
            if step.winners is not None:
                out.add(f"{scoring}#tiebreak-{seq.id}-{step.number.lower()}")
                out |= {f"{rules}#rule-{n.replace('.', '-')}" for n in step.rules}
    return out


#: the games and the tie rule a player looks for in each (issue 29): Brink's council
#: vote, Stationfall's end-of-game tie-break
TIE_RULES = {"brink": "council-vote", "stationfall": "stationfall-sequence"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_player_reaches_each_games_tie_rule_in_three_taps_and_two_screens(
    phone: Any,
    base_url: str,
    opened: dict[str, _Opened],
    lang: str,
) -> None:
    # the pages of every language as opened once for the module (:func:`opened`)
    known = {}
    for url, page in opened.items():
        known[(f"{base_url}/{url}", False)] = page.shut
        known[(f"{base_url}/{url}", True)] = page.opened
    walker = _Walker(phone, f"{base_url}/{lang}/", known)
    figures = {}
    for game, sequence in TIE_RULES.items():
        targets = _tie_targets(base_url, lang, game, sequence)
        assert targets
        figures[game] = walker.walk(f"{base_url}/{lang}/index.html", targets, 3)
    # the figures, for the record (pytest -s shows them): taps -> screens, and the way
    for game, ways in figures.items():
        for taps, (screens, way) in sorted(ways.items()):
            shown = [w.removeprefix(base_url) for w in way]
            print(f"{lang} {game}: {taps} taps, {screens} screens: {shown}")
    for game, ways in figures.items():
        assert any(screens <= 2 for screens, _ in ways.values()), (game, ways)


# ------------------------------------------------------- what search engines read


def test_every_page_has_a_description_and_absolute_alternates(site: SiteBuild) -> None:
    """Lighthouse's SEO audits (benchmarks/bench_lighthouse.py), read from the built pages.

    A game's pages are described by its summary in their language; the other
    languages' addresses are absolute, as hreflang wants them, when the site's
    address is known (the session's build gives one).
    """
    for lang in LANGUAGES:
        by_game: dict[str, set[str]] = {}
        for url in _pages_of(site, lang):
            html = (site.out / url).read_text(encoding="utf-8")
            described = re.search(r'<meta name="description" content="([^"]+)"', html)
            assert described is not None, url
            parts = url.split("/")
            if len(parts) == 3:
                by_game.setdefault(parts[1], set()).add(described.group(1))
            alternates = re.findall(r'<link rel="alternate" hreflang="[^"]+" href="([^"]+)"', html)
            assert alternates, url
            assert all(urlsplit(a).scheme in ("http", "https") for a in alternates), url
        # one description per game, its own
        assert all(len(texts) == 1 for texts in by_game.values()), by_game
        assert len({text for texts in by_game.values() for text in texts}) == len(by_game)
        if lang == "en":
            for game, texts in by_game.items():
                summary = " ".join(loaded(game).spec.game.summary.split())
                # (its end: the start may be a parameter, written as its value)
                assert next(iter(texts)).split()[-4:] == summary.split()[-4:], game
