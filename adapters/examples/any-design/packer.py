"""A vendor's own context packer, as it might ship before anyone thought of
ctxconform: its own chunk type, its own estimate, its own prompt format. Nothing
here knows the kit; wrapper.py translates.

Packing: chunks by score, highest first (equal scores keep their order), each one
taken whole when its estimate fits what is left; a stale chunk (past its
expires_at) is never taken. Estimate: ceil(characters / 4), at least 1, plus 3
tokens for the header line each chunk gets.
"""
import math
from dataclasses import dataclass, field
from typing import List, Optional, Tuple

HEADER_TOKENS = 3


@dataclass
class Chunk:
    id: str
    text: str
    score: float
    origin: str
    expires_at: Optional[float] = None


@dataclass
class Packed:
    prompt: str
    chosen: List[Chunk] = field(default_factory=list)
    dropped: List[Tuple[Chunk, str]] = field(default_factory=list)  # (chunk, "stale" | "no_room")
    tokens: int = 0


def estimate(text: str) -> int:
    return max(1, math.ceil(len(text) / 4)) + HEADER_TOKENS


def pack(chunks: List[Chunk], max_tokens: int, now: float) -> Packed:
    out = Packed(prompt="")
    fresh = []
    for c in chunks:
        if c.expires_at is not None and now > c.expires_at:
            out.dropped.append((c, "stale"))
        else:
            fresh.append(c)
    for c in sorted(fresh, key=lambda c: -c.score):
        cost = estimate(c.text)
        if out.tokens + cost <= max_tokens:
            out.tokens += cost
            out.chosen.append(c)
        else:
            out.dropped.append((c, "no_room"))
    out.prompt = "\n\n".join("<<%s:%s>>\n%s" % (c.origin, c.id, c.text) for c in out.chosen)
    return out
