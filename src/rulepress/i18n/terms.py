"""Finding the glossary and approved renderings that QA checks a catalog against."""

from __future__ import annotations

from pathlib import Path

from rulepress.errors import RulepressError
from rulepress.i18n.qa import Terms
from rulepress.spec.load import load_spec


def terms_for(spec_root: Path, domain: str, lang: str) -> tuple[Terms, str]:
    """The terms of ``domain`` in ``lang``, and a note when they cannot be had."""
    directory = spec_root / domain
    if not (directory / "game.yaml").is_file():
        return Terms.empty(), ""  # the interface domain has no glossary
    try:
        spec = load_spec(directory).spec
    except RulepressError as exc:
        return (
            Terms.empty(),
            f"{domain}: the spec does not load, glossary terms not checked ({exc.summary})",
        )
    termbase = spec.termbase.get(lang, {})  # type: ignore[call-overload]
    missing = [t.id for t in spec.glossary if t.id not in termbase]
    note = (
        f"{domain}: the {lang} termbase lacks {len(missing)} term(s): {', '.join(missing[:5])}"
        if missing
        else ""
    )
    # a term spelled like the game's own title (Stationfall) is mostly the game's name:
    # its mentions are not checked, its links still are
    glossary = [t for t in spec.glossary if t.term != spec.game.title]
    linked_only = Terms.of(spec.glossary, termbase)
    return Terms(Terms.of(glossary, termbase).english, linked_only.approved), note
