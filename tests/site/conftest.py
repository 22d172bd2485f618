"""A real site build (Sphinx, all languages, doctests), made once per test session."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulepress.sphinx_ext.build import SiteBuild
from tests.conftest import ROOT


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> SiteBuild:
    out = tmp_path_factory.mktemp("site")
    build = SiteBuild(ROOT, ROOT / "rules_spec", ROOT / "locales", out, docs=ROOT / "docs")
    build.build(doctest=True)
    return build


def page(site: SiteBuild, lang: str, game: str, name: str) -> str:
    return (site.out / lang / game / f"{name}.html").read_text(encoding="utf-8")


def out_dir(site: SiteBuild) -> Path:
    return site.out
