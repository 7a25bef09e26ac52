"""Issue 18, secrets (SPEC R-SAVE-2), found by trying the detector as an attacker would (no outside
case read): a signed URL is a bearer credential while it lasts, whatever the host: CloudFront's
"Signature=", S3's "X-Amz-Signature=" without an access key id beside it, GCS's
"X-Goog-Signature=". And a false refusal found the same way: the verb "pass" before a query
string ("pass ?token=… on each call") was read as "pass: <password>".

Every case fails against the detector of commit 602c242.
"""

from __future__ import annotations

import base64

import pytest

from memories.refusals.secrets import find_secrets

CLOUDFRONT_SIGNATURE = base64.b64encode(bytes(range(7, 135))).decode().replace("+", "-").replace(
    "=", "_").replace("/", "~")
HEX_SIGNATURE = bytes(range(40, 72)).hex()


@pytest.mark.parametrize("text", [
    "https://d111111abcdef8.cloudfront.net/img.jpg?Expires=1735689600&Signature="
    f"{CLOUDFRONT_SIGNATURE}&Key-Pair-Id=K2JCJMDEHXQW5F",
    f"https://b.s3.amazonaws.com/k?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Signature={HEX_SIGNATURE}",
], ids=["cloudfront", "s3-signature-alone"])
def test_a_signed_urls_signature_is_refused(text):
    assert [finding.kind for finding in find_secrets(text)] == ["signed_url"]


@pytest.mark.parametrize("text", [
    "the docs say to pass ?signature=<your signature> on each call",
    "you pass ?token=abc on each call",
], ids=["template", "query-string"])
def test_the_verb_pass_before_a_query_string_is_not_a_password(text):
    assert find_secrets(text) == []
