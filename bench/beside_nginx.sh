# Sourced by bench scripts that compare one kept API answer with nginx serving the same
# bytes as a static file, in the same run (bench/weather.sh, bench/history.sh; and
# static_nginx alone, bench/misses.sh).
#
#   beside_nginx NAME URL_PATH
#
# Needs WORK (a scratch folder, cleaned by the caller's trap, which also kills
# $WORK/nginx.pid), APP_PID's server on PORT_APP, PORT_NGINX, THREADS, CONNS, DURATION, OUT.
# Writes $OUT/NAME-nginx.txt and $OUT/NAME-app.txt and prints req/s and p99 of each.
# Starts nginx on PORT_NGINX serving $WORK/www with one location block (the argument),
# logging nothing, keeping connections open as wrk does: the baseline every bench compares
# with. The caller's trap stops it ($WORK/nginx.pid).
# port_free and wait_for_app (below) start a bench's own server safely: they fail when
# another process answers on PORT_APP or when ours exits before answering.
static_nginx() {
  cat >"$WORK/nginx.conf" <<NGINX
worker_processes auto;
pid $WORK/nginx.pid;
error_log $WORK/nginx-error.log;
daemon on;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  keepalive_requests 100000;
  server {
    listen 127.0.0.1:$PORT_NGINX;
    root $WORK/www;
    $1
  }
}
NGINX
  nginx -c "$WORK/nginx.conf" -p "$WORK"
  sleep 0.3
}

beside_nginx() {
  local name=$1 url_path=$2 api_path=${2%%\?*}
  mkdir -p "$WORK/www"
  for _ in $(seq 20); do
    curl -sf -H 'Accept-Encoding: identity' "http://127.0.0.1:$PORT_APP$url_path" >"$WORK/www/$name.json" && break
    sleep 0.2
  done
  [ -s "$WORK/www/$name.json" ] || { echo "no answer from $api_path" >&2; cat "$WORK/app.log" >&2; exit 1; }
  static_nginx "location = $api_path { default_type application/json; try_files /$name.json =404; }"

  echo "cores: $(nproc); answer: $(wc -c <"$WORK/www/$name.json") bytes; load: $(cut -d' ' -f1-3 /proc/loadavg)"
  wrk -t"$THREADS" -c"$CONNS" -d"$DURATION" --latency -H 'Accept-Encoding: identity' \
    "http://127.0.0.1:$PORT_NGINX$url_path" >"$OUT/$name-nginx.txt"
  wrk -t"$THREADS" -c"$CONNS" -d"$DURATION" --latency -H 'Accept-Encoding: identity' \
    "http://127.0.0.1:$PORT_APP$url_path" >"$OUT/$name-app.txt"
  for f in nginx app; do
    printf '%s: ' "$f"; grep -E 'Requests/sec' "$OUT/$name-$f.txt"; grep -E ' 99%' "$OUT/$name-$f.txt"
  done
  echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
}

# Fails when something already answers on PORT_APP: a server left running there by an
# earlier run would be measured instead of ours (it happened: RESULTS, 2026-12-07 10:33).
# Call it before starting the server.
port_free() {
  if curl -s -o /dev/null "http://127.0.0.1:$PORT_APP/"; then
    echo "port $PORT_APP is taken (a server left running?): stop it first" >&2
    exit 1
  fi
}

# Waits until APP_PID's server answers on PORT_APP; fails if it exits first.
wait_for_app() {
  for _ in $(seq 300); do
    kill -0 "$APP_PID" 2>/dev/null || { echo "our server exited (is port $PORT_APP taken?)" >&2; exit 1; }
    curl -sf "http://127.0.0.1:$PORT_APP/healthz" >/dev/null && return 0
    sleep 0.1
  done
  echo "our server did not answer on port $PORT_APP within 30 s" >&2
  exit 1
}
