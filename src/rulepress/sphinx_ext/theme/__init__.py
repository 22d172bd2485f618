"""The rulepress theme's words: which Sphinx words it needs, and its compiled catalog.

The theme's templates (``rulepress/``) show only ``_("…")`` msgids of the
``theme`` catalog domain (``rulepress/locales/theme.pot``, in the package). Sphinx also writes a few
words of its own into every page (the title of each heading's permalink,
"Link to this heading") that its Czech and Japanese catalogs lack; they are
listed here with :func:`sphinx_text`, so that the extractor puts them in the
same domain.

At build time :func:`compile_theme` turns a language's ``theme.po`` into the
project's ``locale/<lang>/LC_MESSAGES/sphinx.mo``, which Sphinx prefers to
its own catalogs. The catalog is untrusted, so:

- it goes through the same safety checks as every other catalog
  (:func:`rulepress.i18n.runtime.load_catalogs`) and an unsafe one stops the build;
- only the theme's own msgids are compiled (an entry a translator added for
  some other Sphinx word is left out: Sphinx prints some of its words raw);
- the header is not copied: the compiled catalog's plural rule is Babel's
  for the language, not the file's;
- the templates escape what they print, but Sphinx writes its own words into
  an HTML attribute as they are, so those translations are HTML-escaped here.

A word left out (fuzzy, empty, missing or English in disguise) is shown in
English on every page, so it is noted for the build's record of fallbacks
(:mod:`rulepress.i18n.fallbacks`).
"""

from __future__ import annotations

import html
from pathlib import Path

from babel import Locale
from babel.messages.catalog import Catalog

from rulepress.i18n.catalogs import compile_catalog, find_catalog
from rulepress.i18n.extract import THEME, THEME_DIR, theme_messages
from rulepress.i18n.fallbacks import Fallback
from rulepress.i18n.runtime import fallback, load_catalogs
from rulepress.i18n.typography import typeset
from rulepress.i18n.visible import disguised


def sphinx_text(text: str) -> str:
    """Mark one of Sphinx's own words for the theme domain; return it unchanged."""
    return text


#: Sphinx's words on rulepress pages that Sphinx's cs and ja catalogs lack (Sphinx's
#: HTML writer puts them unescaped into ``title`` attributes), and the kind of result
#: the search shows for a rule
SPHINX_TEXTS = (
    # TRANSLATORS: the tooltip of the small link beside every heading (a permanent link to it)
    sphinx_text("Link to this heading"),
    # TRANSLATORS: the tooltip of the small link beside every glossary term
    sphinx_text("Link to this term"),
    # TRANSLATORS: in search results, the kind of a result that is a numbered rule ("16.4.8 Winning (rule, in Rules)")
    sphinx_text("rule"),
)


def theme_msgids(theme_dir: Path = THEME_DIR) -> set[str]:
    """Every msgid of the theme domain, as the installed theme's files have them."""
    return {message for _path, _line, message, _comments in theme_messages(theme_dir)}


def compile_theme(locales: Path, lang: str, shown: set[Fallback] | None = None) -> bytes | None:
    """The ``sphinx.mo`` of ``lang`` from its checked theme catalog (None: there is none).

    Raises :class:`~rulepress.i18n.catalogs.CatalogError` when the catalog is unsafe.
    ``shown``: where each of the theme's words left in English is noted.
    """
    (checked,), error = load_catalogs(locales, lang, (THEME,))
    if error is not None:
        raise error
    if checked.catalog is None:
        return None
    wanted = theme_msgids()
    raw = set(SPHINX_TEXTS)
    out = Catalog(locale=Locale.parse(lang), domain="sphinx", charset="utf-8", fuzzy=False)
    for message in checked.catalog:
        string = message.string
        if (
            message.id not in wanted
            or message.fuzzy
            or message.context
            or not isinstance(string, str)
            or not string
            or disguised(message.id, string)
        ):
            continue
        # set as the language sets its text (Czech no-break spaces), like every page text
        string = typeset(string, lang)
        out.add(message.id, html.escape(string) if message.id in raw else string)
    if shown is not None:
        path = find_catalog(locales, lang, THEME)
        for msgid in sorted(wanted - {str(m.id) for m in out if m.id}):
            shown.add(fallback(checked.catalog, path, THEME, msgid, None))
    return compile_catalog(out)
