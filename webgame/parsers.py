"""The API's one request parser: JSON, refused before it is decoded when it
nests deeper than any request body of the API does, and refused when an
object names a field twice (the decoder kept the last, silently) or a number
runs to more than a hundred digits.

Python's ``json`` module recurses once per nesting level, so a 2 KB body of
``[[[[…]]]]`` raises RecursionError (a 500) deep inside the decoder. The
depth is counted first on the raw text, outside string literals, in linear
time; the size is bounded before that by ``DATA_UPLOAD_MAX_MEMORY_SIZE``
(413).
"""

from __future__ import annotations

import codecs
import re
from itertools import accumulate

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser
from rest_framework.utils import json

from .errors import api_style

#: The deepest nesting accepted. The API's deepest body is
#: ``{"players": {"black": {...}}}`` (3); the margin is for clients that wrap.
MAX_DEPTH = 32
#: The most digits of a whole number: no field of the API needs 20 (a
#: version, a count); the rest is left to each field's own range.
MAX_DIGITS = 100

_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = re.compile(rb"[\[\]{}]")
_STEP = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}


def nesting_depth(text: bytes) -> int:
    """Return how deep the arrays and objects of the JSON ``text`` nest
    (brackets inside strings do not count); malformed text gives some depth,
    and the decoder then refuses it."""
    brackets = _BRACKETS.findall(_STRING.sub(b'""', text))
    return max(accumulate(_STEP[b[0]] for b in brackets), default=0)


def _whole_number(text: str) -> int:
    """A whole number of at most :data:`MAX_DIGITS` digits (``json``'s
    ``parse_int``): Python refuses more than 4,300 in words about its own
    settings."""
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise ValueError(
            _("a number has more than %(max)s digits") % {"max": MAX_DIGITS}
        )
    return int(text)


def unique_fields(pairs: list[tuple[str, object]]) -> dict:
    """An object's fields, each named once (``json``'s ``object_pairs_hook``)."""
    fields: dict = {}
    for name, value in pairs:
        if name in fields:
            raise ValueError(_('the field "%(name)s" is named twice') % {"name": name})
        fields[name] = value
    return fields


class BoundedJSONParser(JSONParser):
    """JSON bodies at most ``DATA_UPLOAD_MAX_MEMORY_SIZE`` bytes long and
    :data:`MAX_DEPTH` levels deep, each object's fields named once; anything
    else is refused (413, 400) in the API's error shape, the first two before
    the decoder sees it."""

    def parse(self, stream, media_type=None, parser_context=None):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        text = stream.read(limit + 1) if stream is not None else b""
        if limit is not None and len(text) > limit:
            raise RequestDataTooBig("the request body is too large")
        if nesting_depth(text) > MAX_DEPTH:
            raise ParseError(
                _("the body cannot be read: it nests deeper than %(max)s levels")
                % {"max": MAX_DEPTH}
            )
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        try:
            decoded = codecs.decode(text, encoding)
            return json.loads(
                decoded,
                parse_constant=json.strict_constant if self.strict else None,
                object_pairs_hook=unique_fields,
                parse_int=_whole_number,
            )
        except ValueError as exc:  # as JSONParser words it
            detail = _("the body is not JSON this API reads: %(error)s") % {
                "error": api_style(str(exc))
            }
            raise ParseError(detail) from exc
