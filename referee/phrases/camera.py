"""The /camera page: a phone as the referee's camera, its link to the referee and why its camera would not
start."""

from __future__ import annotations

__all__ = ["PHRASES"]

#: key -> (English, Dutch, German, Luxembourgish).
PHRASES: dict[str, tuple[str, str, str, str]] = {
    "phone_camera": ("Phone camera", "Telefooncamera", "Handykamera", "Handykamera"),
    "cam_video_aria": (
        "the phone's rear camera, as the referee sees it",
        "de achtercamera van de telefoon, zoals de scheidsrechter hem ziet",
        "die Rückkamera des Handys, wie der Schiedsrichter sie sieht",
        "d’Récksäitekamera vum Handy, sou wéi de Schiedsriichter se gesäit",
    ),
    "cam_starting_state": ("Starting the camera…", "De camera starten…", "Kamera wird gestartet…", "D’Kamera start…"),
    "btn_start_camera": ("Start the camera", "De camera starten", "Kamera starten", "D’Kamera starten"),
    "btn_take_over": ("Use this phone", "Deze telefoon gebruiken", "Dieses Handy benutzen", "Dësen Handy benotzen"),
    "cam_hint": (
        "Hold or prop the phone above the table, looking down at the discard pile, the stock and every player's "
        "side. Keep this page open and the screen on: the referee judges what this phone sees. The dashboard shows "
        "the game.",
        "Houd of zet de telefoon boven de tafel, naar beneden gericht op de aflegstapel, de trekstapel en de kant "
        "van elke speler. Laat deze pagina open en het scherm aan: de scheidsrechter beoordeelt wat deze telefoon "
        "ziet. Het dashboard toont het spel.",
        "Halte oder stelle das Handy über den Tisch, nach unten auf den Ablagestapel, den Ziehstapel und die Seite "
        "jedes Spielers gerichtet. Lass diese Seite offen und den Bildschirm an: der Schiedsrichter beurteilt, was "
        "dieses Handy sieht. Das Dashboard zeigt das Spiel.",
        "Haalt oder stellt den Handy iwwer den Dësch, no ënnen op den Oflagestapel, den Zéistapel an d’Säit vun all "
        "Spiller gekuckt. Loosst dës Säit op an den Ecran un: de Schiedsriichter beurteelt, wat dësen Handy gesäit. "
        "Den Dashboard weist d’Spill.",
    ),
    "cam_token_placeholder": ("from the start line", "uit de startregel", "aus der Startzeile", "aus der Startzeil"),
    "cam_link_starting": ("starting", "starten", "startet", "start"),
    "cam_link_none": ("no camera", "geen camera", "keine Kamera", "keng Kamera"),
    "cam_link_streaming": ("streaming", "verzendt", "sendet", "schéckt"),
    "cam_link_reconnecting": ("reconnecting", "opnieuw verbinden", "verbindet neu", "verbënnt nei"),
    "cam_link_no_token": ("no token", "geen token", "kein Token", "keen Token"),
    "cam_link_replaced": ("replaced", "vervangen", "ersetzt", "ersat"),
    "cam_link_not_taken": ("not taken", "niet gebruikt", "nicht übernommen", "net iwwerholl"),
    "cam_stopped": (
        "The camera stopped.",
        "De camera is gestopt.",
        "Die Kamera hat aufgehört.",
        "D’Kamera huet opgehalen.",
    ),
    "cam_no_camera": ("No camera.", "Geen camera.", "Keine Kamera.", "Keng Kamera."),
    "cam_insecure": (
        "This browser gives the camera only to secure pages, and this one is not: open the https:// link that "
        "`referee run --source phone` printed (scan its QR code), and accept the certificate warning once (README: "
        "Start with a phone).",
        "Deze browser geeft de camera alleen aan beveiligde pagina’s, en deze is dat niet: open de https://-link die "
        "`referee run --source phone` toonde (scan de QR-code) en accepteer de certificaatwaarschuwing één keer "
        "(README: Start with a phone).",
        "Dieser Browser gibt die Kamera nur sicheren Seiten, und diese ist keine: öffne den https://-Link, den "
        "`referee run --source phone` ausgab (scanne den QR-Code), und akzeptiere die Zertifikatswarnung einmal "
        "(README: Start with a phone).",
        "Dëse Browser gëtt d’Kamera nëmme sécheren Säiten, an dës ass keng: maacht den https://-Link op, deen "
        "`referee run --source phone` gewisen huet (scannt de QR-Code), an akzeptéiert d’Zertifikatswarnung eng "
        "Kéier (README: Start with a phone).",
    ),
    "cam_not_allowed": (
        "The camera was not allowed. Allow it for this page (the address bar's camera or lock icon, or the browser's "
        "site settings), then tap Start the camera.",
        "De camera werd niet toegestaan. Sta hem toe voor deze pagina (het camera- of slotje-icoon in de adresbalk, "
        "of de site-instellingen van de browser) en tik dan op De camera starten.",
        "Die Kamera wurde nicht erlaubt. Erlaube sie für diese Seite (das Kamera- oder Schloss-Symbol der "
        "Adressleiste oder die Website-Einstellungen des Browsers), dann tippe auf Kamera starten.",
        "D’Kamera gouf net erlaabt. Erlaabt se fir dës Säit (d’Kamera- oder Schlass-Symbol an der Adressleescht oder "
        "d’Astellunge vum Browser), da tippt op D’Kamera starten.",
    ),
    "cam_no_device": (
        "This device has no camera the browser can use.",
        "Dit apparaat heeft geen camera die de browser kan gebruiken.",
        "Dieses Gerät hat keine Kamera, die der Browser benutzen kann.",
        "Dësen Apparat huet keng Kamera, déi de Browser benotze kann.",
    ),
    "cam_busy": (
        "The camera is busy: close the other app using it, then tap Start the camera.",
        "De camera is bezet: sluit de andere app die hem gebruikt en tik dan op De camera starten.",
        "Die Kamera ist belegt: schließe die andere App, die sie benutzt, dann tippe auf Kamera starten.",
        "D’Kamera ass beset: maacht déi aner App zou, déi se benotzt, da tippt op D’Kamera starten.",
    ),
    "cam_did_not_start": (
        "The camera did not start: {error}",
        "De camera startte niet: {error}",
        "Die Kamera startete nicht: {error}",
        "D’Kamera ass net ugaang: {error}",
    ),
    "cam_refused_frame": (
        "The referee refused a frame: {error}",
        "De scheidsrechter weigerde een beeld: {error}",
        "Der Schiedsrichter hat ein Bild abgelehnt: {error}",
        "De Schiedsriichter huet e Bild refuséiert: {error}",
    ),
    "cam_taken_over": (
        "Another phone took over the camera.",
        "Een andere telefoon nam de camera over.",
        "Ein anderes Handy hat die Kamera übernommen.",
        "En aneren Handy huet d’Kamera iwwerholl.",
    ),
    "cam_reconnecting": (
        "Reconnecting to the referee…",
        "Opnieuw verbinden met de scheidsrechter…",
        "Neu verbinden mit dem Schiedsrichter…",
        "Nei verbanne mam Schiedsriichter…",
    ),
    "cam_streaming": (
        "Streaming to the referee: {got} frames a second arrive ({sent} sent)",
        "Naar de scheidsrechter: {got} beelden per seconde komen aan ({sent} verzonden)",
        "An den Schiedsrichter: {got} Bilder pro Sekunde kommen an ({sent} gesendet)",
        "Un de Schiedsriichter: {got} Biller pro Sekonn kommen un ({sent} geschéckt)",
    ),
}
