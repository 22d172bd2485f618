"""The site's root ``index.html``: a link per language, and a script that sends a reader to theirs.

The site is static and may be served from anywhere, so no server reads the
``Accept-Language`` header: the reader's languages are known in the browser
only (``navigator.languages``), and the choice is made there. Babel's
``negotiate_locale`` cannot serve: it runs in Python, at build time, and it
only shortens the *reader's* tag (``pt-PT`` finds a ``pt`` site, never a
``pt_BR`` one, and ``pt`` never finds ``pt_BR``).

The script matches the reader's BCP 47 tags (``pt-BR``, ``zh-Hant-TW``), in
their order of preference, against the site's locales (Babel's ``pt_BR``,
``zh_Hant_TW``, given to it as tags), the way CLDR's language matching does in
brief. For each of the reader's tags, the best of:

1. the same tag (``pt-BR`` and ``pt_BR``);
2. the same language, script and region once CLDR's likely subtags fill in
   what a tag leaves out (``zh-TW`` and ``zh_Hant_TW``; ``pt``, which CLDR
   reads as Brazilian, and ``pt_BR``);
3. the same language and script (``zh-CN`` and ``zh_Hans``; ``en-GB`` and ``en``);
4. the same language (``pt-PT`` and ``pt_BR``: closer to a Portuguese reader than English).

At 3 and 4 a locale written without a region (the language's general one)
goes before another region's, so a ``pt-PT`` reader gets ``pt`` rather than
``pt_BR`` where the site has both; otherwise the order of the site's
languages decides. No tag of the reader's matches: the site's first
language. A language that is only a preview (every game in it is, see
:mod:`rulepress.i18n.preview`) is listed, with the word "preview" in it, but
never picked: a reader meets it by choice. The likely subtags are the browser's own CLDR data
(``Intl.Locale.prototype.maximize``, in every browser since 2020); a browser
without it still gets steps 1 and 4, from the tags' text.
"""

from __future__ import annotations

import html
import json
from collections.abc import Mapping

from rulepress.i18n.runtime import native_name
from rulepress.model.languages import language_tag

#: the reader's pick, given ``sites`` ([folder, tag] per language, the site's order); kept
#: small and dependency-free, since it runs before anything else on the site's first page
PICK_SCRIPT = """\
function rulepressKey(tag) {
  var l, m;
  try { l = new Intl.Locale(tag); m = l.maximize(); } catch (e) {
    var p = String(tag).toLowerCase().split(/[-_]/);
    return [p.join("-"), p.join("-"), p[0], p[0], p.length < 2];
  }
  return [l.baseName, m.baseName, m.language + "-" + m.script, m.language, !l.region];
}
function rulepressPick(sites, wanted) {
  var have = sites.map(function (s) { return rulepressKey(s[1]); });
  for (var i = 0; i < wanted.length; i++) {
    var want = rulepressKey(wanted[i]), best = -1, score = 0;
    have.forEach(function (key, j) {
      var s = 0;
      for (var k = 0; k < 4 && !s; k++) if (key[k] === want[k]) s = 8 - 2 * k;
      if (s && s < 6 && key[4]) s++;  /* a language's general locale before another region's */
      if (s > score) { score = s; best = j; }
    });
    if (best >= 0) return sites[best][0];
  }
  return sites[0][0];
}
"""


def root_page(languages: list[str], previews: Mapping[str, str] | None = None) -> str:
    """``index.html`` for a site built in ``languages`` (Babel codes, the first the default).

    ``previews``: the preview languages, each with its word "preview" (never picked).
    """
    previews = previews or {}
    tags = [language_tag(lang) for lang in languages]
    pickable = [pair for pair in zip(languages, tags, strict=True) if pair[0] not in previews]
    # JSON inside <script>: "<" escaped so that no "</script>" can ever close it; with
    # every language a preview, the first is still where a reader lands
    sites = json.dumps([list(pair) for pair in pickable or [(languages[0], tags[0])]])
    sites = sites.replace("<", "\\u003c")
    # the codes are checked ones (language_code), escaped all the same: this is markup
    links = "".join(
        f'<li><a href="{html.escape(lang)}/index.html" hreflang="{html.escape(tag)}" '
        f'lang="{html.escape(tag)}">{html.escape(native_name(lang))}{_label(previews, lang)}</a></li>'
        for lang, tag in zip(languages, tags, strict=True)
    )
    return (
        # a page in every language at once: each link says its own (lang=…); the page's
        # lang is the first language's, for the brand name and the list around them
        f"<!doctype html><html lang='{html.escape(tags[0])}'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        # the icon of the first language's pages: the only language sure to be built
        f"<title>rulepress</title><link rel='icon' href='{html.escape(languages[0])}/_static/rulepress-icon.svg'>"
        # links a finger can hit (at least 24 px, as the site's own)
        "<style>body{font-family:sans-serif}li a{display:inline-block;padding:.5rem 0}</style></head>"
        "<body><main><h1>rulepress</h1><ul>" + links + "</ul></main><script>\n" + PICK_SCRIPT + ""
        f"var sites={sites};\n"
        "var pick=rulepressPick(sites,navigator.languages||[navigator.language||'']);\n"
        "if(!/[?&]stay/.test(location.search)){location.replace(pick+'/index.html'+location.hash);}\n"
        "</script></body></html>\n"
    )


def _label(previews: Mapping[str, str], lang: str) -> str:
    """The word "preview" after a preview language's name (escaped: it is a translation)."""
    if lang not in previews:
        return ""
    return f" <small>{html.escape(previews[lang])}</small>"
