"""Wire shapes of the game calls (spec §3, §7). The game card itself is
:class:`pao.wallet.schemas.Slot` (it is part of ``GET /api/wallet``)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from pao.core.params import RequestModel
from pao.games.models import GameTransferStatus
from pao.kit.money import MajorAmount, WireAmount
from pao.wallet.schemas import Slot


class _Wire(BaseModel):
    model_config = ConfigDict(populate_by_name=True)


class CredentialsOut(_Wire):
    username: str
    password: str


class RefreshSlotsOut(_Wire):
    slots: list[Slot] = Field(
        description="Every game; an active account's amount is fresh from its provider, or the "
        "last known amount with stale=true when the provider did not answer in time."
    )


class TransferRequest(_Wire, RequestModel):
    from_: str = Field(alias="from", min_length=1, max_length=20, description="WALLET or a code.")
    to: str = Field(min_length=1, max_length=20, description="WALLET or a game code.")
    amount: WireAmount


class TransferAllRequest(_Wire):
    to: str = Field(
        min_length=1,
        max_length=20,
        description="A game code: the whole wallet goes there. WALLET: every game account's "
        "balance comes back to the wallet.",
    )


class TransferOut(_Wire):
    transfer_id: str = Field(alias="transferId")
    from_: str = Field(alias="from")
    to: str
    amount: MajorAmount
    status: GameTransferStatus


class TransferResponse(_Wire):
    code: Literal["OK", "PENDING"] = Field(
        description="OK: done. PENDING: the provider's answer is not known yet; the money is "
        "safe and the transfer settles by itself (see the statement)."
    )
    transfers: list[TransferOut]


class LinkOut(_Wire):
    link: str


class LaunchSettingsOut(_Wire):
    launch_in_iframe: bool = Field(
        alias="launchInIframe", description="Open games inside the app, else in a new tab."
    )
    ufa_host: str = Field(alias="ufaHost", description="The custom UFABET host, or ''.")


class SeamlessGameOut(_Wire):
    game_code: str = Field(alias="gameCode")
    name: str
    category: str
    thumbnail: str


class SeamlessGamesOut(_Wire):
    games: list[SeamlessGameOut]
