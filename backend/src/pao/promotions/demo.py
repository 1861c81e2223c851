"""Demo promotions for ``pao demo``: three bonuses, two promotion codes, a prize wheel and
invite/refund banners. Idempotent: rows that exist (by code / wheel name) are left alone."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.promotions.models import Bonus, BonusKind, BonusType, PrizeType, Wheel, WheelSlice
from pao.site.sanitize import sanitize_html
from pao.site.settings import get_value, set_value

ACTOR = "demo"
WHEEL_NAME = "Lucky Pao Wheel"


def _banner(image: str, html: str) -> dict[str, str]:
    return {"image": image, "html": sanitize_html(html)}


DEMO_BONUSES: tuple[dict[str, Any], ...] = (
    {
        "code": "WELCOME100",
        "kind": BonusKind.BONUS,
        "type": BonusType.LIMIT,
        "name": "Welcome bonus 100%",
        "description": "100% of your first deposit, up to 500 THB. Turnover 5× (deposit + bonus).",
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
                "<p><b>Welcome!</b> Double your first deposit, up to 500 THB.</p>",
            )
        ],
    },
    {
        "code": "DAILY10",
        "kind": BonusKind.BONUS,
        "type": BonusType.DAY,
        "name": "Daily 10%",
        "description": "10% of a deposit, up to 200 THB, twice a day. Turnover 3×.",
        "max_received": 2,
        "percent": 10,
        "max_amount": 200_00,
        "min_deposit": 50_00,
        "turnover_multiplier": 3,
        "percent_fail": 5,
        "sort_order": 2,
        "banners": [
            _banner("/promotions/bonus-daily.svg", "<p>10% on every deposit, twice a day.</p>")
        ],
    },
    {
        "code": "WEEKLY50",
        "kind": BonusKind.BONUS,
        "type": BonusType.WEEK,
        "name": "Weekly 50 THB",
        "description": "50 THB once a week after a deposit of 300 THB. Turnover 2×.",
        "max_received": 1,
        "percent": 0,
        "fixed_amount": 50_00,
        "max_amount": 50_00,
        "min_deposit": 300_00,
        "turnover_multiplier": 2,
        "percent_fail": 10,
        "sort_order": 3,
        "banners": [_banner("/promotions/bonus-weekly.svg", "<p>A weekly gift of 50 THB.</p>")],
    },
    {
        "code": "PAO2026",
        "kind": BonusKind.PROMOTION,
        "type": BonusType.LIMIT,
        "name": "Promotion PAO2026",
        "description": "20% of your deposit, up to 300 THB. First 100 players only.",
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
        "name": "Free 20 THB",
        "description": "20 THB credit, no deposit needed. Turnover 10×.",
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

# (code, label, bg, text, weight, prize type, prize name, amount)
DEMO_SLICES: tuple[tuple[str, str, str, str, int, PrizeType, str, int], ...] = (
    ("C10", "10 ฿", "#f59e0b", "#1f2937", 30, PrizeType.CREDIT, "Credit 10 THB", 10_00),
    ("NONE1", "Try again", "#1e3a8a", "#ffffff", 30, PrizeType.NONE, "", 0),
    ("C50", "50 ฿", "#16a34a", "#ffffff", 15, PrizeType.CREDIT, "Credit 50 THB", 50_00),
    ("NONE2", "Try again", "#7c3aed", "#ffffff", 14, PrizeType.NONE, "", 0),
    ("C100", "100 ฿", "#dc2626", "#ffffff", 8, PrizeType.CREDIT, "Credit 100 THB", 100_00),
    ("SHIRT", "T-shirt", "#0891b2", "#ffffff", 2, PrizeType.ITEM, "Pao T-shirt", 0),
    ("C500", "500 ฿", "#111827", "#facc15", 1, PrizeType.CREDIT, "Credit 500 THB", 500_00),
)


async def seed_promotions(session: AsyncSession) -> list[str]:
    lines = []
    for spec in DEMO_BONUSES:
        exists = (
            await session.execute(select(Bonus.id).where(Bonus.code == spec["code"]))
        ).scalar_one_or_none()
        if exists is None:
            session.add(Bonus(**spec))
            lines.append(f"bonus {spec['code']} created")
    wheel = (
        await session.execute(select(Wheel).where(Wheel.name == WHEEL_NAME))
    ).scalar_one_or_none()
    if wheel is None:
        wheel = Wheel(name=WHEEL_NAME, is_active=True)
        session.add(wheel)
        await session.flush()
        for position, (code, label, bg, fg, weight, kind, prize, amount) in enumerate(DEMO_SLICES):
            session.add(
                WheelSlice(
                    wheel_id=wheel.id,
                    position=position,
                    code=code,
                    label=label,
                    bg_color=bg,
                    text_color=fg,
                    html_description=sanitize_html(f"<p>{prize or 'No prize this time'}</p>"),
                    weight=weight,
                    prize_type=kind,
                    prize_name=prize,
                    prize_amount=amount,
                )
            )
        lines.append("prize wheel created")
    for key, image, html in (
        (
            "inviteBanners",
            "/promotions/invite.svg",
            "<p>Invite friends: earn 5% of their deposits.</p>",
        ),
        ("refundBanners", "/promotions/refund.svg", "<p>5% of your weekly net loss back.</p>"),
    ):
        if await get_value(session, key) is None:
            await set_value(session, key, [_banner(image, html)], actor=ACTOR)
    await session.flush()
    return lines or ["promotions already seeded"]
