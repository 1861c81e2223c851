"""Errors of pao.site.

The lookups refuse nothing but a bad ``lang`` (422, handled by the app) and answer 410
``gone`` when the site is closed (:mod:`pao.site.termination`). The errors here belong to the
operator surface (``pao ops settings set``), not to HTTP, so they are ``ValueError``\\ s that the
CLI prints as one clear line::

    ValueError
     └── SettingError
          ├── UnknownSetting        the key is not a field of SiteSettings
          └── InvalidSettingValue   the text does not parse or does not validate
               └── SettingOutOfRange  a minimum above its maximum (withdrawMin > withdrawMax)

The back office's editors (:mod:`pao.site.editor`) answer HTTP, so their refusals are
:class:`~pao.core.errors.AppError`\\ s carrying the ``field`` at fault (nothing is stored)::

    AppError
     ├── Unprocessable (422)
     │    ├── SettingRejected        KEY_INVALID        a value does not validate (with reason)
     │    └── SettingRangeRejected   SETTING_RANGE      a minimum above its maximum
     └── NotFound (404)
          └── SettingChangeNotFound  SETTING_CHANGE_NOT_FOUND   no such version of the group
"""

from __future__ import annotations

from pao.core.errors import NotFound, Unprocessable


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


class SettingOutOfRange(InvalidSettingValue):
    """``key`` (a minimum) is above ``maximum`` (its maximum), for ``currency`` when the pair is
    money (then ``field`` is ``withdrawMin.LAK``)."""

    def __init__(self, key: str, maximum: str, currency: str | None = None) -> None:
        where = f" in {currency}" if currency else ""
        super().__init__(key, f"{key} must not exceed {maximum}{where}")
        self.maximum = maximum
        self.field = f"{key}.{currency}" if currency else key


class SettingRejected(Unprocessable):
    """A value of an editor's save does not validate: ``field`` (``contactText.th``,
    ``withdrawMin``) and a ``reason`` in English for the log and the curious."""

    code = "KEY_INVALID"

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(field=field, reason=reason)


class SettingRangeRejected(Unprocessable):
    """A minimum above its maximum: ``field`` is the minimum, ``maximum`` names the other."""

    code = "SETTING_RANGE"

    def __init__(self, field: str, maximum: str) -> None:
        super().__init__(field=field, maximum=maximum)


class SettingChangeNotFound(NotFound):
    code = "SETTING_CHANGE_NOT_FOUND"
