"""Hub88's dialect: the operator Wallet API Pao hosts (:mod:`.wallet`), the Games API Pao calls
(:mod:`.games_api`), and their RSA signatures (:mod:`.signature`). shared/providers.md §1."""

PROVIDER = "hub88"
