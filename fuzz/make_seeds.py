#!/usr/bin/env python3
"""Write the seed corpora in fuzz/corpus/<target>/ from the repository's own fixtures.

Every seed comes from this repository (AGPL-3.0-or-later, like the code): the fictional
demo corpus in data/demo (see data/demo/README.md), the report rules and validation cases
in web/src/shared, and small hand-written cases mirroring the unit tests. Feeds are cut to
their first two items so a seed stays under the targets' -max_len (scripts/fuzz-smoke).
Run from anywhere: python3 fuzz/make_seeds.py
"""
import hashlib
import json
import re
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "fuzz" / "corpus"
MAX_SEED = 4 * 1024  # the feed target's -max_len (scripts/fuzz)


def write(target: str, data: bytes) -> None:
    d = CORPUS / target
    d.mkdir(parents=True, exist_ok=True)
    (d / hashlib.sha1(data).hexdigest()[:16]).write_bytes(data)


def first_items(text: str, tag: str, keep: int = 2) -> str:
    """The feed up to the end of its `keep`-th <tag>, then closed again."""
    ends = [m.end() for m in re.finditer(rf"</{tag}>", text)]
    if len(ends) <= keep:
        return text
    cut = text[: ends[keep - 1]]
    closing = {"item": "\n</channel>\n</rss>\n", "entry": "\n</feed>\n"}[tag]
    return cut + closing


def feeds() -> None:
    feeds_dir = ROOT / "data" / "demo" / "feeds"
    for path in sorted(feeds_dir.iterdir()):
        text = path.read_text()
        if path.suffix == ".json":
            doc = json.loads(text)
            doc["items"] = doc["items"][:1]
            data = json.dumps(doc, ensure_ascii=False, indent=1).encode()
        elif path.suffix == ".atom":
            data = first_items(text, "entry", 1).encode()
        else:
            data = first_items(text, "item", 1).encode()
        if len(data) <= MAX_SEED:
            write("feed_parse_clean", data)
    hand = [
        # The unit tests' attacks and shapes (crates/ingest/tests/parse_clean.rs).
        '<rss version="2.0"><channel><title>T</title>\n<item><title>&lt;script&gt;alert(1)&lt;/script&gt;Mayor '
        "&lt;b&gt;wins&lt;/b&gt; &amp;amp; celebrates</title>\n<link>https://x.example/2</link>\n<description>"
        '<![CDATA[<p onclick="evil()">Hi <script>steal()</script><iframe src="https://evil.example"></iframe>\n'
        '<a href="javascript:alert(1)">x</a><style>body{}</style></p>]]></description></item></channel></rss>',
        '<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/"><channel><title>T</title>'
        "<link>https://paper.example/section/</link><item><title>Plan</title><link>/a?utm_source=x&amp;id=2</link>"
        '<content:encoded><![CDATA[<p><a href="../docs/plan.pdf?fbclid=1">plan</a><img src="img/chart.png">'
        '<img src="https://feeds.feedburner.com/~r/x/~4/pixel" width="1" height="1"></p>]]></content:encoded>'
        "</item></channel></rss>",
        '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;">]>'
        '<rss version="2.0"><channel><title>&lol2;</title></channel></rss>',
        '<feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://fil.example/fr/"><title>T</title><id>urn:t</id>'
        '<entry><title type="html">Pont &lt;em&gt;ferm&#233;&lt;/em&gt;</title><id>urn:t:1</id>'
        '<link href="1"/><link rel="enclosure" type="audio/mpeg" href="1.mp3"/>'
        '<content type="html">&lt;figure&gt;&lt;img src="a.jpg"&gt;&lt;figcaption&gt;Photo&lt;/figcaption&gt;'
        "&lt;/figure&gt;&lt;table&gt;&lt;tr&gt;&lt;td&gt;1&lt;/td&gt;&lt;/tr&gt;&lt;/table&gt;</content></entry></feed>",
        '{"version":"https://jsonfeed.org/version/1.1","title":"Metro","home_page_url":"https://metro.example/",'
        '"items":[{"id":"m1","url":"/m1","title":"Clip","content_html":"<p>Ver <a href=\\"/v\\">v</a></p>",'
        '"attachments":[{"url":"/m1.mp4","mime_type":"video/mp4"},{"url":"m1.mp3","mime_type":"audio/mpeg"}]}]}',
        # Bytes that are not a feed are cleaned as HTML.
        '<p>Hello <b>world</b></p><p>again&nbsp;&amp; &lt;b&gt; &#x27;x&#39;</p><a href=x title=\'a>b\'>link</a>',
        "<b>1<div>2</b>3</div> <a>4<a>5</a> & AT&T<ul><li>one<li>two</ul><pre>\nq</pre><!-- c -->",
        '<svg><a xlink:href="javascript:alert(1)">x</a></svg><math><mi><style><img src=x onerror=alert(1)>',
    ]
    for h in hand:
        write("feed_parse_clean", h.encode())


def opml() -> None:
    text = (ROOT / "data" / "demo" / "publishers.opml").read_text()
    write("opml_import", text.encode())
    lines = text.splitlines(keepends=True)
    head = "".join(l for l in lines if not l.lstrip().startswith("<outline"))
    outlines = [l for l in lines if l.lstrip().startswith("<outline")]
    one = head.replace("<body>\n", "<body>\n" + outlines[0])
    write("opml_import", one.encode())
    ns = 'xmlns:localwire="https://localwire.invalid/ns/opml"'
    for body in [
        '<outline text="News"><outline text="Local" xmlUrl="https://a.example/rss" htmlUrl="https://a.example/"/>'
        '<outline text="Dup" xmlUrl="https://a.example/rss"/></outline>',
        '<outline text="No URL"/><outline text="Rel" xmlUrl="feeds/a.xml"/><outline text="Ftp" xmlUrl="ftp://x/"/>'
        '<outline text="Bad" xmlUrl="http://[::1"/>',
        '<outline text="A &amp; B &#233;" title=" T&#10;2 " xmlUrl="https://a.example/r?x=1&amp;y=2" '
        'lw:city="Qu&#233;bec" lw:lang="fr" other:x="y" xmlns:lw="https://localwire.invalid/ns/opml" '
        'xmlns:other="urn:x"/>',
    ]:
        doc = f'<?xml version="1.0"?>\n<opml version="2.0" {ns}>\n<head><title>T</title></head>\n<body>\n{body}\n</body>\n</opml>\n'
        write("opml_import", doc.encode())
    write("opml_import", b'<?xml version="1.0"?><!DOCTYPE opml [<!ENTITY x "y">]><opml version="2.0"><head><title>&x;</title></head><body/></opml>')
    write("opml_import", b"<opml version=\"2.0\">\n<body>\n<outline text=\"Caf\xe9\"/>")


def signed() -> None:
    # flags byte, then base, timestamp, nonce, sign, token, path (fuzz_targets/signed_headers.rs)
    base = '{"device_id":"d1","app_lang":"en","country":"US","os":3}'
    cases = [
        (3, base, "0", "abcde12345", "", "t-1", "user/init"),
        (1, base, "1763640000000", "abcde12345", "", "", "user/info"),
        (0, base, "1763640000000", "abcde12345", "0123456789ABCDEF0123456789ABCDEF", " tok ", "report"),
        (3, '{"device_id":"a-b_c.d:e"}', "-300000", "ZZZZZZZZZZ", "", "", "follow/add"),
        (3, '{"device_id":""}', "300001", "abc", "", "", "x"),
        (7, base, "-9223372036854775808", "abcde12345", "", "1763640000000", "user/init"),
    ]
    for flags, *fields in cases:
        write("signed_headers", bytes([flags]) + "\n".join(fields).encode())


def report() -> None:
    rules = json.loads((ROOT / "web" / "src" / "shared" / "report.json").read_text())
    cases = json.loads((ROOT / "web" / "src" / "shared" / "fixtures" / "report-validation.json").read_text())
    events = [c["event"] for c in cases["cases"]]
    for name in sorted(rules["events"]):
        events.append({"event": name, "time": 1760000000000})
    prop = {"os": 5, "device_id": "d1", "network_type": "wifi", "ip": "203.0.113.7", "user_id": 9, "app_lang": "en"}

    def request(data):
        return {"app_id": 20310, "timestamp": 1760000000000, "nonce_str": "abcdefghijklmnop", "source": 4,
                "data": data, "property": prop}

    write("report_body", json.dumps(request(events[:50])).encode())
    for i in range(0, len(events), 4):
        write("report_body", json.dumps(request(events[i : i + 4])).encode())
    write("report_body", json.dumps(request([{"event": "search", "keyword": " x "}] * 101)).encode())
    write("report_body", b'{"app_id":"20310","timestamp":"1760000000","nonce_str":"abcdefghijklmnop","source":"4",'
          b'"data":[{"event":"usingTime","duration":"abc"}],"property":{"os":"5","network_type":"6g"}}')


if __name__ == "__main__":
    if CORPUS.exists():
        shutil.rmtree(CORPUS)
    feeds()
    opml()
    signed()
    report()
    for d in sorted(CORPUS.iterdir()):
        files = list(d.iterdir())
        print(f"{d.name}: {len(files)} seeds, {sum(f.stat().st_size for f in files)} bytes")
