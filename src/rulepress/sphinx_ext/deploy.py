"""What a web server needs beside the pages (a sitemap, a page for addresses with none), and not.

Both sit at the top of the site folder, beside the page that sends a reader to
their language:

- ``sitemap.xml`` lists every page of every language at the address the site
  is served from (the sitemap protocol wants whole URLs, so it is written only
  when the build is told that address), each with its other-language versions
  as ``xhtml:link`` alternates, as search engines read them; ``robots.txt``
  points crawlers to it;
- ``404.html`` is what servers such as GitHub Pages or Netlify show for an
  address that has no page. It may be shown at any depth of the site, so its
  links are resolved from the site's root (a ``<base>`` element), and it speaks
  every language of the site at once, as the reader's language is unknown.

What Sphinx keeps in its output folder for its next build stays in the build's
work folder and is never published (:func:`deployed`): ``.buildinfo``, the hashes
of the build's configuration, is of no use to a reader, and a server would hand
it to anyone who asks.

The sitemap is written with ElementTree and the page with
:mod:`rulepress.render.html_tree`, so translated text is escaped on the way
out like everywhere else.
"""

from __future__ import annotations

import ipaddress
import posixpath
import re
from collections.abc import Callable, Collection, Iterable, Mapping
from pathlib import Path, PurePosixPath
from urllib.parse import quote, urlsplit
from xml.etree import ElementTree

from rulepress.model.languages import language_tag
from rulepress.render.html_tree import Element, document, el
from rulepress.uitext import ui

SITEMAP = "sitemap.xml"
ROBOTS = "robots.txt"
NOT_FOUND_PAGE = "404.html"
#: what the page for a missing address says, in every language of the site
NOT_FOUND = ui("site", "Page not found")
NOT_FOUND_TEXT = ui(
    "site", "Nothing is published at this address: the link may be old or mistyped."
)
NOT_FOUND_HOME = ui("site", "Go to the rules")
_SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"
_XHTML_NS = "http://www.w3.org/1999/xhtml"
#: pages a search engine should not list: the search page shows nothing by itself
_UNLISTED = frozenset({"search.html", "genindex.html"})
#: what Sphinx writes into a language's HTML folder for its own next build, by file name:
#: the configuration hashes that decide a full rebuild, and the copy it keeps of a stale one
BUILD_STATE = frozenset({".buildinfo", ".buildinfo.bak"})


def deployed(relative: str) -> bool:
    """Whether a file of a language's built folder (its path relative to it) is published."""
    return PurePosixPath(relative).name not in BUILD_STATE


#: a host name: labels of letters, digits and hyphens (IDNA's ASCII form), dot-separated
_HOST = re.compile(r"^(?!-)[a-z0-9-]{1,63}(?<!-)(?:\.(?!-)[a-z0-9-]{1,63}(?<!-))*\.?$")
#: a path's characters that need no escaping (RFC 3986 ``pchar`` and ``/``, ``%`` as escapes)
_PATH = re.compile(r"^/(?:[A-Za-z0-9._~!$&'()*+,;=:@/-]|%[0-9A-Fa-f]{2})*$")


def checked_base_url(text: str) -> str:
    """The address the site is served from, as an absolute http(s) URL ending in ``/``.

    Raises ValueError, saying what is wrong, for anything else. What it lets
    through is written into ``sitemap.xml`` and ``robots.txt`` as it is and is
    the root of the 404 page's links, so it must be a plain address of a
    folder: http or https, a host (a name, an IPv4 address or a bracketed IPv6
    one) and a port, no user or password, no query or fragment, and a path of
    characters that need no escaping and no empty, ``.`` or ``..`` segment (a
    path starting ``//`` would send the 404 page's links to another host).
    """
    given = text.strip()
    parts = urlsplit(given)
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        raise ValueError(f"{text!r} is not an http:// or https:// address")
    if "?" in given or "#" in given:
        raise ValueError(f"{text!r} has a query or a fragment; give the site's folder")
    if "@" in parts.netloc:
        raise ValueError(f"{text!r} holds a user name or password; give the site's address only")
    try:
        port = parts.port
    except ValueError:
        raise ValueError(f"{text!r} has a port that is not a number from 0 to 65535") from None
    host = parts.hostname or ""
    if not _valid_host(host):
        raise ValueError(f"{text!r} does not name a host (a domain name or an IP address)")
    path = parts.path or "/"
    segments = path.split("/")[1:-1] if path.endswith("/") else path.split("/")[1:]
    if not _PATH.match(path) or any(seg in ("", ".", "..") for seg in segments):
        raise ValueError(
            f"{text!r} has a path that is not a plain folder (no '//', '.' or '..' parts, "
            "and only letters, digits and - . _ ~ or %-escapes)"
        )
    if not path.endswith("/"):
        path += "/"
    shown_host = f"[{host}]" if ":" in host else host
    netloc = shown_host if port is None else f"{shown_host}:{port}"
    return f"{parts.scheme.lower()}://{netloc}{path}"


def _valid_host(host: str) -> bool:
    """Whether ``host`` (as urlsplit gives it, lower-cased) is a domain name or an IP address."""
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return bool(_HOST.match(host))
    return True


def published_pages(folder: Path) -> list[str]:
    """The pages a reader may land on in one language's folder, as paths relative to it."""
    pages = []
    for path in sorted(folder.rglob("*.html")):
        relative = path.relative_to(folder).as_posix()
        if relative in _UNLISTED or relative.startswith("_"):
            continue
        pages.append(relative)
    return pages


def sitemap(
    out: Path, languages: Iterable[str], base_url: str, previews: Collection[tuple[str, str]] = ()
) -> bytes:
    """``sitemap.xml`` for the site in ``out``: every page, with its other-language versions.

    ``previews``: (language, game folder) whose pages are a preview, left out, as their
    ``noindex`` asks; ``""`` for the folder stands for the language's own start pages.
    """
    languages = list(languages)
    pages = {
        lang: [
            page
            for page in published_pages(out / lang)
            if (lang, page.split("/", 1)[0] if "/" in page else "") not in previews
        ]
        for lang in languages
    }
    versions: dict[str, list[str]] = {}
    for lang in languages:
        for page in pages[lang]:
            versions.setdefault(page, []).append(lang)

    def url(lang: str, page: str) -> str:
        return base_url + quote(posixpath.join(lang, page))

    ElementTree.register_namespace("", _SITEMAP_NS)
    ElementTree.register_namespace("xhtml", _XHTML_NS)
    root = ElementTree.Element(f"{{{_SITEMAP_NS}}}urlset")
    for lang in languages:
        for page in pages[lang]:
            entry = ElementTree.SubElement(root, f"{{{_SITEMAP_NS}}}url")
            ElementTree.SubElement(entry, f"{{{_SITEMAP_NS}}}loc").text = url(lang, page)
            if len(versions[page]) > 1:  # a page in one language only has no alternates
                for other in versions[page]:
                    ElementTree.SubElement(
                        entry,
                        f"{{{_XHTML_NS}}}link",
                        rel="alternate",
                        hreflang=language_tag(other),
                        href=url(other, page),
                    )
    ElementTree.indent(root)
    data: bytes = ElementTree.tostring(root, encoding="utf-8", xml_declaration=True)
    return data + b"\n"


def robots(base_url: str) -> str:
    """``robots.txt``: every page may be read, and where the sitemap is."""
    return f"User-agent: *\nAllow: /\nSitemap: {base_url}{SITEMAP}\n"


def not_found_page(
    languages: Iterable[str],
    translators: Mapping[str, Callable[[str], str]],
    base_url: str | None,
) -> str:
    """``404.html``: the page for an address with none, in every language of the site.

    Without the site's address, its links are resolved from the server's root
    (``/``), where a site is usually served.
    """
    languages = list(languages)
    root = urlsplit(base_url).path if base_url else "/"
    first = languages[0]
    parts: list[Element] = []
    for lang in languages:
        tr = translators[lang]
        heading = () if lang == first else (el("h2", tr(NOT_FOUND)),)
        home = el(
            "a",
            tr(NOT_FOUND_HOME),
            href=f"{lang}/index.html",
            # a finger can hit it: at least 24 px tall, as the site's own links
            style="display:inline-block;padding:.5rem 0",
        )
        parts.append(
            el(
                "section",
                *heading,
                el("p", tr(NOT_FOUND_TEXT)),
                el("p", home),
                lang=language_tag(lang),
            )
        )
    title = translators[first](NOT_FOUND)
    page = el(
        "html",
        el(
            "head",
            el("meta", charset="utf-8"),
            el("meta", name="viewport", content="width=device-width, initial-scale=1"),
            el("meta", name="robots", content="noindex"),
            el("base", href=root),
            el("title", f"{title} · rulepress"),
        ),
        el(
            "body",
            el(
                "main",
                el("h1", title),
                parts,
                style="font-family:sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem",
            ),
        ),
        lang=language_tag(first),
    )
    return document(page) + "\n"
