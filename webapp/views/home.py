"""Sign-in and the workspace picker, the page a person lands on after signing in."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.db import DatabaseError
from django.shortcuts import render

from webapp.selectors import held_count
from workspaces.capabilities import actor_for, is_instance_admin
from workspaces.management.commands.load_demo import DEMO_PASSWORD
from workspaces.management.commands.load_demo import PEOPLE as DEMO_PEOPLE
from workspaces.models import Membership, Workspace


class SignInView(auth_views.LoginView):
    template_name = "webapp/login.html"
    redirect_authenticated_user = True

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        # The demo's logins are shown only where `make run` loaded the demo, never elsewhere.
        if get_user_model().objects.filter(username=next(iter(DEMO_PEOPLE))).exists():
            context["demo"] = {"people": DEMO_PEOPLE.items(), "password": DEMO_PASSWORD}
        return context


def _held_or_none(actor) -> int | None:
    """The card's "waiting for you" count; none while the workspace's region cannot answer, so
    one region down never hides the other workspaces (R-REGION-3)."""
    try:
        return held_count(actor)
    except DatabaseError:
        return None


@login_required
def workspace_picker(request):
    memberships = list(
        Membership.objects.filter(user=request.user).select_related("workspace").order_by("workspace__name")
    )
    others = []
    if is_instance_admin(request.user):
        # Instance admins may delete notes blind in any workspace (R-RBAC-3), nothing more.
        mine = {m.workspace_id for m in memberships}
        others = [w for w in Workspace.objects.order_by("name") if w.id not in mine]
    actors = [(m, actor_for(request.user, m.workspace)) for m in memberships]
    cards = [
        {"workspace": m.workspace, "role": m.get_role_display(), "members_page": actor.can("memory:blind_delete"),
         "held": _held_or_none(actor)}
        for m, actor in actors
    ]
    return render(request, "webapp/picker.html", {"cards": cards, "other_workspaces": others})
