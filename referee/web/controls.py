"""The controls of a table: what the admin token allows (observations, undo, a correction, a new match or
round, names, a hand read from a photo, the log's export).

Every route here depends on :func:`require_admin`; the app's :class:`~referee.web.guard.RequestGuard`
makes its list of controls from that dependency and checks the token before any body is read. Request
bodies are the strict models of :mod:`referee.web.models`. A control that records something saves a
keyed request's answer (``Idempotency-Key``) in the same transaction.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Sequence
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Header, HTTPException, Query, Request
from fastapi.responses import Response

from referee.cards import Colour
from referee.session import Event, MatchSession
from referee.web.guard import ADMIN_TOKEN_REQUIRED, supplied_token, token_matches
from referee.web.hands import (
    DetectorUnavailable,
    HandProposal,
    HandReader,
    ImageError,
    ImageTooLarge,
    image_from_multipart,
    palette_for,
)
from referee.web.idempotency import answer_in_transaction
from referee.web.language import setup_language
from referee.web.models import (
    CorrectIn,
    EventOut,
    HandCardOut,
    HandPhotoOut,
    NamesIn,
    Observation,
    OkOut,
    SetupIn,
)

__all__ = ["ADMIN", "MULTIPART_SLACK", "event_out", "read_upload", "register_controls", "require_admin"]

log = logging.getLogger(__name__)

#: Room for a multipart upload's headers and boundaries around the photo itself (bytes).
MULTIPART_SLACK = 64 * 1024


def require_admin(
    request: Request,
    authorization: Annotated[str | None, Header()] = None,
    x_admin_token: Annotated[str | None, Header()] = None,
) -> None:
    """The admin token (``app.state.token``) or a 401."""
    # RequestGuard checks the token before any body is read; this marks the route as a control
    # (the guard's list is made from these routes) and checks again.
    if not token_matches(supplied_token(authorization, x_admin_token), request.app.state.token):
        raise HTTPException(status_code=401, detail=ADMIN_TOKEN_REQUIRED,
                            headers={"WWW-Authenticate": "Bearer"})


#: The dependencies of a control.
ADMIN = [Depends(require_admin)]


def event_out(event: Event) -> EventOut:
    """A recorded event as a control answers it."""
    return EventOut(id=event["id"], kind=event["kind"], seq=event.get("seq"),
                    outputs=[dict(o) for o in event.get("outputs", [])])


def ok_out(event: Event) -> OkOut:
    return OkOut(event_id=event["id"])


def register_controls(app: FastAPI, session: MatchSession, hands: HandReader, *, max_photo_bytes: int) -> None:
    """Add the controls of ``session``'s table to ``app``; ``hands`` reads hands from photos of at most
    ``max_photo_bytes``."""

    @app.post("/api/observations", response_model=EventOut, dependencies=ADMIN)
    def post_observation(
        request: Request,
        obs: Observation,
        source: Annotated[str, Query(pattern=r"^[a-z][a-z0-9_-]{0,39}$")] = "operator",
    ) -> EventOut:
        return event_out(session.submit_event(obs.model_dump(exclude_none=True), source=source,
                                              also=answer_in_transaction(request.scope, event_out)))

    @app.post("/api/undo", response_model=OkOut, dependencies=ADMIN)
    def undo(request: Request) -> OkOut:
        try:
            session.undo(also=answer_in_transaction(request.scope, ok_out))
        except ValueError as exc:
            raise HTTPException(status_code=409, detail=str(exc)) from None
        return OkOut(event_id=session.last_event_id)

    @app.post("/api/correct", response_model=EventOut, dependencies=ADMIN)
    def correct(request: Request, body: CorrectIn) -> EventOut:
        return event_out(session.correct(body.card, body.color,
                                         also=answer_in_transaction(request.scope, event_out)))

    @app.post("/api/setup", response_model=OkOut, dependencies=ADMIN)
    def setup(request: Request, body: SetupIn) -> OkOut:
        obs = _setup_line(body, body.players or len(body.names) or len(session.names))
        # The answer rides on the last write (with names, a round's setup and its names are two).
        answer = answer_in_transaction(request.scope, ok_out)
        if body.mode == "match":
            session.new_match(obs, body.names or None, also=answer)
        else:
            session.submit_event(obs, source="operator", also=None if body.names else answer)
            if body.names:
                session.set_names(body.names, also=answer)
        return OkOut(event_id=session.last_event_id)

    @app.post("/api/names", response_model=OkOut, dependencies=ADMIN)
    def names(request: Request, body: NamesIn) -> OkOut:
        session.set_names(body.names, also=answer_in_transaction(request.scope, ok_out))
        return OkOut(event_id=session.last_event_id)

    _register_hand_photo(app, session, hands, max_photo_bytes=max_photo_bytes)

    @app.get("/api/log", dependencies=ADMIN)
    def export_log() -> Response:
        lines = "".join(json.dumps(o, separators=(",", ":")) + "\n" for o in session.export_log())
        return Response(lines, media_type="application/x-ndjson", headers={
            "Content-Disposition": f'attachment; filename="match-{session.match_id}.jsonl"'})

def _register_hand_photo(app: FastAPI, session: MatchSession, hands: HandReader, *, max_photo_bytes: int) -> None:
    """A seat's hand read from a photo: proposed, or revealed at once (``submit``)."""

    @app.post("/api/hands/photo", response_model=HandPhotoOut, dependencies=ADMIN)
    async def hand_photo(
        request: Request,
        seat: Annotated[int, Query(ge=0, le=15)],
        submit: bool = False,
    ) -> HandPhotoOut:
        """Propose a seat's hand from a photo (JPEG/PNG body or multipart field ``image``)."""
        snap = await asyncio.to_thread(session.snapshot)  # off the loop: it may wait on the record
        players = int(snap.get("players") or 0)
        if seat >= players:
            raise HTTPException(status_code=422,
                                detail=f"seat {seat} out of range for {players} players")
        data = await read_upload(request, max_photo_bytes)
        out = _hand_out(seat, await _read_hand(hands, data, palette_for(snap.get("options"))))
        if submit:
            if not out.cards:
                raise HTTPException(status_code=422,
                                    detail="no cards found in the photo: nothing submitted")
            answer = answer_in_transaction(
                request.scope, lambda e: out.model_copy(update={"submitted": event_out(e)}))
            event = await asyncio.to_thread(  # off the loop: it may wait on the record
                session.submit_event, {"type": "reveal", "seat": seat, "cards": out.cards},
                source="photo", also=answer)
            out.submitted = event_out(event)
        return out



def _setup_line(body: SetupIn, players: int) -> dict[str, Any]:
    """The ``setup`` observation a setup control asks for, at a table of ``players``; 422 where it cannot be."""
    if body.names and len(body.names) != players:
        raise HTTPException(status_code=422,
                            detail=f"{len(body.names)} names for {players} players")
    if body.dealer >= players:
        raise HTTPException(status_code=422,
                            detail=f"dealer seat {body.dealer} out of range for {players}")
    options: dict[str, Any] = dict(body.options)
    lang = setup_language(options)  # the pages' language, saved with the setup (not a rule option)
    if body.target is not None:
        options["target"] = body.target
    obs: dict[str, Any] = {"type": "setup", "players": players, "dealer": body.dealer,
                           "options": options}
    if lang is not None:
        obs["lang"] = lang
    if body.rules is not None:
        obs["rules"] = body.rules
    if body.hand_size is not None:
        obs["hand_size"] = body.hand_size
    return obs


async def _read_hand(hands: HandReader, data: bytes, palette: Sequence[Colour]) -> HandProposal:
    """``hands`` reading the photo ``data`` off the event loop; 413, 400 or 503 where it cannot."""
    try:
        return await asyncio.to_thread(hands.read, data, palette)
    except ImageTooLarge as exc:
        raise HTTPException(status_code=413, detail=str(exc)) from None
    except ImageError as exc:
        raise HTTPException(status_code=400, detail=str(exc)) from None
    except DetectorUnavailable as exc:
        log.warning("hand photo: %s", exc)
        raise HTTPException(status_code=503,
                            detail=f"no card detector available: {exc}") from None


def _hand_out(seat: int, proposal: HandProposal) -> HandPhotoOut:
    """The hand read from a photo as the control answers it."""
    found = proposal.detections
    return HandPhotoOut(
        seat=seat, cards=proposal.cards, width=proposal.width, height=proposal.height,
        backs=proposal.backs, duplicates=proposal.duplicates,
        detections=[
            HandCardOut(label=label, confidence=round(float(found.confidence[i]), 4),
                        colour_confidence=round(float(found.colour_confidence[i]), 4)
                        if len(found.colour_confidence) else 1.0,
                        xyxy=[round(float(v), 1) for v in found.xyxy[i]])
            for i, label in enumerate(found.labels)
        ],
    )



async def read_upload(request: Request, limit: int) -> bytes:
    """The uploaded image's bytes: the raw body (``image/*``) or a multipart field; 413 past
    ``limit``, 415 for other content types. (:class:`RequestGuard` has capped the body already.)"""
    content_type = request.headers.get("content-type", "")
    kind = content_type.split(";", 1)[0].strip().lower()
    multipart = kind == "multipart/form-data"
    if not (multipart or kind.startswith("image/") or kind == "application/octet-stream"):
        raise HTTPException(status_code=415, detail=f"send the photo as image/jpeg, image/png or "
                            f"multipart/form-data, not {kind or 'no content type'!r}")
    too_big = HTTPException(status_code=413,
                            detail=f"photo too large: at most {limit // (1024 * 1024)} MB")
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit + (MULTIPART_SLACK if multipart else 0):
        raise too_big
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit + (MULTIPART_SLACK if multipart else 0):
            raise too_big
    if not multipart:
        return bytes(body)
    try:
        data = image_from_multipart(content_type, bytes(body))
    except ImageError as exc:
        raise HTTPException(status_code=400, detail=str(exc)) from None
    if len(data) > limit:
        raise too_big
    return data


