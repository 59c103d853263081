#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""Generate the Localwire offline demo corpus (data/demo/).

Deterministic: a fixed seed and a fixed base date, so running it twice writes identical
files. Python 3.11 standard library only. Story texts live in stories_events.py,
stories_places.py and stories_templates.py beside this file. Everything is fictional.

Writes: publishers.opml, publishers.json, manifest.json, feeds/*, media/images/*.svg,
media/icons/*.svg. The audio and video files in media/audio and media/video are committed
as they are (made once with sox/ffmpeg, see README.md) and only referenced here.

Usage: python3 data/demo/generate.py
"""
import datetime as dt
import html
import json
import os
import random
import re
import sys
from xml.sax.saxutils import escape as xesc, quoteattr

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # keep data/demo free of __pycache__
sys.path.insert(0, HERE)
from stories_developing import DEVELOPING  # noqa: E402
from stories_events import EVENTS  # noqa: E402
from stories_places import PLACE_STORIES  # noqa: E402
from stories_templates import TEMPLATES  # noqa: E402

SEED = 20261120
BASE = dt.datetime(2026, 11, 20, 12, 0, 0, tzinfo=dt.timezone.utc)
HOST = "https://demo.localwire.invalid"
MEDIA = HOST + "/media"
NS_OPML = "https://localwire.invalid/ns/opml"
ITEMS_PER_FEED = 14

CATEGORIES = ["local", "politics", "business", "sports", "entertainment", "health", "science-tech",
              "weather", "crime-safety", "education", "food", "lifestyle", "opinion"]

# Feed category labels: the first maps obviously, the second does not.
LABELS = {
    "en": {"local": ("Local", "Around Town"), "politics": ("Politics", "The Hill Notebook"),
           "business": ("Business", "Money Matters"), "sports": ("Sports", "Game Day"),
           "entertainment": ("Entertainment", "Weekend Picks"), "health": ("Health", "Wellness Wednesday"),
           "science-tech": ("Technology", "Gadgets & Gizmos"), "weather": ("Weather", "Sky Watch"),
           "crime-safety": ("Crime", "Police Blotter"), "education": ("Education", "Back to Class"),
           "food": ("Food", "Eat Here"), "lifestyle": ("Lifestyle", "Home & Garden"), "opinion": ("Opinion", "Letters")},
    "es": {"local": ("Local", "Nuestra comunidad"), "politics": ("Política", "Desde el Capitolio"),
           "business": ("Economía", "Tu bolsillo"), "sports": ("Deportes", "La cancha"),
           "entertainment": ("Entretenimiento", "Fin de semana"), "health": ("Salud", "Bienestar"),
           "science-tech": ("Ciencia y tecnología", "Conectados"), "weather": ("El tiempo", "Pronóstico"),
           "crime-safety": ("Seguridad", "Nota roja"), "education": ("Educación", "En el aula"),
           "food": ("Gastronomía", "A la mesa"), "lifestyle": ("Estilo de vida", "Hogar"), "opinion": ("Opinión", "Cartas al editor")},
    "fr": {"local": ("Actualités locales", "Vie de quartier"), "politics": ("Politique", "À l'Assemblée"),
           "business": ("Économie", "Portefeuille"), "sports": ("Sports locaux", "Sur la glace"),
           "entertainment": ("Culture", "Sorties"), "health": ("Santé", "Mieux-être"),
           "science-tech": ("Sciences et techno", "Numérique"), "weather": ("Météo", "Ciel variable"),
           "crime-safety": ("Faits divers", "Au palais de justice"), "education": ("Éducation", "Rentrée"),
           "food": ("Gastronomie", "À table"), "lifestyle": ("Mode de vie", "Chez soi"), "opinion": ("Opinion", "Chroniques")},
}

# key, name, format, country, state, state name, city, lang, category, colour, neighbourhoods,
# team, flags, about, contact
P = [
    ("capitol-ledger", "The Capitol Ledger", "rss", "US", "DC", "District of Columbia", "Washington", "en", "politics", "#7a1f2b",
     ["Capitol Hill", "Navy Yard", "Petworth"], "Washington Foxhounds", "",
     "An independent newsroom covering the District's government, Congress as a local employer, and the neighborhoods in between."),
    ("district-audio-desk", "District Audio Desk", "rss", "US", "DC", "District of Columbia", "Washington", "en", "local", "#3b3f8f",
     ["Anacostia", "Shaw", "Brookland"], "Washington Foxhounds", "podcast",
     "A weekly podcast about life in the District: transit, housing, food and the people who make the city run."),
    ("hudson-lantern", "The Hudson Lantern", "atom", "US", "NY", "New York", "New York", "en", "local", "#d08a1e",
     ["Washington Heights", "Astoria", "Sunset Park"], "New York Ironclads", "",
     "Neighborhood news for the five boroughs, from community boards to corner stores."),
    ("palisade-post", "The Palisade Post", "json", "US", "CA", "California", "Los Angeles", "en", "entertainment", "#c2410c",
     ["Echo Park", "Boyle Heights", "Van Nuys"], "Los Angeles Comets", "",
     "Culture, film and city life across Los Angeles, written by people who live here."),
    ("lakefront-dispatch", "Lakefront Dispatch", "rss", "US", "IL", "Illinois", "Chicago", "en", "local", "#1d4ed8",
     ["Pilsen", "Logan Square", "Bronzeville"], "Chicago Lakehawks", "mrss",
     "Chicago news by neighborhood, with video from our street team."),
    ("bayou-city-beacon", "Bayou City Beacon", "atom", "US", "TX", "Texas", "Houston", "en", "business", "#0f766e",
     ["the East End", "Montrose", "Sunnyside"], "Houston Oilcats", "",
     "Business, energy and civic news for Greater Houston."),
    ("biscayne-tidewatch", "Biscayne Tidewatch", "rss", "US", "FL", "Florida", "Miami", "en", "weather", "#0891b2",
     ["Little Havana", "Allapattah", "Coconut Grove"], "Miami Tarpons", "mrss",
     "Weather, water and neighborhood news for Miami-Dade, with a close eye on the tides."),
    ("puget-sound-signal", "Puget Sound Signal", "json", "US", "WA", "Washington", "Seattle", "en", "science-tech", "#4d7c0f",
     ["Ballard", "Beacon Hill", "Magnolia"], "Seattle Rainmakers", "",
     "Technology, science and city news from Seattle and the Sound."),
    ("front-range-gazette", "Front Range Gazette", "rss", "US", "CO", "Colorado", "Denver", "en", "sports", "#b45309",
     ["Five Points", "Highland", "Montbello"], "Denver Highlanders", "mrss",
     "Sports and community news from Denver and the Front Range, with game-day video."),
    ("harborlight-herald", "Harborlight Herald", "atom", "US", "MA", "Massachusetts", "Boston", "en", "education", "#1e3a8a",
     ["Dorchester", "Jamaica Plain", "East Boston"], "Boston Harriers", "",
     "Schools, universities and civic life in Boston."),
    ("peachtree-crier", "The Peachtree Crier", "rss", "US", "GA", "Georgia", "Atlanta", "en", "food", "#be185d",
     ["the Old Fourth Ward", "West End", "Kirkwood"], "Atlanta Firebirds", "",
     "Atlanta's food, culture and neighborhood news, served fresh."),
    ("saguaro-sentinel", "Saguaro Sentinel", "json", "US", "AZ", "Arizona", "Phoenix", "en", "health", "#a16207",
     ["Maryvale", "Arcadia", "South Mountain"], "Phoenix Scorpions", "",
     "Health, heat and everyday news for the Valley of the Sun."),
    ("rose-city-rambler", "Rose City Rambler", "atom", "US", "OR", "Oregon", "Portland", "en", "lifestyle", "#9d174d",
     ["Alberta Arts", "Sellwood", "St. Johns"], "Portland Timberwolves", "",
     "Lifestyle, food carts and neighborhood news from Portland, Oregon."),
    ("casco-bay-chronicle", "Casco Bay Chronicle", "rss", "US", "ME", "Maine", "Portland", "en", "local", "#155e75",
     ["Munjoy Hill", "the West End", "Deering"], "Portland Mariners", "",
     "Local news for Portland, Maine, the islands of Casco Bay and Cumberland County."),
    ("la-voz-del-valle", "La Voz del Valle Angelino", "rss", "US", "CA", "California", "Los Angeles", "es", "local", "#dc2626",
     ["Boyle Heights", "Pacoima", "Huntington Park"], "Cometas de Los Ángeles", "",
     "Noticias locales en español para las familias del condado de Los Ángeles."),
    ("el-faro-de-la-bahia", "El Faro de la Bahía", "atom", "US", "FL", "Florida", "Miami", "es", "local", "#0369a1",
     ["la Pequeña Habana", "Hialeah Gardens", "Westchester"], "Tarpones de Miami", "",
     "Noticias de Miami y el sur de Florida para la comunidad hispana."),
    ("cronica-del-bayou", "Crónica del Bayou", "json", "US", "TX", "Texas", "Houston", "es", "local", "#15803d",
     ["el East End", "Gulfton", "Magnolia Park"], "Petroleros de Houston", "",
     "Periodismo local en español para Houston y sus alrededores."),
    ("centinela-del-alamo", "El Centinela del Álamo", "rss", "US", "TX", "Texas", "San Antonio", "es", "local", "#9a3412",
     ["el West Side", "Southtown", "Las Palmas"], "Halcones de San Antonio", "",
     "Noticias, cultura y negocios de San Antonio, en español."),
    ("paso-norte-noticias", "Noticias Paso Norte", "rss", "US", "TX", "Texas", "El Paso", "es", "local", "#7c2d12",
     ["el Segundo Barrio", "Northeast", "Montana Vista"], "Correcaminos de El Paso", "mrss",
     "Noticias de la frontera: El Paso, el valle y la vida entre dos países."),
    ("rideau-record", "The Rideau Record", "atom", "CA", "ON", "Ontario", "Ottawa", "en", "politics", "#991b1b",
     ["the Glebe", "Vanier", "Westboro"], "Ottawa Voyageurs", "",
     "City hall, Parliament Hill as a neighbour, and the communities of Ottawa."),
    ("don-valley-daily", "Don Valley Daily", "rss", "CA", "ON", "Ontario", "Toronto", "en", "local", "#6d28d9",
     ["Scarborough", "Leslieville", "the Junction"], "Toronto Trilliums", "mrss",
     "Toronto news across the old city and the inner suburbs, with video."),
    ("salish-harbour-times", "Salish Harbour Times", "json", "CA", "BC", "British Columbia", "Vancouver", "en", "local", "#047857",
     ["Mount Pleasant", "Strathcona", "Kitsilano"], "Vancouver Orcas", "",
     "News from Vancouver and the coast, from the harbour to the mountains."),
    ("bow-river-bulletin", "Bow River Bulletin", "atom", "CA", "AB", "Alberta", "Calgary", "en", "business", "#92400e",
     ["Inglewood", "Bridgeland", "Forest Lawn"], "Calgary Chinooks", "",
     "Business and community news for Calgary and southern Alberta."),
    ("red-river-courant", "Red River Courant", "rss", "CA", "MB", "Manitoba", "Winnipeg", "en", "local", "#b91c1c",
     ["St. Boniface", "the Exchange District", "Transcona"], "Winnipeg Frostbacks", "",
     "Winnipeg's local news, weather and community life."),
    ("halifax-tideline", "Halifax Tideline", "atom", "CA", "NS", "Nova Scotia", "Halifax", "en", "local", "#0e7490",
     ["the North End", "Clayton Park", "Spryfield"], "Halifax Gales", "",
     "Halifax and Nova Scotia news, from the waterfront to the Valley."),
    ("carillon-du-plateau", "Le Carillon du Plateau", "rss", "CA", "QC", "Québec", "Montréal", "fr", "local", "#1e40af",
     ["Rosemont", "Villeray", "Hochelaga"], "Renards de Montréal", "",
     "L'actualité des quartiers de Montréal, de la ruelle à l'hôtel de ville."),
    ("echo-de-la-capitale", "L'Écho de la Capitale", "atom", "CA", "QC", "Québec", "Québec", "fr", "politics", "#312e81",
     ["Limoilou", "Saint-Roch", "Sillery"], "Ours blancs de Québec", "",
     "Politique et vie locale dans la capitale nationale du Québec."),
    ("heraut-outaouais", "Le Héraut de l'Outaouais", "json", "CA", "QC", "Québec", "Gatineau", "fr", "local", "#115e59",
     ["Hull", "Aylmer", "Buckingham"], "Outardes de Gatineau", "",
     "Nouvelles de Gatineau et de l'Outaouais, des deux côtés de la rivière."),
    ("sentinelle-estrie", "La Sentinelle de l'Estrie", "rss", "CA", "QC", "Québec", "Sherbrooke", "fr", "education", "#854d0e",
     ["Fleurimont", "Lennoxville", "Rock Forest"], "Castors de Sherbrooke", "",
     "Éducation, culture et vie régionale à Sherbrooke et en Estrie."),
    ("ondes-mauricie", "Les Ondes de la Mauricie", "rss", "CA", "QC", "Québec", "Trois-Rivières", "fr", "entertainment", "#7e22ce",
     ["Cap-de-la-Madeleine", "Pointe-du-Lac", "Trois-Rivières-Ouest"], "Hérons de Trois-Rivières", "podcast",
     "Un balado hebdomadaire sur la culture, la musique et les gens de Trois-Rivières et de la Mauricie."),
    ("phare-acadien", "Le Phare acadien", "atom", "CA", "NB", "Nouveau-Brunswick", "Moncton", "fr", "local", "#0c4a6e",
     ["Lewisville", "Sunny Brae", "Humphrey"], "Aigrettes de Moncton", "",
     "L'actualité acadienne de Moncton et du sud-est du Nouveau-Brunswick."),
]
PUBS = []
for (key, name, fmt, country, state, state_name, city, lang, cat, color, hoods, team, flags, about) in P:
    PUBS.append(dict(key=key, name=name, fmt=fmt, country=country, state=state, state_name=state_name,
                     city=city, lang=lang, category=cat, color=color, hoods=hoods, team=team,
                     mrss="mrss" in flags, podcast="podcast" in flags, about=about))
PUBS[[p["key"] for p in PUBS].index("la-voz-del-valle")]["city_local"] = "Los Ángeles"
PUB = {p["key"]: p for p in PUBS}

POOLS = {
    "en": dict(
        f=["Alicia", "Brenda", "Carmen", "Danielle", "Erin", "Fatima", "Grace", "Hannah", "Imani", "Julia", "Keiko",
           "Lena", "Maya", "Nadia", "Olivia", "Priya", "Rosa", "Sofia", "Tamsin", "Vanessa", "Wendy", "Yara", "Zoe",
           "Margaret", "Denise", "Lucia", "Harper", "Renee"],
        m=["Aaron", "Benjamin", "Carlos", "Darnell", "Elliot", "Farid", "Gabriel", "Hector", "Isaac", "Jamal", "Kevin",
           "Luis", "Marcus", "Nathan", "Omar", "Patrick", "Quentin", "Raymond", "Samuel", "Theo", "Victor", "Warren"],
        l=["Abernathy", "Brennan", "Castellano", "Delacroix", "Ellsworth", "Fairbanks", "Galloway", "Holloway",
           "Ingersoll", "Jablonski", "Kowalczyk", "Lindqvist", "Nakamura", "Okonkwo", "Pemberton", "Quintero",
           "Rasmussen", "Sorensen", "Thibault", "Underwood", "Whitlock", "Yamashita", "Zielinski", "Ashcombe",
           "Birchfield", "Calloway", "Dunmore", "Everly", "Marchetti", "Osei"],
        street=["Maple Avenue", "Harbor Street", "Grand Boulevard", "Elm Street", "Jefferson Avenue", "Mill Road",
                "Cedar Lane", "Union Street", "Lakeview Drive", "Central Avenue", "Oak Street", "Station Road"],
        park=["Riverside Park", "Linden Park", "Founders Park", "Willow Creek Park", "Hilltop Park", "Memorial Park"],
        school=["Sloan Park High", "Eastbrook Middle School", "Northgate High", "Cedar Hill Elementary",
                "Westfield Academy", "Lincoln Heights High"],
        arena=["the Civic Arena", "Memorial Stadium", "the Fairgrounds Coliseum", "Lakeside Field"],
        venue=["Lyric Hall", "the Maple Street Community Center", "the Riverside Library", "the Orpheum Annex",
               "the Union Street Armory", "Harborview Hall"],
        biz=["Juniper & Rye", "Blue Door Bakery", "Copperpot Kitchen", "Two Sparrows", "Lantern Noodle House",
             "Fennel & Salt", "Hollis Hardware", "Brightline Labs", "Cobalt Cell Recovery", "Marigold Café"],
        day=["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]),
    "es": dict(
        f=["Adriana", "Beatriz", "Carolina", "Daniela", "Elena", "Fernanda", "Gabriela", "Hilda", "Irma", "Jimena",
           "Karla", "Lorena", "Marisol", "Norma", "Olga", "Paola", "Rocío", "Silvia", "Teresa", "Verónica", "Ximena"],
        m=["Alejandro", "Bernardo", "César", "Diego", "Emilio", "Fernando", "Gerardo", "Héctor", "Ignacio", "Javier",
           "Leonardo", "Manuel", "Néstor", "Octavio", "Pablo", "Ramiro", "Sergio", "Tomás", "Ulises", "Víctor"],
        l=["Aguirre", "Barragán", "Cárdenas", "Delgado", "Espinoza", "Fuentes", "Gallardo", "Herrera", "Ibarra",
           "Lozano", "Montoya", "Navarro", "Ochoa", "Peralta", "Quiroga", "Robles", "Saldívar", "Treviño", "Urías",
           "Valdez", "Zepeda"],
        street=["la calle Olmo", "la avenida Central", "la calle Primavera", "la avenida Las Flores", "la calle Mesquite",
                "la avenida del Río", "la calle Alameda"],
        park=["el parque Los Olmos", "el parque Esperanza", "el parque del Río", "el parque Las Palmas"],
        school=["Las Palmas", "Valle Verde", "Río Grande", "Sol Naciente", "Benito Ramos", "Los Pinos", "La Esperanza"],
        arena=["el Estadio Municipal", "la Arena del Río", "el Campo Los Álamos"],
        venue=["el Teatro Alameda", "el Centro Comunitario Esperanza", "la Biblioteca del Río", "el Salón Aurora"],
        biz=["Panadería La Espiga", "Taquería El Farolito", "Café Colibrí", "Mariscos La Perla", "Tienda Don Chuy",
             "Cocina Doña Lupe"],
        day=["lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo"]),
    "fr": dict(
        f=["Amélie", "Béatrice", "Chantal", "Danielle", "Élise", "Françoise", "Geneviève", "Hélène", "Isabelle",
           "Josée", "Karine", "Louise", "Manon", "Nathalie", "Océane", "Pascale", "Rosalie", "Sophie", "Valérie"],
        m=["Alexandre", "Benoît", "Christophe", "Denis", "Étienne", "François", "Gilles", "Hugo", "Jérôme", "Laurent",
           "Marc-André", "Nicolas", "Olivier", "Pierre-Luc", "Raphaël", "Sébastien", "Thierry", "Vincent", "Yannick"],
        l=["Arsenault", "Bélanger", "Cormier", "Fortin", "Gagnon", "Hébert", "Lavoie", "Leblanc", "Morin", "Nadeau",
           "Ouellet", "Pelletier", "Savard", "Tremblay", "Vachon", "Côté", "Boucher", "Gauthier", "Poirier",
           "Thériault", "Doiron"],
        street=["la rue Principale", "la rue des Érables", "l'avenue du Parc", "la rue Saint-Laurent",
                "la rue des Forges", "l'avenue des Pins", "la rue King"],
        park=["parc des Érables", "parc du Moulin", "parc de la Rivière", "parc Jacques-Cartier"],
        school=["Sainte-Famille", "des Trois-Sources", "du Boisé", "des Grands-Vents", "de la Source", "du Petit-Bois"],
        arena=["l'aréna municipal", "le Colisée régional", "le Centre sportif du Moulin"],
        venue=["la Maison de la culture", "la salle Le Tremplin", "la bibliothèque centrale", "l'aréna municipal"],
        biz=["Boulangerie du Coin", "Café La Brûlerie", "Chez Mémé", "Épicerie Le Panier", "Bistro Le Quai",
             "Atelier Tournesol"],
        day=["lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche"]),
}

CLOSING = {
    "en": ["{pub} will follow this story as it develops. Have a tip or a correction? Write to the newsroom.",
           "This story was reported by {pub}'s local desk. Readers can send questions and tips through our website.",
           "{pub} is an independent local newsroom. Tell us what we missed and what we should cover next."],
    "es": ["Seguiremos informando sobre este tema. ¿Tiene un dato o una corrección? Escriba a nuestra redacción.",
           "Esta nota fue elaborada por nuestra redacción local. Puede enviarnos sus preguntas desde nuestro sitio web."],
    "fr": ["{pub} continuera de suivre ce dossier. Une information ou une correction ? Écrivez à la rédaction.",
           "Ce texte a été préparé par notre salle de nouvelles. Envoyez-nous vos questions par notre site web."],
}

PODCAST_EPISODES = {
    "district-audio-desk": [
        ("local", "The bus lane that changed a commute", "We ride the new bus lane on 16th Street with two drivers and a nurse who saves twenty minutes a day, and ask why other corridors are still waiting."),
        ("food", "Half-smokes, and the cooks who keep them going", "A tour of the District's late-night counters, where the same grill has been running since before most of their customers were born."),
        ("politics", "How a council hearing actually works", "A former council staffer explains what happens between the sign-up sheet and the vote, and how residents can be heard in three minutes."),
        ("education", "Inside a school that rebuilt its library", "Students at a Petworth middle school raised money for new shelves and books, and then chose every title themselves."),
        ("lifestyle", "Winter on the Anacostia River", "Rowers, birdwatchers and a park ranger explain why the river is busiest when everyone else stays home."),
        ("business", "The last typewriter repair shop", "A shop on a side street in Shaw still fixes typewriters, and its owner has a waiting list of young writers."),
        ("crime-safety", "What happens after you call 311", "We follow three service requests, from a broken streetlight to a dumped couch, to see how long the fix takes."),
        ("health", "Free clinics and the people who staff them", "Volunteer doctors and nurses describe a Saturday at a walk-in clinic in Anacostia, and what they wish patients knew."),
        ("science-tech", "Counting trees with a phone", "A group of high school students is mapping every street tree in Brookland with a free app, one block at a time."),
        ("entertainment", "Go-go music at fifty", "Musicians and fans look back on the sound that shaped the city, and the new bands keeping it alive in small clubs."),
        ("weather", "Why the District floods where it does", "A hydrologist walks us through the old creeks buried under city streets and why some basements flood in every storm."),
        ("opinion", "Listener mailbag: your letters on housing", "We read your letters about rents, new apartment buildings and the neighbors who worry about both."),
    ],
    "ondes-mauricie": [
        ("entertainment", "Le festival de poésie vu des coulisses", "Bénévoles, poètes et techniciens racontent une semaine où toute la ville parle en vers, des cafés du centre-ville aux bancs du parc portuaire."),
        ("local", "La vie au bord du Saint-Laurent en hiver", "Des pêcheurs sur glace, une famille du Cap-de-la-Madeleine et un garde-côte expliquent comment le fleuve change la ville quand arrive le froid."),
        ("food", "Les cabanes à patates de la Mauricie", "Une tournée des casse-croûte de bord de route, où la poutine se sert encore dans des barquettes de carton et où tout le monde se connaît."),
        ("education", "Un cégep qui forme des luthiers", "Des étudiants apprennent à fabriquer des violons et des guitares, et leurs professeurs parlent d'un métier qui attire de nouveau les jeunes."),
        ("business", "Le retour des petites papeteries", "Deux commerçantes de la rue des Forges expliquent pourquoi le papier, les cartes et les carnets se vendent mieux qu'il y a dix ans."),
        ("sports", "Le baseball d'été, même en novembre", "Les partisans des Hérons parlent de la saison passée, des soirées au stade et des jeunes joueurs qui rêvent des ligues majeures."),
        ("health", "Bien dormir quand les jours raccourcissent", "Une médecin de famille et un chercheur en sommeil répondent aux questions des auditeurs sur la fatigue de l'hiver et la lumière du matin."),
        ("lifestyle", "Les ruelles vertes de Trois-Rivières", "Des voisins de Trois-Rivières-Ouest ont transformé leur ruelle en jardin partagé, avec des bacs à fleurs, une bibliothèque libre et des bancs."),
    ],
}

# ---------------------------------------------------------------- helpers

def slugify(s):
    import unicodedata
    s = unicodedata.normalize("NFKD", s).encode("ascii", "ignore").decode()
    s = re.sub(r"[^a-zA-Z0-9]+", "-", s).strip("-").lower()
    return s[:60].rstrip("-")


def iso(t):
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def rfc822(t):
    return t.strftime("%a, %d %b %Y %H:%M:%S +0000")


def words(text):
    return len(re.sub(r"<[^>]+>", " ", text).split())


def money(rng, lang):
    v = rng.choice([1.2, 2.4, 3.1, 4.8, 6.5, 8.2, 12.5, 18.7, 24.3, 31.9])
    if lang == "en":
        return f"${v} million"
    if lang == "es":
        return f"{v} millones de dólares"
    return f"{str(v).replace('.', ',')} millions de dollars"


def person(rng, lang, kind="f"):
    pool = POOLS[lang]
    return f"{rng.choice(pool[kind])} {rng.choice(pool['l'])}"


def fill(tpl, pub, rng):
    lang = pub["lang"]
    pool = POOLS[lang]
    rivals = [p["team"] for p in PUBS if p["lang"] == lang and p["team"] != pub["team"]]
    slots = dict(city=pub.get("city_local", pub["city"]), region=pub["state_name"], hood=rng.choice(pub["hoods"]),
                 person=person(rng, lang, "f"), personm=person(rng, lang, "m"), person2=person(rng, lang, "m"),
                 street=rng.choice(pool["street"]), park=rng.choice(pool["park"]), school=rng.choice(pool["school"]),
                 venue=rng.choice(pool["venue"]), arena=rng.choice(pool["arena"]), biz=rng.choice(pool["biz"]), team=pub["team"],
                 rival=rng.choice(rivals), n=str(rng.randint(2, 9)), num=str(rng.randint(24, 880)),
                 pct=str(rng.randint(3, 38)), money=money(rng, lang), day=rng.choice(pool["day"]))
    for k, choices in sorted(tpl.get("v", {}).items()):
        slots[k] = rng.choice(choices)
    # choices may contain slots themselves
    for _ in range(2):
        slots = {k: v.format(**slots) if "{" in v else v for k, v in slots.items()}
    title = tpl["t"].format(**slots)
    text = tpl["b"].format(**slots)
    if lang == "fr":  # elision: "de Aylmer" -> "d'Aylmer"
        title, text = (re.sub(r"\b([Dd])e ([AEIOUÉÈÀÂaeiouéèàâ])", r"\1'\2", x) for x in (title, text))
    if lang == "es":
        title, text = (re.sub(r"\b([Dd]e) el\b", r"\1l", x) for x in (title, text))
        title, text = (re.sub(r"\b([Aa]) el\b", r"\1l", x) for x in (title, text))
    return title[0].upper() + title[1:], text

# ---------------------------------------------------------------- story assembly

def build_items(rng):
    items = []  # dicts: pub, cat, title, text, event, kind

    def add(pubkey, cat, title, text, event=None, kind="story"):
        assert pubkey in PUB, pubkey
        assert cat in CATEGORIES, cat
        items.append(dict(pub=pubkey, cat=cat, title=title, text=text, event=event, kind=kind))

    # events: coverage published within ~14 hours of each other
    event_time = {}
    for ev in EVENTS:
        event_time[ev["id"]] = rng.uniform(0.4, 6.3) * 86400
        for (pk, cat, title, text) in ev["cov"]:
            add(pk, cat, title, text, event=ev["id"])
    for (pk, cat, title, text) in PLACE_STORIES:
        add(pk, cat, title, text, kind="place")
    for pk, eps in PODCAST_EPISODES.items():
        for i, (cat, title, blurb) in enumerate(eps, 1):
            add(pk, cat, title, blurb, kind="episode")
    # everyday stories from templates
    used = {lang: {} for lang in TEMPLATES}
    used_in_city = {}
    for pub in PUBS:
        if pub["podcast"]:
            continue
        have = [it for it in items if it["pub"] == pub["key"]]
        need = ITEMS_PER_FEED - len(have)
        cats_have = [it["cat"] for it in have]
        city_key = (pub["city"], pub["lang"])
        taken = used_in_city.setdefault(city_key, set())
        tpls = [t for t in TEMPLATES[pub["lang"]]
                if not (pub["state"] == "DC" and "{region}" in t["b"])]
        for _ in range(need):
            # never the same template twice in one city (two Portlands, two Miamis, ...)
            free = [t for t in tpls if id(t) not in taken] or tpls
            # prefer the publisher's own category, then categories it lacks, then least-used templates
            def score(t):
                c = t["cat"]
                own = 0 if c == pub["category"] and cats_have.count(c) < 4 else 1
                return (cats_have.count(c) + own * 0.5, used[pub["lang"]].get(id(t), 0), rng.random())
            t = min(free, key=score)
            taken.add(id(t))
            used[pub["lang"]][id(t)] = used[pub["lang"]].get(id(t), 0) + 1
            title, text = fill(t, pub, rng)
            cats_have.append(t["cat"])
            add(pub["key"], t["cat"], title, text, kind="template")
    return items, event_time

# ---------------------------------------------------------------- images

SHAPES = {
    "local": '<path d="M250 260h140v-70l-70-50-70 50z" fill="#fff" opacity=".85"/>',
    "politics": '<path d="M240 250h160v12H240zM255 180h12v68h-12zM290 180h12v68h-12zM338 180h12v68h-12zM373 180h12v68h-12zM240 160l80-40 80 40z" fill="#fff" opacity=".85"/>',
    "business": '<path d="M240 260V220h30v40zM290 260V190h30v70zM340 260V160h30v100z" fill="#fff" opacity=".85"/>',
    "sports": '<circle cx="320" cy="200" r="55" fill="#fff" opacity=".85"/><path d="M265 200h110M320 145v110" stroke="#000" stroke-opacity=".3" stroke-width="6"/>',
    "entertainment": '<path d="M320 140l17 36 40 5-29 28 7 40-35-19-35 19 7-40-29-28 40-5z" fill="#fff" opacity=".85"/>',
    "health": '<path d="M300 150h40v35h35v40h-35v35h-40v-35h-35v-40h35z" fill="#fff" opacity=".85"/>',
    "science-tech": '<rect x="270" y="155" width="100" height="90" rx="8" fill="#fff" opacity=".85"/><circle cx="320" cy="200" r="18" fill="#000" opacity=".25"/>',
    "weather": '<circle cx="300" cy="185" r="35" fill="#fff" opacity=".9"/><ellipse cx="340" cy="215" rx="60" ry="30" fill="#fff" opacity=".75"/>',
    "crime-safety": '<path d="M320 140l55 20v40c0 35-25 55-55 65-30-10-55-30-55-65v-40z" fill="#fff" opacity=".85"/>',
    "education": '<path d="M320 150l90 35-90 35-90-35zM270 205v35c30 20 70 20 100 0v-35" fill="#fff" opacity=".85"/>',
    "food": '<circle cx="320" cy="205" r="50" fill="#fff" opacity=".85"/><circle cx="320" cy="205" r="30" fill="none" stroke="#000" stroke-opacity=".2" stroke-width="4"/>',
    "lifestyle": '<path d="M320 260c-60-40-80-70-60-95 15-18 45-15 60 10 15-25 45-28 60-10 20 25 0 55-60 95z" fill="#fff" opacity=".85"/>',
    "opinion": '<path d="M250 150h140a10 10 0 0 1 10 10v70a10 10 0 0 1-10 10h-90l-35 30v-30h-15a10 10 0 0 1-10-10v-70a10 10 0 0 1 10-10z" fill="#fff" opacity=".85"/>',
}


def wrap(text, width=34, lines=2):
    out, cur = [], ""
    for w in text.split():
        if len(cur) + len(w) + 1 > width:
            out.append(cur)
            cur = w
            if len(out) == lines:
                break
        else:
            cur = (cur + " " + w).strip()
    else:
        out.append(cur)
    if len(out) > lines:
        out = out[:lines]
    if len(out) == lines and len(" ".join(out)) < len(text):
        out[-1] = out[-1][: width - 1].rstrip() + "…"
    return out


def item_svg(pub, cat, title, variant):
    shade = ["#000", "#fff"][variant % 2]
    lines = wrap(title)
    texts = "".join(f'<text x="24" y="{306 + i * 26}" font-size="20">{xesc(l)}</text>' for i, l in enumerate(lines))
    return ('<svg xmlns="http://www.w3.org/2000/svg" width="640" height="360" viewBox="0 0 640 360">'
            f'<rect width="640" height="360" fill="{pub["color"]}"/>'
            f'<circle cx="{80 + variant * 37 % 480}" cy="{60 + variant * 23 % 120}" r="{40 + variant % 5 * 12}" fill="{shade}" opacity=".12"/>'
            f'{SHAPES[cat]}'
            '<rect y="276" width="640" height="84" fill="#000" opacity=".45"/>'
            f'<g fill="#fff" font-family="sans-serif">'
            f'<text x="24" y="36" font-size="16" opacity=".9">{xesc(pub["name"])}</text>{texts}</g></svg>\n')


def icon_svg(pub):
    bare = re.sub(r"^(The|El|La|Le|Les|L')\s*", "", pub["name"])
    initials = "".join(w[0] for w in re.findall(r"[A-ZÉÁÀ][\w'’-]*", bare))[:2]
    if not initials:
        initials = pub["name"][:2]
    return ('<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96">'
            f'<rect width="96" height="96" rx="20" fill="{pub["color"]}"/>'
            f'<text x="48" y="60" font-family="serif" font-size="38" font-weight="bold" fill="#fff" text-anchor="middle">{xesc(initials)}</text>'
            '</svg>\n')

# ---------------------------------------------------------------- feeds

def paragraphs(text):
    return [p.strip() for p in text.split("\n\n") if p.strip()]


def first_sentences(text, limit=220):
    p = paragraphs(text)[0]
    if len(p) <= limit:
        return p
    cut = p[:limit].rsplit(" ", 1)[0]
    return cut + "…"


TRACK = ["utm_source=localwire-demo&utm_medium=rss&utm_campaign=feed", "utm_source=newsletter&utm_medium=email",
         "fbclid=IwAR0demo1234567890", "utm_campaign=winter&utm_content=link&gclid=demo-gclid-42"]
MORE = {"en": ("More from {pub}", "Read our earlier coverage", "see all {sec} stories"),
        "es": ("Más noticias", "Lea nuestra cobertura anterior", "ver todas las notas de {sec}"),
        "fr": ("À lire aussi", "Lire notre couverture précédente", "voir tous les articles {sec}")}


def content_html(it, pub, rng, related_path):
    esc = lambda t: html.escape(t, quote=False)
    ps = paragraphs(it["text"])
    lang = pub["lang"]
    img_rel = rng.random() < 0.5
    img_src = ("/media/images/" if img_rel else MEDIA + "/images/") + it["image"]
    parts = [f"<p>{esc(ps[0])}</p>",
             f'<figure><img src="{img_src}" alt="{html.escape(it["title"])}" width="640" height="360"/>'
             f'<figcaption>{esc(pub["name"])}</figcaption></figure>']
    for p in ps[1:]:
        parts.append(f"<p>{esc(p)}</p>")
    m = MORE[lang]
    track = TRACK[rng.randrange(len(TRACK))]
    sec_label = LABELS[lang][it["cat"]][0]
    section_url = html.escape(f"{HOST}/{pub['key']}/{it['cat']}/?{track}")
    colon = " :" if lang == "fr" else ":"
    parts.append(f'<p><strong>{esc(m[0].format(pub=pub["name"]))}{colon}</strong> '
                 f'<a href="{html.escape(related_path)}">{esc(m[1])}</a> · '
                 f'<a href="{section_url}">{esc(m[2].format(sec=sec_label))}</a></p>')
    r = rng.random()
    if r < 0.15:
        pixel = html.escape(f"{HOST}/pixel.gif?{TRACK[0]}&id={pub['key']}-{it['n']}")
        parts.append(f'<img src="{pixel}" width="1" height="1" alt=""/>')
    elif r < 0.22:
        parts.append('<script>window.demoTracker && window.demoTracker("view")</script>')
    return "\n".join(parts)


def plain_text(it):
    return "\n\n".join(paragraphs(it["text"]))


def rss_feed(pub, items, rng):
    pc = pub["podcast"]
    ns = ['xmlns:content="http://purl.org/rss/1.0/modules/content/"', 'xmlns:dc="http://purl.org/dc/elements/1.1/"',
          'xmlns:atom="http://www.w3.org/2005/Atom"']
    if pub["mrss"] or pc:
        ns.append('xmlns:media="http://search.yahoo.com/mrss/"')
    if pc:
        ns.append('xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"')
    lang_tag = {"en": "en-US" if pub["country"] == "US" else "en-CA", "es": "es-US", "fr": "fr-CA"}[pub["lang"]]
    out = ['<?xml version="1.0" encoding="UTF-8"?>', f'<rss version="2.0" {" ".join(ns)}>', "<channel>",
           f"<title>{xesc(pub['name'])}</title>", f"<link>{pub['home']}</link>",
           f"<description>{xesc(pub['about'])}</description>", f"<language>{lang_tag}</language>",
           f'<atom:link href="{pub["home"]}feed.xml" rel="self" type="application/rss+xml"/>',
           f"<lastBuildDate>{rfc822(BASE)}</lastBuildDate>",
           f"<image><url>{pub['icon_url']}</url><title>{xesc(pub['name'])}</title><link>{pub['home']}</link></image>"]
    if pc:
        out += [f"<itunes:author>{xesc(pub['name'])}</itunes:author>", f"<itunes:summary>{xesc(pub['about'])}</itunes:summary>",
                f'<itunes:image href="{pub["icon_url"]}"/>', "<itunes:explicit>false</itunes:explicit>",
                "<itunes:type>episodic</itunes:type>",
                f'<itunes:category text="{"News" if pub["lang"] == "en" else "Arts"}"/>',
                f"<itunes:owner><itunes:name>{xesc(pub['name'])}</itunes:name><itunes:email>{pub['key']}@demo.localwire.invalid</itunes:email></itunes:owner>"]
    for it in items:
        out.append("<item>")
        out.append(f"<title>{xesc(it['title'])}</title>")
        out.append(f"<link>{xesc(it['link'])}</link>")
        perma = it["guid"].startswith("http")
        out.append(f'<guid isPermaLink="{"true" if perma else "false"}">{xesc(it["guid"])}</guid>')
        out.append(f"<pubDate>{rfc822(it['time'])}</pubDate>")
        out.append(f"<dc:creator>{xesc(it['author'])}</dc:creator>")
        for c in it["feed_cats"]:
            out.append(f"<category>{xesc(c)}</category>")
        if it["full"]:
            out.append(f"<description>{xesc(it['summary'])}</description>")
            out.append(f"<content:encoded><![CDATA[{it['html']}]]></content:encoded>")
        else:
            out.append(f"<description>{xesc(plain_text(it))}</description>")
        img = f"{MEDIA}/images/{it['image']}"
        if it.get("video"):
            v = it["video"]
            out.append(f'<media:content url="{MEDIA}/video/{v}" medium="video" type="video/{v.rsplit(".", 1)[1]}" duration="2" width="160" height="90">'
                       f'<media:title>{xesc(it["title"])}</media:title><media:thumbnail url="{img}" width="640" height="360"/></media:content>')
        elif pub["mrss"]:
            if it["n"] % 2:
                out.append(f'<media:content url="{img}" medium="image" type="image/svg+xml" width="640" height="360"/>')
            out.append(f'<media:thumbnail url="{img}" width="640" height="360"/>')
        elif not pc and not it["full"]:
            out.append(f'<enclosure url="{img}" length="{it["image_len"]}" type="image/svg+xml"/>')
        if pc:
            a = it["audio"]
            out.append(f'<enclosure url="{MEDIA}/audio/{a}" length="{it["audio_len"]}" type="audio/mpeg"/>')
            out.append(f"<itunes:title>{xesc(it['title'])}</itunes:title>")
            out.append(f"<itunes:episode>{it['episode']}</itunes:episode>")
            out.append("<itunes:episodeType>full</itunes:episodeType>")
            out.append(f"<itunes:duration>{it['duration']}</itunes:duration>")
            out.append(f"<itunes:summary>{xesc(it['summary'])}</itunes:summary>")
            out.append(f'<itunes:image href="{img}"/>')
            out.append("<itunes:explicit>false</itunes:explicit>")
            out.append(f'<media:thumbnail url="{img}" width="640" height="360"/>')
        out.append("</item>")
    out += ["</channel>", "</rss>", ""]
    return "\n".join(out)


def atom_feed(pub, items, rng):
    lang_tag = {"en": "en-US" if pub["country"] == "US" else "en-CA", "es": "es-US", "fr": "fr-CA"}[pub["lang"]]
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           f'<feed xmlns="http://www.w3.org/2005/Atom" xmlns:media="http://search.yahoo.com/mrss/" xml:lang="{lang_tag}">',
           f"<title>{xesc(pub['name'])}</title>", f"<subtitle>{xesc(pub['about'])}</subtitle>",
           f'<link rel="alternate" type="text/html" href="{pub["home"]}"/>',
           f'<link rel="self" type="application/atom+xml" href="{pub["home"]}atom.xml"/>',
           f"<id>tag:demo.localwire.invalid,2026:{pub['key']}</id>", f"<updated>{iso(BASE)}</updated>",
           f"<icon>{pub['icon_url']}</icon>", f"<logo>{pub['icon_url']}</logo>"]
    for it in items:
        img = f"{MEDIA}/images/{it['image']}"
        out.append("<entry>")
        out.append(f'<title type="text">{xesc(it["title"])}</title>')
        out.append(f'<link rel="alternate" type="text/html" href={quoteattr(it["link"])}/>')
        out.append(f"<id>{xesc(it['guid'])}</id>")
        out.append(f"<published>{iso(it['time'])}</published>")
        out.append(f"<updated>{iso(it.get('updated', it['time']))}</updated>")
        out.append(f"<author><name>{xesc(it['author'])}</name></author>")
        for c in it["feed_cats"]:
            out.append(f"<category term={quoteattr(c)}/>")
        if it["full"]:
            out.append(f'<summary type="text">{xesc(it["summary"])}</summary>')
            out.append(f'<content type="html">{xesc(it["html"])}</content>')
        else:
            out.append(f'<summary type="text">{xesc(plain_text(it))}</summary>')
        if it["n"] % 3 == 0:
            out.append(f'<link rel="enclosure" type="image/svg+xml" length="{it["image_len"]}" href="{img}"/>')
        else:
            out.append(f'<media:thumbnail url="{img}" width="640" height="360"/>')
        out.append("</entry>")
    out += ["</feed>", ""]
    return "\n".join(out)


def json_feed(pub, items, rng):
    lang_tag = {"en": "en-US" if pub["country"] == "US" else "en-CA", "es": "es-US", "fr": "fr-CA"}[pub["lang"]]
    feed = {"version": "https://jsonfeed.org/version/1.1", "title": pub["name"], "home_page_url": pub["home"],
            "feed_url": pub["home"] + "feed.json", "description": pub["about"], "icon": pub["icon_url"],
            "favicon": pub["icon_url"], "language": lang_tag,
            "authors": [{"name": pub["name"], "url": pub["home"]}], "items": []}
    for it in items:
        img = f"{MEDIA}/images/{it['image']}"
        j = {"id": it["guid"], "url": it["link"], "title": it["title"]}
        if it["full"]:
            j["content_html"] = it["html"]
            j["summary"] = it["summary"]
        else:
            j["content_text"] = plain_text(it)
        j["image"] = img
        if it["n"] % 2 == 0:
            j["banner_image"] = img
        j["date_published"] = iso(it["time"])
        j["authors"] = [{"name": it["author"]}]
        j["tags"] = it["feed_cats"]
        j["language"] = lang_tag
        feed["items"].append(j)
    return json.dumps(feed, ensure_ascii=False, indent=1) + "\n"

# ---------------------------------------------------------------- main

def write(path, text):
    full = os.path.join(HERE, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)


def main():
    rng = random.Random(SEED)
    for d in ("feeds", "media/images", "media/icons"):
        full = os.path.join(HERE, d)
        if os.path.isdir(full):
            for fn in os.listdir(full):
                os.remove(os.path.join(full, fn))
    ext = {"rss": "xml", "atom": "atom", "json": "json"}
    for pub in PUBS:
        pub["home"] = f"{HOST}/{pub['key']}/"
        pub["feed"] = f"feeds/{pub['key']}.{ext[pub['fmt']]}"
        pub["icon"] = f"media/icons/{pub['key']}.svg"
        pub["icon_url"] = f"{MEDIA}/icons/{pub['key']}.svg"
        pub["staff"] = [person(rng, pub["lang"], k) for k in ("f", "m", "f")]
        write(pub["icon"], icon_svg(pub))

    items, event_time = build_items(rng)
    # Developing stories (stories_developing.py) come after everything else is drawn and
    # have fixed times, so the rest of the corpus is the same with or without them.
    for ev in DEVELOPING:
        for (pk, cat, hours, title, text) in ev["cov"]:
            assert pk in PUB and cat in CATEGORIES, (pk, cat)
            items.append(dict(pub=pk, cat=cat, title=title, text=text, event=ev["id"], kind="developing",
                              secs=int(hours * 3600)))
    audio_len = {a: os.path.getsize(os.path.join(HERE, "media/audio", a)) for a in ("demo-chime.mp3", "demo-sweep.mp3")}
    manifest = []
    by_pub = {p["key"]: [] for p in PUBS}
    for it in items:
        by_pub[it["pub"]].append(it)

    for pub in PUBS:
        lst = by_pub[pub["key"]]
        lang = pub["lang"]
        # times: events near their event time, others spread over the last 7 days
        for it in lst:
            if "secs" in it:
                secs = it["secs"]
            elif it["event"]:
                secs = event_time[it["event"]] + rng.uniform(-7, 7) * 3600
            else:
                secs = rng.uniform(0.05, 6.95) * 86400
            secs = max(600, min(secs, 7 * 86400 - 600))
            it["time"] = BASE - dt.timedelta(seconds=int(secs))
        lst.sort(key=lambda x: x["time"], reverse=True)
        videos = 0
        for n, it in enumerate(lst, 1):
            it["n"] = n
            it["link"] = f"{HOST}/{pub['key']}/{it['cat']}/{it['time'].strftime('%Y/%m/%d')}/{slugify(it['title'])}"
        for n, it in enumerate(lst, 1):
            sec = it["cat"]
            if pub["fmt"] == "atom":
                it["guid"] = f"tag:demo.localwire.invalid,2026:{pub['key']}/{1000 + n}"
            elif pub["fmt"] == "json":
                it["guid"] = f"{pub['key']}-{it['time'].strftime('%Y%m%d')}-{n:03d}"
            elif n % 2:
                it["guid"] = it["link"]
            else:
                it["guid"] = f"{pub['key']}:{2026}{n:04d}"
            if rng.random() < 0.12:
                it["link"] += "?utm_source=rss&utm_medium=feed"
            it["author"] = pub["name"] if pub["podcast"] else pub["staff"][n % 3]
            label = LABELS[lang][sec][1 if rng.random() < 0.3 else 0]
            tags = [label]
            if rng.random() < 0.6:
                tags.append(pub["city"])
            if it["event"] and rng.random() < 0.5:
                tags.append(LABELS[lang]["local"][0] if sec != "local" else LABELS[lang]["politics"][0])
            it["feed_cats"] = tags
            it["image"] = f"{pub['key']}-{n:02d}.svg"
            svg = item_svg(pub, sec, it["title"], n)
            it["image_len"] = len(svg.encode("utf-8"))
            write("media/images/" + it["image"], svg)
            # texts: events/places/templates get a closing line when short; episodes get show notes
            if it["kind"] == "episode":
                host1, host2 = pub["staff"][0], pub["staff"][1]
                if lang == "en":
                    extra = (f"Hosted by {host1} and {host2}. Episode {len(lst) - n + 1} of our weekly conversation about the city. "
                             "Send us your questions and story ideas; we read every message and answer some of them on the show. "
                             "New episodes arrive every week, with a transcript on our website.")
                else:
                    extra = (f"Animation : {host1} et {host2}. Épisode {len(lst) - n + 1} de notre rendez-vous hebdomadaire. "
                             "Écrivez-nous vos questions et vos idées de reportage; nous lisons tous les messages et répondons à certains en ondes. "
                             "Un nouvel épisode chaque semaine, avec la transcription sur notre site.")
                it["text"] = it["text"] + "\n\n" + extra
                it["episode"] = len(lst) - n + 1
                it["audio"] = ["demo-chime.mp3", "demo-sweep.mp3"][n % 2]
                it["audio_len"] = audio_len[it["audio"]]
                it["duration"] = f"00:{18 + n:02d}:{(n * 7) % 60:02d}"
            elif words(it["text"]) < 75:
                closings = CLOSING[lang][:]
                rng.shuffle(closings)
                for c in closings:
                    it["text"] += "\n\n" + c.format(pub=pub["name"])
                    if words(it["text"]) >= 62:
                        break
            if pub["mrss"] and lang != "es" and videos < 5 and it["cat"] in ("sports", "weather", "local", "entertainment", "crime-safety", "food", "politics", "business") and n % 2 == 0:
                it["video"] = ["demo-clip.webm", "demo-clip.mp4"][videos % 2]
                videos += 1
                it["title"] = {"en": "Video: ", "fr": "Vidéo : "}[lang] + it["title"]
            it["summary"] = first_sentences(it["text"])
            it["full"] = (not pub["podcast"]) and rng.random() < 0.55
            if it["full"]:
                other = lst[(n % len(lst))]
                rel = other["link"].split("?")[0][len(HOST):]
                it["html"] = content_html(it, pub, rng, rel)
        # second pass for mrss feeds that did not reach 5 videos (any category)
        for it in lst:
            if pub["mrss"] and lang != "es" and videos < 5 and not it.get("video") and it["kind"] != "episode":
                it["video"] = ["demo-clip.webm", "demo-clip.mp4"][videos % 2]
                videos += 1
                it["title"] = {"en": "Video: ", "fr": "Vidéo : "}[lang] + it["title"]

    # exact duplicates
    dups = []
    # 1) same GUID twice in one RSS feed (identical copy)
    src = by_pub["casco-bay-chronicle"][3]
    by_pub["casco-bay-chronicle"].insert(7, dict(src))
    dups.append({"kind": "same-guid-same-feed", "feed": PUB["casco-bay-chronicle"]["feed"], "guid": src["guid"]})
    # 2) same id twice in an Atom feed, the second with a corrected title and a later <updated>
    src = by_pub["hudson-lantern"][5]
    upd = dict(src)
    upd["title"] = src["title"] + " (updated)"
    upd["updated"] = src["time"] + dt.timedelta(hours=3)
    by_pub["hudson-lantern"].insert(2, upd)
    dups.append({"kind": "same-guid-same-feed-updated", "feed": PUB["hudson-lantern"]["feed"], "guid": src["guid"]})
    # 3) and 4) syndicated copies: same canonical URL in two feeds, different GUIDs
    for (a, b, idx) in (("red-river-courant", "bow-river-bulletin", 2), ("el-faro-de-la-bahia", "cronica-del-bayou", 4)):
        src = by_pub[a][idx]
        copy = dict(src)
        copy["pub"] = b
        copy["n"] = 900 + idx
        copy["author"] = src["author"] + (" / " + PUB[a]["name"])
        copy["guid"] = (f"tag:demo.localwire.invalid,2026:{b}/syndicated-{idx}" if PUB[b]["fmt"] == "atom"
                        else f"{b}-syndicated-{idx}")
        copy["time"] = src["time"] + dt.timedelta(hours=2)
        by_pub[b].insert(1, copy)
        dups.append({"kind": "same-url-two-feeds", "feeds": [PUB[a]["feed"], PUB[b]["feed"]], "link": src["link"]})

    for pub in PUBS:
        lst = by_pub[pub["key"]]
        if pub["fmt"] == "rss":
            write(pub["feed"], rss_feed(pub, lst, rng))
        elif pub["fmt"] == "atom":
            write(pub["feed"], atom_feed(pub, lst, rng))
        else:
            write(pub["feed"], json_feed(pub, lst, rng))
        for it in lst:
            manifest.append({"feed": pub["feed"], "publisher": pub["key"], "guid": it["guid"], "link": it["link"],
                             "title": it["title"], "lang": pub["lang"], "category": it["cat"],
                             "event": it["event"], "kind": it["kind"], "image": "media/images/" + it["image"],
                             "video": ("media/video/" + it["video"]) if it.get("video") else None,
                             "audio": ("media/audio/" + it["audio"]) if it.get("audio") else None,
                             "full_content": bool(it["full"]), "words": words(it["text"])})

    # publishers.json and OPML
    pubs_json = []
    for pub in PUBS:
        contact = {"en": f"Newsroom: newsroom@{pub['key']}.demo.localwire.invalid · Tips: +1-555-01{PUBS.index(pub):02d}",
                   "es": f"Redacción: redaccion@{pub['key']}.demo.localwire.invalid · Tel. +1-555-01{PUBS.index(pub):02d}",
                   "fr": f"Rédaction : redaction@{pub['key']}.demo.localwire.invalid · Tél. +1-555-01{PUBS.index(pub):02d}"}[pub["lang"]]
        pubs_json.append({"key": pub["key"], "name": pub["name"], "type": pub["fmt"], "feed": pub["feed"],
                          "home_url": pub["home"], "icon": pub["icon"], "icon_url": pub["icon_url"],
                          "country": pub["country"], "state": pub["state"], "state_name": pub["state_name"],
                          "city": pub["city"], "lang": pub["lang"], "category": pub["category"],
                          "about": pub["about"], "contact": contact, "color": pub["color"],
                          "podcast": pub["podcast"], "media_rss": pub["mrss"], "items": len(by_pub[pub["key"]])})
    write("publishers.json", json.dumps({"_comment": "Localwire demo publishers. All fictional. Generated by generate.py.",
                                         "base_date": iso(BASE), "publishers": pubs_json},
                                        ensure_ascii=False, indent=1) + "\n")
    opml = ['<?xml version="1.0" encoding="UTF-8"?>', f'<opml version="2.0" xmlns:localwire="{NS_OPML}">', "<head>",
            "<title>Localwire demo publishers (fictional)</title>",
            f"<dateCreated>{rfc822(BASE)}</dateCreated>", "<ownerName>Localwire demo corpus</ownerName>", "</head>", "<body>"]
    for pub, pj in zip(PUBS, pubs_json):
        opml.append(f'<outline text={quoteattr(pub["name"])} title={quoteattr(pub["name"])} type="{pub["fmt"]}" '
                    f'xmlUrl="{pub["feed"]}" htmlUrl="{pub["home"]}" '
                    f'localwire:country="{pub["country"]}" localwire:state="{pub["state"]}" '
                    f'localwire:city={quoteattr(pub["city"])} localwire:lang="{pub["lang"]}" '
                    f'localwire:category="{pub["category"]}" localwire:icon={quoteattr(pj["icon_url"])} '
                    f'localwire:about={quoteattr(pj["about"])} localwire:contact={quoteattr(pj["contact"])}/>')
    opml += ["</body>", "</opml>", ""]
    write("publishers.opml", "\n".join(opml))
    write("manifest.json", json.dumps({"_comment": "Ground truth for the demo corpus: one row per feed entry "
                                       "(duplicates included). 'event' groups coverage of the same story.",
                                       "base_date": iso(BASE), "duplicates": dups, "items": manifest},
                                      ensure_ascii=False, indent=1) + "\n")
    print(f"{len(PUBS)} publishers, {len(manifest)} feed entries written to {HERE}")


if __name__ == "__main__":
    main()
