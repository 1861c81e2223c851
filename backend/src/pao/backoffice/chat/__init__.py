"""The support inbox, and the staff as the chat's agents (:mod:`pao.support.agents`)."""
