"""Creates or updates a person; with --token the last line printed is a new API token."""

from django.core.management import BaseCommand, CommandError

from appenda.errors import DomainError
from workspaces.services import user_create_or_update
from workspaces.tokens import token_create


class Command(BaseCommand):
    help = "Create or update a user. With --token, the last line printed is a new API token."

    def add_arguments(self, parser):
        parser.add_argument("email")
        parser.add_argument("--password")
        parser.add_argument("--instance-admin", action="store_true", help="make the user an instance admin")
        parser.add_argument("--token", action="store_true", help="print a new API token as the last line")

    def handle(self, *args, email, password, instance_admin, token, **options):
        try:
            user = user_create_or_update(email=email, password=password, instance_admin=instance_admin)
        except DomainError as exc:
            raise CommandError(exc.detail) from None
        role = " (instance admin)" if instance_admin else ""
        self.stdout.write(f"User {user.email} is ready{role}, id {user.pk}.")
        if token:
            self.stdout.write(token_create(user=user, name="created by create_user"))
