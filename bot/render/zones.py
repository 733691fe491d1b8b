"""Time zones as people say them: 北京时间, 东京时间, Tokyo time (babel knows the cities), not an IANA id."""

from __future__ import annotations

from babel.dates import get_timezone_location

from bot.i18n import DEFAULT_LANGUAGE, has, t

# The Unicode (CLDR) locale of each catalog, for names babel knows: a time zone's city.
_LOCALES = {"zh-Hans": "zh_Hans_CN", "zh-Hant": "zh_Hant_TW", "en": "en"}


def zone_name(lang: str | None, zone: str) -> str:
    """A time zone as people say it: 北京时间 (the catalog's `zone` table), else the city's time in the
    chat's language (东京时间, Tokyo time) — never the IANA id.

    >>> zone_name("zh-Hans", "Asia/Shanghai"), zone_name("zh-Hans", "Asia/Tokyo")
    ('北京时间', '东京时间')
    >>> zone_name("en", "Asia/Tokyo")
    'Tokyo time'
    """
    if has(f"zone.{zone}", lang or DEFAULT_LANGUAGE):
        return t(lang, f"zone.{zone}")
    locale = _LOCALES.get(lang or DEFAULT_LANGUAGE, _LOCALES[DEFAULT_LANGUAGE])
    try:
        city = get_timezone_location(zone, locale=locale, return_city=True)
    except LookupError:
        city = zone
    return t(lang, "zone.city", city=city)
