"""Comparing two editions of a spec: rules, numbers, tables, orders, rulings, examples.

Pure functions of two loaded specs (the old edition's worked examples are
scored under the new one in :mod:`.consequences`). Rules are matched by
their ``id`` where both editions give one, so that a renumbered rule is
told from a removed one and an added one; otherwise by number. Texts are
compared message by message, as the catalogs hold them (a paragraph
each, contexts as :mod:`rulepress.games.messages` makes them), so what this
reports changed is exactly what a translator has to look at again.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from rulepress.editions.facts import FactNames, fact_changes, stated_facts
from rulepress.editions.model import (
    CellChange,
    ChangelogEntry,
    Edition,
    ExampleChange,
    OrderChange,
    OrderItem,
    Owner,
    ParameterChange,
    RuleChange,
    RulingChange,
    Text,
    TextChange,
)
from rulepress.games import Message, messages_in
from rulepress.model import Rule, Spec, Step
from rulepress.model.spec_model import every_number
from rulepress.scoring.components import table_values
from rulepress.yamlsrc import DataPath


class Messages:
    """A spec's messages by context, and the context of the text at a data path."""

    def __init__(self, spec: Spec) -> None:
        found = [m for m, _ in messages_in(spec.model_dump())]
        self.by_context: dict[str, Message] = {m.context: m for m in found}
        self.by_path: dict[DataPath, str] = {}
        for message in found:
            self.by_path.setdefault(message.path, message.context.split("#")[0])

    def text(self, path: DataPath, english: str) -> Text:
        """``english`` with the context it is translated under (none: not a message)."""
        return Text(context=self.by_path.get(path, ""), text=english)

    def under(self, prefix: str) -> dict[str, str]:
        """The texts of the messages of one part (``rules/16.4/``), by the rest of the context.

        A text of one paragraph is ``text``, as its first paragraph ``text#1``
        is when it has more, so a paragraph added to it is one new message.
        """
        out = {}
        for context, message in self.by_context.items():
            if context.startswith(prefix):
                rest = context[len(prefix) :]
                out[rest if "#" in rest or not rest.endswith("text") else rest + "#1"] = (
                    message.text
                )
        return out


def text_changes(old: dict[str, str], new: dict[str, str], prefix: str = "") -> list[TextChange]:
    """Messages added, removed or whose English differs, in the new order then the old."""
    keys = list(dict.fromkeys([*new, *old]))
    return [
        TextChange(context=prefix + k, old=old.get(k), new=new.get(k))
        for k in keys
        if old.get(k) != new.get(k)
    ]


def _rules(spec: Spec) -> Iterator[tuple[Rule, DataPath]]:
    def visit(rules: list[Rule], path: DataPath) -> Iterator[tuple[Rule, DataPath]]:
        for i, rule in enumerate(rules):
            yield rule, (*path, i)
            yield from visit(rule.rules, (*path, i, "rules"))

    yield from visit(spec.rules, ("rules",))


def _number_key(number: str | None) -> tuple[int, ...]:
    return tuple(int(p) for p in (number or "0").split("."))


def compare_rules(old: Spec, new: Spec, om: Messages, nm: Messages) -> list[RuleChange]:
    """Rules added, removed, renumbered (matched by id) and changed, in rule-number order."""
    olds, news = list(_rules(old)), list(_rules(new))
    pairs: list[tuple[tuple[Rule, DataPath] | None, tuple[Rule, DataPath] | None]] = []
    new_by_id = {r.id: (r, p) for r, p in news if r.id}
    matched_old: set[str] = set()
    matched_new: set[str] = set()
    for rule, path in olds:
        if rule.id and rule.id in new_by_id:
            other = new_by_id[rule.id]
            pairs.append(((rule, path), other))
            matched_old.add(rule.number)
            matched_new.add(other[0].number)
    new_by_number = {r.number: (r, p) for r, p in news if r.number not in matched_new}
    for rule, path in olds:
        if rule.number in matched_old:
            continue
        other_rule = new_by_number.pop(rule.number, None)
        # two rules with different ids under one number are two rules
        if other_rule is not None and rule.id and other_rule[0].id and rule.id != other_rule[0].id:
            pairs.append(((rule, path), None))
            pairs.append((None, other_rule))
            continue
        pairs.append(((rule, path), other_rule))
    pairs.extend((None, other) for other in new_by_number.values())
    out = []
    for before, after in pairs:
        ob = om.under(f"rules/{before[0].number}/") if before else {}
        na = nm.under(f"rules/{after[0].number}/") if after else {}
        texts = text_changes(ob, na)
        if before is None:
            assert after is not None
            kind = "added"
        elif after is None:
            kind = "removed"
        elif before[0].number != after[0].number:
            kind = "renumbered"
        elif texts:
            kind = "changed"
        else:
            continue
        rule, path = after or before  # type: ignore[misc]
        out.append(
            RuleChange(
                kind=kind,
                id=rule.id,
                old_number=before[0].number if before else None,
                new_number=after[0].number if after else None,
                title=(nm if after else om).text((*path, "title"), rule.title),
                texts=texts,
            )
        )
    out.sort(key=lambda c: _number_key(c.new_number or c.old_number))
    return out


def compare_parameters(old: Spec, new: Spec, om: Messages, nm: Messages) -> list[ParameterChange]:
    out = []
    # a parameter map's numbers are compared member by member (``first.docks``)
    olds, news = every_number(old.parameters), every_number(new.parameters)
    for key in dict.fromkeys([*news, *olds]):
        before, after = olds.get(key), news.get(key)
        if before == after:
            continue
        name = key.split(".")[0]
        shown, messages = (
            (new.parameters[name], nm) if name in new.parameters else (old.parameters[name], om)
        )
        out.append(
            ParameterChange(
                name=key,
                description=messages.text(("parameters", name, "description"), shown.description),
                rule=shown.rule,
                old=before,
                new=after,
            )
        )
    return out


def compare_tables(old: Spec, new: Spec, om: Messages, nm: Messages) -> list[CellChange]:
    """Runs of keys whose looked-up value changed, however the rows were split or joined."""
    out = []
    old_tables = {t.id: t for t in old.tables}
    for index, table in enumerate(new.tables):
        before_table = old_tables.get(table.id)
        if before_table is None:
            continue  # a new table is cited by the rules that use it
        before = table_values(before_table, old.parameters)
        after = table_values(table, new.parameters)
        if table.keys is not None or before_table.keys is not None:
            # keyed by a set's members: each changed member is a change of its own
            for member in dict.fromkeys([*after, *before]):
                pair = (before.get(member), after.get(member))
                if pair[0] != pair[1]:
                    out.append(_cells(table.id, index, table, nm, [(member, *pair)]))
            continue
        run: list[tuple[int, int | None, int | None]] = []
        for key in sorted(k for k in set(before) | set(after) if isinstance(k, int)):
            pair = (before.get(key), after.get(key))
            if pair[0] == pair[1]:
                continue
            if run and run[-1][0] + 1 == key and run[-1][1:] == pair:
                run.append((key, *pair))
                continue
            if run:
                out.append(_cells(table.id, index, table, nm, run))
            run = [(key, *pair)]
        if run:
            out.append(_cells(table.id, index, table, nm, run))
    return out


def _cells(
    table_id: str, index: int, table: Any, nm: Messages, run: Sequence[tuple[int | str, Any, Any]]
) -> CellChange:
    base: DataPath = ("tables", index)
    return CellChange(
        table=table_id,
        title=nm.text((*base, "title"), table.title),
        rule=table.rule,
        key_label=nm.text((*base, "key_label"), table.key_label),
        value_label=nm.text((*base, "value_label"), table.value_label),
        keys=(run[0][0], run[-1][0]),
        old=run[0][1],
        new=run[0][2],
    )


def _step_paths(steps: list[Step], path: DataPath) -> Iterator[tuple[Step, DataPath]]:
    for i, step in enumerate(steps):
        yield step, (*path, i)
        yield from _step_paths(step.steps, (*path, i, "steps"))


def _step_key(step: Step) -> str:
    """What a step is across editions, whatever its number: what it scores, else its title."""
    if step.score is not None:
        return f"score:{step.score.id}"
    if step.tally is not None:
        return f"tally:{step.tally.id}"
    if step.winners is not None:
        return "winners"
    return f"title:{step.title}"


def compare_orders(old: Spec, new: Spec, om: Messages, nm: Messages) -> list[OrderChange]:
    """Steps whose order changed, and tie-break criteria reordered, added or removed."""
    out = []
    old_seqs = {(s.id): (i, s) for i, s in enumerate(old.sequences)}
    for n_index, seq in enumerate(new.sequences):
        if seq.id not in old_seqs:
            continue
        o_index, before = old_seqs[seq.id]
        o_steps = list(_step_paths(before.steps, ("sequences", o_index, "steps")))
        n_steps = list(_step_paths(seq.steps, ("sequences", n_index, "steps")))
        common = {_step_key(s) for s, _ in o_steps} & {_step_key(s) for s, _ in n_steps}
        o_order = [(s, p) for s, p in o_steps if _step_key(s) in common]
        n_order = [(s, p) for s, p in n_steps if _step_key(s) in common]
        if [_step_key(s) for s, _ in o_order] != [_step_key(s) for s, _ in n_order]:
            out.append(
                OrderChange(
                    kind="steps",
                    sequence=seq.id,
                    title=nm.text(("sequences", n_index, "title"), seq.title),
                    old=[_item(om, s.number, (*p, "title"), s.title) for s, p in o_order],
                    new=[_item(nm, s.number, (*p, "title"), s.title) for s, p in n_order],
                )
            )
        o_win = next(((s, p) for s, p in o_steps if s.winners), None)
        n_win = next(((s, p) for s, p in n_steps if s.winners), None)
        if o_win is None or n_win is None:
            continue
        assert o_win[0].winners is not None
        assert n_win[0].winners is not None
        o_crit, n_crit = o_win[0].winners.criteria, n_win[0].winners.criteria
        if [c.id for c in o_crit] != [c.id for c in n_crit]:
            crit = ("winners", "criteria")
            out.append(
                OrderChange(
                    kind="criteria",
                    sequence=seq.id,
                    title=nm.text((*n_win[1], "title"), n_win[0].title),
                    old=[
                        _item(om, c.id, (*o_win[1], *crit, i, "label"), c.label)
                        for i, c in enumerate(o_crit)
                    ],
                    new=[
                        _item(nm, c.id, (*n_win[1], *crit, i, "label"), c.label)
                        for i, c in enumerate(n_crit)
                    ],
                )
            )
    return out


def _item(messages: Messages, key: str, path: DataPath, title: str) -> OrderItem:
    return OrderItem(key=key, title=messages.text(path, title))


Indexed = tuple[int, Any]


def paired(
    old: list[Any], new: list[Any]
) -> Iterator[tuple[str, Indexed | None, Indexed | None, Indexed]]:
    """Items of two editions by id, the new order first: (id, old, new, the one shown).

    Each side is the item's index and the item (None: not in that edition); the one
    shown is the new one where there is one.
    """
    before = {item.id: (i, item) for i, item in enumerate(old)}
    after = {item.id: (i, item) for i, item in enumerate(new)}
    for key in dict.fromkeys([*after, *before]):
        o, n = before.get(key), after.get(key)
        shown = n or o
        assert shown is not None
        yield key, o, n, shown


def _kind(before: object, after: object, changed: str) -> str:
    return "added" if before is None else "removed" if after is None else changed


def compare_rulings(old: Spec, new: Spec, om: Messages, nm: Messages) -> list[RulingChange]:
    out = []

    def default(messages: Messages, index: int, ruling: Any) -> Text:
        for j, option in enumerate(ruling.options):
            if option.id == ruling.default:
                return messages.text(("rulings", index, "options", j, "title"), option.title)
        return Text(context="", text=ruling.default)

    for rid, before, after, (index, ruling) in paired(old.rulings, new.rulings):
        if before and after and before[1].default == after[1].default:
            continue
        messages = nm if after else om
        out.append(
            RulingChange(
                kind=_kind(before, after, "default"),
                id=rid,
                title=messages.text(("rulings", index, "title"), ruling.title),
                old_default=default(om, *before) if before else None,
                new_default=default(nm, *after) if after else None,
            )
        )
    return out


def compare_examples(old: Spec, new: Spec, om: Messages, nm: Messages) -> list[ExampleChange]:
    out = []
    names = FactNames(new, nm.by_path)
    for eid, before, after, (index, example) in paired(old.examples, new.examples):
        stated = fact_changes(
            stated_facts(before[1]) if before else {},
            stated_facts(after[1]) if after else {},
            names,
        )
        if before and after and not stated:
            continue
        kind = _kind(before, after, "stated")
        messages = nm if after else om
        out.append(
            ExampleChange(
                kind=kind,
                id=eid,
                title=messages.text(("examples", index, "title"), example.title),
                stated=stated if kind == "stated" else [],
            )
        )
    return out


def compare_changelog(old: Spec, new: Spec, nm: Messages) -> list[ChangelogEntry]:
    """The new edition's changelog lines that the old edition does not have."""
    known = {c.id for c in old.game.changelog}
    by_id = {rule.id: rule.number for rule, _ in _rules(new) if rule.id}
    return [
        ChangelogEntry(
            id=c.id,
            version=c.version,
            text=nm.text(("game", "changelog", i, "text"), c.text),
            rules=list(c.rules),
            numbers=[by_id.get(r, r) for r in c.rules],
        )
        for i, c in enumerate(new.game.changelog)
        if c.id not in known
    ]


def compare_texts(om: Messages, nm: Messages, apart: tuple[str, ...] = ()) -> list[TextChange]:
    """Every other message whose English changed.

    Rules and the changelog are reported apart, and so are the messages under
    the contexts ``apart`` (examples and rulings added or removed, which are
    reported by id).
    """
    skip = ("rules/", "game/changelog/", *apart)

    def rest(messages: Messages) -> dict[str, str]:
        return {c: m.text for c, m in messages.by_context.items() if not c.startswith(skip)}

    return [
        change.model_copy(update={"owner": owner(change.context, nm, om)})
        for change in text_changes(rest(om), rest(nm))
    ]


#: the items a text of a context belongs to, each by the context of its title: a
#: pattern of the context's leading parts (``*``: any one part) and the title's part
_OWNERS: tuple[tuple[tuple[str, ...], str], ...] = (
    (("rulings", "*"), "title"),
    (("rulings", "*", "options", "*"), "title"),
    (("sequences", "*"), "title"),
    (("sequences", "*", "steps", "*"), "title"),
    (("glossary", "*"), "term"),
    (("examples", "*"), "title"),
    (("not_in_source", "*"), "title"),
    (("tables", "*"), "title"),
    (("external_rules", "*"), "title"),
    (("sources", "*"), "title"),
)


def owner(context: str, nm: Messages, om: Messages) -> list[Owner]:
    """The titles of what the text of ``context`` belongs to, outermost first.

    Each title is the new edition's where it has the item, else the old one's
    (an item that is gone). A step is named by its number and title, as
    the sequences page names it.
    """
    parts = context.split("/")
    out = []
    for pattern, title_part in _OWNERS:
        if len(parts) <= len(pattern) or not all(
            p in ("*", part) for p, part in zip(pattern, parts, strict=False)
        ):
            continue
        title = "/".join([*parts[: len(pattern)], title_part])
        found = nm.by_context.get(title) or om.by_context.get(title)
        if found is None:
            continue
        number = parts[len(pattern) - 1] if pattern[-2:] == ("steps", "*") else ""
        out.append(Owner(title=Text(context=title, text=found.text), number=number))
    return out


def edition(spec: Spec, source: str) -> Edition:
    return Edition(
        source=source, version=spec.game.version, edition=spec.game.edition, date=spec.game.date
    )
