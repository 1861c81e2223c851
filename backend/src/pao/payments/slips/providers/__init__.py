"""The real slip-verification providers (``PAO_SLIP_VERIFIER``), one module of wire mapping
each: :mod:`.slipok`, :mod:`.easyslip`, :mod:`.scb`; Pao's own dialect stays in
:mod:`pao.payments.slips.verifier`. :func:`build_verifier` picks one by the setting."""
