"""The optional FAQ bot: answers a customer with quick replies while no agent is online.

It runs when the operator setting ``chatBotEnabled`` is on, no agent socket is connected, and
the customer has not asked for a human. A quick reply carries ``bot:<node>`` as its postback
payload; ``bot:agent`` hands the conversation over (the bot then stays quiet until an agent
answers). Its texts are per locale; it answers in the conversation's language.
"""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from pao.core.language import Language
from pao.site.settings import SiteSettings
from pao.support.bot_tree import AGENT, BotNode
from pao.support.models import ChatConversation, ChatMessage
from pao.support.schemas import (
    PostbackMessage,
    QuickRepliesMessage,
    QuickRepliesPayload,
    QuickReply,
    TextMessage,
)
from pao.support.service import store_message

PAYLOAD_PREFIX = "bot:"


def _node_message(node: BotNode, language: Language) -> QuickRepliesMessage | TextMessage:
    text = node.text.pick(language.locale, fallback=language.fallback)
    if not node.replies:
        return TextMessage(message_type="text", payload=text)
    return QuickRepliesMessage(
        message_type="quick_replies",
        payload=QuickRepliesPayload(
            text=text,
            quick_replies=[
                QuickReply(
                    title=r.title.pick(language.locale, fallback=language.fallback),
                    payload=PAYLOAD_PREFIX + r.next,
                )
                for r in node.replies
            ],
        ),
    )


async def answer(
    session: AsyncSession,
    *,
    site: SiteSettings,
    conversation: ChatConversation,
    incoming: TextMessage | PostbackMessage | object,
    agents_online: int,
    language: Language,
) -> ChatMessage | None:
    """The bot's reply to ``incoming`` (already stored), or ``None`` when it stays quiet.

    It answers in ``language``: the conversation's (the language the customer writes from),
    falling back to the site's default."""
    if not site.chat_bot_enabled or agents_online > 0 or conversation.wants_agent:
        return None
    tree = site.chat_bot_tree
    target = tree.start
    if isinstance(incoming, PostbackMessage) and incoming.payload.payload.startswith(
        PAYLOAD_PREFIX
    ):
        target = incoming.payload.payload.removeprefix(PAYLOAD_PREFIX)
    reply: QuickRepliesMessage | TextMessage
    if target == AGENT:
        handover = tree.handover_text.pick(language.locale, fallback=language.fallback)
        reply = TextMessage(message_type="text", payload=handover)
    else:
        reply = _node_message(tree.nodes.get(target) or tree.nodes[tree.start], language)
    stored = await store_message(session, conversation=conversation, sender="bot", message=reply)
    if target == AGENT:
        conversation.wants_agent = True
        await session.flush()
    return stored
