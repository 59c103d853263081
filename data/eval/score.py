#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""Score geotagging and clustering predictions against data/eval/geotag-cluster.jsonl.

Predictions: a JSONL file, one object per evaluated item:
  {"id": "e001", "places": [{"city": "...", "admin_code": "..", "country": "US"}], "cluster": "any-string"}
Items missing from the predictions count as predicting no places and a singleton cluster.

Metrics (see README.md):
  city-level micro precision, recall and F1 over (city, admin code, country) triples,
  with names compared accent-, case- and punctuation-insensitively plus a few aliases;
  cluster purity, inverse purity and B-cubed precision/recall/F1.

Usage: python3 data/eval/score.py PREDICTIONS.jsonl [--gold path] [--json] [--with-publisher-area]
                                  [--half tune|held-out]
       python3 data/eval/score.py --self-test   (gold scored against itself: all 1.0)
Exit status 0 always on a well-formed input (targets are reported, not enforced).
"""
import json
import os
import re
import sys
import unicodedata
from collections import Counter, defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
ALIASES = {"new york city": "new york", "nyc": "new york", "washington dc": "washington",
           "washington d c": "washington", "quebec city": "quebec", "ville de quebec": "quebec",
           "greater sudbury": "sudbury", "saint albert": "st albert", "st john": "saint john"}
TARGET_P, TARGET_R = 0.9, 0.8


def norm_city(s):
    s = "".join(c for c in unicodedata.normalize("NFKD", s) if not unicodedata.combining(c)).casefold()
    s = re.sub(r"[^a-z0-9]+", " ", s).strip()
    return ALIASES.get(s, s)


def key(p):
    return (norm_city(p.get("city", "")), (p.get("admin_code") or "").upper(), (p.get("country") or "").upper())


def fnv1a32(text):
    h = 0x811C9DC5
    for b in text.encode("utf-8"):
        h = ((h ^ b) * 0x01000193) & 0xFFFFFFFF
    return h


def half(item):
    """The README's split: 'tune' when FNV-1a 32 of gold_cluster is even, else 'held-out'."""
    return "tune" if fnv1a32(item["gold_cluster"]) % 2 == 0 else "held-out"


def load(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(l) for l in f if l.strip()]


def score(gold, pred):
    P = {p["id"]: p for p in pred}
    tp = fp = fn = 0
    per_lang = defaultdict(Counter)
    for g in gold:
        gs = {key(x) for x in g["gold_places"]}
        ps = {key(x) for x in (P.get(g["id"], {}).get("places") or [])}
        t, f_p, f_n = len(gs & ps), len(ps - gs), len(gs - ps)
        tp, fp, fn = tp + t, fp + f_p, fn + f_n
        per_lang[g["lang"]].update(tp=t, fp=f_p, fn=f_n)

    def prf(t, f_p, f_n):
        p = t / (t + f_p) if t + f_p else 1.0
        r = t / (t + f_n) if t + f_n else 1.0
        return p, r, (2 * p * r / (p + r) if p + r else 0.0)

    geo = dict(zip(("precision", "recall", "f1"), prf(tp, fp, fn)))
    geo_lang = {l: dict(zip(("precision", "recall", "f1"), prf(c["tp"], c["fp"], c["fn"]))) for l, c in sorted(per_lang.items())}
    # clustering
    gc = {g["id"]: g["gold_cluster"] for g in gold}
    pc = {g["id"]: str(P.get(g["id"], {}).get("cluster", "__single__" + g["id"])) for g in gold}
    n = len(gold)
    by_pred, by_gold = defaultdict(list), defaultdict(list)
    for i in gc:
        by_pred[pc[i]].append(i)
        by_gold[gc[i]].append(i)
    purity = sum(Counter(gc[i] for i in ids).most_common(1)[0][1] for ids in by_pred.values()) / n
    inverse = sum(Counter(pc[i] for i in ids).most_common(1)[0][1] for ids in by_gold.values()) / n
    bp = br = 0.0
    for i in gc:
        same_p = by_pred[pc[i]]
        same_g = by_gold[gc[i]]
        both = sum(1 for j in same_p if gc[j] == gc[i])
        bp += both / len(same_p)
        br += both / len(same_g)
    bp, br = bp / n, br / n
    clu = {"purity": purity, "inverse_purity": inverse, "bcubed_precision": bp, "bcubed_recall": br,
           "bcubed_f1": 2 * bp * br / (bp + br) if bp + br else 0.0}
    return {"items": n, "geo": geo, "geo_by_lang": geo_lang, "geo_counts": {"tp": tp, "fp": fp, "fn": fn},
            "cluster": clu, "targets_met": geo["precision"] >= TARGET_P and geo["recall"] >= TARGET_R}


def main(argv):
    gold_path = os.path.join(HERE, "geotag-cluster.jsonl")
    if "--gold" in argv:
        gold_path = argv[argv.index("--gold") + 1]
    gold = load(gold_path)
    if "--half" in argv:
        wanted = argv[argv.index("--half") + 1]
        if wanted not in ("tune", "held-out"):
            print("--half takes tune or held-out")
            return 2
        gold = [g for g in gold if half(g) == wanted]
    if "--with-publisher-area" in argv:
        # score a stored area_list (publisher area + story places): the publisher's city joins every gold set
        for g in gold:
            pub = {k: g["publisher"][k] for k in ("city", "admin_code", "country")}
            if key(pub) not in {key(x) for x in g["gold_places"]}:
                g["gold_places"] = g["gold_places"] + [pub]
    if "--self-test" in argv:
        pred = [{"id": g["id"], "places": g["gold_places"], "cluster": g["gold_cluster"]} for g in gold]
    else:
        files = [a for a in argv if not a.startswith("--") and a not in (gold_path, "tune", "held-out")]
        if not files:
            print(__doc__)
            return 2
        pred = load(files[0])
    r = score(gold, pred)
    if "--json" in argv:
        print(json.dumps(r, indent=1))
        return 0
    g, c = r["geo"], r["cluster"]
    print(f"items {r['items']}")
    print(f"city precision {g['precision']:.3f}  recall {g['recall']:.3f}  F1 {g['f1']:.3f}  "
          f"(tp {r['geo_counts']['tp']}, fp {r['geo_counts']['fp']}, fn {r['geo_counts']['fn']}; "
          f"targets P>={TARGET_P} R>={TARGET_R}: {'met' if r['targets_met'] else 'NOT met'})")
    for l, m in r["geo_by_lang"].items():
        print(f"  {l}: precision {m['precision']:.3f}  recall {m['recall']:.3f}")
    print(f"cluster purity {c['purity']:.3f}  inverse purity {c['inverse_purity']:.3f}  "
          f"B-cubed P {c['bcubed_precision']:.3f} R {c['bcubed_recall']:.3f} F1 {c['bcubed_f1']:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
