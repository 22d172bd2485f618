/* rulepress: a rule number typed into the search goes straight to that rule.
 *
 * The search index lists every numbered rule as an object of type "rule"
 * (rulepress.sphinx_ext.doctree), named "16.4.8 Winning (Stationfall)". When
 * the query is a rule number and exactly one rule of the site has it, the
 * page opens that rule's anchor instead of listing results; a number two
 * games share lists both, as any search does.
 */
(function () {
  "use strict";
  var query = (new URLSearchParams(window.location.search).get("q") || "").trim();
  if (!/^\d+(\.\d+)*$/.test(query) || typeof Search === "undefined") return;
  var setIndex = Search.setIndex;
  Search.setIndex = function (index) {
    var found = [];
    var objects = index.objects || {};
    Object.keys(objects).forEach(function (prefix) {
      objects[prefix].forEach(function (match) {
        var type = index.objnames[match[1]];
        if (!type || type[1] !== "rule") return;
        var fullname = (prefix ? prefix + "." : "") + match[4];
        if (fullname.split(/[\s\u00a0]/)[0] !== query) return;
        found.push(index.docnames[match[0]] + DOCUMENTATION_OPTIONS.FILE_SUFFIX + "#" + match[3]);
      });
    });
    if (found.length === 1) {
      window.location.replace(found[0]);
      return;
    }
    setIndex(index);
  };
})();
