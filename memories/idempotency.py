"""Retries that do no harm: saves sent with an ``Idempotency-Key`` header are made once.

An agent (or a person's client) that lost the answer to a save sends it again with the same
key; the second request answers what the first did (status and body, with
``Idempotent-Replayed: true``) and writes nothing: no second note, change set or use of the
turn's save budget. The IETF draft "The Idempotency-Key HTTP Header Field" is followed, with
one difference: the same key with another body answers **409** ``idempotency_key_reused``, not
the draft's 422. The request is well formed; what it conflicts with is the state stored under
its key, which is what 409 means in this API (and a client already knows not to retry a 409
blindly). The draft's own 409 is for the key in use by a request still running; here that
request waits for the first one instead and then replays it (``idempotency_key_in_use`` is
left for the case where the first answer cannot be found).

How it is made once: a row ``IdempotentAnswer`` (region database, unique per workspace,
caller and key) is inserted *before* the save and filled after it, in the save's transaction.
A concurrent request with the same key blocks on the unique index until the first commits,
then finds its answer; if the first failed (an outage, a bug) its row is rolled back with
everything else and the retry runs as new. A refusal in 4xx (``secret_detected``,
``turn_save_limit``…) is an answer too and is replayed without running the detectors again; a
5xx is not stored, so a retry after an outage saves. A person's save to the instance layer
writes the control database, outside that transaction: there the key is best effort.

Answers are kept ``ANSWER_TTL`` (24 h, the draft's suggestion and the held-note TTL): an older
row is ignored and deleted when its key comes back, and ``expire_held`` deletes the rest.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from datetime import timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone
from rest_framework.response import Response

from appenda.errors import Conflict, DomainError
from memories.models import IdempotentAnswer

HEADER = "Idempotency-Key"
REPLAYED_HEADER = "Idempotent-Replayed"
ANSWER_TTL = timedelta(hours=24)
KEY_PATTERN = re.compile(r"[\x20-\x7e]{1,255}")  # 1–255 printable ASCII characters
KEY_DESCRIPTION = (
    "1–255 printable ASCII characters (a UUID is a good choice). The same key and body within 24 h "
    "answer the first answer again (header Idempotent-Replayed: true) and save nothing; the same key "
    "with another body answers 409 idempotency_key_reused."
)


def _key_of(request) -> str | None:
    if HEADER not in request.headers:
        return None
    key = request.headers[HEADER]
    if not KEY_PATTERN.fullmatch(key):
        raise DomainError(f"{HEADER} is 1 to 255 printable ASCII characters; send another key.",
                          code="invalid_idempotency_key", field=HEADER)
    return key


def _fingerprint(endpoint: str, body: dict) -> str:
    canonical = json.dumps({"endpoint": endpoint, "body": body}, sort_keys=True, separators=(",", ":"),
                           ensure_ascii=False, default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()


def _replay(found: IdempotentAnswer | None, fingerprint: str) -> Response:
    if found is None:
        raise Conflict("Another request with this Idempotency-Key is being answered; try again in a moment.",
                       code="idempotency_key_in_use")
    if found.body_sha256 != fingerprint:
        raise Conflict("This Idempotency-Key was already used for another request; use a new key for a new save.",
                       code="idempotency_key_reused")
    return Response(found.answer, status=found.status, headers={REPLAYED_HEADER: "true"})


def idempotent_answers_purge(*, alias: str) -> int:
    """Deletes the answers older than ``ANSWER_TTL`` of every workspace of one region database."""
    deleted, _ = IdempotentAnswer.objects.using(alias).filter(
        created_at__lt=timezone.now() - ANSWER_TTL).delete()
    return deleted


def answer_once(*, request, actor, endpoint: str, body: dict, save: Callable[[], tuple[int, dict]]) -> Response:
    """``save()`` → (status, body), made once per ``Idempotency-Key`` of this caller in this workspace.

    ``endpoint`` and ``body`` (the parsed input) are what "the same request" means: the same key
    sent to another turn, or with other fields, is another request.
    """
    key = _key_of(request)
    if key is None:
        status, answer = save()
        return Response(answer, status=status)
    workspace = actor.workspace
    alias = workspace.db_alias
    fingerprint = _fingerprint(endpoint, body)
    rows = IdempotentAnswer.objects.for_workspace(workspace).filter(caller_user_id=actor.user.pk, key=key)
    now = timezone.now()
    rows.filter(created_at__lt=now - ANSWER_TTL).delete()
    found = rows.first()
    if found is not None:
        return _replay(found, fingerprint)
    with transaction.atomic(using=alias):
        claim = IdempotentAnswer(workspace_id=workspace.id, caller_user_id=actor.user.pk, key=key,
                                 body_sha256=fingerprint, status=0, answer={}, created_at=now)
        try:
            with transaction.atomic(using=alias):
                # Blocks while a concurrent request holds the same key, until it commits.
                claim.save(using=alias, force_insert=True)
        except IntegrityError:
            claim = None
        if claim is not None:
            try:
                status, answer = save()
            except DomainError as refusal:
                if refusal.status >= 500:
                    raise  # an outage is not an answer: the retry should save
                status, answer = refusal.status, refusal.as_dict()
            claim.status, claim.answer = status, answer
            claim.save(using=alias, update_fields=["status", "answer"])
    if claim is None:
        return _replay(rows.first(), fingerprint)
    return Response(answer, status=status)
