/* The language switcher: links to the same page and the same anchor in every language.
 * Site layout: <root>/<lang>/<page>.html, so switching replaces the language segment. */
(function () {
  "use strict";
  function meta(name) {
    var el = document.querySelector('meta[name="' + name + '"]');
    return el ? el.getAttribute("content") : null;
  }
  var current = meta("rulepress-language");
  var languages = JSON.parse(meta("rulepress-languages") || "[]");
  if (!current || !languages.length) { return; }
  var marker = "/" + current + "/";
  var path = window.location.pathname;
  var at = path.lastIndexOf(marker);
  if (at < 0) { return; }
  var nav = document.createElement("nav");
  nav.className = "rp-lang";
  nav.setAttribute("aria-label", "Language");
  languages.forEach(function (pair) {
    var lang = pair[0];
    var a = document.createElement("a");
    a.textContent = pair[1];
    a.lang = lang;
    a.hreflang = lang;
    a.setAttribute("data-lang", lang);
    var target = path.slice(0, at) + "/" + lang + "/" + path.slice(at + marker.length);
    a.href = target;
    if (lang === current) { a.setAttribute("aria-current", "true"); }
    a.addEventListener("click", function () { a.href = target + window.location.hash; });
    nav.appendChild(a);
  });
  document.body.insertBefore(nav, document.body.firstChild);
})();
