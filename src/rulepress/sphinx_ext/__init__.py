"""The rulepress Sphinx extension: page trees, the rulepress theme, Czech search, fonts.

Lazy by design: importing :mod:`rulepress` never imports Sphinx; Sphinx
imports this module when a project lists ``rulepress.sphinx_ext`` in its
extensions, and only then is anything of Sphinx loaded.

The theme (``theme/rulepress``) gets what it shows from
:func:`_page_context`: the links to this page in each language the page
exists in, the project's page list, and the texts that are data (a game's
title and edition, the interface's "All games"), escaped here because
templates print some values raw.
"""

from __future__ import annotations

import hashlib
import posixpath
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any
from urllib.parse import quote, urljoin

from rulepress.model.languages import language_tag

STATIC = Path(__file__).parent / "static"
THEME = Path(__file__).parent / "theme" / "rulepress"

#: Sphinx template values that themes print without escaping (basic's header prints
#: ``{{ docstitle }}`` in places); a game's title is data, so it is handed over already escaped
_TITLES = ("docstitle", "project", "shorttitle")
_DOCUTILS_VIEWPORT = '<meta name="viewport" content="width=device-width, initial-scale=1" />\n'


def setup(app: Any) -> dict[str, Any]:
    # imported here, not at the top: importing rulepress must never import Sphinx
    from rulepress.sphinx_ext import search_objects  # noqa: PLC0415
    from rulepress.sphinx_ext.doctree import PageParser  # noqa: PLC0415
    from rulepress.sphinx_ext.search_cs import SearchCzech  # noqa: PLC0415

    app.add_config_value("rulepress_languages", [], "html")
    app.add_config_value("rulepress_language_names", {}, "html")
    app.add_config_value("rulepress_spec_root", "", "env")
    # pages (fnmatch patterns) that exist in this project's language only (the English guides)
    app.add_config_value("rulepress_single_language", [], "html")
    app.add_config_value("rulepress_home_label", "", "html")
    # the games, by the folder of their pages: {"stationfall": {"title": …, "edition": …}}
    app.add_config_value("rulepress_games", {}, "env")
    # every game is only a preview in this language (rulepress.i18n.preview)
    app.add_config_value("rulepress_preview", False, "html")
    # numbered rules as search objects (rulepress.sphinx_ext.doctree); Sphinx shows the
    # type's name in results, translated with the project's theme catalog (sphinx.mo),
    # and escapes it in the index (its script sets it with innerHTML)
    from sphinx.locale import _  # noqa: PLC0415

    app.add_object_type("rule", "rule", objname=_("rule"))
    # the other objects a player finds (rulepress.sphinx_ext.search_objects); the search
    # page names their kinds with its own words, so these names are Sphinx's only
    app.add_object_type("definition", "definition", objname="definition")
    app.add_object_type("example", "example", objname="example")
    app.add_object_type("ruling", "ruling", objname="ruling")
    app.connect("env-purge-doc", search_objects.purge)
    app.connect("env-merge-info", search_objects.merge)
    app.connect("html-page-context", _search_page)
    app.add_source_suffix(".rptree", "rulepress-page")
    app.add_source_parser(PageParser)
    app.add_search_language(SearchCzech)
    app.add_html_theme("rulepress", str(THEME))
    app.connect("builder-inited", _builder_inited)
    app.connect("html-page-context", _page_context)
    app.add_css_file("rulepress.css")
    # a cited rule's text in a popover (progressive: without it the number is a link)
    app.add_js_file("rulepress-popover.js", loading_method="defer")
    return {
        "version": "2",
        "env_version": _env_version(),
        "parallel_read_safe": True,
        "parallel_write_safe": True,
    }


def _env_version() -> int:
    """A number that changes with the code that turns page trees into doctrees.

    Sphinx re-reads every document when an extension's ``env_version``
    changes; documents it read with older code (no rule search objects, say)
    would otherwise stay as they were until their source changed.
    """
    digest = hashlib.sha256()
    for path in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(path.read_bytes())
    return int(digest.hexdigest()[:12], 16)


def _builder_inited(app: Any) -> None:
    templates = getattr(app.builder, "templates", None)
    environment = getattr(templates, "environment", None)
    if environment is not None:
        # Sphinx compiles the theme's Jinja templates anew in every build, a fifth of
        # rebuilding one page; the compiled code is kept beside the doctrees (which
        # are not served), keyed by each template's source, so a changed template is
        # compiled again
        from jinja2 import FileSystemBytecodeCache  # noqa: PLC0415

        cache = Path(app.doctreedir) / "jinja"
        cache.mkdir(parents=True, exist_ok=True)
        environment.bytecode_cache = FileSystemBytecodeCache(str(cache))
    static = str(STATIC)
    if static not in app.config.html_static_path:
        app.config.html_static_path.append(static)
    if app.config.rulepress_spec_root:
        # the generated doctests call rulepress.doctest_api, which reads the specs from here
        import rulepress.doctest_api as api  # noqa: PLC0415

        api.SPEC_ROOT = Path(app.config.rulepress_spec_root)


def _page_context(
    app: Any, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    from markupsafe import escape  # noqa: PLC0415 - Jinja2's, as Sphinx's templates use

    from rulepress.i18n.typography import typeset  # noqa: PLC0415

    for key in _TITLES:
        if isinstance(context.get(key), str):
            context[key] = escape(context[key])
    # docutils' HTML writer adds a second viewport tag to the one basic's layout has
    context["metatags"] = context.get("metatags", "").replace(_DOCUTILS_VIEWPORT, "")
    config = app.config
    lang = str(config.language or "")
    scope = _scope(pagename)
    game = config.rulepress_games.get(scope.rstrip("/")) if scope else None
    previews: dict[str, str] = (game or {}).get("previews") or {}
    context["rp_languages"] = language_links(
        pagename,
        app.builder.get_target_uri(pagename),
        config.language,
        # a game's pages exist in its own languages only (game.languages)
        (game or {}).get("languages") or config.rulepress_languages,
        config.rulepress_language_names,
        config.rulepress_single_language,
        previews,
    )
    if lang in previews or (game is None and config.rulepress_preview):
        # a preview is for the readers who choose it, not for search engines
        context["metatags"] += '<meta name="robots" content="noindex" />\n'
    if config.html_baseurl and context.get("pageurl"):
        # search engines read hreflang alternates as absolute addresses only
        for alt in context["rp_languages"]:
            alt["absolute"] = urljoin(str(context["pageurl"]), alt["href"])
    description = _description(config, game, lang)
    if description:
        context["metatags"] += f'<meta name="description" content="{escape(description)}" />\n'
    root = f"{scope}index" if game is not None else config.root_doc
    context["rp_pages"] = _page_list(app, pagename, root)
    up = _up(pagename)
    if game is not None:
        # a game's pages carry the game's name, link to its start, and show its edition
        title = escape(game["title"])
        context["docstitle"] = title
        context["titlesuffix"] = " \N{EM DASH} " + title
        context["rp_brand"] = escape(up + scope + "index.html")
        context["rp_home"] = escape(up + "index.html")
        context["rp_edition"] = escape(typeset(game.get("edition", ""), lang))
        context["rp_copyright"] = escape(game.get("copyright", ""))
        # the search names the game of each result it lists from this page
        context["rp_game"] = title
    else:
        context["rp_game"] = ""
        context["rp_brand"] = escape(up + "index.html")
        context["rp_home"] = ""
        context["rp_edition"] = ""
        context["rp_copyright"] = ""
    context["rp_home_label"] = escape(typeset(config.rulepress_home_label, lang))
    for rel in ("prev", "next"):
        # previous and next stay within a game (or the site's own pages)
        link = context.get(rel)
        if isinstance(link, dict) and _scope(_target(pagename, link.get("link", ""))) != scope:
            context[rel] = None


def _description(config: Any, game: dict[str, Any] | None, lang: str) -> str:
    """What a search engine shows under a page's title: its game's summary.

    The site's own pages (the landing page, the guides) name the games it
    holds, joined as the language joins a list.
    """
    if game is not None:
        return str(game.get("summary", ""))
    from babel.core import UnknownLocaleError  # noqa: PLC0415
    from babel.lists import format_list  # noqa: PLC0415

    titles = [str(g.get("title", "")) for g in config.rulepress_games.values()]
    titles = [t for t in titles if t]
    if not titles:
        return ""
    try:
        return format_list(titles, locale=lang or "en")
    except (
        ValueError,
        UnknownLocaleError,
    ):  # a language Babel does not know: the English way of listing
        return format_list(titles, locale="en")


def _search_page(
    app: Any, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """Give the search page the objects of every page, with their words (search_objects)."""
    from rulepress.sphinx_ext import search_objects  # noqa: PLC0415

    indexer = getattr(app.builder, "indexer", None)
    if pagename != "search" or indexer is None:
        return
    games = {name: game["title"] for name, game in app.config.rulepress_games.items()}
    context["rp_search"] = {
        "objects": search_objects.search_data(app.env, indexer.lang),
        # pages in a folder of no game (the developer guides) are searched apart
        # (rulepress-search.js): the page offers that search when there are such pages
        "games": games,
        "guides": any(
            "/" in doc and doc.split("/", 1)[0] not in games for doc in app.env.found_docs
        ),
    }


def _scope(pagename: str) -> str:
    """The folder a page is in ("stationfall/"), or "" for the site's own start page."""
    return pagename.split("/", 1)[0] + "/" if "/" in pagename else ""


def _target(pagename: str, link: str) -> str:
    """The page a link relative to ``pagename`` leads to (folders as a page name has them)."""
    path = link.split("#", 1)[0]
    return posixpath.normpath(posixpath.join(posixpath.dirname(pagename), path))


def _up(pagename: str) -> str:
    """The relative path from a page to its project's root ("" or "../" …)."""
    return "../" * pagename.count("/")


def language_links(
    pagename: str,
    target: str,
    current: str,
    languages: list[str],
    names: dict[str, str],
    single: list[str],
    previews: dict[str, str] | None = None,
) -> list[dict[str, Any]]:
    """One link per language the page exists in, to the same page in that language.

    The site is laid out ``<root>/<lang>/<page>.html`` in every language, so
    the link climbs to the root (out of the page's folders and the
    language's) and comes down in the other language. Relative links: the
    site may be served from any address. A language in ``previews`` carries the
    word "preview" in that language, which the switcher shows beside its name.
    """
    if any(fnmatchcase(pagename, pattern) for pattern in single):
        languages = [current]
    root = _up(pagename) + "../"
    return [
        {
            "code": lang,
            # the language as HTML's lang and hreflang name it (pt-BR; the folder is pt_BR)
            "tag": language_tag(lang),
            "name": names.get(lang, lang),
            "href": root + quote(f"{lang}/{target}"),
            "current": lang == current,
            "preview": (previews or {}).get(lang, ""),
        }
        for lang in languages
    ]


def _page_list(app: Any, pagename: str, root: str) -> list[dict[str, Any]]:
    """A start page (the game's or the site's), the pages it lists, and theirs near this page.

    Only these few entries, never the global toctree rendered per page: that
    made large builds quadratic.
    """
    env = app.env
    builder = app.builder
    includes: dict[str, list[str]] = env.toctree_includes

    def entry(doc: str) -> dict[str, Any]:
        title = env.titles.get(doc)
        # Sphinx links a page to itself as "", which some browsers treat as no link
        href = builder.get_relative_uri(pagename, doc) or builder.get_target_uri(doc).split("/")[-1]
        return {
            "title": title.astext() if title is not None else doc,
            "href": href,
            "current": doc == pagename,
            "children": [],
        }

    items = [entry(root)]
    for doc in includes.get(root, []):
        item = entry(doc)
        below = includes.get(doc, [])
        if pagename == doc or pagename in below:
            item["children"] = [entry(sub) for sub in below]
        items.append(item)
    return items
