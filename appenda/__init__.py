"""Appenda agent memory: project plumbing (settings, URLs, region routing, storage, API base)."""
