"""Icons for a game's recurring concepts, from SVG files its spec names, checked as untrusted.

A spec may give a glossary term an icon (``publishing.icons: {bribe: icons/bribe.svg}``);
print then sets the icon before the term wherever the reference card and the step
cards name it. The spec is untrusted, and an SVG file is a document that can fetch
other files, run script or hide an entity bomb, so an icon is accepted only when:

- it is a file inside the game's folder, of at most 64 KiB;
- it parses as XML with no DOCTYPE or entity declaration, and its root is ``<svg>``;
- it has no script, ``<foreignObject>``, event attribute (``on…``), or reference to
  anything outside itself (``href`` other than ``#…``, ``url()`` other than ``url(#…)``);
- its colours are ``none`` or ``device-cmyk(…)``, and its root sets ``fill`` (SVG's
  default black, and ``currentColor``, would reach the PDF as RGB): a press file
  holds CMYK only.

It reaches the page as a ``data:`` URI, so WeasyPrint fetches nothing. defusedxml
parses it (it refuses entity declarations and external references itself).
"""

from __future__ import annotations

import base64
import re
from pathlib import Path

from defusedxml import DefusedXmlException, ElementTree

MAX_BYTES = 64 * 1024
#: what an icon's colours may be: no colour, the text's colour, or CMYK
_COLOUR = re.compile(r"^(none|transparent|device-cmyk\([0-9.,\s%]+\))$")
_COLOUR_ATTRS = ("fill", "stroke", "color", "stop-color", "flood-color", "lighting-color")
_FORBIDDEN = {"script", "foreignObject", "iframe", "image", "use", "style"}
_URL = re.compile(r"url\(\s*(['\"]?)([^)'\"]*)\1\s*\)")


def _local(name: str) -> str:
    return name.rsplit("}", 1)[-1]


def _style_colours(style: str) -> list[str]:
    out = []
    for part in style.split(";"):
        name, _, value = part.partition(":")
        if _local(name.strip()) in _COLOUR_ATTRS:
            out.append(value.strip())
    return out


def check_icon(path: Path, folder: Path) -> str:
    """The icon at ``path`` as a data URI; ValueError, saying what is wrong, if it is refused."""
    folder = folder.resolve()
    resolved = path.resolve()
    if not resolved.is_relative_to(folder):
        raise ValueError(f"{path.name} is not a file in the game's folder")
    if not resolved.is_file():
        raise ValueError(f"no icon file {path.name}")
    data = resolved.read_bytes()
    if len(data) > MAX_BYTES:
        raise ValueError(f"{path.name} is {len(data)} bytes; an icon may have {MAX_BYTES}")
    if b"<!DOCTYPE" in data.upper() or b"<!ENTITY" in data.upper():
        raise ValueError(f"{path.name} declares a DOCTYPE or an entity; an icon may not")
    try:
        root = ElementTree.fromstring(data)
    except ElementTree.ParseError as exc:
        raise ValueError(f"{path.name} is not well-formed SVG: {exc}") from None
    except DefusedXmlException:
        raise ValueError(f"{path.name} declares an entity or a DTD; an icon may not") from None
    if _local(root.tag) != "svg":
        raise ValueError(f"{path.name} is not SVG (its root is <{_local(root.tag)}>)")
    if "fill" not in root.attrib and not _style_colours(root.attrib.get("style", "")):
        raise ValueError(f"{path.name}: its <svg> sets no fill (the default black is RGB)")
    for node in root.iter():
        tag = _local(str(node.tag))
        if tag in _FORBIDDEN:
            raise ValueError(f"{path.name}: <{tag}> is not allowed in an icon")
        for name, value in node.attrib.items():
            attr = _local(name)
            if attr.lower().startswith("on"):
                raise ValueError(f"{path.name}: the event attribute {attr} is not allowed")
            if attr == "href" and not value.startswith("#"):
                raise ValueError(f"{path.name}: a link to {value!r} is not allowed")
            for match in _URL.finditer(value):
                if not match.group(2).startswith("#"):
                    raise ValueError(f"{path.name}: url({match.group(2)}) is not allowed")
            colours = [value] if attr in _COLOUR_ATTRS else []
            if attr == "style":
                colours = _style_colours(value)
            for colour in colours:
                if not _COLOUR.match(colour.strip()):
                    raise ValueError(
                        f"{path.name}: the colour {colour!r} is not CMYK; use none or"
                        " device-cmyk(c m y k)"
                    )
    return "data:image/svg+xml;base64," + base64.b64encode(data).decode("ascii")
