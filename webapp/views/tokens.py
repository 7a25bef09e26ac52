"""Your API tokens: list them, make one (its key shown once, on the answer to the form), revoke
one. Each form calls ``workspaces.tokens``, the services the API's ``/me/tokens/`` calls too."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from appenda.errors import DomainError
from webapp.toasts import toast
from workspaces import tokens
from workspaces.models import ApiToken

# (value, label): the form's expiry choices; "" is never. The API takes any 1-365 days.
EXPIRY_CHOICES = [("30", "In 30 days"), ("90", "In 90 days"), ("365", "In a year"), ("", "Never (until revoked)")]
DEFAULT_EXPIRY = "90"


@dataclass(frozen=True)
class TokenRow:
    token: ApiToken
    state: str  # active, expired or revoked


def _rows(user) -> list[TokenRow]:
    now = timezone.now()

    def state(token: ApiToken) -> str:
        if token.revoked_at is not None:
            return "revoked"
        if token.expires_at is not None and token.expires_at <= now:
            return "expired"
        return "active"

    return [TokenRow(token, state(token)) for token in tokens.token_list_own(user=user)]


def _page(request, *, created: tuple[ApiToken, str] | None = None, error: DomainError | None = None,
          form: dict | None = None, status: int = 200):
    return render(request, "webapp/my_tokens.html", {
        "rows": _rows(request.user), "created": created[0] if created else None, "key": created[1] if created else None,
        "error": error, "form": form or {"name": "", "expiry": DEFAULT_EXPIRY}, "expiry_choices": EXPIRY_CHOICES,
        "name_max": tokens.NAME_MAX,
    }, status=status)


@never_cache  # the answer to the form carries a key: no cache may keep it
@require_http_methods(["GET", "POST"])
@login_required
def my_tokens(request):
    if request.method != "POST":
        return _page(request)
    form = {"name": request.POST.get("name", ""), "expiry": request.POST.get("expiry", "")}
    try:
        if form["expiry"] and not form["expiry"].isdecimal():
            raise DomainError("Choose when the token expires.", code="invalid_expiry", field="expires_in_days")
        created = tokens.person_token_create(user=request.user, name=form["name"],
                                             expires_in_days=int(form["expiry"]) if form["expiry"] else None)
    except DomainError as error:
        if error.status == 403:
            return render(request, "403.html", {"detail": error.detail}, status=403)
        return _page(request, error=error, form=form, status=422)
    return _page(request, created=created)


@require_POST
@login_required
def my_token_revoke(request, token: str):
    try:
        revoked = tokens.token_revoke(user=request.user, token_id=token)
    except DomainError as error:
        if error.status == 404:
            raise Http404(error.detail) from None
        toast(request, error.detail, kind="error")
    else:
        toast(request, f"Revoked the token {revoked.name or revoked.prefix}: it no longer works.")
    return redirect("my-tokens")
