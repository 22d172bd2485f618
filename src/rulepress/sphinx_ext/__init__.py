"""The rulepress Sphinx extension: language switcher, Czech search, fonts and print styles.

Lazy by design: importing :mod:`rulepress` never imports Sphinx; Sphinx
imports this module when a project lists ``rulepress.sphinx_ext`` in its
extensions, and only then is anything of Sphinx loaded.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

STATIC = Path(__file__).parent / "static"


def setup(app: Any) -> dict[str, Any]:
    # imported here, not at the top: importing rulepress must never import Sphinx
    from rulepress.sphinx_ext.search_cs import SearchCzech  # noqa: PLC0415

    app.add_config_value("rulepress_languages", ["en", "cs", "ja"], "html")
    app.add_config_value("rulepress_language_names", {}, "html")
    app.add_search_language(SearchCzech)
    app.connect("builder-inited", _add_static)
    app.connect("html-page-context", _page_context)
    app.add_css_file("rulepress.css")
    app.add_js_file("rulepress-lang.js", loading_method="defer")
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}


def _add_static(app: Any) -> None:
    static = str(STATIC)
    if static not in app.config.html_static_path:
        app.config.html_static_path.append(static)


def _page_context(
    app: Any, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    # the switcher script reads these to build links to the same page in each language
    names = app.config.rulepress_language_names
    languages = [[lang, names.get(lang, lang)] for lang in app.config.rulepress_languages]
    context.setdefault("metatags", "")
    context["metatags"] += (
        f"\n<meta name=\"rulepress-languages\" content='{_json(languages)}'>"
        f'\n<meta name="rulepress-language" content="{app.config.language}">'
    )


def _json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False).replace("'", "&#39;")
