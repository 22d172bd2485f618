"""``rulepress build print``: every game's print files in every language.

Per game and language, into ``<out>/<lang>/<game>/``:

- ``reference-<format>.pdf``: the reference card, trim size plus bleed, CMYK, no
  marks (a press file), and ``reference-<format>-pdfx4.pdf`` with a CMYK output
  intent (PDF/X-4);
- ``rulebook-<format>.pdf`` and its ``-pdfx4`` variant;
- ``cards-<format>.pdf``: one page per card face with bleed (a press file);
- ``pnp-a4.pdf`` and ``pnp-letter.pdf``: the cards n-up with crop marks, each
  sheet of fronts followed by its sheet of backs, mirrored for long-edge duplex.

Everything is laid out in memory first. A card whose content does not fit its
page stops the build with the card, the language and the overflow in mm, and
then no file is written at all.
"""

from __future__ import annotations

import os
import subprocess
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from weasyprint.document import Document

from rulepress.errors import Location, Problem, RulepressError
from rulepress.i18n.runtime import LocaleNumbers, localize
from rulepress.print import impose, pdf, styles
from rulepress.print.formats import PRESETS, Format, parse_format
from rulepress.render import print_html
from rulepress.render.context import RenderContext
from rulepress.render.html_tree import el
from rulepress.spec.load import find_game_dirs, load_spec
from rulepress.spec.loaded import LoadedSpec

DEFAULT_PROFILE = Path("/usr/share/color/icc/ghostscript/default_cmyk.icc")
LANGUAGES = ("en", "cs", "ja")
CARD_MARGIN_MM = 4.0
REFERENCE_MARGIN_MM = 6.0


@dataclass
class Laid:
    """A laid-out document and the seconds its layout took (not yet counted)."""

    document: Document
    seconds: float


class PrintError(RulepressError):
    """A print file cannot be made: content overflows its page, or a profile is missing."""

    exit_code = 7


def build_date(root: Path) -> str:
    """The documents' date: SOURCE_DATE_EPOCH, else the last commit, else a fixed date."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch is None:
        try:
            epoch = (
                subprocess.run(
                    ["git", "log", "-1", "--format=%ct"],
                    cwd=root,
                    capture_output=True,
                    text=True,
                    check=True,
                ).stdout.strip()
                or None
            )
        except (OSError, subprocess.CalledProcessError):
            epoch = None
    stamp = datetime.fromtimestamp(int(epoch), UTC) if epoch else datetime(2026, 1, 1, tzinfo=UTC)
    return stamp.strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass
class PrintBuild:
    root: Path
    spec_root: Path
    locales: Path
    out: Path
    languages: tuple[str, ...] = LANGUAGES
    reference_formats: tuple[str, ...] = ()
    bleed_mm: float = 3.0
    profile: Path = DEFAULT_PROFILE
    pnp_sheets: tuple[str, ...] = ("a4", "letter")
    files: dict[Path, bytes] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)

    def build(self) -> list[Path]:
        if not self.profile.is_file():
            raise PrintError(
                f"no ICC profile at {self.profile} (use --icc-profile, or install libgs10-common)"
            )
        created = build_date(self.root)
        for directory in find_game_dirs(self.spec_root):
            loaded = load_spec(directory)
            if loaded.spec.publishing is None:
                continue
            for lang in self.languages:
                self._game(loaded, lang, created)
        if self.problems:
            raise PrintError("some print files cannot be made; none was written", self.problems)
        written = []
        for path, data in sorted(self.files.items()):
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_name(path.name + ".tmp")
            tmp.write_bytes(data)
            tmp.replace(path)
            written.append(path)
        return written

    def _game(self, loaded: LoadedSpec, lang: str, created: str) -> None:
        local = localize(loaded, lang, self.locales)
        spec = local.loaded.spec
        pub = spec.publishing
        assert pub is not None
        numbers = LocaleNumbers(lang) if lang != "en" else str
        ctx = RenderContext(
            spec, lang, local.renderer.translate, numbers, local.renderer.plain.plural
        )
        folder = self.out / lang / spec.game.id
        name = f"{spec.game.id} ({lang})"

        for fmt_name in self.reference_formats or (pub.reference_card.format,):
            fmt = parse_format(fmt_name)
            card = pub.reference_card
            html = print_html.reference_card(ctx, card.sequences, created, card.tables)
            css = styles.reference_css(
                fmt, self.bleed_mm, self.profile, card.columns, REFERENCE_MARGIN_MM
            )
            laid = self._one_page(
                f"{name} reference card, {fmt.name}", html, css, fmt, REFERENCE_MARGIN_MM
            )
            if laid is not None:  # one layout serves the press file and its PDF/X-4 variant
                self._write(laid, folder / f"reference-{fmt.name}.pdf", x4=False)
                self._write(laid, folder / f"reference-{fmt.name}-pdfx4.pdf", x4=True)

        book_fmt = parse_format(pub.rulebook_format)
        book = print_html.rulebook(ctx, created)
        book_css = styles.rulebook_css(book_fmt, self.bleed_mm, self.profile)
        laid_book = self._layout(book, book_css)
        self._write(laid_book, folder / f"rulebook-{book_fmt.name}.pdf", x4=False)
        self._write(laid_book, folder / f"rulebook-{book_fmt.name}-pdfx4.pdf", x4=True)

        if pub.step_cards is not None:
            self._cards(
                ctx,
                pub.step_cards.sequences,
                parse_format(pub.step_cards.format),
                folder,
                name,
                created,
            )

    def _layout(self, html: str, css: str) -> Laid:
        start = time.perf_counter()
        document = pdf.layout(html, css)
        return Laid(document, time.perf_counter() - start)

    def _write(self, laid: Laid, path: Path, *, x4: bool) -> None:
        """Write a laid-out document; its layout time counts once, for the first file."""
        start = time.perf_counter()
        self.files[path] = pdf.write(laid.document, x4=x4)
        spent = time.perf_counter() - start + laid.seconds
        laid.seconds = 0.0
        self.timings[str(path.relative_to(self.out))] = spent

    def _pdf(self, path: Path, html: str, css: str) -> None:
        self._write(self._layout(html, css), path, x4=False)

    def _one_page(
        self, what: str, html: str, css: str, fmt: Format, margin_mm: float
    ) -> Laid | None:
        """The layout when the content fits one page; otherwise None and a problem saying by how much."""
        laid = self._layout(html, css)
        if len(laid.document.pages) == 1:
            return laid
        height = pdf.content_height_mm(html, css, f"{fmt.width_mm:g}mm", margin_mm)
        available = fmt.height_mm - 2 * margin_mm
        self.problems.append(
            Problem(
                Location(what),
                "overflow",
                f"the content is {height - available:.1f} mm taller than the {available:.0f} mm "
                f"the {fmt.name} page leaves for it; shorten the text or choose a larger format",
            )
        )
        return None

    def _cards(
        self,
        ctx: RenderContext,
        sequences: list[str],
        fmt: Format,
        folder: Path,
        name: str,
        created: str,
    ) -> None:
        cards = print_html.step_cards(ctx, sequences)
        css = styles.card_css(fmt, self.bleed_mm, self.profile)
        fits = [
            self._one_page(
                f"{name} card '{card.name}', {fmt.name}",
                print_html.card_document(ctx, card.front, created, card.name),
                css,
                fmt,
                CARD_MARGIN_MM,
            )
            for card in cards
        ]
        if not all(laid is not None for laid in fits):
            return
        faces = [
            el("section", face, style="break-after: page")
            for card in cards
            for face in (card.front, card.back)
        ]
        title = print_html.document_title(ctx, ctx.t(print_html.T["cards"]))
        self._pdf(
            folder / f"cards-{fmt.name}.pdf",
            print_html.card_document(ctx, faces, created, title),
            css,
        )
        for sheet_name in self.pnp_sheets:
            sheet = PRESETS[sheet_name]
            grid = impose.grid(fmt, sheet)
            body = impose.sheets([c.front for c in cards], [c.back for c in cards], grid)
            sheet_css = impose.sheet_css(sheet, fmt, self.profile)
            self._pdf(
                folder / f"pnp-{sheet_name}.pdf",
                print_html.card_document(ctx, body, created, title),
                sheet_css,
            )
