#!/usr/bin/env python3
"""Generate the ingestion benchmark corpus: local feed files with a fixed number of items.

    python3 bench/make_feed_corpus.py OUT_DIR [--items 100000] [--seed 20261122]
        [--end now] [--span-days 365] [--retell 0.2]

Writes OUT_DIR/feeds/*.xml (RSS 2.0), *.atom (Atom 1.0) and *.json (JSON Feed 1.1), 50–200
items per file, about 45/30/25 per cent by format, and OUT_DIR/corpus.opml listing every
file as a file:// feed (with the publisher's country, state/province, city and language
as the demo's OPML has them), plus OUT_DIR/corpus.json with the counts. Deterministic for
a given seed. Python 3 standard library only.

The text is machine-made but shaped like local news: titles and summaries in English,
Spanish and French naming real US and Canadian cities (fictional publishers, people and
businesses), HTML bodies of 3–8 paragraphs with figures, links, entities, an occasional
tracking pixel or relative URL, Media RSS thumbnails and enclosures, categories and
authors. About a third of the RSS feeds carry only a description (no full content), as
many real feeds do.

The million-story bench (bench/million.sh, issue 33) asks for an archive shaped like a
busy region's year: `--end now` ends every feed an hour ago (not at the fixed 2026-11-20),
`--span-days` spreads each publisher's items over that many days, and `--retell` makes
that share of the items retell a story another publisher of the same city published in
the hours before (a reworded title over the same paragraphs), so stories form clusters.
Without these options the corpus is the same as before, byte for byte.
"""
import bisect
import argparse
import datetime as dt
import json
import pathlib
import random
import shutil
from xml.sax.saxutils import escape, quoteattr

# (city, state/province code, state/province name, country, languages written there)
CITIES = [
    ("New York City", "NY", "New York", "US", "en es"), ("Los Angeles", "CA", "California", "US", "en es"),
    ("Chicago", "IL", "Illinois", "US", "en es"), ("Houston", "TX", "Texas", "US", "en es"),
    ("Phoenix", "AZ", "Arizona", "US", "en es"), ("Philadelphia", "PA", "Pennsylvania", "US", "en"),
    ("San Antonio", "TX", "Texas", "US", "en es"), ("San Diego", "CA", "California", "US", "en es"),
    ("Dallas", "TX", "Texas", "US", "en es"), ("Austin", "TX", "Texas", "US", "en"),
    ("Jacksonville", "FL", "Florida", "US", "en"), ("Columbus", "OH", "Ohio", "US", "en"),
    ("Charlotte", "NC", "North Carolina", "US", "en"), ("Indianapolis", "IN", "Indiana", "US", "en"),
    ("San Francisco", "CA", "California", "US", "en"), ("Seattle", "WA", "Washington", "US", "en"),
    ("Denver", "CO", "Colorado", "US", "en es"), ("Washington", "DC", "District of Columbia", "US", "en"),
    ("Boston", "MA", "Massachusetts", "US", "en"), ("El Paso", "TX", "Texas", "US", "es en"),
    ("Nashville", "TN", "Tennessee", "US", "en"), ("Detroit", "MI", "Michigan", "US", "en"),
    ("Portland", "OR", "Oregon", "US", "en"), ("Portland", "ME", "Maine", "US", "en"),
    ("Las Vegas", "NV", "Nevada", "US", "en es"), ("Memphis", "TN", "Tennessee", "US", "en"),
    ("Louisville", "KY", "Kentucky", "US", "en"), ("Baltimore", "MD", "Maryland", "US", "en"),
    ("Milwaukee", "WI", "Wisconsin", "US", "en"), ("Albuquerque", "NM", "New Mexico", "US", "en es"),
    ("Tucson", "AZ", "Arizona", "US", "en es"), ("Fresno", "CA", "California", "US", "es en"),
    ("Sacramento", "CA", "California", "US", "en"), ("Atlanta", "GA", "Georgia", "US", "en"),
    ("Miami", "FL", "Florida", "US", "es en"), ("Minneapolis", "MN", "Minnesota", "US", "en"),
    ("New Orleans", "LA", "Louisiana", "US", "en"), ("Cleveland", "OH", "Ohio", "US", "en"),
    ("Tampa", "FL", "Florida", "US", "en es"), ("Pittsburgh", "PA", "Pennsylvania", "US", "en"),
    ("Salt Lake City", "UT", "Utah", "US", "en"), ("Springfield", "MO", "Missouri", "US", "en"),
    ("Burlington", "VT", "Vermont", "US", "en"), ("Anchorage", "AK", "Alaska", "US", "en"),
    ("Honolulu", "HI", "Hawaii", "US", "en"), ("Boise", "ID", "Idaho", "US", "en"),
    ("Toronto", "ON", "Ontario", "CA", "en"), ("Montréal", "QC", "Québec", "CA", "fr en"),
    ("Vancouver", "BC", "British Columbia", "CA", "en"), ("Calgary", "AB", "Alberta", "CA", "en"),
    ("Edmonton", "AB", "Alberta", "CA", "en"), ("Ottawa", "ON", "Ontario", "CA", "en fr"),
    ("Winnipeg", "MB", "Manitoba", "CA", "en"), ("Québec", "QC", "Québec", "CA", "fr"),
    ("Hamilton", "ON", "Ontario", "CA", "en"), ("Halifax", "NS", "Nova Scotia", "CA", "en"),
    ("Victoria", "BC", "British Columbia", "CA", "en"), ("Gatineau", "QC", "Québec", "CA", "fr"),
    ("Sherbrooke", "QC", "Québec", "CA", "fr"), ("Trois-Rivières", "QC", "Québec", "CA", "fr"),
    ("Saguenay", "QC", "Québec", "CA", "fr"), ("Moncton", "NB", "New Brunswick", "CA", "fr en"),
    ("Regina", "SK", "Saskatchewan", "CA", "en"), ("Saskatoon", "SK", "Saskatchewan", "CA", "en"),
    ("St. John's", "NL", "Newfoundland and Labrador", "CA", "en"), ("London", "ON", "Ontario", "CA", "en"),
    ("Kingston", "ON", "Ontario", "CA", "en"), ("Laval", "QC", "Québec", "CA", "fr"),
]

L = {
    "en": {
        "pub": ["The {city} {n}", "{city} {n}", "The {n} of {city}"],
        "pub_n": ["Ledger", "Courier", "Dispatch", "Beacon", "Sentinel", "Herald", "Record", "Tribune", "Signal",
                  "Bulletin", "Gazette", "Chronicle", "Lantern", "Observer", "Post"],
        "titles": [
            "{city} council approves {money} plan for {thing}",
            "Police investigate overnight break-ins near {place} in {city}",
            "{team} rally late to beat {rival} {score}",
            "Storm expected to bring {n} inches of snow to {city} by {day}",
            "New clinic opens in {city} as wait times grow",
            "{city} schools to add {n} counselors next year",
            "Opinion: {city} needs a real plan for {thing}",
            "Restaurant review: a small kitchen in {city} with big ambitions",
            "{biz} to hire {num} workers at new {city} site",
            "Transit agency in {city} cuts {n} bus routes, adds night service",
            "Residents near {place} push back on {thing} in {city}",
            "University in {city} wins {money} grant for water research",
            "Festival draws {num} people to downtown {city}",
            "{city} housing prices fall for the {ord} straight month",
            "Wildfire smoke prompts air quality warning from {city} to {city2}",
        ],
        "things": ["road repair", "a new library", "bike lanes", "affordable housing", "the waterfront", "flood walls",
                   "school buses", "the old rail yard", "street lighting", "park upkeep"],
        "places": ["the old mill", "Main Street", "the river trail", "the public market", "City Hall", "the stadium",
                   "the central library", "the bus depot"],
        "days": ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "the weekend"],
        "ords": ["third", "fourth", "fifth", "sixth"],
        "para": [
            "Officials in {city} said on {day} that the work would start in the spring and take about {n} months, "
            "with most of the {money} coming from state and federal sources.",
            "\u201cWe have waited a long time for this,\u201d said {person}, who has lived near {place} for {n} years. "
            "\u201cIt is good to see the city finally move.\u201d",
            "Critics say the plan does too little for neighbourhoods east of {place} &amp; asked for a second public "
            "hearing before the final vote.",
            "The {region} department of transportation will review the design, a step that usually takes {n} weeks.",
            "Attendance was up {pct}% over last year, organisers said, and food vendors from across {region} sold out "
            "before dark.",
            "<strong>What happens next:</strong> the council will vote on a final budget on {day}; residents can "
            "comment online until then.",
            "{person2}, a spokesperson for {biz}, declined to say how many of the new jobs would go to <em>local</em> "
            "hires.",
            "Data from the city show {num} calls about the issue in the past year, about {pct} per cent more than the "
            "year before.",
        ],
    },
    "es": {
        "pub": ["{n} de {city}", "{n} {city}"],
        "pub_n": ["El Faro", "La Voz", "La Crónica", "El Centinela", "El Diario", "El Noticiero", "El Mirador",
                  "El Heraldo", "El Eco"],
        "titles": [
            "El concejo de {city} aprueba un plan de {money} para {thing}",
            "La policía investiga robos cerca de {place} en {city}",
            "{team} remontan y vencen a {rival} {score}",
            "Se esperan {n} pulgadas de lluvia en {city} para el {day}",
            "Abre una nueva clínica comunitaria en {city}",
            "Las escuelas de {city} contratarán a {n} consejeros",
            "Opinión: {city} necesita un plan serio para {thing}",
            "{biz} contratará a {num} trabajadores en {city}",
            "Vecinos de {place} se oponen a {thing} en {city}",
            "Un festival reúne a {num} personas en el centro de {city}",
            "Bajan los precios de la vivienda en {city} por {ord} mes consecutivo",
            "Alerta por calor extremo desde {city} hasta {city2}",
        ],
        "things": ["la reparación de calles", "una nueva biblioteca", "ciclovías", "vivienda asequible", "el malecón",
                   "el transporte escolar", "el alumbrado público", "los parques"],
        "places": ["el mercado público", "la calle principal", "el parque del río", "la alcaldía", "el estadio",
                   "la biblioteca central"],
        "days": ["lunes", "martes", "miércoles", "jueves", "viernes", "fin de semana"],
        "ords": ["tercer", "cuarto", "quinto", "sexto"],
        "para": [
            "Las autoridades de {city} informaron el {day} que las obras comenzarán en primavera y durarán unos {n} "
            "meses, con fondos estatales y federales por {money}.",
            "\u201cLlevamos años esperando esto\u201d, dijo {person}, vecina de {place} desde hace {n} años.",
            "Los críticos afirman que el plan no ayuda lo suficiente a los barrios al este de {place} y piden otra "
            "audiencia pública.",
            "La asistencia creció un {pct}&nbsp;% respecto al año pasado, según los organizadores, y los puestos de "
            "comida de todo {region} se agotaron antes del anochecer.",
            "<strong>Próximos pasos:</strong> el concejo votará el presupuesto final el {day}; los residentes pueden "
            "opinar en línea hasta entonces.",
            "{person2}, portavoz de {biz}, no quiso precisar cuántos empleos serán para residentes <em>locales</em>.",
            "Los datos de la ciudad muestran {num} llamadas por el problema en el último año, un {pct}&nbsp;% más "
            "que el anterior.",
        ],
    },
    "fr": {
        "pub": ["{n} de {city}", "{n} {city}"],
        "pub_n": ["Le Phare", "L’Écho", "Le Courrier", "Le Héraut", "La Sentinelle", "Le Journal", "Le Nouvelliste",
                  "Le Carillon", "La Tribune"],
        "titles": [
            "Le conseil de {city} adopte un plan de {money} pour {thing}",
            "La police enquête sur des vols près de {place} à {city}",
            "{team} l’emporte {score} contre {rival}",
            "Jusqu’à {n} centimètres de neige attendus à {city} d’ici {day}",
            "Une nouvelle clinique ouvre ses portes à {city}",
            "Les écoles de {city} embaucheront {n} psychologues",
            "Opinion : {city} a besoin d’un vrai plan pour {thing}",
            "{biz} créera {num} emplois à {city}",
            "Des résidents près de {place} s’opposent à {thing} à {city}",
            "Un festival attire {num} personnes au centre-ville de {city}",
            "Le prix des maisons recule à {city} pour un {ord} mois de suite",
            "Avertissement de chaleur de {city} à {city2}",
        ],
        "things": ["la réfection des rues", "une nouvelle bibliothèque", "les pistes cyclables", "le logement abordable",
                   "les berges", "le transport scolaire", "l’éclairage public", "les parcs"],
        "places": ["le marché public", "la rue principale", "la piste riveraine", "l’hôtel de ville", "l’aréna",
                   "la bibliothèque centrale"],
        "days": ["lundi", "mardi", "mercredi", "jeudi", "vendredi", "la fin de semaine"],
        "ords": ["troisième", "quatrième", "cinquième", "sixième"],
        "para": [
            "Les autorités de {city} ont indiqué {day} que les travaux commenceront au printemps et dureront environ "
            "{n} mois, financés à hauteur de {money} par Québec et Ottawa.",
            "« On attendait ça depuis longtemps », a dit {person}, qui habite près de {place} depuis {n} ans.",
            "Des opposants estiment que le plan en fait trop peu pour les quartiers à l’est de {place} et réclament "
            "une nouvelle consultation.",
            "La fréquentation a augmenté de {pct}&nbsp;% par rapport à l’an dernier, selon les organisateurs; les "
            "comptoirs venus de partout en {region} ont tout vendu avant la nuit.",
            "<strong>La suite :</strong> le conseil votera le budget final {day}; les citoyens peuvent commenter en "
            "ligne d’ici là.",
            "{person2}, porte-parole de {biz}, n’a pas voulu préciser combien d’emplois iraient à des gens "
            "<em>d’ici</em>.",
            "Les données de la Ville font état de {num} appels à ce sujet l’an dernier, soit {pct}&nbsp;% de plus "
            "que l’année précédente.",
        ],
    },
}
FIRST = ["Ana", "Marc", "Lucía", "Olivia", "Jean", "Priya", "Diego", "Chloé", "Samuel", "Mei", "Tomás", "Nadia",
         "Élise", "Kwame", "Hannah", "Rafael", "Aiko", "Louis", "Sofía", "Ibrahim"]
LAST = ["Tremblay", "García", "Nguyen", "Okafor", "Lefebvre", "Kowalski", "Martínez", "Singh", "Roy", "Bennett",
        "Hernández", "Gagnon", "Park", "Fitzgerald", "Moreau", "Castillo"]
TEAMS = ["the Harbor Hawks", "the River Kings", "the Northern Lynx", "the Valley Comets", "the Iron Owls"]
BIZ = ["Maple & Main Bakery", "Cascade Robotics", "Northlight Foods", "Blue Mesa Logistics", "Atelier Boréal"]
CATS = {
    "en": ["Local", "Politics", "Business", "Sports", "Health", "Weather", "Crime", "Education", "Food", "Opinion"],
    "es": ["Local", "Política", "Economía", "Deportes", "Salud", "Clima", "Sucesos", "Educación", "Opinión"],
    "fr": ["Local", "Politique", "Économie", "Sports", "Santé", "Météo", "Faits divers", "Éducation", "Opinion"],
}
BASE_TIME = dt.datetime(2026, 11, 20, 12, 0, tzinfo=dt.timezone.utc)


def slug(text):
    keep = "".join(c.lower() if c.isalnum() else "-" for c in text.encode("ascii", "ignore").decode())
    return "-".join(part for part in keep.split("-") if part)


class Publisher:
    def __init__(self, rng, index):
        self.city, self.admin, self.region, self.country, langs = rng.choice(CITIES)
        self.lang = rng.choice(langs.split())
        words = L[self.lang]
        self.name = rng.choice(words["pub"]).format(city=self.city, n=rng.choice(words["pub_n"]))
        self.key = f"{index:04d}-{slug(self.name)}"
        self.home = f"https://bench.localwire.invalid/{self.key}/"
        self.format = rng.choices(["rss", "atom", "json"], weights=[45, 30, 25])[0]
        self.full_content = self.format != "rss" or rng.random() < 0.65
        self.media_rss = self.format == "rss" and rng.random() < 0.6
        # How often this publisher posts: from several an hour to a couple a day.
        self.mean_gap_s = rng.choice([600, 1800, 3600, 3 * 3600, 8 * 3600])


def fill(rng, pub, template, city2):
    words = L[pub.lang]
    values = {
        "city": pub.city, "city2": city2, "region": pub.region, "n": rng.randint(2, 40),
        "num": f"{rng.randint(120, 48000):,}".replace(",", {"en": ",", "es": ",", "fr": "\u202f"}[pub.lang]),
        "money": rng.choice(["$2.4 million", "$18 million", "$650,000", "$41 million"])
        if pub.lang == "en" else rng.choice(["2,4 M$", "18 M$", "650 000 $"]) if pub.lang == "fr"
        else rng.choice(["2.4 millones de dólares", "18 millones de dólares", "650.000 dólares"]),
        "pct": rng.randint(3, 45), "thing": rng.choice(words["things"]), "place": rng.choice(words["places"]),
        "day": rng.choice(words["days"]), "ord": rng.choice(words["ords"]), "team": rng.choice(TEAMS),
        "rival": rng.choice(TEAMS), "score": f"{rng.randint(1, 7)}-{rng.randint(0, 6)}", "biz": rng.choice(BIZ),
        "person": f"{rng.choice(FIRST)} {rng.choice(LAST)}", "person2": f"{rng.choice(FIRST)} {rng.choice(LAST)}",
    }
    return template.format(**values)


def retell(rng, pub, seq, when, original):
    """The same story from another newsroom: its paragraphs, a reworded title."""
    item = dict(original)
    lead = rng.choice(["", "Update: ", "Developing: ", "Watch: "]) if pub.lang == "en" else rng.choice(["", "EN DIRECT: "])
    item.update(
        guid=f"{pub.key}-{seq:05d}",
        link=f"{pub.home}news/{when:%Y/%m/%d}/{slug(original['title'])[:50]}-{seq}",
        title=lead + original["title"],
        author=f"{rng.choice(FIRST)} {rng.choice(LAST)}",
        when=when,
    )
    return item


def make_item(rng, pub, seq, when):
    words = L[pub.lang]
    city2 = rng.choice([c[0] for c in CITIES if c[3] == pub.country])
    title = fill(rng, pub, rng.choice(words["titles"]), city2)
    if rng.random() < 0.03:
        title += " <b>(updated)</b>"  # markup in titles happens
    paras = [fill(rng, pub, p, city2) for p in rng.sample(words["para"], k=min(len(words["para"]), rng.randint(3, 8)))]
    image = f"https://bench.localwire.invalid/media/{pub.key}/{seq:05d}.jpg"
    body = [f"<p>{paras[0]}</p>",
            f'<figure><img src="{image}" alt="{escape(title)}" width="1200" height="675" loading="lazy"/>'
            f"<figcaption>{escape(pub.name)}</figcaption></figure>"]
    for i, p in enumerate(paras[1:]):
        if i == 1:
            p += f' <a href="/{pub.key}/related/{seq + 1}?utm_source=rss&amp;utm_medium=feed">Read more</a>'
        body.append(f"<blockquote><p>{p}</p></blockquote>" if i == 2 and rng.random() < 0.3 else f"<p>{p}</p>")
    if rng.random() < 0.1:
        body.append('<img src="https://pixel.bench.localwire.invalid/t.gif?id=%d" width="1" height="1"/>' % seq)
    cats = rng.sample(CATS[pub.lang], k=rng.randint(1, 3)) + [pub.city]
    return {
        "guid": f"{pub.key}-{seq:05d}",
        "link": f"{pub.home}{slug(cats[0]) or 'news'}/{when:%Y/%m/%d}/{slug(title)[:60]}",
        "title": title,
        "summary": paras[0].replace("&amp;", "&").replace("&nbsp;", "\u00a0"),
        "content": "\n".join(body),
        "image": image,
        "thumb": image.replace(".jpg", "-thumb.jpg"),
        "author": f"{rng.choice(FIRST)} {rng.choice(LAST)}",
        "cats": cats,
        "when": when,
    }


def write_rss(pub, items):
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           '<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" '
           'xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:media="http://search.yahoo.com/mrss/">',
           "<channel>", f"<title>{escape(pub.name)}</title>", f"<link>{pub.home}</link>",
           f"<description>Local news from {escape(pub.city)}</description>",
           f"<language>{pub.lang}-{pub.country}</language>",
           f"<lastBuildDate>{items[0]['when']:%a, %d %b %Y %H:%M:%S +0000}</lastBuildDate>"]
    for it in items:
        out += ["<item>", f"<title>{escape(it['title'])}</title>", f"<link>{escape(it['link'])}</link>",
                f'<guid isPermaLink="false">{it["guid"]}</guid>',
                f"<pubDate>{it['when']:%a, %d %b %Y %H:%M:%S +0000}</pubDate>",
                f"<dc:creator>{escape(it['author'])}</dc:creator>"]
        out += [f"<category>{escape(c)}</category>" for c in it["cats"]]
        if pub.full_content:
            out.append(f"<description>{escape(it['summary'])}</description>")
            out.append(f"<content:encoded><![CDATA[{it['content']}]]></content:encoded>")
        else:
            out.append(f"<description>{escape(it['content'])}</description>")
        if pub.media_rss:
            out.append(f'<media:content url="{it["image"]}" medium="image" type="image/jpeg" width="1200" '
                       f'height="675"><media:thumbnail url="{it["thumb"]}" width="300" height="169"/></media:content>')
        else:
            out.append(f'<enclosure url="{it["image"]}" length="183211" type="image/jpeg"/>')
        out.append("</item>")
    out += ["</channel>", "</rss>"]
    return "\n".join(out)


def iso(when):
    return when.strftime("%Y-%m-%dT%H:%M:%SZ")


def write_atom(pub, items):
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           f'<feed xmlns="http://www.w3.org/2005/Atom" xmlns:media="http://search.yahoo.com/mrss/" '
           f'xml:lang="{pub.lang}-{pub.country}">',
           f"<title>{escape(pub.name)}</title>", f'<link rel="alternate" type="text/html" href="{pub.home}"/>',
           f"<id>tag:bench.localwire.invalid,2026:{pub.key}</id>", f"<updated>{iso(items[0]['when'])}</updated>"]
    for it in items:
        out += ["<entry>", f'<title type="html">{escape(it["title"])}</title>',
                f'<link rel="alternate" type="text/html" href={quoteattr(it["link"])}/>',
                f"<id>tag:bench.localwire.invalid,2026:{it['guid']}</id>",
                f"<published>{iso(it['when'])}</published>", f"<updated>{iso(it['when'])}</updated>",
                f"<author><name>{escape(it['author'])}</name></author>"]
        out += [f"<category term={quoteattr(c)}/>" for c in it["cats"]]
        out += [f'<summary type="text">{escape(it["summary"])}</summary>',
                f'<content type="html">{escape(it["content"])}</content>',
                f'<media:thumbnail url="{it["thumb"]}" width="300" height="169"/>', "</entry>"]
    out.append("</feed>")
    return "\n".join(out)


def write_json(pub, items):
    return json.dumps({
        "version": "https://jsonfeed.org/version/1.1", "title": pub.name, "home_page_url": pub.home,
        "feed_url": f"{pub.home}feed.json", "language": f"{pub.lang}-{pub.country}",
        "items": [{
            "id": it["guid"], "url": it["link"], "title": it["title"], "content_html": it["content"],
            "summary": it["summary"], "image": it["image"], "date_published": iso(it["when"]),
            "authors": [{"name": it["author"]}], "tags": it["cats"],
        } for it in items],
    }, ensure_ascii=False, indent=1)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("--items", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=20261122)
    ap.add_argument("--end", default=None, help="'now' (an hour ago) or an ISO time; default 2026-11-20T12:00Z")
    ap.add_argument("--span-days", type=float, default=None, help="spread each publisher's items over this many days")
    ap.add_argument("--retell", type=float, default=0.0, help="share of items that retell a recent local story")
    ap.add_argument("--stages", default="", help="e.g. 100000,500000: also write stage-K.opml, the feeds that "
                    "bring the items up to each count (the last stage ends at --items)")
    ap.add_argument("--stage-by", choices=("publisher", "time"), default="publisher",
                    help="publisher: each stage adds whole publishers, each with its whole year (a backfill, old "
                    "stories inserted among old ones); time: each stage is the next stretch of the year, every "
                    "publisher's items of that stretch in a feed file of its own (news arriving as it is written)")
    args = ap.parse_args()
    end = BASE_TIME
    if args.end == "now":
        end = dt.datetime.now(dt.timezone.utc).replace(microsecond=0) - dt.timedelta(hours=1)
    elif args.end:
        end = dt.datetime.fromisoformat(args.end)
    # Per city and language: (time, item) of the items written so far, sorted by time.
    told = {}
    rng = random.Random(args.seed)
    out = pathlib.Path(args.out).resolve()
    feeds = out / "feeds"
    if feeds.exists():
        shutil.rmtree(feeds)
    feeds.mkdir(parents=True)
    remaining, index, files, total_bytes, by_format = args.items, 0, [], 0, {"rss": 0, "atom": 0, "json": 0}
    by_time = bool(args.stages) and args.stage_by == "time"
    held = []  # (publisher, items) until the stage cuts are known (--stage-by time)
    file_stage = {}  # index in files -> its stage (--stage-by time)

    def write_feed(pub, items, stem):
        text = {"rss": write_rss, "atom": write_atom, "json": write_json}[pub.format](pub, items)
        name = f"{stem}.{ {'rss': 'xml', 'atom': 'atom', 'json': 'json'}[pub.format] }"
        data = text.encode("utf-8")
        (feeds / name).write_bytes(data)
        files.append((pub, name, len(items)))
        return len(data)

    while remaining > 0:
        n = rng.randint(50, 200)
        if remaining - n < 50:
            n = remaining
        pub = Publisher(rng, index)
        when, items = end, []
        gap = pub.mean_gap_s if args.span_days is None else args.span_days * 86400 / n
        local = told.setdefault((pub.city, pub.lang), ([], []))
        for seq in range(n):
            when -= dt.timedelta(seconds=int(rng.expovariate(1 / gap)) + 1)
            item = None
            if args.retell and rng.random() < args.retell:
                # A story this city's other newsrooms told in the six hours before.
                times, stories = local
                lo = bisect.bisect_left(times, when - dt.timedelta(hours=6))
                hi = bisect.bisect_right(times, when)
                if hi > lo:
                    item = retell(rng, pub, seq, when, stories[rng.randrange(lo, hi)])
            if item is None:
                item = make_item(rng, pub, seq, when)
            items.append(item)
        if args.retell:
            for it in items:
                k = bisect.bisect_right(local[0], it["when"])
                local[0].insert(k, it["when"])
                local[1].insert(k, it)
        if by_time:
            held.append((pub, items))
        else:
            total_bytes += write_feed(pub, items, pub.key)
        by_format[pub.format] += n
        remaining -= n
        index += 1
    if by_time:
        # Stage K holds the items published between the (K-1)th and Kth cut of the whole
        # corpus in time order, so each stage's count is exact and its stories are newer
        # than every earlier stage's.
        times = sorted(it["when"] for _, items in held for it in items)
        cuts = [times[int(x)] for x in args.stages.split(",") if x] + [end + dt.timedelta(days=1)]
        for k, cut in enumerate(cuts):
            low = cuts[k - 1] if k else dt.datetime.min.replace(tzinfo=dt.timezone.utc)
            for pub, items in held:
                part = [it for it in items if low <= it["when"] < cut]
                if part:
                    total_bytes += write_feed(pub, part, f"{pub.key}.s{k + 1}")
                    file_stage[len(files) - 1] = k
    def outline(p, name):
        return (f'<outline type="{ {"rss": "rss", "atom": "atom", "json": "json"}[p.format] }" text={quoteattr(p.name)} '
                f'title={quoteattr(p.name)} xmlUrl={quoteattr((feeds / name).as_uri())} htmlUrl="{p.home}" '
                f'localwire:country="{p.country}" localwire:state="{p.admin}" localwire:city={quoteattr(p.city)} '
                f'localwire:lang="{p.lang}" localwire:category="local"/>')

    def opml(lines):
        return ('<?xml version="1.0" encoding="UTF-8"?>\n'
                '<opml version="2.0" xmlns:localwire="https://localwire.invalid/ns/opml">\n'
                "<head><title>Localwire ingestion benchmark corpus (generated)</title></head>\n"
                f"<body>\n{lines}\n</body>\n</opml>\n")

    stage_ends = [int(x) for x in args.stages.split(",") if x] + [args.items]
    stage, upto, stage_lines, stage_items = 0, 0, [], []
    for i, (p, name, count) in enumerate(files):
        stage_lines.append(outline(p, name))
        upto += count
        ends_stage = file_stage.get(i + 1) != file_stage[i] if by_time else upto >= stage_ends[stage]
        if ends_stage or i == len(files) - 1:
            if args.stages:
                (out / f"stage-{stage + 1}.opml").write_text(opml("\n".join(stage_lines)), encoding="utf-8")
            stage_items.append(upto)
            stage, stage_lines = min(stage + 1, len(stage_ends) - 1), []
    outlines = "\n".join(
        f'<outline type="{ {"rss": "rss", "atom": "atom", "json": "json"}[p.format] }" text={quoteattr(p.name)} '
        f'title={quoteattr(p.name)} xmlUrl={quoteattr((feeds / name).as_uri())} htmlUrl="{p.home}" '
        f'localwire:country="{p.country}" localwire:state="{p.admin}" localwire:city={quoteattr(p.city)} '
        f'localwire:lang="{p.lang}" localwire:category="local"/>'
        for p, name, _ in files)
    (out / "corpus.opml").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<opml version="2.0" xmlns:localwire="https://localwire.invalid/ns/opml">\n'
        "<head><title>Localwire ingestion benchmark corpus (generated)</title></head>\n"
        f"<body>\n{outlines}\n</body>\n</opml>\n", encoding="utf-8")
    summary = {"items": args.items, "files": len(files), "bytes": total_bytes, "seed": args.seed,
               "items_by_format": by_format}
    if args.stages:
        summary.update(end=end.isoformat(), span_days=args.span_days, retell=args.retell, stage_items=stage_items,
                       stage_by=args.stage_by)
    (out / "corpus.json").write_text(json.dumps(summary, indent=1) + "\n")
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
