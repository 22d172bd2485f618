"""Citations quote their source, and validate finds every quote in the lines it cites.

A game ships the documents it was made from in its folder, named in ``sources``
with their SHA-256; each citation of such a document quotes the words it
relies on. A copy of Stationfall's spec with one thing broken at a time (a
quote, a line, the document's bytes, its encoding, its line count, a quote
left out, a component that is not listed) is refused with a located problem
for exactly that; a document the game does not ship leaves its citations
unchecked, and ``rulepress provenance`` says so.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest

from rulepress.checks.quotes import split_lines
from rulepress.checks.sources import entries
from rulepress.games.load import load_spec
from rulepress.model.provenance import fold
from tests.conftest import SPEC_ROOT, edit, game_dirs, run_main
from tests.site.test_pages import _nodes as every_node

CARD = "sources/stationfall-endgame-card.cs.txt"
# the 16.4.7 citation in rules.yaml: one line range, one quote
RULE = 'lines: "47-51", quote: "Ztrácíte 1 bod za každou svou kostku vlivu mimo zásobu, která překračuje vaší"'


def _copy(tmp_path: Path) -> Path:
    target = tmp_path / "rules_spec" / "stationfall"
    shutil.copytree(SPEC_ROOT / "stationfall", target)
    return target


def _validate(tmp_path: Path) -> tuple[int, str]:
    result = run_main("validate", "--no-examples", "rules_spec/stationfall", cwd=tmp_path)
    assert "Traceback" not in result.err
    return result.code, result.err


def _line_of(path: Path, needle: str) -> int:
    return next(i for i, t in enumerate(path.read_text().splitlines(), 1) if needle in t)


@pytest.mark.parametrize("game_dir", game_dirs(), ids=lambda d: d.name)
def test_every_citation_of_a_shipped_document_is_quoted_from_its_lines(game_dir: Path) -> None:
    # checked here without validate's code: each quote, folded, is in one of its ranges
    spec = load_spec(game_dir).spec
    shipped = {d.id: d for d in spec.sources if d.file is not None}
    texts = {}
    for doc in shipped.values():
        assert doc.file is not None
        data = (game_dir / doc.file).read_bytes()
        assert hashlib.sha256(data).hexdigest() == doc.sha256
        texts[doc.id] = split_lines(data.decode(doc.encoding))
        assert len(texts[doc.id]) == doc.lines
    cited = 0
    for _, what, source in entries(spec):
        if source is None or source.document not in shipped:
            continue
        cited += 1
        assert source.quotes(), what
        lines = texts[source.document]
        passages = [fold("".join(lines[a - 1 : b])) for a, b in source.ranges()]
        for quote in source.quotes():
            assert any(fold(quote) in p for p in passages), (what, quote)
        for passage in passages:
            assert any(fold(q) in passage for q in source.quotes()), what
    # a game that ships a document cites it (ours, each over forty times)
    assert cited > 0 or not shipped


def test_a_quote_that_is_not_in_its_lines_is_a_located_error(tmp_path: Path) -> None:
    game = _copy(tmp_path)
    rules = game / "rules.yaml"
    line = _line_of(rules, RULE)
    edit(rules, RULE, RULE.replace("kostku vlivu", "kostku moci"))
    code, err = _validate(tmp_path)
    assert code == 3
    assert f"rules_spec/stationfall/rules.yaml:{line}:" in err
    assert "'Ztrácíte 1 bod za každou svou kostku moci" in err
    assert "is not in lines 47-51" in err


def test_a_quote_from_other_lines_than_those_cited_is_refused(tmp_path: Path) -> None:
    # the right words, the wrong passage: 16.4.7's quote stands on line 49, not 41-45
    game = _copy(tmp_path)
    edit(game / "rules.yaml", RULE, RULE.replace('"47-51"', '"41-45"'))
    code, err = _validate(tmp_path)
    assert code == 3
    assert "is not in lines 41-45 (line 41 reads '7. 4c. Další body')" in err


def test_quotes_fold_whitespace_and_compatibility_forms(tmp_path: Path) -> None:
    # a quote may run across a line break and differ in spaces or NFKC forms
    game = _copy(tmp_path)
    edit(game / "rules.yaml", RULE, RULE.replace("Ztrácíte 1 bod", "Ztrácíte\u00a0 1\n bod"))
    assert _validate(tmp_path)[0] == 0


def test_each_place_of_a_statement_is_quoted(tmp_path: Path) -> None:
    game = _copy(tmp_path)
    glossary = game / "glossary.yaml"
    edit(
        glossary,
        'quote: ["každou svou kostku vlivu mimo zásobu", "nejmenším počtem kostek vlivu na poli zrady"]',
        'quote: ["každou svou kostku vlivu mimo zásobu"]',
    )
    code, err = _validate(tmp_path)
    assert code == 3
    assert "lines 56-57 are cited but no quote is from them" in err


def test_a_citation_without_a_quote_is_a_located_error(tmp_path: Path) -> None:
    game = _copy(tmp_path)
    params = game / "parameters.yaml"
    edit(params, ', quote: "(3 hráči při 9 hráčích)"', "")
    line = _line_of(params, 'lines: "58"}')
    code, err = _validate(tmp_path)
    assert code == 3
    assert f"parameters.yaml:{line}:" in err
    assert "quote the words of line 58 that state it" in err


def test_a_changed_document_is_refused_by_its_hash(tmp_path: Path) -> None:
    game = _copy(tmp_path)
    card = game / CARD
    card.write_bytes(card.read_bytes().replace(b"1 bod", b"2 body", 1))
    code, err = _validate(tmp_path)
    assert code == 3
    line = _line_of(game / "sources.yaml", "sha256:")
    assert f"rules_spec/stationfall/sources.yaml:{line}:" in err
    assert "sources[0].sha256:" in err
    assert "it is not the copy the citations were checked against" in err
    # one problem, not one per quote of a document no one can trust
    assert err.count("is not in") == 0


def test_encoding_and_line_count_are_checked(tmp_path: Path) -> None:
    game = _copy(tmp_path)
    card = game / CARD
    # the same text in another encoding: its hash given, it must still decode as declared
    data = card.read_text(encoding="utf-8").encode("cp1250")
    card.write_bytes(data)
    sources = game / "sources.yaml"
    text = sources.read_text()
    old_hash = next(t.split()[-1] for t in text.splitlines() if "sha256:" in t)
    edit(sources, old_hash, hashlib.sha256(data).hexdigest())
    code, err = _validate(tmp_path)
    assert code == 3
    assert "is not utf-8: byte" in err
    # declared as what it is, every quote is found again
    edit(sources, "    file: sources/", "    encoding: cp1250\n    file: sources/")
    assert _validate(tmp_path)[0] == 0
    edit(sources, "lines: 60", "lines: 61")
    code, err = _validate(tmp_path)
    assert code == 3
    assert "has 60 lines, not 61" in err


def test_a_file_outside_the_game_folder_is_refused(tmp_path: Path) -> None:
    game = _copy(tmp_path)
    edit(game / "sources.yaml", f"file: {CARD}", "file: ../outside.txt")
    code, err = _validate(tmp_path)
    assert code == 3
    assert "sources[0].file:" in err
    edit(game / "sources.yaml", "file: ../outside.txt", "file: sources/missing.txt")
    code, err = _validate(tmp_path)
    assert "no file sources/missing.txt in the game's folder" in err


def test_components_name_an_entry_of_not_in_source(tmp_path: Path) -> None:
    game = _copy(tmp_path)
    edit(game / "glossary.yaml", "components: [character-cards]", "components: [characters]")
    code, err = _validate(tmp_path)
    assert code == 3
    assert "no entry 'characters' under not_in_source" in err


def test_an_unshipped_document_leaves_its_citations_unchecked(tmp_path: Path) -> None:
    game = _copy(tmp_path)
    sources = game / "sources.yaml"
    text = sources.read_text()
    start = text.index("    file: ")
    end = text.index("    note:")
    sources.write_text(text[:start] + text[end:])
    (game / CARD).unlink()
    # a wrong quote of a document no one can read is not an error: it cannot be checked
    edit(game / "rules.yaml", RULE, RULE.replace("kostku vlivu", "kostku moci"))
    assert _validate(tmp_path)[0] == 0
    result = run_main("provenance", "stationfall", "--json", cwd=tmp_path)
    report = json.loads(result.out)
    assert report["documents"][0]["file"] is None
    assert {r["checked"] for r in report["entries"] if r["document"]} == {False}
    text_out = run_main("provenance", "stationfall", cwd=tmp_path).out
    assert "not shipped: its citations are unchecked" in text_out
    assert "unchecked" in next(t for t in text_out.splitlines() if t.startswith("rule 16.4.7 "))


def test_the_provenance_report_shows_each_quote_and_kind() -> None:
    result = run_main("provenance", "stationfall", "--json", cwd=SPEC_ROOT.parent)
    assert result.code == 0, result.err
    report = json.loads(result.out)
    rows = {r["entry"]: r for r in report["entries"]}
    assert rows["rule 16.4.7"]["quotes"] == [
        "Ztrácíte 1 bod za každou svou kostku vlivu mimo zásobu, která překračuje vaší"
    ]
    assert rows["rule 16.4.7"]["kind"] == "inferred"
    assert rows["parameter max_players"]["kind"] == "stated"
    assert rows["glossary term betrayal-box"]["kind"] == "components"
    assert rows["glossary term betrayal-box"]["components"] == ["rest-of-the-game"]
    assert {r["checked"] for r in rows.values() if r["document"]} == {True}


def test_readers_see_each_quote_in_the_sources_language() -> None:
    # the marker of 16.4.7 on the Japanese site: the card's Czech words, marked cs, in 「」
    from rulepress.model.spec_model import all_rules
    from rulepress.render import tree
    from rulepress.render.context import RenderContext
    from rulepress.render.sources import source_marker

    spec = load_spec(SPEC_ROOT / "stationfall").spec
    rule = next(r for r in all_rules(spec.rules) if r.number == "16.4.7")
    for lang, (start, end) in (("ja", ("「", "」")), ("en", ("“", "”")), ("cs", ("„", "“"))):
        [marker] = source_marker(RenderContext(spec, lang, str, str), rule.source)
        flat = json.dumps(marker.model_dump(), ensure_ascii=False)
        quote = {"kind": "quote", "text": rule.source.quotes()[0], "lang": "cs"}  # type: ignore[union-attr]
        assert json.dumps(quote, ensure_ascii=False)[1:-1] in flat, lang
        texts = [n for n in every_node(marker) if isinstance(n, tree.Text)]
        assert any(t.text.endswith(start) for t in texts), lang
        assert any(t.text.startswith(end) for t in texts), lang
