"""Localization: gettext catalogs from the spec, their workflow, QA, and localized output.

This layer may import Babel; the spec and the scorer never do. Domains: one
per game (its spec's prose) and ``rulepress`` (the interface sentences marked
with :func:`rulepress.uitext.ui`).
"""
