"""Plugs promotions into the ports of the domains below it (:mod:`pao.kit.ports`): the
bonus gates into the wallet's withdrawals and the games' transfers, the invite summary into
the wallet screen. Those domains declare what they need and never import promotions.

Call :func:`install` wherever those paths may run: ``create_app`` (which then checks that
every declared port is plugged), the ``pao`` command, and the tests' set-up. It is the same
plugging every time, so calling it again is harmless.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import ColumnElement, Label

from pao.games.ports import TRANSFER_GATE
from pao.promotions.gates import BONUS_GATE_ON_TRANSFERS, BONUS_GATE_ON_WITHDRAWALS
from pao.promotions.invite import summary_columns, summary_of
from pao.wallet.ports import INVITE_SUMMARY, WITHDRAWAL_GATE, InviteFigures


class InviteOnWalletScreen:
    """The invite summary as the wallet screen reads it (``pao.wallet.ports.InviteSummaryQuery``):
    :func:`~pao.promotions.invite.summary_columns` inside its statement, then
    :func:`~pao.promotions.invite.summary_of` on its row."""

    def columns(self, member_id: ColumnElement[Any]) -> tuple[Label[Any], ...]:
        return summary_columns(member_id)

    def figures(self, row: Any) -> InviteFigures:
        found = summary_of(invitees=row.invitees, earning=row.earning, uncollected=row.uncollected)
        return InviteFigures(amount=found.amount, success=found.success, fail=found.fail)


# One instance: the wallet screen builds its statement once per plugged-in summary.
INVITE_ON_WALLET_SCREEN = InviteOnWalletScreen()


def install() -> None:
    """Plug promotions' rules into the wallet's and the games' ports."""
    WITHDRAWAL_GATE.plug(BONUS_GATE_ON_WITHDRAWALS)
    TRANSFER_GATE.plug(BONUS_GATE_ON_TRANSFERS)
    INVITE_SUMMARY.plug(INVITE_ON_WALLET_SCREEN)
