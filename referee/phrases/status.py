"""The live camera on the dashboard's status line: the connection, the source's state, what is being judged,
frames judged, dropped, broken or late, and the phone's link."""

from __future__ import annotations

__all__ = ["PHRASES"]

#: key -> (English, Dutch, German, Luxembourgish).
PHRASES: dict[str, tuple[str, str, str, str]] = {
    "reconnecting": ("reconnecting", "opnieuw verbinden", "verbinde neu", "nei verbannen"),
    "footage_ended": ("footage ended", "beelden afgelopen", "Aufnahme zu Ende", "Opnam eriwwer"),
    "camera_stopped": ("camera stopped", "camera gestopt", "Kamera gestoppt", "Kamera gestoppt"),
    "camera_failed": ("camera failed", "camera werkt niet", "Kamera ausgefallen", "Kamera ausgefall"),
    "camera_reconnecting": (
        "camera reconnecting",
        "camera verbindt opnieuw",
        "Kamera verbindet neu",
        "Kamera verbënnt nei",
    ),
    "camera_starting": ("camera starting", "camera start", "Kamera startet", "Kamera start"),
    "judging": (
        "judging {n} frames a second",
        "beoordeelt {n} beelden per seconde",
        "bewertet {n} Bilder pro Sekunde",
        "beurteelt {n} Biller pro Sekonn",
    ),
    "judging_of": (
        "judging {n} frames a second of {of}",
        "beoordeelt {n} van {of} beelden per seconde",
        "bewertet {n} von {of} Bildern pro Sekunde",
        "beurteelt {n} vun {of} Biller pro Sekonn",
    ),
    "frames_judged": ("{n} frames judged", "{n} beelden beoordeeld", "{n} Bilder bewertet", "{n} Biller beurteelt"),
    "observations_n": ("{n} observations", "{n} waarnemingen", "{n} Beobachtungen", "{n} Observatiounen"),
    "dropped_n": (
        "{n} frames skipped",
        "{n} beelden overgeslagen",
        "{n} Bilder übersprungen",
        "{n} Biller iwwersprongen",
    ),
    "corrupt_n": ("{n} broken frames", "{n} beschadigde beelden", "{n} beschädigte Bilder", "{n} futti Biller"),
    "reconnects_n": ("{n} reconnects", "{n} keer opnieuw verbonden", "{n}-mal neu verbunden", "{n} Mol nei verbonnen"),
    "late_n": (
        "{n} s behind the footage",
        "{n} s achter op de beelden",
        "{n} s hinter der Aufnahme",
        "{n} s hannert der Opnam",
    ),
    "source_is": ("source {source}", "bron {source}", "Quelle {source}", "Quell {source}"),
    "phone_connected": (
        "phone: {fps} frames a second",
        "telefoon: {fps} beelden per seconde",
        "Handy: {fps} Bilder pro Sekunde",
        "Handy: {fps} Biller pro Sekonn",
    ),
    "phone_waiting": (
        "phone: waiting for it (open its link on the phone)",
        "telefoon: wacht erop (open de link op de telefoon)",
        "Handy: wartet darauf (den Link auf dem Handy öffnen)",
        "Handy: waart drop (de Link um Handy opmaachen)",
    ),
    "phone_stalled": (
        "phone: connected, but no frames come",
        "telefoon: verbonden, maar er komen geen beelden",
        "Handy: verbunden, aber es kommen keine Bilder",
        "Handy: verbonnen, mä et kommen keng Biller",
    ),
    "phone_disconnected": (
        "phone: gone, waiting for it to come back",
        "telefoon: weg, wacht tot hij terugkomt",
        "Handy: weg, wartet, bis es zurückkommt",
        "Handy: fort, waart bis et erëm do ass",
    ),
    "phone_closed": ("phone: off", "telefoon: uit", "Handy: aus", "Handy: aus"),
}
