#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""Validate the Localwire demo corpus (data/demo/) and print its counts.

Parses publishers.opml, publishers.json and every feed with the standard library only,
checks the requirements written in README.md, prints counts, and exits 1 if any
requirement is not met. Usage: python3 data/demo/check.py
"""
import datetime as dt
import json
import os
import re
import sys
import xml.etree.ElementTree as ET
from collections import Counter, defaultdict
from email.utils import parsedate_to_datetime
from urllib.parse import urljoin, urlparse

HERE = os.path.dirname(os.path.abspath(__file__))
BASE = dt.datetime(2026, 11, 20, 12, 0, 0, tzinfo=dt.timezone.utc)
HOST = "https://demo.localwire.invalid"
NS = {"lw": "https://localwire.invalid/ns/opml", "atom": "http://www.w3.org/2005/Atom",
      "media": "http://search.yahoo.com/mrss/", "itunes": "http://www.itunes.com/dtds/podcast-1.0.dtd",
      "content": "http://purl.org/rss/1.0/modules/content/", "dc": "http://purl.org/dc/elements/1.1/"}
CATEGORIES = {"local", "politics", "business", "sports", "entertainment", "health", "science-tech", "weather",
              "crime-safety", "education", "food", "lifestyle", "opinion"}
DEFAULT_CITIES = {
    ("US", "en"): {("Washington", "DC"), ("New York", "NY"), ("Los Angeles", "CA"), ("Chicago", "IL"), ("Houston", "TX"),
                   ("Miami", "FL"), ("Seattle", "WA"), ("Denver", "CO"), ("Boston", "MA"), ("Atlanta", "GA"),
                   ("Phoenix", "AZ"), ("Portland", "OR"), ("Portland", "ME")},
    ("US", "es"): {("Los Angeles", "CA"), ("Miami", "FL"), ("Houston", "TX"), ("San Antonio", "TX"), ("El Paso", "TX"),
                   ("New York", "NY")},
    ("CA", "en"): {("Ottawa", "ON"), ("Toronto", "ON"), ("Vancouver", "BC"), ("Calgary", "AB"), ("Edmonton", "AB"),
                   ("Winnipeg", "MB"), ("Halifax", "NS")},
    ("CA", "fr"): {("Montréal", "QC"), ("Québec", "QC"), ("Gatineau", "QC"), ("Sherbrooke", "QC"),
                   ("Trois-Rivières", "QC"), ("Moncton", "NB")},
}
TRACKING = re.compile(r"[?&](utm_[a-z]+|fbclid|gclid)=")

errors = []


def need(cond, msg):
    if not cond:
        errors.append(msg)
    return cond


def local_media(url, kind):
    """Map https://demo.localwire.invalid/media/... to the local file; True if it exists."""
    u = urlparse(url)
    if u.scheme != "https" or u.netloc != "demo.localwire.invalid" or not u.path.startswith(f"/media/{kind}/"):
        return False
    return os.path.isfile(os.path.join(HERE, u.path.lstrip("/")))


def strip_tags(s):
    s = re.sub(r"<(script|style)\b.*?</\1>", " ", s, flags=re.S)
    return re.sub(r"<[^>]+>", " ", s)


def parse_date(s):
    s = s.strip()
    if re.match(r"\d{4}-", s):
        return dt.datetime.fromisoformat(s.replace("Z", "+00:00"))
    return parsedate_to_datetime(s)


def first_img(html):
    m = re.search(r'<img\b[^>]*\bsrc="([^"]+)"[^>]*>', html or "")
    while m and re.search(r'width="1"', m.group(0)):
        m = re.search(r'<img\b[^>]*\bsrc="([^"]+)"[^>]*>', html[m.end():])
    return m.group(1) if m else None


def rss_items(root):
    out = []
    for it in root.iter("item"):
        d = {"title": it.findtext("title"), "link": it.findtext("link"), "guid": it.findtext("guid"),
             "date": it.findtext("pubDate"), "author": it.findtext("dc:creator", namespaces=NS) or it.findtext("author"),
             "cats": [c.text for c in it.findall("category")], "summary": it.findtext("description") or "",
             "html": it.findtext("content:encoded", namespaces=NS), "images": [], "video": [], "audio": []}
        for mc in it.iter(f"{{{NS['media']}}}content"):
            if mc.get("medium") == "video" or (mc.get("type") or "").startswith("video/"):
                d["video"].append((mc.get("url"), mc.get("type")))
            elif mc.get("medium") == "image":
                d["images"].append(mc.get("url"))
        for th in it.iter(f"{{{NS['media']}}}thumbnail"):
            d["images"].append(th.get("url"))
        for enc in it.findall("enclosure"):
            t = enc.get("type") or ""
            if t.startswith("image/"):
                d["images"].append(enc.get("url"))
            elif t.startswith("audio/"):
                d["audio"].append((enc.get("url"), t))
            elif t.startswith("video/"):
                d["video"].append((enc.get("url"), t))
        ii = it.find("itunes:image", NS)
        if ii is not None:
            d["images"].append(ii.get("href"))
        out.append(d)
    return out


def atom_items(root):
    out = []
    A = "{%s}" % NS["atom"]
    for e in root.findall(A + "entry"):
        link = None
        d = {"images": [], "video": [], "audio": []}
        for ln in e.findall(A + "link"):
            rel = ln.get("rel", "alternate")
            if rel == "alternate":
                link = ln.get("href")
            elif rel == "enclosure" and (ln.get("type") or "").startswith("image/"):
                d["images"].append(ln.get("href"))
        for th in e.iter(f"{{{NS['media']}}}thumbnail"):
            d["images"].append(th.get("url"))
        content = e.find(A + "content")
        d.update({"title": e.findtext(A + "title"), "link": link, "guid": e.findtext(A + "id"),
                  "date": e.findtext(A + "published") or e.findtext(A + "updated"),
                  "author": e.findtext(f"{A}author/{A}name"), "cats": [c.get("term") for c in e.findall(A + "category")],
                  "summary": e.findtext(A + "summary") or "",
                  "html": content.text if content is not None and content.get("type") == "html" else None})
        out.append(d)
    return out


def json_items(feed):
    out = []
    for j in feed.get("items", []):
        d = {"title": j.get("title"), "link": j.get("url"), "guid": j.get("id"), "date": j.get("date_published"),
             "author": (j.get("authors") or [{}])[0].get("name"), "cats": j.get("tags") or [],
             "summary": j.get("content_text") or j.get("summary") or "", "html": j.get("content_html"),
             "images": [u for u in (j.get("image"), j.get("banner_image")) if u], "video": [], "audio": []}
        for a in j.get("attachments") or []:
            t = a.get("mime_type", "")
            (d["audio"] if t.startswith("audio/") else d["video"] if t.startswith("video/") else []).append((a.get("url"), t))
        out.append(d)
    return out


def main():
    # ---- OPML
    try:
        opml = ET.parse(os.path.join(HERE, "publishers.opml")).getroot()
    except ET.ParseError as e:
        print("publishers.opml does not parse:", e)
        return 1
    raw = open(os.path.join(HERE, "publishers.opml"), encoding="utf-8").read()
    need('xmlns:localwire="https://localwire.invalid/ns/opml"' in raw, "OPML: localwire namespace not declared")
    need(opml.get("version") == "2.0", "OPML: version is not 2.0")
    outlines = [o for o in opml.iter("outline") if o.get("xmlUrl")]
    L = "{%s}" % NS["lw"]
    pubs = []
    for o in outlines:
        p = {k: o.get(k) for k in ("text", "title", "type", "xmlUrl", "htmlUrl")}
        for k in ("country", "state", "city", "lang", "category"):
            p[k] = o.get(L + k)
        for k, v in p.items():
            need(v, f"OPML outline {p.get('text')}: missing {k}")
        need(p["type"] in ("rss", "atom", "json"), f"OPML {p['text']}: bad type {p['type']}")
        need(p["country"] in ("US", "CA"), f"OPML {p['text']}: bad country")
        need(p["lang"] in ("en", "es", "fr"), f"OPML {p['text']}: bad lang")
        need(p["category"] in CATEGORIES, f"OPML {p['text']}: bad category {p['category']}")
        need(not urlparse(p["xmlUrl"]).scheme and os.path.isfile(os.path.join(HERE, p["xmlUrl"])),
             f"OPML {p['text']}: xmlUrl {p['xmlUrl']} is not a relative path to an existing file")
        need((p["htmlUrl"] or "").startswith(HOST + "/"), f"OPML {p['text']}: htmlUrl not under {HOST}")
        pubs.append(p)
    # ---- publishers.json
    pj = json.load(open(os.path.join(HERE, "publishers.json"), encoding="utf-8"))["publishers"]
    by_feed = {p["feed"]: p for p in pj}
    need(len(pj) == len(pubs), "publishers.json and OPML list a different number of publishers")
    for p in pubs:
        j = by_feed.get(p["xmlUrl"])
        if not need(j, f"publishers.json lacks {p['xmlUrl']}"):
            continue
        for k_opml, k_json in (("text", "name"), ("type", "type"), ("htmlUrl", "home_url"), ("country", "country"),
                               ("state", "state"), ("city", "city"), ("lang", "lang"), ("category", "category")):
            need(p[k_opml] == j[k_json], f"publishers.json {j['key']}: {k_json} differs from OPML")
        need(j.get("about") and j.get("contact"), f"publishers.json {j['key']}: about/contact missing")
        need(os.path.isfile(os.path.join(HERE, j["icon"])), f"publishers.json {j['key']}: icon file missing")
        need(local_media(j["icon_url"], "icons"), f"publishers.json {j['key']}: icon_url does not map to a file")

    cities = {(p["city"], p["state"]) for p in pubs}
    default_all = set().union(*DEFAULT_CITIES.values())
    in_defaults = {c for c in cities if c in default_all}
    for p in pubs:
        need((p["city"], p["state"]) in DEFAULT_CITIES.get((p["country"], p["lang"]), set()),
             f"{p['text']}: {p['city']} {p['state']} is not a default city for {p['country']}/{p['lang']}")
    langs = Counter(p["lang"] for p in pubs)
    countries = Counter(p["country"] for p in pubs)

    # ---- feeds
    fmt_count = Counter()
    all_items = []
    for p in pubs:
        path = os.path.join(HERE, p["xmlUrl"])
        if p["type"] == "json":
            try:
                feed = json.load(open(path, encoding="utf-8"))
            except ValueError as e:
                need(False, f"{p['xmlUrl']}: invalid JSON: {e}")
                continue
            need(feed.get("version") == "https://jsonfeed.org/version/1.1", f"{p['xmlUrl']}: not JSON Feed 1.1")
            need(feed.get("title"), f"{p['xmlUrl']}: no title")
            need(isinstance(feed.get("items"), list), f"{p['xmlUrl']}: no items list")
            need(all(isinstance(i.get("id"), str) and i["id"] for i in feed.get("items", [])), f"{p['xmlUrl']}: item without id")
            items = json_items(feed)
        else:
            try:
                root = ET.parse(path).getroot()
            except ET.ParseError as e:
                need(False, f"{p['xmlUrl']}: XML does not parse: {e}")
                continue
            if p["type"] == "rss":
                need(root.tag == "rss" and root.get("version") == "2.0", f"{p['xmlUrl']}: not RSS 2.0")
                items = rss_items(root)
            else:
                need(root.tag == "{%s}feed" % NS["atom"], f"{p['xmlUrl']}: not Atom 1.0")
                items = atom_items(root)
        fmt_count[p["type"]] += 1
        for d in items:
            d["pub"] = p
            d["feed"] = p["xmlUrl"]
        all_items.extend(items)
    # ---- items
    stats = Counter()
    guid_seen = defaultdict(Counter)
    link_feeds = defaultdict(set)
    for d in all_items:
        p = d["pub"]
        who = f"{d['feed']} / {d.get('guid')}"
        need(d["title"], f"{who}: no title")
        need(d["guid"], f"{who}: no guid/id")
        need(d["author"], f"{who}: no author")
        need(d["cats"], f"{who}: no categories/tags")
        need((d["link"] or "").startswith(HOST + "/"), f"{who}: link not under {HOST}")
        try:
            t = parse_date(d["date"])
            need(BASE - dt.timedelta(days=7) <= t <= BASE, f"{who}: date {d['date']} outside the 7 days before base")
        except (TypeError, ValueError):
            need(False, f"{who}: bad date {d['date']!r}")
        guid_seen[d["feed"]][d["guid"]] += 1
        link_feeds[(d["link"] or "").split("?")[0]].add(d["feed"])
        imgs = list(d["images"])
        if d["html"]:
            src = first_img(d["html"])
            if src:
                imgs.append(urljoin(d["link"], src))
        ok_img = any(local_media(u, "images") for u in imgs)
        need(ok_img, f"{who}: no image that maps to data/demo/media/images")
        stats["with_image"] += ok_img
        for u, t in d["video"]:
            if need(local_media(u, "video") and t in ("video/mp4", "video/webm"), f"{who}: bad video {u} {t}"):
                stats["video"] += 1
        for u, t in d["audio"]:
            if need(local_media(u, "audio") and t == "audio/mpeg", f"{who}: bad audio {u} {t}"):
                stats["audio"] += 1
        text = strip_tags(d["html"]) if d["html"] else d["summary"]
        n = len(text.split())
        need(60 <= n <= 250, f"{who}: {n} words of content (want 60-250)")
        if d["html"]:
            h = d["html"]
            stats["full_content"] += 1
            stats["html_with_p_a_img"] += bool("<p>" in h and "<a " in h and first_img(h))
            stats["relative_links"] += bool(re.search(r'href="/', h))
            stats["tracking_params"] += bool(TRACKING.search(h.replace("&amp;", "&")))
        else:
            stats["summary_only"] += 1
    for d in all_items:
        # a syndicated copy links to the original publisher's page (same canonical URL in two feeds)
        own = (d["link"] or "").startswith(d["pub"]["htmlUrl"])
        need(own or len(link_feeds[(d["link"] or "").split("?")[0]]) > 1,
             f"{d['feed']} / {d['guid']}: link not under the publisher's home")
    dup_guid_feeds = sum(1 for f, c in guid_seen.items() if any(v > 1 for v in c.values()))
    dup_links = sum(1 for l, fs in link_feeds.items() if len(fs) > 1)
    podcast_feeds = 0
    for p in pubs:
        if p["type"] == "rss":
            raw_feed = open(os.path.join(HERE, p["xmlUrl"]), encoding="utf-8").read()
            if 'xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"' in raw_feed and "audio/mpeg" in raw_feed:
                podcast_feeds += 1
    # ---- manifest: events and categories
    man = json.load(open(os.path.join(HERE, "manifest.json"), encoding="utf-8"))
    feed_keys = {(d["feed"], d["guid"]) for d in all_items}
    need(all((m["feed"], m["guid"]) in feed_keys for m in man["items"]), "manifest.json lists entries not in the feeds")
    ev_pubs = defaultdict(set)
    ev_langs = defaultdict(set)
    for m in man["items"]:
        if m["event"]:
            ev_pubs[m["event"]].add(m["publisher"])
            ev_langs[m["event"]].add(m["lang"])
    events2 = [e for e, ps in ev_pubs.items() if 2 <= len(ps) <= 5]
    cats = Counter(m["category"] for m in man["items"])
    img_files = [f for f in os.listdir(os.path.join(HERE, "media/images"))]
    for sub in ("media/images", "media/icons"):
        for f in os.listdir(os.path.join(HERE, sub)):
            try:
                ET.parse(os.path.join(HERE, sub, f))
            except ET.ParseError as e:
                need(False, f"{sub}/{f}: SVG does not parse: {e}")
    big = [f for f in img_files if os.path.getsize(os.path.join(HERE, "media/images", f)) > 2048]
    media_bytes = sum(os.path.getsize(os.path.join(dp, f)) for dp, _, fs in os.walk(os.path.join(HERE, "media")) for f in fs)

    print(f"publishers            {len(pubs)}  (en {langs['en']}, es {langs['es']}, fr {langs['fr']}; US {countries['US']}, CA {countries['CA']})")
    print(f"cities                {len(cities)}  ({len(in_defaults)} of them default cities)")
    print(f"formats               rss {fmt_count['rss']}, atom {fmt_count['atom']}, json {fmt_count['json']}")
    print(f"items                 {len(all_items)}  (with image {stats['with_image']}, video {stats['video']}, audio {stats['audio']})")
    print(f"content               full html {stats['full_content']} (p+a+img {stats['html_with_p_a_img']}, relative links {stats['relative_links']}, tracking params {stats['tracking_params']}), summary only {stats['summary_only']}")
    print(f"podcast feeds         {podcast_feeds}")
    print(f"events >=2 publishers {len(events2)}  (cross-language {sum(1 for e in events2 if len(ev_langs[e]) > 1)}, coverage items {sum(len(ev_pubs[e]) for e in events2)})")
    print(f"exact duplicates      feeds with a repeated guid {dup_guid_feeds}, links in two feeds {dup_links}")
    print(f"categories            " + ", ".join(f"{c} {cats[c]}" for c in sorted(CATEGORIES)))
    print(f"images                {len(img_files)} files, {len(big)} over 2 KB; media total {media_bytes // 1024} KB")

    need(len(pubs) >= 24, "fewer than 24 publishers")
    need(len(in_defaults) >= 12, "fewer than 12 default cities")
    need(set(countries) == {"US", "CA"}, "both countries needed")
    need(set(langs) == {"en", "es", "fr"}, "all three languages needed")
    need(langs["es"] >= 4, "fewer than 4 Spanish publishers")
    need(langs["fr"] >= 5, "fewer than 5 French publishers")
    need(fmt_count["rss"] >= 8 and fmt_count["atom"] >= 6 and fmt_count["json"] >= 4, "format mix below 8 RSS / 6 Atom / 4 JSON")
    need(len(all_items) >= 400, "fewer than 400 items")
    need(stats["with_image"] == len(all_items), "some items have no image")
    need(stats["video"] >= 10, "fewer than 10 video items")
    need(stats["audio"] >= 10, "fewer than 10 audio items")
    need(podcast_feeds >= 1, "no podcast feed with iTunes tags")
    need(stats["full_content"] > 0 and stats["summary_only"] > 0, "need both full-content and summary-only items")
    need(stats["relative_links"] > 0 and stats["tracking_params"] > 0, "need relative links and tracking parameters")
    need(len(events2) >= 15, "fewer than 15 events covered by 2-5 publishers")
    need(dup_guid_feeds >= 1 and dup_links >= 1, "exact duplicates missing")
    need(set(cats) == CATEGORIES, f"categories missing: {CATEGORIES - set(cats)}")
    need(not big, f"images over 2 KB: {big[:5]}")
    if errors:
        print(f"\nFAILED: {len(errors)} problem(s)")
        for e in errors[:50]:
            print("  -", e)
        return 1
    print("\nOK: all requirements met")
    return 0


if __name__ == "__main__":
    sys.exit(main())
