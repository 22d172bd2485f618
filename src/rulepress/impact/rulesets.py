"""A rule set: one edition of a game and the ruling options chosen for it.

A rule set is named, not held: workers (other processes, other machines
through Dask) receive the name and load the spec themselves, once per
process. A loaded spec holds compiled closures and cannot be pickled, and
a name costs nothing to send.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from rulepress.editions.sources import read_edition
from rulepress.games import load_spec
from rulepress.model import LoadedSpec
from rulepress.scoring.engine import resolve_variants


@dataclass(frozen=True)
class RuleSet:
    """``game_dir``'s spec as it is (``edition`` None) or as an earlier edition, and options.

    ``edition`` is what ``--since`` takes: a folder holding the game, or a
    git revision of the repository the game lies in.
    """

    game_dir: str
    edition: str | None = None
    variants: tuple[str, ...] = ()


@lru_cache(maxsize=8)
def load_rule_set_spec(game_dir: str, edition: str | None) -> LoadedSpec:
    """The spec of one edition, loaded once per process (worked examples with problems left out)."""
    if edition is None:
        return load_spec(Path(game_dir), isolate_examples=True)
    # the edition's files are unpacked into a temporary folder only while it loads: the
    # loaded spec holds everything scoring needs
    with read_edition(edition, Path(game_dir)) as (loaded, _):
        return loaded


def chosen_options(rules: RuleSet) -> dict[str, str]:
    """Ruling id → option id, as the rule set scores (unknown variants: a UsageError)."""
    spec = load_rule_set_spec(rules.game_dir, rules.edition).spec
    return resolve_variants(spec, list(rules.variants))
