"""Django's SQLite backend whose errors name their database (the embedded default)."""
