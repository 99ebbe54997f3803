// The pages' language: their own labels per language (below), and the words for cards, players,
// penalties and alerts, which come from Python (GET api/words, referee/words.py) so that the pages and
// the command line say the same. Languages: English, Dutch, German, Luxembourgish (the rule sheets').
// Which one: ?lang= in the address (kept in this browser from then on), else the one kept, else the
// match's (chosen in the dashboard's setup), else English.
"use strict";

const I18N = (() => {
  // "[x]" in a label is the key x, shown as <kbd>x</kbd>; "{name}" is filled in by t().
  const STRINGS = {
    en: {
      title: "UNO referee", overlay_title: "UNO referee overlay", connecting: "connecting…", live: "live", offline: "offline",
      conn_title: "live connection to the referee", admin_token: "Admin token", token_placeholder: "needed for controls",
      save: "Save", token_saved: "Token saved in this browser.", live_view: "Live view",
      live_alt: "live camera view of the discard pile", top_card: "top card", colour: "Colour", direction: "Direction",
      pending: "Pending", seats: "players", alerts: "Alerts", no_alerts: "No alerts yet: every play so far is fine.",
      controls: "Controls", shortcuts_title: "keyboard shortcuts (?)", acting: "Acting for",
      acting_keys: "(keys [1]–[9] pick a player, [0] follows the turn)", wild_colour: "Wild colour",
      btn_uno: "UNO! [u]", draw_count: "Draw", btn_draw: "Draw [d]", btn_pass: "Pass [p]",
      btn_challenge: "Challenge Wild Draw Four [c]", card_field: "Card", card_placeholder: "e.g. red_7, wild_draw4",
      btn_play: "Play [k]", btn_correct: "Correct misread [m]", correct_title: "replace the card of the last play",
      hand_field: "Hand", hand_placeholder: "cards shown, e.g. blue_3 wild", btn_reveal: "Reveal [h]",
      btn_undo: "Undo last [z]", help_title: "Keyboard shortcuts", help_seat: "act for that player / follow the turn",
      help_colour: "name the wild's colour", help_uno: "UNO call", help_draw: "draw the count shown", help_pass: "pass",
      help_challenge: "challenge a Wild Draw Four", help_play: "type a card to play (Enter plays it)",
      help_correct: "correct the last play's card with the card typed",
      help_reveal: "type a hand to reveal (Enter reveals it)", help_undo: "undo the last observation",
      help_esc: "leave a text field", scoreboard: "Score board", score_round: "Score the round",
      score_help: "Type each hand left at the end of the round, or propose it from a photo of the hand laid out on the table (check it before scoring); the referee adds them up.",
      round: "Round", winner: "Winner", points: "Points", match: "Match", to_target: "to {n}", hands_missing: "hands?",
      cards_left: "cards left", from_photo: "From photo",
      from_photo_title: "propose this hand from a photo of it (check it, then score)", score_hands: "Score the hands",
      setup: "Game setup", players: "Players", dealer_field: "Dealer", rules: "Rules", language: "Language",
      target: "Target", target_placeholder: "preset", hand_size: "Hand size", stack2: "stack +2", stack4: "stack +4",
      jump_in: "jump-in", seven_zero: "seven-zero", more: "More", more_placeholder: "name=value, …",
      new_match: "New match", next_round: "Next round", rename: "Rename players", download_log: "Download log",
      teach: "Teach this deck", teach_title: "teach the reader your own deck from photos of its cards",
      current_rules: "(current)", name_placeholder: "{player}: name",
      names_colour: "{who} names {colour}", calls_uno: "{who} calls UNO", draws: "{who} draws {n}",
      passes: "{who} passes", challenges: "{who} challenges", plays: "{who} plays {card}",
      type_right_card: "Type the right card, then press m again.", corrected: "Last play corrected to {card} ✓",
      correct_failed: "Correct", shows: "{who} shows {n} cards", undone: "Last observation undone ✓",
      undo_failed: "Undo", turn_suffix: "(turn)", clockwise: "↻ clockwise", counter_clockwise: "↺ counter-clockwise",
      to_take: "{n} cards to take", skip: "skip", round_over: "round over", match_over: "match over: {who} wins",
      cards_unknown: "? cards", card_one: "1 card", cards_many: "{n} cards", pts: "{n} pts", dealer: "dealer",
      key_n: "key {n}", match_info: "Match {id}", round_n: "round {n}", pipeline: "pipeline",
      no_camera: "pipeline: no camera attached", may_be_wrong: "(may be wrong)",
      reading_photo: "{who}: reading the photo…", proposed: "{who}: {n} card(s) proposed from the photo",
      unsure_cards: "(unsure: {cards})", check_then_score: "Check them, then score the hands.",
      photo_failed: "{who} photo", scored: "Hands scored for {n} seat(s) ✓",
      type_hands_first: "Type the cards left in each hand first.", match_started: "New match started ✓",
      round_started: "Next round started ✓", setup_failed: "Setup", renamed: "Players renamed ✓",
      rename_failed: "Rename", log_failed: "Log", rule_sheet: "Rule sheet", in_english: "In English",
      sheet_silent: "The rule sheet says nothing about this.", log_line: "the referee's log line", turn: "Turn:", to_draw: "{n} to draw",
      last_alerts: "last alerts", reconnecting: "reconnecting", footage_ended: "footage ended",
      camera_stopped: "camera stopped", camera_failed: "camera failed", camera_reconnecting: "camera reconnecting",
      camera_starting: "camera starting", judging: "judging {n} frames a second",
      judging_of: "judging {n} frames a second of {of}", frames_judged: "{n} frames judged",
      observations_n: "{n} observations", dropped_n: "{n} frames skipped", corrupt_n: "{n} broken frames",
      reconnects_n: "{n} reconnects", late_n: "{n} s behind the footage", source_is: "source {source}",
      phone_connected: "phone: {fps} frames a second", phone_waiting: "phone: waiting for it (open its link on the phone)",
      phone_stalled: "phone: connected, but no frames come", phone_disconnected: "phone: gone, waiting for it to come back", phone_closed: "phone: off",
      replay_plays: "Plays", replay_no_plays: "No cards on the pile yet.", replay_start: "start card",
      replay_play: "▶ replay", replay_play_title: "play this moment again", replay_air: "on overlay",
      replay_air_title: "show it on the overlay", replay_last: "last clip on overlay",
      replay_last_title: "show the newest clip on the overlay (key i)", replay_no_clip: "no clip",
      replay_cued: "Replay on the overlay ✓", replay_failed: "Replay", replay_label: "Instant replay",
      hall_title: "UNO referee hall", hall: "UNO hall", tables: "Tables", no_tables: "No table has published yet.",
      table_one: "1 table", tables_many: "{n} tables", broker: "broker {url}", standings: "Standings",
      player: "Player", table: "Table", score: "Score", rounds_won: "Rounds", match_done: "match over",
    },
    nl: {
      title: "UNO-scheidsrechter", overlay_title: "UNO-scheidsrechter overlay", connecting: "verbinden…", live: "live",
      offline: "offline", conn_title: "live verbinding met de scheidsrechter", admin_token: "Beheerderstoken",
      token_placeholder: "nodig voor de bediening", save: "Opslaan", token_saved: "Token opgeslagen in deze browser.",
      live_view: "Live beeld", live_alt: "live camerabeeld van de aflegstapel", top_card: "bovenste kaart",
      colour: "Kleur", direction: "Richting", pending: "Openstaand", seats: "spelers", alerts: "Meldingen",
      no_alerts: "Nog geen meldingen: elke zet was tot nu toe in orde.", controls: "Bediening",
      shortcuts_title: "sneltoetsen (?)", acting: "Namens",
      acting_keys: "(toetsen [1]–[9] kiezen een speler, [0] volgt de beurt)", wild_colour: "Kleur van de keuzekaart",
      btn_uno: "UNO! [u]", draw_count: "Aantal", btn_draw: "Pakken [d]", btn_pass: "Passen [p]",
      btn_challenge: "Neem-4 betwijfelen [c]", card_field: "Kaart", card_placeholder: "bv. red_7, wild_draw4",
      btn_play: "Spelen [k]", btn_correct: "Verkeerd gelezen [m]", correct_title: "vervang de kaart van de laatste zet",
      hand_field: "Hand", hand_placeholder: "getoonde kaarten, bv. blue_3 wild", btn_reveal: "Tonen [h]",
      btn_undo: "Laatste ongedaan maken [z]", help_title: "Sneltoetsen",
      help_seat: "namens die speler handelen / de beurt volgen", help_colour: "de kleur van de keuzekaart noemen",
      help_uno: "UNO roepen", help_draw: "het getoonde aantal pakken", help_pass: "passen",
      help_challenge: "een neem-4 betwijfelen", help_play: "een kaart typen om te spelen (Enter speelt hem)",
      help_correct: "de kaart van de laatste zet vervangen door de getypte kaart",
      help_reveal: "een hand typen om te tonen (Enter toont hem)", help_undo: "de laatste waarneming ongedaan maken",
      help_esc: "een tekstveld verlaten", scoreboard: "Scorebord", score_round: "De ronde tellen",
      score_help: "Typ elke hand die aan het eind van de ronde over is, of laat hem voorstellen uit een foto van de hand op tafel (controleer hem vóór het tellen); de scheidsrechter telt ze op.",
      round: "Ronde", winner: "Winnaar", points: "Punten", match: "Partij", to_target: "tot {n}", hands_missing: "handen?",
      cards_left: "overgebleven kaarten", from_photo: "Uit foto",
      from_photo_title: "stel deze hand voor uit een foto ervan (controleer, tel dan)", score_hands: "Handen tellen",
      setup: "Spelinstellingen", players: "Spelers", dealer_field: "Deler", rules: "Regels", language: "Taal",
      target: "Doel", target_placeholder: "standaard", hand_size: "Kaarten per hand", stack2: "+2 stapelen",
      stack4: "+4 stapelen", jump_in: "inspringen", seven_zero: "zeven-nul", more: "Meer",
      more_placeholder: "naam=waarde, …", new_match: "Nieuwe partij", next_round: "Volgende ronde",
      rename: "Namen wijzigen", download_log: "Log downloaden", teach: "Dit spel aanleren",
      teach_title: "leer de lezer je eigen kaarten aan met foto's ervan", current_rules: "(huidige)",
      name_placeholder: "{player}: naam", names_colour: "{who} kiest {colour}", calls_uno: "{who} roept UNO",
      draws: "{who} pakt {n}", passes: "{who} past", challenges: "{who} betwijfelt", plays: "{who} speelt {card}",
      type_right_card: "Typ de juiste kaart en druk nog eens op m.", corrected: "Laatste zet verbeterd naar {card} ✓",
      correct_failed: "Verbeteren", shows: "{who} toont {n} kaarten", undone: "Laatste waarneming ongedaan gemaakt ✓",
      undo_failed: "Ongedaan maken", turn_suffix: "(beurt)", clockwise: "↻ met de klok mee",
      counter_clockwise: "↺ tegen de klok in", to_take: "{n} kaarten te pakken", skip: "overslaan",
      round_over: "ronde voorbij", match_over: "partij voorbij: {who} wint", cards_unknown: "? kaarten",
      card_one: "1 kaart", cards_many: "{n} kaarten", pts: "{n} ptn", dealer: "deler", key_n: "toets {n}",
      match_info: "Partij {id}", round_n: "ronde {n}", pipeline: "camera", no_camera: "geen camera aangesloten",
      may_be_wrong: "(misschien onjuist)", reading_photo: "{who}: de foto wordt gelezen…",
      proposed: "{who}: {n} kaart(en) voorgesteld uit de foto", unsure_cards: "(onzeker: {cards})",
      check_then_score: "Controleer ze en tel dan de handen.", photo_failed: "{who} foto",
      scored: "Handen geteld voor {n} speler(s) ✓", type_hands_first: "Typ eerst de overgebleven kaarten van elke hand.",
      match_started: "Nieuwe partij gestart ✓", round_started: "Volgende ronde gestart ✓", setup_failed: "Instellingen",
      renamed: "Namen gewijzigd ✓", rename_failed: "Namen wijzigen", log_failed: "Log", rule_sheet: "Spelregels",
      in_english: "In het Engels", sheet_silent: "De spelregels zeggen hier niets over.", log_line: "de logregel van de scheidsrechter", turn: "Beurt:",
      to_draw: "{n} te pakken",
      last_alerts: "laatste meldingen", reconnecting: "opnieuw verbinden", footage_ended: "beelden afgelopen",
      camera_stopped: "camera gestopt", camera_failed: "camera werkt niet", camera_reconnecting: "camera verbindt opnieuw",
      camera_starting: "camera start", judging: "beoordeelt {n} beelden per seconde",
      judging_of: "beoordeelt {n} van {of} beelden per seconde", frames_judged: "{n} beelden beoordeeld",
      observations_n: "{n} waarnemingen", dropped_n: "{n} beelden overgeslagen", corrupt_n: "{n} beschadigde beelden",
      reconnects_n: "{n} keer opnieuw verbonden", late_n: "{n} s achter op de beelden", source_is: "bron {source}",
      phone_connected: "telefoon: {fps} beelden per seconde", phone_waiting: "telefoon: wacht erop (open de link op de telefoon)",
      phone_stalled: "telefoon: verbonden, maar er komen geen beelden", phone_disconnected: "telefoon: weg, wacht tot hij terugkomt", phone_closed: "telefoon: uit",
      replay_plays: "Zetten", replay_no_plays: "Nog geen kaarten op de stapel.", replay_start: "startkaart",
      replay_play: "▶ herhaling", replay_play_title: "speel dit moment opnieuw af", replay_air: "op de overlay",
      replay_air_title: "toon het op de overlay", replay_last: "laatste clip op de overlay",
      replay_last_title: "toon de nieuwste clip op de overlay (toets i)", replay_no_clip: "geen clip",
      replay_cued: "Herhaling op de overlay ✓", replay_failed: "Herhaling", replay_label: "Herhaling",
      hall_title: "UNO-scheidsrechter zaal", hall: "UNO-zaal", tables: "Tafels",
      no_tables: "Nog geen tafel heeft iets doorgegeven.", table_one: "1 tafel", tables_many: "{n} tafels",
      broker: "broker {url}", standings: "Stand", player: "Speler", table: "Tafel", score: "Score",
      rounds_won: "Rondes", match_done: "partij voorbij",
    },
    de: {
      title: "UNO-Schiedsrichter", overlay_title: "UNO-Schiedsrichter Overlay", connecting: "verbinde…", live: "live",
      offline: "offline", conn_title: "Live-Verbindung zum Schiedsrichter", admin_token: "Admin-Token",
      token_placeholder: "für die Steuerung nötig", save: "Speichern", token_saved: "Token in diesem Browser gespeichert.",
      live_view: "Live-Bild", live_alt: "Live-Kamerabild des Ablegestapels", top_card: "oberste Karte",
      colour: "Farbe", direction: "Richtung", pending: "Offen", seats: "Spieler", alerts: "Meldungen",
      no_alerts: "Noch keine Meldungen: bisher war jeder Zug in Ordnung.", controls: "Steuerung",
      shortcuts_title: "Tastenkürzel (?)", acting: "Handelt für",
      acting_keys: "(Tasten [1]–[9] wählen einen Spieler, [0] folgt dem Zug)",
      wild_colour: "Farbe der Farbenwahlkarte", btn_uno: "UNO! [u]", draw_count: "Anzahl", btn_draw: "Ziehen [d]",
      btn_pass: "Passen [p]", btn_challenge: "Zieh Vier anzweifeln [c]", card_field: "Karte",
      card_placeholder: "z. B. red_7, wild_draw4", btn_play: "Legen [k]", btn_correct: "Falsch gelesen [m]",
      correct_title: "die Karte des letzten Zugs ersetzen", hand_field: "Hand",
      hand_placeholder: "gezeigte Karten, z. B. blue_3 wild", btn_reveal: "Zeigen [h]",
      btn_undo: "Letztes rückgängig [z]", help_title: "Tastenkürzel",
      help_seat: "für diesen Spieler handeln / dem Zug folgen", help_colour: "die Farbe der Farbenwahlkarte nennen",
      help_uno: "UNO rufen", help_draw: "die angezeigte Anzahl ziehen", help_pass: "passen",
      help_challenge: "eine Zieh Vier anzweifeln", help_play: "eine Karte zum Legen tippen (Enter legt sie)",
      help_correct: "die Karte des letzten Zugs durch die getippte ersetzen",
      help_reveal: "eine Hand zum Zeigen tippen (Enter zeigt sie)", help_undo: "die letzte Beobachtung rückgängig machen",
      help_esc: "ein Textfeld verlassen", scoreboard: "Punktestand", score_round: "Die Runde werten",
      score_help: "Tippe jede Hand, die am Ende der Runde übrig ist, oder lass sie aus einem Foto der auf den Tisch gelegten Hand vorschlagen (vor dem Werten prüfen); der Schiedsrichter zählt zusammen.",
      round: "Runde", winner: "Gewinner", points: "Punkte", match: "Spiel", to_target: "bis {n}", hands_missing: "Hände?",
      cards_left: "übrige Karten", from_photo: "Aus Foto",
      from_photo_title: "diese Hand aus einem Foto vorschlagen (prüfen, dann werten)", score_hands: "Hände werten",
      setup: "Spiel einrichten", players: "Spieler", dealer_field: "Geber", rules: "Regeln", language: "Sprache",
      target: "Ziel", target_placeholder: "Vorgabe", hand_size: "Handkarten", stack2: "+2 stapeln", stack4: "+4 stapeln",
      jump_in: "Reinwerfen", seven_zero: "Sieben-Null", more: "Mehr", more_placeholder: "Name=Wert, …",
      new_match: "Neues Spiel", next_round: "Nächste Runde", rename: "Spieler umbenennen",
      download_log: "Protokoll laden", teach: "Dieses Deck anlernen",
      teach_title: "dem Leser das eigene Deck mit Fotos seiner Karten beibringen", current_rules: "(aktuell)",
      name_placeholder: "{player}: Name", names_colour: "{who} wählt {colour}", calls_uno: "{who} ruft UNO",
      draws: "{who} zieht {n}", passes: "{who} passt", challenges: "{who} zweifelt an", plays: "{who} legt {card}",
      type_right_card: "Tippe die richtige Karte, dann noch einmal m.", corrected: "Letzter Zug korrigiert auf {card} ✓",
      correct_failed: "Korrigieren", shows: "{who} zeigt {n} Karten", undone: "Letzte Beobachtung rückgängig gemacht ✓",
      undo_failed: "Rückgängig", turn_suffix: "(am Zug)", clockwise: "↻ im Uhrzeigersinn",
      counter_clockwise: "↺ gegen den Uhrzeigersinn", to_take: "{n} Karten zu ziehen", skip: "aussetzen",
      round_over: "Runde vorbei", match_over: "Spiel vorbei: {who} gewinnt", cards_unknown: "? Karten",
      card_one: "1 Karte", cards_many: "{n} Karten", pts: "{n} Pkt.", dealer: "Geber", key_n: "Taste {n}",
      match_info: "Spiel {id}", round_n: "Runde {n}", pipeline: "Kamera", no_camera: "keine Kamera angeschlossen",
      may_be_wrong: "(vielleicht falsch)", reading_photo: "{who}: Foto wird gelesen…",
      proposed: "{who}: {n} Karte(n) aus dem Foto vorgeschlagen", unsure_cards: "(unsicher: {cards})",
      check_then_score: "Prüfe sie, dann werte die Hände.", photo_failed: "{who} Foto",
      scored: "Hände gewertet für {n} Spieler ✓", type_hands_first: "Tippe zuerst die übrigen Karten jeder Hand.",
      match_started: "Neues Spiel gestartet ✓", round_started: "Nächste Runde gestartet ✓", setup_failed: "Einrichten",
      renamed: "Spieler umbenannt ✓", rename_failed: "Umbenennen", log_failed: "Protokoll", rule_sheet: "Spielregeln",
      in_english: "Auf Englisch", sheet_silent: "Die Spielregeln sagen dazu nichts.", log_line: "die Protokollzeile des Schiedsrichters", turn: "Am Zug:",
      to_draw: "{n} zu ziehen",
      last_alerts: "letzte Meldungen", reconnecting: "verbinde neu", footage_ended: "Aufnahme zu Ende",
      camera_stopped: "Kamera gestoppt", camera_failed: "Kamera ausgefallen", camera_reconnecting: "Kamera verbindet neu",
      camera_starting: "Kamera startet", judging: "bewertet {n} Bilder pro Sekunde",
      judging_of: "bewertet {n} von {of} Bildern pro Sekunde", frames_judged: "{n} Bilder bewertet",
      observations_n: "{n} Beobachtungen", dropped_n: "{n} Bilder übersprungen", corrupt_n: "{n} beschädigte Bilder",
      reconnects_n: "{n}-mal neu verbunden", late_n: "{n} s hinter der Aufnahme", source_is: "Quelle {source}",
      phone_connected: "Handy: {fps} Bilder pro Sekunde", phone_waiting: "Handy: wartet darauf (den Link auf dem Handy öffnen)",
      phone_stalled: "Handy: verbunden, aber es kommen keine Bilder", phone_disconnected: "Handy: weg, wartet, bis es zurückkommt", phone_closed: "Handy: aus",
      replay_plays: "Züge", replay_no_plays: "Noch keine Karten auf dem Stapel.", replay_start: "Startkarte",
      replay_play: "▶ Wiederholung", replay_play_title: "diesen Moment noch einmal abspielen", replay_air: "im Overlay",
      replay_air_title: "im Overlay zeigen", replay_last: "letzter Clip im Overlay",
      replay_last_title: "den neuesten Clip im Overlay zeigen (Taste i)", replay_no_clip: "kein Clip",
      replay_cued: "Wiederholung im Overlay ✓", replay_failed: "Wiederholung", replay_label: "Wiederholung",
      hall_title: "UNO-Schiedsrichter Saal", hall: "UNO-Saal", tables: "Tische",
      no_tables: "Noch kein Tisch hat etwas gesendet.", table_one: "1 Tisch", tables_many: "{n} Tische",
      broker: "Broker {url}", standings: "Tabelle", player: "Spieler", table: "Tisch", score: "Punkte",
      rounds_won: "Runden", match_done: "Spiel vorbei",
    },
    lb: {
      title: "UNO-Schiedsriichter", overlay_title: "UNO-Schiedsriichter Overlay", connecting: "verbannen…", live: "live",
      offline: "offline", conn_title: "Live-Verbindung mam Schiedsriichter", admin_token: "Admin-Token",
      token_placeholder: "fir d’Steierung néideg", save: "Späicheren", token_saved: "Token an dësem Browser gespäichert.",
      live_view: "Live-Bild", live_alt: "Live-Kamerabild vum Koup", top_card: "iewescht Kaart", colour: "Faarf",
      direction: "Richtung", pending: "Op", seats: "Spiller", alerts: "Meldungen",
      no_alerts: "Nach keng Meldungen: bis elo war all Zuch an der Rei.", controls: "Steierung",
      shortcuts_title: "Tastekierzel (?)", acting: "Handelt fir",
      acting_keys: "(Tasten [1]–[9] wielen e Spiller, [0] follegt dem Tour)", wild_colour: "Faarf vum Joker",
      btn_uno: "UNO! [u]", draw_count: "Zuel", btn_draw: "Zéien [d]", btn_pass: "Passen [p]",
      btn_challenge: "Un der +4 zweiwelen [c]", card_field: "Kaart", card_placeholder: "z. B. red_7, wild_draw4",
      btn_play: "Spillen [k]", btn_correct: "Falsch gelies [m]", correct_title: "d’Kaart vum leschten Zuch ersetzen",
      hand_field: "Hand", hand_placeholder: "gewise Kaarten, z. B. blue_3 wild", btn_reveal: "Weisen [h]",
      btn_undo: "Lescht réckgängeg [z]", help_title: "Tastekierzel",
      help_seat: "fir dee Spiller handelen / dem Tour nogoen", help_colour: "d’Faarf vum Joker nennen",
      help_uno: "UNO ruffen", help_draw: "déi gewisen Zuel zéien", help_pass: "passen",
      help_challenge: "un enger +4 zweiwelen", help_play: "eng Kaart tippe fir ze spillen (Enter spillt se)",
      help_correct: "d’Kaart vum leschten Zuch duerch déi getippten ersetzen",
      help_reveal: "eng Hand tippe fir se ze weisen (Enter weist se)",
      help_undo: "déi lescht Observatioun réckgängeg maachen", help_esc: "en Textfeld verloossen",
      scoreboard: "Punktestand", score_round: "D’Ronn zielen",
      score_help: "Tippt all Hand, déi um Enn vun der Ronn iwwreg ass, oder loosst se vun enger Foto vun der Hand um Dësch proposéieren (kuckt se no, ier Dir zielt); de Schiedsriichter zielt se zesummen.",
      round: "Ronn", winner: "Gewënner", points: "Punkten", match: "Spill", to_target: "bis {n}", hands_missing: "Hänn?",
      cards_left: "iwwreg Kaarten", from_photo: "Vun enger Foto",
      from_photo_title: "dës Hand vun enger Foto proposéieren (nokucken, dann zielen)", score_hands: "Hänn zielen",
      setup: "Spill astellen", players: "Spiller", dealer_field: "Deeler", rules: "Reegelen", language: "Sprooch",
      target: "Zil", target_placeholder: "Standard", hand_size: "Kaarten an der Hand", stack2: "+2 stackelen",
      stack4: "+4 stackelen", jump_in: "dertëschent spillen", seven_zero: "Siwen-Null", more: "Méi",
      more_placeholder: "Numm=Wäert, …", new_match: "Neit Spill", next_round: "Nächst Ronn", rename: "Spiller ëmbenennen",
      download_log: "Protokoll eroflueden", teach: "Dëst Spill léieren",
      teach_title: "dem Lieser Äert eegent Spill mat Fotoe vu senge Kaarte bäibréngen", current_rules: "(aktuell)",
      name_placeholder: "{player}: Numm", names_colour: "{who} wielt {colour}", calls_uno: "{who} rifft UNO",
      draws: "{who} zitt {n}", passes: "{who} passt", challenges: "{who} zweiwelt", plays: "{who} spillt {card}",
      type_right_card: "Tippt déi richteg Kaart, dann nach eng Kéier m.",
      corrected: "Leschten Zuch op {card} korrigéiert ✓", correct_failed: "Korrigéieren", shows: "{who} weist {n} Kaarten",
      undone: "Lescht Observatioun réckgängeg gemaach ✓", undo_failed: "Réckgängeg", turn_suffix: "(um Tour)",
      clockwise: "↻ ewéi d’Auer", counter_clockwise: "↺ géint d’Auer", to_take: "{n} Kaarten ze zéien", skip: "passen",
      round_over: "Ronn eriwwer", match_over: "Spill eriwwer: {who} gewënnt", cards_unknown: "? Kaarten",
      card_one: "1 Kaart", cards_many: "{n} Kaarten", pts: "{n} Pkt.", dealer: "Deeler", key_n: "Tast {n}",
      match_info: "Spill {id}", round_n: "Ronn {n}", pipeline: "Kamera", no_camera: "keng Kamera ugeschloss",
      may_be_wrong: "(vläicht falsch)", reading_photo: "{who}: d’Foto gëtt gelies…",
      proposed: "{who}: {n} Kaart(en) vun der Foto proposéiert", unsure_cards: "(onsécher: {cards})",
      check_then_score: "Kuckt se no, dann zielt d’Hänn.", photo_failed: "{who} Foto",
      scored: "Hänn gezielt fir {n} Spiller ✓", type_hands_first: "Tippt als éischt déi iwwreg Kaarte vun all Hand.",
      match_started: "Neit Spill ugefaangen ✓", round_started: "Nächst Ronn ugefaangen ✓", setup_failed: "Astellen",
      renamed: "Spiller ëmbenannt ✓", rename_failed: "Ëmbenennen", log_failed: "Protokoll", rule_sheet: "Spillreegelen",
      in_english: "Op Englesch", sheet_silent: "D’Spillreegele soen näischt doriwwer.", log_line: "d’Protokollzeil vum Schiedsriichter", turn: "Um Tour:",
      to_draw: "{n} ze zéien",
      last_alerts: "lescht Meldungen", reconnecting: "nei verbannen", footage_ended: "Opnam eriwwer",
      camera_stopped: "Kamera gestoppt", camera_failed: "Kamera ausgefall", camera_reconnecting: "Kamera verbënnt nei",
      camera_starting: "Kamera start", judging: "beurteelt {n} Biller pro Sekonn",
      judging_of: "beurteelt {n} vun {of} Biller pro Sekonn", frames_judged: "{n} Biller beurteelt",
      observations_n: "{n} Observatiounen", dropped_n: "{n} Biller iwwersprongen", corrupt_n: "{n} futti Biller",
      reconnects_n: "{n} Mol nei verbonnen", late_n: "{n} s hannert der Opnam", source_is: "Quell {source}",
      phone_connected: "Handy: {fps} Biller pro Sekonn", phone_waiting: "Handy: waart drop (de Link um Handy opmaachen)",
      phone_stalled: "Handy: verbonnen, mä et kommen keng Biller", phone_disconnected: "Handy: fort, waart bis et erëm do ass", phone_closed: "Handy: aus",
      replay_plays: "Zich", replay_no_plays: "Nach keng Kaarten um Koup.", replay_start: "Startkaart",
      replay_play: "▶ Widderhuelung", replay_play_title: "dëse Moment nach eng Kéier ofspillen", replay_air: "am Overlay",
      replay_air_title: "et am Overlay weisen", replay_last: "leschte Clip am Overlay",
      replay_last_title: "de neiste Clip am Overlay weisen (Tast i)", replay_no_clip: "keen Clip",
      replay_cued: "Widderhuelung am Overlay ✓", replay_failed: "Widderhuelung", replay_label: "Widderhuelung",
      hall_title: "UNO-Schiedsriichter Sall", hall: "UNO-Sall", tables: "Dëscher",
      no_tables: "Nach keen Dësch huet eppes geschéckt.", table_one: "1 Dësch", tables_many: "{n} Dëscher",
      broker: "Broker {url}", standings: "Classement", player: "Spiller", table: "Dësch", score: "Punkten",
      rounds_won: "Ronnen", match_done: "Spill eriwwer",
    },
  };
  const LANGS = Object.keys(STRINGS);
  const KEY = "uno-lang";
  let lang = "en";
  let words = null;  // the catalog of api/words: cards, colours, player, penalty, alerts

  function known(value) {
    const code = (value || "").trim().toLowerCase().slice(0, 2);
    return LANGS.includes(code) ? code : "";
  }

  function kept() {
    try { return known(localStorage.getItem(KEY)); } catch (err) { return ""; }
  }

  function keep(code) {
    try { localStorage.setItem(KEY, code); } catch (err) { /* private mode: for this page only */ }
  }

  /** The language this page was asked for: ?lang= (then kept), else the kept one, else "" (the match's). */
  function requested() {
    const asked = known(new URLSearchParams(location.search).get("lang"));
    if (asked) keep(asked);
    return asked || kept();
  }

  function t(key, vars) {
    let text = (STRINGS[lang] || {})[key] ?? STRINGS.en[key] ?? key;
    for (const [name, value] of Object.entries(vars || {})) text = text.replaceAll("{" + name + "}", String(value));
    return text;
  }

  /** ``node``'s content becomes ``text``, each "[x]" in it a <kbd>x</kbd>. */
  function fill(node, text) {
    node.replaceChildren();
    text.split(/\[([^\]]+)\]/).forEach((part, i) => {
      if (i % 2) { const kbd = document.createElement("kbd"); kbd.textContent = part; node.append(kbd); }
      else if (part) node.append(part);
    });
  }

  /** Every labelled element under ``root`` in the current language (data-i18n, data-i18n-ATTR). */
  function translate(root) {
    root.querySelectorAll("[data-i18n]").forEach((node) => fill(node, t(node.dataset.i18n)));
    for (const attr of ["placeholder", "title", "aria-label", "alt"]) {
      root.querySelectorAll("[data-i18n-" + attr + "]").forEach((node) => node.setAttribute(attr, t(node.getAttribute("data-i18n-" + attr))));
    }
    const title = document.querySelector("title[data-i18n-page]");
    if (title) document.title = t(title.dataset.i18nPage);
  }

  /** Load the words of ``choice`` (or of the page's request, or the match's) and relabel the page. */
  async function load(choice) {
    const asked = known(choice) || requested();
    try {
      const response = await fetch("api/words" + (asked ? "?lang=" + asked : ""), { cache: "no-store" });
      if (response.ok) words = await response.json();
    } catch (err) { /* offline: labels in the page's language, cards as labels */ }
    lang = known(words && words.lang) || asked || "en";
    document.documentElement.lang = lang;
    translate(document);
    // Whatever a page draws from the words outside a data-i18n label (replay.js) draws it again on this.
    document.dispatchEvent(new CustomEvent("i18n:loaded", { detail: { lang } }));
    return lang;
  }

  /** The operator picked ``code``: keep it in this browser and relabel. */
  function choose(code) {
    if (known(code)) keep(known(code));
    return load(code);
  }

  // The words of api/words (referee/words.py), with plain fallbacks before they arrive.
  function cardWords(label) { return (words && words.cards[label]) || label || ""; }
  function colourWords(colour) { return (words && words.colours[colour]) || colour || ""; }

  /** A seat as people say it: its name, else "Player N" (1-based) in this language. */
  function playerWords(seat, names) {
    if (seat === null || seat === undefined) return words ? words.someone : "someone";
    const generic = (words ? words.player : "Player {n}").replace("{n}", String(seat + 1));
    const name = (names || [])[seat];
    return name && name !== "Player " + (seat + 1) ? name : generic;
  }

  function penaltyWords(cards) {
    const p = words ? words.penalty : { none: "no penalty cards", one: "draws 1 card", many: "draws {n} cards" };
    return !cards ? p.none : cards === 1 ? p.one : p.many.replace("{n}", String(cards));
  }

  function alertTitle(code) {
    const found = words && words.alerts[code];
    return found ? found.title : (code || "alert").replaceAll("_", " ");
  }

  /** The rule an alert says was broken, in one sentence naming the player and the card ("" for a code
   * without words, or before the words arrived: the referee's message says it then). */
  function alertSentence(alert, names) {
    const found = words && words.alerts[alert.code];
    if (!found) return "";
    return found.sentence
      .replaceAll("{player}", playerWords(alert.seat, names))
      .replaceAll("{card}", alert.card ? cardWords(alert.card) : words.a_card);
  }

  return {
    STRINGS, LANGS, t, fill, translate, load, choose, cardWords, colourWords, playerWords, penaltyWords,
    alertTitle, alertSentence,
    get lang() { return lang; },
    get words() { return words; },
  };
})();
