"""Issue 18, secrets (SPEC R-SAVE-2): forms CredSweeper's and Kingfisher's tuning draws missed
(tests/data/secret_tuning_from_credsweeper.jsonl, ..._from_kingfisher.jsonl;
tests/data/outside/secrets/README.md).

* A password given by a statement's or an API's own syntax (memories/refusals/secret_code.py):
  SQL's ``IDENTIFIED BY '…'``, libcurl's password options, an environment lookup's fallback.
* ``password`` with letters dropped as a name ("PSSWD", "PASWORD"; secret_prose.py).
* A UUID given to a long option named as a credential ("--secret-token <uuid>").
* A hex credential named for what it belongs to ("circleci_project_secret"; secret_random.py).
* Kept: Ruby's interpolation "#{password}" is a template, as "${password}" is (secret_stand_ins.py).
* Formats from the vendors' layouts (data/secret_prefixed_formats.txt, secret_vendors.py); the
  last three (Buildkite, Plaid, Klaviyo) from a probe of well-known formats with made-up values.

The values are made up. Every refused case fails against the detector of commit fe09c5b.
"""

from __future__ import annotations

import pytest

from memories.refusals.secrets import find_secrets

UUID = "5b3e9c1a-7d42-4f8e-a1c6-2e9b8d7f4a30"


@pytest.mark.parametrize("text, value", [
    ("CREATE USER 'etl'@'%' IDENTIFIED BY 'Wq7zR2pLm4';", "Wq7zR2pLm4"),
    ("ALTER USER 'root'@'localhost' IDENTIFIED WITH mysql_native_password BY 'Wq7zR2pLm4';", "Wq7zR2pLm4"),
    ("create user reporting identified by Wq7zR2pLm4;", "Wq7zR2pLm4"),  # Oracle, unquoted
    ('exec("CREATE USER app ACCOUNT UNLOCK IDENTIFIED BY Wq7zR2pLm4");', "Wq7zR2pLm4"),
    ("sh -c 'echo CREATE USER app IDENTIFIED BY Wq7zR2pLm4\\; >>setup.sql'", "Wq7zR2pLm4"),
    ('curl_easy_setopt(curl, CURLOPT_PROXYPASSWORD, ")d!~ORI8ed72");', ")d!~ORI8ed72"),
    ('curl_easy_setopt(curl, CURLOPT_USERPWD, "svc:Kq8mZ2wLp9");', "Kq8mZ2wLp9"),
    ('db_password = os.getenv("DB_PASSWORD", "Kq8mZ2wL!p9")', "Kq8mZ2wL!p9"),
    ('if SECRET := getenv("APP_S", "GEHEIMN1S"):', "GEHEIMN1S"),
    ('PASSWORD = os.environ.get("PASSWORD") or "at5G6zi!m"', "at5G6zi!m"),
    ('ENV.fetch("DB_PASSWORD", "Summer2024")', "Summer2024"),
    ("PSSWD:=Hv7kQ2mWx9", "Hv7kQ2mWx9"),
    ("PASWORD=Hv7kQ2mWx9", "Hv7kQ2mWx9"),
    ("export PSWRD=Hv7kQ2mWx9", "Hv7kQ2mWx9"),
    (f"deployctl --secret-token {UUID}", UUID),
    ("circleci_project_secret = 'Cb72374Ca0B5EdFFDe11FeBBbdc5fbFf85f9793a'", "Cb72374Ca0B5EdFFDe11FeBBbdc5fbFf85f9793a"),
    ("workspace token: 4e1b7c9a2d8f6e3b5a0c9d7e1f4b2a8c", "4e1b7c9a2d8f6e3b5a0c9d7e1f4b2a8c"),
], ids=["sql-quoted", "sql-with-plugin", "sql-oracle-unquoted", "sql-in-a-call", "sql-in-shell",
        "curl-proxy-password", "curl-userpwd", "getenv-default", "getenv-walrus", "environ-or",
        "env-fetch", "psswd", "pasword", "pswrd", "long-option-uuid", "project-secret-hex",
        "workspace-token-hex"])
def test_the_password_is_refused(text, value):
    found = find_secrets(text)
    assert found and value in [text[f.start:f.end] for f in found]


@pytest.mark.parametrize("text, kind", [
    ("join with SWMTKN-1-3pu6hszjas19xyp7ghgosyx9k8atbfcr8p2is99znpy26u2lkl-1awxwuwd3z9j1z3puu7rcgdbx",
     "docker_swarm_token"),
    ("unlock key SWMKEY-1-7c37Cc8654o6p38HnroywCi19pllOnGtbdZEgtKxZu8", "docker_swarm_token"),
    ("client_token = akab-k2zwu5pyf4uds7ni-hxw6kibpqwb3xvbq", "akamai_token"),
    ("seed SUAMK2FG4MI6UE3ACF3FK3OIQBCEIEZV7NSWFFEW63UXMRLFM2XLAXK4GY", "nats_nkey_seed"),
    ("PMAT-01HQ3Z8K2W7N5R9T4V6X1Y3B7D", "postman_access_token"),
    ("cosmo_69b9f425705c10e576aa6ade81d91e1a", "wundergraph_cosmo_key"),
    ("sbp_v0_3f9a1c7e5b2d8f4a6c0e9b1d7f3a5c2e8b4d6f0a", "supabase_token"),
    (f"HRKU-{UUID}", "heroku_key"),
    ("dnkey-TUMPCCPBPZCE244YV67IYOWZ7W-HBMEHZFHADYXANYUR72YCQWGBWPU2K232PKSZGTADUWVNHO4UEKZ",
     "defined_networking_key"),
    ("Z28P3STmkBQi1Y.atlasv1.YE7RBqu6VVyQIOq9a1eC3YFU5Elt7ToIr6OwzKAWlCTQ7N4gElXaWou6aPpOIwGCoc0",
     "terraform_token"),
    ("asana_pat = 1/1204387265519342:9c1e4b7a2f8d3e6b0a5c9d2e7f1b4a8c", "asana_token"),
    ("ASANA=2/1204387265519342/1206675412098876:9c1e4b7a2f8d3e6b0a5c9d2e7f1b4a8c", "asana_token"),
    ("asana token = 0/9c1e4b7a2f8d3e6b0a5c9d2e7f1b4a8c", "asana_token"),
    ("teamwork tkn.v1_Q2hVb3Fh0kW7ZpXr4TnB9sLmC8dEyG1uHj5vKa3NfRi6Ow2Ze7MbPq0XcYt4Jg9SlD=", "teamwork_token"),
    ("BUILDKITE_API_TOKEN=bkua_0fc1878d1fa0141312f12fa5a2bcc9b86ad340c2", "buildkite_token"),
    ("plaid: access-production-de3ce8ef-33f8-452c-a685-8671031fc0f6", "plaid_access_token"),
    ("klaviyo pk_8c2f4e1a9b7d3c5e0f6a2b8d4c1e9f7a3b", "klaviyo_private_key"),
    (f"LANGFUSE_SECRET_KEY=sk-lf-{UUID}", "langfuse_secret_key"),
    (f"INFISICAL_TOKEN=st.{UUID}.9c1e4b7a2f8d3e6b0a5c9d2e7f1b4a8c.3f9a1c7e5b2d8f4a6c0e9b1d7f3a5c2e", "infisical_service_token"),
    ("admin:$apr1$Xq7kL2mP$Hv7kQ2mWx9Lp3Rt5Yb8NcD", "password_hash"),
    ("DOPPLER_TOKEN=dp.st.prd.Kq8mZ2wLp9Hv7kQ2mWx9Lp3Rt5Yb8NcD4fG6hJ1k", "doppler_token"),
    (f"curl -H 'Authorization: Splunk {UUID}' https://hec.example.com:8088", "bearer_token"),
], ids=["swarm-join", "swarm-unlock", "akamai", "nkey-seed", "postman-pmat", "wundergraph",
        "supabase-v0", "heroku-uuid", "defined-networking-upper", "terraform-mixed-case", "asana-v1",
        "asana-v2", "asana-v0", "teamwork", "buildkite", "plaid", "klaviyo", "langfuse", "infisical",
        "htpasswd-apr1", "doppler-service-token", "splunk-hec-header"])
def test_vendor_formats_are_refused_by_their_layout(text, kind):
    assert kind in [finding.kind for finding in find_secrets(text)]


@pytest.mark.parametrize("text", [
    "CREATE USER app IDENTIFIED BY :app_password;",  # bind variables and templates
    "ALTER USER app IDENTIFIED BY ?;",
    "CREATE USER app IDENTIFIED BY '${APP_PASSWORD}';",
    "CREATE USER app IDENTIFIED BY 'password';",  # a placeholder
    "CREATE USER ops IDENTIFIED EXTERNALLY;",
    "we identified by the end of the sprint which tables to drop",
    "duplicates identified by md5sum are dropped",  # prose, no SQL statement
    "records identified by SKU123 are stale",
    "the outage was identified by PagerDuty",
    "curl_easy_setopt(curl, CURLOPT_PASSWORD, password);",  # a variable, not a literal
    'curl_easy_setopt(curl, CURLOPT_USERPWD, "user:password");',
    'curl_easy_setopt(curl, CURLOPT_URL, "https://example.com/Kq8mZ2wLp9");',
    'port = os.getenv("PORT", "8080")',  # no credential named
    'host = os.environ.get("DB_HOST") or "warehouse.internal"',
    'token = os.getenv("GITHUB_TOKEN", "changeme")',
    'db_password = os.getenv("DB_PASSWORD", "")',
    "the psswd field on the signup form is required",
    f"deployctl --client-id {UUID}",  # an identifier, named so
    f"aws ec2 run-instances --client-token {UUID}",  # an idempotency key, AWS's
    f'ClientToken="{UUID}"',
    f"the secret token {UUID} was rotated last week",  # prose: no option, no operator
    "pk_live_51Hx2QnKc8mZ2wLp9Tq7RzV4bN6yD3fA1",  # Stripe publishable keys are public
    "project id: 3f2ca9d8e7b6a5f4c3d2e1f0a9b8c7d6",
    "commit secret: 9fceb02d0ae598e95dc970b74767f19372d61af8",  # a commit's name, said so
    "GET /api/objects/0/9c1e4b7a2f8d3e6b0a5c9d2e7f1b4a8c/children",
    'log << "User=#{username}, Password=#{password}"',  # Ruby interpolation: a template
    "password: \"#{ENV['DB_PASSWORD']}\"",
], ids=["sql-bind", "sql-question-mark", "sql-template", "sql-placeholder", "sql-externally",
        "prose-identified-by", "prose-identified-by-tool", "prose-identified-by-code",
        "prose-identified-by-product", "curl-variable", "curl-placeholder", "curl-url", "env-port",
        "env-host", "env-changeme", "env-empty", "prose-psswd", "long-option-client-id",
        "aws-client-token-option", "aws-client-token-field",
        "prose-uuid", "stripe-publishable", "project-id-hex", "commit-secret-sha", "path-zero-hex",
        "ruby-interpolation", "ruby-interpolation-env"])
def test_what_is_no_secret_is_kept(text):
    assert not find_secrets(text)
