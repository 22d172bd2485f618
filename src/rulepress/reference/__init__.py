"""The author's reference, generated from rulepress's own code so that it cannot drift.

:func:`author_reference` writes one page: MyST for the English guides of the
site (``guide/reference/spec-reference.md``, beside ``cli.md`` and
``spec-schema.md``), or plain Markdown for the repository's ``docs/reference/``,
which ``rulepress reference`` writes without Sphinx (:mod:`rulepress.reference.files`,
with the CLI's help, :mod:`rulepress.reference.cli_page`, and the JSON Schemas).
Each part is read from the code that decides it:

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
  resolve one;
* every fixed value a spec or an example may write, from the model's
  ``Literal`` types and the sets the checks compare with
  (:mod:`rulepress.reference.values`).

The page's text is rulepress's own (docstrings, the examples), never a
spec's or a catalog's, so writing it as MyST is safe, as for the other
generated guides (:mod:`rulepress.sphinx_ext.reference`). This package does
not import Sphinx.
"""

from rulepress.reference.page import author_reference

__all__ = ["author_reference"]
