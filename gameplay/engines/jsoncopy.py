"""A fast copy of a JSON value that equals its JSON round trip, for ``State.clone`` (searches clone constantly).

``json_copy(x) == json.loads(json.dumps(x))``, with the same types, for any value ``json.dumps`` accepts: dicts with
string keys, lists and tuples (a tuple comes back as a list, as through JSON), str, int, float, bool and None. It
walks the value once without writing text, which makes it several times faster than the round trip. A value it
cannot copy exactly by itself (a dict key that is not a string, which JSON turns into text; a subclass of a plain
type, such as an enum, which JSON writes as its base value; an object JSON refuses) is handed to the round trip
itself, so the result is always the round trip's, errors included.
"""

from __future__ import annotations

import json
from typing import Any

# Immutable values JSON gives back unchanged (a float too: JSON writes its repr, which reads back as the same float).
_ATOMS = frozenset({str, int, float, bool, type(None)})


class _NotPlain(Exception):
    """The value holds something only the JSON round trip itself can copy exactly."""


def _copy(x: Any) -> Any:
    t = type(x)
    if t is dict:
        out = {}
        for k, v in x.items():
            if type(k) is not str:
                raise _NotPlain
            out[k] = v if type(v) in _ATOMS else _copy(v)
        return out
    if t is list or t is tuple:
        return [v if type(v) in _ATOMS else _copy(v) for v in x]
    if t in _ATOMS:
        return x
    raise _NotPlain


def json_copy(x: Any) -> Any:
    """``json.loads(json.dumps(x))``, computed without the text where the value allows (see the module's doc)."""
    try:
        return _copy(x)
    except (_NotPlain, RecursionError):  # a cycle: the round trip reports it as JSON would
        return json.loads(json.dumps(x))
