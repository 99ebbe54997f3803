"""The dashboard's "Teach this deck" page: photos of each card of the deck at the table, then ``learn-deck``.

The command line's ``referee learn-deck PHOTOS --out DECK`` (:mod:`referee.vision.deck`) from the browser:
``/teach`` shows the labels of the session's deck (its rule preset's ``deck``), each taking photos of that
card (``POST /api/deck/photos?label=red_7``, JPEG or PNG, the hand photo's size limits). They are kept
under ``DECK_DIR/photos`` in class-named folders (``red_1of2`` for ``red_1/2``, :func:`face_folder`),
which is the command's PHOTOS layout. ``POST /api/deck/learn`` learns the deck in a background thread
(never on the event loop; the detector and the face classifier are loaded then, once) into
``DECK_DIR/deck``, then hands the folder to ``on_deck`` so the live pipeline reads with it
(:func:`referee.commands.apply_deck`). Without a pipeline (``python -m referee.web``) the deck is still
learned and saved, for ``--deck`` on a later ``referee run``. ``GET /api/deck`` says where it stands:
``idle``, ``learning``, ``ready`` or ``error`` (with a one-line message).

``DECK_DIR`` defaults to a folder beside the match record (``referee.db`` -> ``referee-deck/``), or a
temporary folder for an in-memory record.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import os
import shutil
import tempfile
import threading
from collections.abc import Awaitable, Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import FastAPI, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse

from referee.cards import CLASSIC, Card, CardError, DeckSpec, face_folder, find_deck, folder_label
from referee.web.hands import ImageError, ImageTooLarge, decode_image, decoding
from referee.web.teach_rows import RowsTeacher, register_rows

if TYPE_CHECKING:
    from referee.session import MatchSession
    from referee.vision.classify import FaceClassifier

__all__ = ["DECK_PHOTO_PATH", "DeckTeacher", "ModelLoader", "deck_dir_for", "register_teach"]

log = logging.getLogger(__name__)

#: The upload path (the request guard gives it the photo-sized body limit).
DECK_PHOTO_PATH = "/api/deck/photos"
#: Photos kept per label; more teach little and only fill the disk.
MAX_PHOTOS_PER_LABEL = 24
#: Views per label when learning (``learn_deck``'s default); ``POST /api/deck/learn?views=N`` overrides.
DEFAULT_VIEWS = 160
#: The summary keys the status carries (``faces`` and the classifier's fingerprint stay in deck.json).
SUMMARY_KEYS = ("deck", "labels", "labels_learned", "photos", "photos_per_label", "skipped", "views", "palette",
                "stock_colours_misread",
                "views_read_right_generic", "views_read_right_learned", "seconds")
_PHOTO_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp")  # those learn_deck reads

#: Loads the detector and the face classifier to learn with (``None``: there is none).
ModelLoader = Callable[[], tuple[Any, "FaceClassifier | None"]]


def deck_dir_for(db: Path | str | None) -> Path | None:
    """The folder beside the match record ``db`` that holds the deck's photos and the learned deck
    (``referee.db`` -> ``referee-deck``); ``None`` for an in-memory record (a temporary folder then)."""
    if db is None or str(db) in ("", ":memory:") or str(db).startswith("file:"):
        return None
    path = Path(db)
    return path.with_name(path.stem + "-deck")


def default_models() -> tuple[Any, FaceClassifier | None]:
    """The shipped detector (boxes only matter here) and face classifier."""
    from referee.vision.classify import load_classifier
    from referee.vision.detect import load_detector

    return load_detector(conf=0.25), load_classifier()


def one_line(text: object, limit: int = 400) -> str:
    """``text`` on one line, at most ``limit`` characters."""
    line = " ".join(str(text).split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def parse_label(raw: str) -> str:
    """The contract-1 label ``raw`` names (lower-cased first; ``red_1of2`` is ``red_1/2``); 422 otherwise."""
    text = raw.strip().lower()
    try:
        card = Card.from_label(folder_label(text))
    except CardError:
        raise HTTPException(status_code=422, detail=f"{raw[:40]!r} is not a card label (contract 1: e.g. red_7, "
                            "blue_skip, green_draw2, wild, wild_draw4, red_1/2)") from None
    if card.is_back:
        raise HTTPException(status_code=422, detail="'back' is a face-down card: photograph the faces to teach")
    return card.label


def image_suffix(data: bytes) -> str | None:
    """``.jpg`` or ``.png`` from the file's own signature (``None``: neither)."""
    if data.startswith(b"\xff\xd8\xff"):
        return ".jpg"
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return ".png"
    return None


class Busy(RuntimeError):
    """A deck is being learned already."""


class DeckTeacher:
    """The photos folder, the learning thread and its state; every method is thread-safe."""

    def __init__(self, deck_dir: Path | None, on_deck: Callable[[Path], None] | None, *,
                 models: ModelLoader = default_models, views_per_label: int = DEFAULT_VIEWS) -> None:
        self._dir = deck_dir
        self.on_deck = on_deck
        #: Builds the detector and classifier on the first learning (tests give doubles).
        self.models = models
        self.views_per_label = views_per_label
        self._models: tuple[Any, FaceClassifier] | None = None
        self._lock = threading.Lock()
        self._files = threading.Lock()  # photo folders: one writer at a time
        self._models_lock = threading.Lock()  # the models are loaded once, whoever asks first
        self._thread: threading.Thread | None = None
        self.state = "idle"
        self.message = ""
        self.summary: dict[str, Any] | None = None
        self.in_use = False
        self._progress = (0, 0, "")
        if deck_dir is not None:
            self._remember(deck_dir / "deck")

    # --- folders ---------------------------------------------------------------------------------

    @property
    def deck_dir(self) -> Path:
        """The folder (made on first use; a temporary one when no record file was given)."""
        with self._lock:
            if self._dir is None:
                self._dir = Path(tempfile.mkdtemp(prefix="referee-deck-"))
            return self._dir

    @property
    def photos_dir(self) -> Path:
        return self.deck_dir / "photos"

    @property
    def deck_path(self) -> Path:
        return self.deck_dir / "deck"

    def _remember(self, deck: Path) -> None:
        """A deck learned by an earlier run: its summary is shown, though nothing reads with it yet."""
        try:
            summary = json.loads((deck / "deck.json").read_text())
        except (OSError, ValueError):
            return
        if isinstance(summary, dict):
            self.summary = {k: summary[k] for k in SUMMARY_KEYS if k in summary}
            self.summary["deck"] = str(deck)
            self.message = (f"a deck learned earlier is saved in {deck}; it is not in use until it is learned "
                            f"again (or a run is started with --deck {deck})")

    def counts(self) -> dict[str, int]:
        """Photos per label (contract-1 labels), for every label with at least one."""
        with self._lock:
            folder = None if self._dir is None else self._dir / "photos"
        if folder is None or not folder.is_dir():
            return {}
        out: dict[str, int] = {}
        for sub in sorted(folder.iterdir()):
            try:
                label = Card.from_label(folder_label(sub.name)).label
            except CardError:
                continue
            if sub.is_dir():
                count = sum(1 for p in sub.iterdir() if p.is_file() and p.suffix.lower() in _PHOTO_SUFFIXES)
                if count:
                    out[label] = count
        return out

    def add_photo(self, label: str, data: bytes, suffix: str) -> tuple[int, bool]:
        """Keep one photo of ``label`` (named by its content, so the same photo twice is kept once): the
        label's photo count and whether it was new. :class:`OverflowError` past the per-label cap."""
        folder = self.photos_dir / face_folder(label)
        name = hashlib.sha256(data).hexdigest()[:20] + suffix
        with self._files:
            folder.mkdir(parents=True, exist_ok=True)
            existing = [p for p in folder.iterdir() if p.is_file() and p.suffix.lower() in _PHOTO_SUFFIXES]
            if (folder / name).exists():
                return len(existing), False
            if len(existing) >= MAX_PHOTOS_PER_LABEL:
                raise OverflowError(f"{label} has {len(existing)} photos already (at most {MAX_PHOTOS_PER_LABEL}): "
                                    "forget them first to start again")
            partial = folder / f".{name}.part"
            partial.write_bytes(data)
            os.replace(partial, folder / name)
            return len(existing) + 1, True

    def forget(self, label: str) -> int:
        """Delete ``label``'s photos; how many there were."""
        folder = self.photos_dir / face_folder(label)
        with self._files:
            if not folder.is_dir():
                return 0
            count = sum(1 for p in folder.iterdir() if p.is_file() and p.suffix.lower() in _PHOTO_SUFFIXES)
            shutil.rmtree(folder, ignore_errors=True)
            return count

    # --- learning --------------------------------------------------------------------------------

    def status(self) -> dict[str, Any]:
        """The state, its message, the last summary, progress while learning, and whether a learned
        deck is in use (``live``: whether a pipeline takes it at all)."""
        with self._lock:
            done, total, label = self._progress
            return {
                "state": self.state,
                "message": self.message,
                "summary": dict(self.summary) if self.summary is not None else None,
                "in_use": self.in_use,
                "live": self.on_deck is not None,
                "progress": {"done": done, "total": total, "label": label} if self.state == "learning" else None,
                "deck_path": None if self._dir is None else str(self._dir / "deck"),
            }

    def start(self, views_per_label: int | None = None) -> None:
        """Learn the deck from the photos in a background thread; :class:`Busy` while one is learning."""
        views = views_per_label or self.views_per_label
        with self._lock:
            if self.state == "learning":
                raise Busy("a deck is being learned already: wait for it to finish")
            self.state = "learning"
            self.message = "loading the card reader…"
            self._progress = (0, 0, "")
            self._thread = threading.Thread(target=self._learn, args=(views,), name="learn-deck", daemon=True)
            self._thread.start()

    def join(self, timeout: float | None = None) -> None:
        """Wait for the learning thread (tests, shutdown)."""
        thread = self._thread
        if thread is not None:
            thread.join(timeout)

    def _set(self, state: str, message: str, **changes: Any) -> None:
        with self._lock:
            self.state = state
            self.message = one_line(message)
            for key, value in changes.items():
                setattr(self, key, value)

    def _track(self, items: Iterable[Any]) -> Iterator[Any]:
        """learn_deck's progress: the labels as they are read."""
        listed = list(items)
        for i, item in enumerate(listed):
            label = str(item[0]) if isinstance(item, tuple) and item else ""
            with self._lock:
                self._progress = (i, len(listed), label)
                self.message = f"reading the photos of {label} ({i + 1} of {len(listed)})"
            yield item
        with self._lock:
            self._progress = (len(listed), len(listed), "")
            self.message = "fitting the deck's reader…"

    def loaded_models(self) -> tuple[Any, FaceClassifier]:
        """The detector and the face classifier, loaded on first use (:class:`DeckError` without a classifier)."""
        with self._models_lock:
            return self._loaded()

    def _loaded(self) -> tuple[Any, FaceClassifier]:
        from referee.vision.deck import DeckError

        if self._models is None:
            detector, classifier = self.models()
            if classifier is None:
                raise DeckError("no face classifier at models/classifier.onnx: train one (`referee train-classifier`)")
            self._models = (detector, classifier)
        return self._models

    def _learn(self, views: int) -> None:
        from referee.vision.deck import DeckError, learn_deck
        from referee.vision.detect import DetectorError

        deck = self.deck_path
        try:
            detector, classifier = self._loaded()
            summary = learn_deck(self.photos_dir, deck, detector, classifier, views_per_label=views,
                                 progress=self._track)
        except (DeckError, DetectorError, OSError) as exc:
            self._set("error", str(exc))
            return
        except Exception as exc:  # a thread has no caller to tell: the page shows it
            log.exception("learning the deck failed")
            self._set("error", f"learning failed: {exc.__class__.__name__}: {exc}")
            return
        kept = {k: summary[k] for k in SUMMARY_KEYS if k in summary}
        learned = f"learned {summary.get('labels_learned', 0)} labels in {summary.get('seconds', 0)} s"
        skipped = summary.get("skipped") or []
        if skipped:
            learned += f" ({len(skipped)} photo(s) without a card found skipped)"
        if self.on_deck is None:
            self._set("ready", f"{learned}; saved in {deck}. No camera pipeline runs here: start "
                      f"`referee run ... --deck {deck}` to read with it", summary=kept, in_use=False)
            return
        try:
            self.on_deck(deck)
        except Exception as exc:  # CommandError from apply_deck, or anything else the pipeline says
            log.warning("the learned deck %s is not in use: %s", deck, exc)
            self._set("error", f"{learned} and saved in {deck}, but the pipeline cannot read with it: {exc}",
                      summary=kept, in_use=False)
            return
        log.info("the live pipeline reads with the deck learned in %s", deck)
        self._set("ready", f"{learned}; the live pipeline reads with it now", summary=kept, in_use=True)


def _decoded_size(data: bytes) -> tuple[int, int]:
    """``(height, width)`` of the photo ``data`` once decoded in a decoding slot (proof that it is one)."""
    with decoding():
        height, width = decode_image(data).shape[:2]
    return int(height), int(width)


def session_deck(session: MatchSession) -> DeckSpec:
    """The deck of the session's rule preset (classic when it names none known)."""
    options = session.snapshot().get("options")
    name = options.get("deck") if isinstance(options, dict) else None
    try:
        return find_deck(name) if isinstance(name, str) else CLASSIC
    except CardError:
        return CLASSIC


def register_teach(
    app: FastAPI,
    session: MatchSession,
    *,
    admin: Sequence[Any],
    page: Callable[[], HTMLResponse],
    read_upload: Callable[[Request, int], Awaitable[bytes]],
    max_photo_bytes: int,
    on_deck: Callable[[Path], None] | None = None,
    deck_dir: Path | None = None,
) -> DeckTeacher:
    """Add the teach page and its API to ``app`` (``admin``: the controls' dependencies; ``read_upload``:
    the hand photo's upload reader). The teacher is ``app.state.deck_teacher``."""
    db = getattr(session.store, "path", None)
    teacher = DeckTeacher(deck_dir if deck_dir is not None else deck_dir_for(db), on_deck)
    app.state.deck_teacher = teacher

    @app.get("/teach", response_class=HTMLResponse)
    def teach_page() -> HTMLResponse:
        return page()

    @app.get("/api/deck")
    def deck_status() -> dict[str, Any]:
        deck = session_deck(session)
        counts = teacher.counts()
        return {**teacher.status(), "deck": deck.name, "labels": list(deck.labels()), "photos": counts,
                "total_photos": sum(counts.values())}

    rows = RowsTeacher(teacher)
    app.state.deck_rows = rows
    register_rows(app, rows, admin=admin, labels=lambda: session_deck(session).labels())

    @app.post(DECK_PHOTO_PATH, dependencies=list(admin))
    async def deck_photo(request: Request, label: Annotated[str | None, Query(min_length=1, max_length=40)] = None,
                         layout: bool = False) -> dict[str, Any]:
        """One photo of the card ``label`` (JPEG/PNG body, or multipart field ``image``); with ``layout=true``
        instead, a photo of the deck laid out in rows (:mod:`referee.web.teach_rows`): the cards found in it."""
        if layout:
            return await _rows_photo(await read_upload(request, max_photo_bytes), rows, session)
        if label is None:
            raise HTTPException(status_code=422, detail="say which card the photo shows (?label=red_7), or send "
                                                        "a photo of cards in rows with ?layout=true")
        card = parse_label(label)
        return await _card_photo(await read_upload(request, max_photo_bytes), card, teacher)

    _register_forget_and_learn(app, teacher, admin=admin)
    return teacher

def _register_forget_and_learn(app: FastAPI, teacher: DeckTeacher, *, admin: Sequence[Any]) -> None:
    """Forget a card's photos; learn the deck from the photos kept."""

    @app.delete(DECK_PHOTO_PATH, dependencies=list(admin))
    def forget_photos(label: Annotated[str, Query(min_length=1, max_length=40)]) -> dict[str, Any]:
        card = parse_label(label)
        try:
            removed = teacher.forget(card)
        except OSError as exc:
            raise HTTPException(status_code=503, detail=f"the photos cannot be removed: {one_line(exc)}") from None
        return {"label": card, "count": 0, "removed": removed}

    @app.post("/api/deck/learn", status_code=202, dependencies=list(admin))
    def learn(views: Annotated[int | None, Query(ge=8, le=2000)] = None) -> JSONResponse:
        """Start learning the deck from the photos (202); 409 while learning, 422 without photos."""
        if not teacher.counts():
            raise HTTPException(status_code=422, detail="no photos yet: add a photo of at least one card first")
        try:
            teacher.start(views)
        except Busy as exc:
            raise HTTPException(status_code=409, detail=str(exc)) from None
        return JSONResponse(teacher.status(), status_code=202)



async def _card_photo(data: bytes, card: str, teacher: DeckTeacher) -> dict[str, Any]:
    """Keep the photo ``data`` of ``card`` (decoded once, in a slot, to prove it is a photo)."""
    suffix = image_suffix(data)
    if suffix is None:
        raise HTTPException(status_code=400, detail="not a JPEG or PNG photo: send the card's photo as one")
    try:
        # (checks the size before decoding; only the size is kept from the decoded photo)
        height, width = await asyncio.to_thread(_decoded_size, data)
    except ImageTooLarge as exc:
        raise HTTPException(status_code=413, detail=str(exc)) from None
    except ImageError as exc:
        raise HTTPException(status_code=400, detail=str(exc)) from None
    try:
        count, new = await asyncio.to_thread(teacher.add_photo, card, data, suffix)
    except OverflowError as exc:
        raise HTTPException(status_code=409, detail=str(exc)) from None
    except OSError as exc:
        log.error("deck photo not saved: %s", exc)
        raise HTTPException(status_code=503, detail=f"the photo cannot be saved: {one_line(exc)}") from None
    return {"label": card, "count": count, "new": new, "width": int(width), "height": int(height)}


async def _rows_photo(data: bytes, rows: RowsTeacher, session: MatchSession) -> dict[str, Any]:
    """The cards found in the photo ``data`` of the deck laid out in rows (:mod:`referee.web.teach_rows`)."""
    from referee.vision.deck import DeckError
    from referee.vision.detect import DetectorError

    suffix = image_suffix(data)
    if suffix is None:
        raise HTTPException(status_code=400, detail="not a JPEG or PNG photo: send the photo of the rows as one")
    deck = session_deck(session)

    def add() -> dict[str, Any]:
        with decoding():  # the cards are found in the decoded photo: one at a time, as every photo
            return rows.add(data, suffix, deck)

    try:
        await asyncio.to_thread(_decoded_size, data)
        return await asyncio.to_thread(add)
    except ImageTooLarge as exc:
        raise HTTPException(status_code=413, detail=str(exc)) from None
    except ImageError as exc:
        raise HTTPException(status_code=400, detail=str(exc)) from None
    except OverflowError as exc:
        raise HTTPException(status_code=409, detail=str(exc)) from None
    except (DeckError, DetectorError) as exc:
        raise HTTPException(status_code=503, detail=one_line(exc)) from None
    except OSError as exc:
        log.error("photo of rows not saved: %s", exc)
        raise HTTPException(status_code=503, detail=f"the photo cannot be saved: {one_line(exc)}") from None
