/* rulepress: a search for players, on top of Sphinx's searchtools.js.
 *
 * Sphinx finds pages; a player wants the rule, the term, the example or the
 * ruling. The search page carries, as data (#rp-search-data), every such
 * object of every page with its own words, split and stemmed at build time
 * exactly as Sphinx's index splits and stems a page
 * (rulepress.sphinx_ext.search_objects). This script uses Sphinx's extension
 * points only, and keeps its search (stemmer, index, all-words rule):
 *
 * - Search._performSearch is wrapped: each page Sphinx found becomes the
 *   objects of that page that hold every search term; a name match or a
 *   heading match becomes its object; a query that is an object's number or
 *   its whole name ranks that object first; the pages of no game (the
 *   developer guides) are left out unless the reader asks for them alone;
 *   the number of results is written, in the page's language, to the status
 *   line (Sphinx's own sentence counts pages, in words some languages lack).
 * - Search.makeSearchSummary: under each result its kind and game, and a
 *   passage of its own text (not its sub-rules, not its "Source" note), cut
 *   at word boundaries around the first term found.
 *
 * Every word shown comes from the page (the theme's catalog): none is here.
 */
(function () {
  "use strict";
  var holder = document.getElementById("rp-search-data");
  if (!holder || typeof Search === "undefined") return;
  var data = JSON.parse(holder.textContent);
  var lang = document.documentElement.lang || "en";
  var params = new URLSearchParams(window.location.search);
  var guides = params.get("guides") === "1";
  var box = document.getElementById("rp-search-guides");
  if (box) box.checked = guides;

  // anchor → object, per document
  var byAnchor = {};
  Object.keys(data.objects).forEach(function (doc) {
    byAnchor[doc] = {};
    data.objects[doc].forEach(function (o) {
      byAnchor[doc][o[0]] = {
        anchor: o[0], kind: o[1], number: o[2], name: o[3], words: o[4]
      };
    });
  });

  // a text as the search compares it: split and stemmed as the query is
  function key(text) {
    var stemmer = new Stemmer();
    return splitQuery(text.toLowerCase()).map(function (w) {
      return stemmer.stemWord(w);
    }).join(" ");
  }

  // a player's page is a game's, or the site's own start page; the rest are guides
  function isGuide(doc) {
    var slash = doc.indexOf("/");
    return slash >= 0 && !Object.prototype.hasOwnProperty.call(data.games, doc.slice(0, slash));
  }

  // an object holds the terms as Sphinx's page search holds them: each term is one
  // of its words, or (three letters or more) a part of one; terms shorter than
  // three letters may be missing, as Sphinx allows
  function holds(object, terms) {
    var found = terms.filter(function (t) {
      return object.words.some(function (w) {
        return w === t || (t.length > 2 && w.indexOf(t) >= 0);
      });
    }).length;
    var long = terms.filter(function (t) { return t.length > 2; }).length;
    return found > 0 && (found === terms.length || found === long);
  }

  function title(o) {
    return o.number ? o.number + " " + o.name : o.name;
  }

  var performSearch = Search._performSearch;
  Search._performSearch = function (query, searchTerms) {
    var found = performSearch.apply(this, arguments);
    var terms = Array.from(searchTerms);
    var wanted = key(query.trim());
    var kept = new Map();
    function add(result, object) {
      var doc = result[0];
      var item = object
        ? [doc, title(object), "#" + object.anchor, null, result[4], result[5], "object"]
        : [doc, result[1], result[2], null, result[4], result[5], result[6]];
      if (object) {
        // the object itself is asked for: its number or its whole name
        if (wanted && [object.number, object.name, title(object)].some(function (n) {
          return n && key(n) === wanted;
        })) item[4] += 1000;
        // every term is in its name: a stronger match than one in its text
        else if (holds({ words: key(title(object)).split(" ") }, terms)) item[4] += Scorer.title;
      }
      var id = doc + item[2];
      var before = kept.get(id);
      if (!before || before[4] < item[4]) kept.set(id, item);
    }
    found.forEach(function (result) {
      var doc = result[0];
      if (isGuide(doc) !== guides) return;
      var objects = data.objects[doc] || [];
      var anchor = result[2] ? result[2].slice(1) : "";
      var own = byAnchor[doc] && byAnchor[doc][anchor];
      if (own) {
        add(result, own);  // a name or a heading that matched: its object
      } else if (result[6] === SearchResultKind.text && objects.length) {
        var hits = objects.map(function (o) { return byAnchor[doc][o[0]]; })
          .filter(function (o) { return holds(o, terms); });
        if (hits.length) hits.forEach(function (o) { add(result, o); });
        else add(result, null);  // the words are spread over the page: the page
      } else {
        add(result, null);
      }
    });
    var results = Array.from(kept.values());
    results.sort(_orderResultsByScoreThenName);
    count(results.length);
    return results;
  };

  // the status line is ours: Sphinx's closing sentence goes to a line no one sees
  var status = null;
  var counted = null;
  var start = Search.performSearch;
  Search.performSearch = function (query) {
    start(query);
    status = Search.status;
    status.setAttribute("role", "status");
    Search.status = document.createElement("p");
    // an index loaded already searched at once, and Sphinx may have had the last word
    if (counted !== null) count(counted);
  };
  function count(n) {
    counted = n;
    var line = status || document.querySelector("#search-results .search-summary");
    if (!line) return;
    // the label, then the number; a full-width colon (Japanese) carries its own space
    var label = data.text.count;
    line.textContent = n
      ? label + (/\uff1a$/.test(label) ? "" : " ") + n.toLocaleString(lang)
      : data.text.none;
  }

  // a folded copy of a text (lower case, no diacritics) and where each of its
  // characters came from, so that a stem found in it is found in the text
  function folded(text) {
    var chars = [];
    var from = [];
    Array.from(text).forEach(function (c, i) {
      var f = c.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
      Array.from(f || c).forEach(function (x) { chars.push(x); from.push(i); });
    });
    return { text: chars.join(""), from: from };
  }

  // the element's own text: its paragraphs, lists and tables, not its heading,
  // its sub-rules, its folded notes (the Source, a table state) or scripts
  function ownText(element) {
    if (element.tagName === "DT") element = element.nextElementSibling || element;
    var parts = [];
    Array.from(element.children).forEach(function (child) {
      if (/^(H[1-6]|SECTION|DETAILS|SCRIPT|STYLE)$/.test(child.tagName)) return;
      if (child.classList.contains("headerlink")) return;
      parts.push(child.textContent);
    });
    return parts.join(" ").replace(/\s+/g, " ").trim();
  }

  var Segmenter = typeof Intl !== "undefined" && Intl.Segmenter;
  function boundaries(text, granularity) {
    if (!Segmenter) {
      var spaces = [0];
      text.replace(/\s+/g, function (m, at) { spaces.push(at + m.length); return m; });
      return spaces;
    }
    return Array.from(new Intl.Segmenter(lang, { granularity: granularity }).segment(text))
      .map(function (s) { return s.index; });
  }

  var SPAN = 220;
  var BEFORE = 80;
  function passage(text, keywords) {
    var f = folded(text);
    var at = -1;
    keywords.forEach(function (k) {
      var i = f.text.indexOf(k.toLowerCase());
      if (i >= 0 && (at < 0 || f.from[i] < at)) at = f.from[i];
    });
    if (at < 0) at = 0;
    // from the start of the sentence the term is in, if it is near; else a word before it
    var sentences = boundaries(text, "sentence").filter(function (b) { return b <= at; });
    var from = sentences.length ? sentences[sentences.length - 1] : 0;
    var words = boundaries(text, "word");
    if (at - from > BEFORE) {
      from = words.filter(function (b) { return b <= at - BEFORE / 2; }).pop() || 0;
    }
    var to = text.length;
    if (to - from > SPAN) {
      to = words.filter(function (b) { return b <= from + SPAN && b > at; }).pop() || from + SPAN;
    }
    return (from > 0 ? "\u2026" : "") + text.slice(from, to).trim() + (to < text.length ? "\u2026" : "");
  }

  function kindOf(anchor) {
    var name = anchor ? anchor.slice(1) : "";
    var kinds = { "rule-": "rule", "term-": "term", "example-": "example", "ruling-": "ruling" };
    for (var prefix in kinds) if (name.indexOf(prefix) === 0) return kinds[prefix];
    return "page";
  }

  Search.makeSearchSummary = function (htmlText, keywords, anchor) {
    var page = new DOMParser().parseFromString(htmlText, "text/html");
    var main = page.querySelector('[role="main"]');
    if (!main) return null;
    var target = anchor ? page.getElementById(anchor.slice(1)) : null;
    var text = target ? ownText(target) : "";
    if (!target) {
      // a page: its text without headings' links, Source notes and scripts
      main.querySelectorAll(".headerlink, .rp-source, script, style").forEach(function (e) {
        e.remove();
      });
      text = main.textContent.replace(/\s+/g, " ").trim();
    }
    var out = document.createDocumentFragment();
    var kind = data.text.kinds[kindOf(target ? anchor : "")];
    var game = main.dataset.rpGame;
    // its kind, then its game: two words of their own, set apart by the stylesheet
    // (a separator of the language's, as the footer's colon), so no message composes them
    var about = out.appendChild(document.createElement("span"));
    about.className = "rp-result-about";
    about.appendChild(document.createElement("span")).className = "rp-result-kind";
    about.lastChild.textContent = kind;
    if (game) {
      about.appendChild(document.createElement("span")).className = "rp-result-game";
      about.lastChild.textContent = game;
    }
    if (text) {  // (a chapter may have no text of its own, only its sub-rules)
      var summary = out.appendChild(document.createElement("p"));
      summary.className = "context";
      summary.textContent = passage(text, Array.from(keywords));
    }
    return out;
  };
})();
