#!/usr/bin/env python3
"""Independent reference for the engine's deals, written from the documentation alone
(crates/engine/src/rng.rs, calabresella/deal.rs and docs/RECORDS.md, "Committed deals"), with
nothing but the standard library, so the Rust engine can be checked against a second
implementation.

Usage:
  python3 scripts/deal_reference.py SEED [PLAYERS] [DEALER] [GAME]
      the first hand of a match seeded with SEED whose first dealer is DEALER (what
      `calabresella deal --seed SEED --dealer DEALER` prints)
  python3 scripts/deal_reference.py --committed SECRET_HEX CONTEXT CONTRIBUTIONS HAND PLAYERS DEALER GAME
      hand HAND of the committed scheme calabresella-deal/1; CONTRIBUTIONS is a comma-separated
      list of hex strings, one per seat (empty for a seat that gave none)
  python3 scripts/deal_reference.py --commitment SECRET_HEX
      the commitment SHA-256(tag || secret)
  python3 scripts/deal_reference.py --selftest
      checks the ChaCha20 block function against RFC 8439's test vectors

GAME is calabresella (default), tressette or tressette-in-due (PLAYERS is then 4 or 2),
tressette-chiamata (5 or 4) or briscola-chiamata (5): every card dealt, in blocks of 40 / PLAYERS.
"""
import hashlib
import hmac
import struct
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


M32 = (1 << 32) - 1
TAG = b"calabresella-deal/1"


def chacha20_block(key, counter, nonce=b"\x00" * 12):
    """RFC 8439 section 2.3: one 64-byte block of the ChaCha20 keystream."""

    def rotl(v, n):
        return ((v << n) & M32) | (v >> (32 - n))

    def quarter(x, a, b, c, d):
        x[a] = (x[a] + x[b]) & M32
        x[d] = rotl(x[d] ^ x[a], 16)
        x[c] = (x[c] + x[d]) & M32
        x[b] = rotl(x[b] ^ x[c], 12)
        x[a] = (x[a] + x[b]) & M32
        x[d] = rotl(x[d] ^ x[a], 8)
        x[c] = (x[c] + x[d]) & M32
        x[b] = rotl(x[b] ^ x[c], 7)

    state = list(struct.unpack("<4I", b"expand 32-byte k"))
    state += list(struct.unpack("<8I", key)) + [counter] + list(struct.unpack("<3I", nonce))
    x = state[:]
    for _ in range(10):
        quarter(x, 0, 4, 8, 12)
        quarter(x, 1, 5, 9, 13)
        quarter(x, 2, 6, 10, 14)
        quarter(x, 3, 7, 11, 15)
        quarter(x, 0, 5, 10, 15)
        quarter(x, 1, 6, 11, 12)
        quarter(x, 2, 7, 8, 13)
        quarter(x, 3, 4, 9, 14)
    return struct.pack("<16I", *[(a + b) & M32 for a, b in zip(x, state)])


class ChaCha20Stream:
    """The keyed generator: the keystream of KEY with a zero nonce from block 0, read as
    little-endian 64-bit words."""

    def __init__(self, key):
        self.key, self.block, self.buf = key, 0, b""

    def next(self):
        if not self.buf:
            self.buf = chacha20_block(self.key, self.block)
            self.block += 1
        word, self.buf = self.buf[:8], self.buf[8:]
        return int.from_bytes(word, "little")


def hand_key(secret, context, contributions, hand):
    """HMAC-SHA256(secret, tag || 0 || u32 len || context || u32 n || (u32 len || c)* || u64 k)."""
    msg = TAG + b"\x00" + struct.pack(">I", len(context)) + context
    msg += struct.pack(">I", len(contributions))
    for c in contributions:
        msg += struct.pack(">I", len(c)) + c
    msg += struct.pack(">Q", hand)
    return hmac.new(secret, msg, hashlib.sha256).digest()


class Halves:
    """The 32-bit stream of draws: the low half of a 64-bit output, then its high half."""

    def __init__(self, rng):
        self.rng, self.spare = rng, None

    def half(self):
        if self.spare is not None:
            v, self.spare = self.spare, None
            return v
        v = self.rng.next()
        self.spare = v >> 32
        return v & M32

    def below(self, n):
        """Lemire's nearly divisionless draw below N."""
        m = self.half() * n
        if (m & M32) < n:
            threshold = ((1 << 32) - n) % n
            while (m & M32) < threshold:
                m = self.half() * n
        return m >> 32


def selftest():
    # RFC 8439 2.3.2: key 00..1f, counter 1, nonce 000000090000004a00000000.
    key = bytes(range(32))
    nonce = bytes.fromhex("000000090000004a00000000")
    block = chacha20_block(key, 1, nonce)
    assert block[:16].hex() == "10f1e7e4d13b5915500fdd1fa32071c4", block.hex()
    # Appendix A.1 test vector #1: key 0, nonce 0, counter 0.
    assert chacha20_block(b"\x00" * 32, 0)[:16].hex() == "76b8e0ada0f13d90405d6ae55386bd28"
    print("ok")


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


def deal(rng, players, dealer, game):
    """The seeded deal of one hand by DEALER from RNG, one line per seat then the rest."""
    deck = list(range(40))
    if game == "calabresella":
        block = 12
    elif game in ("tressette-chiamata", "briscola-chiamata"):
        block = 40 // players
    else:
        block = 10
    shuffle_above(rng, deck, block)
    active = 3 if game == "calabresella" else players
    first = (dealer + 1) % players
    order = [(first + k) % players for k in range(active)]
    hands = {s: [] for s in range(players)}
    for b, seat in enumerate(order):
        hands[seat] = [card(c) for c in deck[block * b : block * b + block]]
    lines = [f"seat {s}: {display(hands[s])}" for s in range(players)]
    rest = deck[block * active :]
    if rest:
        lines.append(("monte: " if game == "calabresella" else "stock: ") + " ".join(card(c) for c in rest))
    return lines


class Source:
    """A 64-bit source whose draws of the first dealer come first (the shuffle then drops a
    pending half, as the engine's does)."""

    def __init__(self, rng, players):
        halves = Halves(rng)
        self.first_dealer = halves.below(min(max(players, 1), 5))
        self.rng = rng

    def next(self):
        return self.rng.next()


def main():
    args = sys.argv[1:]
    if not args or args[0] in ("-h", "--help"):
        print(__doc__.strip())
        return
    if args[:1] == ["--selftest"]:
        return selftest()
    if args[:1] == ["--commitment"]:
        print(hashlib.sha256(TAG + bytes.fromhex(args[1])).hexdigest())
        return
    if args[:1] == ["--committed"]:
        secret, context, contributions, hand, players, dealer, game = args[1:8]
        secret = bytes.fromhex(secret)
        contributions = [bytes.fromhex(c) for c in contributions.split(",")] if contributions else []
        hand, players, dealer = int(hand), int(players), int(dealer)
        rng = ChaCha20Stream(hand_key(secret, context.encode(), contributions, hand))
        print("commitment: " + hashlib.sha256(TAG + secret).hexdigest())
        if hand == 0:
            rng = Source(rng, players)
            print(f"first dealer drawn: {rng.first_dealer}")
        print("\n".join(deal(rng, players, dealer, game)))
        return
    seed = int(args[0])
    players = int(args[1]) if len(args) > 1 else 3
    dealer = int(args[2]) if len(args) > 2 else 0
    game = args[3] if len(args) > 3 else "calabresella"
    # A seeded match draws its first dealer first, given or not (C-D24).
    print("\n".join(deal(Source(Xoshiro256pp(seed), players), players, dealer, game)))


if __name__ == "__main__":
    main()
