"""The inline markup of reader-facing text in the spec.

Spec text is plain prose with a few kinds of inline reference, chosen so
that translators can keep them intact in any gettext editor:

``{rule:16.4.8}``
    a link to a rule (or an external rule), shown as its number;
``{param:name}``
    a number from ``parameters``, formatted for the reader's locale;
``{param:name|# point|# points}``
    the same number with the words it counts, one form per plural form of
    the text's language, in the order of its gettext ``Plural-Forms`` (English:
    one, other; Czech: one, few, other); ``#`` stands for the number, so the
    number may also be left out or placed anywhere in a form (Japanese: ``#点``);
``{ruling:id}`` and ``{term:id}``
    a link to a ruling or to a glossary term, shown with its title;
``[words](term:id)``
    the given words, linked to a glossary term (the words may be inflected,
    which Czech needs);
``{name}``
    a value computed by the scorer (only in notes that declare ``args``).

Paragraphs are separated by a blank line; lines starting with ``- `` form a
bullet list. Nothing else is markup.
"""

# annotations are objects, not postponed strings: see rulepress.render.tree
import functools
import re
from collections.abc import Callable, Iterator, Mapping
from typing import Literal, NamedTuple

RefKind = Literal["rule", "param", "ruling", "term", "arg"]

_TOKEN = re.compile(
    r"\{param:(?P<param>[^{}\s|]+)(?P<forms>(?:\|[^{}|]*)+)?\}"
    r"|\{(?P<kind>rule|param|ruling|term):(?P<target>[^{}\s]+)\}"
    r"|\[(?P<words>[^\[\]]+)\]\(term:(?P<term>[^()\s]+)\)"
    r"|\{(?P<arg>[a-z][a-z0-9_]*)(?P<argforms>(?:\|[^{}|]*)+)?\}"
    r"|(?P<stray>[{}])"
)


_KINDS: dict[str, RefKind] = {"rule": "rule", "param": "param", "ruling": "ruling", "term": "term"}


class Ref(NamedTuple):
    """One inline reference: what kind, its target, and where it sits in the text."""

    kind: RefKind
    target: str
    start: int
    end: int
    words: str = ""
    #: the plural forms of a ``{param:name|…|…}`` or of a scorer's ``{count|…|…}``, in
    #: ``Plural-Forms`` order (``#``: the number)
    forms: tuple[str, ...] = ()

    @property
    def placeholder(self) -> str:
        """The reference as a translation must keep it: its kind and target, not its words."""
        if self.kind == "arg":
            return "{" + self.target + "}"
        if self.words:
            return f"(term:{self.target})"
        return "{" + f"{self.kind}:{self.target}" + "}"


class Stray(NamedTuple):
    """A brace that belongs to no reference (usually a typo)."""

    start: int
    char: str


def scan(text: str) -> Iterator[Ref | Stray]:
    """Yield the references and stray braces of ``text`` in order."""
    for m in _TOKEN.finditer(text):
        kind = m.group("kind")
        if m.group("param"):
            forms = m.group("forms")
            # the forms as written: "|" separates them, and each is kept whole, spaces too
            split = tuple(forms[1:].split("|")) if forms else ()
            yield Ref("param", m.group("param"), m.start(), m.end(), forms=split)
        elif kind:
            yield Ref(_KINDS[kind], m.group("target"), m.start(), m.end())
        elif m.group("term"):
            yield Ref("term", m.group("term"), m.start(), m.end(), words=m.group("words"))
        elif m.group("arg"):
            forms = m.group("argforms")
            split = tuple(forms[1:].split("|")) if forms else ()
            yield Ref("arg", m.group("arg"), m.start(), m.end(), forms=split)
        else:
            yield Stray(m.start(), m.group("stray"))


@functools.lru_cache(maxsize=4096)
def tokens(text: str) -> tuple[Ref | Stray, ...]:
    """:func:`scan` as a tuple, cached: the scorer renders the same templates often."""
    return tuple(scan(text))


def scan_deep(text: str) -> Iterator[Ref | Stray]:
    """:func:`scan`, and after each ``{param:x|…}`` the glossary links inside its forms.

    A form holds words, so the only references it can hold are links
    (``# [Rider](term:rider) card``); the checks of links (spec, QA, safety)
    read them here. A link that every form repeats is yielded once.
    """
    for token in scan(text):
        yield token
        if isinstance(token, Ref) and token.forms:
            inner: dict[str, Ref] = {}
            for form in token.forms:
                for ref in scan(form):
                    if isinstance(ref, Ref) and ref.words and ref.target not in inner:
                        inner[ref.target] = ref
            yield from inner.values()


def refs(text: str) -> list[Ref]:
    return [r for r in scan(text) if isinstance(r, Ref)]


#: a language's plural rule: the form (0-based, in ``Plural-Forms`` order) for a count
PluralIndex = Callable[[int], int]


def english_plural(n: int) -> int:
    """English (the spec's own language): one form for 1, the other for every other count."""
    return 0 if n == 1 else 1


def show_param(ref: Ref, value: int | None, formatted: str, plural: PluralIndex) -> str:
    """What a ``{param:…}`` shows: the number, or the plural form that agrees with it.

    ``formatted`` is the number as the reader's locale writes it; ``plural``
    is the rule of the text's language. A form for a count the text has no
    form for falls back to its last form (the spec and catalog checks make
    the number of forms match the language's).
    """
    if not ref.forms or value is None:
        return formatted
    form = ref.forms[min(plural(value), len(ref.forms) - 1)]
    return form.replace("#", formatted)


class NumberFormat:
    """Formats integers for a reader; the default is plain ``str``."""

    def __call__(self, value: int) -> str:
        return str(value)


class PlainContext(NamedTuple):
    """What plain-text rendering needs to resolve references (a variant: ``_replace``)."""

    params: dict[str, int]
    terms: dict[str, str]
    rulings: dict[str, str]
    number: NumberFormat | None = None
    #: the plural rule of the text's language (forms of ``{param:x|…}``)
    plural: PluralIndex = english_plural
    #: the words for ids (the spec's vocabulary): a player named by an id the vocabulary
    #: has ("blue") is shown by its word ("Blue", in Czech "Modrý")
    names: Mapping[str, str] | None = None


def transform(text: str, literal: Callable[[str], str], ref: Callable[[Ref], str]) -> str:
    """Rewrite spec markup: ``literal`` for plain text (stray braces included), ``ref`` per reference.

    The one walker behind every output format (terminal text, MyST, print HTML):
    each supplies how plain text is escaped and how a reference is shown.
    """
    out: list[str] = []
    pos = 0
    for token in tokens(text):
        out.append(literal(text[pos : token.start]))
        if isinstance(token, Stray):
            out.append(literal(token.char))
            pos = token.start + 1
            continue
        out.append(ref(token))
        pos = token.end
    out.append(literal(text[pos:]))
    return "".join(out)


def to_plain(text: str, ctx: PlainContext, args: dict[str, object] | None = None) -> str:
    """Render spec markup as plain text (for the terminal and for JSON ``text`` fields)."""
    fmt = ctx.number or NumberFormat()
    values = args or {}

    def ref(token: Ref) -> str:
        if token.kind == "rule":
            return token.target
        if token.kind == "param":
            param = ctx.params.get(token.target)
            if param is None:
                return token.target
            # a form may hold glossary links: rendered as their words, like the rest
            return to_plain(show_param(token, param, fmt(param), ctx.plural), ctx)
        if token.kind == "ruling":
            return ctx.rulings.get(token.target, token.target)
        if token.kind == "term":
            return token.words or ctx.terms.get(token.target, token.target)
        value = values.get(token.target, "{" + token.target + "}")
        if isinstance(value, int) and not isinstance(value, bool):
            return to_plain(show_param(token, value, fmt(value), ctx.plural), ctx)
        return str(value)

    return transform(text, str, ref)
