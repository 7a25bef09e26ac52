"""Required rules of the instance, for instance admins: list, add, edit, delete.

Each form calls memories.instance_rules, which checks the admin right and runs the same
refusals as any note; a refused rule comes back to the form with the sentence why.
"""

from __future__ import annotations

from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from appenda.errors import DomainError
from memories import instance_rules
from webapp.access import instance_admin_page
from webapp.toasts import toast


def _page(request, *, error: DomainError | None = None, failed: dict | None = None, status: int = 200):
    return render(request, "webapp/instance_rules.html", {
        "rules": instance_rules.rules_all(), "error": error, "failed": failed or {},
    }, status=status)


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
    toast(request, f"{'Added' if created else 'Updated'} the rule {rule.key}: every workspace gets it.")
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
    toast(request, f"Saved the rule {updated.key}.")
    return redirect("instance-rules")


@require_POST
@instance_admin_page
def rule_delete(request, rule: str):
    doomed = instance_rules.rule_get(rule)
    instance_rules.rule_delete(user=request.user, rule_id=rule)
    toast(request, f"Deleted the rule {doomed.key}.")
    return redirect("instance-rules")
