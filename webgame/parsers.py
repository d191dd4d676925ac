"""The API's one request parser: JSON, refused before it is decoded when it
nests deeper than any request body of the API does.

Python's ``json`` module recurses once per nesting level, so a 2 KB body of
``[[[[…]]]]`` raises RecursionError (a 500) deep inside the decoder. The
depth is counted first on the raw text, outside string literals, in linear
time; the size is bounded before that by ``DATA_UPLOAD_MAX_MEMORY_SIZE``
(413).
"""

from __future__ import annotations

import io
import re
from itertools import accumulate

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

#: The deepest nesting accepted. The API's deepest body is
#: ``{"players": {"black": {...}}}`` (3); the margin is for clients that wrap.
MAX_DEPTH = 32

_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = re.compile(rb"[\[\]{}]")
_STEP = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}


def nesting_depth(text: bytes) -> int:
    """Return how deep the arrays and objects of the JSON ``text`` nest
    (brackets inside strings do not count); malformed text gives some depth,
    and the decoder then refuses it."""
    brackets = _BRACKETS.findall(_STRING.sub(b'""', text))
    return max(accumulate(_STEP[b[0]] for b in brackets), default=0)


class BoundedJSONParser(JSONParser):
    """JSON bodies at most ``DATA_UPLOAD_MAX_MEMORY_SIZE`` bytes long and
    :data:`MAX_DEPTH` levels deep; anything else is refused (413, 400) in the
    API's error shape before the decoder sees it."""

    def parse(self, stream, media_type=None, parser_context=None):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        text = stream.read(limit + 1) if stream is not None else b""
        if limit is not None and len(text) > limit:
            raise RequestDataTooBig("the request body is too large")
        if nesting_depth(text) > MAX_DEPTH:
            raise ParseError(
                _("JSON parse error - the body nests deeper than %(max)s levels")
                % {"max": MAX_DEPTH}
            )
        return super().parse(io.BytesIO(text), media_type, parser_context)
