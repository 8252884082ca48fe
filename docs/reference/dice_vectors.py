#!/usr/bin/env python3
"""Independent re-implementation of the navarch dice derivations (docs/LOG-FORMAT.md),
written from the spec alone. It prints the golden vectors in the format of
dice/testdata/vectors.golden, or with the argument v2 those of the commitments
that log format v2 adds (gamelog/testdata/vectors_v2.golden), or with v3 the beacon key of
log format v3 over drand quicknet's round 657413 (gamelog/testdata/vectors_v3.golden), or
with v5 the inputs of E over a team side's records (gamelog/testdata/vectors_v5.golden); the
Go tests compare them. It checks the derivation from a round's signature, not the BLS
signature itself (navarch verify and the browser page do that)."""
import hashlib, hmac, struct, sys

def lp(b): return struct.pack(">I", len(b)) + b
def tag(name): return lp(("navarch/v1/" + name).encode())
def H(*parts): return hashlib.sha256(b"".join(parts)).digest()
def u32(v): return struct.pack(">I", v)

def chain_step(game, i, x): return H(tag("chain"), game, u32(i), x)

def seed(game, n, xn, t):
    x = xn
    for i in range(n, t, -1):
        x = chain_step(game, i, x)
    return x

def start_hash(game, c, joins):
    return H(tag("start"), game, c, *[lp(p.encode()) + lp(e) for p, e in sorted(joins)])

def inputs_hash(t, a, inputs):
    parts = [lp(p.encode()) + oh + lp(e) for p, oh, e in sorted(inputs)]
    return H(tag("inputs"), u32(t), u32(a), *parts)

def key(xt, game, s, t, a, e):
    return hmac.new(xt, tag("key") + game + s + u32(t) + u32(a) + e, hashlib.sha256).digest()

def roll(k, label, sides, count):
    limit = 2**32 - (2**32 % sides)
    out, j = [], 0
    while len(out) < count:
        block = hmac.new(k, tag("roll") + lp(label.encode()) + u32(sides) + u32(count) + u32(j), hashlib.sha256).digest()
        for w in struct.unpack(">8I", block):
            if w < limit and len(out) < count:
                out.append(1 + w % sides)
        j += 1
    return out

def main():
    game, n = bytes(range(16)), 3
    xn = hashlib.sha256(b"example seed - never use").digest()
    line = lambda k, v: print(f"{k:<28} {v.hex()}")
    c = seed(game, n, xn, 0)
    line("game_id", game); line("X_3", xn)
    line("X_2", seed(game, n, xn, 2)); x1 = seed(game, n, xn, 1); line("X_1", x1)
    line("C = X_0", c)
    s = start_hash(game, c, [("bob", b"bob-join"), ("alice", b"alice-join")])
    line("S", s)
    oa, ob = H(tag("orders"), b"MOVE A1-A2\n"), H(tag("orders"), b"HOLD\n")
    line("orders_hash alice", oa); line("orders_hash bob", ob)
    e = inputs_hash(1, 5, [("bob", ob, b""), ("alice", oa, b"correct horse")])
    line("E_1,5", e)
    k = key(x1, game, s, 1, 5, e)
    line("K_1,5", k)
    line("E_1,0 (no inputs)", inputs_hash(1, 0, []))
    for label, sides, count in [("draw", 7, 1), ("fire/VEN1>SIR2/hit1/hv", 6, 2), ("morale/unit12", 10, 1), ("big", 3 << 30, 4), ("many", 6, 20)]:
        vals = " ".join(str(v) for v in roll(k, label, sides, count))
        print(f'roll "{label}" {count}d{sides} = [{vals}]')

def main_v2():
    game = bytes(range(16))
    line = lambda k, v: print(f"{k:<28} {v.hex()}")
    nonce = H(b"example nonce - never use")
    line("nonce", nonce)
    line("orders-commit alice", H(tag("orders-commit"), nonce, b"MOVE A1-A2\n"))
    line("orders-commit NONE", H(tag("orders-commit"), nonce, b"NONE\n"))
    rec = b"type event\nindex 7\nturn 1\nactivation 5\nside venice\ntext Barbarigo sets up hidden aboard VEN-A\n"
    line("sealed event", H(tag("sealed"), nonce, rec))
    oa = H(tag("orders"), b"MOVE A1-A2\n")
    line("E_1,5 bob secret", inputs_hash(1, 5, [("bob", bytes(32), b""), ("alice", oa, b"correct horse")]))
    head = H(b"example head")
    msg = tag("export") + b"navarch/v2 export\ngame " + game.hex().encode() + b"\nsize 42\nhead " + head.hex().encode() + b"\n"
    line("export message", msg)

def beacon_key(xt, game, s, t, a, e, rnd, randomness):
    return hmac.new(xt, tag("beacon-key") + game + s + u32(t) + u32(a) + e + struct.pack(">Q", rnd) + randomness, hashlib.sha256).digest()

def main_v3():
    game, n = bytes(range(16)), 3
    line = lambda k, v: print(f"{k:<28} {v.hex()}")
    sig = bytes.fromhex("b713718a38ae728dfd477991af2822e08d2f305e47718cef9f7848ce4050e7be41076862b98fad56e91a6b85b89cd97b")
    rnd = 657413
    line("round 657413 message", H(struct.pack(">Q", rnd)))
    randomness = H(sig)
    assert randomness.hex() == "fc1873a13f3545aeade8401532ef5519920652eee6b0d2b19ca12643b87b3587"
    line("round 657413 randomness", randomness)
    xn = hashlib.sha256(b"example seed - never use").digest()
    c, x1 = seed(game, n, xn, 0), seed(game, n, xn, 1)
    s = start_hash(game, c, [("bob", b"bob-join"), ("alice", b"alice-join")])
    oa, ob = H(tag("orders"), b"MOVE A1-A2\n"), H(tag("orders"), b"HOLD\n")
    e = inputs_hash(1, 5, [("bob", ob, b""), ("alice", oa, b"correct horse")])
    k = beacon_key(x1, game, s, 1, 5, e, rnd, randomness)
    line("K_1,5 beacon 657413", k)
    for label, sides, count in [("draw", 7, 1), ("fire/VEN1>SIR2/hit1/hv", 6, 2), ("many", 6, 20)]:
        vals = " ".join(str(v) for v in roll(k, label, sides, count))
        print(f'roll "{label}" {count}d{sides} = [{vals}]')

def main_v5():
    # v5: a team side's orders records enter E under the side's id (LOG-FORMAT.md 2).
    line = lambda k, v: print(f"{k:<28} {v.hex()}")
    oa, ob = H(tag("orders"), b"MOVE A1-A2\n"), H(tag("orders"), b"HOLD\n")
    line("E_1,5 team christian", inputs_hash(1, 5, [("christian", ob, b""), ("bob", ob, b""), ("christian", oa, b"correct horse")]))

if sys.argv[1:] == ["v2"]:
    main_v2()
elif sys.argv[1:] == ["v5"]:
    main_v5()
elif sys.argv[1:] == ["v3"]:
    main_v3()
else:
    main()
