/* rulepress theme: what a script adds to links that already work without one.
 *
 * Language links: each leads to the same page in another language (plain links,
 * written by the build). The anchor the reader is at (#rule-14-4-4) is the same
 * in every language, so the link gets it too: set when the page opens and again
 * whenever the anchor changes, so a copied or middle-clicked link keeps it as
 * well. Only an anchor in the page's text is carried, never the menu's.
 *
 * The phone menu: without a script, "Menu" opens the page list as its link's
 * target (CSS :target). With one, it is a button that opens and closes the list
 * in place and says which it is (aria-expanded), without touching the address.
 */
(function () {
  "use strict";

  function contentAnchor() {
    var id = decodeURIComponent(window.location.hash.slice(1));
    var target = id ? document.getElementById(id) : null;
    return target && target.closest("main") ? "#" + encodeURIComponent(id) : "";
  }

  function keepAnchor() {
    var hash = contentAnchor();
    document.querySelectorAll(".rp-langs a[hreflang]").forEach(function (link) {
      var page = link.getAttribute("href").split("#")[0];
      link.setAttribute("href", page + hash);
    });
  }

  function menu() {
    var link = document.querySelector(".rp-menu-link");
    var nav = document.getElementById("rp-menu");
    if (!link || !nav) return;
    link.setAttribute("role", "button");
    link.setAttribute("aria-expanded", "false");
    link.addEventListener("click", function (event) {
      event.preventDefault();
      var open = !nav.classList.contains("rp-open");
      nav.classList.toggle("rp-open", open);
      link.setAttribute("aria-expanded", open ? "true" : "false");
    });
    link.addEventListener("keydown", function (event) {
      // a role="button" link opens with the space bar too, as a button does
      if (event.key === " ") {
        event.preventDefault();
        link.click();
      }
    });
  }

  keepAnchor();
  window.addEventListener("hashchange", keepAnchor);
  menu();
})();
