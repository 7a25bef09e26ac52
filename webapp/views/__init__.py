"""Pages. They call the same services and selectors as the API, never a copy of the rules."""
