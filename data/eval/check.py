#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""Validate data/eval/geotag-cluster.jsonl: schema, counts, cluster sizes, coverage.

Prints counts and exits 1 when a rule in README.md is broken.
Usage: python3 data/eval/check.py [path/to/geotag-cluster.jsonl]
"""
import json
import os
import re
import sys
import unicodedata
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
US = set("AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY "
         "NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY".split())
CA = set("AB BC MB NB NL NS NT NU ON PE QC SK YT".split())
KEYS = {"id", "lang", "publisher", "title", "text", "gold_places", "gold_cluster"}


def fold(s):
    return "".join(c for c in unicodedata.normalize("NFKD", s) if not unicodedata.combining(c)).casefold()


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "geotag-cluster.jsonl")
    errors = []
    items = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                errors.append(f"line {n}: empty line")
                continue
            try:
                items.append(json.loads(line))
            except ValueError as e:
                errors.append(f"line {n}: invalid JSON: {e}")

    def need(cond, msg):
        if not cond:
            errors.append(msg)

    ids = Counter()
    for it in items:
        who = it.get("id", "?")
        need(set(it) == KEYS, f"{who}: keys {sorted(set(it) ^ KEYS)} wrong")
        ids[it.get("id")] += 1
        need(it.get("lang") in ("en", "es", "fr"), f"{who}: bad lang")
        p = it.get("publisher") or {}
        need(set(p) == {"name", "city", "admin_code", "country"} and all(isinstance(v, str) and v for v in p.values()),
             f"{who}: bad publisher")
        need(p.get("country") in ("US", "CA"), f"{who}: publisher country must be US or CA")
        need(p.get("admin_code") in (US if p.get("country") == "US" else CA), f"{who}: bad publisher admin code")
        need(isinstance(it.get("title"), str) and it["title"].strip(), f"{who}: empty title")
        text = it.get("text") or ""
        bare = re.sub(r"\b(?:[A-Z]\.){2,}|\b(?:Mass|Ont|Ore|Md|Ga|Ariz|Alta|Man|Wash|Calif|Va|Mo|Ind|St|Ste|Dr|Jr|Mt|Fla|Pa|Que|Sask|Tenn|Minn|Wis|Kan|Ky|Conn|Okla|Nev|Neb|Mich|Ill|Colo|Tex|Ala|Ark|Miss|Mont|Wyo|Vt|Del|Nfld)\.|\b[ap]\.m\.", "", text)
        sentences = len(re.findall(r"[.!?](?:\s|$)", bare))
        if text.rstrip().endswith((".", "!", "?")) and not bare.rstrip().endswith((".", "!", "?")):
            sentences += 1  # ends with an abbreviation such as "B.C."
        need(1 <= sentences <= 3 and len(text.split()) >= 6, f"{who}: text should be 1-3 sentences")
        gp = it.get("gold_places")
        need(isinstance(gp, list), f"{who}: gold_places must be a list")
        seen = set()
        for g in gp or []:
            need(isinstance(g, dict) and set(g) == {"city", "admin_code", "country"}, f"{who}: bad gold place {g}")
            if not isinstance(g, dict):
                continue
            need(g.get("country") in ("US", "CA"), f"{who}: gold place outside US/CA: {g}")
            need(g.get("admin_code") in (US if g.get("country") == "US" else CA), f"{who}: bad admin code in {g}")
            key = (fold(g.get("city", "")), g.get("admin_code"), g.get("country"))
            need(key not in seen, f"{who}: duplicate gold place {g}")
            seen.add(key)
        need(isinstance(it.get("gold_cluster"), str) and it["gold_cluster"], f"{who}: gold_cluster must be a string")
    need(all(v == 1 for v in ids.values()), f"duplicate ids: {[k for k, v in ids.items() if v > 1]}")

    n = len(items)
    langs = Counter(i.get("lang") for i in items)
    clusters = Counter(i.get("gold_cluster") for i in items)
    multi = {c: k for c, k in clusters.items() if k >= 2}
    sizes = Counter(multi.values())
    cross_lang = sum(1 for c in multi if len({i["lang"] for i in items if i["gold_cluster"] == c}) > 1)
    empty = sum(1 for i in items if not i.get("gold_places"))
    gold_total = sum(len(i.get("gold_places") or []) for i in items)
    own_city = sum(1 for i in items for g in i.get("gold_places") or []
                   if (fold(g["city"]), g["admin_code"]) == (fold(i["publisher"]["city"]), i["publisher"]["admin_code"]))
    gold_keys = Counter((g["city"], g["admin_code"]) for i in items for g in i.get("gold_places") or [])
    alltext = " ".join(i.get("title", "") + " " + i.get("text", "") for i in items)

    # coverage of the hard cases the README promises
    def tagged(city, ad):
        return gold_keys[(city, ad)] > 0
    coverage = {
        "Portland ME and OR": tagged("Portland", "ME") and tagged("Portland", "OR"),
        "Springfield IL, MA, MO": tagged("Springfield", "IL") and tagged("Springfield", "MA") and tagged("Springfield", "MO"),
        "Kingston ON": tagged("Kingston", "ON") and "Jamaica" in alltext,
        "London ON (and London UK untagged)": tagged("London", "ON") and ("Britain" in alltext or "England" in alltext),
        "Paris TX (and Paris France untagged)": tagged("Paris", "TX") and "Paris Fashion Week" in alltext,
        "Richmond BC and VA": tagged("Richmond", "BC") and tagged("Richmond", "VA"),
        "Victoria BC": tagged("Victoria", "BC"),
        "Hamilton ON": tagged("Hamilton", "ON"),
        "Mexico City untagged": "Mexico City" in alltext and "Ciudad de México" in alltext,
        "Montréal": tagged("Montréal", "QC"),
        "Québec": tagged("Québec", "QC"),
        "Trois-Rivières": tagged("Trois-Rivières", "QC"),
        "San José (accent in text)": tagged("San Jose", "CA") and "San José" in alltext,
    }

    # every gold city must exist in the shipped gazetteer (data/geo/cities.tsv) when it is present
    gaz_path = os.path.join(HERE, "..", "geo", "cities.tsv")
    if os.path.isfile(gaz_path):
        import csv
        known = set()
        with open(gaz_path, encoding="utf-8") as f:
            for row in csv.DictReader((l for l in f if not l.startswith("#")), delimiter="\t"):
                for nm in [row["name"], row["name_ascii"]] + (row.get("alt_names") or "").split("|"):
                    if nm:
                        known.add((fold(nm), row["admin_code"], row["iso"]))
        unknown = sorted({(g["city"], g["admin_code"], g["country"]) for i in items for g in i.get("gold_places") or []
                          if (fold(g["city"]), g["admin_code"], g["country"]) not in known})
        need(not unknown, f"gold cities not in data/geo/cities.tsv: {unknown}")
        print(f"gazetteer           every gold city found in data/geo/cities.tsv: {'yes' if not unknown else 'NO'}")
    print(f"items               {n}  (en {langs['en']}, es {langs['es']} = {langs['es'] / max(n, 1):.0%}, fr {langs['fr']} = {langs['fr'] / max(n, 1):.0%})")
    print(f"gold places         {gold_total}  (items with none {empty}; publisher's own city tagged {own_city} times)")
    print(f"distinct gold cities {len(gold_keys)}")
    print(f"clusters            {len(clusters)}  (size >= 2: {len(multi)}; sizes {dict(sorted(sizes.items()))}; cross-language {cross_lang}; singletons {sum(1 for k in clusters.values() if k == 1)})")
    print("coverage            " + ", ".join(f"{k}: {'yes' if v else 'NO'}" for k, v in coverage.items()))

    need(n >= 220, "fewer than 220 items")
    need(len(multi) >= 25, "fewer than 25 clusters of size >= 2")
    need(all(2 <= k <= 5 for k in multi.values()), "a cluster has more than 5 items")
    need(sum(1 for k in clusters.values() if k == 1) > n / 2, "most items should be singletons")
    need(0.15 <= langs["es"] / max(n, 1) <= 0.3 and 0.15 <= langs["fr"] / max(n, 1) <= 0.3,
         "Spanish and French should each be about 20% of items")
    need(empty >= 20, "need at least 20 items with no place")
    for k, v in coverage.items():
        need(v, f"coverage missing: {k}")
    if errors:
        print(f"\nFAILED: {len(errors)} problem(s)")
        for e in errors[:50]:
            print("  -", e)
        return 1
    print("\nOK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
