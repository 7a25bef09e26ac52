"""Issue 18, secrets (SPEC R-SAVE-2), fifteenth session: the descriptions of the packages this
project installs (7,356 paragraphs of their METADATA, text nobody here wrote) were scanned as notes;
23 were refused, 13 of them for no secret. The classes, each refused at eee87b7 and passing now:

* "pass" the verb before a code span, emphasis or a link ("Pass `mask` to replace …", "pass
  *attrs* instances", "linting does not pass [ci]"), or before what goes where ("pass the_flag to
  the job");
* a colour after a CSS property read as a login and its password ("fill:#E5484D");
* a key emoji before bold words ("🔑 **Per-key limits**").

Then the packages' .md, .rst and .txt files (80 files, 1,159 paragraphs): 10 refused at eee87b7,
1 now (AWS's documented example key). Besides "pass" the verb: a name's own code span read as
opening a value ("`credentials=` object when …"), a command's next flag read as a token's value
("token123 --expires=…"), a WebSocket handshake's accept hash, and (this session's own rule) a
fixture's token in code ("'token', 'jwt_abc123'").

The same words before a password are still refused.
"""

from __future__ import annotations

import pytest

from memories.refusals.secrets import find_secrets


@pytest.mark.parametrize("text", [
    "Pass `mask` to replace instance values in error messages with a placeholder:",
    "Pass `mode=Mode.NEGATIVE` to generate operations your server must reject:",
    "For schemas from untrusted sources, pass `offline=True`. The validator then refuses to fetch.",
    "* Pass `retries`, `local_address` and `uds` to the connections they create.",
    "It's now possible to pass *attrs* **instances** in addition to *attrs* **classes**.",
    "- Set up strict code linting that fails builds if linting does not pass   [aleksihakli]",
    "pass the_flag_v2 to the nightly job",
    "classDef api fill:#E5484D,color:#ffffff,stroke:#E5484D;\n    classDef core fill:#242A33,color:#ffffff;",
    "- 🔑 **Per-key limits** — track different services separately.",
    "`project` may be omitted: it is taken from an explicit `credentials=` object when\nit exposes one (e.g. a service-account credential's `project_id`).",
    "playwright-cli cookie-set remember_me token123 --expires=1893456000",
    "HTTP/1.1 101 Switching Protocols\nUpgrade: WebSocket\nSec-WebSocket-Accept: Kxep+hNu9n51529fGidYu7a3wO0=",
], ids=["code-span", "code-span-assignment", "code-span-setting", "code-spans-list", "emphasis", "link",
        "object-then-to", "css-colours", "key-emoji-bold", "name-in-code-span", "next-flag",
        "websocket-accept"])
def test_package_documentation_passes(text):
    assert find_secrets(text) == []


@pytest.mark.parametrize("text, value", [
    ("pass: Vx7!pq2Lm9", "Vx7!pq2Lm9"),
    ("jenkins pass = Zq8#Lm2!Rt", "Zq8#Lm2!Rt"),
    ("login:#Vx7pq2Lm9!x", "#Vx7pq2Lm9!x"),
    ("🔑 Vx7!pq2Lm9", "Vx7!pq2Lm9"),
], ids=["pass-colon", "pass-equals", "login-colon-mark", "key-emoji"])
def test_the_same_words_before_a_password_are_refused(text, value):
    assert value in [text[f.start:f.end] for f in find_secrets(text)]


# The README and NEWS files of this machine's Debian packages (12,000 paragraphs of 629 files):
# 11 refused at eee87b7, 3 now (a credential URL in an example, a TPM key's URI, a C function whose
# words are not among the 30,000 most frequent). Each passes now and was refused at eee87b7.
@pytest.mark.parametrize("text", [
    "pkcon: allow users in the wheel group to install signed packages without a password (Richard Hughes)",
    "• distribute test/tap-test.sh.in, even if the tarball was built without tests",
    "· Fix misuse of GPid in test/dbus-daemon.c (fd.o #40003, Simon McVittie)",
    "** API and ABI modifications:\ngnutls_utf8_password_normalize: Added",
    "There is a new option in rsvg-convert so you can pass --accept-language=<languages> formatted",
    "passwd:         compat systemd\ngroup:          compat systemd",
    "** libgnutls-openssl: fix out of bounds access. Problem in X509_get_subject_name and X509_get_issuer_name",
], ids=["name-in-brackets", "file-after-slash", "source-file", "function-name-label", "pass-a-flag",
        "nsswitch", "c-functions"])
def test_debian_package_documentation_passes(text):
    assert find_secrets(text) == []


# The Debian packages' changelogs (15,000 paragraphs of 1,427 files): 46 refused at eee87b7, 9 now
# (identifiers of abbreviations and numbers, a configure substitution, a CVE patch's name). Each
# passes now and was refused at eee87b7.
@pytest.mark.parametrize("text", [
    "\t* src/passwd.c: Avoid setting the password to a const empty string.",
    "* man/Attic/mkpasswd.8.xml: added missing <variablelist> tag.",
    "base-passwd (3.5.35) unstable; urgency=medium",
    " test/.gitignore  |  1 +\n test/Makefile.am |  2 +-",
    "- test/bitmap-font: Fix use of pointer after free",
    "\t+ fix test/mk-test.awk to ignore blank lines.",
    "<li>SHA3-256 for sqlite3.c: 1be0c457869c1f7eba58c3b5097b9ec307a15be338308bee8e5be8570bcf5d1e",
    "  - $XDG_RUNTIME_DIR/p11-kit/pkcs11, if the environment variable is available",
    "* Add the missing accessor EVP_PKEY_get0_engine()",
], ids=["c-file-colon-verb", "man-page-colon-verb", "package-version", "diffstat", "test-folder-file",
        "test-folder-script", "sha3-digest", "runtime-path", "c-accessor"])
def test_debian_changelogs_pass(text):
    assert find_secrets(text) == []


# The docstrings of Python's standard library (15,000 paragraphs): 17 refused at eee87b7, 8 now
# (example passwords and tokens the docs show, an RFC's grammar, a template before a full stop).
@pytest.mark.parametrize("text", [
    "Creates a customized copy of the Signature. Pass 'parameters' and/or 'return_annotation' arguments.",
    "Utilities to get a password and/or the current user name.",
    "pass_fds (POSIX only)",
], ids=["pass-quoted-and-or", "password-and-or", "posix-in-brackets"])
def test_python_docstrings_pass(text):
    assert find_secrets(text) == []


# The docstrings of the installed packages (15,000 paragraphs): 19 refused at eee87b7, 8 now (URLs
# with "user:pass@host" kept as credential-shaped, examples' keys and passwords, a model's name).
@pytest.mark.parametrize("text", [
    "ssl: {pfxPath: Union[pathlib.Path, str, None], pfx: Union[bytes, None], passphrase: Union[str, None]}",
    "SecretPosInt = Secret[Annotated[int, Field(gt=0)]]",
    '<label for="password-input">Password:</label>\n<input id="password-input" type="password">',
    "m = Model(secret_date=date(2022, 1, 1))",
    "> [!TIP]\n> You can pass provider-specific parameters to the completion call.",
    "# to look something like: 'multipart/form-data; boundary=0d8382fcf5f8c3be01ca2e11002d2983'",
], ids=["union-type", "secret-type", "closing-tag", "date-call", "pass-hyphenated",
        "multipart-boundary"])
def test_package_docstrings_pass(text):
    assert find_secrets(text) == []
