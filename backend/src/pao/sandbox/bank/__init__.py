"""The sandbox bank: members' and the operator's bank, as a third party Pao talks to over HTTP.

It keeps customer accounts and transfers in the sandbox's own database, prints transfer slips
(a PNG with a mini QR), answers slip verification and payout requests, pays PromptPay / Lao
QR payloads (then notifies Pao, signed) and pays gateway orders. It imports nothing from
:mod:`pao.payments`: a real bank would not share Pao's code.
"""
