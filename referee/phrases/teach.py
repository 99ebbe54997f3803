"""The /teach page: photos of each card of one's own deck, or a few photos of the deck laid out in rows, and
learning the reader from them."""

from __future__ import annotations

__all__ = ["PHRASES"]

#: key -> (English, Dutch, German, Luxembourgish).
PHRASES: dict[str, tuple[str, str, str, str]] = {
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
}
