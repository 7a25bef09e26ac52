"""Detectors that refuse or hold a note before it is stored (SPEC R-SAVE-2, R-SAVE-3, R-SAVE-3b)."""
