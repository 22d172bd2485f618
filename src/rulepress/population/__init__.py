"""Populations of table states: drawn, recorded, and the executor that runs jobs over them.

Where it sits: beside :mod:`rulepress.states` (a format's check) and below the
scorer's callers. :mod:`.values` draws one field's value from its format (bounds,
choices, the spec's ``draw`` weights), :mod:`.texts` finds the words a text field
is compared with, :mod:`.sampler` draws whole legal states, seeded per index, and
:mod:`.shrink` makes a state that shows something as small as it goes;
:mod:`.corpus` reads recorded states and :mod:`.executor` runs a job over chunks.
Nothing here imports hypothesis (a test tool), Sphinx or click: ``rulepress impact``
and the site build draw their tables here.
"""
