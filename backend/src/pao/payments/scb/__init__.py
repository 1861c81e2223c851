"""SCB Open API (providers.md §6): the OAuth token client, shared by every SCB call."""
