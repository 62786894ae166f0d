"""Which cards pay for a building.

`minimal_payments` lists the payments that cannot drop a card and still cover the cost: any
other covering payment is one of these plus cards nobody would want to give away, so listing
only these keeps `legal_actions()` small. Cards of the same currency and value are
interchangeable, so payments are enumerated as value multisets and then mapped to card ids.
"""

from __future__ import annotations

from collections.abc import Iterable

from .catalogue import CARD_CURRENCY, CARD_VALUE


def minimal_payments(hand: Iterable[int], currency: int, cost: int) -> list[tuple[int, ...]]:
    """Card-id tuples, exact payments first, then by total and fewest cards."""
    by_value: dict[int, list[int]] = {}
    for card in sorted(hand):
        if CARD_CURRENCY[card] == currency:
            by_value.setdefault(CARD_VALUE[card], []).append(card)
    values = sorted(by_value, reverse=True)
    found: list[tuple[int, ...]] = []

    def walk(k: int, total: int, chosen: list[int]) -> None:
        # Values are taken from high to low, so the last card added is the smallest: the payment
        # is minimal exactly when dropping that card leaves less than the cost.
        if k == len(values):
            return
        v = values[k]
        cards = by_value[v]
        for n in range(1, len(cards) + 1):
            t = total + n * v
            if t >= cost:
                if t - v < cost:
                    found.append(tuple(chosen + cards[:n]))
                break
            walk(k + 1, t, chosen + cards[:n])
        walk(k + 1, total, chosen)

    if cost > 0:
        walk(0, 0, [])
    found.sort(key=lambda p: (sum(CARD_VALUE[c] for c in p) - cost, len(p), p))
    return found


def can_afford(hand: Iterable[int], currency: int, cost: int) -> bool:
    return sum(CARD_VALUE[c] for c in hand if CARD_CURRENCY[c] == currency) >= cost


def has_exact_payment(hand: Iterable[int], currency: int, cost: int) -> bool:
    reachable = 1  # bit i set: a subset sums to i
    for c in hand:
        if CARD_CURRENCY[c] == currency:
            reachable |= reachable << CARD_VALUE[c]
    return bool(reachable >> cost & 1)
