"""Banks members can register and operators can receive on: Thai and Lao banks.

``slip_code`` is the 3-digit Thai clearing code carried in slip mini QRs (payments).
``english_name_only`` marks the banks whose account name must be English (spec §5).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Bank:
    code: str
    name_th: str
    name_en: str
    country: str  # "TH" | "LA"
    slip_code: str | None = None
    english_name_only: bool = False


BANKS: tuple[Bank, ...] = (
    Bank("KBANK", "ธนาคารกสิกรไทย", "Kasikornbank", "TH", "004"),
    Bank("SCB", "ธนาคารไทยพาณิชย์", "Siam Commercial Bank", "TH", "014"),
    Bank("KTB", "ธนาคารกรุงไทย", "Krungthai Bank", "TH", "006", english_name_only=True),
    Bank("BBL", "ธนาคารกรุงเทพ", "Bangkok Bank", "TH", "002", english_name_only=True),
    Bank("TMB", "ธนาคารทหารไทยธนชาต", "TMBThanachart Bank", "TH", "011", english_name_only=True),
    Bank("BAY", "ธนาคารกรุงศรีอยุธยา", "Bank of Ayudhya (Krungsri)", "TH", "025"),
    Bank("GSB", "ธนาคารออมสิน", "Government Savings Bank", "TH", "030"),
    Bank("BAAC", "ธนาคารเพื่อการเกษตรและสหกรณ์การเกษตร", "BAAC", "TH", "034"),
    Bank("GHB", "ธนาคารอาคารสงเคราะห์", "Government Housing Bank", "TH", "033"),
    Bank("KKP", "ธนาคารเกียรตินาคินภัทร", "Kiatnakin Phatra Bank", "TH", "069"),
    Bank("CIMB", "ธนาคารซีไอเอ็มบี ไทย", "CIMB Thai Bank", "TH", "022"),
    Bank("UOB", "ธนาคารยูโอบี", "United Overseas Bank (Thai)", "TH", "024"),
    Bank("TISCO", "ธนาคารทิสโก้", "TISCO Bank", "TH", "067"),
    Bank("LHB", "ธนาคารแลนด์ แอนด์ เฮ้าส์", "Land and Houses Bank", "TH", "073"),
    Bank("BCEL", "ທະນາຄານການຄ້າຕ່າງປະເທດລາວ", "BCEL", "LA"),
    Bank("LDB", "ທະນາຄານພັດທະນາລາວ", "Lao Development Bank", "LA"),
    Bank("APB", "ທະນາຄານສົ່ງເສີມກະສິກຳ", "Agricultural Promotion Bank", "LA"),
    Bank("JDB", "ທະນາຄານຮ່ວມພັດທະນາ", "Joint Development Bank", "LA"),
    Bank("STB", "ທະນາຄານ ເອັສທີ", "ST Bank", "LA"),
)

BY_CODE: dict[str, Bank] = {bank.code: bank for bank in BANKS}


def find_bank(code: str) -> Bank | None:
    return BY_CODE.get(code.upper())


def banks_for(*, lao_mode: bool) -> list[Bank]:
    """The banks a member of this variant registers with: the Thai site lists Thai banks only;
    Lao mode lists Lao banks first, then Thai ones (a Lao member may hold baht at either; the
    app narrows the list by the chosen currency)."""
    if not lao_mode:
        return [bank for bank in BANKS if bank.country == "TH"]
    return sorted(BANKS, key=lambda b: b.country != "LA")
