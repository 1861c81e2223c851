"""Errors of pao.site.

The lookups refuse nothing but a bad ``lang`` (422, handled by the app) and answer 410
``gone`` when the site is closed (:mod:`pao.site.termination`). The errors here belong to the
operator surface (``pao ops settings set``), not to HTTP, so they are ``ValueError``\\ s that the
CLI prints as one clear line::

    ValueError
     └── SettingError
          ├── UnknownSetting        the key is not a field of SiteSettings
          └── InvalidSettingValue   the text does not parse or does not validate
"""

from __future__ import annotations


class SettingError(ValueError):
    """An operator setting change was refused; ``str(error)`` is the line to show."""


class UnknownSetting(SettingError):
    def __init__(self, key: str, known: list[str]) -> None:
        super().__init__(f"unknown setting {key!r}; known settings: {', '.join(known)}")
        self.key = key


class InvalidSettingValue(SettingError):
    def __init__(self, key: str, reason: str) -> None:
        super().__init__(f"invalid value for {key}: {reason}")
        self.key = key
