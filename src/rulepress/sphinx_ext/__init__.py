"""The rulepress Sphinx extension: page trees, language switcher, Czech search, fonts and print styles.

Lazy by design: importing :mod:`rulepress` never imports Sphinx; Sphinx
imports this module when a project lists ``rulepress.sphinx_ext`` in its
extensions, and only then is anything of Sphinx loaded.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

STATIC = Path(__file__).parent / "static"

#: Sphinx template values that themes print without escaping (furo's brand prints
#: ``{{ docstitle }}``); a game's title is data, so it is handed over already escaped
_TITLES = ("docstitle", "project", "shorttitle")


def setup(app: Any) -> dict[str, Any]:
    # imported here, not at the top: importing rulepress must never import Sphinx
    from rulepress.sphinx_ext.doctree import PageParser  # noqa: PLC0415
    from rulepress.sphinx_ext.search_cs import SearchCzech  # noqa: PLC0415

    app.add_config_value("rulepress_languages", [], "html")
    app.add_config_value("rulepress_language_names", {}, "html")
    app.add_config_value("rulepress_spec_root", "", "env")
    app.add_source_suffix(".rptree", "rulepress-page")
    app.add_source_parser(PageParser)
    app.add_search_language(SearchCzech)
    app.connect("builder-inited", _builder_inited)
    app.connect("html-page-context", _page_context)
    app.add_css_file("rulepress.css")
    app.add_js_file("rulepress-lang.js", loading_method="defer")
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}


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

    for key in _TITLES:
        if isinstance(context.get(key), str):
            context[key] = escape(context[key])
    # the switcher script reads these to build links to the same page in each language
    names = app.config.rulepress_language_names
    languages = [[lang, names.get(lang, lang)] for lang in app.config.rulepress_languages]
    context.setdefault("metatags", "")
    context["metatags"] += (
        f"\n<meta name=\"rulepress-languages\" content='{_json(languages)}'>"
        f'\n<meta name="rulepress-language" content="{escape(app.config.language)}">'
    )


def _json(value: object) -> str:
    return (
        json.dumps(value, ensure_ascii=False)
        .replace("&", "&amp;")
        .replace("'", "&#39;")
        .replace("<", "&lt;")
    )
