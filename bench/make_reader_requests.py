"""Guests and pre-signed calls for bench/reader.sh.

  make_reader_requests.py APP_URL SIGN_WORD N OUT_READERS        # N guests: device, token
  make_reader_requests.py --calls READERS SIGN_WORD PATH IDS COUNT OUT_TSV

The second form writes COUNT signed calls to PATH (after /api), each from one of the
readers with `{"news_id": id}` for an id drawn from the comma-separated IDS."""
import hashlib
import json
import random
import sys
import time
import urllib.request

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from sign_in_accounts import ALPHABET, base_for, signed_headers  # noqa: E402


def main():
    if sys.argv[1] == "--calls":
        readers_file, word, path, ids, count, out = sys.argv[2:8]
        readers = [line.rstrip("\n").split("\t") for line in open(readers_file) if line.strip()]
        ids = [int(i) for i in ids.split(",") if i]
        now = str(int(time.time() * 1000))
        with open(out, "w") as f:
            for i in range(int(count)):
                device, token = readers[i % len(readers)]
                base = base_for(device)
                nonce = "".join(random.choice(ALPHABET) for _ in range(10))
                sign = hashlib.md5((base + path + word + device).encode()).hexdigest().upper()
                body = json.dumps({"news_id": random.choice(ids)}, separators=(",", ":"))
                f.write(f"{base}\t{now}\t{nonce}\t{sign}\t{token}\t{body}\n")
        return
    app, word, n, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    with open(out, "w") as f:
        for i in range(n):
            device = f"bench-reader-{int(time.time())}-{i}"
            req = urllib.request.Request(f"{app}/api/user/init", data=b"{}", method="POST",
                                         headers=signed_headers(device, "/user/init", word))
            token = json.load(urllib.request.urlopen(req))["data"]["token"]
            f.write(f"{device}\t{token}\n")


if __name__ == "__main__":
    main()
