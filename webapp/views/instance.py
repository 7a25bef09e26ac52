"""Required rules of the instance, for instance admins: list, add, edit, keep, delete.

Each form calls memories.instance_rules, which checks the admin right and runs the same
refusals as any note; a refused rule comes back to the form with the sentence why, and a rule
that may name a person waits on this page until an admin keeps it (R-SAVE-3b).
"""

from __future__ import annotations

from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from appenda.errors import DomainError
from memories import instance_rules
from memories.reasons import held_because, hold_sentence
from webapp.access import instance_admin_page
from webapp.toasts import toast


def _page(request, *, error: DomainError | None = None, failed: dict | None = None, status: int = 200):
    rows = [{"rule": rule, "version": instance_rules.rule_version(rule),
             "held_because": held_because(state=rule.state, held_reason=rule.held_reason, held_sources=[])}
            for rule in instance_rules.rules_all()]
    return render(request, "webapp/instance_rules.html", {
        "rows": rows, "error": error, "failed": failed or {},
    }, status=status)


def _saved_sentence(rule, verb: str) -> str:
    if rule.state == rule.State.HELD:
        return (f"{verb} the rule {rule.key}, and held it: {hold_sentence(rule.held_reason)}. No workspace gets "
                "it until you keep it below.")
    return f"{verb} the rule {rule.key}: every workspace gets it."


@require_http_methods(["GET", "POST"])
@instance_admin_page
def rules_page(request):
    if request.method != "POST":
        return _page(request)
    key, value = request.POST.get("key", ""), request.POST.get("value", "")
    try:
        rule, created = instance_rules.rule_save(user=request.user, key=key, value=value)
    except DomainError as error:
        if error.status in (403, 404):
            raise
        return _page(request, error=error, failed={"rule": "new", "key": key, "value": value}, status=422)
    toast(request, _saved_sentence(rule, "Added" if created else "Updated"))
    return redirect("instance-rules")


@require_POST
@instance_admin_page
def rule_edit(request, rule: str):
    key, value = request.POST.get("key", ""), request.POST.get("value", "")
    try:
        updated = instance_rules.rule_update(user=request.user, rule_id=rule, key=key, value=value)
    except DomainError as error:
        if error.status in (403, 404):
            raise
        return _page(request, error=error, failed={"rule": rule, "key": key, "value": value}, status=422)
    toast(request, _saved_sentence(updated, "Saved"))
    return redirect("instance-rules")


@require_POST
@instance_admin_page
def rule_keep(request, rule: str):
    try:
        kept = instance_rules.rule_keep(user=request.user, rule_id=rule, version=request.POST.get("version", ""))
    except DomainError as error:
        if error.status in (403, 404):
            raise
        return _page(request, error=error, status=409 if error.status == 409 else 422)
    toast(request, f"Kept the rule {kept.key}: every workspace gets it from now on.")
    return redirect("instance-rules")


@require_POST
@instance_admin_page
def rule_delete(request, rule: str):
    doomed = instance_rules.rule_get(rule)
    instance_rules.rule_delete(user=request.user, rule_id=rule)
    toast(request, f"Deleted the rule {doomed.key}.")
    return redirect("instance-rules")
