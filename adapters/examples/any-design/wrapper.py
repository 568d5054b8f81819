#!/usr/bin/env python3
"""The ctxconform stdio wrapper around packer.py (SPEC PROTO-3): a request's blocks
become chunks, the packed result becomes an answer, and `describe` answers a
manifest that declares the packer's design, so the kit judges it at the
design-agnostic level (`"profiles": ["any"]`) under its own estimate and format.

    npx ctxconform run --stdio "python3 adapters/examples/any-design/wrapper.py"
"""
import io
import json
import sys

from packer import Chunk, pack

MANIFEST = {
    "name": "acme-packer",
    "version": "1.0.0",
    "language": "python",
    "profiles": ["any"],
    "capabilities": [],
    "validates": False,
    "design": {
        "estimator": {"unit": "code_points", "per_token": 4, "rounding": "ceil", "min": 1, "overhead": 3},
        "render": {"header": "<<{source}:{block_id}>>\n", "footer": "", "separator": "\n\n", "empty": ""},
        "omissions": "reported",
    },
}
REASONS = {"stale": "expired", "no_room": "budget"}  # the packer's words, as SPEC section 10 classes


def chunk(block):
    ttl = float(block.get("ttl_seconds", 0))
    expires = float(block.get("created_at", 0)) + ttl if ttl > 0 else None
    return Chunk(id=block["block_id"], text=block["content"], score=float(block["priority"]),
                 origin=block["source"], expires_at=expires)


def assemble(request):
    packed = pack([chunk(b) for b in request["blocks"]], int(request["budget"]), float(request["now"]))
    return {
        "context": packed.prompt,
        "included": [c.id for c in packed.chosen],
        "estimated_tokens": packed.tokens,
        "total_budget": request["budget"],
        "omissions": [{"block_id": c.id, "reason": REASONS[why]} for c, why in packed.dropped],
    }


def answer(msg):
    rid = msg.get("id") if isinstance(msg, dict) else None
    op = msg.get("op") if isinstance(msg, dict) else None
    if op == "describe":
        return {"id": rid, "ok": MANIFEST}
    if op == "assemble":
        try:
            return {"id": rid, "ok": assemble(msg["request"])}
        except Exception as e:  # the packer does not validate: a request it cannot read is answered, never a crash
            return {"id": rid, "error": {"code": "invalid_request", "message": "cannot read the request: %r" % (e,)}}
    return {"id": rid, "error": {"code": "unknown_op", "message": "unknown op %r" % (op,)}}


def main():
    stdin = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="surrogatepass")
    for line in stdin:
        if line.strip():
            try:
                msg = json.loads(line)
            except ValueError:
                msg = None
            # ensure_ascii: a lone surrogate travels back as its \\uXXXX escape, which UTF-8 cannot carry.
            sys.stdout.write(json.dumps(answer(msg), ensure_ascii=True, separators=(",", ":")) + "\n")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
