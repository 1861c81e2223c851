"""Staff sessions: the store (open, resolve, end) and a staff member's own sessions screen."""
