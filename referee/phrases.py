"""Every word a person reads on the pages, in English, Dutch, German and Luxembourgish: one catalogue.

Each phrase is one entry, its four languages side by side (en, nl, de, lb), so a phrase cannot be added in one
language and forgotten in another. The pages get them from ``GET /api/words`` (:func:`referee.words.catalog`
puts :func:`phrases` under ``strings``); Python fills them with :func:`phrase`. ``{name}`` is a value filled in,
``[x]`` a key shown as a keyboard key, `` `x` `` a command shown as code.

Sentences the referee writes in English (an alert's detail line, the camera's state) have a ``msg_`` entry
whose English is the line's pattern: the pages match the line against it and say it in their language
(:data:`SENTENCES`). Pure: no I/O, so the referee core may use it.

>>> phrase("turn_round_over", "nl"), phrase("photos_many", "de", n=3)
('Ronde voorbij', '3 Fotos')
"""

from __future__ import annotations

__all__ = ["PHRASES", "SENTENCES", "phrase", "phrases"]

#: The order of each entry's four texts.
_ORDER: tuple[str, ...] = ("en", "nl", "de", "lb")

#: key -> (English, Dutch, German, Luxembourgish).
PHRASES: dict[str, tuple[str, str, str, str]] = {
    "title": ("UNO referee", "UNO-scheidsrechter", "UNO-Schiedsrichter", "UNO-Schiedsriichter"),
    "overlay_title": (
        "UNO referee overlay",
        "UNO-scheidsrechter overlay",
        "UNO-Schiedsrichter Overlay",
        "UNO-Schiedsriichter Overlay",
    ),
    "connecting": ("connecting…", "verbinden…", "verbinde…", "verbannen…"),
    "live": ("live", "live", "live", "live"),
    "offline": ("offline", "offline", "offline", "offline"),
    "conn_title": (
        "live connection to the referee",
        "live verbinding met de scheidsrechter",
        "Live-Verbindung zum Schiedsrichter",
        "Live-Verbindung mam Schiedsriichter",
    ),
    "admin_token": ("Admin token", "Beheerderstoken", "Admin-Token", "Admin-Token"),
    "token_placeholder": ("needed for controls", "voor de bediening", "für die Steuerung", "fir d’Steierung"),
    "save": ("Save", "Opslaan", "Speichern", "Späicheren"),
    "token_saved": (
        "Token saved in this browser.",
        "Token opgeslagen in deze browser.",
        "Token in diesem Browser gespeichert.",
        "Token an dësem Browser gespäichert.",
    ),
    "live_view": ("Live view", "Live beeld", "Live-Bild", "Live-Bild"),
    "live_alt": (
        "live camera view of the discard pile",
        "live camerabeeld van de aflegstapel",
        "Live-Kamerabild des Ablegestapels",
        "Live-Kamerabild vum Koup",
    ),
    "top_card": ("top card", "bovenste kaart", "oberste Karte", "iewescht Kaart"),
    "colour": ("Colour", "Kleur", "Farbe", "Faarf"),
    "direction": ("Direction", "Richting", "Richtung", "Richtung"),
    "pending": ("Pending", "Openstaand", "Offen", "Op"),
    "seats": ("players", "spelers", "Spieler", "Spiller"),
    "alerts": ("Alerts", "Meldingen", "Meldungen", "Meldungen"),
    "no_alerts": (
        "No alerts yet: every play so far is fine.",
        "Nog geen meldingen: elke zet was tot nu toe in orde.",
        "Noch keine Meldungen: bisher war jeder Zug in Ordnung.",
        "Nach keng Meldungen: bis elo war all Zuch an der Rei.",
    ),
    "controls": ("Controls", "Bediening", "Steuerung", "Steierung"),
    "shortcuts_title": ("keyboard shortcuts (?)", "sneltoetsen (?)", "Tastenkürzel (?)", "Tastekierzel (?)"),
    "acting": ("Acting for", "Namens", "Handelt für", "Handelt fir"),
    "acting_keys": (
        "(keys [1]–[9] pick a player, [0] follows the turn)",
        "(toetsen [1]–[9] kiezen een speler, [0] volgt de beurt)",
        "(Tasten [1]–[9] wählen einen Spieler, [0] folgt dem Zug)",
        "(Tasten [1]–[9] wielen e Spiller, [0] follegt dem Tour)",
    ),
    "wild_colour": ("Wild colour", "Kleur van de keuzekaart", "Farbe der Farbenwahlkarte", "Faarf vum Joker"),
    "btn_uno": ("UNO! [u]", "UNO! [u]", "UNO! [u]", "UNO! [u]"),
    "draw_count": ("Draw", "Aantal", "Anzahl", "Zuel"),
    "btn_draw": ("Draw [d]", "Pakken [d]", "Ziehen [d]", "Zéien [d]"),
    "btn_pass": ("Pass [p]", "Passen [p]", "Passen [p]", "Passen [p]"),
    "btn_challenge": (
        "Challenge Wild Draw Four [c]",
        "Neem-4 betwijfelen [c]",
        "Zieh Vier anzweifeln [c]",
        "Un der +4 zweiwelen [c]",
    ),
    "card_field": ("Card", "Kaart", "Karte", "Kaart"),
    "card_placeholder": (
        "e.g. red_7, wild_draw4",
        "bv. red_7, wild_draw4",
        "z. B. red_7, wild_draw4",
        "z. B. red_7, wild_draw4",
    ),
    "btn_play": ("Play [k]", "Spelen [k]", "Legen [k]", "Spillen [k]"),
    "btn_correct": ("Correct misread [m]", "Verkeerd gelezen [m]", "Falsch gelesen [m]", "Falsch gelies [m]"),
    "correct_title": (
        "replace the card of the last play",
        "vervang de kaart van de laatste zet",
        "die Karte des letzten Zugs ersetzen",
        "d’Kaart vum leschten Zuch ersetzen",
    ),
    "hand_field": ("Hand", "Hand", "Hand", "Hand"),
    "hand_placeholder": ("e.g. blue_3 wild", "bv. blue_3 wild", "z. B. blue_3 wild", "z. B. blue_3 wild"),
    "btn_reveal": ("Reveal [h]", "Tonen [h]", "Zeigen [h]", "Weisen [h]"),
    "btn_undo": ("Undo last [z]", "Laatste ongedaan maken [z]", "Letztes rückgängig [z]", "Lescht réckgängeg [z]"),
    "help_title": ("Keyboard shortcuts", "Sneltoetsen", "Tastenkürzel", "Tastekierzel"),
    "help_seat": (
        "act for that player / follow the turn",
        "namens die speler handelen / de beurt volgen",
        "für diesen Spieler handeln / dem Zug folgen",
        "fir dee Spiller handelen / dem Tour nogoen",
    ),
    "help_colour": (
        "name the wild's colour",
        "de kleur van de keuzekaart noemen",
        "die Farbe der Farbenwahlkarte nennen",
        "d’Faarf vum Joker nennen",
    ),
    "help_uno": ("UNO call", "UNO roepen", "UNO rufen", "UNO ruffen"),
    "help_draw": (
        "draw the count shown",
        "het getoonde aantal pakken",
        "die angezeigte Anzahl ziehen",
        "déi gewisen Zuel zéien",
    ),
    "help_pass": ("pass", "passen", "passen", "passen"),
    "help_challenge": (
        "challenge a Wild Draw Four",
        "een neem-4 betwijfelen",
        "eine Zieh Vier anzweifeln",
        "un enger +4 zweiwelen",
    ),
    "help_play": (
        "type a card to play (Enter plays it)",
        "een kaart typen om te spelen (Enter speelt hem)",
        "eine Karte zum Legen tippen (Enter legt sie)",
        "eng Kaart tippe fir ze spillen (Enter spillt se)",
    ),
    "help_correct": (
        "correct the last play's card with the card typed",
        "de kaart van de laatste zet vervangen door de getypte kaart",
        "die Karte des letzten Zugs durch die getippte ersetzen",
        "d’Kaart vum leschten Zuch duerch déi getippten ersetzen",
    ),
    "help_reveal": (
        "type a hand to reveal (Enter reveals it)",
        "een hand typen om te tonen (Enter toont hem)",
        "eine Hand zum Zeigen tippen (Enter zeigt sie)",
        "eng Hand tippe fir se ze weisen (Enter weist se)",
    ),
    "help_undo": (
        "undo the last observation",
        "de laatste waarneming ongedaan maken",
        "die letzte Beobachtung rückgängig machen",
        "déi lescht Observatioun réckgängeg maachen",
    ),
    "help_esc": ("leave a text field", "een tekstveld verlaten", "ein Textfeld verlassen", "en Textfeld verloossen"),
    "scoreboard": ("Score board", "Scorebord", "Punktestand", "Punktestand"),
    "score_round": ("Score the round", "De ronde tellen", "Die Runde werten", "D’Ronn zielen"),
    "score_help": (
        "Type each hand left at the end of the round, or propose it from a photo of the hand laid out on the table "
        "(check it before scoring); the referee adds them up.",
        "Typ elke hand die aan het eind van de ronde over is, of laat hem voorstellen uit een foto van de hand op "
        "tafel (controleer hem vóór het tellen); de scheidsrechter telt ze op.",
        "Tippe jede Hand, die am Ende der Runde übrig ist, oder lass sie aus einem Foto der auf den Tisch gelegten "
        "Hand vorschlagen (vor dem Werten prüfen); der Schiedsrichter zählt zusammen.",
        "Tippt all Hand, déi um Enn vun der Ronn iwwreg ass, oder loosst se vun enger Foto vun der Hand um Dësch "
        "proposéieren (kuckt se no, ier Dir zielt); de Schiedsriichter zielt se zesummen.",
    ),
    "round": ("Round", "Ronde", "Runde", "Ronn"),
    "winner": ("Winner", "Winnaar", "Gewinner", "Gewënner"),
    "points": ("Points", "Punten", "Punkte", "Punkten"),
    "match": ("Match", "Partij", "Spiel", "Spill"),
    "to_target": ("to {n}", "tot {n}", "bis {n}", "bis {n}"),
    "hands_missing": ("hands?", "handen?", "Hände?", "Hänn?"),
    "cards_left": ("cards left", "overgebleven kaarten", "übrige Karten", "iwwreg Kaarten"),
    "from_photo": ("From photo", "Uit foto", "Aus Foto", "Vun enger Foto"),
    "from_photo_title": (
        "propose this hand from a photo of it (check it, then score)",
        "stel deze hand voor uit een foto ervan (controleer, tel dan)",
        "diese Hand aus einem Foto vorschlagen (prüfen, dann werten)",
        "dës Hand vun enger Foto proposéieren (nokucken, dann zielen)",
    ),
    "score_hands": ("Score the hands", "Handen tellen", "Hände werten", "Hänn zielen"),
    "setup": ("Game setup", "Spelinstellingen", "Spiel einrichten", "Spill astellen"),
    "players": ("Players", "Spelers", "Spieler", "Spiller"),
    "dealer_field": ("Dealer", "Deler", "Geber", "Deeler"),
    "rules": ("Rules", "Regels", "Regeln", "Reegelen"),
    "language": ("Language", "Taal", "Sprache", "Sprooch"),
    "target": ("Target", "Doel", "Ziel", "Zil"),
    "target_placeholder": ("preset", "standaard", "Vorgabe", "Standard"),
    "hand_size": ("Hand size", "Kaarten per hand", "Handkarten", "Kaarten an der Hand"),
    "stack2": ("stack +2", "+2 stapelen", "+2 stapeln", "+2 stackelen"),
    "stack4": ("stack +4", "+4 stapelen", "+4 stapeln", "+4 stackelen"),
    "jump_in": ("jump-in", "inspringen", "Reinwerfen", "dertëschent spillen"),
    "seven_zero": ("seven-zero", "zeven-nul", "Sieben-Null", "Siwen-Null"),
    "more": ("More", "Meer", "Mehr", "Méi"),
    "more_placeholder": ("name=value, …", "naam=waarde, …", "Name=Wert, …", "Numm=Wäert, …"),
    "new_match": ("New match", "Nieuwe partij", "Neues Spiel", "Neit Spill"),
    "next_round": ("Next round", "Volgende ronde", "Nächste Runde", "Nächst Ronn"),
    "rename": ("Rename players", "Namen wijzigen", "Spieler umbenennen", "Spiller ëmbenennen"),
    "download_log": ("Download log", "Log downloaden", "Protokoll laden", "Protokoll eroflueden"),
    "teach": ("Teach this deck", "Dit spel aanleren", "Dieses Deck anlernen", "Dëst Spill léieren"),
    "teach_title": (
        "teach the reader your own deck from photos of its cards",
        "leer de lezer je eigen kaarten aan met foto's ervan",
        "dem Leser das eigene Deck mit Fotos seiner Karten beibringen",
        "dem Lieser Äert eegent Spill mat Fotoe vu senge Kaarte bäibréngen",
    ),
    "current_rules": ("(current)", "(huidige)", "(aktuell)", "(aktuell)"),
    "name_placeholder": ("{player}: name", "{player}: naam", "{player}: Name", "{player}: Numm"),
    "names_colour": ("{who} names {colour}", "{who} kiest {colour}", "{who} wählt {colour}", "{who} wielt {colour}"),
    "calls_uno": ("{who} calls UNO", "{who} roept UNO", "{who} ruft UNO", "{who} rifft UNO"),
    "draws": ("{who} draws {n}", "{who} pakt {n}", "{who} zieht {n}", "{who} zitt {n}"),
    "passes": ("{who} passes", "{who} past", "{who} passt", "{who} passt"),
    "challenges": ("{who} challenges", "{who} betwijfelt", "{who} zweifelt an", "{who} zweiwelt"),
    "plays": ("{who} plays {card}", "{who} speelt {card}", "{who} legt {card}", "{who} spillt {card}"),
    "type_right_card": (
        "Type the right card, then press m again.",
        "Typ de juiste kaart en druk nog eens op m.",
        "Tippe die richtige Karte, dann noch einmal m.",
        "Tippt déi richteg Kaart, dann nach eng Kéier m.",
    ),
    "corrected": (
        "Last play corrected to {card} ✓",
        "Laatste zet verbeterd naar {card} ✓",
        "Letzter Zug korrigiert auf {card} ✓",
        "Leschten Zuch op {card} korrigéiert ✓",
    ),
    "correct_failed": ("Correct", "Verbeteren", "Korrigieren", "Korrigéieren"),
    "shows": ("{who} shows {n} cards", "{who} toont {n} kaarten", "{who} zeigt {n} Karten", "{who} weist {n} Kaarten"),
    "undone": (
        "Last observation undone ✓",
        "Laatste waarneming ongedaan gemaakt ✓",
        "Letzte Beobachtung rückgängig gemacht ✓",
        "Lescht Observatioun réckgängeg gemaach ✓",
    ),
    "undo_failed": ("Undo", "Ongedaan maken", "Rückgängig", "Réckgängeg"),
    "turn_suffix": ("(turn)", "(beurt)", "(am Zug)", "(um Tour)"),
    "clockwise": ("↻ clockwise", "↻ met de klok mee", "↻ im Uhrzeigersinn", "↻ ewéi d’Auer"),
    "counter_clockwise": ("↺ counter-clockwise", "↺ tegen de klok in", "↺ gegen den Uhrzeigersinn", "↺ géint d’Auer"),
    "to_take": ("{n} cards to take", "{n} kaarten te pakken", "{n} Karten zu ziehen", "{n} Kaarten ze zéien"),
    "skip": ("skip", "overslaan", "aussetzen", "passen"),
    "round_over": ("round over", "ronde voorbij", "Runde vorbei", "Ronn eriwwer"),
    "match_over": (
        "match over: {who} wins",
        "partij voorbij: {who} wint",
        "Spiel vorbei: {who} gewinnt",
        "Spill eriwwer: {who} gewënnt",
    ),
    "cards_unknown": ("? cards", "? kaarten", "? Karten", "? Kaarten"),
    "card_one": ("1 card", "1 kaart", "1 Karte", "1 Kaart"),
    "cards_many": ("{n} cards", "{n} kaarten", "{n} Karten", "{n} Kaarten"),
    "pts": ("{n} pts", "{n} ptn", "{n} Pkt.", "{n} Pkt."),
    "dealer": ("dealer", "deler", "Geber", "Deeler"),
    "key_n": ("key {n}", "toets {n}", "Taste {n}", "Tast {n}"),
    "match_info": ("Match {id}", "Partij {id}", "Spiel {id}", "Spill {id}"),
    "round_n": ("round {n}", "ronde {n}", "Runde {n}", "Ronn {n}"),
    "pipeline": ("pipeline", "camera", "Kamera", "Kamera"),
    "no_camera": (
        "pipeline: no camera attached",
        "geen camera aangesloten",
        "keine Kamera angeschlossen",
        "keng Kamera ugeschloss",
    ),
    "may_be_wrong": ("(may be wrong)", "(misschien onjuist)", "(vielleicht falsch)", "(vläicht falsch)"),
    "reading_photo": (
        "{who}: reading the photo…",
        "{who}: de foto wordt gelezen…",
        "{who}: Foto wird gelesen…",
        "{who}: d’Foto gëtt gelies…",
    ),
    "proposed": (
        "{who}: {n} card(s) proposed from the photo",
        "{who}: {n} kaart(en) voorgesteld uit de foto",
        "{who}: {n} Karte(n) aus dem Foto vorgeschlagen",
        "{who}: {n} Kaart(en) vun der Foto proposéiert",
    ),
    "unsure_cards": ("(unsure: {cards})", "(onzeker: {cards})", "(unsicher: {cards})", "(onsécher: {cards})"),
    "check_then_score": (
        "Check them, then score the hands.",
        "Controleer ze en tel dan de handen.",
        "Prüfe sie, dann werte die Hände.",
        "Kuckt se no, dann zielt d’Hänn.",
    ),
    "photo_failed": ("{who} photo", "{who} foto", "{who} Foto", "{who} Foto"),
    "scored": (
        "Hands scored for {n} seat(s) ✓",
        "Handen geteld voor {n} speler(s) ✓",
        "Hände gewertet für {n} Spieler ✓",
        "Hänn gezielt fir {n} Spiller ✓",
    ),
    "type_hands_first": (
        "Type the cards left in each hand first.",
        "Typ eerst de overgebleven kaarten van elke hand.",
        "Tippe zuerst die übrigen Karten jeder Hand.",
        "Tippt als éischt déi iwwreg Kaarte vun all Hand.",
    ),
    "match_started": (
        "New match started ✓",
        "Nieuwe partij gestart ✓",
        "Neues Spiel gestartet ✓",
        "Neit Spill ugefaangen ✓",
    ),
    "round_started": (
        "Next round started ✓",
        "Volgende ronde gestart ✓",
        "Nächste Runde gestartet ✓",
        "Nächst Ronn ugefaangen ✓",
    ),
    "setup_failed": ("Setup", "Instellingen", "Einrichten", "Astellen"),
    "renamed": ("Players renamed ✓", "Namen gewijzigd ✓", "Spieler umbenannt ✓", "Spiller ëmbenannt ✓"),
    "rename_failed": ("Rename", "Namen wijzigen", "Umbenennen", "Ëmbenennen"),
    "log_failed": ("Log", "Log", "Protokoll", "Protokoll"),
    "rule_sheet": ("Rule sheet", "Spelregels", "Spielregeln", "Spillreegelen"),
    "in_english": ("In English", "In het Engels", "Auf Englisch", "Op Englesch"),
    "sheet_silent": (
        "The rule sheet says nothing about this.",
        "De spelregels zeggen hier niets over.",
        "Die Spielregeln sagen dazu nichts.",
        "D’Spillreegele soen näischt doriwwer.",
    ),
    "log_line": (
        "the referee's log line",
        "de logregel van de scheidsrechter",
        "die Protokollzeile des Schiedsrichters",
        "d’Protokollzeil vum Schiedsriichter",
    ),
    "turn": ("Turn:", "Beurt:", "Am Zug:", "Um Tour:"),
    "to_draw": ("{n} to draw", "{n} te pakken", "{n} zu ziehen", "{n} ze zéien"),
    "last_alerts": ("last alerts", "laatste meldingen", "letzte Meldungen", "lescht Meldungen"),
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
    "hall_title": (
        "UNO referee hall",
        "UNO-scheidsrechter zaal",
        "UNO-Schiedsrichter Saal",
        "UNO-Schiedsriichter Sall",
    ),
    "hall": ("UNO hall", "UNO-zaal", "UNO-Saal", "UNO-Sall"),
    "tables": ("Tables", "Tafels", "Tische", "Dëscher"),
    "no_tables": (
        "No table has published yet.",
        "Nog geen tafel heeft iets doorgegeven.",
        "Noch kein Tisch hat etwas gesendet.",
        "Nach keen Dësch huet eppes geschéckt.",
    ),
    "table_one": ("1 table", "1 tafel", "1 Tisch", "1 Dësch"),
    "tables_many": ("{n} tables", "{n} tafels", "{n} Tische", "{n} Dëscher"),
    "broker": ("broker {url}", "broker {url}", "Broker {url}", "Broker {url}"),
    "standings": ("Standings", "Stand", "Tabelle", "Classement"),
    "player": ("Player", "Speler", "Spieler", "Spiller"),
    "table": ("Table", "Tafel", "Tisch", "Dësch"),
    "score": ("Score", "Score", "Punkte", "Punkten"),
    "rounds_won": ("Rounds", "Rondes", "Runden", "Ronnen"),
    "match_done": ("match over", "partij voorbij", "Spiel vorbei", "Spill eriwwer"),
    # -- the camera view, /teach, /calibrate, /camera, the referee's own lines ----------------------------------
    "home_title": (
        "back to the dashboard",
        "terug naar het dashboard",
        "zurück zum Dashboard",
        "zréck op den Dashboard",
    ),
    "cannot_reach": (
        "Cannot reach the referee: {error}",
        "De scheidsrechter is niet bereikbaar: {error}",
        "Der Schiedsrichter ist nicht erreichbar: {error}",
        "De Schiedsriichter ass net ze erreechen: {error}",
    ),
    "photo_one": ("1 photo", "1 foto", "1 Foto", "1 Foto"),
    "photos_many": ("{n} photos", "{n} foto’s", "{n} Fotos", "{n} Fotoen"),
    "turn_round_over": ("Round over", "Ronde voorbij", "Runde vorbei", "Ronn eriwwer"),
    "preset_official": ("Official rules", "Officiële regels", "Offizielle Regeln", "Offiziell Reegelen"),
    "preset_nl": ("Dutch rules", "Nederlandse regels", "Niederländische Regeln", "Hollännesch Reegelen"),
    "preset_de": ("German rules", "Duitse regels", "Deutsche Regeln", "Däitsch Reegelen"),
    "preset_lb": ("Luxembourgish rules", "Luxemburgse regels", "Luxemburgische Regeln", "Lëtzebuerger Reegelen"),
    "preset_breuken": ("Fractions deck", "UNO met breuken", "Bruchkarten", "Bréchkaarten"),
    "preset_house": ("House rules", "Huisregels", "Hausregeln", "Hausreegelen"),
    "sheet_000": (
        "Dutch classic rules",
        "Nederlandse klassieke regels",
        "niederländische klassische Regeln",
        "hollännesch klassesch Reegelen",
    ),
    "sheet_001": (
        "UNO met breuken (fractions)",
        "UNO met breuken",
        "UNO met breuken (Brüche)",
        "UNO met breuken (Bréch)",
    ),
    "sheet_002": ("German rules", "Duitse regels", "deutsche Regeln", "däitsch Reegelen"),
    "sheet_003": ("Luxembourgish edition", "Luxemburgse editie", "luxemburgische Ausgabe", "Lëtzebuerger Editioun"),
    "sheet_004": (
        "Official and house rules (English)",
        "Officiële en huisregels (Engels)",
        "Offizielle und Hausregeln (Englisch)",
        "Offiziell an Hausreegelen (Englesch)",
    ),
    "calibrate_link": ("Calibrate the table", "De tafel kalibreren", "Den Tisch kalibrieren", "Den Dësch kalibréieren"),
    "calibrate_link_title": (
        "click the pile's corners, the stock and the seats on the camera's view",
        "klik de hoeken van de stapel, de trekstapel en de plaatsen aan op het camerabeeld",
        "die Ecken des Stapels, den Ziehstapel und die Plätze im Kamerabild anklicken",
        "d’Ecke vum Stapel, den Zéistapel an d’Plazen um Kamerabild klicken",
    ),
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
    "view_top": ("top: {card}", "boven: {card}", "oben: {card}", "uewen: {card}"),
    "view_colour": ("colour: {colour}", "kleur: {colour}", "Farbe: {colour}", "Faarf: {colour}"),
    "view_turn": ("turn: {player}", "beurt: {player}", "dran: {player}", "drun: {player}"),
    "view_stock": ("stock", "trekstapel", "Ziehstapel", "Zeistapel"),
    "view_to_draw": ("{n} cards to draw", "{n} kaarten te pakken", "{n} Karten zu ziehen", "{n} Kaarten ze zeien"),
    "deck_classic": ("classic", "het klassieke spel", "das klassische Spiel", "d’klassescht Spill"),
    "deck_classic_blanks": (
        "classic_blanks",
        "het klassieke spel met blanco kaarten",
        "das klassische Spiel mit Blanko-Karten",
        "d’klassescht Spill mat wäisse Kaarten",
    ),
    "deck_lb": ("lb", "het Luxemburgse spel", "das luxemburgische Spiel", "d’Lëtzebuerger Spill"),
    "deck_breuken": ("breuken", "het breukenspel", "das Bruchkartenspiel", "d’Bréchkaartespill"),
    "deckname_classic": ("classic UNO deck", "klassiek UNO-spel", "klassisches UNO-Spiel", "klassescht UNO-Spill"),
    "deckname_classic_blanks": (
        "classic UNO deck with blank cards",
        "klassiek UNO-spel met blanco kaarten",
        "klassisches UNO-Spiel mit Blanko-Karten",
        "klassescht UNO-Spill mat wäisse Kaarten",
    ),
    "deckname_lb": (
        "Luxembourgish UNO deck",
        "Luxemburgs UNO-spel",
        "luxemburgisches UNO-Spiel",
        "Lëtzebuerger UNO-Spill",
    ),
    "deckname_breuken": ("UNO fractions deck", "UNO met breuken", "UNO-Bruchkartenspiel", "UNO-Bréchkaartespill"),
    "teach_token_placeholder": ("needed to teach", "om aan te leren", "zum Anlernen", "fir ze léieren"),
    "teach_learn_aria": ("Learn the deck", "Het spel aanleren", "Das Spiel anlernen", "D’Spill léieren"),
    "your_deck": ("Your deck", "Jouw spel", "Dein Spiel", "Äert Spill"),
    "in_use": ("in use", "in gebruik", "in Gebrauch", "am Gebrauch"),
    "teach_help": (
        "Photograph each card of the deck on your table: the card whole, near the middle of the photo, one card per "
        "photo. One photo a card is enough; a few (other light, other angle) teach more. Tap a card below to add its "
        "photos (or drop them on it), then learn. Cards without a photo keep the generic reading.",
        "Fotografeer elke kaart van het spel op je tafel: de hele kaart, midden in de foto, één kaart per foto. Eén "
        "foto per kaart is genoeg; een paar (ander licht, andere hoek) leren meer. Tik hieronder op een kaart om er "
        "foto’s van toe te voegen (of sleep ze erop) en leer dan. Kaarten zonder foto worden gewoon gelezen.",
        "Fotografiere jede Karte des Spiels auf deinem Tisch: die ganze Karte, nahe der Bildmitte, eine Karte pro "
        "Foto. Ein Foto pro Karte genügt; ein paar (anderes Licht, anderer Winkel) lehren mehr. Tippe unten auf eine "
        "Karte, um ihre Fotos hinzuzufügen (oder zieh sie darauf), dann lerne. Karten ohne Foto werden wie bisher "
        "gelesen.",
        "Fotograféiert all Kaart vum Spill op ärem Dësch: déi ganz Kaart, no bei der Mëtt vun der Foto, eng Kaart "
        "pro Foto. Eng Foto pro Kaart geet duer; e puer (anert Liicht, anere Wénkel) léiere méi. Tippt ënnen op eng "
        "Kaart fir hir Fotoen derbäizesetzen (oder zitt se drop), da léiert. Kaarten ouni Foto ginn ewéi virdru "
        "gelies.",
    ),
    "btn_learn": ("Learn this deck", "Dit spel leren", "Dieses Spiel lernen", "Dëst Spill léieren"),
    "no_pipeline": (
        "No camera pipeline runs with this server (`referee serve`): the deck is learned and saved, and read with "
        "once a run starts with `--deck` and the folder named above.",
        "Bij deze server draait geen camera (`referee serve`): het spel wordt geleerd en bewaard, en gebruikt zodra "
        "een run start met `--deck` en de map hierboven.",
        "Mit diesem Server läuft keine Kamera (`referee serve`): das Spiel wird gelernt und gespeichert und benutzt, "
        "sobald ein Lauf mit `--deck` und dem Ordner oben startet.",
        "Mat dësem Server leeft keng Kamera (`referee serve`): d’Spill gëtt geléiert a gespäichert, a benotzt, "
        "soubal e Laf mat `--deck` an dem Dossier uewen ufänkt.",
    ),
    "teach_cards_aria": ("Cards of the deck", "Kaarten van het spel", "Karten des Spiels", "Kaarte vum Spill"),
    "teach_cards": ("Cards", "Kaarten", "Karten", "Kaarten"),
    "photos_per_card": ("photos per card", "foto’s per kaart", "Fotos pro Karte", "Fotoe pro Kaart"),
    "teach_totals": (
        "{photos} · {n} of {total} cards photographed",
        "{photos} · {n} van {total} kaarten gefotografeerd",
        "{photos} · {n} von {total} Karten fotografiert",
        "{photos} · {n} vun {total} Kaarte fotograféiert",
    ),
    "sending_photo": (
        "{card}: sending photo {i} of {n}…",
        "{card}: foto {i} van {n} versturen…",
        "{card}: Foto {i} von {n} wird gesendet…",
        "{card}: Foto {i} vun {n} gëtt geschéckt…",
    ),
    "photos_added": (
        "{card}: {photos} added ✓",
        "{card}: {photos} toegevoegd ✓",
        "{card}: {photos} hinzugefügt ✓",
        "{card}: {photos} derbäigesat ✓",
    ),
    "already_there": ("({n} already there)", "({n} waren er al)", "({n} schon da)", "({n} scho do)"),
    "forget_confirm": (
        "Forget the {photos} of {card}?",
        "De {photos} van {card} vergeten?",
        "Die {photos} von {card} vergessen?",
        "D’{photos} vun {card} vergiessen?",
    ),
    "photos_forgotten": (
        "{card}: {photos} forgotten ✓",
        "{card}: {photos} vergeten ✓",
        "{card}: {photos} vergessen ✓",
        "{card}: {photos} vergiess ✓",
    ),
    "learning_from_photos": (
        "Learning the deck from the photos…",
        "Het spel leren van de foto’s…",
        "Das Spiel wird aus den Fotos gelernt…",
        "D’Spill gëtt aus de Fotoe geléiert…",
    ),
    "learn_failed": ("Learn", "Leren", "Lernen", "Léieren"),
    "state_learning": ("Learning…", "Bezig met leren…", "Lernt…", "Léiert…"),
    "no_deck_yet": (
        "No deck learned yet.",
        "Nog geen spel geleerd.",
        "Noch kein Spiel gelernt.",
        "Nach keen Spill geléiert.",
    ),
    "last_learned": (
        "Last learned: {cards} from {photos} in {s} s",
        "Laatst geleerd: {cards} uit {photos} in {s} s",
        "Zuletzt gelernt: {cards} aus {photos} in {s} s",
        "Lescht geléiert: {cards} aus {photos} an {s} s",
    ),
    "views_read_right": (
        "views read right {a} % → {b} %",
        "goed gelezen {a} % → {b} %",
        "richtig gelesen {a} % → {b} %",
        "richteg gelies {a} % → {b} %",
    ),
    "colours_list": ("colours: {list}", "kleuren: {list}", "Farben: {list}", "Faarwen: {list}"),
    "photos_no_card": (
        "{photos} without a card found",
        "{photos} zonder gevonden kaart",
        "{photos} ohne gefundene Karte",
        "{photos} ouni fonnt Kaart",
    ),
    "saved_in": ("saved in {deck}", "bewaard in {deck}", "gespeichert in {deck}", "gespäichert an {deck}"),
    "photos_of": ("photos of {card}", "foto’s van {card}", "Fotos von {card}", "Fotoe vun {card}"),
    "add_photos_of": (
        "add photos of {card}",
        "foto’s van {card} toevoegen",
        "Fotos von {card} hinzufügen",
        "Fotoe vun {card} derbäisetzen",
    ),
    "forget_photos_of": (
        "forget the photos of {card}",
        "de foto’s van {card} vergeten",
        "die Fotos von {card} vergessen",
        "d’Fotoe vun {card} vergiessen",
    ),
    "rows_aria": ("From photos of rows", "Uit foto’s van rijen", "Aus Fotos von Reihen", "Aus Fotoe vu Reien"),
    "rows_title": (
        "Or: a few photos of the deck in rows",
        "Of: een paar foto’s van het spel in rijen",
        "Oder: ein paar Fotos des Spiels in Reihen",
        "Oder: e puer Fotoe vum Spill a Reien",
    ),
    "rows_help": (
        "Lay the deck out on the table in rows, the cards side by side and not overlapping, and take a few "
        "photos (six photos of nine cards). The referee finds every card and proposes what it is; tap a card "
        "marked to check and pick the right one, then learn.",
        "Leg het spel in rijen op tafel, de kaarten naast elkaar zonder overlap, en maak een paar foto’s (zes "
        "foto’s van negen kaarten). De scheidsrechter vindt elke kaart en stelt voor wat het is; tik op een "
        "kaart die gecontroleerd moet worden en kies de juiste, en leer dan.",
        "Leg das Spiel in Reihen auf den Tisch, die Karten nebeneinander und ohne Überlappung, und mach ein "
        "paar Fotos (sechs Fotos von neun Karten). Der Schiedsrichter findet jede Karte und schlägt vor, welche "
        "es ist; tippe auf eine zu prüfende Karte und wähle die richtige, dann lerne.",
        "Leet d’Spill a Reien op den Dësch, d’Kaarten niewentenee an net iwwerenee, a maacht e puer Fotoen "
        "(sechs Fotoe vun néng Kaarten). De Schiedsriichter fënnt all Kaart a proposéiert, wat et ass; tippt "
        "op eng Kaart, déi nogekuckt muss ginn, a wielt déi richteg, da léiert.",
    ),
    "btn_rows": (
        "Add photos of rows",
        "Foto’s van rijen toevoegen",
        "Fotos von Reihen hinzufügen",
        "Fotoe vu Reien derbäisetzen",
    ),
    "btn_rows_use": (
        "Learn from these cards",
        "Leren van deze kaarten",
        "Aus diesen Karten lernen",
        "Vun dëse Kaarte léieren",
    ),
    "btn_rows_forget": ("Forget these photos", "Deze foto’s vergeten", "Diese Fotos vergessen", "Dës Fotoe vergiessen"),
    "rows_totals": (
        "{cards} found in {photos} · {n} to check",
        "{cards} gevonden in {photos} · {n} te controleren",
        "{cards} gefunden in {photos} · {n} zu prüfen",
        "{cards} fonnt an {photos} · {n} nozekucken",
    ),
    "rows_reading": (
        "Finding the cards in photo {i} of {n}…",
        "De kaarten zoeken in foto {i} van {n}…",
        "Die Karten in Foto {i} von {n} werden gesucht…",
        "D’Kaarte ginn an der Foto {i} vun {n} gesicht…",
    ),
    "rows_used": (
        "{cards} added to the deck’s photos ✓",
        "{cards} toegevoegd aan de foto’s van het spel ✓",
        "{cards} zu den Fotos des Spiels hinzugefügt ✓",
        "{cards} bei d’Fotoe vum Spill derbäigesat ✓",
    ),
    "rows_forgotten": (
        "Photos of rows forgotten ✓",
        "Foto’s van rijen vergeten ✓",
        "Fotos von Reihen vergessen ✓",
        "Fotoe vu Reien vergiess ✓",
    ),
    "rows_check": ("check", "controleren", "prüfen", "nokucken"),
    "rows_pick": (
        "pick the right card for this one",
        "kies de juiste kaart hiervoor",
        "wähle die richtige Karte dafür",
        "wielt déi richteg Kaart dofir",
    ),
    "rows_card_of": (
        "card {n} of photo {photo}",
        "kaart {n} van foto {photo}",
        "Karte {n} von Foto {photo}",
        "Kaart {n} vun der Foto {photo}",
    ),
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

#: The phrases whose English is a line the referee writes (the pages translate such lines by it).
SENTENCES: tuple[str, ...] = tuple(key for key in PHRASES if key.startswith("msg_"))


def phrases(lang: str) -> dict[str, str]:
    """Every phrase in ``lang`` (English for a language not in the catalogue)."""
    index = _ORDER.index(lang) if lang in _ORDER else 0
    return {key: texts[index] for key, texts in PHRASES.items()}


def phrase(key: str, lang: str = "en", **values: object) -> str:
    """One phrase in ``lang`` with its ``{name}`` slots filled; the key itself when there is no such phrase."""
    texts = PHRASES.get(key)
    if texts is None:
        return key
    text = texts[_ORDER.index(lang) if lang in _ORDER else 0]
    for name, value in values.items():
        text = text.replace("{" + name + "}", str(value))
    return text
