"""One-off proof of the plural migration (kept in history only): old and new catalogs render alike.

Usage: python tools/plural_migration_proof.py OLD_LOCALES NEW_LOCALES, where OLD_LOCALES holds
the catalogs before the migration (git show 4673cdb:locales/...). Every message's English must be
the same and its translation must render the same text for every count tried.
"""
import sys
from pathlib import Path
from babel.messages.pofile import read_po
from rulepress.i18n.safety import check_structure
from rulepress.spec.text import PlainContext, to_plain, scan, Ref
old_root, new_root = Path(sys.argv[1]), Path(sys.argv[2])
COUNTS = (0, 1, 2, 3, 4, 5, 11, 21, 22, 25, 101, 1000)
def render(text, n, rule):
    names = {t.target for t in scan(text) if isinstance(t, Ref)}
    ctx = PlainContext(params={k: n for k in names}, terms={}, rulings={}, plural=rule)
    return to_plain(text, ctx, {k: n for k in names})
total = same = 0
for lang in ("cs", "ja"):
    for game in ("brink", "stationfall"):
        rel = f"{lang}/LC_MESSAGES/{game}.po"
        old = {m.context: m for m in read_po(open(old_root / rel)) if m.id}
        checked = check_structure(new_root / rel, lang)
        assert not checked.problems and not checked.unreadable, (checked.problems, checked.unreadable)
        new = {m.context: m for m in checked.catalog if m.id}
        assert old.keys() == new.keys()
        rule = checked.plural.index
        bad = 0
        for ctx, o in old.items():
            n_ = new[ctx]
            total += 1
            assert o.id == n_.id, (ctx, o.id, n_.id)
            assert o.fuzzy == n_.fuzzy
            if all(render(o.string, c, rule) == render(n_.string, c, rule) for c in COUNTS):
                same += 1
            else:
                bad += 1; print("DIFF", lang, game, ctx, repr(o.string), repr(n_.string))
        print(lang, game, len(old), "messages,", bad, "differ")
print(f"{same}/{total} messages render the same for counts {COUNTS}")
