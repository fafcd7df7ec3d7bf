"""The one seed derivation (gameplay.engines.seeding): stable, apart for neighbouring inputs and kinds, 64-bit."""

import hashlib

from gameplay.engines.seeding import derive_seed


def test_a_seed_is_the_hash_of_its_names_and_fits_a_signed_64_bit_column():
    expected = int.from_bytes(hashlib.sha256(b"tournament:11:3").digest()[:8], "big") >> 1
    assert derive_seed("tournament", 11, 3) == expected
    seeds = [derive_seed(kind, a, b) for kind in ("decision", "bot") for a in range(30) for b in range(30)]
    assert all(0 <= s < 2**63 for s in seeds)


def test_neighbouring_inputs_and_kinds_never_share_a_seed():
    seeds = {derive_seed(kind, a, b) for kind in ("decision", "bot", "scenario") for a in range(30) for b in range(30)}
    assert len(seeds) == 3 * 30 * 30
    assert derive_seed("decision", 1, 2) != derive_seed("decision", 2, 1) != derive_seed("decision", 12)
