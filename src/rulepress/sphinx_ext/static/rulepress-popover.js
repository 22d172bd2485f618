/* rulepress: a cited rule's own text in a popover, on hover and on keyboard focus.
 *
 * A rule number in the text (span.rp-rule > a) links to the rule's anchor.
 * Pointing at it, or reaching it with the keyboard, shows that rule's heading
 * and its own paragraphs (not its sub-rules) beside it; moving away, leaving
 * it or pressing Escape hides them. The rule's page is fetched once and read
 * as text (textContent): nothing of it is inserted as markup. Without
 * JavaScript the link simply leads to the rule.
 */
(function () {
  "use strict";
  var pages = {};
  var shown = null;

  function ruleOf(link) {
    var url = new URL(link.href, window.location.href);
    var id = decodeURIComponent(url.hash.slice(1));
    var page = url.href.split("#")[0];
    if (page === window.location.href.split("#")[0]) {
      return Promise.resolve(document.getElementById(id));
    }
    if (!pages[page]) {
      pages[page] = fetch(page)
        .then(function (r) { return r.ok ? r.text() : ""; })
        .then(function (t) { return new DOMParser().parseFromString(t, "text/html"); })
        .catch(function () { return null; });
    }
    return pages[page].then(function (doc) { return doc ? doc.getElementById(id) : null; });
  }

  function hide() {
    if (!shown) return;
    shown.link.removeAttribute("aria-describedby");
    shown.box.remove();
    shown = null;
  }

  function show(link) {
    if (shown && shown.link === link) return;
    ruleOf(link).then(function (section) {
      if (!section || document.activeElement !== link && !link.matches(":hover")) return;
      hide();
      var box = document.createElement("div");
      box.id = "rp-popover";
      box.className = "rp-popover";
      box.setAttribute("role", "tooltip");
      var heading = section.querySelector("h1, h2, h3, h4, h5, h6");
      if (heading) {
        var title = document.createElement("p");
        title.className = "rp-popover-title";
        title.textContent = heading.textContent.replace(/\u00b6\s*$/, "").trim();
        box.appendChild(title);
      }
      Array.prototype.forEach.call(section.children, function (child) {
        if (child.tagName === "P" || child.tagName === "UL" || child.tagName === "OL") {
          var p = document.createElement("p");
          p.textContent = child.textContent.trim();
          box.appendChild(p);
        }
      });
      document.body.appendChild(box);
      var at = link.getBoundingClientRect();
      var left = Math.min(window.scrollX + at.left, window.scrollX + window.innerWidth - box.offsetWidth - 8);
      box.style.left = Math.max(window.scrollX + 8, left) + "px";
      box.style.top = window.scrollY + at.bottom + 6 + "px";
      link.setAttribute("aria-describedby", box.id);
      shown = { link: link, box: box };
    });
  }

  function ruleLink(event) {
    return event.target.closest ? event.target.closest(".rp-rule a[href*='#rule-']") : null;
  }

  document.addEventListener("mouseover", function (e) { var a = ruleLink(e); if (a) show(a); });
  document.addEventListener("mouseout", function (e) { if (ruleLink(e)) hide(); });
  document.addEventListener("focusin", function (e) { var a = ruleLink(e); if (a) show(a); });
  document.addEventListener("focusout", function (e) { if (ruleLink(e)) hide(); });
  document.addEventListener("keydown", function (e) { if (e.key === "Escape") hide(); });
})();
