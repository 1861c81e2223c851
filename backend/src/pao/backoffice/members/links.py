"""A member as another area's screen names them, and the members linked to one
(:mod:`pao.identity.links`) as the member page and a withdrawal's detail show them."""

from __future__ import annotations

from pydantic import Field

from pao.backoffice.schemas import _Wire
from pao.identity.changes import mask_account_no
from pao.identity.links import LinkedMember, LinkSignal
from pao.identity.models import Member


class MemberBriefOut(_Wire):
    id: int
    phone: str
    name: str
    status: str

    @classmethod
    def of(cls, member: Member) -> MemberBriefOut:
        return cls(id=member.id, phone=member.phone, name=member.name, status=member.status)


class LinkedMemberOut(MemberBriefOut):
    bank_code: str
    bank_account_name: str
    account_no_masked: str
    reasons: list[LinkSignal] = Field(
        description="Why they are linked: the same bank account number, holder name, device, "
        "or a login address within linkedAddressWindowHours."
    )

    @classmethod
    def of_link(cls, link: LinkedMember) -> LinkedMemberOut:
        o = link.member
        return cls(
            **MemberBriefOut.of(o).model_dump(),
            bank_code=o.bank_code,
            bank_account_name=o.bank_account_name,
            account_no_masked=mask_account_no(o.bank_account_no),
            reasons=list(link.signals),
        )
