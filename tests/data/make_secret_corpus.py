"""Generate the labelled corpus that measures the secret detector (SPEC R-SAVE-2).

    python tests/data/make_secret_corpus.py            # writes tests/data/secret_corpus.jsonl
    python tests/data/make_secret_corpus.py --out X    # somewhere else (the test compares)

Every line is one memory note: ``{"text", "label": "secret"|"benign", "kind", "secret"}``.
``kind`` is the token format for secret notes and the hard-negative family for benign ones;
``secret`` is the exact substring a detector finding must cover ("" for benign notes).

All credentials are generated here from the vendors' public formats (prefix, length,
alphabet; JWTs with real base64url JSON segments; PEM blocks with random bodies). Nothing is
copied from a real system. The output depends only on the seed, so the committed corpus can be
re-derived byte for byte (the test suite checks that it is).
"""
from __future__ import annotations

import argparse
import base64
import json
import random
import string
import sys
import uuid
from collections.abc import Callable
from pathlib import Path

SEED = 20240521
SECRET_NOTES_PER_KIND = 14
BENIGN_NOTES_PER_KIND = 56
MAX_NOTE_BYTES = 1024
DEFAULT_OUT = Path(__file__).with_name("secret_corpus.jsonl")

ALNUM = string.ascii_letters + string.digits
LOWER_ALNUM = string.ascii_lowercase + string.digits
UPPER_ALNUM = string.ascii_uppercase + string.digits
HEX = "0123456789abcdef"
B64 = ALNUM + "+/"
B64URL = ALNUM + "-_"
URL_SAFE_PASSWORD = ALNUM + "-_.~!$*"


def rand(rng: random.Random, alphabet: str, length: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(length))


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


# --------------------------------------------------------------------------------------------
# Vocabulary for realistic notes
# --------------------------------------------------------------------------------------------

PEOPLE = ["Priya", "Jonas", "Mei", "Carlos", "Aisha", "Tomasz", "Lena", "Kwame", "Sofia", "Ravi",
          "Hana", "Mateo", "Olga", "Yusuf", "Chloe", "Bram"]
SERVICES = ["billing", "warehouse sync", "CRM import", "nightly export", "support inbox",
            "analytics", "payments", "notifications", "search indexer", "report mailer"]
ENVS = ["prod", "staging", "dev", "eu-prod", "us-prod", "sandbox", "qa"]
HOSTS = ["db.internal", "pg-main.eu-west-1.rds.amazonaws.com", "10.0.3.17", "mysql-01.corp.local",
         "cluster0.x7k2p.mongodb.net", "cache.internal", "mq.internal", "files.example.org",
         "analytics-db.appenda.io", "replica-2.db.internal"]
DB_NAMES = ["app", "appenda", "orders", "crm", "analytics", "billing", "warehouse", "reporting"]
USERS = ["app", "admin", "deploy", "svc_etl", "report_ro", "root", "appenda", "ci-bot",
         "analytics", "backup"]
TABLES = ["orders", "customers", "invoices", "subscriptions", "line_items", "products",
          "shipments", "tickets", "payments", "accounts", "events", "users"]
COLUMNS = ["customer_id", "created_at", "updated_at", "status", "total_cents", "currency",
           "region", "owner_id", "deleted_at", "email", "sku", "plan_id", "password_hash",
           "last_login_at", "external_ref"]
WORDS = ["sunflower", "dragon", "falcon", "maple", "river", "coffee", "tiger", "orange", "winter",
         "rocket", "velvet", "marble", "harbor", "copper", "meadow", "pepper", "summer", "spring",
         "autumn", "galaxy", "bamboo", "cobalt", "lantern", "quartz"]
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"]
TEAMS = ["data", "platform", "growth", "support", "finance", "ops", "mobile", "web"]
TOOLS = ["Okta", "1Password", "Vault", "Doppler", "AWS Secrets Manager", "Bitwarden", "Keycloak",
         "Azure Key Vault", "GCP Secret Manager"]


def human_password(rng: random.Random) -> str:
    """Passwords the way people pick them, plus generator output."""
    style = rng.randrange(6)
    word = rng.choice(WORDS)
    if style == 0:
        return word.capitalize() + str(rng.randrange(1990, 2026)) + rng.choice("!#$%&*?")
    if style == 1:
        leet = word.translate(str.maketrans({"a": "4", "e": "3", "o": "0", "i": "1", "s": "5"}))
        return leet.capitalize() + rng.choice("!@#&") + str(rng.randrange(10, 99))
    if style == 2:
        return word + str(rng.randrange(1, 999))
    if style == 3:
        return rand(rng, ALNUM + "!#%&*+-=?", rng.randrange(12, 20))
    if style == 4:
        return "-".join(rng.sample(WORDS, 3)) + str(rng.randrange(1, 99))
    return rand(rng, ALNUM, rng.randrange(14, 24))


def url_password(rng: random.Random) -> str:
    if rng.random() < 0.4:
        return human_password(rng).translate(str.maketrans("", "", "#%&+=?@/:"))
    return rand(rng, URL_SAFE_PASSWORD, rng.randrange(10, 28))


# --------------------------------------------------------------------------------------------
# Secret formats: each returns (token, templates); a template's {s} is where the token goes
# --------------------------------------------------------------------------------------------

VENDOR_TEMPLATES = [
    "{svc} key for {env}: {s}",
    "Remember: the {svc} token is {s} (expires end of quarter).",
    "When calling the {svc} API use {s} as the key.",
    "export {ENV}={s}",
    "{ENV}={s} goes in the {env} .env file",
    "Ops note from {person}: {svc} credential {s}, ask before rotating.",
    "User asked me to remember their {svc} key: {s}",
    'config for the {svc} job: {{"{env_var}": "{s}"}}',
    "{svc} ({env}) → {s}",
    "For the nightly {svc} sync the secret is `{s}`.",
    "{person} shared {s} in #{team} for the {svc} integration",
    "Der {svc}-Schlüssel für {env} lautet {s}",
    "La clé {svc} de {env} est {s}",
    "La clave de {svc} es {s}, no compartir.",
    "{svc} のキーは {s} です",
    "{svc} 的密钥是 {s}",
    "Ключ {svc} для {env}: {s}",
    "مفتاح {svc} هو {s}",
    "{key}: {s}",
]


def fill(rng: random.Random, template: str, secret: str, env_var: str) -> str:
    return template.format(
        s=secret,
        svc=rng.choice(SERVICES),
        env=rng.choice(ENVS),
        ENV=env_var,
        env_var=env_var.lower(),
        person=rng.choice(PEOPLE),
        team=rng.choice(TEAMS),
        key=rng.choice(["integration.key", "vendor.token", "creds", "api", "service.auth"]),
        host=rng.choice(HOSTS),
        db=rng.choice(DB_NAMES),
        user=rng.choice(USERS),
    )


def vendor_kind(prefix_env: str, make: Callable[[random.Random], str]):
    def generate(rng: random.Random) -> tuple[str, str]:
        token = make(rng)
        return fill(rng, rng.choice(VENDOR_TEMPLATES), token, prefix_env), token

    return generate


def keyword_kind(templates: list[str], make: Callable[[random.Random], str], env_var: str):
    def generate(rng: random.Random) -> tuple[str, str]:
        token = make(rng)
        return fill(rng, rng.choice(templates), token, env_var), token

    return generate


def jwt(rng: random.Random) -> str:
    header = {"alg": rng.choice(["HS256", "RS256", "ES256"]), "typ": "JWT"}
    if rng.random() < 0.5:
        header["kid"] = rand(rng, LOWER_ALNUM, 8)
    payload = {
        "sub": str(uuid.UUID(int=rng.getrandbits(128))),
        "name": rng.choice(PEOPLE),
        "role": rng.choice(["admin", "editor", "viewer", "service"]),
        "iat": rng.randrange(1_700_000_000, 1_720_000_000),
    }
    payload["exp"] = payload["iat"] + rng.choice([900, 3600, 86400])
    if rng.random() < 0.5:
        payload["iss"] = rng.choice(["https://auth.appenda.io", "appenda-api", "okta"])
    signature_bytes = 32 if header["alg"] == "HS256" else 64 if header["alg"] == "ES256" else 128
    segments = [
        b64url(json.dumps(header, separators=(",", ":")).encode()),
        b64url(json.dumps(payload, separators=(",", ":")).encode()),
        b64url(rng.randbytes(signature_bytes)),
    ]
    return ".".join(segments)


def pem_block(rng: random.Random, label: str, body_bytes: int, truncate: bool) -> str:
    body = base64.b64encode(rng.randbytes(body_bytes)).decode()
    lines = [body[i:i + 64] for i in range(0, len(body), 64)]
    head = f"-----BEGIN {label}-----"
    if truncate:
        return "\n".join([head] + lines[: rng.randrange(4, 8)])
    return "\n".join([head] + lines + [f"-----END {label}-----"])


def private_key_kind(label: str, body_bytes: int, can_truncate: bool):
    templates = [
        "deploy key for the {env} bastion:\n{s}",
        "{person} pasted the {svc} signing key, keep it handy:\n{s}",
        "{s}",
        "SSH key (ci runner)\n{s}\nuse with ssh -i",
        "key material for {svc}: {s}",
    ]

    def generate(rng: random.Random) -> tuple[str, str]:
        truncate = can_truncate and rng.random() < 0.5
        block = pem_block(rng, label, body_bytes, truncate)
        return fill(rng, rng.choice(templates), block, "PRIVATE_KEY"), block

    return generate


def url_kind(schemes: list[str], templates: list[str], allow_empty_user: bool = False):
    def generate(rng: random.Random) -> tuple[str, str]:
        scheme = rng.choice(schemes)
        password = url_password(rng)
        user = "" if allow_empty_user and rng.random() < 0.3 else rng.choice(USERS)
        host = rng.choice(HOSTS)
        port = {"postgres": 5432, "postgresql": 5432, "mysql": 3306, "redis": 6379,
                "rediss": 6380, "amqp": 5672, "amqps": 5671, "ftp": 21, "sftp": 22}.get(scheme)
        netloc = f"{host}:{port}" if port and rng.random() < 0.6 else host
        path = rng.choice(["", "/" + rng.choice(DB_NAMES), "/0", "/" + rng.choice(DB_NAMES)
                           + "?sslmode=require", "/?retryWrites=true&w=majority"])
        url = f"{scheme}://{user}:{password}@{netloc}{path}"
        return fill(rng, rng.choice(templates), url, "DATABASE_URL"), password

    return generate


DB_URL_TEMPLATES = [
    "{env} db is at {s}",
    "DATABASE_URL={s}",
    "connect with: psql '{s}'",
    "The {svc} service reads from {s} (read replica)",
    "Connection string for {person}'s report: {s}",
    "use {s} for the migration dry-run",
    "Verbindung: {s}",
    "{key}: {s}",
    "- url: {s}\n- pool size 10",
]
HTTP_URL_TEMPLATES = [
    "the {svc} webhook posts to {s}",
    "clone via {s}",
    "basic-auth endpoint: {s}",
    "{person} says the legacy export lives at {s}",
    "pip index: {s}",
]


def ado_kind(rng: random.Random) -> tuple[str, str]:
    password = human_password(rng).replace(";", "!")
    host = rng.choice(HOSTS)
    db = rng.choice(DB_NAMES)
    user = rng.choice(USERS)
    style = rng.randrange(4)
    if style == 0:
        conn = (f"Server=tcp:{host},1433;Initial Catalog={db};Persist Security Info=False;"
                f"User ID={user};Password={password};MultipleActiveResultSets=False;Encrypt=True;")
    elif style == 1:
        conn = f"Data Source={host};Initial Catalog={db};User Id={user};Password={password};"
    elif style == 2:
        conn = f"Host={host};Port=5432;Database={db};Username={user};Password={password}"
    else:
        conn = f"Server={host};Database={db};Uid={user};Pwd={password};"
    template = rng.choice([
        "{svc} uses {s}", "connection string ({env}): {s}", "\"ConnectionStrings\": {{ \"Default\": \"{s}\" }}",
        "{s}", "Old SQL Server box: {s} - migrate by Q3",
    ])
    return fill(rng, template, conn, "CONN"), password


def odbc_kind(rng: random.Random) -> tuple[str, str]:
    password = human_password(rng).replace(";", "!").replace("}", ")")
    conn = (f"Driver={{ODBC Driver 18 for SQL Server}};Server={rng.choice(HOSTS)};"
            f"Database={rng.choice(DB_NAMES)};Uid={rng.choice(USERS)};Pwd={password};")
    if rng.random() < 0.5:
        conn = (f"DRIVER={{PostgreSQL Unicode}};SERVER={rng.choice(HOSTS)};PORT=5432;"
                f"DATABASE={rng.choice(DB_NAMES)};UID={rng.choice(USERS)};PWD={password}")
    template = rng.choice(["odbc for the Excel export: {s}", "DSN-less string: {s}", "{s}",
                           "{person}'s Power BI gateway uses {s}"])
    return fill(rng, template, conn, "ODBC"), password


PROSE_PASSWORD_TEMPLATES = [
    "the password for the {env} admin panel is {s}",
    "{env} wifi password: {s}",
    "Password is {s} (ask {person} before changing it)",
    "router password = {s}",
    "use password {s} for the {svc} dashboard",
    "The {svc} service account password was set to {s} yesterday",
    "db password for {user}@{host} is {s}",
    "pwd: {s}",
    "pass={s}",
    "DB_PASSWORD={s}",
    "POSTGRES_PASSWORD: {s}",
    "password: \"{s}\"",
    "admin_password='{s}'",
    "mysql_root_password => {s}",
    "{person}'s VPN passphrase is {s}",
    "Passcode for the shared mailbox: {s}",
    "--password={s}",
    "wifi.password: {s}",
]
MULTILINGUAL_PASSWORD_TEMPLATES = [
    "Das Passwort für den Server ist {s}",
    "Passwort: {s}",
    "Kennwort lautet {s}",
    "Le mot de passe du routeur est {s}",
    "mot de passe : {s}",
    "La contraseña del panel es {s}",
    "contraseña: {s}",
    "A senha do banco é {s}",
    "パスワードは {s} です",
    "パスワード：{s}",
    "密码是 {s}",
    "数据库密码: {s}",
    "Пароль от сервера: {s}",
    "пароль — {s}",
    "كلمة المرور هي {s}",
    "Het wachtwoord is {s}",
]


def password_kind(templates: list[str]):
    def generate(rng: random.Random) -> tuple[str, str]:
        password = human_password(rng)
        return fill(rng, rng.choice(templates), password, "PASSWORD"), password

    return generate


def user_password_pair(rng: random.Random) -> tuple[str, str]:
    password = human_password(rng)
    while not any(c.isdigit() or not c.isalnum() for c in password):
        password = human_password(rng)
    user = rng.choice(USERS + ["admin", "root", "ana.souza", "ops@appenda.io"])
    template = rng.choice([
        "login {u} / {p}",
        "creds: {u}/{p}",
        "user {u} pass {p}",
        "Router admin login: {u} / {p}",
        "username: {u}, password: {p}",
        "sign in with {u} / {p} on the {env} console",
        "credentials for the test tenant — {u} / {p}",
        "account {u} password {p}",
        "Benutzer {u} Passwort {p}",
    ])
    text = template.format(u=user, p=password, env=rng.choice(ENVS))
    return text, password


def curl_user(rng: random.Random) -> tuple[str, str]:
    password = url_password(rng)
    user = rng.choice(USERS)
    url = f"https://{rng.choice(['api', 'jenkins', 'registry', 'es'])}.{rng.choice(['internal', 'appenda.io', 'corp.local'])}/"
    template = rng.choice([
        "curl -u {u}:{p} {url}health",
        "To trigger the job: curl -X POST -u {u}:{p} {url}job/build",
        "curl --user {u}:{p} -H 'Accept: application/json' {url}v1/items",
    ])
    return template.format(u=user, p=password, url=url), password


def bearer(rng: random.Random) -> tuple[str, str]:
    token = rand(rng, ALNUM + "-._~", rng.randrange(32, 64))
    while not (any(c.isdigit() for c in token) and any(c.isupper() for c in token)):
        token = rand(rng, ALNUM + "-._~", rng.randrange(32, 64))
    template = rng.choice([
        "curl -H \"Authorization: Bearer {s}\" https://api.{d}/v1/me",
        "curl https://api.{d}/v2/orders -H 'Authorization: Bearer {s}' -H 'Accept: application/json'",
        "Authorization: Bearer {s}",
        "send header authorization=Bearer {s} to the {svc} proxy",
        "X-API-Key: {s}",
        "curl -H 'X-Auth-Token: {s}' https://api.{d}/status",
    ])
    text = template.format(s=token, d=rng.choice(["vendor.com", "example.net", "internal"]),
                           svc=rng.choice(SERVICES))
    return text, token


def basic_header(rng: random.Random) -> tuple[str, str]:
    creds = f"{rng.choice(USERS)}:{human_password(rng)}"
    token = base64.b64encode(creds.encode()).decode()
    template = rng.choice([
        "Authorization: Basic {s}",
        "curl -H 'Authorization: Basic {s}' https://jenkins.internal/api/json",
        "the {svc} proxy expects header Authorization: Basic {s}",
    ])
    return template.format(s=token, svc=rng.choice(SERVICES)), token


GENERIC_KEY_TEMPLATES = [
    "api_key={s}",
    "The {svc} API key is {s}",
    "{svc} api key: {s}",
    "client_secret: {s}",
    "token: {s}",
    "access_token = \"{s}\"",
    "SECRET_KEY = '{s}'",
    "webhook signing secret for {svc}: {s}",
    "{ENV}={s}",
    "Use token {s} for the {env} {svc} calls",
    "x-api-key: {s}",
    "auth token ({env}): {s}",
    "the {svc} secret is {s}",
]


def generic_token(rng: random.Random) -> str:
    style = rng.randrange(4)
    if style == 0:
        return rand(rng, HEX, rng.choice([32, 40, 48, 64]))
    if style == 1:
        token = rand(rng, ALNUM, rng.randrange(20, 48))
        return token if any(c.isdigit() for c in token) else token + str(rng.randrange(10))
    if style == 2:
        return base64.b64encode(rng.randbytes(rng.choice([24, 32, 48]))).decode()
    return rand(rng, B64URL, rng.randrange(24, 44))


def django_secret(rng: random.Random) -> str:
    alphabet = "abcdefghijklmnopqrstuvwxyz0123456789!@#$%^&*(-_=+)"
    key = rand(rng, alphabet, 50)
    return ("django-insecure-" + key) if rng.random() < 0.3 else key


BARE_TEMPLATES = [
    "for the {env} cluster use {s}",
    "{person} said to keep {s} for the {svc} backfill",
    "{svc}: {s}",
    "keep this for later → {s}",
]


def bare_token(rng: random.Random) -> str:
    while True:
        token = rand(rng, ALNUM, rng.randrange(28, 48))
        if (any(c.isdigit() for c in token) and any(c.isupper() for c in token)
                and any(c.islower() for c in token)):
            return token


def default_account_pair(rng: random.Random) -> tuple[str, str]:
    password = human_password(rng).replace("/", "!").replace(":", "!")
    while not any(c.isdigit() for c in password):
        password = human_password(rng).replace("/", "!").replace(":", "!")
    text = rng.choice([
        "Router: admin/{p}",
        "NAS login root:{p} (change after the move)",
        "SQL box uses sa / {p}",
        "the camera web UI is admin / {p}",
        "Jenkins fallback account: admin:{p}",
    ]).format(p=password)
    return text, password


def quoted_password_first(rng: random.Random) -> tuple[str, str]:
    password = human_password(rng).replace("'", "").replace('"', "")
    text = rng.choice([
        "Use '{p}' as the password for the test account",
        "\"{p}\" is the wifi password in the Lisbon office",
        "{person} set '{p}' as the new VPN passphrase",
    ]).format(p=password, person=rng.choice(PEOPLE))
    return text, password


def jdbc_url(rng: random.Random) -> tuple[str, str]:
    password = url_password(rng).replace("&", "").replace(";", "")
    text = rng.choice([
        "jdbc:postgresql://{h}:5432/{db}?user={u}&password={p}",
        "JDBC_URL=jdbc:mysql://{h}:3306/{db}?user={u}&password={p}&useSSL=true",
        "jdbc:sqlserver://{h}:1433;databaseName={db};user={u};password={p};encrypt=true",
    ]).format(h=rng.choice(HOSTS), db=rng.choice(DB_NAMES), u=rng.choice(USERS), p=password)
    return text, password


def mysql_cli(rng: random.Random) -> tuple[str, str]:
    password = url_password(rng)
    text = rng.choice([
        "mysql -h {h} -u {u} -p{p} {db}",
        "backup: mysqldump -u{u} -p{p} --single-transaction {db} > dump.sql",
    ]).format(h=rng.choice(HOSTS), u=rng.choice(USERS), p=password, db=rng.choice(DB_NAMES))
    return text, password


def azure_storage(rng: random.Random) -> tuple[str, str]:
    account = rng.choice(["appendaexports", "stgreports01", "eudata", "backupsprod"])
    key = base64.b64encode(rng.randbytes(64)).decode()
    conn = (f"DefaultEndpointsProtocol=https;AccountName={account};AccountKey={key};"
            "EndpointSuffix=core.windows.net")
    template = rng.choice(["blob export uses {s}", "AZURE_STORAGE_CONNECTION_STRING={s}",
                           "{person}: storage conn string is {s}", "{s}"])
    return fill(rng, template, conn, "AZURE"), key


def azure_sas(rng: random.Random) -> tuple[str, str]:
    signature = base64.b64encode(rng.randbytes(32)).decode()
    encoded = signature.replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")
    url = (f"https://{rng.choice(['appendaexports', 'eudata'])}.blob.core.windows.net/"
           f"{rng.choice(['exports', 'reports', 'backups'])}?sv=2022-11-02&ss=b&srt=co&sp=rl"
           f"&se=2025-0{rng.randrange(1, 9)}-01T00:00:00Z&st=2024-01-01T00:00:00Z&spr=https"
           f"&sig={encoded}")
    template = rng.choice(["SAS link for the auditors: {s}", "read-only container URL {s}",
                           "download from {s} before it expires"])
    return fill(rng, template, url, "SAS"), encoded


def azure_service_bus(rng: random.Random) -> tuple[str, str]:
    key = base64.b64encode(rng.randbytes(32)).decode()
    conn = (f"Endpoint=sb://{rng.choice(['appenda-events', 'orders-bus'])}.servicebus.windows.net/;"
            f"SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey={key}")
    template = rng.choice(["service bus: {s}", "ServiceBus__ConnectionString={s}",
                           "{svc} publishes with {s}"])
    return fill(rng, template, conn, "SB"), key


def aws_secret(rng: random.Random) -> tuple[str, str]:
    access = "AKIA" + rand(rng, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16)
    secret = rand(rng, B64, 40)
    template = rng.choice([
        "aws_secret_access_key = {s}",
        "AWS secret access key: {s}",
        "AWS_SECRET_ACCESS_KEY={s}",
        "aws creds for the exporter: key id {a}, secret key {s}",
        "[default]\naws_access_key_id = {a}\naws_secret_access_key = {s}",
    ])
    return template.format(s=secret, a=access), secret


def twilio_auth(rng: random.Random) -> tuple[str, str]:
    sid = "AC" + rand(rng, HEX, 32)
    token = rand(rng, HEX, 32)
    template = rng.choice([
        "Twilio account {sid}, auth token {t}",
        "TWILIO_AUTH_TOKEN={t}",
        "twilio: sid={sid} auth_token={t}",
    ])
    return template.format(sid=sid, t=token), token


def telegram(rng: random.Random) -> str:
    return f"{rng.randrange(10**8, 10**10)}:AA{rand(rng, B64URL, 33)}"


def discord(rng: random.Random) -> str:
    user_id = str(rng.randrange(10**17, 10**19)).encode()
    first = base64.b64encode(user_id).decode().rstrip("=")
    while first[0] not in "MNO" or len(first) < 24:
        user_id = str(rng.randrange(10**17, 10**19)).encode()
        first = base64.b64encode(user_id).decode().rstrip("=")
    return f"{first[:26]}.{rand(rng, B64URL, 6)}.{rand(rng, B64URL, 27)}"


SECRET_KINDS: dict[str, Callable[[random.Random], tuple[str, str]]] = {
    "aws_access_key": vendor_kind("AWS_ACCESS_KEY_ID", lambda r: r.choice(
        ["AKIA", "ASIA"]) + rand(r, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16)),
    "aws_secret_key": aws_secret,
    "github_classic_pat": vendor_kind("GITHUB_TOKEN", lambda r: "ghp_" + rand(r, ALNUM, 36)),
    "github_oauth": vendor_kind("GH_OAUTH", lambda r: "gho_" + rand(r, ALNUM, 36)),
    "github_app": vendor_kind("GH_APP_TOKEN", lambda r: "ghs_" + rand(r, ALNUM, 36)),
    "github_fine_grained_pat": vendor_kind(
        "GITHUB_PAT", lambda r: "github_pat_" + rand(r, ALNUM, 22) + "_" + rand(r, ALNUM, 59)),
    "gitlab_pat": vendor_kind("GITLAB_TOKEN", lambda r: "glpat-" + rand(r, B64URL, 20)),
    "slack_bot_token": vendor_kind("SLACK_BOT_TOKEN", lambda r: "xoxb-" + rand(r, string.digits, 12)
                                   + "-" + rand(r, string.digits, 13) + "-" + rand(r, ALNUM, 24)),
    "slack_user_token": vendor_kind("SLACK_TOKEN", lambda r: "xoxp-" + rand(r, string.digits, 11)
                                    + "-" + rand(r, string.digits, 12) + "-"
                                    + rand(r, string.digits, 13) + "-" + rand(r, HEX, 32)),
    "slack_webhook": vendor_kind("SLACK_WEBHOOK_URL", lambda r: "https://hooks.slack.com/services/T"
                                 + rand(r, UPPER_ALNUM, 8) + "/B" + rand(r, UPPER_ALNUM, 10) + "/"
                                 + rand(r, ALNUM, 24)),
    "stripe_secret_key": vendor_kind("STRIPE_SECRET_KEY", lambda r: r.choice(["sk_live_", "sk_test_"])
                                     + rand(r, ALNUM, r.choice([24, 34, 99]))),
    "stripe_restricted_key": vendor_kind("STRIPE_KEY", lambda r: "rk_live_" + rand(r, ALNUM, r.choice([24, 99]))),
    "stripe_webhook_secret": vendor_kind("STRIPE_WEBHOOK_SECRET", lambda r: "whsec_" + rand(r, ALNUM, 32)),
    "sendgrid_key": vendor_kind("SENDGRID_API_KEY", lambda r: "SG." + rand(r, B64URL, 22) + "."
                                + rand(r, B64URL, 43)),
    "twilio_api_key": vendor_kind("TWILIO_API_KEY", lambda r: "SK" + rand(r, HEX, 32)),
    "twilio_auth_token": twilio_auth,
    "mailgun_key": vendor_kind("MAILGUN_API_KEY", lambda r: r.choice(
        ["key-" + rand(r, HEX, 32), rand(r, HEX, 32) + "-" + rand(r, HEX, 8) + "-" + rand(r, HEX, 8)])),
    "openai_legacy_key": vendor_kind("OPENAI_API_KEY", lambda r: "sk-" + rand(r, ALNUM, 20) + "T3BlbkFJ"
                                     + rand(r, ALNUM, 20)),
    "openai_project_key": vendor_kind("OPENAI_API_KEY", lambda r: "sk-proj-" + rand(r, B64URL, r.choice([48, 74, 156]))),
    "anthropic_key": vendor_kind("ANTHROPIC_API_KEY", lambda r: "sk-ant-api03-" + rand(r, B64URL, 93) + "AA"),
    "huggingface_token": vendor_kind("HF_TOKEN", lambda r: "hf_" + rand(r, string.ascii_letters, 34)),
    "npm_token": vendor_kind("NPM_TOKEN", lambda r: "npm_" + rand(r, ALNUM, 36)),
    "pypi_token": vendor_kind("PYPI_TOKEN", lambda r: "pypi-AgEIcHlwaS5vcmc" + rand(r, B64URL, r.choice([70, 120, 160]))),
    "digitalocean_token": vendor_kind("DIGITALOCEAN_TOKEN", lambda r: "dop_v1_" + rand(r, HEX, 64)),
    "google_api_key": vendor_kind("GOOGLE_API_KEY", lambda r: "AIza" + rand(r, B64URL, 35)),
    "azure_storage_connection_string": azure_storage,
    "azure_sas_url": azure_sas,
    "azure_service_bus": azure_service_bus,
    "private_key_rsa": private_key_kind("RSA PRIVATE KEY", 1190, True),
    "private_key_openssh": private_key_kind("OPENSSH PRIVATE KEY", 300, False),
    "private_key_ec": private_key_kind("EC PRIVATE KEY", 121, False),
    "private_key_pkcs8": private_key_kind("PRIVATE KEY", 1210, True),
    "jwt": vendor_kind("JWT", jwt),
    "postgres_url": url_kind(["postgres", "postgresql"], DB_URL_TEMPLATES),
    "mysql_url": url_kind(["mysql"], DB_URL_TEMPLATES),
    "mongodb_url": url_kind(["mongodb", "mongodb+srv"], DB_URL_TEMPLATES),
    "redis_url": url_kind(["redis", "rediss"], DB_URL_TEMPLATES, allow_empty_user=True),
    "amqp_url": url_kind(["amqp", "amqps"], DB_URL_TEMPLATES),
    "ftp_url": url_kind(["ftp", "sftp"], DB_URL_TEMPLATES + ["upload nightly files to {s}"]),
    "https_basic_auth_url": url_kind(["https", "http"], HTTP_URL_TEMPLATES),
    "ado_connection_string": ado_kind,
    "odbc_connection_string": odbc_kind,
    "password_in_prose": password_kind(PROSE_PASSWORD_TEMPLATES),
    "password_non_english": password_kind(MULTILINGUAL_PASSWORD_TEMPLATES),
    "user_password_pair": user_password_pair,
    "curl_basic_auth": curl_user,
    "bearer_token": bearer,
    "basic_auth_header": basic_header,
    "generic_api_key": keyword_kind(GENERIC_KEY_TEMPLATES, generic_token, "API_KEY"),
    "django_secret_key": keyword_kind(["SECRET_KEY = '{s}'", "DJANGO_SECRET_KEY=\"{s}\"",
                                       "settings: SECRET_KEY=\"{s}\""], django_secret, "SECRET_KEY"),
    "mysql_cli_password": mysql_cli,
    "default_account_pair": default_account_pair,
    "quoted_password_first": quoted_password_first,
    "jdbc_url_password": jdbc_url,
    "smtp_url": url_kind(["smtp", "smtps"], DB_URL_TEMPLATES + ["outgoing mail relay: {s}"]),
    "tailscale_key": vendor_kind("TS_AUTHKEY", lambda r: "tskey-auth-" + rand(r, ALNUM, 11) + "CNTRL-"
                                 + rand(r, ALNUM, 33)),
    "bare_high_entropy": keyword_kind(BARE_TEMPLATES, bare_token, "TOKEN"),
    "discord_bot_token": vendor_kind("DISCORD_TOKEN", discord),
    "telegram_bot_token": vendor_kind("TELEGRAM_BOT_TOKEN", telegram),
    "shopify_token": vendor_kind("SHOPIFY_TOKEN", lambda r: "shpat_" + rand(r, HEX, 32)),
    "vault_token": vendor_kind("VAULT_TOKEN", lambda r: "hvs." + rand(r, B64URL, r.choice([24, 90]))),
    "databricks_token": vendor_kind("DATABRICKS_TOKEN", lambda r: "dapi" + rand(r, HEX, 32)),
    "mailchimp_key": vendor_kind("MAILCHIMP_KEY", lambda r: rand(r, HEX, 32) + "-us" + str(r.randrange(1, 21))),
    "square_token": vendor_kind("SQUARE_TOKEN", lambda r: r.choice(
        ["EAAA" + rand(r, B64URL, 60), "sq0csp-" + rand(r, B64URL, 43)])),
    "linear_key": vendor_kind("LINEAR_API_KEY", lambda r: "lin_api_" + rand(r, ALNUM, 40)),
    "grafana_token": vendor_kind("GRAFANA_TOKEN", lambda r: "glsa_" + rand(r, ALNUM, 32) + "_" + rand(r, HEX, 8)),
    "postman_key": vendor_kind("POSTMAN_API_KEY", lambda r: "PMAK-" + rand(r, HEX, 24) + "-" + rand(r, HEX, 34)),
}


# --------------------------------------------------------------------------------------------
# Benign notes: the hard negatives and everyday agent memory
# --------------------------------------------------------------------------------------------

def sha(rng: random.Random, n: int = 40) -> str:
    return rand(rng, HEX, n)


def a_uuid(rng: random.Random) -> str:
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


def iso_datetime(rng: random.Random) -> str:
    date = f"20{rng.randrange(19, 26)}-{rng.randrange(1, 13):02d}-{rng.randrange(1, 29):02d}"
    time = f"{rng.randrange(24):02d}:{rng.randrange(60):02d}:{rng.randrange(60):02d}"
    suffix = rng.choice(["Z", "+02:00", ".123Z", "", "-05:00", ".456789+00:00"])
    return f"{date}T{time}{suffix}"


def version(rng: random.Random) -> str:
    core = f"{rng.randrange(0, 30)}.{rng.randrange(0, 40)}.{rng.randrange(0, 60)}"
    return rng.choice([core, "v" + core, core + "-rc." + str(rng.randrange(1, 5)),
                       core + "+build." + str(rng.randrange(1, 999)), core + ".post1"])


def benign_preference(rng: random.Random) -> str:
    return rng.choice([
        "{p} prefers short answers with a table first, details after.",
        "Send the weekly {svc} summary on {d}s at {h}:00 CET, not earlier.",
        "User wants amounts in EUR with two decimals and thousands separators.",
        "{p} likes charts as bar charts, never pie charts; dark mode screenshots.",
        "Always answer {p} in German unless they write in English.",
        "Prefers Slack DMs over email for anything about {svc}.",
        "When summarising tickets, group by priority then by team ({t} first).",
        "{p} is on parental leave until {date}; route {svc} questions to {p2}.",
        "Use metric units; dates as DD.MM.YYYY for the {t} team reports.",
    ]).format(p=rng.choice(PEOPLE), p2=rng.choice(PEOPLE), svc=rng.choice(SERVICES),
              d=rng.choice(DAYS), h=rng.randrange(7, 18), t=rng.choice(TEAMS),
              date=iso_datetime(rng)[:10])


def benign_convention(rng: random.Random) -> str:
    return rng.choice([
        "Branch names follow feature/APP-{n}-short-slug; squash-merge only.",
        "PR titles use Conventional Commits (feat:, fix:, chore:); the {t} team reviews SQL.",
        "No deploys on Fridays after 15:00; hotfixes need two approvals.",
        "Migrations must be backwards compatible for one release (expand, then contract).",
        "Feature flags live in LaunchDarkly under the {t} project, prefix ff_{t}_.",
        "Tests: pytest -q --reuse-db; factories in tests/factories.py, never fixtures JSON.",
        "Naming: tables are plural snake_case ({tb}), columns singular ({col}).",
        "Incidents go to #incidents, postmortem within 5 working days, template in Notion.",
        "Code owners for {tb}: @{t}-team; ping {p} for schema changes.",
        "We tag releases as v{ver} and write the changelog by hand.",
    ]).format(n=rng.randrange(100, 9999), t=rng.choice(TEAMS), tb=rng.choice(TABLES),
              col=rng.choice(COLUMNS), p=rng.choice(PEOPLE), ver=version(rng).lstrip("v"))


def benign_table_fact(rng: random.Random) -> str:
    tb, tb2 = rng.sample(TABLES, 2)
    return rng.choice([
        "{tb}.customer_id references customers.id; filter on {tb}.created_at (timestamptz).",
        "The `{tb}` table has {n} rows; status in ('draft','sent','paid','void').",
        "Join {tb} to {tb2} on {tb2}.{col} = {tb}.id, then aggregate by region.",
        "{tb}.{col} is nullable since the {date} migration; treat NULL as unknown.",
        "Revenue = sum({tb}.total_cents) / 100 where currency = 'EUR' and deleted_at is null.",
        "Column {tb}.{col} is indexed (btree); {tb2}.external_ref has a unique constraint.",
        "users.password_hash is argon2id; never select it in reports.",
        "The {tb} export maps {col} → '{Col}' in the CSV header.",
    ]).format(tb=tb, tb2=tb2, col=rng.choice(COLUMNS), Col=rng.choice(COLUMNS).title(),
              n=f"{rng.randrange(1, 900)}{rng.choice(['k', 'M', ',000'])}",
              date=iso_datetime(rng)[:10])


def benign_uuid(rng: random.Random) -> str:
    return rng.choice([
        "Workspace {u} is the EU demo tenant; don't write test data there.",
        "request id {u} failed with 502 at {dt}",
        "idempotency key: {u}",
        "The {svc} integration id is {u} (see admin → integrations).",
        "bot {u} owns the nightly {svc} routine",
        "trace {u2} shows the slow query in {tb}",
        "Correlation-ID: {u}",
        "table {tb} id {u}, column id {u2}",
    ]).format(u=a_uuid(rng), u2=a_uuid(rng).replace("-", ""), dt=iso_datetime(rng),
              svc=rng.choice(SERVICES), tb=rng.choice(TABLES))


def benign_git(rng: random.Random) -> str:
    return rng.choice([
        "Deployed commit {s} to {env} at {dt}.",
        "The regression came in with commit {s}; revert is ready.",
        "hotfix is in {short} (sha {s})",
        "Pinned the vendored lib to revision {s}.",
        "git cherry-pick {s} onto release/{ver}",
        "Merge commit {s} broke the {svc} build; bisected by {p}.",
        "HEAD of main is {s} as of {dt}",
        "Tag v{ver} points at {s}",
        "The diff {short}..{short2} only touches {tb} migrations.",
        "rev {s} - last known good for {svc}",
        "git hash {s} is what {env} runs",
    ]).format(s=sha(rng), short=sha(rng, 7), short2=sha(rng, 7), env=rng.choice(ENVS),
              dt=iso_datetime(rng), ver=version(rng).lstrip("v"), svc=rng.choice(SERVICES),
              p=rng.choice(PEOPLE), tb=rng.choice(TABLES))


def benign_checksum(rng: random.Random) -> str:
    return rng.choice([
        "sha256 of the release tarball: {h64}",
        "md5 {h32} matches the vendor's file",
        "ETag \"{h32}\" for the exports bucket object",
        "image ghcr.io/appenda/web@sha256:{h64}",
        "checksum {h64} (verify before import)",
        "SHA-1 fingerprint of the cert: {h40}",
        "digest: sha512:{h128}",
        "The object hash {h40} is cached in {tb}_cache",
        "integrity sha384-{b64}",
        "Checksum mismatch on {tb}_2024_03.csv: expected {h32} got {h32b}",
    ]).format(h32b=sha(rng, 32), h32=sha(rng, 32), h40=sha(rng, 40), h64=sha(rng, 64), h128=sha(rng, 128),
              tb=rng.choice(TABLES), b64=base64.b64encode(rng.randbytes(48)).decode())


def benign_colours(rng: random.Random) -> str:
    colours = ["#" + rand(rng, HEX, 6) for _ in range(3)] + ["#" + rand(rng, "0123456789ABCDEF", 6)]
    return rng.choice([
        "Brand primary is {0}, secondary {1}, error {2}.",
        "Chart palette: {0} {1} {2} {3}",
        "{p} wants the header in {3} and links in {0}; short form #fff for text.",
        "Dark theme background {1}, borders rgba(0,0,0,0.12), accent {2}",
    ]).format(*colours, p=rng.choice(PEOPLE))


def benign_datetime(rng: random.Random) -> str:
    return rng.choice([
        "Last sync {a}; next run {b} UTC.",
        "Quarter closes {d}; freeze starts {a}.",
        "The {svc} job runs at cron 0 2 * * 1-5 (first run {a}).",
        "Data before {d} is in the archive bucket.",
        "Window: {a} → {b}, duration PT45M",
        "Timestamps are stored as {a} style ISO 8601 strings in {tb}.",
    ]).format(a=iso_datetime(rng), b=iso_datetime(rng), d=iso_datetime(rng)[:10],
              svc=rng.choice(SERVICES), tb=rng.choice(TABLES))


def benign_versions(rng: random.Random) -> str:
    return rng.choice([
        "Pinned Django {a}, psycopg {b}; app version {c}.",
        "Runner image is python:{py}-slim with node {b}.",
        "Upgrade {svc} client from {a} to {c} after the vendor fix.",
        "Minimum supported iOS app build {a} (build {n}).",
        "postgres {pg} in prod, {pg2} in staging; pgvector {a}",
        "Chrome {n}.0.{n2}.{n3} renders the export fine",
    ]).format(a=version(rng), b=version(rng), c=version(rng), py=f"3.{rng.randrange(9, 14)}",
              svc=rng.choice(SERVICES), n=rng.randrange(100, 130), n2=rng.randrange(1000, 7000),
              n3=rng.randrange(10, 200), pg=rng.randrange(12, 18), pg2=rng.randrange(12, 18))


def benign_sql(rng: random.Random) -> str:
    tb, tb2 = rng.sample(TABLES, 2)
    return rng.choice([
        "SELECT c.id, sum(o.total_cents) FROM orders o JOIN customers c ON c.id = o.customer_id "
        "WHERE o.created_at >= '{d}' GROUP BY 1 ORDER BY 2 DESC LIMIT 50;",
        "select count(*) from {tb} where {col} is null and deleted_at is null",
        "UPDATE users SET password_reset_at = now() WHERE last_login_at < '{d}';",
        "SELECT id FROM users WHERE password_hash IS NOT NULL AND sso_only = false;",
        "CREATE INDEX CONCURRENTLY idx_{tb}_{col} ON {tb} ({col});",
        "WITH recent AS (SELECT * FROM {tb} WHERE created_at > now() - interval '30 days') "
        "SELECT region, count(*) FROM recent GROUP BY region;",
        "ALTER TABLE {tb2} ADD COLUMN api_key_hash text; -- only the hash, never the key",
        "DELETE FROM sessions WHERE expires_at < now() - interval '7 days';",
    ]).format(tb=tb, tb2=tb2, col=rng.choice(COLUMNS), d=iso_datetime(rng)[:10])


def benign_url(rng: random.Random) -> str:
    return rng.choice([
        "Dashboard: https://grafana.internal/d/{slug}/orders?orgId=1&from=now-7d",
        "{env} db: postgres://{host}:5432/{db} (credentials in {tool})",
        "Sheet: https://docs.google.com/spreadsheets/d/{gid}/edit#gid=0",
        "exports land in s3://appenda-exports/eu/{y}/{m:02d}/",
        "PR: https://github.com/appenda/app/pull/{n}",
        "Demo video https://www.youtube.com/watch?v={yt}",
        "repo: git@github.com:appenda/{db}.git",
        "mongodb://mongo-0.mongo:27017,mongo-1.mongo:27017/{db}?replicaSet=rs0",
        "cache at redis://{host}:6379/0, no auth inside the VPC",
        "Sentry DSN https://{h32}@o{n}.ingest.sentry.io/{n2}",
        "Docs: https://docs.djangoproject.com/en/5.0/ref/settings/#secret-key",
        "API base https://api.appenda.io/v2/{tb}?page=2&sort=-created_at",
        "Figma: https://www.figma.com/file/{fig}/Appenda-UI?node-id=12%3A34",
        "ssh deploy@{host} then sudo -u app bash",
        "amqp://{host}:5672/%2F (guest access disabled)",
        "https://{user}@bitbucket.org/appenda/{db}.git",
    ]).format(slug=rand(rng, ALNUM, 9), env=rng.choice(ENVS), host=rng.choice(HOSTS),
              db=rng.choice(DB_NAMES), tool=rng.choice(TOOLS), gid=rand(rng, B64URL, 44),
              y=rng.randrange(2020, 2026), m=rng.randrange(1, 13), n=rng.randrange(100, 9000),
              n2=rng.randrange(1000, 9999999), yt=rand(rng, B64URL, 11), h32=sha(rng, 32),
              tb=rng.choice(TABLES), fig=rand(rng, ALNUM, 22), user=rng.choice(USERS))


def benign_identifier(rng: random.Random) -> str:
    return rng.choice([
        "Use {tb}.{col} not {tb}.{camel}.",
        "The serializer is CustomerOrderSummaryV2Serializer in memories/api/serializers.py",
        "OPENAI_API_KEY must be set in the runner env; it is read at startup.",
        "STRIPE_SECRET_KEY comes from {tool}, never from .env files.",
        "Env var names: DATABASE_URL, REDIS_URL, SENTRY_DSN, AWS_ACCESS_KEY_ID (values in {tool}).",
        "function get_{tb}_by_{col}_and_region_v2 replaces the old lookup",
        "metric name appenda.{tb}.{col}.p95_latency_ms",
        "k8s deployment web-{h5}-{p5}; namespace appenda-{env}",
        "Jira APP-{n} tracks the {tb} cleanup; epic APP-{n2}",
        "The api_key column stores only a prefix (first 8 chars) for display.",
        "settings.SECRET_KEY is loaded from the environment in production.",
        "token_type: bearer, expires_in: 3600, scope: read:{tb}",
        "refresh_token_ttl = 30d; access_token_ttl = 15m",
    ]).format(tb=rng.choice(TABLES), col=rng.choice(COLUMNS),
              camel="".join(w.title() for w in rng.choice(COLUMNS).split("_")),
              tool=rng.choice(TOOLS), h5=rand(rng, HEX, 9), p5=rand(rng, LOWER_ALNUM, 5),
              env=rng.choice(ENVS), n=rng.randrange(100, 9999), n2=rng.randrange(100, 9999))


def benign_path(rng: random.Random) -> str:
    return rng.choice([
        "Postgres data dir is /var/lib/postgresql/{pg}/main/base/{n}",
        "Local cache: C:\\Users\\{p}\\AppData\\Local\\Appenda\\cache\\{tb}",
        "Edit ~/projects/appenda/memories/refusals/secrets.py for the detector",
        "Component lives in src/components/{Tb}Table/{Tb}TableRow.tsx",
        "logs under /var/log/appenda/{d}/worker-{n}.log",
        "config file: /etc/appenda/regions/eu-central-1/settings.toml",
        "fixtures at tests/data/{tb}_2024_q{q}_snapshot.csv",
        "the runner's pwd is /srv/app/releases/{d}",
    ]).format(pg=rng.randrange(12, 18), n=rng.randrange(10000, 99999), p=rng.choice(PEOPLE).lower(),
              tb=rng.choice(TABLES), Tb=rng.choice(TABLES).title(), d=iso_datetime(rng)[:10],
              q=rng.randrange(1, 5))


def benign_prose(rng: random.Random) -> str:
    return rng.choice([
        "{p} is the go-to person for anything about {svc}; they are in Lisbon (UTC+0).",
        "The customer churned because invoices were sent twice in March; be careful with re-runs.",
        "Quarterly planning happens the second week of the quarter; bring last quarter's numbers.",
        "When the {svc} queue backs up, check the dead-letter queue before restarting workers.",
        "Agents should not email customers directly; draft, then ask {p} to send.",
        "The {t} team owns the dashboards; ask before adding a new chart to the main board.",
        "Rounding: keep cents as integers and round only when displaying.",
        "The import is slow because of the unindexed join on {tb}.{col}; an index is planned.",
        "Holiday calendar: Germany for the EU team, US federal for the US team.",
        "If a report looks off by exactly 100x, someone forgot cents-to-euros.",
    ]).format(p=rng.choice(PEOPLE), svc=rng.choice(SERVICES), t=rng.choice(TEAMS),
              tb=rng.choice(TABLES), col=rng.choice(COLUMNS))


NON_ENGLISH = [
    "Der Kunde möchte die Rechnungen immer am Monatsende als PDF erhalten.",
    "Passwörter müssen alle 90 Tage geändert werden; das erzwingt Okta.",
    "Bitte Berichte auf Deutsch und mit Tausenderpunkten formatieren.",
    "Das Passwort wird über das Self-Service-Portal zurückgesetzt.",
    "Le client préfère recevoir le rapport hebdomadaire le lundi matin.",
    "Le mot de passe doit contenir au moins douze caractères.",
    "Les montants sont en euros, arrondis au centime près.",
    "La réinitialisation du mot de passe passe par Okta.",
    "El equipo de soporte responde en español y en portugués.",
    "La contraseña se restablece desde el portal de autoservicio.",
    "Los informes trimestrales se envían la primera semana del trimestre.",
    "Las contraseñas caducan cada 90 días según la política.",
    "ユーザーは毎週月曜日に売上レポートを受け取りたい。",
    "パスワードは90日ごとに変更してください。",
    "請求書は月末にPDFで送付すること。",
    "パスワードのリセットはOktaで行います。",
    "用户希望每周一收到销售报告，金额以欧元显示。",
    "密码每90天必须更换一次，由Okta强制执行。",
    "数据库表 orders 的 customer_id 列引用 customers.id。",
    "重置密码请通过自助服务门户。",
    "يفضل العميل استلام التقارير باللغة العربية كل يوم أحد.",
    "يجب تغيير كلمة المرور كل 90 يومًا.",
    "الفواتير تُرسل في نهاية كل شهر بصيغة PDF.",
    "Клиент хочет получать отчёты по понедельникам в 9:00 по Москве.",
    "Пароль должен содержать не менее 12 символов.",
    "Сброс пароля выполняется через Okta.",
    "Суммы указываются в рублях с двумя знаками после запятой.",
    "Het wachtwoord wordt elke 90 dagen vervangen.",
    "A senha deve ser trocada a cada 90 dias.",
    "Şifre sıfırlama Okta üzerinden yapılır.",
]


def benign_non_english(rng: random.Random) -> str:
    first, second = rng.sample(NON_ENGLISH, 2)
    return first if rng.random() < 0.5 else f"{first} {second}"


def benign_numbers(rng: random.Random) -> str:
    return rng.choice([
        "Support hotline +49 30 {a} {b}; US line (415) 555-0{c}.",
        "Invoice total 12,{c}.67 EUR; order #{n}",
        "IBAN DE89 3704 0044 0532 0130 00 is the collections account (not a secret, it's on invoices).",
        "Tracking number 1Z999AA1{n}84 for the replacement laptop",
        "Average basket {a}.{b} EUR, median {c}, p95 {n}",
        "Call +1-202-555-0{c} ext. {b} for the warehouse",
        "Employee count {n}; office capacity {c}.",
        "Account number ending in {c} (last four only).",
        "{n}{a}{b}{c} rows were imported, {c} rejected",
        "AWS account 1234{n}{b} is prod, role arn:aws:iam::1234{n}{b}:role/deploy",
    ]).format(a=rng.randrange(100, 999), b=rng.randrange(1000, 9999), c=rng.randrange(100, 999),
              n=rng.randrange(10000, 99999))


def benign_password_talk(rng: random.Random) -> str:
    return rng.choice([
        "password resets go through {tool}",
        "rotate passwords every {n} days",
        "the password field must be hashed",
        "Password: managed by SSO, no local accounts.",
        "Never store passwords in notes; use {tool}.",
        "password_hash uses argon2id with the default parameters",
        "The `password` column is nullable for SSO users.",
        "password min length is {m}, no composition rules (NIST 800-63B).",
        "Users reset their password at /account/password-reset",
        "DB password lives in Vault at secret/data/{env}/db",
        "password=${{DB_PASSWORD}} is injected at deploy time",
        "Password: ********",
        "pass rate for the test suite: {m}%",
        "tests pass: {n}, fail: 3",
        "api_key is read from env OPENAI_API_KEY",
        "token expiry is 3600 seconds",
        "refresh tokens rotate every {n} days",
        "the secret key is stored in {tool}",
        "API key: see {tool} item '{svc} {env}'",
        "Authorization: Bearer <token>",
        "postgres://USER:PASSWORD@HOST:5432/DB is the template for new services",
        "The password policy requires MFA for admins.",
        "If a user forgets their password, send them the reset link, never a new password.",
        "{p} asked whether the password is stored in plaintext - it is not, it's hashed.",
        "password: see {tool}",
        "the password is in {tool} under '{svc}'",
        "pwd is the shell command; the password for the box is in {tool}",
        "The wifi password changed last week; ask reception.",
        "passwords expire after {n} days for contractors",
        "token: use the one from {tool}, never paste it here",
        "client_secret: stored in {tool} ({env})",
        "Password hashing: PBKDF2 with 600000 iterations.",
        "secret rotation is automatic every {n} days",
        "set password_required: true for service accounts",
        "username/password auth is disabled; OAuth only",
        "curl -H \"Authorization: Bearer $TOKEN\" https://api.appenda.io/v2/me",
        "export OPENAI_API_KEY=<your key>",
        "DATABASE_URL=postgres://app:${{DB_PASSWORD}}@db.internal:5432/app",
        "The login page / dashboard redirect loops on Safari.",
        "pass the customer_id to the export job",
        "passwd entry for the app user: app:x:1001:1001::/srv/app:/usr/sbin/nologin",
        "password: ${{DB_PASSWORD:-changeme}}",
        "The password manager is {tool}; shared vault 'Engineering'.",
        "The temp password flow emails a one-time link; never read it out over the phone.",
        "Our 'password' column was renamed to 'password_digest' in {y}.",
        "admin/settings is where the retention window is configured",
        "root/{tb}/{y} is the archive prefix",
    ]).format(y=rng.randrange(2019, 2026), tb=rng.choice(TABLES), tool=rng.choice(TOOLS), n=rng.choice([30, 60, 90, 180]), m=rng.randrange(8, 99),
              env=rng.choice(ENVS), svc=rng.choice(SERVICES), p=rng.choice(PEOPLE))


def benign_public_ids(rng: random.Random) -> str:
    return rng.choice([
        "Stripe customer cus_{a} prefers invoices by post.",
        "Charge ch_{b} was refunded on {d}.",
        "Slack channel C{c} is #{t}-alerts; user U{c2} is the bot.",
        "EC2 i-0{h17} runs the {svc} worker",
        "Payment intent pi_{b} is stuck in requires_action.",
        "Docker image ghcr.io/appenda/web:{d}-{h7}",
        "pod web-{h9}-{p5} restarted 3 times",
        "Google Analytics property G-{g}",
        "MongoDB document _id ObjectId('{h24}')",
        "subscription sub_{a} renews on {d}",
        "KSUID example {ksuid}",
        "ids look like {nanoid} (nanoid, 21 chars)",
        "Notion page {h32} is the roadmap",
        "ULID for the import run: {ulid}",
    ]).format(ksuid=rand(rng, ALNUM, 27), nanoid=rand(rng, B64URL, 21), h32=sha(rng, 32),
              ulid=rand(rng, "0123456789ABCDEFGHJKMNPQRSTVWXYZ", 26), a=rand(rng, ALNUM, 14), b=rand(rng, ALNUM, 24), d=iso_datetime(rng)[:10],
              c=rand(rng, UPPER_ALNUM, 8), c2=rand(rng, UPPER_ALNUM, 8), t=rng.choice(TEAMS),
              h17=rand(rng, HEX, 16), svc=rng.choice(SERVICES), h7=sha(rng, 7), h9=sha(rng, 9),
              p5=rand(rng, LOWER_ALNUM, 5), g=rand(rng, UPPER_ALNUM, 10), h24=sha(rng, 24))


def benign_code(rng: random.Random) -> str:
    return rng.choice([
        "```python\nqs = Note.objects.for_workspace(ws).filter(layer='mine')\n```",
        "Use `memory_save(key=..., value=..., layer='workspace')` from the service layer.",
        "password = form.cleaned_data['password'] then user.set_password(password)",
        "token = request.headers.get('Authorization', '').removeprefix('Bearer ')",
        "api_key = os.environ['OPENAI_API_KEY']",
        "secret = get_secret(\"{svc}/{env}\")",
        "if not check_password(raw_password, user.password): raise AuthFailed",
        "const apiKey = process.env.STRIPE_KEY;",
        "timeout: 30s, retries: 3, backoff: exponential, max_workers: {n}",
        "LOG_LEVEL=info WORKERS={n} REGION=eu-central-1",
        "key = f\"report:{{ws_id}}:{{date}}\"  # cache key format",
        "SELECT * FROM users WHERE email = %(email)s AND password_hash = crypt(%(pw)s, password_hash)",
    ]).format(svc=rng.choice(SERVICES).replace(" ", "-"), env=rng.choice(ENVS),
              n=rng.randrange(2, 32))


def ssh_public_key(rng: random.Random) -> str:
    key_type = rng.choice([b"ssh-ed25519", b"ssh-rsa"])
    body = len(key_type).to_bytes(4, "big") + key_type + rng.randbytes(32 if key_type == b"ssh-ed25519" else 200)
    return f"{key_type.decode()} {base64.b64encode(body).decode()} {rng.choice(USERS)}@appenda"


def certificate(rng: random.Random) -> str:
    der = b"\x30\x82\x03\x77\x30\x82\x02\x5f" + rng.randbytes(rng.randrange(200, 400))
    body = base64.b64encode(der).decode()
    lines = [body[i:i + 64] for i in range(0, len(body), 64)]
    return "\n".join(["-----BEGIN CERTIFICATE-----"] + lines + ["-----END CERTIFICATE-----"])


def benign_public_key_material(rng: random.Random) -> str:
    return rng.choice([
        "Add this deploy key to the repo (read-only): {ssh}",
        "{p}'s laptop key: {ssh}",
        "authorized_keys on the bastion has {ssh}",
        "Root CA for the internal services (public):\n{cert}",
        "mTLS client certificate for {svc}:\n{cert}",
    ]).format(ssh=ssh_public_key(rng), cert=certificate(rng), p=rng.choice(PEOPLE),
              svc=rng.choice(SERVICES))


def benign_mixed(rng: random.Random) -> str:
    parts = [benign_table_fact(rng), benign_git(rng), benign_uuid(rng), benign_versions(rng),
             benign_datetime(rng), benign_colours(rng), benign_password_talk(rng), benign_url(rng)]
    return " ".join(rng.sample(parts, rng.randrange(2, 4)))


BENIGN_KINDS: dict[str, Callable[[random.Random], str]] = {
    "preference": benign_preference,
    "team_convention": benign_convention,
    "table_fact": benign_table_fact,
    "uuid": benign_uuid,
    "git_sha": benign_git,
    "checksum": benign_checksum,
    "hex_colour": benign_colours,
    "iso_datetime": benign_datetime,
    "version": benign_versions,
    "sql": benign_sql,
    "url_without_credentials": benign_url,
    "identifier": benign_identifier,
    "file_path": benign_path,
    "english_prose": benign_prose,
    "non_english": benign_non_english,
    "numbers_and_phones": benign_numbers,
    "password_policy_talk": benign_password_talk,
    "public_ids": benign_public_ids,
    "code_snippet": benign_code,
    "public_key_material": benign_public_key_material,
    "mixed": benign_mixed,
}
# Families with few distinct templates get fewer notes so the corpus is not mostly duplicates.
BENIGN_WEIGHTS = {"password_policy_talk": 2.5, "mixed": 2.0, "non_english": 1.5, "public_ids": 1.5}


# --------------------------------------------------------------------------------------------
# Assembly
# --------------------------------------------------------------------------------------------

def build_corpus(seed: int = SEED) -> list[dict[str, str]]:
    rng = random.Random(seed)
    records: list[dict[str, str]] = []
    seen: set[str] = set()

    def add(text: str, label: str, kind: str, secret: str) -> bool:
        if text in seen or len(text.encode("utf-8")) > MAX_NOTE_BYTES:
            return False
        assert not secret or secret in text, (kind, text)
        seen.add(text)
        records.append({"text": text, "label": label, "kind": kind, "secret": secret})
        return True

    for kind, generate in SECRET_KINDS.items():
        made = attempts = 0
        while made < SECRET_NOTES_PER_KIND and attempts < SECRET_NOTES_PER_KIND * 20:
            attempts += 1
            text, secret = generate(rng)
            made += add(text, "secret", kind, secret)

    for kind, generate in BENIGN_KINDS.items():
        wanted = int(BENIGN_NOTES_PER_KIND * BENIGN_WEIGHTS.get(kind, 1.0))
        made = attempts = 0
        while made < wanted and attempts < wanted * 20:
            attempts += 1
            made += add(generate(rng), "benign", kind, "")

    rng.shuffle(records)
    return records


def write_corpus(path: Path, seed: int = SEED) -> int:
    records = build_corpus(seed)
    with path.open("w", encoding="utf-8", newline="\n") as out:
        for record in records:
            out.write(json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n")
    return len(records)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--seed", type=int, default=SEED)
    args = parser.parse_args(argv)
    count = write_corpus(args.out, args.seed)
    print(f"wrote {count} notes to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
