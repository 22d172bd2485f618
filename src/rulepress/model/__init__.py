"""The typed, frozen model of a game's rules spec, and the parts it is made of.

Plain data (from :mod:`rulepress.yamlsrc`) → :class:`Spec` (:mod:`.spec_model`),
kept with its sources as a :class:`LoadedSpec`. The parts: rule text and its
inline markup (:mod:`.text`), named sets, declared expressions, languages,
provenance, and the operations plugins add (:mod:`.operations`).
"""

from rulepress.model.languages import SOURCE_LANGUAGE, all_languages, game_languages, translations
from rulepress.model.loaded import LoadedSpec
from rulepress.model.provenance import Provenance
from rulepress.model.spec_model import ExprText, Rule, Sequence, Spec, Step, Text

__all__ = [
    "SOURCE_LANGUAGE",
    "ExprText",
    "LoadedSpec",
    "Provenance",
    "Rule",
    "Sequence",
    "Spec",
    "Step",
    "Text",
    "all_languages",
    "game_languages",
    "translations",
]
