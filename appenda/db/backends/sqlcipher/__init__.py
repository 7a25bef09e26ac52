"""SQLite encrypted with SQLCipher: the one-file database of a local workspace (R-REGION-4)."""
