"""Required rules of the instance (control database): written by instance admins, recalled
in every workspace's turns. They are checked by the same refusals as any note, and a rule that
may name a person waits, as a note does (R-SAVE-3b): held, it reaches no turn until an instance
admin keeps the version they read."""

from __future__ import annotations

import hashlib
import json

from django.db import IntegrityError, transaction

from appenda.errors import Conflict, DomainError, Forbidden, NotFound
from appenda.ids import parse_uuid
from memories.models import Layer
from memories.policy import SaveSituation, decide
from memories.refusals.gate import inspect_note
from memories.validation import clean_note, require_version_seen
from workspaces.capabilities import is_instance_admin
from workspaces.models import InstanceRule


def _require_admin(user) -> None:
    if not is_instance_admin(user):
        raise Forbidden("Only instance admins can write the required rules.")


def _checked(key, value):
    """The cleaned rule and why it must wait ("" when it need not); refused rules raise. The
    decision is ``policy.decide``'s, for a person's own save to the instance layer (the caller
    has checked the admin right): only the detectors have a say."""
    clean = clean_note(key, value)
    findings = inspect_note(workspace=None, key=clean.key, value=clean.value)
    decision = decide(SaveSituation(origin="person", layer=Layer.INSTANCE, detector_refusal=findings.refusal,
                                    may_name_person=findings.may_name_person))
    if decision.outcome == "refuse":
        raise DomainError(decision.detail, code=decision.code, **findings.refusal_fields)
    return clean, (decision.reason or "") if decision.outcome == "hold" else ""


def rule_save(*, actor=None, user=None, key, value) -> tuple[InstanceRule, bool]:
    """Adds a rule, or rewrites the rule of that key; held when it may name a person (a held
    rewrite of an active rule takes it out of every turn until it is kept)."""
    user = user or actor.user
    _require_admin(user)
    clean, hold = _checked(key, value)
    state = InstanceRule.State.HELD if hold else InstanceRule.State.ACTIVE
    with transaction.atomic():
        rule = InstanceRule.objects.select_for_update().filter(key=clean.key).first()
        if rule is not None:
            rule.value, rule.state, rule.held_reason = clean.value, state, hold
            rule.save()
            return rule, False
        try:
            with transaction.atomic():
                return InstanceRule.objects.create(key=clean.key, value=clean.value, state=state, held_reason=hold,
                                                   created_by=user), True
        except IntegrityError:
            raise Conflict(f"A rule with the key {clean.key!r} was just created; try again.") from None


def rule_get(rule_id) -> InstanceRule:
    rule_uuid = parse_uuid(rule_id)
    rule = InstanceRule.objects.filter(id=rule_uuid).first() if rule_uuid else None
    if rule is None:
        raise NotFound("No such rule.")
    return rule


def rule_update(*, user, rule_id, key=None, value=None) -> InstanceRule:
    _require_admin(user)
    with transaction.atomic():
        rule = InstanceRule.objects.select_for_update().filter(pk=rule_get(rule_id).pk).get()
        clean, hold = _checked(key if key is not None else rule.key, value if value is not None else rule.value)
        rule.key, rule.value = clean.key, clean.value
        if hold:  # an edit that may name a person waits too; a held rule stays held until kept
            rule.state, rule.held_reason = InstanceRule.State.HELD, hold
        try:
            with transaction.atomic():
                rule.save()
        except IntegrityError:
            raise Conflict(f"Another rule has the key {clean.key!r}.", code="key_taken") from None
    return rule


def rule_delete(*, user, rule_id) -> None:
    _require_admin(user)
    rule_get(rule_id).delete()


def rule_keep(*, user, rule_id, version) -> InstanceRule:
    """An instance admin keeps a held rule: it reaches every turn from now on. ``version`` is the
    rule's version the admin read (``rule_version``), checked under the row lock, as a note's keep
    checks it (R-TAINT-6): a rewrite in between is not kept unread."""
    _require_admin(user)
    version = require_version_seen(version, what="rule")
    with transaction.atomic():
        rule = InstanceRule.objects.select_for_update().filter(pk=rule_get(rule_id).pk).get()
        if rule.state != InstanceRule.State.HELD:
            raise DomainError("This rule is not waiting; only held rules can be kept.", code="not_held", status=409)
        if version != rule_version(rule):
            raise DomainError("This rule changed since you read it; look at it again before keeping it.",
                              code="rule_changed", status=409)
        _checked(rule.key, rule.value)  # refused now if a detector learnt more while it waited
        rule.state, rule.held_reason = InstanceRule.State.ACTIVE, ""
        rule.save()
    return rule


def rule_version(rule: InstanceRule) -> str:
    """What a keep names: changes with the rule's key, value and every save."""
    updated = rule.updated_at.isoformat()
    return hashlib.sha256(json.dumps([rule.key, rule.value, updated]).encode()).hexdigest()[:16]


def rules_all() -> list[InstanceRule]:
    """Every rule, held ones too: for the instance admins' page and the rules' listing."""
    return list(InstanceRule.objects.order_by("key"))


def rules_active() -> list[InstanceRule]:
    """The rules every workspace gets."""
    return list(InstanceRule.objects.filter(state=InstanceRule.State.ACTIVE).order_by("key"))


def rules_visible(user) -> list[InstanceRule]:
    """What ``user`` may read of the rules: every one for an instance admin (who keeps the held
    ones), the active ones for everyone else; a held rule is read by no agent or member."""
    return rules_all() if is_instance_admin(user) else rules_active()


def rule_visible(user, rule: InstanceRule) -> InstanceRule:
    if rule.state == InstanceRule.State.HELD and not is_instance_admin(user):
        raise NotFound("Nothing was found at this address, or you may not see it.")
    return rule

