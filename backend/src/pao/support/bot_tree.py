"""The FAQ bot's configured tree (an operator setting, ``chatBotTree``).

Kept free of Pao imports above :mod:`pao.kit` so that :mod:`pao.site.settings` can type the
setting with it. A node answers with a text and quick replies; a reply leads to another node,
or to :data:`AGENT` (hand the conversation over to a human agent). Every text is per locale
(:class:`pao.kit.i18n.LocalizedText`); the bot answers in the conversation's language.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    model_validator,
)

from pao.kit.i18n import LocalizedText

AGENT = "agent"

NodeId = Annotated[str, StringConstraints(pattern=r"^[a-z0-9_-]{1,30}$")]


def _bounded(max_length: int) -> Callable[[LocalizedText], LocalizedText]:
    def check(value: LocalizedText) -> LocalizedText:
        texts = {locale: text.strip() for locale, text in value.as_dict().items()}
        if not texts:
            raise ValueError("needs a text in at least one locale")
        for locale, text in texts.items():
            if len(text) > max_length:
                raise ValueError(f"{locale} is longer than {max_length} characters")
        return LocalizedText.model_validate(texts)

    return check


# A text per locale, at least one of them non-empty, none longer than the bound.
Title = Annotated[LocalizedText, AfterValidator(_bounded(40))]
Text = Annotated[LocalizedText, AfterValidator(_bounded(2000))]


def _t(th: str, la: str, en: str) -> LocalizedText:
    return LocalizedText(th=th, la=la, en=en)


class BotReply(BaseModel):
    model_config = ConfigDict(extra="forbid")

    title: Title
    next: NodeId


class BotNode(BaseModel):
    model_config = ConfigDict(extra="forbid")

    text: Text
    replies: list[BotReply] = Field(default_factory=list, max_length=11)


class BotTree(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    start: NodeId = "menu"
    nodes: dict[NodeId, BotNode]
    handover_text: Text = Field(
        alias="handoverText",
        default=_t(
            "แอดมินจะตอบกลับโดยเร็วที่สุด กรุณารอสักครู่",
            "ແອັດມິນຈະຕອບກັບໂດຍໄວທີ່ສຸດ ກະລຸນາລໍຖ້າຈັກໜ້ອຍ",
            "An admin will answer as soon as possible. Please wait a moment.",
        ),
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
    """Deposit help, withdrawal help and contact, in Thai, Lao and English (the operator
    edits it)."""
    back = BotReply(title=_t("เมนูหลัก", "ເມນູຫຼັກ", "Main menu"), next="menu")
    human = BotReply(title=_t("คุยกับแอดมิน", "ລົມກັບແອັດມິນ", "Talk to an admin"), next=AGENT)
    return BotTree(
        start="menu",
        nodes={
            "menu": BotNode(
                text=_t(
                    "สวัสดีค่ะ ตอนนี้แอดมินไม่อยู่ เลือกหัวข้อที่ต้องการความช่วยเหลือได้เลย",
                    "ສະບາຍດີ ຕອນນີ້ແອັດມິນບໍ່ຢູ່ ເລືອກຫົວຂໍ້ທີ່ຕ້ອງການຄວາມຊ່ວຍເຫຼືອໄດ້ເລີຍ",
                    "Hello! No admin is online right now. Pick a topic you need help with.",
                ),
                replies=[
                    BotReply(title=_t("วิธีฝากเงิน", "ວິທີຝາກເງິນ", "How to deposit"), next="deposit"),
                    BotReply(title=_t("วิธีถอนเงิน", "ວິທີຖອນເງິນ", "How to withdraw"), next="withdraw"),
                    BotReply(title=_t("ติดต่อเรา", "ຕິດຕໍ່ພວກເຮົາ", "Contact us"), next="contact"),
                    human,
                ],
            ),
            "deposit": BotNode(
                text=_t(
                    "ฝากเงิน: กดปุ่ม 'ฝากเงิน' ที่หน้าหลัก เลือกบัญชีปลายทาง โอนจากบัญชีที่ลงทะเบียนไว้"
                    " แล้วแนบสลิปหากยอดยังไม่เข้าภายใน 5 นาที",
                    "ຝາກເງິນ: ກົດປຸ່ມ 'ຝາກເງິນ' ຢູ່ໜ້າຫຼັກ ເລືອກບັນຊີປາຍທາງ ໂອນຈາກບັນຊີທີ່ລົງທະບຽນໄວ້"
                    " ແລ້ວແນບສະລິບຖ້າຍອດເງິນຍັງບໍ່ເຂົ້າພາຍໃນ 5 ນາທີ",
                    "Deposit: tap 'Deposit' on the home screen, pick the destination account and"
                    " transfer from your registered account; attach the slip if the money has not"
                    " arrived within 5 minutes.",
                ),
                replies=[back, human],
            ),
            "withdraw": BotNode(
                text=_t(
                    "ถอนเงิน: กดปุ่ม 'ถอนเงิน' ใส่จำนวนเงิน เงินจะโอนเข้าบัญชีที่ลงทะเบียนไว้"
                    " หากติดโบนัสต้องทำเทิร์นให้ครบก่อน",
                    "ຖອນເງິນ: ກົດປຸ່ມ 'ຖອນເງິນ' ໃສ່ຈຳນວນເງິນ ເງິນຈະໂອນເຂົ້າບັນຊີທີ່ລົງທະບຽນໄວ້"
                    " ຖ້າມີໂບນັດຢູ່ ຕ້ອງເຮັດເທີນໃຫ້ຄົບກ່ອນ",
                    "Withdraw: tap 'Withdraw' and enter the amount; the money goes to your"
                    " registered bank account. With a bonus running, meet its turnover first.",
                ),
                replies=[back, human],
            ),
            "contact": BotNode(
                text=_t(
                    "ติดต่อเราได้ทางหน้า 'ติดต่อเรา' หรือทิ้งข้อความไว้ที่นี่ แอดมินจะตอบกลับ",
                    "ຕິດຕໍ່ພວກເຮົາໄດ້ທາງໜ້າ 'ຕິດຕໍ່ພວກເຮົາ' ຫຼື ຝາກຂໍ້ຄວາມໄວ້ທີ່ນີ້ ແອັດມິນຈະຕອບກັບ",
                    "Reach us on the 'Contact' page, or leave a message here and an admin will"
                    " answer.",
                ),
                replies=[back, human],
            ),
        },
    )
