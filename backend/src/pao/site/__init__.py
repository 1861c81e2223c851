"""Site: operator settings, lookups, content, flags and termination."""
