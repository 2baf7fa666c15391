"""What the transcript tests (``test_transcripts_*.py``, ``test_transcript_reading.py``) share:
FBI vs Mafia games replayed from their moves, one finished random game per mode (a fixture), a
policy that forces a chance outcome mid-game, a transcript written part way, and the values a
log line may hold (hypothesis strategies).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import strategies as st

from arbiter.engine import registry
from arbiter.engine import transcript as tr
from arbiter.engine.bench import play_random
from arbiter.engine.session import Session

FBI = registry.get("fbi-mafia")
MODES = ["standard-3v3", "standard-4v4", "duel-3v3", "duel-4v4"]
ROOT = Path(__file__).resolve().parent.parent


def moves_of(session: Session) -> list[tuple[str, str, int]]:
    return [(m.seat, m.text, m.time_ms) for m in session.moves]


def replay_moves(mode: str, seed: int, moves, *, until: int | None = None) -> Session:
    s = Session(FBI, mode, seed=seed)
    for seat, text, t in moves[:until]:
        s.submit(seat, text, t)
    return s


def roundtrip(session: Session) -> tr.ReplayReport:
    return tr.replay(tr.parse(tr.dump(session)))


def log_index(t: tr.Transcript, pred) -> int:
    return next(i for i, e in enumerate(t.log) if pred(e))


def deck_burner(session: Session) -> tuple[str, str]:
    """A deterministic policy that draws identity cards whenever it can (forcing a deck
    rebuild, a chance outcome drawn mid-game) and otherwise plays the first legal input."""
    awaited = session.state.awaiting()[0]
    legal = [m for m in session.state.legal_inputs(awaited.seat) if m != "surrender"]
    for preferred in ("masquerade", "inspect", "protect no", "detonate no"):
        if preferred in legal:
            return awaited.seat, preferred
    return awaited.seat, legal[0]


def has_rebuild(session: Session) -> bool:
    return any("chance" in e and e["chance"]["what"] == "identity-deck-rebuilt" for e in session.entries)


@pytest.fixture(scope="module")
def finished() -> dict[str, Session]:
    """One whole random game per mode."""
    out = {mode: play_random(FBI, mode, 4) for mode in MODES}
    for s in out.values():
        assert s.over, "precondition: the random game ends"
    return out


# a transcript written part way (resuming); hypothesis strategies for the words and values a
# log line may hold (the fast lines, and tests/test_transcript_reading.py)

def _partial(tmp_path: Path, mode: str = "standard-3v3", seed: int = 3, n: int = 12) -> tuple[Path, Session, Session]:
    whole = play_random(FBI, mode, seed)
    path = tmp_path / "partial.yaml"
    session = Session(FBI, mode, seed=seed)
    writer = tr.TranscriptWriter(path, session)
    for seat, text, t in moves_of(whole)[:n]:
        session.submit(seat, text, t)
    writer.close()
    return path, session, whole


_WORDS = st.one_of(
    st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12),
    st.text(alphabet="abcXYZ019 _.'/()-:;#,[]{}!&*?|>%@`\"", max_size=12),
    st.sampled_from(["yes", "No", "null", "on", "OFF", "1.5", "12", "0x1f", "1e3", "~", "-", "a: b", "a #b", " a", "a "]),
)


_SCALARS = st.one_of(_WORDS, st.integers(-10**12, 10**12), st.booleans(), st.none(),
                     st.integers(0, 10**9).map(lambda ms: ms / 1000), st.floats(allow_nan=True))


_VALUES = st.recursive(_SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                         st.dictionaries(_WORDS, inner, max_size=3)), max_leaves=12)
