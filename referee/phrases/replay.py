"""The instant replay (static/replay.js): the list of plays, a play replayed here or on the overlay."""

from __future__ import annotations

__all__ = ["PHRASES"]

#: key -> (English, Dutch, German, Luxembourgish).
PHRASES: dict[str, tuple[str, str, str, str]] = {
    "replay_plays": ("Plays", "Zetten", "Züge", "Zich"),
    "replay_no_plays": (
        "No cards on the pile yet.",
        "Nog geen kaarten op de stapel.",
        "Noch keine Karten auf dem Stapel.",
        "Nach keng Kaarten um Koup.",
    ),
    "replay_start": ("start card", "startkaart", "Startkarte", "Startkaart"),
    "replay_play": ("▶ replay", "▶ herhaling", "▶ Wiederholung", "▶ Widderhuelung"),
    "replay_play_title": (
        "play this moment again",
        "speel dit moment opnieuw af",
        "diesen Moment noch einmal abspielen",
        "dëse Moment nach eng Kéier ofspillen",
    ),
    "replay_air": ("on overlay", "op de overlay", "im Overlay", "am Overlay"),
    "replay_air_title": (
        "show it on the overlay",
        "toon het op de overlay",
        "im Overlay zeigen",
        "et am Overlay weisen",
    ),
    "replay_last": (
        "last clip on overlay",
        "laatste clip op de overlay",
        "letzter Clip im Overlay",
        "leschte Clip am Overlay",
    ),
    "replay_last_title": (
        "show the newest clip on the overlay (key i)",
        "toon de nieuwste clip op de overlay (toets i)",
        "den neuesten Clip im Overlay zeigen (Taste i)",
        "de neiste Clip am Overlay weisen (Tast i)",
    ),
    "replay_no_clip": ("no clip", "geen clip", "kein Clip", "keen Clip"),
    "replay_cued": (
        "Replay on the overlay ✓",
        "Herhaling op de overlay ✓",
        "Wiederholung im Overlay ✓",
        "Widderhuelung am Overlay ✓",
    ),
    "replay_failed": ("Replay", "Herhaling", "Wiederholung", "Widderhuelung"),
    "replay_label": ("Instant replay", "Herhaling", "Wiederholung", "Widderhuelung"),
}
