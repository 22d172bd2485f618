"""The edition a spec follows (``game.previous_edition``): a git revision or a folder.

A game records the edition it was last published as, so that the default
build (``rulepress build``) makes its page "Changes in this edition" and its
errata sheet without being told (``--since`` still names another for one
build). The model checks the syntax only, as it holds no I/O: which commit a
revision names, and whether a folder is there, is
:mod:`rulepress.editions.previous`'s to find out.

* ``revision``: a tag, branch or commit of the repository the spec lies in,
  by a name that stays put: ``~``, ``^``, ``@{…}`` and ``:`` (relative and
  path revisions, which name another commit after every commit) are refused,
  and so is a name git would read as an option.
* ``folder``: a folder holding that edition's spec, relative to the game's
  folder (the one holding ``game.yaml``), never above the folder that holds
  the specs' folder (``../../``): a spec comes from other people, and may
  not make a build read and publish files from elsewhere on the machine.
"""

from __future__ import annotations

import posixpath
import re
from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, model_validator

from rulepress.lazy_pattern import LazyPattern

#: a ref name or a commit: letters, digits, ``.``, ``_``, ``-`` and ``/`` between words
_REVISION_RE = LazyPattern(r"^[A-Za-z0-9](?:[A-Za-z0-9._/-]{0,198}[A-Za-z0-9_])?$")
#: how far above the game's folder a folder may lie: the project holding ``rules_spec/``
MAX_UP = 2


def _revision(value: str) -> str:
    if not _REVISION_RE.match(value) or ".." in value or "//" in value:
        raise ValueError(
            f"{value!r} is not a tag, branch or commit (letters, digits, '.', '_', '-' and '/';"
            " a revision that moves with each commit, such as HEAD~1, names no edition)"
        )
    if value == "HEAD":
        raise ValueError("HEAD is the current commit, not an earlier edition")
    return value


def _folder(value: str) -> str:
    if (
        not value.strip()
        or "\\" in value
        or value.startswith("/")
        or re.match(r"^[A-Za-z]:", value)
    ):
        raise ValueError(
            f"{value!r} is not a folder relative to the game's folder, written with '/'"
        )
    parts = posixpath.normpath(value).split("/")
    if parts.count("..") > MAX_UP:
        raise ValueError(
            f"{value!r} lies outside the project: a folder may go up to the folder"
            f" holding the specs' folder ({'../' * MAX_UP}), no further"
        )
    return value


class PreviousEdition(BaseModel):
    """The edition this one follows, which the changes page and the errata sheet compare with.

    Exactly one of `revision` and `folder`. A revision that cannot be read where
    the build runs (no git, a copy without history, a shallow clone) leaves the
    game without those two outputs, and the build says why; a folder that is not
    there is an error of the spec.
    """

    # as rulepress.model.spec_model.Model: unknown keys are errors, instances immutable;
    # the fields' docstrings are their descriptions (read when shown: model.field_docs), and
    # the validator is built when first used (defer_build), not on import
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, defer_build=True)

    revision: Annotated[str, AfterValidator(_revision)] | None = None
    """A git tag, branch or commit of the repository the spec lies in (`v2026.11`)."""
    folder: Annotated[str, AfterValidator(_folder)] | None = None
    """A folder holding that edition's spec (the game's own folder, one holding `<game>/`, or a
    project with `rules_spec/<game>/`), relative to the game's folder (`../../editions/2026.11`)."""

    @model_validator(mode="after")
    def _one_of_them(self) -> PreviousEdition:
        if (self.revision is None) == (self.folder is None):
            raise ValueError("give either a revision or a folder (one of the two)")
        return self
