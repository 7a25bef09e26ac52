"""Agent memory (region databases): notes, turns and what they read, change sets and audit;
the one save decision (policy.py), refusals, recall as quoted data."""
