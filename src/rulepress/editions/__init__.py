"""Editions of a game's spec: what changed between two of them, rule by rule.

:mod:`.model` is the result (typed, JSON-serialisable data that any writer
walks: the terminal report, the site's changes page, an errata sheet);
:mod:`.compare` compares two loaded specs; :mod:`.consequences` scores the
old edition's worked examples under the new spec; :mod:`.sources` reads an
edition from a folder or a git revision. No Sphinx, click or Babel here.
"""
