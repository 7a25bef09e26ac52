"""Random-looking strings with no keyword at all (R-SAVE-2): the words around a string decide (a
commit SHA, a document id or a run's id is not a credential; a string a credential word names
is). Split from secret_context.py, which finds secrets by the words next to them.
"""
from __future__ import annotations

import base64
import binascii
import hashlib
from collections.abc import Iterator

from memories.refusals.normalise_decode import compressed_base64, decode_base64_text
from memories.refusals.people_lexicon import english_words
from memories.refusals.secret_formats import Candidate, Spans, _overlaps
from memories.refusals.secret_values import (
    _BASE64_ENTROPY,
    _HEX_RE,
    UUID_LAYOUT_RE,
    _base64_entropy,
    _compile,
    _looks_like_path,
    _looks_random,
    random_in_uuid_layout,
)

# ============================================================================================
# Free-standing random strings
# ============================================================================================

_TOKEN_RUN_RE = _compile(r"[A-Za-z0-9+/=_\-]{12,}")
_CANDIDATE_TOKEN_RE = _compile(
    # After "name=" too: "=" inside a base64 run is only padding, so one "=" after a word
    # ends an assignment's name ("confluence_a=NTk3…"), not a run.
    r"(?<![A-Za-z0-9+/_\-.])(?<![^A-Za-z0-9_]=)(?<!^=)[A-Za-z0-9+/_\-]{20,}={0,2}(?![A-Za-z0-9+/=_\-])"
)
# Words that say "the next string is an id or a digest", not a credential.
_ID_CONTEXT_WORDS = frozenset(
    """
    commit commits committed sha sha1 sha256 sha512 sha-1 sha-256 hash hashes revision rev
    checksum digest md5 etag fingerprint trace span request correlation oid build blob tree
    merge cherry-pick cherry-picked cherrypick revert reverted git head tag image layer ref diff
    patch changeset integrity crc version id uuid guid ids sheet spreadsheet doc docs document
    file folder drive video playlist gist notebook ksuid ulid nanoid cuid objectid
    cursor cursors paging pagination continuation slug shortcode idempotency nonce
    sec-websocket-accept sec-websocket-key boundary sha3 sha3-256 sha3-512 sha-3 sha384 sha-384 blake2b blake3
    """.split()
)
# Dash-less hex ids are everywhere (Notion pages, trace ids, Mongo); for hex, more words count.
_HEX_ID_CONTEXT_WORDS = _ID_CONTEXT_WORDS | frozenset(
    """
    page record row block item issue ticket order invoice database workspace project table
    column object node entity expected got mismatch matches sum sums tx txid txn transaction
    address contract wallet zone container pod
    """.split()
)
# Hex ids of what runs and happens ("Sentry event 3f2c…", "job 3f2c… failed"): for a free-standing
# run only, not when a credential's name is there too.
_RUN_ID_WORDS = frozenset("event events incident run job execution task".split())
# What a credential belongs to, where its name says so ("circleci_project_secret", "workspace
# token", "database password"): with a credential's name there, they name no id.
_CREDENTIAL_OWNERS = frozenset("project workspace database zone".split())
_CONTEXT_WORD_RE = _compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
_URL_IN_WINDOW_RE = _compile(r"\S*://\S*")
_DIGEST_PREFIX_RE = _compile(r"(?i)^(?:sha(?:1|224|256|384|512)|md5)[-:]")
# Certificates and public keys are meant to be shared; their base64 bodies are not secrets.
_PUBLIC_BLOCK_RE = _compile(
    r"-----BEGIN (?:CERTIFICATE|PUBLIC KEY|RSA PUBLIC KEY|X509 CRL|CERTIFICATE REQUEST|"
    r"NEW CERTIFICATE REQUEST|PGP PUBLIC KEY BLOCK|PGP SIGNATURE|PKCS7)-----[\s\S]*?"
    r"(?:-----END [A-Z0-9 ]+-----|\Z)"
)


# A field's or a flag's name that says the value after it is an id: "certificateId", "TableID",
# "--document-id", "resource_id" (AWS's CLI pages and JSON replies, the sixteenth session); not
# when the name holds a credential's word: Vault's "secret_id", a "session_id", a "tokenId" are
# bearer credentials.
_ID_NAMED_BEFORE_RE = _compile(
    r"(?P<name>[A-Za-z0-9]+)(?:(?<=[a-z])(?:Id|ID|Ids|IDs)|[_\-](?:id|ids|Id|ID))[\"'`]?\s*(?:[:=]\s*)?[\"'`]?$")
_BEARER_NAME_RE = _compile(r"(?i)secret|session|sess|token|key|pass|auth|cred|cookie|sid")


def named_as_an_id(text: str, position: int) -> bool:
    """Whether the name right before ``position`` names an id, not a credential."""
    named = _ID_NAMED_BEFORE_RE.search(text, max(0, position - 40), position)
    return named is not None and _BEARER_NAME_RE.search(named.group("name")) is None


def _context_names_an_id(lowered: str, position: int, *, hex_value: bool, since: int = 0,
                         named: bool = False) -> bool:
    """Whether a word before ``position`` (from ``since`` on) says the next string is an id.
    Words inside a URL are part of an address ("https://git.example.com/projects/…"), not
    words that name the string. ``named``: a credential's name is there too ("event webhook
    api key: …"), so only the words that outweigh it count ("commit secret: 9fceb02…")."""
    window = lowered[max(since, position - (100 if hex_value else 60)): position]
    if "://" in window:
        window = _URL_IN_WINDOW_RE.sub(" ", window)
    words = _HEX_ID_CONTEXT_WORDS if hex_value else _ID_CONTEXT_WORDS
    if hex_value and not named:
        words = words | _RUN_ID_WORDS
    elif named:
        words = words - _CREDENTIAL_OWNERS
    return any(word in words for word in _CONTEXT_WORD_RE.findall(window))


def _is_dashless_uuid(token: str) -> bool:
    """32 hex digits laid out as an RFC 4122 UUID (version nibble 1-5, variant 8-b)."""
    return len(token) == 32 and token[12] in "12345" and token[16].lower() in "89ab"


def _is_der_certificate(token: str) -> bool:
    """The first base64 line of an X.509 certificate: SEQUENCE { SEQUENCE (tbsCertificate) ...
    A private key starts SEQUENCE { INTEGER 0 ... } instead, and stays flagged."""
    try:
        head = base64.b64decode(token[:16] + "=" * (-len(token[:16]) % 4))
    except (binascii.Error, ValueError):
        return False
    return len(head) >= 6 and head[0] == 0x30 and head[1] == 0x82 and head[4] == 0x30


def _is_ssh_public_key(token: str) -> bool:
    """"AAAAC3NzaC1lZDI1NTE5...": SSH wire format, a length then "ssh-ed25519" / "ecdsa-..."."""
    try:
        head = base64.b64decode(token[:32])
    except (binascii.Error, ValueError):
        return False
    return head[:3] == b"\x00\x00\x00" and head[4:].startswith((b"ssh-", b"ecdsa-", b"sk-"))


# The base64 of the first bytes of an image or a document: PNG, JPEG, GIF, WebP, PDF, SVG.
_PDF_HEADER_RE = _compile(rb"%PDF-\d\.\d")
_MEDIA_MAGIC = ("iVBORw0KGgo", "/9j/", "R0lGODdh", "R0lGODlh", "UklGR", "JVBERi0", "PHN2Zy", "PD94bWwg")



def _is_media(token: str) -> bool:
    """The run decodes to the header of an image or a PDF, not only to its first bytes (a key
    written after "iVBORw0KGgo" is no PNG): PNG's IHDR chunk, JPEG's second marker, GIF's
    version, WebP's RIFF form, PDF's version."""
    try:
        head = base64.b64decode(token[:24])
    except (binascii.Error, ValueError):
        return False
    return (head[:16] == b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"
            or (head[:3] == b"\xff\xd8\xff" and head[3:4] in (b"\xe0", b"\xe1", b"\xdb", b"\xee"))
            or head[:6] in (b"GIF87a", b"GIF89a")
            or (head[:4] == b"RIFF" and head[8:12] == b"WEBP")
            or _PDF_HEADER_RE.match(head) is not None
            or head[:4] in (b"<svg", b"<?xm"))


_BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
_BASE58_DIGITS = {c: i for i, c in enumerate(_BASE58)}


def is_coin_address(token: str) -> bool:
    """A Base58Check address (Bitcoin "1…"/"3…", Litecoin, Dogecoin…): 25 bytes, a version, a
    20-byte hash and a checksum that holds. Addresses are published to be paid; a wallet's
    private key (WIF, 37-38 bytes) is Base58Check too, and is not one of these."""
    if not 26 <= len(token) <= 35 or any(c not in _BASE58_DIGITS for c in token):
        return False
    number = 0
    for c in token:
        number = number * 58 + _BASE58_DIGITS[c]
    leading = len(token) - len(token.lstrip("1"))
    payload = b"\0" * leading + number.to_bytes((number.bit_length() + 7) // 8, "big")
    if len(payload) != 25:
        return False
    checksum = hashlib.sha256(hashlib.sha256(payload[:-4]).digest()).digest()[:4]
    return checksum == payload[-4:]


# Bech32 strings whose human-readable part says they are public: a Nostr public key ("npub1…",
# NIP-19), an age recipient ("age1…"), Bitcoin and Litecoin segwit addresses ("bc1…", "ltc1…").
_PUBLIC_BECH32_RE = _compile(r"(?:npub|age|bc|tb|ltc)1[qpzry9x8gf2tvdw0s3jn54khce6mua7l]{38,90}")


def is_public_address(token: str) -> bool:
    """An address or public key published to be used by others (coin addresses, Nostr and age
    public keys): never a secret, whatever product name stands before it."""
    return is_coin_address(token) or _PUBLIC_BECH32_RE.fullmatch(token) is not None


# A git object name is 40 hex digits (SHA-1). Notes of a data team quote them all the time
# ("release v7.7 is tagged at ..."), so one is a secret only when the words around it say so.
_GIT_SHA_LENGTH = 40
_CREDENTIAL_CONTEXT_RE = _compile(
    r"(?<![a-z])(?:key|keys|token|tokens|secret|secrets|password|passwd|pwd|passphrase|apikey|"
    r"api-key|api_key|credential|credentials|creds|bearer|auth)(?![a-z])"
)
# Field names in decoded JSON that say its values are credentials.
_SECRET_FIELD_RE = _compile(
    r"(?i)[\"'][\w\-]*(?:pass|secret|token|api[_\-]?key|private|credential|auth|pwd)[\w\-]*"
    r"[\"']\s*:\s*[\"']?[^\s\"',}]"
)


def _credential_words_near(lowered: str, start: int, end: int) -> bool:
    window = lowered[max(0, start - 60): start] + " " + lowered[end: end + 30]
    return _CREDENTIAL_CONTEXT_RE.search(window) is not None


# Decoded text with a structure of its own: JSON, XML / HTML, several lines, a URL or path,
# "key=value&..." or "key: value" pairs.
_STRUCTURED_TEXT_RE = _compile(
    r"^\s*[\[{<]|\n|://|^/[\w.\-]+/|[\w\-]=[^=\s]*[&;,]\s*[\w\-]+=|^[\w\-]+:\s"
)


def _encodes_plain_text(token: str) -> bool:
    """base64 of structured readable data with no credential field ("eyJ1c2VyIjog..." =
    '{"user": ...'): the encoding is not key material; the decoded text is scanned as a reading
    of its own (memories.refusals.normalise), where a key inside it is still found.

    gzip or zlib data whose text is readable ("H4sI…") is judged by that text too.

    One line of free text under base64 ("c3VwZXIgbG9uZyBzdHJpbmcg..." = "super long string ...")
    is not skipped: nobody base64s a sentence to share it; that is how a passphrase or a
    Kubernetes Secret's value is written. It is judged as detect-secrets judges any base64
    string, at the library's default entropy limit (4.5) without the allowance shorter random
    runs get here: base64 of a few words ("super secret value") stays below it."""
    decoded = decode_base64_text(token)
    if decoded is None or _SECRET_FIELD_RE.search(decoded) is not None:
        return False
    if _STRUCTURED_TEXT_RE.search(decoded) is not None or compressed_base64(token):
        return True  # compressed text: its base64 is random whatever it holds, so what it holds decides
    return _base64_entropy(token) < _BASE64_ENTROPY.entropy_limit


# What md5sum, sha1sum and sha256sum print after a digest: two spaces (or " *", binary mode) and
# the file's name.
_CHECKSUM_THEN_FILE_RE = _compile(r"(?:  | \*)[\w.+\-/]+(?=\s|$)")
def _is_folder_path(token: str) -> bool:
    """A path of four parts or more, all short, one a whole English word and every one plainly
    written ("etc/X11/xkb/rules/xorg", "xc/programs/Xserver/hw/xfree86/doc"; the Debian changelogs
    of the sixteenth session): a key's base64 has fewer slashes, and its parts mix cases."""
    segments = [s for s in token.split("/") if s]
    if token.count("/") < 3 or len(segments) < 3 or any(len(s) > 24 for s in segments):
        return False
    english = english_words()
    if not any(len(s) >= 4 and s.isalpha() and s.lower() in english for s in segments):
        return False
    return all(_PLAIN_PART_RE.fullmatch(part) for s in segments for part in _PART_SEPARATOR_RE.split(s))


# A folder's name as people write one: a word in one case or capitalised, a number after it
# ("xfree86", "X11", "Xserver", "README"); not a random run's mixed cases ("aB3d", "K7MDENG").
_PLAIN_PART_RE = _compile(r"(?:[a-z]+|[A-Z]+|[A-Z][a-z]+)\d*|\d+|")
_PART_SEPARATOR_RE = _compile(r"[\-_.]")


_SNAKE_PART_RE = _compile(r"[A-Za-z0-9]+")


def _is_code_name(token: str) -> bool:
    """A function's or a constant's name in snake case with abbreviations ("X509_get_subject_name",
    "EVP_PKEY_get0_engine"): three parts or more, one of them a word, none long but words (a random
    run's parts between its rare underscores are long)."""
    if token.count("_") < 2:
        return False
    parts = _SNAKE_PART_RE.findall(token)
    english = english_words()
    words = [len(p) >= 4 and p.lower() in english for p in parts]
    return any(words) and all(len(p) <= 8 or word for p, word in zip(parts, words))


def _find_high_entropy(text: str, lowered: str, taken: Spans) -> Iterator[Candidate]:
    public_blocks = (
        [m.span() for m in _PUBLIC_BLOCK_RE.finditer(text)] if "-----BEGIN" in text else []
    )
    for match in _CANDIDATE_TOKEN_RE.finditer(text):
        token = match.group()
        start, end = match.span()
        if _overlaps(taken, start, end):
            continue  # a more specific rule already holds this token
        shaped = UUID_LAYOUT_RE.search(token) if token.count("-") >= 4 else None
        if shaped is not None and random_in_uuid_layout(shaped.group()):
            yield "uuid_shaped_key", start + shaped.start(), start + shaped.end(), 78
            continue
        if token[:2] in ("0x", "0X") and len(token) >= 34 and _HEX_RE.fullmatch(token, 2):
            token, start = token[2:], start + 2  # "0x…": a hex number (an Ethereum key is 0x + 64)
        is_hex = _HEX_RE.fullmatch(token) is not None
        chunk = text[max(text.rfind(space, 0, start) for space in " \t\n") + 1: end]  # its word
        if "://" in chunk or "@" in chunk or "\\" in chunk or "base64," in chunk:
            continue  # inside a URL / path / e-mail: document ids, not credentials
        if _DIGEST_PREFIX_RE.match(token) or _context_names_an_id(lowered, start, hex_value=is_hex):
            continue  # "sha384-...", "commit 9fceb02...", "request id ..."
        if named_as_an_id(text, start):
            continue  # '"certificateId": "66a4…"', "--document-id b83e…": a field or flag naming an id
        if not _looks_random(token, with_keyword=False) or _is_code_name(token):
            continue
        if "/" in token and (_looks_like_path(token) or _is_folder_path(token)):
            continue  # "XDG_RUNTIME_DIR/p11-kit/pkcs11", "ACM/tinyxml/tinyxml_vc7": a path
        if is_hex and _is_dashless_uuid(token):
            continue
        if (is_hex and len(token) == _GIT_SHA_LENGTH
                and not _credential_words_near(lowered, start, end)):
            continue  # a commit / tag / object name
        if is_hex and _CHECKSUM_THEN_FILE_RE.match(text, end):
            continue  # "402190c04b8df45e20afd01e3acd0da4  grpconv.8": md5sum's and sha256sum's lines
        if not is_hex and _encodes_plain_text(token):
            continue
        if token.startswith("MII") and _is_der_certificate(token):
            continue
        if token.startswith("AAAA") and _is_ssh_public_key(token):
            continue  # public keys are meant to be shared
        if token.startswith(_MEDIA_MAGIC) and _is_media(token):
            continue  # an image or a PDF in base64 ("iVBORw0KGgo…" is a PNG): data, not a key
        if is_public_address(token):
            continue  # so are the addresses a wallet is paid to
        if any(b_start <= start and end <= b_end for b_start, b_end in public_blocks):
            continue
        yield ("hex_high_entropy" if is_hex else "base64_high_entropy"), start, end, 30
