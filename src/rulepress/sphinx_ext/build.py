"""``rulepress build site``: every game in every language, as Sphinx HTML sites.

Stages, each inspectable on disk:

1. for each language, the specs are translated (:mod:`rulepress.i18n.runtime`)
   and rendered to MyST pages (:mod:`rulepress.render.pages`) in
   ``<out>/_sources/<lang>/``, with a generated ``conf.py``; files are written
   only when their text changes, so Sphinx rebuilds only what changed;
2. Sphinx builds ``<out>/<lang>/`` (HTML, warnings are errors) and, with
   ``doctest=True``, runs every worked example's doctest; languages build in
   parallel processes;
3. ``<out>/index.html`` sends a reader to their language.

Nothing is written into the project's sources.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from rulepress.errors import Location, Problem, RulepressError
from rulepress.i18n.runtime import LocaleNumbers, localize
from rulepress.render.context import RenderContext
from rulepress.render.myst import escape
from rulepress.render.pages import game_pages
from rulepress.spec.load import find_game_dirs, load_spec
from rulepress.sphinx_ext.reference import cli_reference, schema_page
from rulepress.uitext import ui

LANGUAGES = ("en", "cs", "ja")
ICON = Path(__file__).parent / "static" / "rulepress-icon.svg"
NATIVE_NAMES = {"en": "English", "cs": "Čeština", "ja": "日本語"}
SITE_TITLE = ui("site", "Board-game rules")
SITE_INTRO = ui(
    "site",
    "Rules references published with rulepress: every rule with a permanent link, checked worked examples, in three languages.",
)
GUIDES = ui("site", "rulepress documentation")


class SiteError(RulepressError):
    """Sphinx reported warnings or errors, or a doctest failed."""

    exit_code = 6


@dataclass
class SiteBuild:
    root: Path
    spec_root: Path
    locales: Path
    out: Path
    languages: tuple[str, ...] = LANGUAGES
    theme: str = "furo"
    docs: Path | None = None
    written: list[Path] = field(default_factory=list)

    @property
    def sources(self) -> Path:
        return self.out / "_sources"

    def write(self, path: Path, text: str) -> None:
        if path.exists() and path.read_text(encoding="utf-8") == text:
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        self.written.append(path)

    # ----------------------------------------------------------------- stage 1

    def projects(self) -> list[tuple[str, str]]:
        """(language, project) pairs: one Sphinx project per game and a home per language."""
        games = [d.name for d in find_game_dirs(self.spec_root)]
        return [(lang, name) for lang in self.languages for name in ("_home", *games)]

    def generate(self) -> None:
        games = [load_spec(d) for d in find_game_dirs(self.spec_root)]
        for lang in self.languages:
            cards = []
            translate: Callable[[str], str] = str
            numbers = LocaleNumbers(lang) if lang != "en" else str
            for loaded in games:
                local = localize(loaded, lang, self.locales)
                translate = local.renderer.translate
                ctx = RenderContext(
                    local.loaded.spec, lang, translate, numbers, home="../index.html"
                )
                game_id = loaded.spec.game.id
                for name, text in game_pages(ctx).items():
                    self.write(self.sources / lang / game_id / f"{name}.md", text)
                title = local.loaded.spec.game.title
                self.write(
                    self.sources / lang / game_id / "conf.py", self._conf(lang, game_id, title)
                )
                g = local.loaded.spec.game
                cards.append((game_id, g.title, " ".join(g.summary.split())))
            home = self.sources / lang / "_home"
            self.write(home / "index.md", self._landing(lang, cards, translate))
            self.write(home / "conf.py", self._conf(lang, "_home", "rulepress"))
            if lang == "en" and self.docs is not None:
                self._guides(home / "guide")
        self.write(self.out / "index.html", self._root_page())

    def _landing(
        self, lang: str, cards: list[tuple[str, str, str]], tr: Callable[[str], str]
    ) -> str:
        lines = [
            f"# {escape(tr(SITE_TITLE))}",
            "",
            escape(tr(SITE_INTRO)),
            "",
            "::::{grid} 1 1 2 2",
            ":gutter: 3",
            "",
        ]
        for game_id, title, summary in cards:
            lines += [
                f":::{{grid-item-card}} {escape(title)}",
                f":link: {game_id}/index.html",
                ":link-type: url",
                "",
                escape(summary),
                ":::",
                "",
            ]
        lines += ["::::", ""]
        if lang == "en" and self.docs is not None:
            lines += [
                "```{toctree}",
                ":maxdepth: 1",
                f":caption: {escape(tr(GUIDES))}",
                "",
                "guide/index",
                "```",
                "",
            ]
        return "\n".join(lines)

    def _conf(self, lang: str, project: str, title: str) -> str:
        names = {code: NATIVE_NAMES[code] for code in self.languages}
        setup = (
            "import rulepress.doctest_api as _api; from pathlib import Path as _P; "
            f"_api.SPEC_ROOT = _P({str(self.spec_root.resolve())!r})"
        )
        return "\n".join(
            [
                "# Generated by rulepress build site; edits are overwritten.",
                f"project = {project!r}",
                f"html_title = {title!r}",
                f"language = {lang!r}",
                "extensions = ['myst_parser', 'sphinx_design', 'sphinx.ext.doctest', 'rulepress.sphinx_ext']",
                "myst_enable_extensions = ['colon_fence']",
                f"html_theme = {self.theme!r}",
                "html_copy_source = False",
                f"html_favicon = {str(ICON)!r}",
                "html_show_sourcelink = False",
                f"html_search_language = {lang!r}",
                f"rulepress_languages = {list(self.languages)!r}",
                f"rulepress_language_names = {names!r}",
                f"doctest_global_setup = {setup!r}",
                "exclude_patterns = ['_build']",
                "",
            ]
        )

    def _guides(self, target: Path) -> None:
        assert self.docs is not None
        for path in sorted(self.docs.glob("*.md")):
            self.write(target / path.name, path.read_text(encoding="utf-8"))
        self.write(target / "cli.md", cli_reference())
        self.write(target / "spec-schema.md", schema_page())

    def _root_page(self) -> str:
        links = "".join(
            f'<li><a href="{lang}/index.html" hreflang="{lang}" lang="{lang}">{NATIVE_NAMES[lang]}</a></li>'
            for lang in self.languages
        )
        return (
            "<!doctype html><html><head><meta charset='utf-8'>"
            "<meta name='viewport' content='width=device-width, initial-scale=1'>"
            "<title>rulepress</title><link rel='icon' href='en/_static/rulepress-icon.svg'></head><body><ul>"
            + links
            + "</ul><script>"
            f"var langs={json.dumps(list(self.languages))};"
            "var want=(navigator.languages||[navigator.language||'en']).map(function(l){return l.slice(0,2)});"
            "var pick=want.find(function(l){return langs.indexOf(l)>=0})||langs[0];"
            "if(!/[?&]stay/.test(location.search)){location.replace(pick+'/index.html'+location.hash);}"
            "</script></body></html>\n"
        )

    # ----------------------------------------------------------------- stage 2

    def output(self, lang: str, project: str) -> Path:
        base = self.out / lang
        return base if project == "_home" else base / project

    def sphinx(self, builder: str, lang: str, project: str) -> tuple[int, str]:
        src = self.sources / lang / project
        out = (
            self.output(lang, project)
            if builder == "html"
            else self.out / "_doctest" / lang / project
        )
        cmd = [
            sys.executable,
            "-m",
            "sphinx",
            "-b",
            builder,
            "-W",
            "--keep-going",
            "-q",
            "-d",
            str(self.out / "_doctrees" / lang / project),
            str(src),
            str(out),
        ]
        env = dict(os.environ, PYTHONHASHSEED="0")
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
        return proc.returncode, proc.stderr + proc.stdout

    def build(self, *, doctest: bool = True, jobs: int | None = None) -> None:
        self.generate()
        tasks = [("html", lang, project) for lang, project in self.projects()]
        if doctest:
            tasks += [("doctest", lang, p) for lang, p in self.projects() if p != "_home"]
        workers = jobs or max(1, os.cpu_count() or 1)
        with ThreadPoolExecutor(max_workers=workers) as pool:
            results = list(pool.map(lambda t: (t, *self.sphinx(*t)), tasks))
        problems = [
            Problem(
                Location(str(self.sources / lang / project)),
                f"sphinx {builder} ({lang})",
                _tail(output),
            )
            for (builder, lang, project), code, output in results
            if code != 0
        ]
        if problems:
            raise SiteError("the site did not build cleanly", problems)


def _tail(output: str, lines: int = 25) -> str:
    kept = [line for line in output.strip().splitlines() if line.strip()]
    return "\n".join(kept[-lines:])


def build_site(
    root: Path,
    spec_root: Path,
    locales: Path,
    out: Path,
    languages: Iterable[str] = LANGUAGES,
    *,
    doctest: bool = True,
    docs: Path | None = None,
    theme: str = "furo",
) -> SiteBuild:
    site = SiteBuild(root, spec_root, locales, out, tuple(languages), theme, docs)
    site.build(doctest=doctest)
    return site
