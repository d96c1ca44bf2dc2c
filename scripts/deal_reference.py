#!/usr/bin/env python3
"""Independent reference for the seeded deal documented in crates/engine/src/rng.rs and
calabresella/deal.rs, written from the documentation alone. Prints the deal for a seed so the
Rust golden test can be checked against a second implementation.

Usage: python3 scripts/deal_reference.py SEED [PLAYERS] [DEALER] [GAME]
GAME is calabresella (default), tressette or tressette-in-due (PLAYERS is then 4 or 2),
tressette-chiamata (5 or 4) or briscola-chiamata (5): every card dealt, in blocks of 40 / PLAYERS.
"""
import sys

M64 = (1 << 64) - 1


def splitmix64(state):
    state = (state + 0x9E3779B97F4A7C15) & M64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return state, z ^ (z >> 31)


class Xoshiro256pp:
    def __init__(self, seed):
        st = seed
        self.s = []
        for _ in range(4):
            st, v = splitmix64(st)
            self.s.append(v)

    def next(self):
        s = self.s
        rotl = lambda x, k: ((x << k) | (x >> (64 - k))) & M64
        result = (rotl((s[0] + s[3]) & M64, 23) + s[0]) & M64
        t = (s[1] << 17) & M64
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = rotl(s[3], 45)
        return result


CAP, MAX_BATCH = 1 << 48, 20


def batch(i):
    product, end = i, i - 1
    while end > 1 and i - end < MAX_BATCH:
        p = product * end
        if p > CAP:
            break
        product, end = p, end - 1
    return end, product


def shuffle_above(rng, items, keep):
    i, stop = len(items), max(keep, 1)
    while i > stop:
        end, product = batch(i)
        if end < stop:
            end = stop
            product = 1
            for b in range(end + 1, i + 1):
                product *= b
        while True:
            r = rng.next()
            picks = []
            for bound in range(i, end, -1):
                m = r * bound
                picks.append(m >> 64)
                r = m & M64
            if r >= product or r >= ((1 << 64) - product) % product:
                break
        for k, top in enumerate(range(i, end, -1)):
            items[top - 1], items[picks[k]] = items[picks[k]], items[top - 1]
        i = end


RANKS_BY_POWER = "4567FCKA23"  # power 0..9
SUITS = "bcds"
DISPLAY_RANKS = "32AKCF7654"


def card(i):
    return RANKS_BY_POWER[i % 10] + SUITS[i // 10]


def display(cards):
    return " ".join(r + s for s in SUITS for r in DISPLAY_RANKS if r + s in cards)


def main():
    seed = int(sys.argv[1])
    players = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    dealer = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    game = sys.argv[4] if len(sys.argv) > 4 else "calabresella"
    deck = list(range(40))
    if game == "calabresella":
        block = 12
    elif game in ("tressette-chiamata", "briscola-chiamata"):
        block = 40 // players
    else:
        block = 10
    shuffle_above(Xoshiro256pp(seed), deck, block)
    active = 3 if game == "calabresella" else players
    first = (dealer + 1) % players
    order = [(first + k) % players for k in range(active)]
    hands = {s: [] for s in range(players)}
    for b, seat in enumerate(order):
        hands[seat] = [card(c) for c in deck[block * b : block * b + block]]
    for s in range(players):
        print(f"seat {s}: {display(hands[s])}")
    rest = deck[block * active :]
    if rest:
        print(("monte: " if game == "calabresella" else "stock: ") + " ".join(card(c) for c in rest))


if __name__ == "__main__":
    main()
