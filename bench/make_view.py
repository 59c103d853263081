"""Give one bench reader a view for bench/reader.sh (issue 18, D270): 50 blocked publishers
and 20 mutes.

  make_view.py APP_URL SIGN_WORD DEVICE TOKEN HOME_FEED_PATH

It blocks every publisher that is not in the home feed's first page (the demo's and the
extra ones bench/reader.sh imports), up to 50, then the home feed's own publishers until
there are 50, and adds 20 mutes: 3 keywords taken from the home feed's titles (so the
filter really hides stories there and reads on), the rest keywords, tags and authors no
story has. Prints what it did."""
import json
import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from sign_in_accounts import request, signed_headers  # noqa: E402

BLOCKS = 50
MUTES = 20


def call(app, word, device, token, path, body):
    headers = signed_headers(device, path, word)
    headers["token"] = token
    status, _, data = request(f"{app}/api{path}", "POST", headers, json.dumps(body).encode())
    assert status == 200, (path, body, data)


def publishers(app):
    """Every publisher id, from the publisher search of each letter."""
    ids = set()
    for letter in "abcdefghijklmnopqrstuvwxyz":
        token = ""
        while True:
            url = f"{app}/api/search/media?q={letter}&size=50" + (f"&page_token={token}" if token else "")
            status, _, data = request(url)
            assert status == 200, data
            page = json.loads(data)["data"]
            ids.update(m["media_id"] for m in page["list"])
            token = page["next_page_token"]
            if not token:
                break
    return ids


def main():
    app, word, device, token, home = sys.argv[1:6]
    status, _, data = request(f"{app}{home}")
    assert status == 200, data
    feed = json.loads(data)["data"]["list"]
    local = [n["media_id"] for n in feed]
    others = sorted(publishers(app) - set(local))
    blocks = (others + [m for m in dict.fromkeys(local)])[:BLOCKS]
    assert len(blocks) == BLOCKS, f"only {len(blocks)} publishers: import more"
    # Keep the home feed's first publisher: a reader who blocked every local one has no feed.
    if local and local[0] in blocks:
        blocks.remove(local[0])
        spare = [m for m in others if m not in blocks]
        assert spare, "no spare publisher"
        blocks.append(spare[0])
    for media_id in blocks:
        call(app, word, device, token, "/user/media/block", {"media_id": media_id})
    words = []
    for n in feed[1:]:
        longest = max((w.strip(".,:;!?'\"").lower() for w in n["title"].split()), key=len, default="")
        if len(longest) > 4 and longest not in words:
            words.append(longest)
        if len(words) == 3:
            break
    mutes = [("keyword", w) for w in words]
    fillers = ["keyword", "tag", "author"]
    i = 0
    while len(mutes) < MUTES:
        kind = fillers[i % 3]
        mutes.append((kind, f"bench {kind} {i}"))
        i += 1
    for kind, value in mutes:
        call(app, word, device, token, "/user/mutes/add", {"kind": kind, "value": value})
    print(f"blocked {len(blocks)} publishers, muted {len(mutes)} ({', '.join(words)} among them)")


if __name__ == "__main__":
    main()
