"""Wire shapes of the chat (spec §3 Chat, §7 Chat) and of the agent inbox.

Messages are discriminated unions on ``message_type`` (buttons on ``type``), validated on the
server whoever sends them: a customer may send text, media and postbacks; an agent text,
buttons, media, quick replies and generic cards. Text is 1–2000 characters and never blank.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Annotated, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
)
from pydantic_core import PydanticCustomError

from pao.core.params import RequestModel
from pao.kit.urls import WEB, check_url
from pao.site.content import SafeUrl

MAX_TEXT = 2000
HISTORY_PAGE_MAX = 50


def _check_text(value: str) -> str:
    if not value.strip():
        raise PydanticCustomError("CHAT_MESSAGE_EMPTY", "the message is empty")
    if len(value) > MAX_TEXT:
        raise PydanticCustomError(
            "CHAT_MESSAGE_TOO_LONG",
            "the message is longer than {max} characters",
            {"max": MAX_TEXT},
        )
    return value


def _nonblank(value: str) -> str:
    if not value.strip():
        raise PydanticCustomError("CHAT_MESSAGE_EMPTY", "the text is empty")
    return value


def _web_only(value: str) -> str:
    # A button link leaves the site: only absolute http(s), never a script or data URL.
    return check_url(value, WEB)


ChatText = Annotated[str, AfterValidator(_check_text)]
Title = Annotated[str, StringConstraints(min_length=1, max_length=80), AfterValidator(_nonblank)]
LinkUrl = Annotated[str, StringConstraints(max_length=2000), AfterValidator(_web_only)]
PostbackPayload = Annotated[str, StringConstraints(min_length=1, max_length=1000)]
PhoneNumber = Annotated[str, StringConstraints(pattern=re.compile(r"^\+?[0-9][0-9 -]{2,19}$"))]
# A v4 UUID in canonical lower-case form: the guest id a browser creates for itself.
GUEST_ID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class WebButton(_Strict):
    """Opens ``url`` in a new tab."""

    type: Literal["web"]
    title: Title
    url: LinkUrl


class CallButton(_Strict):
    """Opens ``tel:`` + ``payload``."""

    type: Literal["call"]
    title: Title
    payload: PhoneNumber


class PostbackButton(_Strict):
    """Sends a postback message ``{title, payload}``."""

    type: Literal["postback"]
    title: Title
    payload: PostbackPayload


class ReplyButton(_Strict):
    """Any other button: sends its title as a text message."""

    type: Literal["reply"]
    title: Title


Button = Annotated[
    WebButton | CallButton | PostbackButton | ReplyButton, Field(discriminator="type")
]


class TextMessage(_Strict):
    message_type: Literal["text"]
    payload: ChatText


class ButtonsPayload(_Strict):
    text: ChatText
    buttons: list[Button] = Field(min_length=1, max_length=3)


class ButtonsMessage(_Strict):
    message_type: Literal["buttons"]
    payload: ButtonsPayload


class MediaPayload(_Strict):
    message: Annotated[str, StringConstraints(min_length=1, max_length=255)] = Field(
        description="The file name shown."
    )
    url: bool = True
    file_type: Literal["image", "video", "file"] = Field(alias="fileType")
    file_path: Annotated[str, StringConstraints(min_length=1, max_length=200)] = Field(
        alias="filePath", description="The path an upload returned."
    )


class MediaMessage(_Strict):
    message_type: Literal["media"]
    payload: MediaPayload


class QuickReply(_Strict):
    title: Title
    payload: PostbackPayload | None = Field(
        default=None, description="Sent as a postback when chosen; absent: the title as text."
    )


class QuickRepliesPayload(_Strict):
    text: ChatText
    quick_replies: list[QuickReply] = Field(min_length=1, max_length=11)


class QuickRepliesMessage(_Strict):
    message_type: Literal["quick_replies"]
    payload: QuickRepliesPayload


class GenericCard(_Strict):
    image_url: SafeUrl | None = None
    title: Title
    subtitle: Annotated[str, StringConstraints(max_length=300)] | None = None
    buttons: list[Button] = Field(default_factory=list, max_length=3)


class GenericMessage(_Strict):
    message_type: Literal["generic"]
    payloads: list[GenericCard] = Field(min_length=1, max_length=10)


class PostbackPayloadBody(_Strict):
    title: Title
    payload: PostbackPayload


class PostbackMessage(_Strict):
    message_type: Literal["postback"]
    payload: PostbackPayloadBody


Message = Annotated[
    TextMessage
    | ButtonsMessage
    | MediaMessage
    | QuickRepliesMessage
    | GenericMessage
    | PostbackMessage,
    Field(discriminator="message_type"),
]
CustomerMessage = Annotated[
    TextMessage | MediaMessage | PostbackMessage, Field(discriminator="message_type")
]
AgentMessage = Annotated[
    TextMessage | ButtonsMessage | MediaMessage | QuickRepliesMessage | GenericMessage,
    Field(discriminator="message_type"),
]

ClientId = Annotated[str, StringConstraints(min_length=1, max_length=64)]
OptionalShort = Annotated[str, StringConstraints(max_length=100)] | None


class _Wire(BaseModel):
    model_config = ConfigDict(populate_by_name=True)


class ChatConfigOut(_Wire):
    prefix: str = Field(alias="PREFIX", description="Room names are PREFIX + userId or guestId.")


class SendMessageIn(_Wire):
    """The conversation body the widget posts. Identity fields must name the caller."""

    sender: OptionalShort = Field(default=None, description="Ignored: always 'customer'.")
    message: CustomerMessage
    session_id: OptionalShort = None
    user_id: OptionalShort = Field(default=None, alias="userId")
    guest_id: OptionalShort = Field(default=None, alias="guestId")
    username: OptionalShort = Field(default=None, description="Ignored for members.")
    name: OptionalShort = Field(default=None, description="A guest's display name.")
    device_token: Annotated[str, StringConstraints(max_length=300)] | None = Field(
        default=None, alias="deviceToken"
    )
    client_id: ClientId | None = Field(
        default=None, alias="clientId", description="Echoed in the 'messaging' event."
    )


class SentOut(_Wire):
    timestamp: datetime = Field(description="createdAt of the stored message.")
    id: str = Field(alias="_id")


class HistoryIn(_Wire, RequestModel):
    user_id: OptionalShort = Field(default=None, alias="userId")
    guest_id: OptionalShort = Field(default=None, alias="guestId")
    limit: int = Field(default=10, ge=1, le=HISTORY_PAGE_MAX)
    skip: int = Field(default=0, ge=0, le=1_000_000)


class ReadIn(_Wire):
    user_id: OptionalShort = Field(default=None, alias="userId")
    guest_id: OptionalShort = Field(default=None, alias="guestId")


class ConversationOut(_Wire):
    """One message of a conversation, as history answers it and 'messaging' delivers it."""

    id: str = Field(alias="_id")
    sender: Literal["customer", "agent", "bot"]
    message: Message
    created_at: datetime = Field(alias="createdAt")
    session_id: str | None = None
    user_id: str | None = Field(alias="userId")
    guest_id: str | None = Field(alias="guestId")
    username: str | None
    name: str
    client_id: str | None = Field(default=None, alias="clientId")
    conversation_id: str = Field(alias="conversationId")
    agent_name: str | None = Field(default=None, alias="agentName")
    delivery: Literal["sending", "failed", "succeed"] | None = Field(
        default=None,
        description="A message to a LINE user: whether LINE took it yet (failed: retried).",
    )


class UploadOut(_Wire):
    path: str = Field(description="The media key: message.payload.filePath.")


class ReadOut(_Wire):
    read: int = Field(description="Messages marked read.")


# ----- agent inbox ----------------------------------------------------------------------------


class AgentOut(_Wire):
    id: str = Field(alias="_id")
    username: str
    name: str


class ConversationSummaryOut(_Wire):
    id: str = Field(alias="_id")
    user_id: str | None = Field(alias="userId")
    guest_id: str | None = Field(alias="guestId")
    name: str
    username: str | None
    unread: int
    wants_agent: bool = Field(alias="wantsAgent")
    last_message_at: datetime | None = Field(alias="lastMessageAt")
    last_message: ConversationOut | None = Field(alias="lastMessage")


class AgentSendIn(_Wire):
    message: AgentMessage
    client_id: ClientId | None = Field(default=None, alias="clientId")


class AgentHistoryIn(_Wire, RequestModel):
    limit: int = Field(default=20, ge=1, le=HISTORY_PAGE_MAX)
    skip: int = Field(default=0, ge=0, le=1_000_000)
