"""AMB SuperAPI's "Common Flow" dialect: the seamless callbacks Pao hosts for AMB
(:mod:`.callbacks`), their wire format (:mod:`.wire`) and signature (:mod:`.signature`).
shared/providers.md §2. No money rule lives here: each txn is one call of the core."""

PROVIDER = "amb"
