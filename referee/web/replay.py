"""The instant replays' web side: each alert's and each play's clip, the play list, and the overlay's cue.

The clips themselves are recorded by :class:`referee.clips.ClipRecorder`; here they are only read.
A clip is named by the ``seq`` of the observation it shows (in its match), which is what every alert
the dashboard lists carries (``/api/state``'s ``alerts[].seq``, and the ``seq`` of the event that
brought it), so:

- ``GET /api/alerts/{seq}/clip``: the clip of the alert(s) that observation ``seq`` drew (404 when the
  observation drew no alert, or it has no clip: none recorded, not written yet, or dropped by the cap);
- ``GET /api/plays/{seq}/clip``: the clip of the play (or start card) ``seq``;
- ``GET /api/clips``: the current match's plays (newest last) and which observations have a clip;
- ``POST /api/replay`` (a control; ``?seq=`` or the newest clip): cue a clip for the overlay;
  ``GET /api/replay/now`` is what the overlay polls to play it.

``?match=N`` on the clip paths reads an earlier match's. Clips are WebM/VP8 (``video/webm``) served as
files, with byte ranges (a ``<video>`` asks for them to seek).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import FastAPI, HTTPException, Query
from fastapi import Path as PathParam
from fastapi.responses import FileResponse

from referee.clips import CARD_TYPES, CLIP_MEDIA_TYPE, ClipStore, clips_dir_for

if TYPE_CHECKING:
    from referee.session import MatchSession

__all__ = ["register_replay"]

#: SQLite integers: ids from a request stay below this.
ID_LIMIT = 2**63
#: Plays listed by ``/api/clips`` (the newest): a long match's first plays are in the record.
PLAYS_LISTED = 200

Seq = Annotated[int, PathParam(ge=0, lt=ID_LIMIT, description="the observation's seq in its match")]
MatchQuery = Annotated[int | None, Query(ge=0, lt=ID_LIMIT, description="another match than the current")]


def clip_url(match_id: int, seq: int, kind: str = "plays") -> str:
    """The page-relative address of a clip (pages ask by relative paths: a hub mounts them elsewhere)."""
    return f"api/{kind}/{seq}/clip?match={match_id}"


def register_replay(app: FastAPI, session: MatchSession, *, admin: Sequence[Any],
                    clips: ClipStore | None = None) -> ClipStore | None:
    """Add the replay API to ``app`` (``admin``: the controls' dependencies). ``clips``: where the
    recorder writes (default: beside the match record; none for an in-memory record without one)."""
    if clips is None:
        root = clips_dir_for(getattr(session.store, "path", None))
        clips = ClipStore(root) if root is not None else None
    store = clips
    app.state.clips = store
    cue_lock = threading.Lock()
    cue: dict[str, Any] = {"n": 0, "match_id": None, "seq": None, "url": None}

    @app.get("/api/alerts/{seq}/clip", response_class=FileResponse)
    def alert_clip(seq: Seq, match: MatchQuery = None) -> FileResponse:
        """The instant replay of the alert(s) drawn by observation ``seq`` (the ``seq`` an alert carries)."""
        match_id = session.match_id if match is None else match
        if not any(s == seq for s, _ in session.store.alerts(match_id)):
            raise HTTPException(status_code=404, detail=f"no alert at observation {seq} in match {match_id}")
        return _clip_file(store, match_id, seq, f"the alert at observation {seq}")

    @app.get("/api/plays/{seq}/clip", response_class=FileResponse)
    def play_clip(seq: Seq, match: MatchQuery = None) -> FileResponse:
        """The instant replay of play (or start card) ``seq``."""
        match_id = session.match_id if match is None else match
        if not any(o.seq == seq and o.observation.get("type") in CARD_TYPES
                   for o in session.store.observations(match_id)):
            raise HTTPException(status_code=404, detail=f"no play {seq} in match {match_id}")
        return _clip_file(store, match_id, seq, f"play {seq}")

    @app.get("/api/clips")
    def list_clips() -> dict[str, Any]:
        """The current match's plays (newest last, each with its clip's address when it has one),
        the observations with a clip (``latest``: the newest one's address), and the cap they share."""
        return _clips_listing(session, store)

    @app.post("/api/replay", dependencies=list(admin))
    def cue_replay(seq: Annotated[int | None, Query(ge=0, lt=ID_LIMIT)] = None) -> dict[str, Any]:
        """Show a clip on the overlay: observation ``seq``'s, or the newest one of the match."""
        match_id = session.match_id
        have = store.clips(match_id) if store is not None else {}
        chosen = seq if seq is not None else max(have, default=None)
        if chosen is None or chosen not in have:
            what = "no clip yet in this match" if chosen is None else f"no clip for observation {chosen}"
            raise HTTPException(status_code=404, detail=what)
        url = _clip_address(session, match_id, chosen)
        with cue_lock:
            cue.update(n=cue["n"] + 1, match_id=match_id, seq=chosen, url=url)
            return dict(cue)

    @app.get("/api/replay/now")
    def replay_now() -> dict[str, Any]:
        """The clip cued for the overlay; ``n`` grows with every cue (the overlay plays each new one)."""
        with cue_lock:
            return dict(cue)

    return store


def _clip_address(session: MatchSession, match_id: int, seq: int) -> str:
    """A clip's address: as an alert's when its observation drew one, else as a play's."""
    alerts = any(s == seq for s, _ in session.store.alerts(match_id))
    return clip_url(match_id, seq, "alerts" if alerts else "plays")


def _clip_file(store: ClipStore | None, match_id: int, seq: int, what: str) -> FileResponse:
    """Observation ``seq``'s clip (``what`` it is, for the 404 when there is none)."""
    path = store.find(match_id, seq) if store is not None else None
    if path is None:
        why = "no clips are kept (no camera recording)" if store is None else "none recorded or kept"
        raise HTTPException(status_code=404, detail=f"no clip for {what} (match {match_id}): {why}")
    try:
        return FileResponse(path, media_type=CLIP_MEDIA_TYPE, headers={"Cache-Control": "no-cache"})
    except OSError:  # dropped by the cap just now
        raise HTTPException(status_code=404, detail=f"no clip for {what} (match {match_id})") from None


def _clips_listing(session: MatchSession, store: ClipStore | None) -> dict[str, Any]:
    """What ``GET /api/clips`` answers (see :func:`register_replay`)."""
    match_id = session.match_id
    have = store.clips(match_id) if store is not None else {}
    plays = [
        {"seq": o.seq, "type": o.observation.get("type"), "card": o.observation.get("card"),
         "seat": o.observation.get("seat"), "t": o.t, "source": o.source,
         "clip": clip_url(match_id, o.seq) if o.seq in have else None}
        for o in session.store.observations(match_id) if o.observation.get("type") in CARD_TYPES
    ][-PLAYS_LISTED:]
    newest = max(have, default=None)
    latest = None if newest is None else _clip_address(session, match_id, newest)
    return {"match_id": match_id, "recording": store is not None, "names": session.names, "plays": plays,
            "latest": latest,
            "clips": sorted(have), "bytes": sum(have.values()),
            "cap_bytes": store.cap_bytes if store is not None else None}
