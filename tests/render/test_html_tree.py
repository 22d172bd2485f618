"""The HTML tree behind the print files: the one serialiser escapes, nothing names markup from data."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any, cast, get_args

import pytest

from rulepress.render.html_tree import (
    ATTRS,
    AttrName,
    Attrs,
    Element,
    clean_prose,
    clean_text,
    document,
    el,
    serialize,
)

SRC = Path(__file__).resolve().parents[2] / "src" / "rulepress"
# the modules that assemble print HTML; only html_tree may turn a string into markup
BUILDERS = ("render/print_writer.py", "print/impose.py", "print/build.py")


def test_text_and_attributes_are_escaped() -> None:
    node = el("p", "a < b & \"c 'd' > e", el("b", "</p><script>"), cls='x" onload="y')
    assert serialize(node) == (
        '<p class="x&quot; onload=&quot;y">a &lt; b &amp; &quot;c &#x27;d&#x27; &gt; e'
        "<b>&lt;/p&gt;&lt;script&gt;</b></p>"
    )
    # paired quotes in text are typeset (the locale's marks), still as text
    assert serialize(el("p", 'say "<x>"'), "en") == "<p>say “&lt;x&gt;”</p>"


def test_a_document_is_the_doctype_and_an_html_root() -> None:
    html = document(el("html", el("head", el("meta", charset="utf-8")), el("body"), lang="cs"))
    assert html == (
        '<!doctype html><html lang="cs"><head><meta charset="utf-8"></head><body></body></html>'
    )
    with pytest.raises(ValueError, match="root"):
        document(el("p"))


def test_data_cannot_name_an_element_or_an_attribute() -> None:
    for name in ("script", "iframe", "style", "p onclick=x", "{ns}p"):
        with pytest.raises(ValueError, match="not an element"):
            el(cast(Any, name))
    with pytest.raises(ValueError, match="not an attribute"):
        el("p", **cast(Any, {"onclick": "alert(1)"}))
    with pytest.raises(ValueError, match="not an attribute"):
        Element("p", (("onerror", "x"),))
    with pytest.raises(TypeError):
        el("p", cast(Any, 3))
    with pytest.raises(ValueError, match="no content"):
        el("meta", "text")
    # an image is only ever an inline SVG icon: no link for WeasyPrint to fetch
    for source in ("https://example.org/x.png", "file:///etc/passwd", "javascript:alert(1)"):
        with pytest.raises(ValueError, match="never a link"):
            el("img", src=source)
    assert "<img" in serialize(el("img", src="data:image/svg+xml;base64,PHN2Zy8+", alt=""))


def test_every_keyword_sets_one_known_attribute() -> None:
    assert set(ATTRS) == set(Attrs.__annotations__)
    assert set(ATTRS.values()) == set(get_args(AttrName))


def test_nested_sequences_are_flattened_and_empty_text_dropped() -> None:
    node = el("ul", [el("li", "a"), [el("li", "b"), ""]], "")
    assert serialize(node) == "<ul><li>a</li><li>b</li></ul>"


@pytest.mark.parametrize(
    ("raw", "text"),
    [
        ("a\rb\r\nc\u2028d\u2029e\x85f\x0bg\x0ch\ti\nj", "a b  c d e f g h i j"),
        ("nul\x00esc\x1bdel\x7fcsi\x9b", "nul\ufffdesc\ufffddel\ufffdcsi\ufffd"),
        (
            "\u202aL\u202bR\u202cP\u202dO\u202eE\u2066I\u2067J\u2068K\u2069",
            "\ufffd" + "L\ufffdR\ufffdP\ufffdO\ufffdE\ufffdI\ufffdJ\ufffdK\ufffd",
        ),
        # text stays text: Czech, Japanese, combining marks, ZWJ, the bidi marks
        ("Přehledová karta, リファレンスカード、ｶﾀｶﾅ e\u0301 👩\u200d🚀 \u200f", None),
    ],
)
def test_controls_are_replaced_and_breaks_are_spaces(raw: str, text: str | None) -> None:
    assert clean_text(raw) == (raw if text is None else text)
    assert "\ufffd" not in serialize(el("p", "\u200e")), "LRM is text"


def test_only_lf_stays_a_line_break_in_prose() -> None:
    assert clean_prose("a\n- b\r- c\u2028- d\x1c- e") == "a\n- b - c - d\ufffd- e"


def _string_constants(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docstrings
    ]


@pytest.mark.parametrize("module", BUILDERS)
def test_print_builders_write_no_markup_and_escape_nothing_themselves(module: str) -> None:
    path = SRC / module
    markup = [s for s in _string_constants(path) if re.search(r"<[A-Za-z!/]|&[#\w]+;", s)]
    assert not markup, markup  # a tag written as a string would bypass the tree
    source = path.read_text(encoding="utf-8")
    # no escaping (so no unescaped twin) and no "safe string" outside html_tree
    assert not re.search(r"^\s*(import html\b|from html import|.*markupsafe)", source, re.M)
    assert "Markup(" not in source
