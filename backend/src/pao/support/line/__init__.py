"""The operator's LINE Official Account in the support chat (issue 32, docs/adr/0027).

A LINE user is a chat customer like a guest: :mod:`.inbound` turns LINE's webhook events into
messages of the user's conversation, :mod:`.outbound` sends agents' and the bot's messages back
through the line-bot-sdk (:mod:`.client`), mapped by :mod:`.mapping`. :mod:`.router` holds the
webhook. Nothing here imports the back office.
"""
