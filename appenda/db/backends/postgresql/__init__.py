"""Django's PostgreSQL backend with a bounded pool, query deadlines and a per-region bulkhead."""
