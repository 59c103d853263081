"""Pre-sign POST /api/user/init requests for wrk (one per line: base, timestamp, nonce,
sign, client address, tab-separated), each with its own device id and nonce, as the web
app signs them (SPEC §7: sign = uppercase MD5 of base + path + sign word + device id).
Each comes from its own IPv6 /64 (sent as X-Forwarded-For; the server runs with
--forwarded-for): first visits come from many networks, and the per-address guest limit
(D351) is measured with the most addresses it will ever track."""
import hashlib
import json
import random
import string
import sys
import time

count, sign_word, out = int(sys.argv[1]), sys.argv[2], sys.argv[3]
now = int(time.time() * 1000)
alphabet = string.ascii_letters + string.digits
with open(out, "w") as f:
    for i in range(count):
        device = f"bench-{now}-{i}"
        base = json.dumps({"device_id": device, "os": 3, "app_lang": "en", "package_name": "localwire.web",
                           "country": "US", "app_version": "30010200", "time_zone": "GMT-05:00"},
                          separators=(",", ":"))
        nonce = "".join(random.choice(alphabet) for _ in range(10))
        sign = hashlib.md5((base + "/user/init" + sign_word + device).encode()).hexdigest().upper()
        address = f"2001:db8:{i >> 16:x}:{i & 0xffff:x}::1"
        f.write(f"{base}\t{now}\t{nonce}\t{sign}\t{address}\n")
