"""Spec and state files read safely, every value with the place it came from.

YAML text → plain data + a :class:`SourceMap` (:mod:`.reader`); a game's folder
and its files (:mod:`.folders`, :mod:`.contents`); pydantic's errors as located
problems (:mod:`.pydantic_errors`).
"""

from rulepress.errors import DataPath
from rulepress.yamlsrc.contents import content_problems
from rulepress.yamlsrc.folders import GAME_FILE, display_path, find_game_dirs, spec_files
from rulepress.yamlsrc.pydantic_errors import pydantic_problems
from rulepress.yamlsrc.reader import (
    SourceMap,
    YamlError,
    format_path,
    load_yaml_file,
    load_yaml_text,
)

__all__ = [
    "GAME_FILE",
    "DataPath",
    "SourceMap",
    "YamlError",
    "content_problems",
    "display_path",
    "find_game_dirs",
    "format_path",
    "load_yaml_file",
    "load_yaml_text",
    "pydantic_problems",
    "spec_files",
]
