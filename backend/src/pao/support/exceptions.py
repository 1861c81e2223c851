"""Chat refusals, one class per catalogue code (chat codes are Pao's own additions)."""

from __future__ import annotations

from pao.core.errors import (
    BadRequest,
    Conflict,
    Forbidden,
    NotFound,
    TooManyRequests,
    Unauthorized,
    Unprocessable,
)
from pao.core.request_limits import PayloadTooLarge


class FileNotSupported(BadRequest):
    """Not a png, jpeg, gif, mp4 or QuickTime file (by its content), or no extension."""

    code = "CHAT_FILE_NOT_SUPPORTED"


class FileTooLarge(PayloadTooLarge):
    """Over 10 MB (images) or 20 MB (videos); ``maxMb`` says which (HTTP 413)."""

    code = "CHAT_FILE_TOO_LARGE"


class NotOwner(Forbidden):
    """The body names another member or guest than the caller."""

    code = "CHAT_NOT_OWNER"


class MediaNotFound(NotFound):
    """No such media in the caller's conversation (or no such media at all)."""

    code = "CHAT_MEDIA_NOT_FOUND"


class ConversationNotFound(NotFound):
    code = "CHAT_CONVERSATION_NOT_FOUND"


class InvalidGuest(Unauthorized):
    """The guest id is not a random (version 4) UUID in canonical form."""

    code = "CHAT_INVALID_GUEST"


class AgentWrongCredential(Unauthorized):
    code = "WRONG_CREDENTIAL"


class ChatRateLimited(TooManyRequests):
    code = "REQUEST_LIMIT"


class AssigneeNotAgent(Unprocessable):
    """The staff member named is unknown, disabled, or their role may not use the chat."""

    code = "CHAT_ASSIGNEE_NOT_AGENT"


class AlreadyAssigned(Conflict):
    """Another staff member took the conversation first (``assignedStaffId`` says who); send
    ``replace: true`` to take it over anyway."""

    code = "CHAT_ALREADY_ASSIGNED"
