"""The dealer's randomness (RULES.md 3, docs/fairness.md): one source, named in the settings
(`CASINO_RANDOM_SOURCE`), draws every button, deck and salt. When it fails, no hand starts and
nothing falls back to another generator: the caller waits and tells the table.
"""

import logging
import secrets
from typing import Protocol

from django.conf import settings
from django.utils.module_loading import import_string

from holdem.engine.cards import new_deck, shuffle
from holdem.engine.commitment import DECK_SIZE, SALT_BYTES

log = logging.getLogger("holdem.shuffle")


class RandomSourceFailed(Exception):
    """The random source did not answer; no card may be dealt from anything else."""


class Source(Protocol):
    """What the dealer asks of a source: integers below a bound, and random bytes."""

    def randrange(self, stop: int, /) -> int: ...

    def randbytes(self, n: int, /) -> bytes: ...


def system_random() -> Source:
    """The site's source: the operating system's cryptographically secure generator."""
    return secrets.SystemRandom()


class _Checked:
    """A source whose every failure is a RandomSourceFailed (and is logged once here)."""

    def __init__(self, source: Source, name: str) -> None:
        self._source = source
        self._name = name

    def randrange(self, stop: int, /) -> int:
        try:
            return self._source.randrange(stop)
        except Exception as error:
            raise _failed(self._name, error) from error

    def randbytes(self, n: int, /) -> bytes:
        try:
            return self._source.randbytes(n)
        except Exception as error:
            raise _failed(self._name, error) from error


def _failed(name: str, error: Exception) -> RandomSourceFailed:
    log.error("random source %s failed: %s: %s", name, type(error).__name__, error)
    return RandomSourceFailed(f"the random source {name} failed: {error}")


def random_source() -> _Checked:
    """The configured source, checked: any failure of it raises RandomSourceFailed."""
    name = settings.CASINO_RANDOM_SOURCE
    try:
        source = import_string(name)()
    except Exception as error:
        raise _failed(name, error) from error
    return _Checked(source, name)


def hand_deck() -> list[str]:
    """RULES.md 3: a fresh deck shuffled by Fisher-Yates from the random source.
    (Tests replace this function to deal chosen cards.)"""
    return shuffle(new_deck(), random_source())


def deck_salts() -> list[str]:
    """One salt per deck position for the commitment (docs/fairness.md), from the same source."""
    source = random_source()
    return [source.randbytes(SALT_BYTES).hex() for _ in range(DECK_SIZE)]
