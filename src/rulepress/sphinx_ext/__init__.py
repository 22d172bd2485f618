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

from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any
from urllib.parse import quote

STATIC = Path(__file__).parent / "static"
THEME = Path(__file__).parent / "theme" / "rulepress"

#: Sphinx template values that themes print without escaping (basic's header prints
#: ``{{ docstitle }}`` in places); a game's title is data, so it is handed over already escaped
_TITLES = ("docstitle", "project", "shorttitle")
_DOCUTILS_VIEWPORT = '<meta name="viewport" content="width=device-width, initial-scale=1" />\n'


def setup(app: Any) -> dict[str, Any]:
    # imported here, not at the top: importing rulepress must never import Sphinx
    from rulepress.sphinx_ext.doctree import PageParser  # noqa: PLC0415
    from rulepress.sphinx_ext.search_cs import SearchCzech  # noqa: PLC0415

    app.add_config_value("rulepress_languages", [], "html")
    app.add_config_value("rulepress_language_names", {}, "html")
    app.add_config_value("rulepress_spec_root", "", "env")
    # where the project sits in a language's site ("stationfall/", or "" for the home)
    app.add_config_value("rulepress_path", "", "html")
    # pages (fnmatch patterns) that exist in this project's language only (the English guides)
    app.add_config_value("rulepress_single_language", [], "html")
    app.add_config_value("rulepress_home", "", "html")
    app.add_config_value("rulepress_home_label", "", "html")
    app.add_config_value("rulepress_edition", "", "html")
    app.add_source_suffix(".rptree", "rulepress-page")
    app.add_source_parser(PageParser)
    app.add_search_language(SearchCzech)
    app.add_html_theme("rulepress", str(THEME))
    app.connect("builder-inited", _builder_inited)
    app.connect("html-page-context", _page_context)
    app.add_css_file("rulepress.css")
    return {"version": "2", "parallel_read_safe": True, "parallel_write_safe": True}


def _builder_inited(app: Any) -> None:
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
    context["rp_languages"] = language_links(
        pagename,
        app.builder.get_target_uri(pagename),
        config.language,
        config.rulepress_languages,
        config.rulepress_language_names,
        config.rulepress_path,
        config.rulepress_single_language,
    )
    context["rp_pages"] = _page_list(app, pagename)
    context["rp_home"] = (
        escape(_up(pagename) + config.rulepress_home) if config.rulepress_home else ""
    )
    lang = str(config.language or "")
    context["rp_home_label"] = escape(typeset(config.rulepress_home_label, lang))
    context["rp_edition"] = escape(typeset(config.rulepress_edition, lang))


def _up(pagename: str) -> str:
    """The relative path from a page to its project's root ("" or "../" …)."""
    return "../" * pagename.count("/")


def language_links(
    pagename: str,
    target: str,
    current: str,
    languages: list[str],
    names: dict[str, str],
    path: str,
    single: list[str],
) -> list[dict[str, Any]]:
    """One link per language the page exists in, to the same page in that language.

    The site is laid out ``<root>/<lang>/<path><page>.html`` in every language,
    so the link climbs to the root (out of the page's folders, the project's
    folders and the language's) and comes down in the other language.
    Relative links: the site may be served from any address.
    """
    if any(fnmatchcase(pagename, pattern) for pattern in single):
        languages = [current]
    root = _up(pagename) + "../" * (1 + path.count("/"))
    return [
        {
            "code": lang,
            "name": names.get(lang, lang),
            "href": root + quote(f"{lang}/{path}{target}"),
            "current": lang == current,
        }
        for lang in languages
    ]


def _page_list(app: Any, pagename: str) -> list[dict[str, Any]]:
    """The project's root page and the pages its toctree lists (and theirs, around this page).

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

    root = app.config.root_doc
    items = [entry(root)]
    for doc in includes.get(root, []):
        item = entry(doc)
        below = includes.get(doc, [])
        if pagename == doc or pagename in below:
            item["children"] = [entry(sub) for sub in below]
        items.append(item)
    return items
