"""Required rules of the instance (control database): written by instance admins, recalled
in every workspace's turns. They are checked by the same refusals as any note."""

from __future__ import annotations

from django.db import IntegrityError, transaction

from appenda.errors import Conflict, DomainError, Forbidden, NotFound
from appenda.ids import parse_uuid
from memories.refusals.gate import inspect_note
from memories.validation import clean_note
from workspaces.capabilities import is_instance_admin
from workspaces.models import InstanceRule


def _require_admin(user) -> None:
    if not is_instance_admin(user):
        raise Forbidden("Only instance admins can write the required rules.")


def _checked(key, value):
    clean = clean_note(key, value)
    findings = inspect_note(workspace=None, key=clean.key, value=clean.value)
    if findings.refusal:
        code, detail = findings.refusal
        raise DomainError(detail, code=code, **findings.refusal_fields)
    return clean


def rule_save(*, actor=None, user=None, key, value) -> tuple[InstanceRule, bool]:
    user = user or actor.user
    _require_admin(user)
    clean = _checked(key, value)
    with transaction.atomic():
        rule = InstanceRule.objects.select_for_update().filter(key=clean.key).first()
        if rule is not None:
            rule.value = clean.value
            rule.save()
            return rule, False
        try:
            with transaction.atomic():
                return InstanceRule.objects.create(key=clean.key, value=clean.value, created_by=user), True
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
        rule = rule_get(rule_id)
        clean = _checked(key if key is not None else rule.key, value if value is not None else rule.value)
        rule.key, rule.value = clean.key, clean.value
        try:
            with transaction.atomic():
                rule.save()
        except IntegrityError:
            raise Conflict(f"Another rule has the key {clean.key!r}.", code="key_taken") from None
    return rule


def rule_delete(*, user, rule_id) -> None:
    _require_admin(user)
    rule_get(rule_id).delete()


def rules_all() -> list[InstanceRule]:
    return list(InstanceRule.objects.order_by("key"))

