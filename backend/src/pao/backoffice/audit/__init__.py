"""The audit log: who did what (written by every area) and its search screen."""
