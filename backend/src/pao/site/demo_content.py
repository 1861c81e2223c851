"""Demo operator content: every lookup filled in Thai, Lao and English (``pao demo``).

:func:`seed_site_content` only writes settings that have no row yet, so it is idempotent and
never undoes what an operator changed with ``pao ops settings set`` (``make run`` seeds on every
start). Values go through the same validation as operator changes.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.site.line_qr import LINE_QR_PATH
from pao.site.models import SiteSetting
from pao.site.service import store_setting

LINE_ID = "@pao.support"
LINE_LINK = "https://line.me/R/ti/p/@pao.support"


def _t(th: str, la: str, en: str) -> dict[str, str]:
    return {"th": th, "la": la, "en": en}


DEMO_SETTINGS: dict[str, Any] = {
    "siteName": "Pao",
    "website": "https://pao.example",
    "registerOTP": True,
    "enableChatWidget": False,
    # Money per currency, minor units (ADR 0020): a Lao-mode demo has kip limits of its own.
    "withdrawMin": {"THB": 100_00, "LAK": 50_000_00},
    "withdrawMax": {"THB": 50_000_00, "LAK": 20_000_000_00},
    "slipMinimumDeposit": {"THB": 1_00, "LAK": 1_000_00},
    "slipClosedFrom": "23:50",
    "slipClosedTo": "00:10",
    "slipUploadWithinMinutes": 60,
    "sources": [
        {"code": "facebook", "description": _t("เฟซบุ๊ก", "ເຟສບຸກ", "Facebook")},
        {"code": "line", "description": _t("ไลน์", "ລາຍ", "LINE")},
        {"code": "google", "description": _t("กูเกิล", "ກູໂກ", "Google")},
        {"code": "friend", "description": _t("เพื่อนแนะนำ", "ໝູ່ແນະນຳ", "A friend")},
        {"code": "tiktok", "description": _t("ติ๊กต็อก", "ຕິກຕັອກ", "TikTok")},
    ],
    "contactText": _t(
        "<p>ทีมงาน Pao พร้อมดูแลตลอด 24 ชั่วโมง</p>"
        f'<p>แอดไลน์: <a href="{LINE_LINK}">{LINE_ID}</a></p>'
        '<p>อีเมล: <a href="mailto:support@pao.example">support@pao.example</a></p>',
        "<p>ທີມງານ Pao ພ້ອມໃຫ້ບໍລິການຕະຫຼອດ 24 ຊົ່ວໂມງ</p>"
        f'<p>ແອດລາຍ: <a href="{LINE_LINK}">{LINE_ID}</a></p>'
        '<p>ອີເມວ: <a href="mailto:support@pao.example">support@pao.example</a></p>',
        "<p>The Pao team is here for you 24 hours a day.</p>"
        f'<p>Add us on LINE: <a href="{LINE_LINK}">{LINE_ID}</a></p>'
        '<p>Email: <a href="mailto:support@pao.example">support@pao.example</a></p>',
    ),
    "lineLink": LINE_LINK,
    "lineName": LINE_ID,
    # Rendered from lineLink by the app (pao.site.line_qr).
    "lineQR": LINE_QR_PATH,
    "conditions": [
        _t(
            "<p><strong>โบนัส</strong> ต้องทำยอดเทิร์นโอเวอร์ตามเงื่อนไขของแต่ละโปรโมชั่น"
            "ให้ครบก่อน จึงจะถอนเงินได้</p>",
            "<p><strong>ໂບນັດ</strong> ຕ້ອງເຮັດຍອດເທີນໂອເວີຕາມເງື່ອນໄຂຂອງແຕ່ລະໂປຣໂມຊັນ"
            "ໃຫ້ຄົບກ່ອນ ຈຶ່ງຈະຖອນເງິນໄດ້</p>",
            "<p><strong>Bonuses</strong> must meet the turnover requirement of their "
            "promotion before you can withdraw.</p>",
        ),
        _t(
            "<p>รับโบนัสได้ครั้งละหนึ่งรายการเท่านั้น ต้องจบหรือยกเลิกโบนัสปัจจุบันก่อนจึงจะรับโบนัสใหม่ได้</p>",
            "<p>ຮັບໂບນັດໄດ້ເທື່ອລະໜຶ່ງລາຍການເທົ່ານັ້ນ ຕ້ອງຈົບ ຫຼື ຍົກເລີກໂບນັດປັດຈຸບັນກ່ອນຈຶ່ງຈະຮັບໂບນັດໃໝ່ໄດ້</p>",
            "<p>One bonus at a time: finish or cancel the current bonus before you take a "
            "new one.</p>",
        ),
        _t(
            "<p><strong>การถอนเงิน</strong> ขั้นต่ำ 100 บาท สูงสุด 50,000 บาทต่อครั้ง "
            "โอนเข้าบัญชีธนาคารที่ลงทะเบียนไว้เท่านั้น</p>",
            "<p><strong>ການຖອນເງິນ</strong> ຂັ້ນຕ່ຳ 100 ບາດ ສູງສຸດ 50,000 ບາດຕໍ່ຄັ້ງ "
            "ໂອນເຂົ້າບັນຊີທະນາຄານທີ່ລົງທະບຽນໄວ້ເທົ່ານັ້ນ</p>",
            "<p><strong>Withdrawals</strong>: at least 100 baht and at most 50,000 baht each "
            "time, paid only to your registered bank account.</p>",
        ),
        _t(
            "<p><strong>การเล่นอย่างเป็นธรรม</strong> ห้ามใช้โปรแกรมช่วยเล่น เปิดหลายบัญชี "
            "หรือร่วมมือกันเพื่อรับโบนัส บัญชีที่ฝ่าฝืนจะถูกระงับและยึดโบนัส</p>",
            "<p><strong>ການຫຼິ້ນຢ່າງຍຸຕິທຳ</strong> ຫ້າມໃຊ້ໂປຣແກຣມຊ່ວຍຫຼິ້ນ ເປີດຫຼາຍບັນຊີ "
            "ຫຼື ຮ່ວມມືກັນເພື່ອຮັບໂບນັດ ບັນຊີທີ່ລະເມີດຈະຖືກລະງັບ ແລະ ຍຶດໂບນັດ</p>",
            "<p><strong>Fair play</strong>: bots, multiple accounts and collusion to collect "
            "bonuses are forbidden; offending accounts are suspended and their bonuses "
            "forfeited.</p>",
        ),
    ],
    "agreements": [
        _t(
            "ผู้ใช้บริการต้องมีอายุ 18 ปีบริบูรณ์ขึ้นไป",
            "ຜູ້ໃຊ້ບໍລິການຕ້ອງມີອາຍຸ 18 ປີບໍລິບູນຂຶ້ນໄປ",
            "You must be at least 18 years old to use this service.",
        ),
        _t(
            "หนึ่งคนต่อหนึ่งบัญชี ชื่อบัญชีธนาคารต้องตรงกับชื่อผู้สมัคร",
            "ໜຶ່ງຄົນຕໍ່ໜຶ່ງບັນຊີ ຊື່ບັນຊີທະນາຄານຕ້ອງກົງກັບຊື່ຜູ້ສະໝັກ",
            "One account per person; the bank account name must match the member's name.",
        ),
        _t(
            "ห้ามเปิดเผยรหัสผ่านแก่ผู้อื่น ทีมงานจะไม่ขอรหัสผ่านของท่านไม่ว่ากรณีใด",
            "ຫ້າມເປີດເຜີຍລະຫັດຜ່ານໃຫ້ຜູ້ອື່ນ ທີມງານຈະບໍ່ຂໍລະຫັດຜ່ານຂອງທ່ານບໍ່ວ່າກໍລະນີໃດ",
            "Never share your password; our staff will never ask for it.",
        ),
        _t(
            "ผู้ให้บริการขอสงวนสิทธิ์ในการเปลี่ยนแปลงเงื่อนไขโดยไม่ต้องแจ้งให้ทราบล่วงหน้า",
            "ຜູ້ໃຫ້ບໍລິການຂໍສະຫງວນສິດໃນການປ່ຽນແປງເງື່ອນໄຂໂດຍບໍ່ຕ້ອງແຈ້ງໃຫ້ຊາບລ່ວງໜ້າ",
            "The operator may change these terms without prior notice.",
        ),
    ],
    "notice": _t(
        "<p>โบนัสจะสิ้นสุดอัตโนมัติเมื่อยอดเงินคงเหลือต่ำกว่า <strong>%percentFail%%</strong> "
        "ของยอดโบนัส ระหว่างนี้จะถอนเงินไม่ได้จนกว่าจะทำเทิร์นโอเวอร์ครบ</p>",
        "<p>ໂບນັດຈະສິ້ນສຸດອັດຕະໂນມັດເມື່ອຍອດເງິນຄົງເຫຼືອຕ່ຳກວ່າ <strong>%percentFail%%</strong> "
        "ຂອງຍອດໂບນັດ ໃນລະຫວ່າງນີ້ຈະຖອນເງິນບໍ່ໄດ້ຈົນກວ່າຈະເຮັດເທີນໂອເວີຄົບ</p>",
        "<p>The bonus ends automatically when your balance falls below "
        "<strong>%percentFail%%</strong> of the bonus amount. Until the turnover is met, "
        "withdrawals are not possible.</p>",
    ),
    # Screencasts of Pao's own flows, recorded by frontend/scripts/record-howto.sh into
    # frontend/public/media/howto/ (served with the built app).
    "howtoWallet": "/media/howto/wallet.webm",
    "howtoEnterGame": "/media/howto/enter_game.webm",
    "howtoCheckBalance": "/media/howto/check_balance.webm",
    "howtoReceiveBonus": "/media/howto/receive_bonus.webm",
    "howtoEndBonus": "/media/howto/end_bonus.webm",
}


async def seed_site_content(session: AsyncSession, *, actor: str = "demo") -> None:
    """Store every demo setting that has no row yet (does not commit)."""
    existing = set((await session.execute(select(SiteSetting.key))).scalars())
    for key, value in DEMO_SETTINGS.items():
        if key not in existing:
            await store_setting(session, key=key, value=value, actor=actor)
