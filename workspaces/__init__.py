"""Control data (control database): the instance, workspaces, memberships and roles, bots, tokens,
instance rules and people's memory settings."""
