"""A chat message as LINE messages (line-bot-sdk models), within LINE's limits.

Text → a text message; an image → an image message whose URLs are Pao's signed media links
(:mod:`pao.support.line.media`); buttons → a buttons template (≤ 4 actions, text ≤ 160
characters); quick replies → a text message with quick reply items (≤ 13). A label longer than
LINE's 20 characters is cut (the full title is what the user's tap says). What LINE cannot
show — a video, generic cards, buttons past the template's limits — goes as text: the text,
then one line per button (a link's address, a phone number), so nothing the agent offered is
lost. A postback keeps its title beside its payload in LINE's ``data`` (:func:`postback_data`)
so that the tap comes back as the same postback message.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from linebot.v3.messaging import (
    ButtonsTemplate,
    ImageMessage,
    MessageAction,
    PostbackAction,
    QuickReply,
    QuickReplyItem,
    TemplateMessage,
    URIAction,
)
from linebot.v3.messaging import Message as LineMessage
from linebot.v3.messaging import TextMessage as LineText

LABEL_MAX = 20
TEMPLATE_TEXT_MAX = 160
TEMPLATE_ACTIONS_MAX = 4
QUICK_REPLIES_MAX = 13
DATA_MAX = 300
ALT_TEXT_MAX = 400

MediaUrl = Callable[[str], str]


def _label(title: str) -> str:
    return title if len(title) <= LABEL_MAX else title[: LABEL_MAX - 1] + "…"


def postback_data(title: str, payload: str) -> str | None:
    """LINE's ``data`` for a postback (≤ 300 characters), or None when it does not fit."""
    data = json.dumps({"t": title, "p": payload}, ensure_ascii=False, separators=(",", ":"))
    if len(data) <= DATA_MAX:
        return data
    return None


def postback_parts(data: str) -> tuple[str, str]:
    """(title, payload) of a postback's ``data``; a foreign one is its own title."""
    try:
        parsed = json.loads(data)
    except ValueError:
        parsed = None
    if (
        isinstance(parsed, dict)
        and isinstance(parsed.get("t"), str)
        and isinstance(parsed.get("p"), str)
        and parsed["t"].strip()
    ):
        return parsed["t"][:80], parsed["p"]
    return (data[:80] if data.strip() else "postback"), data


def _action(button: dict[str, Any]) -> Any | None:
    """A chat button as a LINE action, or None when LINE cannot carry it."""
    title, kind = button["title"], button["type"]
    if kind == "web":
        return URIAction(label=_label(title), uri=button["url"])
    if kind == "call":
        return URIAction(label=_label(title), uri="tel:" + button["payload"].replace(" ", ""))
    if kind == "postback":
        data = postback_data(title, button["payload"])
        if data is None:
            return None
        return PostbackAction(label=_label(title), data=data, display_text=title)
    return MessageAction(label=_label(title), text=title)


def _button_line(button: dict[str, Any]) -> str:
    if button["type"] == "web":
        return f"• {button['title']}: {button['url']}"
    if button["type"] == "call":
        return f"• {button['title']}: {button['payload']}"
    return f"• {button['title']}"


def _as_text(text: str, buttons: Sequence[dict[str, Any]]) -> LineText:
    lines = [text, *(_button_line(b) for b in buttons)]
    return LineText(text="\n".join(line for line in lines if line)[:5000])


def _buttons(payload: dict[str, Any]) -> LineMessage:
    text, buttons = payload["text"], payload["buttons"]
    actions = [_action(b) for b in buttons]
    if (
        len(text) > TEMPLATE_TEXT_MAX
        or len(actions) > TEMPLATE_ACTIONS_MAX
        or any(a is None for a in actions)
    ):
        return _as_text(text, buttons)
    return TemplateMessage(
        alt_text=text[:ALT_TEXT_MAX], template=ButtonsTemplate(text=text, actions=actions)
    )


def _quick_replies(payload: dict[str, Any]) -> LineMessage:
    text, replies = payload["text"], payload["quick_replies"]
    items = []
    for reply in replies[:QUICK_REPLIES_MAX]:
        title, value = reply["title"], reply.get("payload")
        data = postback_data(title, value) if value else None
        if value and data is None:
            return _as_text(text, [{"type": "reply", "title": r["title"]} for r in replies])
        action = (
            PostbackAction(label=_label(title), data=data, display_text=title)
            if data
            else MessageAction(label=_label(title), text=title)
        )
        items.append(QuickReplyItem(action=action))
    return LineText(text=text, quick_reply=QuickReply(items=items))


def _generic(cards: Sequence[dict[str, Any]]) -> LineMessage:
    lines: list[str] = []
    for card in cards:
        lines.append(card["title"])
        if card.get("subtitle"):
            lines.append(card["subtitle"])
        lines.extend(_button_line(b) for b in card.get("buttons", []))
    return LineText(text="\n".join(lines)[:5000])


def to_line(body: dict[str, Any], media_url: MediaUrl) -> list[LineMessage]:
    """The LINE messages of a stored chat message's ``body`` (one; LINE takes up to five)."""
    kind = body["message_type"]
    if kind == "text":
        return [LineText(text=body["payload"])]
    if kind == "buttons":
        return [_buttons(body["payload"])]
    if kind == "quick_replies":
        return [_quick_replies(body["payload"])]
    if kind == "generic":
        return [_generic(body["payloads"])]
    if kind == "media":
        payload = body["payload"]
        url = media_url(payload["filePath"])
        if payload.get("fileType") == "image":
            return [ImageMessage(original_content_url=url, preview_image_url=url)]
        return [LineText(text=f"{payload['message']}\n{url}")]
    # A postback is a customer's; an agent never sends one. As text, should it ever come.
    return [LineText(text=str(body.get("payload", ""))[:5000] or "-")]
