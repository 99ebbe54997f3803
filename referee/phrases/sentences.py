"""The referee's own English lines the pages say in their language (``msg_``: their English is the line's
pattern, :data:`referee.phrases.SENTENCES`), and the words the pages put in their slots: a source
(``src_``), a zone (``zone_``), a top card."""

from __future__ import annotations

__all__ = ["PHRASES"]

#: key -> (English, Dutch, German, Luxembourgish).
PHRASES: dict[str, tuple[str, str, str, str]] = {
    "msg_end_of": ("end of {source}", "einde van {source}", "Ende {source}", "Enn vun {source}"),
    "src_file": ("file", "het bestand", "der Datei", "der Datei"),
    "src_stream": ("stream", "de stream", "des Streams", "dem Stream"),
    "src_folder": ("folder", "de map", "des Ordners", "dem Dossier"),
    "src_camera": ("camera", "de camera", "der Kamera", "der Kamera"),
    "src_phone": ("phone", "de telefoon", "des Telefons", "dem Telefon"),
    "msg_stopped": ("stopped", "gestopt", "gestoppt", "gestoppt"),
    "msg_reconnected": ("reconnected", "opnieuw verbonden", "wieder verbunden", "erëm verbonnen"),
    "msg_no_frames": (
        "camera stopped delivering frames",
        "de camera levert geen beelden meer",
        "die Kamera liefert keine Bilder mehr",
        "d’Kamera liwwert keng Biller méi",
    ),
    "msg_did_not_open": (
        "camera {camera} did not open (no such camera, or another program holds it)",
        "camera {camera} ging niet open (geen zulke camera, of een ander programma gebruikt hem)",
        "Kamera {camera} ging nicht auf (keine solche Kamera, oder ein anderes Programm belegt sie)",
        "Kamera {camera} ass net opgaang (keng esou Kamera, oder en anert Programm benotzt se)",
    ),
    "msg_retry": (
        "{reason}; retry in {s}s",
        "{reason}; nieuwe poging over {s} s",
        "{reason}; neuer Versuch in {s} s",
        "{reason}; neie Versuch an {s} s",
    ),
    "msg_not_in_deck": (
        "{card} is not in the {deck} deck (a misread or a foreign card)",
        "{card} zit niet in {deck} (verkeerd gelezen of een vreemde kaart)",
        "{card} ist nicht in {deck} (falsch gelesen oder eine fremde Karte)",
        "{card} ass net an {deck} (falsch gelies oder eng friem Kaart)",
    ),
    "msg_seen_times": (
        "{card} seen {n} times but the {deck} deck holds {m} (a misread or a foreign card)",
        "{card} {n} keer gezien, maar {deck} bevat er {m} (verkeerd gelezen of een vreemde kaart)",
        "{card} {n}-mal gesehen, aber {deck} enthält {m} (falsch gelesen oder eine fremde Karte)",
        "{card} {n} Mol gesinn, mee {deck} huet der {m} (falsch gelies oder eng friem Kaart)",
    ),
    "msg_missed_uno": (
        "{player} has one card left and did not call UNO before {other} acted",
        "{player} heeft nog één kaart en riep geen UNO voordat {other} zette",
        "{player} hat nur noch eine Karte und hat nicht UNO gerufen, bevor {other} dran war",
        "{player} huet nach eng Kaart an huet net UNO geruff, ier {other} drun war",
    ),
    "msg_instead_of_drawing": (
        "{player} played {card} instead of drawing {n} for {top}",
        "{player} speelde {card} in plaats van {n} kaarten te pakken voor {top}",
        "{player} hat {card} gelegt, statt {n} Karten für {top} zu ziehen",
        "{player} huet {card} geluecht, amplaz {n} Kaarte fir {top} ze zéien",
    ),
    "msg_had_to_skip": (
        "{player} had to skip but played {card}",
        "{player} moest overslaan maar speelde {card}",
        "{player} musste aussetzen, hat aber {card} gelegt",
        "{player} hätt misse passen, huet awer {card} geluecht",
    ),
    "msg_not_their_turn": (
        "{player} played {card} but it was {other}'s turn",
        "{player} speelde {card}, maar {other} was aan de beurt",
        "{player} hat {card} gelegt, aber {other} war an der Reihe",
        "{player} huet {card} geluecht, mee {other} war um Tour",
    ),
    "msg_played_on": (
        "{player} played {card} on {top}",
        "{player} speelde {card} op {top}",
        "{player} hat {card} auf {top} gelegt",
        "{player} huet {card} op {top} geluecht",
    ),
    "msg_held_colour": (
        "{player} played {card}: they held {colour} when they played a Wild Draw Four on that colour",
        "{player} speelde {card}: er zat nog {colour} in de hand toen de neem-4 op die kleur kwam",
        "{player} hat {card} gelegt: auf der Hand war noch {colour}, als die Zieh Vier auf diese Farbe kam",
        "{player} huet {card} geluecht: an der Hand war nach {colour}, wéi de Super Joker op déi Faarf koum",
    ),
    "msg_did_not_draw": (
        "{player} did not draw the {n} cards of {top} before play went on",
        "{player} pakte de {n} kaarten van {top} niet voordat het spel verderging",
        "{player} hat die {n} Karten von {top} nicht gezogen, bevor weitergespielt wurde",
        "{player} huet déi {n} Kaarte vun {top} net geholl, ier weidergespillt gouf",
    ),
    "msg_hand_holds": (
        "{player}'s hand holds {colour}: its Wild Draw Four was illegal",
        "de hand van {player} bevat {colour}: de neem-4 was onterecht",
        "die Hand von {player} enthält {colour}: die Zieh Vier war unerlaubt",
        "d’Hand vun {player} huet {colour}: de Super Joker war net erlaabt",
    ),
    "msg_held_no": (
        "{player} held no {colour}: the challenge failed",
        "{player} had geen {colour}: de twijfel faalde",
        "{player} hatte kein {colour}: die Herausforderung ist gescheitert",
        "{player} hat keen {colour}: den Zweiwel war ze Onrecht",
    ),
    "msg_falling_behind": (
        "falling behind: {n} fps processed of {of}, verdicts may be wrong",
        "loopt achter: {n} beelden per seconde verwerkt van {of}, oordelen kunnen fout zijn",
        "hinkt hinterher: {n} Bilder pro Sekunde verarbeitet von {of}, Urteile können falsch sein",
        "hänkt hannendrun: {n} Biller pro Sekonn veraarbecht vun {of}, Uerteeler kéinte falsch sinn",
    ),
    "msg_deck_saved_earlier": (
        "a deck learned earlier is saved in {path}; it is not in use until it is learned again (or a run is started "
        "with --deck {again})",
        "een eerder geleerd spel is bewaard in {path}; het is pas in gebruik als het opnieuw geleerd wordt (of een "
        "run start met --deck {again})",
        "ein früher gelerntes Spiel ist in {path} gespeichert; es ist erst in Gebrauch, wenn es neu gelernt wird "
        "(oder ein Lauf mit --deck {again} startet)",
        "e virdru geléiert Spill ass an {path} gespäichert; et ass eréischt am Gebrauch, wann et nei geléiert gëtt "
        "(oder e Laf mat --deck {again} ufänkt)",
    ),
    "msg_loading_reader": (
        "loading the card reader…",
        "de kaartlezer laden…",
        "der Kartenleser wird geladen…",
        "de Kaartelieser gëtt gelueden…",
    ),
    "msg_reading_photos": (
        "reading the photos of {label} ({i} of {n})",
        "de foto’s van {label} lezen ({i} van {n})",
        "die Fotos von {label} werden gelesen ({i} von {n})",
        "d’Fotoe vun {label} ginn gelies ({i} vun {n})",
    ),
    "msg_fitting_reader": (
        "fitting the deck's reader…",
        "de lezer op het spel afstemmen…",
        "der Leser wird auf das Spiel abgestimmt…",
        "de Lieser gëtt op d’Spill ofgestëmmt…",
    ),
    "msg_learned": (
        "learned {n} labels in {s} s",
        "{n} kaarten geleerd in {s} s",
        "{n} Karten gelernt in {s} s",
        "{n} Kaarte geléiert an {s} s",
    ),
    "msg_learned_skipped": (
        "learned {n} labels in {s} s ({k} photo(s) without a card found skipped)",
        "{n} kaarten geleerd in {s} s ({k} foto(’s) zonder gevonden kaart overgeslagen)",
        "{n} Karten gelernt in {s} s ({k} Foto(s) ohne gefundene Karte übersprungen)",
        "{n} Kaarte geléiert an {s} s ({k} Foto(en) ouni fonnt Kaart iwwersprongen)",
    ),
    "msg_learned_no_pipeline": (
        "{learned}; saved in {path}. No camera pipeline runs here: start `referee run ... --deck {again}` to read "
        "with it",
        "{learned}; bewaard in {path}. Hier draait geen camera: start `referee run ... --deck {again}` om ermee "
        "te lezen",
        "{learned}; gespeichert in {path}. Hier läuft keine Kamera: starte `referee run ... --deck {again}`, um "
        "damit zu lesen",
        "{learned}; gespäichert an {path}. Hei leeft keng Kamera: start `referee run ... --deck {again}` fir "
        "domat ze liesen",
    ),
    "msg_learned_not_read": (
        "{learned} and saved in {path}, but the pipeline cannot read with it: {error}",
        "{learned} en bewaard in {path}, maar de camera kan er niet mee lezen: {error}",
        "{learned} und in {path} gespeichert, aber die Kamera kann damit nicht lesen: {error}",
        "{learned} an an {path} gespäichert, mee d’Kamera kann domat net liesen: {error}",
    ),
    "msg_learned_live": (
        "{learned}; the live pipeline reads with it now",
        "{learned}; de live camera leest er nu mee",
        "{learned}; die Live-Kamera liest jetzt damit",
        "{learned}; d’Live-Kamera liest elo domat",
    ),
    "msg_admin_token": (
        "admin token required: send 'Authorization: Bearer <token>' or 'X-Admin-Token: <token>'",
        "beheerderstoken nodig: vul het token in dat de scheidsrechter bij de start toonde, of open zijn link",
        "Admin-Token nötig: gib das Token ein, das der Schiedsrichter beim Start zeigte, oder öffne seinen Link",
        "Admin-Token néideg: gitt den Token an, deen de Schiedsriichter beim Start gewisen huet, oder maacht säi "
        "Link op",
    ),
    "msg_no_photos_yet": (
        "no photos yet: add a photo of at least one card first",
        "nog geen foto’s: voeg eerst een foto van minstens één kaart toe",
        "noch keine Fotos: füge zuerst ein Foto von mindestens einer Karte hinzu",
        "nach keng Fotoen: setzt fir d’éischt eng Foto vun op mannst enger Kaart derbäi",
    ),
    "msg_learning_already": (
        "a deck is being learned already: wait for it to finish",
        "er wordt al een spel geleerd: wacht tot het klaar is",
        "es wird schon ein Spiel gelernt: warte, bis es fertig ist",
        "et gëtt schonn e Spill geléiert: waart, bis et fäerdeg ass",
    ),
    "msg_no_rows_yet": (
        "no cards found yet: add a photo of the cards laid out in rows first",
        "nog geen kaarten gevonden: voeg eerst een foto van de kaarten in rijen toe",
        "noch keine Karten gefunden: füge zuerst ein Foto der Karten in Reihen hinzu",
        "nach keng Kaarte fonnt: setzt fir d’éischt eng Foto vun de Kaarten a Reien derbäi",
    ),
    "msg_zone_too_small": (
        "the {zone} zone covers {pct}% of the frame: too small (at least {least}%)",
        "de zone van de {zone} beslaat {pct}% van het beeld: te klein (minstens {least}%)",
        "die Zone des {zone} deckt {pct}% des Bildes: zu klein (mindestens {least}%)",
        "d’Zon vum {zone} deckt {pct}% vum Bild: ze kleng (op mannst {least}%)",
    ),
    "msg_zone_one_line": (
        "the {zone} corners lie on one spot or one line: click the {zone}'s four corners",
        "de hoeken van de {zone} liggen op één punt of één lijn: klik de vier hoeken van de {zone} aan",
        "die Ecken des {zone} liegen auf einem Punkt oder einer Linie: klicke die vier Ecken des {zone} an",
        "d’Ecke vum {zone} leien op engem Punkt oder enger Linn: klickt déi véier Ecke vum {zone} un",
    ),
    "msg_zone_not_convex": (
        "the {zone} corners do not make a convex quadrilateral (one lies inside the other three): click the "
        "{zone}'s four outer corners",
        "de hoeken van de {zone} vormen geen bolle vierhoek (één ligt binnen de andere drie): klik de vier "
        "buitenste hoeken van de {zone} aan",
        "die Ecken des {zone} bilden kein konvexes Viereck (eine liegt innerhalb der anderen drei): klicke die "
        "vier äußeren Ecken des {zone} an",
        "d’Ecke vum {zone} maachen kee konvext Véiereck (eng läit bannent deenen aneren dräi): klickt déi véier "
        "baussenzeg Ecke vum {zone} un",
    ),
    "msg_seats_clicked": (
        "click where each of the {players} players sits ({n} clicked), or clear the seats to spread them around "
        "the frame",
        "klik waar elk van de {players} spelers zit ({n} aangeklikt), of wis de plaatsen om ze rond het beeld te "
        "verdelen",
        "klicke, wo jeder der {players} Spieler sitzt ({n} angeklickt), oder leere die Plätze, um sie um das Bild "
        "zu verteilen",
        "klickt, wou all eenzele vun de {players} Spiller sëtzt ({n} ugeklickt), oder maacht d’Plazen eidel, fir "
        "se ronderëm d’Bild ze verdeelen",
    ),
    "msg_same_spot": (
        "{player} and {other} sit at the same spot: click one seat for each player",
        "{player} en {other} zitten op dezelfde plek: klik één plaats per speler aan",
        "{player} und {other} sitzen an derselben Stelle: klicke einen Platz für jeden Spieler an",
        "{player} an {other} sëtzen op der selwechter Plaz: klickt eng Plaz fir all Spiller un",
    ),
    "msg_reload_page": (
        "the clicks are in a {clicked} frame, the camera gives {camera}: reload the page",
        "de klikken horen bij een beeld van {clicked}, de camera geeft {camera}: laad de pagina opnieuw",
        "die Klicks gehören zu einem Bild von {clicked}, die Kamera liefert {camera}: lade die Seite neu",
        "d’Klicke gehéieren zu engem Bild vun {clicked}, d’Kamera gëtt {camera}: lued d’Säit nei",
    ),
    "zone_pile": ("pile", "stapel", "Stapels", "Stapel"),
    "zone_stock": ("stock", "trekstapel", "Ziehstapels", "Zéistapel"),
    "msg_top": (
        "{card} (colour {colour})",
        "{card} (kleur {colour})",
        "{card} (Farbe {colour})",
        "{card} (Faarf {colour})",
    ),
    "msg_empty_pile": ("an empty pile", "een lege stapel", "einen leeren Stapel", "en eidele Stapel"),
    "msg_unnamed": ("unnamed", "niet genoemd", "nicht genannt", "net genannt"),
}
