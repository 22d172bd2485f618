"""A validated spec together with the source position of every value in it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from rulepress.errors import Location, Problem
from rulepress.model.spec_model import Spec
from rulepress.yamlsrc import DataPath, SourceMap


@dataclass(frozen=True)
class LoadedSpec:
    """A validated spec with the source positions of every value in it.

    ``broken_examples``: worked examples left out of ``spec`` because of
    their own problems, by id (loaded with ``isolate_examples``; else empty).
    """

    spec: Spec
    sources: SourceMap
    directory: Path
    broken_examples: Mapping[str, tuple[Problem, ...]] = field(default_factory=dict)

    def locate(self, path: DataPath, *, key: bool = False) -> Location:
        return self.sources.locate(path, key=key)
