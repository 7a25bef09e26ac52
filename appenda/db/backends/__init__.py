"""Database backends of this project (Django ENGINE paths)."""
