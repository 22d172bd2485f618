"""The optional compiled build: mypyc compiles the scorer's hot path where it can.

pyproject.toml describes the package; this file only adds the extension modules.
They are built when mypy (which brings mypyc) can be imported while building and a
C compiler is found: the development install does so (tools/setup.sh installs the
package again with ``--no-build-isolation``, once mypy is in the venv). Otherwise
(``pip install rulepress``, ``pip wheel .``: an isolated build has setuptools only,
or there is no compiler) the package is pure Python and scores the same.
``RULEPRESS_PURE=1`` asks for pure Python. See rulepress.compiled.
"""

from __future__ import annotations

import json
import os
import runpy
import shutil
import sysconfig
from pathlib import Path
from typing import Any

from setuptools import setup

ROOT = Path(__file__).resolve().parent
SRC = ROOT / "src"
# read from the file, not imported: the package's dependencies may not be installed yet
COMPILED = runpy.run_path(str(SRC / "rulepress" / "compiled.py"))
#: the hot modules compiled into the state check's shared library
CHECK_GROUP = ("rulepress.states.", "rulepress.expressions.records")


def _compiler_found() -> bool:
    """A C compiler and Python's headers, which an extension is built with."""
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    return shutil.which(cc.split()[0]) is not None and headers.is_file()


def _remove_compiled() -> None:
    """The modules an earlier editable build compiled in place (src/), before a new build."""
    for path in [*SRC.glob("*__mypyc*.so"), *SRC.joinpath("rulepress").rglob("*.so")]:
        path.unlink()
    SRC.joinpath("rulepress", COMPILED["SOURCES_FILE"]).unlink(missing_ok=True)


def _extensions() -> list[Any]:
    if os.environ.get("RULEPRESS_PURE"):
        _remove_compiled()
        return []
    if not _compiler_found():
        return []
    try:
        from mypyc.build import mypycify  # noqa: PLC0415 (there only where mypy is)
    except ImportError:  # an isolated build: setuptools only
        return []
    paths = {
        name: SRC.joinpath(*name.split(".")).with_suffix(".py") for name in COMPILED["HOT_MODULES"]
    }
    # a module compiled before and left out since must not shadow its source
    _remove_compiled()
    # which sources the extensions are of, so that a stale build is found (compiled.stale)
    hashes = {name: COMPILED["source_hash"](path) for name, path in paths.items()}
    record = SRC / "rulepress" / COMPILED["SOURCES_FILE"]
    record.write_text(json.dumps(hashes, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    # Two shared libraries (groups), named inside the package's name: the state check with
    # the records it makes, and the rest. mypyc writes each group as one C file, and the
    # C compiler builds the two side by side (build_ext's parallel jobs, in setup() below):
    # the compiled install took 38 s instead of 52 on two cores. Calls between the groups
    # cost little: callgrind of a check and a lean score of a nine-player Stationfall
    # state, 1.641 M instructions with one group, 1.647 M with two.
    files = {name: str(path.relative_to(ROOT)) for name, path in paths.items()}
    check = [f for n, f in files.items() if n.startswith(CHECK_GROUP)]
    groups = [
        (check, "rulepress_hot_check"),
        ([f for f in files.values() if f not in check], "rulepress_hot"),
    ]
    extensions = mypycify(list(files.values()), separate=groups)
    # Python's own flags ask for -Wall: for the one C file of a single group (12 MB) the
    # analyses behind its warnings took GCC 49 s of a 67 s build, 32 s without them, and
    # the object code is the same. The C is mypyc's, not ours to mend on a warning.
    if sysconfig.get_platform().startswith(("linux", "macosx")):  # GCC and Clang: not MSVC
        for extension in extensions:
            extension.extra_compile_args.append("-Wno-all")
    return extensions


setup(ext_modules=_extensions(), options={"build_ext": {"parallel": os.cpu_count() or 1}})
