"""API plumbing: the base view that resolves the workspace once, the one exception handler."""
