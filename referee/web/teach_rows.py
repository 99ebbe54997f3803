"""/teach from a few photos of the deck laid out in rows: the referee finds every card, proposes its label, the
player corrects the few it got wrong with a tap, and the cards join the deck's photos to be learned.

The layout photos are kept under ``DECK_DIR/rows`` (``POST /api/deck/photos?layout=true``, a photo's size
limits); after each one the labels are proposed again over all of them (:func:`referee.vision.deck_rows.propose`:
each label once across the photos), keeping every label the player set. ``GET /api/deck/rows`` lists the
cards found (photo, box, label, sure, the next best labels), ``GET /api/deck/rows/photo?name=`` serves a
layout photo (the page cuts each card out of it), ``PUT /api/deck/rows/label?photo=&card=&label=`` is a tap,
``POST /api/deck/rows/use`` cuts every card out into the photos folder of its label (as if photographed
alone: ``rows-PHOTO-N.png``, replacing those of an earlier use) for ``POST /api/deck/learn``, and
``DELETE /api/deck/rows/photos`` forgets the layout photos (the controls' own paths: the admin token guards a
path, whatever the method).
"""

from __future__ import annotations

import hashlib
import logging
import os
import shutil
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Protocol

from fastapi import FastAPI, HTTPException, Query
from fastapi.responses import Response

from referee.cards import Card, CardError, DeckSpec, face_folder, folder_label

if TYPE_CHECKING:
    from referee.vision.classify import FaceClassifier
    from referee.vision.deck_rows import CardProposal


class DeckFolders(Protocol):
    """What the layout photos need of /teach's :class:`~referee.web.teach.DeckTeacher`."""

    @property
    def deck_dir(self) -> Path: ...
    @property
    def photos_dir(self) -> Path: ...
    def loaded_models(self) -> tuple[Any, FaceClassifier]: ...

__all__ = ["MAX_LAYOUT_PHOTOS", "RowsTeacher", "register_rows"]

log = logging.getLogger(__name__)

#: Layout photos kept at once: a deck of 108 in rows of nine is twelve photos.
MAX_LAYOUT_PHOTOS = 16
#: The prefix of a card cut out of a layout photo in the deck's photos folders.
CUT_PREFIX = "rows-"
_TYPES = {".jpg": "image/jpeg", ".png": "image/png"}


class RowsTeacher:
    """The layout photos, the cards proposed in them and the player's corrections; thread-safe."""

    def __init__(self, teacher: DeckFolders) -> None:
        self.teacher = teacher
        self._lock = threading.Lock()
        self._cards: list[CardProposal] = []
        self._set_by_player: dict[tuple[str, int], str] = {}

    @property
    def rows_dir(self) -> Path:
        return self.teacher.deck_dir / "rows"

    def photos(self) -> list[str]:
        folder = self.rows_dir
        if not folder.is_dir():
            return []
        return sorted(p.name for p in folder.iterdir() if p.is_file() and p.suffix in _TYPES)

    def add(self, data: bytes, suffix: str, deck: DeckSpec) -> dict[str, Any]:
        """Keep one layout photo (named by its content) and propose the labels again; the listing.
        :class:`OverflowError` past :data:`MAX_LAYOUT_PHOTOS`."""
        name = hashlib.sha256(data).hexdigest()[:16] + suffix
        with self._lock:
            folder = self.rows_dir
            folder.mkdir(parents=True, exist_ok=True)
            if not (folder / name).exists():
                if len(self.photos()) >= MAX_LAYOUT_PHOTOS:
                    raise OverflowError(f"{MAX_LAYOUT_PHOTOS} photos of rows already: forget them first to start again")
                partial = folder / f".{name}.part"
                partial.write_bytes(data)
                os.replace(partial, folder / name)
            self._propose(deck)
            return self._listing()

    def _propose(self, deck: DeckSpec) -> None:
        from referee.vision.deck_rows import propose

        detector, classifier = self.teacher.loaded_models()
        cards = propose([self.rows_dir / name for name in self.photos()], detector, classifier, deck)
        for card in cards:
            chosen = self._set_by_player.get((card.photo, card.card))
            if chosen is not None:
                card.label, card.sure = chosen, True
        self._cards = cards
        self._save()

    def _save(self) -> None:
        from referee.vision.deck_rows import write_proposals

        write_proposals(self._cards, self.rows_dir / "proposals.jsonl")

    def _listing(self) -> dict[str, Any]:
        checked = set(self._set_by_player)
        return {"photos": self.photos(), "cards": [{**card.line(), "set": (card.photo, card.card) in checked}
                                                   for card in self._cards],
                "to_check": sum(1 for card in self._cards if not card.sure)}

    def listing(self) -> dict[str, Any]:
        with self._lock:
            return self._listing()

    def photo(self, name: str) -> tuple[bytes, str] | None:
        """A layout photo's bytes and type; ``None`` for a name that is not one of them."""
        with self._lock:
            if name not in self.photos():
                return None
            return (self.rows_dir / name).read_bytes(), _TYPES[Path(name).suffix]

    def set_label(self, photo: str, card: int, label: str) -> dict[str, Any]:
        """The player's label for a card (a tap); :class:`LookupError` for a card not found."""
        with self._lock:
            for found in self._cards:
                if found.photo == photo and found.card == card:
                    found.label, found.sure = label, True
                    self._set_by_player[(photo, card)] = label
                    self._save()
                    return {**found.line(), "set": True}
        raise LookupError(f"no card {card} in photo {photo}")

    def use(self) -> dict[str, Any]:
        """Every card cut out into its label's photos folder (those of an earlier use replaced)."""
        import cv2

        from referee.vision.deck_rows import cut_out

        with self._lock:
            if not self._cards:
                raise LookupError("no cards found yet: add a photo of the cards laid out in rows first")
            photos_dir = self.teacher.photos_dir
            if photos_dir.is_dir():
                for old in photos_dir.glob(f"*/{CUT_PREFIX}*"):
                    old.unlink(missing_ok=True)
            images: dict[str, Any] = {}
            for card in self._cards:
                if card.photo not in images:
                    images[card.photo] = cv2.imread(str(self.rows_dir / card.photo))
                folder = photos_dir / face_folder(card.label)
                folder.mkdir(parents=True, exist_ok=True)
                stem = Path(card.photo).stem
                cv2.imwrite(str(folder / f"{CUT_PREFIX}{stem}-{card.card}.png"), cut_out(images[card.photo], card.box))
            return {"cards": len(self._cards), "labels": len({card.label for card in self._cards})}

    def forget(self) -> int:
        """Forget the layout photos and their cards (cards cut out already stay); how many photos there were."""
        with self._lock:
            count = len(self.photos())
            shutil.rmtree(self.rows_dir, ignore_errors=True)
            self._cards = []
            self._set_by_player = {}
            return count


def register_rows(app: FastAPI, rows: RowsTeacher, *, admin: Sequence[Any],
                  labels: Callable[[], Sequence[str]]) -> None:
    """The layout photos' API beside /teach's (``labels``: the session's deck's labels, for a tap's label)."""

    @app.get("/api/deck/rows")
    def rows_listing() -> dict[str, Any]:
        return rows.listing()

    @app.get("/api/deck/rows/photo")
    def rows_photo(name: Annotated[str, Query(min_length=1, max_length=40)]) -> Response:
        found = rows.photo(name)
        if found is None:
            raise HTTPException(status_code=404, detail=f"no photo of rows named {name!r}")
        return Response(found[0], media_type=found[1], headers={"Cache-Control": "no-cache"})

    @app.put("/api/deck/rows/label", dependencies=list(admin))
    def rows_label(photo: Annotated[str, Query(min_length=1, max_length=40)],
                   card: Annotated[int, Query(ge=1, le=10_000)],
                   label: Annotated[str, Query(min_length=1, max_length=40)]) -> dict[str, Any]:
        try:
            chosen = Card.from_label(folder_label(label.strip().lower())).label
        except CardError:
            raise HTTPException(status_code=422, detail=f"{label!r} is not a card label (e.g. red_7, wild)") from None
        if chosen not in labels():
            raise HTTPException(status_code=422, detail=f"{chosen} is not a card of this game's deck")
        try:
            return rows.set_label(photo, card, chosen)
        except LookupError as exc:
            raise HTTPException(status_code=404, detail=str(exc)) from None

    @app.post("/api/deck/rows/use", dependencies=list(admin))
    def rows_use() -> dict[str, Any]:
        try:
            return rows.use()
        except LookupError as exc:
            raise HTTPException(status_code=422, detail=str(exc)) from None
        except OSError as exc:
            raise HTTPException(status_code=503, detail=f"the cards cannot be saved: {exc}") from None

    @app.delete("/api/deck/rows/photos", dependencies=list(admin))
    def rows_forget() -> dict[str, Any]:
        return {"removed": rows.forget()}

