"""Real SMS providers (``PAO_SMS_PROVIDER``), one module of wire mapping each; Pao's own
dialect stays in :mod:`pao.identity.sms`."""
