"""Creates a workspace; the last line printed is its id as used in URLs."""

from django.contrib.auth import get_user_model
from django.core.management import BaseCommand, CommandError

from appenda.errors import DomainError
from workspaces.services import workspace_create


class Command(BaseCommand):
    help = "Create a workspace owned by an existing user. The last line printed is the workspace id."

    def add_arguments(self, parser):
        parser.add_argument("name")
        parser.add_argument("--owner", required=True, help="email of an existing user")
        parser.add_argument("--region", default=None)
        parser.add_argument("--kind", default="cloud", choices=["cloud", "local"])
        parser.add_argument("--slug", default=None)

    def handle(self, *args, name, owner, region, kind, slug, **options):
        user = get_user_model().objects.filter(username=owner.strip().lower()).first()
        if user is None:
            raise CommandError(f"No user has the email {owner!r}; create it first with create_user.")
        try:
            workspace = workspace_create(name=name, owner=user, kind=kind, region=region, slug=slug)
        except DomainError as exc:
            raise CommandError(exc.detail) from None
        self.stdout.write(f"Workspace {workspace.name!r} ({workspace.kind}, region {workspace.region}) is ready.")
        self.stdout.write(str(workspace.id))
