"""The key of a kept file changes with rulepress's code (rulepress.cache_files.code_digest).

The code counts by each module's name, size and modification time, as Python's
bytecode cache does: an edited, added, removed or renamed module is a new key.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from rulepress import cache_files


@pytest.fixture
def digest(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[], str]]:
    """The code digest of a package of two modules in ``tmp_path``, worked out afresh."""
    (tmp_path / "sub").mkdir()
    (tmp_path / "a.py").write_text("A = 1\n")
    (tmp_path / "sub" / "b.py").write_text("B = 2\n")
    monkeypatch.setattr(cache_files, "PACKAGE", tmp_path)

    def worked_out() -> str:
        cache_files.code_digest.cache_clear()
        return cache_files.code_digest()

    yield worked_out
    cache_files.code_digest.cache_clear()


def test_the_same_code_gives_the_same_digest(digest: Callable[[], str]) -> None:
    assert digest() == digest()


def test_an_edited_module_is_new_code(digest: Callable[[], str], tmp_path: Path) -> None:
    before = digest()
    module = tmp_path / "sub" / "b.py"
    module.write_text("B = 22\n")  # another size
    longer = digest()
    assert longer != before
    info = module.stat()
    module.write_text("B = 33\n")  # the same size, written at another time
    os.utime(module, ns=(info.st_atime_ns, info.st_mtime_ns + 1_000_000))
    assert digest() not in (before, longer)


def test_an_added_removed_or_renamed_module_is_new_code(
    digest: Callable[[], str], tmp_path: Path
) -> None:
    before = digest()
    (tmp_path / "c.py").write_text("")
    added = digest()
    (tmp_path / "c.py").unlink()
    assert digest() == before
    (tmp_path / "sub" / "b.py").rename(tmp_path / "sub" / "c.py")
    assert digest() not in (before, added)
