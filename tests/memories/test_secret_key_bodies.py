"""Issue 18, secrets (SPEC R-SAVE-2), thirteenth session, found probing eighteen ways a private
key is written (no outside case read): an OpenSSH private key's body without its armour (base64 of
"openssh-key-v1\\0" always starts "b3BlbnNzaC1rZXktdjEA") and a Nostr private key ("nsec1…",
NIP-19). Their public counterparts pass. Refused cases fail on 2f75704.
"""

from __future__ import annotations

import pytest

from memories.refusals.secrets import find_secrets


@pytest.mark.parametrize("text", [
    "id_ed25519 contents: b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZWQyNTUxOQAAACB",
    "my nostr key nsec1vl029mgpspedva04g90vltkh6fvh240zqtv9k0t9af8935ke9laqsnlfe5",
])
def test_a_private_key_body_is_refused(text):
    assert find_secrets(text)


@pytest.mark.parametrize("text", [
    "deploy key: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl ci@appenda",
    "follow us on nostr: npub10elfcs4fr0l0r8af98jlmgdh9c8tcxjvz9qkw038js35mp4dma8qzvjptg",
])
def test_public_keys_pass(text):
    assert find_secrets(text) == []


@pytest.mark.parametrize("text, refused", [
    ("base64 logo: iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
     False),
    ("jpg /9j/4AAQSkZJRgABAQEASABIAAD/2wBDAAMCAgMCAgMDAwMEAwMEBQgFBQQEBQoHBwYIDAoMDAsKCwsNDhIQDQ4RDgsLEBYQERMUFRT/",
     False),
    ("remember iVBORw0KGgoXk9mP2qLr8T2vW4yZ8bC3dQ7Xk9mP2qLr8T2vW4yZ8bC3dQ7", True),
])
def test_an_image_in_base64_is_data_but_not_a_key_behind_its_first_letters(text, refused):
    """A PNG or a JPEG in base64 (its header decoded, not only its first letters) is no random
    key; a key written after "iVBORw0KGgo" still is. The images were refused at 2f75704."""
    assert bool(find_secrets(text)) is refused
