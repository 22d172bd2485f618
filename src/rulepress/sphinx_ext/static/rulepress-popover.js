/* rulepress: a cited rule's own text in a popover, on hover, on keyboard focus and on a tap.
 *
 * A rule number in the text (span.rp-rule > a) links to the rule's anchor.
 * Pointing at it, or reaching it with the keyboard, shows that rule's heading
 * and its own paragraphs (not its sub-rules) beside it; moving away, leaving
 * it or pressing Escape hides them. A finger cannot point, so a tap shows the
 * preview instead of leaving the page, with the rule's heading as a link that
 * opens it; tapping the number again, or the link, opens the rule, and a tap
 * elsewhere or Escape closes the preview. The rule's page is fetched once and
 * read as text (textContent): nothing of it is inserted as markup. Without
 * JavaScript the link simply leads to the rule.
 *
 * The popover is placed below the number, or above it when there is more room
 * there, and never leaves the window: it is moved in from the edges and, when it
 * is taller than the room left, scrolls inside itself.
 */
(function () {
  "use strict";
  var pages = {};
  var shown = null;
  // whether the pointer that is clicking is a finger (set on pointerdown, read on click)
  var touching = false;
  // the rule number a finger tapped last, while its preview is being fetched
  var pendingTap = null;
  var MARGIN = 8;

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
    shown.link.removeAttribute("aria-expanded");
    shown.box.remove();
    shown = null;
  }

  function place(box, link) {
    // measured in the window (the layout viewport), then written in page coordinates
    var view = document.documentElement;
    var width = view.clientWidth;
    var height = window.innerHeight;
    box.style.maxHeight = height - 2 * MARGIN + "px";
    var at = link.getBoundingClientRect();
    var left = Math.max(MARGIN, Math.min(at.left, width - box.offsetWidth - MARGIN));
    var below = height - at.bottom - MARGIN;
    var above = at.top - MARGIN;
    var tall = box.offsetHeight;
    var top;
    if (tall + 6 <= below) top = at.bottom + 6;
    else if (tall + 6 <= above) top = at.top - 6 - tall;
    else top = Math.max(MARGIN, height - MARGIN - tall);  // taller than both: as low as it fits
    box.style.left = window.scrollX + left + "px";
    box.style.top = window.scrollY + top + "px";
  }

  function show(link, tapped) {
    if (shown && shown.link === link) return;
    ruleOf(link).then(function (section) {
      var wanted = tapped ? pendingTap === link
        : document.activeElement === link || link.matches(":hover");
      if (!section || !wanted) return;
      hide();
      var box = document.createElement("div");
      box.id = "rp-popover";
      box.className = "rp-popover";
      var heading = section.querySelector("h1, h2, h3, h4, h5, h6");
      var title = document.createElement("p");
      title.className = "rp-popover-title";
      var words = heading ? heading.textContent.replace(/\u00b6\s*$/, "").trim() : link.textContent;
      if (tapped) {
        // a finger's preview is a small dialog: its title is the link that opens the rule
        var open = document.createElement("a");
        open.href = link.href;
        open.textContent = words;
        title.appendChild(open);
        box.setAttribute("role", "dialog");
        box.setAttribute("aria-label", words);
      } else {
        title.textContent = words;
        box.setAttribute("role", "tooltip");
      }
      box.appendChild(title);
      Array.prototype.forEach.call(section.children, function (child) {
        if (child.tagName === "P" || child.tagName === "UL" || child.tagName === "OL") {
          var p = document.createElement("p");
          p.textContent = child.textContent.trim();
          box.appendChild(p);
        }
      });
      document.body.appendChild(box);
      place(box, link);
      link.setAttribute("aria-describedby", box.id);
      if (tapped) link.setAttribute("aria-expanded", "true");
      shown = { link: link, box: box, tapped: tapped };
    });
  }

  function ruleLink(event) {
    return event.target.closest ? event.target.closest(".rp-rule a[href*='#rule-']") : null;
  }

  document.addEventListener("pointerdown", function (e) {
    touching = e.pointerType === "touch" || e.pointerType === "pen";
  }, true);
  document.addEventListener("click", function (e) {
    var a = ruleLink(e);
    if (!touching) return;
    if (!a) {
      // a tap outside the preview closes it
      if (shown && !shown.box.contains(e.target)) {
        pendingTap = null;
        hide();
      }
      return;
    }
    if (shown && shown.link === a && shown.tapped) return;  // a second tap: open the rule
    e.preventDefault();
    hide();
    pendingTap = a;
    show(a, true);
  });
  document.addEventListener("mouseover", function (e) {
    var a = ruleLink(e);
    if (a && !touching) show(a, false);
  });
  document.addEventListener("mouseout", function (e) {
    if (ruleLink(e) && shown && !shown.tapped) hide();
  });
  document.addEventListener("focusin", function (e) {
    var a = ruleLink(e);
    if (a && !touching) show(a, false);
  });
  document.addEventListener("focusout", function (e) {
    if (ruleLink(e) && shown && !shown.tapped) hide();
  });
  document.addEventListener("keydown", function (e) {
    touching = false;  // the keyboard is in use: focus shows previews again
    if (e.key === "Escape") {
      pendingTap = null;
      hide();
    }
  });
  window.addEventListener("resize", function () {
    if (shown) place(shown.box, shown.link);
  });
})();
