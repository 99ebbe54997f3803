"""The /calibrate page: the pile's corners, the stock and the seats clicked on the camera's view, the steps'
hints, how a calibration was made, where it is saved and whether it is in use."""

from __future__ import annotations

__all__ = ["PHRASES"]

#: key -> (English, Dutch, German, Luxembourgish).
PHRASES: dict[str, tuple[str, str, str, str]] = {
    "calibrate_title": (
        "Calibrate the table",
        "De tafel kalibreren",
        "Den Tisch kalibrieren",
        "Den Dësch kalibréieren",
    ),
    "cal_token_placeholder": ("needed to save", "om op te slaan", "zum Speichern", "fir ze späicheren"),
    "camera_view": ("The camera's view", "Het camerabeeld", "Das Kamerabild", "D’Kamerabild"),
    "what_click_sets": ("What a click sets", "Wat een klik vastlegt", "Was ein Klick festlegt", "Wat e Klick fixéiert"),
    "step_pile": ("1 · Pile corners", "1 · Hoeken van de stapel", "1 · Ecken des Stapels", "1 · Ecke vum Stapel"),
    "step_stock": ("2 · Stock zone", "2 · Trekstapel", "2 · Ziehstapel", "2 · Zéistapel"),
    "step_seats": ("3 · Seats", "3 · Plaatsen", "3 · Plätze", "3 · Plazen"),
    "frame_alt": (
        "the camera's view, as it comes (no overlay)",
        "het camerabeeld zoals het binnenkomt (zonder overlay)",
        "das Kamerabild, wie es kommt (ohne Overlay)",
        "d’Kamerabild, sou wéi et kënnt (ouni Overlay)",
    ),
    "cal_marks": ("calibration marks", "kalibratiemarkeringen", "Kalibrierungsmarken", "Kalibréierungsmarken"),
    "no_frame_help": (
        "No camera frame yet. The calibration page clicks on the live camera's view: start the referee on your "
        "camera (`referee run --source 0`) and open this page on its dashboard.",
        "Nog geen camerabeeld. Op deze pagina klik je op het live camerabeeld: start de scheidsrechter met je camera "
        "(`referee run --source 0`) en open deze pagina via zijn dashboard.",
        "Noch kein Kamerabild. Auf dieser Seite klickst du ins Live-Kamerabild: starte den Schiedsrichter mit deiner "
        "Kamera (`referee run --source 0`) und öffne diese Seite über sein Dashboard.",
        "Nach keen Kamerabild. Op dëser Säit klickt Dir an d’Live-Kamerabild: start de Schiedsriichter mat Ärer "
        "Kamera (`referee run --source 0`) a maacht dës Säit iwwer säin Dashboard op.",
    ),
    "live_frame": ("live frame", "live beeld", "Live-Bild", "Live-Bild"),
    "reload_frame": ("Reload the frame", "Beeld opnieuw laden", "Bild neu laden", "Bild nei lueden"),
    "save_calibration": (
        "Save the calibration",
        "De kalibratie opslaan",
        "Die Kalibrierung speichern",
        "D’Kalibréierung späicheren",
    ),
    "calibrate_by_clicking": (
        "Calibrate by clicking",
        "Kalibreren door te klikken",
        "Per Klick kalibrieren",
        "Mat Klicken kalibréieren",
    ),
    "pile_corners": ("Pile corners:", "Hoeken van de stapel:", "Ecken des Stapels:", "Ecke vum Stapel:"),
    "howto_pile": (
        "click the four corners of where the discard pile lies (any order). Drag a corner to move it.",
        "klik de vier hoeken aan van waar de aflegstapel ligt (in elke volgorde). Sleep een hoek om hem te "
        "verplaatsen.",
        "klicke die vier Ecken an, wo der Ablagestapel liegt (beliebige Reihenfolge). Zieh eine Ecke, um sie zu "
        "verschieben.",
        "klickt déi véier Ecken un, wou den Oflagestapel läit (egal wéi eng Reiefolleg). Zitt eng Eck fir se ze "
        "réckelen.",
    ),
    "stock_zone": ("Stock zone:", "Trekstapel:", "Ziehstapel:", "Zéistapel:"),
    "howto_stock": (
        "drag a rectangle over the draw stack (optional: draws are then seen).",
        "sleep een rechthoek over de trekstapel (niet verplicht: dan wordt pakken gezien).",
        "zieh ein Rechteck über den Ziehstapel (freiwillig: dann wird Ziehen gesehen).",
        "zitt e Rechteck iwwer den Zéistapel (fräiwëlleg: da gëtt Zéien gesinn).",
    ),
    "seats_colon": ("Seats:", "Plaatsen:", "Plätze:", "Plazen:"),
    "howto_seats": (
        "click where each player sits, Player 1 first, then clockwise (optional: without, they are spread around the "
        "frame).",
        "klik waar elke speler zit, eerst Speler 1, dan met de klok mee (niet verplicht: anders worden ze rond het "
        "beeld verdeeld).",
        "klicke, wo jeder Spieler sitzt, zuerst Spieler 1, dann im Uhrzeigersinn (freiwillig: sonst werden sie um "
        "das Bild verteilt).",
        "klickt, wou all Spiller sëtzt, fir d’éischt Spiller 1, dann an der Richtung vun der Auer (fräiwëlleg: soss "
        "gi se ronderëm d’Bild verdeelt).",
    ),
    "btn_suggest": (
        "Use the suggested pile zone",
        "De voorgestelde stapelzone gebruiken",
        "Die vorgeschlagene Stapelzone nehmen",
        "Déi proposéiert Stapelzon huelen",
    ),
    "btn_clear_step": ("Clear this step", "Deze stap wissen", "Diesen Schritt leeren", "Dëse Schrëtt eidel maachen"),
    "btn_back_saved": (
        "Back to the saved one",
        "Terug naar de opgeslagen",
        "Zurück zur gespeicherten",
        "Zréck op déi gespäichert",
    ),
    "btn_save_apply": ("Save and apply", "Opslaan en toepassen", "Speichern und anwenden", "Späicheren an uwenden"),
    "markers_note": (
        "The printed markers stay the precise way: `referee calibrate --marker-sheet markers.png`, lay them on the "
        "table, then `referee calibrate --source 0`.",
        "De geprinte markeringen blijven de precieze manier: `referee calibrate --marker-sheet markers.png`, leg ze "
        "op tafel, dan `referee calibrate --source 0`.",
        "Die gedruckten Marker bleiben der genaue Weg: `referee calibrate --marker-sheet markers.png`, leg sie auf "
        "den Tisch, dann `referee calibrate --source 0`.",
        "Déi gedréckte Marker bleiwen de genaue Wee: `referee calibrate --marker-sheet markers.png`, leet se op den "
        "Dësch, dann `referee calibrate --source 0`.",
    ),
    "hint_corner": (
        "Click corner {n} of 4 of the pile zone.",
        "Klik hoek {n} van 4 van de stapelzone aan.",
        "Klicke Ecke {n} von 4 der Stapelzone an.",
        "Klickt Eck {n} vu 4 vun der Stapelzon un.",
    ),
    "hint_pile_set": (
        "Pile zone set. Drag a corner to move it, or go on to the stock zone.",
        "Stapelzone staat. Sleep een hoek om hem te verplaatsen, of ga door naar de trekstapel.",
        "Stapelzone gesetzt. Zieh eine Ecke, um sie zu verschieben, oder weiter zum Ziehstapel.",
        "Stapelzon gesat. Zitt eng Eck fir se ze réckelen, oder gitt weider op den Zéistapel.",
    ),
    "hint_stock_set": (
        "Stock zone set. Drag again to redraw it.",
        "Trekstapel staat. Sleep opnieuw om hem te hertekenen.",
        "Ziehstapel gesetzt. Zieh erneut, um ihn neu zu zeichnen.",
        "Zéistapel gesat. Zitt nach eng Kéier fir en nei ze zeechnen.",
    ),
    "hint_stock_drag": (
        "Drag a rectangle over the draw stack.",
        "Sleep een rechthoek over de trekstapel.",
        "Zieh ein Rechteck über den Ziehstapel.",
        "Zitt e Rechteck iwwer den Zéistapel.",
    ),
    "hint_seat_first": (
        "Click where {player} sits.",
        "Klik waar {player} zit.",
        "Klicke, wo {player} sitzt.",
        "Klickt, wou {player} sëtzt.",
    ),
    "hint_seat_next": (
        "Click where {player} sits (clockwise).",
        "Klik waar {player} zit (met de klok mee).",
        "Klicke, wo {player} sitzt (im Uhrzeigersinn).",
        "Klickt, wou {player} sëtzt (an der Richtung vun der Auer).",
    ),
    "hint_seats_all": (
        "All {n} seats set. Drag one to move it.",
        "Alle {n} plaatsen staan. Sleep er een om te verplaatsen.",
        "Alle {n} Plätze gesetzt. Zieh einen, um ihn zu verschieben.",
        "All {n} Plaze gesat. Zitt eng fir se ze réckelen.",
    ),
    "suggest_from": (
        "from the {n} cards that landed so far (dashed)",
        "uit de {n} kaarten die tot nu toe vielen (gestreept)",
        "aus den {n} bisher gelandeten Karten (gestrichelt)",
        "aus de {n} Kaarten, déi bis elo gelant sinn (gestréchelt)",
    ),
    "suggest_after": (
        "after {min} cards have landed ({n} so far)",
        "nadat {min} kaarten gevallen zijn ({n} tot nu toe)",
        "wenn {min} Karten gelandet sind (bisher {n})",
        "wa {min} Kaarte gelant sinn (bis elo {n})",
    ),
    "cal_none_yet": (
        "none yet: the whole frame is the pile zone",
        "nog geen: het hele beeld is de stapelzone",
        "noch keine: das ganze Bild ist die Stapelzone",
        "nach keng: dat ganzt Bild ass d’Stapelzon",
    ),
    "cal_none": ("none", "geen", "keine", "keng"),
    "cal_method_aruco": (
        "set from the printed markers",
        "gezet met de geprinte markeringen",
        "mit den gedruckten Markern gesetzt",
        "mat de gedréckte Marker gesat",
    ),
    "cal_method_clicked": ("set by clicking", "gezet door te klikken", "per Klick gesetzt", "mat Klicke gesat"),
    "cal_method_synthetic": (
        "the demo footage's own",
        "die van de demobeelden",
        "die der Demo-Aufnahmen",
        "déi vun den Demo-Biller",
    ),
    "cal_method_found": (
        "found by the referee itself",
        "door de scheidsrechter zelf gevonden",
        "vom Schiedsrichter selbst gefunden",
        "vum Schiedsriichter selwer fonnt",
    ),
    "cal_method_other": ("saved earlier", "eerder opgeslagen", "früher gespeichert", "virdru gespäichert"),
    "cal_in_use": (
        "In use: {what}. Saved to {file}",
        "In gebruik: {what}. Opgeslagen in {file}",
        "In Gebrauch: {what}. Gespeichert in {file}",
        "Am Gebrauch: {what}. Gespäichert an {file}",
    ),
    "cal_not_written": (
        "(not yet written)",
        "(nog niet geschreven)",
        "(noch nicht geschrieben)",
        "(nach net geschriwwen)",
    ),
    "cal_applied_live": (
        "; applied to the live camera at once.",
        "; meteen toegepast op de live camera.",
        "; sofort auf die Live-Kamera angewandt.",
        "; direkt op d’Live-Kamera ugewannt.",
    ),
    "cal_next_run": (
        "; no camera pipeline runs here: used from the next run.",
        "; hier draait geen camera: gebruikt vanaf de volgende run.",
        "; hier läuft keine Kamera: ab dem nächsten Lauf benutzt.",
        "; hei leeft keng Kamera: vum nächste Laf un benotzt.",
    ),
    "cal_file_error": (
        "The file there cannot be read: {error}",
        "Het bestand daar is niet leesbaar: {error}",
        "Die Datei dort ist nicht lesbar: {error}",
        "D’Datei do ass net liesbar: {error}",
    ),
    "cal_temp_folder": (
        "a temporary folder (this server keeps its record in memory)",
        "een tijdelijke map (deze server houdt zijn verslag in het geheugen)",
        "einen temporären Ordner (dieser Server hält sein Protokoll im Speicher)",
        "en temporären Dossier (dëse Server hält säi Protokoll am Späicher)",
    ),
    "frame_size": ("{w} × {h} px", "{w} × {h} px", "{w} × {h} px", "{w} × {h} px"),
    "no_frame_yet": (
        "No camera frame to calibrate on yet.",
        "Nog geen camerabeeld om op te kalibreren.",
        "Noch kein Kamerabild zum Kalibrieren.",
        "Nach keen Kamerabild fir ze kalibréieren.",
    ),
    "corners_first": (
        "Click the pile zone's 4 corners first ({n} so far).",
        "Klik eerst de 4 hoeken van de stapelzone aan ({n} tot nu toe).",
        "Klicke zuerst die 4 Ecken der Stapelzone an (bisher {n}).",
        "Klickt fir d’éischt déi 4 Ecke vun der Stapelzon un (bis elo {n}).",
    ),
    "seats_first": (
        "Click where each of the {players} players sits ({n} so far), or clear the seats.",
        "Klik waar elk van de {players} spelers zit ({n} tot nu toe), of wis de plaatsen.",
        "Klicke, wo jeder der {players} Spieler sitzt (bisher {n}), oder leere die Plätze.",
        "Klickt, wou all eenzele vun de {players} Spiller sëtzt (bis elo {n}), oder maacht d’Plazen eidel.",
    ),
    "saved_to": (
        "Saved to {file} ✓. Next time: {command}",
        "Opgeslagen in {file} ✓. Volgende keer: {command}",
        "Gespeichert in {file} ✓. Nächstes Mal: {command}",
        "Gespäichert an {file} ✓. Déi nächste Kéier: {command}",
    ),
    "saved_applied": (
        "Saved to {file} and applied to the live camera ✓. Next time: {command}",
        "Opgeslagen in {file} en toegepast op de live camera ✓. Volgende keer: {command}",
        "Gespeichert in {file} und auf die Live-Kamera angewandt ✓. Nächstes Mal: {command}",
        "Gespäichert an {file} an op d’Live-Kamera ugewannt ✓. Déi nächste Kéier: {command}",
    ),
    "cal_note": ("Note: {warnings}", "Let op: {warnings}", "Hinweis: {warnings}", "Opgepasst: {warnings}"),
    "not_saved": (
        "Not saved: {error}",
        "Niet opgeslagen: {error}",
        "Nicht gespeichert: {error}",
        "Net gespäichert: {error}",
    ),
    "suggested_taken": (
        "Suggested pile zone taken: Save and apply to use it.",
        "Voorgestelde stapelzone genomen: Opslaan en toepassen om hem te gebruiken.",
        "Vorgeschlagene Stapelzone übernommen: Speichern und anwenden, um sie zu benutzen.",
        "Proposéiert Stapelzon iwwerholl: Späicheren an uwenden fir se ze benotzen.",
    ),
    "stock_tag": ("stock", "trekstapel", "Ziehstapel", "Zéistapel"),
    "seat_mark": ("P{n}", "S{n}", "S{n}", "S{n}"),
}
