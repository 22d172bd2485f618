"""A validated spec together with the source position of every value in it."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rulepress.errors import Location
from rulepress.spec.model import Spec
from rulepress.spec.yamlsrc import DataPath, SourceMap


@dataclass(frozen=True)
class LoadedSpec:
    """A validated spec with the source positions of every value in it."""

    spec: Spec
    sources: SourceMap
    directory: Path

    def locate(self, path: DataPath, *, key: bool = False) -> Location:
        return self.sources.locate(path, key=key)
