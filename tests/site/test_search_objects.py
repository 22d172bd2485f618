"""The search's objects: a rule's own words, split and stemmed as Sphinx's index does a page's."""

from __future__ import annotations

from types import SimpleNamespace

from docutils import nodes
from sphinx.search.en import SearchEnglish
from sphinx.search.ja import SearchJapanese

from rulepress.sphinx_ext import search_objects
from rulepress.sphinx_ext.search_cs import SearchCzech


def _rule(env: object) -> None:
    """Rule 16.4.8 with a tie-break list, a Source note and a sub-rule of its own."""
    source = nodes.container(
        "", nodes.paragraph("", "Czech reference card, lines 53–60"), classes=["rp-source"]
    )
    sub = nodes.section("", nodes.title("", "16.4.8.1 Sharing"), nodes.paragraph("", "Split it."))
    children = [
        nodes.title("", "16.4.8 Winning"),
        nodes.paragraph("", "The player with the most points wins."),
        nodes.bullet_list("", nodes.list_item("", nodes.paragraph("", "Tied: fewest cubes."))),
        source,
        sub,
        nodes.comment("", ">>> run_example('x')"),
    ]
    search_objects.record(env, "stationfall/rules", "rule-16-4-8", "16.4.8 Winning", children)


def test_a_rule_keeps_its_own_text_without_its_source_and_sub_rules() -> None:
    env = SimpleNamespace(all_docs={"stationfall/rules": 0.0})
    _rule(env)
    (entry,) = env.rulepress_search_objects["stationfall/rules"]
    assert entry == (
        "rule",
        "rule-16-4-8",
        "16.4.8",
        "Winning",
        "The player with the most points wins. Tied: fewest cubes.",
    )


def test_words_are_stemmed_and_filtered_as_sphinx_indexes_a_page() -> None:
    env = SimpleNamespace(all_docs={"stationfall/rules": 0.0})
    _rule(env)
    data = search_objects.search_data(env, SearchEnglish({}))
    ((anchor, kind, number, name, words),) = data["stationfall/rules"]
    assert (anchor, kind, number, name) == ("rule-16-4-8", "rule", "16.4.8", "Winning")
    english = SearchEnglish({})
    # the index's own stems ("win", "point", "tie"), in lower case, and its stop words gone
    for word in ("Winning", "points", "Tied", "fewest", "cubes"):
        assert english.stem(word).lower() in words
    assert "the" not in words
    assert "with" not in words
    assert all(w == w.lower() for w in words)
    # what is not the rule's own text is not found in it
    assert not {"czech", "refer", "card", "share", "split", "run_exampl"} & set(words)


def test_czech_and_japanese_words_are_the_index_languages_own() -> None:
    env = SimpleNamespace(all_docs={"stationfall/glossary": 0.0, "brink/glossary": 0.0})
    text = [nodes.paragraph("", "Žeton, kterým si hráč koupí akci navíc.")]
    search_objects.record(env, "stationfall/glossary", "term-bribe", "Úplatek", text)
    ja = [nodes.paragraph("", "ゲーム終了時に最も多くの名声を持つプレイヤーが勝利します。")]
    search_objects.record(env, "brink/glossary", "term-prestige", "名声", ja)
    cs = search_objects.search_data(env, SearchCzech({}))["stationfall/glossary"][0][4]
    assert {"uplatek", "zeton", "hrac"} <= set(cs)  # folded and stemmed as "uplatek" is typed
    japanese = SearchJapanese({"type": "sphinx.search.ja.DefaultSplitter"})
    jp = search_objects.search_data(env, japanese)["brink/glossary"][0][4]
    assert "名声" in jp
    assert "プレイヤー" in jp


def test_a_page_read_again_forgets_its_objects_and_parallel_readers_merge() -> None:
    env = SimpleNamespace(all_docs={"stationfall/rules": 0.0})
    _rule(env)
    other = SimpleNamespace()
    search_objects.record(other, "brink/rules", "rule-1", "1 General Play", [])
    search_objects.merge(None, env, {"brink/rules"}, other)
    assert set(env.rulepress_search_objects) == {"stationfall/rules", "brink/rules"}
    search_objects.purge(None, env, "stationfall/rules")
    assert set(env.rulepress_search_objects) == {"brink/rules"}
    # a document no longer in the project is not offered to the search
    assert search_objects.search_data(env, SearchEnglish({})) == {}


def test_only_rules_terms_examples_and_rulings_are_objects() -> None:
    env = SimpleNamespace(all_docs={"x/scoring": 0.0})
    for anchor in ("sequence-end", "examples", "downloads"):
        search_objects.record(env, "x/scoring", anchor, "Title", [])
    assert not getattr(env, search_objects.ATTRIBUTE, {})
    kinds = [search_objects.kind_of(a) for a in ("rule-1", "term-x", "example-y", "ruling-z")]
    assert kinds == ["rule", "term", "example", "ruling"]
