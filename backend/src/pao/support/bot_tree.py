"""The FAQ bot's configured tree (an operator setting, ``chatBotTree``).

Kept free of other Pao imports so that :mod:`pao.site.settings` can type the setting with it.
A node answers with a text and quick replies; a reply leads to another node, or to
:data:`AGENT` (hand the conversation over to a human agent).
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator

AGENT = "agent"

NodeId = Annotated[str, StringConstraints(pattern=r"^[a-z0-9_-]{1,30}$")]


class BotReply(BaseModel):
    model_config = ConfigDict(extra="forbid")

    title: Annotated[str, StringConstraints(min_length=1, max_length=40, strip_whitespace=True)]
    next: NodeId


class BotNode(BaseModel):
    model_config = ConfigDict(extra="forbid")

    text: Annotated[str, StringConstraints(min_length=1, max_length=2000, strip_whitespace=True)]
    replies: list[BotReply] = Field(default_factory=list, max_length=11)


class BotTree(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    start: NodeId = "menu"
    nodes: dict[NodeId, BotNode]
    handover_text: str = Field(
        alias="handoverText",
        min_length=1,
        max_length=2000,
        default="แอดมินจะตอบกลับโดยเร็วที่สุด กรุณารอสักครู่",
    )

    @model_validator(mode="after")
    def _links_resolve(self) -> BotTree:
        if self.start not in self.nodes:
            raise ValueError(f"start node {self.start!r} is not in nodes")
        for node_id, node in self.nodes.items():
            for reply in node.replies:
                if reply.next != AGENT and reply.next not in self.nodes:
                    raise ValueError(f"node {node_id!r}: reply leads to unknown {reply.next!r}")
        return self


def default_bot_tree() -> BotTree:
    """Deposit help, withdrawal help and contact, in Thai (the operator edits it)."""
    back = BotReply(title="เมนูหลัก", next="menu")
    human = BotReply(title="คุยกับแอดมิน", next=AGENT)
    return BotTree(
        start="menu",
        nodes={
            "menu": BotNode(
                text="สวัสดีค่ะ ตอนนี้แอดมินไม่อยู่ เลือกหัวข้อที่ต้องการความช่วยเหลือได้เลย",
                replies=[
                    BotReply(title="วิธีฝากเงิน", next="deposit"),
                    BotReply(title="วิธีถอนเงิน", next="withdraw"),
                    BotReply(title="ติดต่อเรา", next="contact"),
                    human,
                ],
            ),
            "deposit": BotNode(
                text=(
                    "ฝากเงิน: กดปุ่ม 'ฝากเงิน' ที่หน้าหลัก เลือกบัญชีปลายทาง โอนจากบัญชีที่ลงทะเบียนไว้"
                    " แล้วแนบสลิปหากยอดยังไม่เข้าภายใน 5 นาที"
                ),
                replies=[back, human],
            ),
            "withdraw": BotNode(
                text=(
                    "ถอนเงิน: กดปุ่ม 'ถอนเงิน' ใส่จำนวนเงิน เงินจะโอนเข้าบัญชีที่ลงทะเบียนไว้"
                    " หากติดโบนัสต้องทำเทิร์นให้ครบก่อน"
                ),
                replies=[back, human],
            ),
            "contact": BotNode(
                text="ติดต่อเราได้ทางหน้า 'ติดต่อเรา' หรือทิ้งข้อความไว้ที่นี่ แอดมินจะตอบกลับ",
                replies=[back, human],
            ),
        },
    )
