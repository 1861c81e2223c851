"""Wire shapes of the back office's bonus and promotion-code editor (camelCase; amounts in
major units, like the player API; texts per locale ``{th, la, en}``)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from pydantic import AwareDatetime, Field, StringConstraints

from pao.backoffice.schemas import _Wire, _WireIn
from pao.kit.money import Currency, MajorAmount, WireAmount
from pao.promotions.catalogue_admin import COUNT_MAX, BonusDraft, CatalogueRow
from pao.promotions.models import BonusKind, BonusType
from pao.site.content import Banner

Texts = Annotated[
    dict[str, str],
    Field(description="A text per locale: {th, la, en} (a missing locale falls back)."),
]
# A count's bounds are the domain's (catalogue_admin.COUNT_MAX, what the INTEGER columns hold, and
# the rules: percent 0..1000, maxReceived >= 1, ...), each refused there with its field's code.
# The contract publishes the bound; checking it here too would answer KEY_INVALID for a count far
# over and the field's code for one just over.
Count = Annotated[int, Field(json_schema_extra={"minimum": -COUNT_MAX, "maximum": COUNT_MAX})]


class BannerIn(_WireIn):
    image: Annotated[str, StringConstraints(max_length=500)] = Field(
        description="The image's address: one from POST /api/backoffice/images, or http(s)."
    )
    html: Texts = Field(default_factory=dict, description="HTML per locale (sanitised).")
    title: Texts = Field(default_factory=dict, description="The image's alt text per locale.")


class BonusFieldsIn(_WireIn):
    """The editable values; on PATCH only the ones sent change."""

    type: BonusType = Field(
        default=BonusType.LIMIT,
        description="How maxReceived counts a member's receipts: limit (ever), day, week.",
    )
    name: Texts
    currency: Currency = Field(
        default=Currency.THB,
        description="The currency its amounts are in: offered to members whose wallet is in it, "
        "and only to them.",
    )
    description: Texts = Field(default_factory=dict)
    percent: Count = Field(default=0, description="% of the qualifying deposit (0..1000).")
    fixed_amount: WireAmount = Field(default=0, description="Paid when percent is 0.")
    max_amount: WireAmount = Field(description="The most one grant pays (> 0).")
    min_deposit: WireAmount = Field(default=0, description="0: no deposit needed.")
    max_received: Count = Field(default=1, description="Receipts per member per period (>= 1).")
    turnover_multiplier: Count = Field(
        default=1, description="Turnover needed = multiple x (deposit + bonus), >= 1."
    )
    percent_fail: Count = Field(
        default=10, description="The bonus ends when the balance falls under this % (0..100)."
    )
    total_limit: Count | None = Field(
        default=None, description="Promotion codes: grants in total (none: unlimited)."
    )
    banners: list[BannerIn] = Field(default_factory=list, max_length=10)
    valid_from: AwareDatetime | None = Field(default=None, description="None: from now on.")
    valid_until: AwareDatetime | None = Field(default=None, description="None: no end.")
    sort_order: Count = 0

    def draft(self) -> BonusDraft:
        return BonusDraft(**_domain(self.model_dump(exclude={"code", "kind"})))


class BonusCreateIn(BonusFieldsIn):
    code: Annotated[str, StringConstraints(min_length=1, max_length=40)] = Field(
        description="3-40 of A-Z 0-9 _ - (upper-cased); unique among bonuses and codes."
    )
    kind: BonusKind = Field(
        description="bonus: a card on the bonus page; promotion: a code the player types "
        "(once per member)."
    )


class BonusUpdateIn(BonusFieldsIn):
    # Every field optional: PATCH changes what is sent.
    name: Texts | None = None  # type: ignore[assignment]
    max_amount: WireAmount | None = None  # type: ignore[assignment]

    def changes(self) -> dict[str, Any]:
        sent = self.model_dump(exclude_unset=True)
        return _domain({k: v for k, v in sent.items() if v is not None or k in _NULLABLE})


_NULLABLE = {"total_limit", "valid_from", "valid_until"}


def _domain(values: dict[str, Any]) -> dict[str, Any]:
    if "banners" in values:
        values["banners"] = [dict(b) for b in values["banners"]]
    return values


class CostOut(_Wire):
    currency: str
    amount: MajorAmount


class UsageOut(_Wire):
    granted: int = Field(description="Grants ever made (receipts).")
    active: int
    cleared: int = Field(description="Ended with the turnover met.")
    ended: int = Field(description="Ended early (balance under percentFail).")
    cost: list[CostOut] = Field(description="The bonus amounts paid, per currency.")


class BannerAdminOut(_Wire):
    # Not BannerOut: the player API has one (pao.promotions.schemas), and two classes of one
    # name get OpenAPI names made of their module paths.
    image: str
    html: dict[str, str]
    title: dict[str, str]


def _banner(stored: Any) -> BannerAdminOut:
    # Through the model: banners stored before texts were per locale hold one HTML string.
    banner = Banner.model_validate(stored)
    return BannerAdminOut(
        image=banner.image, html=banner.html.as_dict(), title=banner.title.as_dict()
    )


class BonusAdminOut(_Wire):
    id: int
    code: str
    kind: BonusKind
    type: BonusType
    name: dict[str, str]
    currency: Currency
    description: dict[str, str]
    percent: int
    fixed_amount: MajorAmount
    max_amount: MajorAmount
    min_deposit: MajorAmount
    max_received: int
    turnover_multiplier: int
    percent_fail: int
    total_limit: int | None
    claimed_count: int = Field(description="Promotion codes: grants counted against totalLimit.")
    once_per_member: bool = Field(description="Promotion codes: a member redeems one once.")
    banners: list[BannerAdminOut]
    valid_from: datetime | None
    valid_until: datetime | None
    sort_order: int
    is_active: bool
    created_at: datetime
    usage: UsageOut

    @classmethod
    def of(cls, row: CatalogueRow) -> BonusAdminOut:
        b, u = row.bonus, row.usage
        return cls(
            id=b.id,
            code=b.code,
            kind=b.kind,
            type=b.type,
            name=dict(b.name or {}),
            currency=b.currency,
            description=dict(b.description or {}),
            percent=b.percent,
            fixed_amount=b.fixed_amount,
            max_amount=b.max_amount,
            min_deposit=b.min_deposit,
            max_received=b.max_received,
            turnover_multiplier=b.turnover_multiplier,
            percent_fail=b.percent_fail,
            total_limit=b.total_limit,
            claimed_count=b.claimed_count,
            once_per_member=b.kind == BonusKind.PROMOTION,
            banners=[_banner(x) for x in (b.banners or [])],
            valid_from=b.valid_from,
            valid_until=b.valid_until,
            sort_order=b.sort_order,
            is_active=b.is_active,
            created_at=b.created_at,
            usage=UsageOut(
                granted=u.granted,
                active=u.active,
                cleared=u.cleared,
                ended=u.ended,
                cost=[CostOut(currency=c.currency, amount=c.amount) for c in u.cost],
            ),
        )


class BonusListOut(_Wire):
    items: list[BonusAdminOut]


class ImageOut(_Wire):
    url: str = Field(description="The image's public address, for a banner's image.")
    content_type: str
    size: int
