"""Extracting messages: a Babel extractor for spec files, and the domain templates.

Translators can run plain Babel on the specs, with a mapping file such as::

    # babel.cfg
    [rulepress: rules_spec/stationfall/*.yaml]

    pybabel extract -F babel.cfg -o stationfall.pot .

(the ``rulepress`` method is registered under the ``babel.extractors``
entry point). ``rulepress i18n extract`` produces the same templates for
every game, in ``locales/<domain>.pot``, and for the interface and the site
theme; its game templates also say where readers meet each message and its
length budget in print (:mod:`rulepress.print.budget_check`), which plain
Babel, reading one file at a time, cannot know. Those two are rulepress's own: their templates always come from the
installed package's source, never from a project's, and they are kept inside
the package (``rulepress/locales/``, see :mod:`rulepress.i18n.workflow`).

The theme domain holds every word of the rulepress Sphinx theme: the
``_("…")`` calls in its Jinja2 templates (read with Jinja2's own Babel
extractor) and the few words Sphinx itself writes into every page that its
Czech and Japanese catalogs lack (marked with ``sphinx_text`` in
``rulepress/sphinx_ext/theme/__init__.py``). The site build compiles it into
each project as Sphinx's own catalog.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import IO, Any

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir, extract_from_file
from pydantic import TypeAdapter, ValidationError

import rulepress
from rulepress import __version__, cache_files
from rulepress.games import messages_in
from rulepress.i18n.catalog_shapes import catalog_msgid, set_flags
from rulepress.i18n.catalogs import INTERFACE, THEME
from rulepress.yamlsrc import GAME_FILE, YamlError, find_game_dirs, load_yaml_file, load_yaml_text

__all__ = ["INTERFACE", "THEME", "all_templates", "extract_spec", "spec_template"]

#: what adds to a game's template where readers meet each message, given its folder
Places = Callable[[Catalog, Path], None]

#: the installed package's source, where the interface's and the theme's messages are
PACKAGE_DIR = Path(rulepress.__file__).resolve().parent
#: how interface sentences are marked in the Python sources
INTERFACE_KEYWORDS: dict[str, Any] = {"ui": ((1, "c"), 2), "ui_plural": ((1, "c"), 2, 3)}
#: a spec message with one count is a plural entry (see rulepress.i18n.catalog_shapes)
SPEC_KEYWORDS: dict[str, Any] = {"pgettext": ((1, "c"), 2), "npgettext": ((1, "c"), 2, 3)}
EXTRACTOR = "rulepress.i18n.extract:extract_spec"
#: where the theme's templates and its list of Sphinx's words live, inside the package
THEME_DIR = PACKAGE_DIR / "sphinx_ext" / "theme"
JINJA_EXTRACTOR = "jinja2.ext:babel_extract"


def _sibling_parameters(filename: str) -> dict[str, int]:
    """The parameters of the spec a file belongs to, to explain placeholders to translators."""
    path = Path(filename).with_name("parameters.yaml")
    try:
        data, _ = load_yaml_file(path)
    except (YamlError, OSError):
        return {}
    params = data.get("parameters") if isinstance(data, dict) else None
    if not isinstance(params, dict):
        # left empty, or not a mapping: the loader reports it, located, after extraction
        return {}
    out: dict[str, int] = {}
    for name, p in params.items():
        value = p.get("value") if isinstance(p, dict) else None
        if isinstance(value, int):
            out[name] = value
        elif isinstance(value, dict):  # a parameter map: text names each number by member
            out.update({f"{name}.{m}": n for m, n in value.items() if isinstance(n, int)})
    return out


#: the sections that tell which values of an example's table state are translated; a
#: field whose choices name a set (``sets.<name>``) is read only with the sets and words
#: of game.yaml, or the field (and every text inside it) is missed
_FORMAT_SECTIONS = ("sequences", "scorer", "table_states", "field_types", "sets", "vocabulary")


def _sibling_formats(filename: str) -> dict[str, Any]:
    """The state-format sections of the game a file belongs to (from its sibling files)."""
    out: dict[str, Any] = {}
    path = Path(filename)
    for sibling in sorted(path.parent.glob("*.yaml")):
        if sibling.name == path.name:
            continue
        try:
            data, _ = load_yaml_file(sibling)
        except (YamlError, OSError):
            continue
        if isinstance(data, dict):
            out.update({k: data[k] for k in _FORMAT_SECTIONS if k in data})
    return out


def extract_spec(
    fileobj: IO[bytes],
    keywords: Mapping[str, Any],
    comment_tags: list[str],
    options: Mapping[str, Any],
) -> Iterator[tuple[int, str, tuple[str, ...], list[str]]]:
    """Babel extractor: every prose message of one spec file, with its msgctxt.

    A message with one count comes as a plural (``npgettext``), one with
    several as ICU MessageFormat (plain Babel cannot flag it
    ``icu-message-format``; ``rulepress i18n extract`` does).

    A file that cannot be read yields nothing (``rulepress validate`` reports
    it, located); extraction must not crash on a translator's machine.
    """
    del keywords, comment_tags, options
    name = getattr(fileobj, "name", "<spec>")
    try:
        data, sources = load_yaml_text(fileobj.read().decode("utf-8"), str(name))
    except (YamlError, UnicodeDecodeError):
        return
    if not isinstance(data, dict):
        return
    params = _sibling_parameters(str(name))
    for message, line in messages_in(
        data, sources, params, _sibling_formats(str(name)) if "examples" in data else None
    ):
        msgid = catalog_msgid(message.text)
        if isinstance(msgid, tuple):
            yield line, "npgettext", (message.context, *msgid), list(message.comments)
        else:
            yield line, "pgettext", (message.context, msgid), list(message.comments)


def _new_catalog(domain: str) -> Catalog:
    return Catalog(
        project=f"rulepress {domain}",
        version=__version__,
        msgid_bugs_address="",
        copyright_holder="rulepress",
        charset="utf-8",
        fuzzy=False,
    )


def _fill(catalog: Catalog, found: Any, *, lines: bool = True) -> Catalog:
    for filename, lineno, message, comments, context in found:
        catalog.add(
            message,
            None,
            # line 0: Babel writes the file alone (see interface_template)
            [(filename.replace(os.sep, "/"), lineno if lines else 0)],
            auto_comments=comments,
            context=context,
        )
    return catalog


def spec_template(root: Path, game_dir: Path, *, places: Places | None = None) -> Catalog:
    """The template of one game's domain, with locations relative to ``root``.

    With ``places`` (:func:`rulepress.print.budget_check.add_places`), each
    message's comments say where readers meet it; the spec must then be valid.
    """
    pattern = f"{game_dir.resolve().relative_to(root.resolve()).as_posix()}/*.yaml"
    found = extract_from_dir(
        str(root),
        method_map=[(pattern, EXTRACTOR)],
        keywords=SPEC_KEYWORDS,
        comment_tags=(),
        strip_comment_tags=False,
    )
    catalog = _fill(_new_catalog(game_dir.name), found)
    for message in catalog:
        if message.id:
            set_flags(message)  # ICU where the msgid is ICU; never Python's brace format
    if places is not None:
        # Where readers meet each message (site page and anchor, print file and part,
        # and its length budget there) comes from the writers themselves, a layer above
        # the catalogs: the caller hands that step in (rulepress.print.budget_check's
        # add_places), and plain `pybabel extract` runs without it.
        places(catalog, game_dir)
    return catalog


def _package_base(root: Path) -> Path:
    """What the package's message locations are relative to.

    In rulepress's own repository its root (``src/rulepress/cli.py``, as the
    committed templates have it); anywhere else the folder the package is
    installed in (``rulepress/cli.py``).
    """
    resolved = root.resolve()
    return resolved if PACKAGE_DIR.is_relative_to(resolved) else PACKAGE_DIR.parent


def interface_template(root: Path) -> Catalog:
    """The template of the interface domain, from the ``ui`` markers in the package's source."""
    prefix = PACKAGE_DIR.relative_to(_package_base(root)).as_posix()
    found = [(f"{prefix}/{filename}", *rest) for filename, *rest in _interface_messages()]
    # Files but no line numbers: code moves all the time, and a template that went stale
    # whenever a line above a ui() marker changed would tell translators nothing new
    return _fill(_new_catalog(INTERFACE), found, lines=False)


#: the cache's folder of the interface's messages, and the shape each message is kept in
_CACHED = "interface-messages"
_MESSAGES = TypeAdapter(list[tuple[str, int, str | tuple[str, ...], list[str], str | None]])


def _interface_messages() -> list[tuple[str, int, str | tuple[str, ...], list[str], str | None]]:
    """Every ``ui`` message of the package's source, as Babel's extractor finds it.

    Tokenizing the whole package takes over a second, and the source is the same
    from one command to the next: the messages are kept in the user's cache under
    a key of the source itself (:mod:`rulepress.cache_files`).
    """
    key = cache_files.key(_CACHED)
    data = cache_files.read(_CACHED, "rulepress", key)
    if data is not None:
        with contextlib.suppress(ValidationError):
            return _MESSAGES.validate_json(data)
    found = _MESSAGES.validate_python(
        list(
            extract_from_dir(
                str(PACKAGE_DIR),
                method_map=[("**.py", "python")],
                keywords=INTERFACE_KEYWORDS,
                comment_tags=("TRANSLATORS:",),
                strip_comment_tags=True,
            )
        )
    )
    cache_files.write(_CACHED, "rulepress", key, _MESSAGES.dump_json(found))
    return found


def theme_messages(theme_dir: Path) -> Iterator[tuple[Path, int, str, list[str]]]:
    """(file, line, msgid, comments) of every word of the theme, in a fixed order.

    Templates (``*.html``, Jinja2's extractor, ``_`` calls) and the list of
    Sphinx's own words (``sphinx_text`` calls in ``__init__.py``). No context,
    no plurals: Sphinx looks its words up by msgid alone.
    """
    sources = [(path, JINJA_EXTRACTOR, {"_": None}) for path in sorted(theme_dir.rglob("*.html"))]
    if (theme_dir / "__init__.py").is_file():
        sources.append((theme_dir / "__init__.py", "python", {"sphinx_text": None}))
    for path, method, keywords in sources:
        found = extract_from_file(
            method,
            str(path),
            keywords=keywords,
            comment_tags=("TRANSLATORS:",),
            strip_comment_tags=True,
        )
        for lineno, message, comments, _context in found:
            if isinstance(message, str):
                yield path, lineno, message, list(comments)


def theme_template(root: Path) -> Catalog:
    """The template of the theme domain, from the installed package's theme."""
    base = _package_base(root)
    catalog = _new_catalog(THEME)
    for path, _lineno, message, comments in theme_messages(THEME_DIR):
        location = path.resolve().relative_to(base).as_posix()
        # the template's file, not its line (see interface_template)
        catalog.add(message, None, [(location, 0)], auto_comments=comments)
    return catalog


def all_templates(
    root: Path, spec_root: Path, *, places: Places | None = None
) -> dict[str, Catalog]:
    """Every domain's template: one per game under ``spec_root``, the interface, the theme.

    ``places``: say in each game message's comments where readers meet it (see
    :func:`spec_template`); a benchmark of the catalog format alone leaves them out.
    """
    out = {
        d.name: spec_template(root, d, places=places)
        for d in find_game_dirs(spec_root)
        if (d / GAME_FILE).is_file()
    }
    out[INTERFACE] = interface_template(root)
    out[THEME] = theme_template(root)
    return out
