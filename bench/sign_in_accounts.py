"""Sign in N readers through the real browser flow against the fake providers, then
pre-sign POST requests for wrk carrying their tokens.

  sign_in_accounts.py APP_URL CONTROL_URL SIGN_WORD N OUT_TOKENS
  sign_in_accounts.py --requests TOKENS SIGN_WORD PATH COUNT OUT_TSV

The first form: for each reader, a guest (POST /api/user/init), a Google user set on the
fake (POST /_control), then /auth/google/start → the fake's /authorize → our callback,
as a browser does (its cookies by hand); the new token comes back in Set-Cookie. Each
sign-in comes from its own X-Forwarded-For address (the server runs with
--forwarded-for), so the sign-in rate limit is not what is measured.
The second form writes one request per line: base, timestamp, nonce, sign, token."""
import hashlib
import http.client
import json
import random
import string
import sys
import time
import urllib.parse

ALPHABET = string.ascii_letters + string.digits


def base_for(device):
    return json.dumps({"device_id": device, "os": 3, "app_lang": "en", "package_name": "localwire.web",
                       "country": "US", "app_version": "30010200", "time_zone": "GMT-05:00"}, separators=(",", ":"))


def signed_headers(device, path, sign_word):
    base = base_for(device)
    nonce = "".join(random.choice(ALPHABET) for _ in range(10))
    sign = hashlib.md5((base + path + sign_word + device).encode()).hexdigest().upper()
    return {"base": base, "timestamp": str(int(time.time() * 1000)), "nonce": nonce, "sign": sign,
            "content-type": "application/json"}


def request(url, method="GET", headers=None, body=None):
    u = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=15)
    path = u.path + (f"?{u.query}" if u.query else "")
    conn.request(method, path, body=body, headers=headers or {})
    res = conn.getresponse()
    data = res.read()
    conn.close()
    return res.status, res.headers, data


def cookie(headers, name):
    for value in headers.get_all("Set-Cookie") or []:
        pair = value.split(";", 1)[0]
        k, _, v = pair.partition("=")
        if k == name:
            return v
    return None


def sign_in(app, control, sign_word, i):
    device = f"bench-acct-{int(time.time())}-{i}"
    status, _, body = request(f"{app}/api/user/init", "POST", signed_headers(device, "/user/init", sign_word), b"{}")
    assert status == 200, body
    token = json.loads(body)["data"]["token"]
    user = {"sub": f"bench-{i}", "email": f"reader{i}@example.org", "email_verified": True,
            "name": f"Reader {i}", "picture": ""}
    status, _, _ = request(control, "POST", {"content-type": "application/json"},
                           json.dumps({"google_user": user}).encode())
    assert status in (200, 204), status
    ip = f"198.18.{i // 250}.{i % 250 + 1}"
    status, h, body = request(f"{app}/auth/google/start", headers={"cookie": f"token={token}", "x-forwarded-for": ip})
    assert status == 303, body
    browser = cookie(h, "lw_sign_in")
    status, h, _ = request(h["Location"])
    assert status in (302, 303), status
    status, h, body = request(h["Location"], headers={"cookie": f"token={token}; lw_sign_in={browser}",
                                                      "x-forwarded-for": ip, "user-agent": "bench"})
    assert status == 200 and b'data-ok="1"' in body, body[:300]
    return device, cookie(h, "token")


def main():
    if sys.argv[1] == "--requests":
        tokens_file, sign_word, path, count, out = sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]), sys.argv[6]
        readers = [line.rstrip("\n").split("\t") for line in open(tokens_file) if line.strip()]
        now = str(int(time.time() * 1000))
        with open(out, "w") as f:
            for i in range(count):
                device, token = readers[i % len(readers)]
                base = base_for(device)
                nonce = "".join(random.choice(ALPHABET) for _ in range(10))
                sign = hashlib.md5((base + path + sign_word + device).encode()).hexdigest().upper()
                f.write(f"{base}\t{now}\t{nonce}\t{sign}\t{token}\n")
        return
    app, control, sign_word, n, out = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
    with open(out, "w") as f:
        for i in range(n):
            device, token = sign_in(app, control, sign_word, i)
            f.write(f"{device}\t{token}\n")


if __name__ == "__main__":
    main()
