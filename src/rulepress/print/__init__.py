"""Print: press-ready PDFs and print-and-play sheets, with WeasyPrint.

Only this layer (and the CLI) imports WeasyPrint; the HTML it lays out comes
from :mod:`rulepress.render.print_trees` by :mod:`rulepress.render.print_writer`.
"""
