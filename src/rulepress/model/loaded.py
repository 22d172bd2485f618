"""A validated spec together with the source position of every value in it."""

# annotations are objects, not postponed strings: see rulepress.render.tree
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import NamedTuple

from rulepress.errors import Location, Problem
from rulepress.model.spec_model import Spec
from rulepress.yamlsrc import DataPath, SourceMap

#: no broken examples (read-only: the default of every LoadedSpec)
NO_BROKEN: Mapping[str, tuple[Problem, ...]] = MappingProxyType({})


class LoadedSpec(NamedTuple):
    """A validated spec with the source positions of every value in it.

    ``broken_examples``: worked examples left out of ``spec`` because of
    their own problems, by id (loaded with ``isolate_examples``; else empty).
    A NamedTuple, read by attribute: a frozen dataclass's methods were compiled
    each time a command imported this module.
    """

    spec: Spec
    sources: SourceMap
    directory: Path
    broken_examples: Mapping[str, tuple[Problem, ...]] = NO_BROKEN

    def locate(self, path: DataPath, *, key: bool = False) -> Location:
        return self.sources.locate(path, key=key)
