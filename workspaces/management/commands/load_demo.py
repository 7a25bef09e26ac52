"""A demo instance: both regions, a workspace in each, people of every role, a bot, a table
with people in it, a few notes. Safe to run again: what exists is left as it is."""

from django.conf import settings
from django.core.management import BaseCommand

from memories.models import Note
from memories.services import memory_save
from ops.progress import Progress
from tables.models import Table
from tables.services import records_add, table_create
from workspaces.capabilities import actor_for
from workspaces.models import Bot, Membership, Workspace
from workspaces.services import bot_create, user_create_or_update, workspace_create

DEMO_PASSWORD = "appenda-demo"
PEOPLE = {
    "owner@demo.appenda.test": "owner",
    "admin@demo.appenda.test": "admin",
    "editor@demo.appenda.test": "editor",
    "viewer@demo.appenda.test": "viewer",
}
CUSTOMERS = [
    {"name": "Ana Lopez", "email": "ana.lopez@example.com", "phone": "+34 600 123 456", "customer_id": "C-1001",
     "status": "active", "plan": "Pro"},
    {"name": "Kenji Watanabe", "email": "kenji.w@example.jp", "phone": "+81 90 1234 5678", "customer_id": "C-1002",
     "status": "active", "plan": "Team"},
    {"name": "Amara Okafor", "email": "amara@example.ng", "phone": "+234 803 555 0101", "customer_id": "C-1003",
     "status": "churned", "plan": "Pro"},
    {"name": "Lars Nilsson", "email": "lars.nilsson@example.se", "phone": "+46 70 123 45 67", "customer_id": "C-1004",
     "status": "active", "plan": "Free"},
]


class Command(BaseCommand):
    help = "Load a demo: a workspace per region, users of every role, a bot, a table with people, notes."

    def handle(self, *args, **options):
        users = {email: user_create_or_update(email=email, password=DEMO_PASSWORD) for email in PEOPLE}
        root = user_create_or_update(email="root@demo.appenda.test", password=DEMO_PASSWORD, instance_admin=True)
        owner = users["owner@demo.appenda.test"]
        regions = settings.REGIONS[:2]
        progress = Progress(self.stdout, "demo workspaces", total=len(regions), unit="workspace", every_seconds=0)
        for region in regions:
            slug = f"demo-{region}"
            workspace = Workspace.objects.filter(slug=slug).first() or workspace_create(
                name=f"Demo ({region.upper()})", owner=owner, region=region, slug=slug)
            for email, role in PEOPLE.items():
                Membership.objects.get_or_create(user=users[email], workspace=workspace, defaults={"role": role})
            actor = actor_for(owner, workspace)
            if not Bot.objects.filter(workspace=workspace, name="Report bot").exists():
                bot_create(actor=actor, name="Report bot")
            table = Table.objects.for_workspace(workspace).filter(name="Customers").first()
            if table is None:
                table = table_create(actor=actor, name="Customers", columns=[
                    {"name": "name", "kind": "person"}, {"name": "email", "kind": "email"},
                    {"name": "phone", "kind": "phone"}, {"name": "customer_id", "kind": "id"},
                    {"name": "status", "kind": "text"}, {"name": "plan", "kind": "text"},
                ])
                records_add(actor=actor, table=table, rows=CUSTOMERS)
            if not Note.objects.for_workspace(workspace).exists():
                memory_save(actor=actor, key="team.date_format", value="Dates in reports use ISO 8601 (2024-05-31).",
                            layer="workspace", pinned=True)
                memory_save(actor=actor, key="pref.tone", value="Keep replies short; no emoji.", pinned=True)
                memory_save(actor=actor, key="customers.plan", value="The plan column uses Free, Team and Pro.",
                            layer="workspace", subject={"kind": "table", "id": str(table.id)})
            progress.advance()
            self.stdout.write(f"Workspace {workspace.name}: /workspaces/{workspace.id}/ (region {region})")
        self.stdout.write(progress.finish())
        self.stdout.write("")
        self.stdout.write(f"Demo logins (password for all: {DEMO_PASSWORD}):")
        for email, role in PEOPLE.items():
            self.stdout.write(f"  {email:<28} {role}")
        self.stdout.write(f"  {root.email:<28} instance admin")
