#!/usr/bin/env python3
"""A Context Assembly implementation of the `tiered` profile core, in Python 3
(standard library only), speaking the ctxconform stdio protocol (SPEC PROTO-3):
one JSON request per line on stdin, one JSON answer per line on stdout.

It declares no capability, so ctxconform skips the cases of `pinned`,
`constraints`, `lifecycle`, `working_context` and of the `ranked` profile.
Python's `str` already counts and orders by code point (SPEC NUM-1, NUM-4).

`python3 impl.py --constants FILE` runs it with tuned constants (SPEC section 17):
FILE holds a manifest's `constants` object (chars_per_token, tier_fractions,
source_to_tier), which it applies and declares in its manifest.

The specification's tables (chars per token, tier shares, the source map, the
header) are read from design.json beside this file, which ctxconform writes
from its one exported source (reference/design.ts) and checks in its tests.
"""
import io
import json
import math
import os
import sys

MANIFEST = {
    "name": "ctxconform-python-example",
    "version": "1.0.0",
    "language": "python",
    "profiles": ["tiered"],
    "capabilities": [],
}

with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "design.json"), encoding="utf-8") as f:
    DESIGN = json.load(f)
CHARS_PER_TOKEN = DESIGN["chars_per_token"]
TIER_PERCENT = dict(DESIGN["tier_percent"])
SOURCE_TO_TIER = dict(DESIGN["source_to_tier"])
DEFAULT_TIER = DESIGN["default_tier"]
BUDGET_REASON = "tier budget exhausted; overflow pool exhausted"
MAX_BUDGET = 2 ** 53 - 1
STATUSES = ("active", "disputed", "superseded", "stale")
FLAGS = ("include_disputed", "include_superseded", "prefer_recency", "prefer_high_confidence")


class Invalid(Exception):
    pass


def number(value):
    """The request's number as the double a JSON reader keeps, or None when it is not one."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        f = float(value)
    except OverflowError:
        return None  # an integer too large for a double reads as Infinity
    return f if math.isfinite(f) else None


def validate(req):
    problems = []

    def bad(path, message):
        problems.append({"path": path, "message": message})

    if not isinstance(req, dict):
        bad("", "the request must be an object")
        return problems
    if "profile" in req and req["profile"] not in ("tiered", "ranked"):
        bad("/profile", "must be \"tiered\" or \"ranked\"")
    if number(req.get("now")) is None:
        bad("/now", "must be a finite number")
    budget = number(req.get("budget"))
    if budget is None or not budget.is_integer() or budget < 0 or budget > MAX_BUDGET:
        bad("/budget", "must be an integer from 0 to 2^53 - 1")
    blocks = req.get("blocks")
    if not isinstance(blocks, list):
        bad("/blocks", "must be an array")
        blocks = []
    seen = set()
    for i, b in enumerate(blocks):
        at = "/blocks/%d" % i
        if not isinstance(b, dict):
            bad(at, "must be an object")
            continue
        bid = b.get("block_id")
        if not isinstance(bid, str) or bid == "":
            bad(at + "/block_id", "must be a non-empty string")
        elif bid in seen:
            bad(at + "/block_id", "duplicate block_id %r" % bid)
        else:
            seen.add(bid)
        if not isinstance(b.get("source"), str) or b.get("source") == "":
            bad(at + "/source", "must be a non-empty string")
        if not isinstance(b.get("content"), str):
            bad(at + "/content", "must be a string")
        if number(b.get("priority")) is None:
            bad(at + "/priority", "must be a finite number")
        if "created_at" in b and number(b["created_at"]) is None:
            bad(at + "/created_at", "must be a finite number")
        if "ttl_seconds" in b:
            ttl = number(b["ttl_seconds"])
            if ttl is None or ttl < 0:
                bad(at + "/ttl_seconds", "must be a finite number >= 0")
        if "pinned" in b and not isinstance(b["pinned"], bool):
            bad(at + "/pinned", "must be a boolean")
        if "status" in b and b["status"] not in STATUSES:
            bad(at + "/status", "must be one of " + ", ".join(STATUSES))
        if "confidence" in b:
            c = number(b["confidence"])
            if c is None or c < 0 or c > 1:
                bad(at + "/confidence", "must be a finite number within [0, 1]")
    if "constraints" in req:
        k = req["constraints"]
        if not isinstance(k, dict):
            bad("/constraints", "must be an object")
        else:
            for name in ("must_include", "exclude"):
                if name in k:
                    v = k[name]
                    if not isinstance(v, list) or any(not isinstance(s, str) or s == "" for s in v):
                        bad("/constraints/" + name, "must be an array of non-empty strings")
            if k.get("max_segments") is not None:
                m = number(k["max_segments"])
                if m is None or not m.is_integer() or m < 1:
                    bad("/constraints/max_segments", "must be null or an integer >= 1")
            for name in FLAGS:
                if name in k and not isinstance(k[name], bool):
                    bad("/constraints/" + name, "must be a boolean")
    return problems


def estimate_tokens(text):
    return max(1, len(text) // CHARS_PER_TOKEN)


def assemble(req):
    problems = validate(req)
    if problems:
        first = problems[0]
        message = "%s: %s" % (first["path"] or "(request)", first["message"])
        return {"error": {"code": "invalid_request", "message": message, "problems": problems}}
    now = float(req["now"])
    budget = int(float(req["budget"]))
    omissions = []
    live = []
    for b in req["blocks"]:
        created = float(b.get("created_at", 0))
        ttl = float(b.get("ttl_seconds", 0))
        if ttl > 0 and now > created + ttl:
            omissions.append({"block_id": b["block_id"], "reason": "expired"})
        else:
            live.append({"id": b["block_id"], "source": b["source"], "content": b["content"],
                         "priority": float(b["priority"]), "cost": estimate_tokens(b["content"])})
    live.sort(key=lambda b: (-b["priority"], b["id"]))
    left = {tier: budget * pct // 100 for tier, pct in TIER_PERCENT.items()}
    admitted = []
    set_aside = []
    for b in live:
        tier = SOURCE_TO_TIER.get(b["source"], DEFAULT_TIER)
        if b["cost"] <= left[tier]:
            left[tier] -= b["cost"]
            admitted.append(b)
        else:
            set_aside.append(b)
    pool = sum(left.values())
    for b in set_aside:
        if b["cost"] <= pool:
            pool -= b["cost"]
            admitted.append(b)
        else:
            omissions.append({"block_id": b["id"], "reason": BUDGET_REASON})
    admitted.sort(key=lambda b: (b["source"], -b["priority"], b["id"]))
    return {
        "context": DESIGN["segment_joiner"].join(
            "[" + b["source"] + DESIGN["header_separator"] + b["id"] + "]\n" + b["content"] for b in admitted),
        "included": [b["id"] for b in admitted],
        "estimated_tokens": sum(b["cost"] for b in admitted),
        "total_budget": budget,
        "omissions": omissions,
    }


def answer(msg):
    rid = msg.get("id") if isinstance(msg, dict) else None
    op = msg.get("op") if isinstance(msg, dict) else None
    if op == "describe":
        return {"id": rid, "ok": MANIFEST}
    if op == "assemble":
        out = assemble(msg.get("request"))
        if "error" in out:
            return {"id": rid, "error": out["error"]}
        return {"id": rid, "ok": out}
    return {"id": rid, "error": {"code": "unknown_op", "message": "unknown op %r" % (op,)}}


def declare_constants(path):
    """Apply and declare the constants in the JSON file at `path` (SPEC DECL-1..3)."""
    global CHARS_PER_TOKEN, TIER_PERCENT, SOURCE_TO_TIER
    with open(path, encoding="utf-8") as f:
        constants = json.load(f)
    CHARS_PER_TOKEN = constants.get("chars_per_token", CHARS_PER_TOKEN)
    TIER_PERCENT = dict(TIER_PERCENT, **constants.get("tier_fractions", {}))
    SOURCE_TO_TIER = dict(SOURCE_TO_TIER, **constants.get("source_to_tier", {}))
    MANIFEST["constants"] = constants


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--constants":
        declare_constants(sys.argv[2])
    elif len(sys.argv) != 1:
        print("usage: impl.py [--constants FILE]", file=sys.stderr)
        sys.exit(2)
    stdin = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="surrogatepass")
    out = sys.stdout
    while True:
        line = stdin.readline()
        if line == "":
            return  # end of input: exit (PROTO-3)
        if not line.strip():
            continue
        try:
            msg = json.loads(line)
        except ValueError as e:
            msg = None
            print("not JSON: %s" % e, file=sys.stderr)
        # ensure_ascii keeps lone surrogates as \\uXXXX escapes, which UTF-8 cannot carry.
        out.write(json.dumps(answer(msg), ensure_ascii=True, separators=(",", ":")) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
