"""rulepress: board-game rulebooks published from one executable rules spec.

Importing the package is cheap: it loads neither Sphinx nor WeasyPrint nor
the CLI library; those are imported by the layers that need them.
"""

__version__ = "0.1.0"
