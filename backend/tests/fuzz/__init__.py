"""The API fuzz run of `make fuzz`: schemathesis against the real app (see ``__main__``)."""
