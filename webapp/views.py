"""Pages. They call the same services and selectors as the API, never a copy of the rules."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import render

from workspaces.models import Membership


@login_required
def workspace_picker(request):
    memberships = Membership.objects.filter(user=request.user).select_related("workspace").order_by("workspace__name")
    return render(request, "webapp/picker.html", {"memberships": memberships})
