"""The back office's members screens: search, the member's page, sensitive reads and the
operator's actions on a member's account. Routers only check the permission, call the domain
(:mod:`pao.identity.admin`, :mod:`pao.wallet.member_search`…) and write the audit row."""
