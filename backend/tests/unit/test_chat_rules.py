"""Chat rules without a database: message validation, media sniffing, the bot tree."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import TypeAdapter, ValidationError

from pao.kit.media import SNIFF_BYTES, extension_of, sniff
from pao.support.bot_tree import BotTree, default_bot_tree
from pao.support.exceptions import FileNotSupported
from pao.support.schemas import GUEST_ID, AgentMessage, CustomerMessage, Message
from pao.support.uploads import (
    MAX_BYTES,
    MB,
    check_upload,
    safe_file_name,
    too_large,
)
from tests.chat_media import GIF, JPEG, MOV, MP4, PDF, PNG

CUSTOMER: TypeAdapter[Any] = TypeAdapter(CustomerMessage)
AGENT: TypeAdapter[Any] = TypeAdapter(AgentMessage)
ANY: TypeAdapter[Any] = TypeAdapter(Message)


def error_type(adapter: TypeAdapter[Any], value: Any) -> str:
    with pytest.raises(ValidationError) as caught:
        adapter.validate_python(value)
    return str(caught.value.errors()[0]["type"])


def text(payload: Any) -> dict[str, Any]:
    return {"message_type": "text", "payload": payload}


def test_text_limits() -> None:
    assert CUSTOMER.validate_python(text("x" * 2000)).payload == "x" * 2000
    assert error_type(CUSTOMER, text("x" * 2001)) == "CHAT_MESSAGE_TOO_LONG"
    assert error_type(CUSTOMER, text("")) == "CHAT_MESSAGE_EMPTY"
    assert error_type(CUSTOMER, text(" \n\t ")) == "CHAT_MESSAGE_EMPTY"
    assert error_type(CUSTOMER, text(5)) == "string_type"
    # Thai text counts characters, not bytes.
    assert CUSTOMER.validate_python(text("ก" * 2000)).payload == "ก" * 2000


def test_customer_may_not_send_agent_types() -> None:
    buttons = {
        "message_type": "buttons",
        "payload": {"text": "hi", "buttons": [{"type": "reply", "title": "ok"}]},
    }
    assert AGENT.validate_python(buttons).payload.buttons[0].title == "ok"
    assert error_type(CUSTOMER, buttons) == "union_tag_invalid"
    assert error_type(CUSTOMER, {"message_type": "unknown", "payload": "x"}) == "union_tag_invalid"
    assert error_type(CUSTOMER, {"payload": "x"}) == "union_tag_not_found"
    # Agents do not send postbacks (a customer's click).
    postback = {"message_type": "postback", "payload": {"title": "A", "payload": "bot:menu"}}
    assert CUSTOMER.validate_python(postback).payload.payload == "bot:menu"
    assert error_type(AGENT, postback) == "union_tag_invalid"


def test_buttons_by_type() -> None:
    def one(button: dict[str, Any]) -> dict[str, Any]:
        return {"message_type": "buttons", "payload": {"text": "pick", "buttons": [button]}}

    web = AGENT.validate_python(one({"type": "web", "title": "Site", "url": "https://x.test/a"}))
    assert web.payload.buttons[0].url == "https://x.test/a"
    assert error_type(AGENT, one({"type": "web", "title": "x", "url": "javascript:alert(1)"}))
    assert error_type(AGENT, one({"type": "web", "title": "x", "url": "/relative"}))
    assert AGENT.validate_python(one({"type": "call", "title": "Call", "payload": "+66812345678"}))
    assert error_type(AGENT, one({"type": "call", "title": "x", "payload": "tel:1"}))
    assert AGENT.validate_python(one({"type": "postback", "title": "Go", "payload": "p"}))
    assert error_type(AGENT, one({"type": "postback", "title": "Go", "payload": ""}))
    assert error_type(AGENT, one({"type": "magic", "title": "x"})) == "union_tag_invalid"
    assert error_type(AGENT, one({"type": "reply", "title": "   "})) == "CHAT_MESSAGE_EMPTY"
    assert error_type(AGENT, one({"type": "reply", "title": "x" * 81})) == "string_too_long"
    four = [{"type": "reply", "title": str(i)} for i in range(4)]
    four_buttons = {"message_type": "buttons", "payload": {"text": "t", "buttons": four}}
    assert error_type(AGENT, four_buttons) == "too_long"
    none = {"message_type": "buttons", "payload": {"text": "t", "buttons": []}}
    assert error_type(AGENT, none) == "too_short"
    extra = one({"type": "reply", "title": "x", "onclick": "evil()"})
    assert error_type(AGENT, extra) == "extra_forbidden"


def test_quick_replies_generic_media() -> None:
    quick = {
        "message_type": "quick_replies",
        "payload": {
            "text": "choose",
            "quick_replies": [{"title": "A"}, {"title": "B", "payload": "b"}],
        },
    }
    assert len(AGENT.validate_python(quick).payload.quick_replies) == 2
    quick["payload"]["quick_replies"] = []  # type: ignore[index]
    assert error_type(AGENT, quick) == "too_short"
    card = {"title": "Promo", "subtitle": "s", "image_url": "https://x.test/i.png", "buttons": []}
    assert AGENT.validate_python({"message_type": "generic", "payloads": [card]})
    bad_image = {**card, "image_url": "data:image/png;base64,AAAA"}
    assert error_type(AGENT, {"message_type": "generic", "payloads": [bad_image]}) == "value_error"
    assert error_type(AGENT, {"message_type": "generic", "payloads": []}) == "too_short"
    media = {
        "message_type": "media",
        "payload": {"message": "a.png", "url": True, "fileType": "image", "filePath": "chat/1/x"},
    }
    assert CUSTOMER.validate_python(media).payload.file_path == "chat/1/x"
    media["payload"]["fileType"] = "exe"  # type: ignore[index]
    assert error_type(CUSTOMER, media) == "literal_error"
    # Every type of spec §3 reads back through the one union.
    for value in (
        quick | {"payload": {"text": "c", "quick_replies": [{"title": "A"}]}},
        text("hi"),
    ):
        assert ANY.validate_python(value)


@pytest.mark.parametrize(
    ("data", "kind", "content_type"),
    [
        (PNG, "image", "image/png"),
        (JPEG, "image", "image/jpeg"),
        (GIF, "image", "image/gif"),
        (MP4, "video", "video/mp4"),
        (MOV, "video", "video/quicktime"),
    ],
)
def test_sniff_accepts(data: bytes, kind: str, content_type: str) -> None:
    detected = sniff(data)
    assert detected is not None
    assert (detected.kind, detected.content_type) == (kind, content_type)


def test_sniff_refuses_other_content() -> None:
    assert sniff(PDF) is None
    assert sniff(b"") is None
    assert sniff(b"<svg xmlns='http://www.w3.org/2000/svg'/>") is None


def test_check_upload_rules() -> None:
    assert check_upload(kind="image", file_name="a.JPG", head=JPEG[:SNIFF_BYTES]).extension == "jpg"
    assert check_upload(kind="video", file_name="clip.mov", head=MOV[:SNIFF_BYTES]).kind == "video"
    with pytest.raises(FileNotSupported):
        check_upload(kind="image", file_name="noextension", head=PNG)
    with pytest.raises(FileNotSupported):
        check_upload(kind="image", file_name="doc.pdf", head=PNG)
    with pytest.raises(FileNotSupported):
        check_upload(kind="image", file_name="fake.png", head=PDF)  # content decides
    with pytest.raises(FileNotSupported):
        check_upload(kind="image", file_name="clip.png", head=MP4)  # a video on the image call


def test_too_large_says_the_limit_with_413() -> None:
    # The size is enforced while the file is stored (tests/unit/test_storage.py).
    assert too_large("image").extra == {"maxMb": 10}
    assert too_large("video").extra == {"maxMb": 20}
    assert too_large("video").status_code == 413
    assert too_large("video").code == "CHAT_FILE_TOO_LARGE"
    assert MAX_BYTES == {"image": 10 * MB, "video": 20 * MB}


def test_file_names() -> None:
    assert extension_of("a.b.PNG") == "png"
    assert extension_of(".png") is None
    assert extension_of(None) is None
    detected = sniff(PNG)
    assert detected is not None
    assert safe_file_name("C:\\Users\\me\\cat.png", detected) == "cat.png"
    assert safe_file_name("", detected) == "file.png"


def test_guest_id_must_be_a_v4_uuid() -> None:
    assert GUEST_ID.fullmatch("2b1e4c3a-1f6d-4e8a-9b7c-0d1e2f3a4b5c")
    assert not GUEST_ID.fullmatch("2B1E4C3A-1F6D-4E8A-9B7C-0D1E2F3A4B5C")  # canonical only
    assert not GUEST_ID.fullmatch("2b1e4c3a-1f6d-1e8a-9b7c-0d1e2f3a4b5c")  # version 1
    assert not GUEST_ID.fullmatch("00000000-0000-4000-8000-00000000000")
    assert not GUEST_ID.fullmatch("1")


def test_bot_tree_links_must_resolve() -> None:
    tree = default_bot_tree()
    assert tree.start in tree.nodes
    with pytest.raises(ValidationError):
        BotTree.model_validate(
            {"start": "a", "nodes": {"a": {"text": "x", "replies": [{"title": "t", "next": "b"}]}}}
        )
    with pytest.raises(ValidationError):
        BotTree.model_validate({"start": "zzz", "nodes": {"a": {"text": "x"}}})
    ok = BotTree.model_validate(
        {"start": "a", "nodes": {"a": {"text": "x", "replies": [{"title": "t", "next": "agent"}]}}}
    )
    assert ok.nodes["a"].replies[0].next == "agent"
