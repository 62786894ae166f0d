"""Which cards pay for a building.

`minimal_payments` lists the payments that cannot drop a card and still cover the cost: any
other covering payment is one of these plus cards nobody would want to give away, so listing
only these keeps `legal_actions()` small. Cards of the same currency and value are
interchangeable, so payments are enumerated once per multiset of values (and kept) and then
mapped to card ids.
"""

from __future__ import annotations

from collections.abc import Iterable

from .catalogue import CARD_CURRENCY, CARD_VALUE

#: (value, count) picks of each minimal payment with its (overpay, cards), by (cost, the hand's
#: (value, count) pairs from the highest value down); emptied when full
_PATTERNS: dict[
    tuple[int, tuple[tuple[int, int], ...]],
    tuple[tuple[int, int, tuple[tuple[int, int], ...]], ...],
] = {}


def _patterns(
    cost: int, counts: tuple[tuple[int, int], ...]
) -> tuple[tuple[int, int, tuple[tuple[int, int], ...]], ...]:
    found: list[tuple[int, int, tuple[tuple[int, int], ...]]] = []

    def walk(k: int, total: int, chosen: tuple[tuple[int, int], ...], size: int) -> None:
        # Values are taken from high to low, so the last card added is the smallest: the payment
        # is minimal exactly when dropping that card leaves less than the cost.
        if k == len(counts):
            return
        v, have = counts[k]
        for n in range(1, have + 1):
            t = total + n * v
            if t >= cost:
                if t - v < cost:
                    found.append((t - cost, size + n, (*chosen, (v, n))))
                break
            walk(k + 1, t, (*chosen, (v, n)), size + n)
        walk(k + 1, total, chosen, size)

    walk(0, 0, (), 0)
    return tuple(found)


def minimal_payments(hand: Iterable[int], currency: int, cost: int) -> list[tuple[int, ...]]:
    """Card-id tuples, exact payments first, then by total and fewest cards."""
    return sorted_payments(sorted([c for c in hand if CARD_CURRENCY[c] == currency]), cost)


def sorted_payments(cards: list[int], cost: int) -> list[tuple[int, ...]]:
    """`minimal_payments` of cards of one currency, given sorted."""
    if cost <= 0 or not cards:
        return []
    by_value: dict[int, list[int]] = {}
    for card in cards:
        v = CARD_VALUE[card]
        same = by_value.get(v)
        if same is None:
            by_value[v] = [card]
        else:
            same.append(card)
    counts = tuple([(v, len(by_value[v])) for v in sorted(by_value, reverse=True)])
    key = (cost, counts)
    patterns = _PATTERNS.get(key)
    if patterns is None:
        if len(_PATTERNS) >= 20_000:
            _PATTERNS.clear()
        patterns = _PATTERNS[key] = _patterns(cost, counts)
    ranked = [
        (over, size, tuple([c for v, n in picks for c in by_value[v][:n]]))
        for over, size, picks in patterns
    ]
    ranked.sort()
    return [paid for _over, _size, paid in ranked]


def can_afford(hand: Iterable[int], currency: int, cost: int) -> bool:
    return sum(CARD_VALUE[c] for c in hand if CARD_CURRENCY[c] == currency) >= cost


def has_exact_payment(hand: Iterable[int], currency: int, cost: int) -> bool:
    reachable = 1  # bit i set: a subset sums to i
    for c in hand:
        if CARD_CURRENCY[c] == currency:
            reachable |= reachable << CARD_VALUE[c]
    return bool(reachable >> cost & 1)
