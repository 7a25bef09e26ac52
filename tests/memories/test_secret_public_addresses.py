"""Issue 18, secrets (SPEC R-SAVE-2), twelfth session: a cryptocurrency address is published to be
paid, not a credential; a wallet's private key is one. Found probing notes that mention payments
(memories/refusals/secret_random.py ``is_coin_address``: Base58Check, 25 bytes, checksum holds).

The Litecoin, Dogecoin and pay-to-script addresses were made here from a hash of a made-up string;
the two Bitcoin addresses are the well-known public examples. Each kept case is refused by commit
f3a4a13.
"""

from __future__ import annotations

import pytest

from memories.refusals.secrets import find_secrets


@pytest.mark.parametrize("text", [
    "send the refund to my bitcoin wallet 1BoatSLRHtKNngkdXEeobR76b53LETtpyT",
    "the wallet address 1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa received it",
    "pay 3D9diBMAuYmxH32w595uumY3LkSeHi51QU",
    "Litecoin LWga3rAZSJhdSg2f8BQcmAEsQSXCrgm6va",
    "dogecoin tips to DGbiKtoNf4MrisX6gdQt2uLi5MtE8eNQJN",
])
def test_an_address_to_pay_is_kept(text):
    assert find_secrets(text) == []


@pytest.mark.parametrize("text", [
    "wallet key 5HueCGU8rMjxEXxiPuD5BDku4MkFqeZyd4dZ1jvhTVqvbTLvyTJ",  # WIF, uncompressed
    "WIF KwDiBf89QgGbjEhKnhXJuH7LrciVrZi3qYjgd9M7rLefyNTFvMRs",  # WIF, compressed
    "the address 1BoatSLRHtKNngkdXEeobR76b53LETtpyU is a typo",  # checksum broken: just random
])
def test_a_private_key_or_a_random_run_shaped_like_an_address_is_refused(text):
    assert find_secrets(text)
