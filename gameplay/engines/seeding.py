"""The one way a seed for a single use is derived from the seeds and numbers that name it.

A tournament entry's match (the tournament's seed, the entry's index), an agent's decision (the match's seed, its
version, the seat), a study bot's choice, a solver's scenario: each takes ``derive_seed(kind, *numbers)``. Hashing,
rather than arithmetic on the inputs, keeps neighbouring inputs from sharing seeds (seed 1's second entry is not
seed 2's first), and the kind keeps different uses of the same numbers apart. Anyone can recompute a seed from
what is stored with the match to replay it.
"""

from __future__ import annotations

import hashlib


def derive_seed(kind: str, *numbers: int) -> int:
    """The first 8 bytes of sha256("<kind>:<n1>:<n2>..."), top bit cleared: it fits a signed 64-bit column."""
    digest = hashlib.sha256(":".join([kind, *map(str, numbers)]).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1
