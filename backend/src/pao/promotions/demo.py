"""Demo promotions for ``pao demo``: three bonuses, two promotion codes, a prize wheel and
invite/refund banners, every text in Thai, Lao and English; in baht, and on a Lao-mode server
also kip ones (two bonuses, a code and a wheel whose prizes are kip: a bonus or prize is offered
only in its own currency, ADR 0020). Idempotent: rows that exist (a bonus by code, a wheel of
the currency) are left alone."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.kit.money import Currency
from pao.promotions.models import Bonus, BonusKind, BonusType, PrizeType, Wheel, WheelSlice
from pao.site.sanitize import sanitize_html
from pao.site.settings import get_value, set_value

ACTOR = "demo"


def _t(th: str, la: str, en: str) -> dict[str, str]:
    return {"th": th, "la": la, "en": en}


WHEEL_NAME = _t("วงล้อนำโชค Pao", "ວົງລໍ້ນຳໂຊກ Pao", "Lucky Pao Wheel")


def _banner(image: str, html: dict[str, str], title: dict[str, str]) -> dict[str, Any]:
    return {
        "image": image,
        "html": {locale: sanitize_html(text) for locale, text in html.items()},
        "title": title,
    }


DEMO_BONUSES: tuple[dict[str, Any], ...] = (
    {
        "code": "WELCOME100",
        "kind": BonusKind.BONUS,
        "type": BonusType.LIMIT,
        "name": _t("โบนัสต้อนรับ 100%", "ໂບນັດຕ້ອນຮັບ 100%", "Welcome bonus 100%"),
        "description": _t(
            "รับ 100% ของยอดฝากแรก สูงสุด 500 บาท ทำเทิร์นโอเวอร์ 5 เท่า (ยอดฝาก + โบนัส)",
            "ຮັບ 100% ຂອງຍອດຝາກທຳອິດ ສູງສຸດ 500 ບາດ ເຮັດເທີນໂອເວີ 5 ເທົ່າ (ຍອດຝາກ + ໂບນັດ)",
            "100% of your first deposit, up to 500 THB. Turnover 5× (deposit + bonus).",
        ),
        "max_received": 1,
        "percent": 100,
        "max_amount": 500_00,
        "min_deposit": 100_00,
        "turnover_multiplier": 5,
        "percent_fail": 10,
        "sort_order": 1,
        "banners": [
            _banner(
                "/promotions/bonus-welcome.svg",
                _t(
                    "<p><b>ยินดีต้อนรับ!</b> รับโบนัสเท่าตัวจากยอดฝากแรก สูงสุด 500 บาท</p>",
                    "<p><b>ຍິນດີຕ້ອນຮັບ!</b> ຮັບໂບນັດເທົ່າຕົວຈາກຍອດຝາກທຳອິດ ສູງສຸດ 500 ບາດ</p>",
                    "<p><b>Welcome!</b> Double your first deposit, up to 500 THB.</p>",
                ),
                _t("โบนัสต้อนรับสมาชิกใหม่", "ໂບນັດຕ້ອນຮັບສະມາຊິກໃໝ່", "Welcome bonus for new members"),
            )
        ],
    },
    {
        "code": "DAILY10",
        "kind": BonusKind.BONUS,
        "type": BonusType.DAY,
        "name": _t("โบนัสรายวัน 10%", "ໂບນັດປະຈຳວັນ 10%", "Daily 10%"),
        "description": _t(
            "รับ 10% ของยอดฝาก สูงสุด 200 บาท วันละ 2 ครั้ง ทำเทิร์นโอเวอร์ 3 เท่า",
            "ຮັບ 10% ຂອງຍອດຝາກ ສູງສຸດ 200 ບາດ ມື້ລະ 2 ເທື່ອ ເຮັດເທີນໂອເວີ 3 ເທົ່າ",
            "10% of a deposit, up to 200 THB, twice a day. Turnover 3×.",
        ),
        "max_received": 2,
        "percent": 10,
        "max_amount": 200_00,
        "min_deposit": 50_00,
        "turnover_multiplier": 3,
        "percent_fail": 5,
        "sort_order": 2,
        "banners": [
            _banner(
                "/promotions/bonus-daily.svg",
                _t(
                    "<p>รับเพิ่ม 10% ทุกยอดฝาก วันละ 2 ครั้ง</p>",
                    "<p>ຮັບເພີ່ມ 10% ທຸກຍອດຝາກ ມື້ລະ 2 ເທື່ອ</p>",
                    "<p>10% on every deposit, twice a day.</p>",
                ),
                _t("โบนัสรายวัน", "ໂບນັດປະຈຳວັນ", "Daily bonus"),
            )
        ],
    },
    {
        "code": "WEEKLY50",
        "kind": BonusKind.BONUS,
        "type": BonusType.WEEK,
        "name": _t("โบนัสรายสัปดาห์ 50 บาท", "ໂບນັດປະຈຳອາທິດ 50 ບາດ", "Weekly 50 THB"),
        "description": _t(
            "รับ 50 บาท สัปดาห์ละครั้ง เมื่อฝากครบ 300 บาท ทำเทิร์นโอเวอร์ 2 เท่า",
            "ຮັບ 50 ບາດ ອາທິດລະເທື່ອ ເມື່ອຝາກຄົບ 300 ບາດ ເຮັດເທີນໂອເວີ 2 ເທົ່າ",
            "50 THB once a week after a deposit of 300 THB. Turnover 2×.",
        ),
        "max_received": 1,
        "percent": 0,
        "fixed_amount": 50_00,
        "max_amount": 50_00,
        "min_deposit": 300_00,
        "turnover_multiplier": 2,
        "percent_fail": 10,
        "sort_order": 3,
        "banners": [
            _banner(
                "/promotions/bonus-weekly.svg",
                _t(
                    "<p>ของขวัญประจำสัปดาห์ 50 บาท</p>",
                    "<p>ຂອງຂວັນປະຈຳອາທິດ 50 ບາດ</p>",
                    "<p>A weekly gift of 50 THB.</p>",
                ),
                _t("ของขวัญรายสัปดาห์", "ຂອງຂວັນປະຈຳອາທິດ", "Weekly gift"),
            )
        ],
    },
    {
        "code": "PAO2026",
        "kind": BonusKind.PROMOTION,
        "type": BonusType.LIMIT,
        "name": _t("โปรโมชั่น PAO2026", "ໂປຣໂມຊັນ PAO2026", "Promotion PAO2026"),
        "description": _t(
            "รับ 20% ของยอดฝาก สูงสุด 300 บาท เฉพาะ 100 ท่านแรกเท่านั้น",
            "ຮັບ 20% ຂອງຍອດຝາກ ສູງສຸດ 300 ບາດ ສະເພາະ 100 ທ່ານທຳອິດເທົ່ານັ້ນ",
            "20% of your deposit, up to 300 THB. First 100 players only.",
        ),
        "max_received": 1,
        "percent": 20,
        "max_amount": 300_00,
        "min_deposit": 100_00,
        "turnover_multiplier": 3,
        "percent_fail": 10,
        "total_limit": 100,
    },
    {
        "code": "FREE20",
        "kind": BonusKind.PROMOTION,
        "type": BonusType.LIMIT,
        "name": _t("เครดิตฟรี 20 บาท", "ເຄຣດິດຟຣີ 20 ບາດ", "Free 20 THB"),
        "description": _t(
            "รับเครดิต 20 บาท ไม่ต้องฝาก ทำเทิร์นโอเวอร์ 10 เท่า",
            "ຮັບເຄຣດິດ 20 ບາດ ບໍ່ຕ້ອງຝາກ ເຮັດເທີນໂອເວີ 10 ເທົ່າ",
            "20 THB credit, no deposit needed. Turnover 10×.",
        ),
        "max_received": 1,
        "percent": 0,
        "fixed_amount": 20_00,
        "max_amount": 20_00,
        "min_deposit": 0,
        "turnover_multiplier": 10,
        "percent_fail": 25,
        "total_limit": 1000,
    },
)

_TRY_AGAIN = _t("ลองใหม่", "ລອງໃໝ່", "Try again")
_NO_PRIZE = _t(
    "<p>ครั้งนี้ยังไม่ได้รางวัล ลองใหม่อีกครั้งนะ</p>",
    "<p>ເທື່ອນີ້ຍັງບໍ່ໄດ້ລາງວັນ ລອງໃໝ່ອີກເທື່ອໜຶ່ງເດີ້</p>",
    "<p>No prize this time. Try again!</p>",
)


def _same(text: str) -> dict[str, str]:
    return _t(text, text, text)


def _credit(baht: int) -> dict[str, str]:
    return _t(f"เครดิต {baht} บาท", f"ເຄຣດິດ {baht} ບາດ", f"Credit {baht} THB")


def _won(prize: dict[str, str]) -> dict[str, str]:
    return _t(
        f"<p>ยินดีด้วย! คุณได้รับ {prize['th']}</p>",
        f"<p>ຍິນດີນຳ! ທ່ານໄດ້ຮັບ {prize['la']}</p>",
        f"<p>Congratulations! You won {prize['en']}.</p>",
    )


_SHIRT = _t("เสื้อยืด Pao", "ເສື້ອຢືດ Pao", "Pao T-shirt")

# (code, label, bg, text, weight, prize type, prize name, amount); texts per locale.
DEMO_SLICES: tuple[
    tuple[str, dict[str, str], str, str, int, PrizeType, dict[str, str], int], ...
] = (
    ("C10", _same("10 ฿"), "#f59e0b", "#1f2937", 30, PrizeType.CREDIT, _credit(10), 10_00),
    ("NONE1", _TRY_AGAIN, "#1e3a8a", "#ffffff", 30, PrizeType.NONE, {}, 0),
    ("C50", _same("50 ฿"), "#16a34a", "#ffffff", 15, PrizeType.CREDIT, _credit(50), 50_00),
    ("NONE2", _TRY_AGAIN, "#7c3aed", "#ffffff", 14, PrizeType.NONE, {}, 0),
    ("C100", _same("100 ฿"), "#dc2626", "#ffffff", 8, PrizeType.CREDIT, _credit(100), 100_00),
    ("SHIRT", _t("เสื้อยืด", "ເສື້ອຢືດ", "T-shirt"), "#0891b2", "#ffffff", 2, PrizeType.ITEM, _SHIRT, 0),
    ("C500", _same("500 ฿"), "#111827", "#facc15", 1, PrizeType.CREDIT, _credit(500), 500_00),
)  # fmt: skip


def _kip(amount: int) -> str:
    return f"{amount:,}"


def _credit_kip(kip: int) -> dict[str, str]:
    return _t(f"เครดิต {_kip(kip)} กีบ", f"ເຄຣດິດ {_kip(kip)} ກີບ", f"Credit {_kip(kip)} LAK")


def _kip_slice(
    code: str, bg: str, fg: str, weight: int, kip: int
) -> tuple[str, dict[str, str], str, str, int, PrizeType, dict[str, str], int]:
    """A credit slice of ``kip`` kip (its amount in minor units)."""
    label = _same(f"{kip // 1000}K ₭")
    return (code, label, bg, fg, weight, PrizeType.CREDIT, _credit_kip(kip), kip * 100)


# The kip wheel (Lao mode): the same odds, prizes of their own in kip (minor units).
DEMO_KIP_SLICES: tuple[
    tuple[str, dict[str, str], str, str, int, PrizeType, dict[str, str], int], ...
] = (
    _kip_slice("K10K", "#f59e0b", "#1f2937", 30, 10_000),
    ("NONE1", _TRY_AGAIN, "#1e3a8a", "#ffffff", 30, PrizeType.NONE, {}, 0),
    _kip_slice("K50K", "#16a34a", "#ffffff", 15, 50_000),
    ("NONE2", _TRY_AGAIN, "#7c3aed", "#ffffff", 14, PrizeType.NONE, {}, 0),
    _kip_slice("K100K", "#dc2626", "#ffffff", 8, 100_000),
    ("SHIRT", _t("เสื้อยืด", "ເສື້ອຢືດ", "T-shirt"), "#0891b2", "#ffffff", 2, PrizeType.ITEM, _SHIRT, 0),
    _kip_slice("K300K", "#111827", "#facc15", 1, 300_000),
)  # fmt: skip

DEMO_KIP_BONUSES: tuple[dict[str, Any], ...] = (
    {
        "code": "WELCOMEKIP",
        "currency": Currency.LAK,
        "kind": BonusKind.BONUS,
        "type": BonusType.LIMIT,
        "name": _t("โบนัสต้อนรับ 100% (กีบ)", "ໂບນັດຕ້ອນຮັບ 100% (ກີບ)", "Welcome bonus 100% (kip)"),
        "description": _t(
            "รับ 100% ของยอดฝากแรก สูงสุด 300,000 กีบ ทำเทิร์นโอเวอร์ 5 เท่า",
            "ຮັບ 100% ຂອງຍອດຝາກທຳອິດ ສູງສຸດ 300,000 ກີບ ເຮັດເທີນໂອເວີ 5 ເທົ່າ",
            "100% of your first deposit, up to 300,000 LAK. Turnover 5×.",
        ),
        "max_received": 1,
        "percent": 100,
        "max_amount": 300_000_00,
        "min_deposit": 50_000_00,
        "turnover_multiplier": 5,
        "percent_fail": 10,
        "sort_order": 1,
    },
    {
        "code": "WEEKLYKIP",
        "currency": Currency.LAK,
        "kind": BonusKind.BONUS,
        "type": BonusType.WEEK,
        "name": _t("โบนัสประจำสัปดาห์ 30,000 กีบ", "ໂບນັດປະຈຳອາທິດ 30,000 ກີບ", "Weekly 30,000 kip"),
        "description": _t(
            "รับ 30,000 กีบ สัปดาห์ละครั้ง เมื่อฝาก 100,000 กีบขึ้นไป",
            "ຮັບ 30,000 ກີບ ອາທິດລະເທື່ອ ເມື່ອຝາກ 100,000 ກີບຂຶ້ນໄປ",
            "30,000 LAK once a week for a deposit of 100,000 LAK or more.",
        ),
        "max_received": 1,
        "fixed_amount": 30_000_00,
        "max_amount": 30_000_00,
        "min_deposit": 100_000_00,
        "turnover_multiplier": 3,
        "percent_fail": 10,
        "sort_order": 2,
    },
    {
        "code": "PAOKIP",
        "currency": Currency.LAK,
        "kind": BonusKind.PROMOTION,
        "type": BonusType.LIMIT,
        "name": _t("โค้ด 10,000 กีบ", "ໂຄດ 10,000 ກີບ", "Code: 10,000 kip"),
        "description": _t("รับ 10,000 กีบ", "ຮັບ 10,000 ກີບ", "10,000 LAK for you."),
        "max_received": 1,
        "fixed_amount": 10_000_00,
        "max_amount": 10_000_00,
        "min_deposit": 0,
        "turnover_multiplier": 1,
        "percent_fail": 10,
        "sort_order": 3,
    },
)


DEMO_INVITE_BANNER = _banner(
    "/promotions/invite.svg",
    _t(
        "<p>ชวนเพื่อนมาเล่น รับ 5% จากทุกยอดฝากของเพื่อน</p>",
        "<p>ຊວນໝູ່ມາຫຼິ້ນ ຮັບ 5% ຈາກທຸກຍອດຝາກຂອງໝູ່</p>",
        "<p>Invite friends: earn 5% of their deposits.</p>",
    ),
    _t("ชวนเพื่อนรับโบนัส", "ຊວນໝູ່ຮັບໂບນັດ", "Invite friends, earn a bonus"),
)
DEMO_REFUND_BANNER = _banner(
    "/promotions/refund.svg",
    _t(
        "<p>รับคืน 5% ของยอดเสียสุทธิทุกสัปดาห์</p>",
        "<p>ຮັບຄືນ 5% ຂອງຍອດເສຍສຸດທິທຸກອາທິດ</p>",
        "<p>5% of your weekly net loss back.</p>",
    ),
    _t("คืนยอดเสียรายสัปดาห์", "ຄືນຍອດເສຍປະຈຳອາທິດ", "Weekly refund"),
)


async def seed_promotions(session: AsyncSession, *, lao_mode: bool = False) -> list[str]:
    lines = []
    bonuses = (*DEMO_BONUSES, *(DEMO_KIP_BONUSES if lao_mode else ()))
    wheels = [(Currency.THB, DEMO_SLICES)] + ([(Currency.LAK, DEMO_KIP_SLICES)] if lao_mode else [])
    for spec in bonuses:
        exists = (
            await session.execute(select(Bonus.id).where(Bonus.code == spec["code"]))
        ).scalar_one_or_none()
        if exists is None:
            session.add(Bonus(**spec))
            lines.append(f"bonus {spec['code']} created")
    for currency, demo_slices in wheels:
        lines += await _seed_wheel(session, currency, demo_slices)
    for key, banner in (
        ("inviteBanners", DEMO_INVITE_BANNER),
        ("refundBanners", DEMO_REFUND_BANNER),
    ):
        if await get_value(session, key) is None:
            await set_value(session, key, [banner], actor=ACTOR)
    await session.flush()
    return lines or ["promotions already seeded"]


async def _seed_wheel(
    session: AsyncSession,
    currency: Currency,
    demo_slices: tuple[
        tuple[str, dict[str, str], str, str, int, PrizeType, dict[str, str], int], ...
    ],
) -> list[str]:
    # A wheel of the currency, of any name, means the operator has one: the demo adds none.
    query = select(Wheel.id).where(Wheel.currency == currency).limit(1)
    if (await session.execute(query)).first() is not None:
        return []
    wheel = Wheel(name=WHEEL_NAME, is_active=True, currency=currency)
    session.add(wheel)
    await session.flush()
    for position, (code, label, bg, fg, weight, kind, prize, amount) in enumerate(demo_slices):
        session.add(
            WheelSlice(
                wheel_id=wheel.id,
                position=position,
                code=code,
                label=label,
                bg_color=bg,
                text_color=fg,
                html_description={
                    locale: sanitize_html(html)
                    for locale, html in (_won(prize) if prize else _NO_PRIZE).items()
                },
                weight=weight,
                prize_type=kind,
                prize_name=prize,
                prize_amount=amount,
            )
        )
    return [f"prize wheel ({currency}) created"]
