"""Imported by the Sphinx fork server only (see :mod:`rulepress.sphinx_ext.worker`).

Importing it imports Sphinx, the theme and the extensions, once, for every build
forked from the server; nothing else imports it.
"""

from rulepress.sphinx_ext.worker import warm

warm()
