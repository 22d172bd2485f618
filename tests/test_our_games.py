"""Editorial rules for the games this repository publishes, not rules of rulepress.

rulepress takes any game whose spec validates (a new game needs one worked
example, and lists the languages it is published in). The two games shipped
in ``rules_spec/`` are held to the editors' own standard on top of that.
"""

from __future__ import annotations

import pytest

from tests.conftest import GAMES, loaded

#: The one list of game names in the tests: the games whose editorial rules these
#: are. Every other test parametrizes over the games found in rules_spec/ (GAMES).
OUR_GAMES = ("brink", "stationfall")


@pytest.mark.parametrize("game", OUR_GAMES)
def test_our_games_have_at_least_ten_worked_examples(game: str) -> None:
    assert game in GAMES, f"{game} is no longer in rules_spec/: update OUR_GAMES"
    assert len(loaded(game).spec.examples) >= 10


def test_brinks_rulings_quote_the_rulebook_and_its_audit_is_up_to_date() -> None:
    """Each Brink ruling weighs the rulebook's own words, and nothing is due for audit.

    The record of the audit (audit.yaml) names every entry as it was read and every
    reading of the rulebook a ruling must offer: an entry changed since, or a ruling
    that drops a reading's option, is a finding.
    """
    from rulepress.games.provenance_report import audit_report

    spec = loaded("brink").spec
    assert [r.id for r in spec.rulings if not r.says] == []
    assert audit_report(spec)["findings"] == []
