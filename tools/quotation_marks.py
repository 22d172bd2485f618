"""Write the quotation marks of every language docutils knows as rulepress's package data.

docutils keeps the quotation marks of 75 languages (its smart-quotes table,
from CLDR and national style guides); Babel does not carry CLDR's delimiters.
rulepress reads that table as data (``src/rulepress/i18n/quotation_marks.json``,
see :func:`rulepress.i18n.typography.quote`) rather than importing docutils
for it: docutils is otherwise only the site builds' library, and importing
it was 3 % of the instructions of a ``rulepress score`` of one table.

    .venv/bin/python tools/quotation_marks.py          # write the file
    .venv/bin/python tools/quotation_marks.py --check  # exit 1 if it is not docutils' table
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from docutils.utils.smartquotes import smartchars

TARGET = (
    Path(__file__).resolve().parent.parent / "src" / "rulepress" / "i18n" / "quotation_marks.json"
)


def table() -> str:
    """The file's text: each language's four marks in docutils' table, by language."""
    marks = {
        lang: [str(m) for m in value]
        for lang, value in sorted(smartchars.quotes.items())
        # most entries are four marks in a string; a few are tuples of longer marks
        if isinstance(value, str | tuple) and len(value) == 4
    }
    lines = [
        f"{json.dumps(lang)}: {json.dumps(m, ensure_ascii=False)}" for lang, m in marks.items()
    ]
    return "{\n" + ",\n".join(lines) + "\n}\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check that the file is current")
    options = parser.parse_args()
    wanted = table()
    if options.check:
        if not TARGET.is_file() or TARGET.read_text(encoding="utf-8") != wanted:
            sys.exit(f"{TARGET.name} is not docutils' table: run tools/quotation_marks.py")
        return
    TARGET.write_text(wanted, encoding="utf-8")


if __name__ == "__main__":
    main()
