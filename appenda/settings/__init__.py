"""Settings packages: base (shared), regions (REGIONS → DATABASES + buckets), dev, test, production."""
