"""The back-office dashboard: the operator's morning figures and the live queue counts."""
