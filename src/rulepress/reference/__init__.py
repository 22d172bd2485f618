"""The author's reference, generated from rulepress's own code so that it cannot drift.

:func:`author_reference` writes one MyST page for the English guides
(``spec-reference.md``, beside ``cli.md`` and ``spec-schema.md``). Each part
is read from the code that decides it:

* the step kinds and score operations, and every field of each, from the
  spec model (:mod:`rulepress.model.spec_model`: the fields' types, defaults and
  docstrings) and the operations the registry finds
  (:mod:`rulepress.model.operations`: rulepress's own and plugins' alike);
* one runnable example per step kind and operation, each a data file
  (:mod:`rulepress.reference.examples`), scored when the page is made; each
  states its result by hand, and the tests check the scorer agrees;
* the names in scope wherever an expression can appear, as the spec check
  builds them (:mod:`rulepress.reference.scopes`);
* the expression language's functions (their table and docstrings) and
  bounds (:mod:`rulepress.expressions.bounds`);
* the naming convention of ids, from the validators that enforce it, and
  the places that take a named set (``sets.<name>``), from the types that
  resolve one.

The page's text is rulepress's own (docstrings, the examples), never a
spec's or a catalog's, so writing it as MyST is safe, as for the other
generated guides (:mod:`rulepress.sphinx_ext.reference`). This package does
not import Sphinx.
"""

from rulepress.reference.page import author_reference

__all__ = ["author_reference"]
