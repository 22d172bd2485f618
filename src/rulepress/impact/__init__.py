"""How much a rule change matters: two rule sets scored over one population of tables.

Stage: (spec edition + ruling options) × 2, population of table states →
per-table changes → one mergeable tally → the report (data, then a page
tree for the terminal and the site). ``rulepress impact GAME`` is its
command; the rulings and changes pages show its headline figure.

* :mod:`.rulesets`: a rule set (an edition and ruling options), loaded once per process;
* :mod:`.outcome`: what a table's result is, and how two results differ;
* :mod:`.tally`: the counts over many tables, merged in chunk order;
* :mod:`.question`: a question (two rule sets, a population), run over chunks;
* :mod:`.report`: the report as data (JSON), with the smallest tables that show each change;
* :mod:`.example`: a smallest table written out as a worked example, ready to paste.
"""
