"""Masked account numbers against full ones (pao.payments.slips.matching)."""

from __future__ import annotations

import pytest

from pao.backoffice.deposits.schemas import mask
from pao.payments.slips.matching import Fit, account_fits, receiver_fit


@pytest.mark.parametrize(
    ("shown", "account", "fit"),
    [
        ("xxx-x-x1234-x", "9876512349", Fit.YES),
        ("xxx-x-x1234-x", "9876512359", Fit.NO),
        ("XXX-X-X1234-X", "0000012340", Fit.YES),
        ("1234567890", "123-4-56789-0", Fit.YES),
        ("1234567890", "1234567891", Fit.NO),
        ("xxxxxx1234", "9876512349", Fit.NO),  # same length, digits elsewhere
        ("xxxx1234", "9876512349", Fit.UNCLEAR),  # another length: cannot place the digits
        ("xxx-x-xx23x-x", "9876512349", Fit.UNCLEAR),  # under 4 digits shown
        ("", "9876512349", Fit.UNCLEAR),
        (None, "9876512349", Fit.UNCLEAR),
        ("xxx-x-x1234-x", "", Fit.UNCLEAR),
    ],
)
def test_account_fits(shown: str | None, account: str, fit: Fit) -> None:
    assert account_fits(shown, account) is fit


OURS = [("SCB", "4441112223"), ("KBANK", "7770001119")]


@pytest.mark.parametrize(
    ("bank", "shown", "fit"),
    [
        ("014", "xxx-x-x1222-x", Fit.YES),  # SCB by its clearing code
        ("SCB", "4441112223", Fit.YES),
        ("004", "xxx-x-x1222-x", Fit.NO),  # the digits are ours, the bank is not
        ("014", "xxx-x-x9999-x", Fit.NO),
        ("014", "xx1222x", Fit.UNCLEAR),
        ("014", "", Fit.UNCLEAR),
        ("", "xxx-x-x0111-x", Fit.YES),  # no bank named: the digits decide
    ],
)
def test_receiver_fit(bank: str, shown: str, fit: Fit) -> None:
    assert receiver_fit(bank, shown, OURS) is fit


@pytest.mark.parametrize(
    ("stored", "shown"),
    [
        ("1234567890", "xxxxxx7890"),  # a full number: the lists' own mask
        ("xxx-x-x5678-x", "xxx-x-x5678-x"),  # the provider's mask, as the provider showed it
        (None, None),
    ],
)
def test_back_office_shows_a_provider_mask_as_it_is(stored: str | None, shown: str | None) -> None:
    assert mask(stored) == shown
