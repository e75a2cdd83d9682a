"""UK and US spellings (colour/color, theatre/theater) from the breame package's pair lists."""

from __future__ import annotations

import functools


@functools.cache
def pairs() -> tuple[dict[str, str], dict[str, str]]:
    """(British → American, American → British), upper case, from breame."""
    from breame.data.spelling_constants import AMERICAN_ENGLISH_SPELLINGS, BRITISH_ENGLISH_SPELLINGS

    uk = {k.upper(): v.upper() for k, v in BRITISH_ENGLISH_SPELLINGS.items() if k.isalpha() and v.isalpha()}
    us = {k.upper(): v.upper() for k, v in AMERICAN_ENGLISH_SPELLINGS.items() if k.isalpha() and v.isalpha()}
    return uk, us


def variant(word: str) -> tuple[str | None, str | None]:
    """("uk", the US spelling) for a British-only spelling, ("us", the UK one) for an American-only one,
    else (None, None): a word spelled the same on both sides."""
    uk, us = pairs()
    if word in uk and uk[word] != word:
        return "uk", uk[word]
    if word in us and us[word] != word:
        return "us", us[word]
    return None, None
