"""Issue 18, secrets (SPEC R-SAVE-2), sixteenth session: 2,500 of this machine's man pages
(sections 1, 3, 5, 7 and 8, drawn at random; 57,493 distinct paragraphs, text nobody here wrote,
a third of them gcloud's, as a data team's notes quote them) scanned as notes: 70 refused at
6ff6efe, 36 now. The rest are mostly passwords and keys the pages show as examples ("--password=
postgres", apt_auth.conf's "password debian", openssl's "hexkey:…"), left. The classes fixed, each
line refused at 6ff6efe and passing now:

* a command line's next flag or a metavariable where a value could stand ("--kms-key=KMS_KEY :
  --kms-keyring=KMS_KEYRING", "--auth-mode=AUTH_MODE]", "--password=PASSWORD\\n--username=…");
* a command's output ("access_token=$(gcloud auth …)", "password=$(cat $HOME/.secret)");
* a cloud resource's name ("--kms-key=projects/my-project/locations/us/keyRings/my-kr/…");
* an IPv6 interface token after systemd's "Token=" ("::1a:2b:3c:4d");
* flags that start like curl's "--user" ("--usermap=0-99:nobody,…", "--users=foo@example.com,
  principal://…") and socat's "-u" before an address ("TCP4-LISTEN:3334,reuseaddr,fork");
* C: "struct passwd *restrict pwbuf", a cast ("(size_t)6)"); a synopsis' "pwd [OPTION]…";
* the AWS CLI's example pages (the awscli package's .rst files, 2,044 paragraphs refused at
  6ff6efe, 1,117 now; most of the rest are AWS's "EXAMPLE" and "xmpl" placeholders): a field or a
  flag named for an id ('"certificateId": "66a4…"', "--document-id b83e…"), unless its name holds
  a credential's word (Vault's "secret_id", a "sessionId" stay refused).

Credentials in the same places are still refused.
"""

from __future__ import annotations

import pytest

from memories.refusals.secrets import find_secrets

_MAN_PAGE_LINES = {
    "gcloud-next-flag": "[--kms-keys=[KMS_KEYS,...] | [--kms-key=KMS_KEY : --kms-keyring=KMS_KEYRING --kms-location=KMS_LOCATION]",
    "gcloud-metavariable": "[--async]   [--auth-mode=AUTH_MODE]    [--automated-backup-mode=AUTOMATED_BACKUP_MODE]",
    "gcloud-flag-next-line": "--net-bios-prefix=NET_BIOS_PREFIX   --password=PASSWORD\n--username=USERNAME  [--administrators=[ADMINISTRATORS]",
    "gcloud-command-output": '$  curl -H "Content-Type: application/x-www-form-urlencoded" \\ -d "access_token=$(gcloud\nauth application-default print-access-token)"',
    "gitcredentials-command-output": 'helper = "!f() { test \\"$1\\" = get && echo \\"password=$(cat $HOME/.secret)\\"; }; f"',
    "gcloud-resource-name": "$ gcloud alpha artifacts repositories create my-repo \\\n--kms-key=projects/my-project/locations/us/keyRings/my-kr/\\ cryptoKeys/my-key",
    "systemd-network-ipv6-token": "Token=eui64\nToken=::1a:2b:3c:4d\nToken=static:::1a:2b:3c:4d\nToken=prefixstable",
    "rsync-usermap": "--usermap=0-99:nobody,wayne:admin,*:normal --groupmap=usr:1,1:usr",
    "gcloud-users-flag": "--membership=my-cluster \\\n--users=foo@example.com,principal://iam.googleapis.com/\\ locations/global",
    "socat-unidirectional": "socat -u TCP4-LISTEN:3334,reuseaddr,fork \\\nOPEN:/tmp/in.log,creat,append",
    "getpwent-struct": "int getpwent_r(struct passwd *restrict pwbuf,\nchar buf[restrict .buflen], size_t buflen,",
    "openssl-cast": '*p++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SECRET,\n"secret", (size_t)6);',
    "pwd-synopsis": "SYNOPSIS\npwd [OPTION]...",
    # The AWS CLI's example pages (the awscli package's .rst files): a field or a flag named for an id.
    "awscli-field-named-id": '{\n    "certificateId": "66a415ec415668c2349a76170b64ac0878231c1e21ec83c10e92a18bd568eb92"\n}',
    "awscli-flag-named-id": "aws workdocs delete-document --document-id b83ed5e5b167b65ef69de9d597627ff1a0d4f07a45e67f1fab7d26b54427de0a",
    "awscli-product-field-named-id": '"ConnectionGroupId": "cg_2wjDWTBKTlRB87cAaUQFaakABC",',
}


@pytest.mark.parametrize("text", list(_MAN_PAGE_LINES.values()), ids=list(_MAN_PAGE_LINES))
def test_man_page_lines_are_not_secrets(text):
    assert find_secrets(text) == []


@pytest.mark.parametrize(("text", "secret"), [
    ("gcloud sql users set-password etl --password=Xk9#mP2qLr", "Xk9#mP2qLr"),
    ("password=--Xk9#mP2q", "--Xk9#mP2q"),
    ("API_KEY=PROD_kq8Zt2Lw9XvB4nR7", "PROD_kq8Zt2Lw9XvB4nR7"),
    ("curl -u admin:Xk9#mP2q https://api.example.com", "Xk9#mP2q"),
    ("curl --user admin:Xk9#mP2q https://api.example.com", "Xk9#mP2q"),
    ("curl -uadmin:Xk9#mP2q https://api.example.com", "Xk9#mP2q"),
    ("wget --user=etl --password=Xk9#mP2q https://files.example.com", "Xk9#mP2q"),
    ("Token=9fQk2LmXw7RtZpB4vNc8Hs", "9fQk2LmXw7RtZpB4vNc8Hs"),
    ("struct passwd for the vpn: Xk9#mP2qLr", "Xk9#mP2qLr"),
    ('"secret_id": "9fQk2LmXw7RtZpB4vNc8Hs0aB"', "9fQk2LmXw7RtZpB4vNc8Hs0aB"),
    ('"sessionId": "9fQk2LmXw7RtZpB4vNc8Hs0aB"', "9fQk2LmXw7RtZpB4vNc8Hs0aB"),
    ('"AccessKeyId": "AKIAQ7XR2MZ5K3LP9WTN"', "AKIAQ7XR2MZ5K3LP9WTN"),
], ids=["gcloud-password", "flag-like-password", "capitals-then-random", "curl-u", "curl-user", "curl-glued",
        "wget", "token-assignment", "struct-then-password", "vault-secret-id", "session-id", "aws-access-key-id"])
def test_credentials_in_the_same_places_are_still_refused(text, secret):
    findings = find_secrets(text)
    assert any(text[f.start:f.end] == secret for f in findings), findings
