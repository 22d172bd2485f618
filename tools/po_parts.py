"""Split a catalog into parts for several translators, and merge their parts back.

    .venv/bin/python tools/po_parts.py split locales/cs/LC_MESSAGES/brink.po OUTDIR --by rules/1-8,glossary --by rules/9-16
    .venv/bin/python tools/po_parts.py merge locales/cs/LC_MESSAGES/brink.po PART.po [PART.po …]

``split`` writes OUTDIR/<domain>.<lang>.partN.po for each ``--by`` filter
(the messages whose msgctxt matches it and no earlier filter; ``rules/1-8``
selects rules of chapters 1 to 8) and one last part with the rest. ``merge`` copies every
translated, non-fuzzy msgstr of the parts into the catalog by msgctxt and
msgid; nothing else in the catalog changes.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from babel.messages.catalog import Catalog

from rulepress.i18n.catalogs import read_catalog, render
from rulepress.output import replace_files


def _matches(context: str, filters: list[str]) -> bool:
    for f in filters:
        m = re.fullmatch(r"rules/(\d+)-(\d+)", f)
        if m:
            head = context.split("/")
            if head[0] == "rules" and len(head) > 1:
                chapter = int(head[1].split(".")[0])
                if int(m.group(1)) <= chapter <= int(m.group(2)):
                    return True
        elif context.split("/", maxsplit=1)[0] == f:
            return True
    return False


def split(path: Path, outdir: Path, groups: list[list[str]]) -> None:
    lang = path.parent.parent.name
    catalog = read_catalog(path, lang)
    parts = [Catalog(locale=lang) for _ in range(len(groups) + 1)]
    for m in catalog:
        if not m.id:
            continue
        index = next((i for i, g in enumerate(groups) if _matches(m.context or "", g)), len(groups))
        target = parts[index]
        target.add(
            m.id,
            m.string,
            list(m.locations),
            flags=m.flags,
            auto_comments=m.auto_comments,
            user_comments=m.user_comments,
            previous_id=m.previous_id,
            context=m.context,
        )
    outdir.mkdir(parents=True, exist_ok=True)
    for n, part in enumerate(parts, start=1):
        part.project = catalog.project
        out = outdir / f"{path.stem}.{lang}.part{n}.po"
        replace_files({out: render(part)})
        print(f"{out}: {sum(1 for m in part if m.id)} messages")


def merge(path: Path, parts: list[Path]) -> None:
    lang = path.parent.parent.name
    catalog = read_catalog(path, lang)
    copied = 0
    for part_path in parts:
        for m in read_catalog(part_path, lang):
            if not m.id or m.fuzzy:
                continue
            target = catalog.get(m.id, m.context)
            if target is not None and m.string and m.string != target.string:
                target.string = m.string
                target.flags.discard("fuzzy")
                copied += 1
    replace_files({path: render(catalog)})
    print(f"{path}: {copied} translations merged")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    s = sub.add_parser("split")
    s.add_argument("catalog", type=Path)
    s.add_argument("outdir", type=Path)
    s.add_argument(
        "--by", action="append", required=True, help="comma-separated msgctxt filters of one part"
    )
    m = sub.add_parser("merge")
    m.add_argument("catalog", type=Path)
    m.add_argument("parts", type=Path, nargs="+")
    args = parser.parse_args()
    if args.command == "split":
        split(args.catalog, args.outdir, [group.split(",") for group in args.by])
    else:
        merge(args.catalog, args.parts)


if __name__ == "__main__":
    main()
