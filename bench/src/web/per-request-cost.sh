#!/bin/bash
# What one static request costs an Apache tree in system calls, counted rather than timed (a loaded
# machine moves timings by ±15 %, counts not at all): `apache2 -X` under `strace -f -c`, N1 then N2
# keep-alive requests from one ab client, the difference divided by N2 - N1 (start-up cancels out).
#   bash bench/src/web/per-request-cost.sh <apache2 folder> <port> <host name> [N1] [N2]
# The folder is a rendered tree kept by `BENCH_WEB_KEEP=1 npm run bench -- web`
# (<data>/root/etc/apache2) or a stock one; run as root (Apache switches to www-data).
set -eu
DIR=$1 PORT=$2 NAME=$3 N1=${4:-200} N2=${5:-1200}
OUT=$(mktemp -d)
wait_port() { for _ in $(seq 1 300); do (exec 3<>/dev/tcp/127.0.0.1/"$PORT") 2>/dev/null && return 0; sleep 0.1; done; return 1; }
run() { # $1 requests
  strace -f -c -o "$OUT/st.$1" apache2 -X -d "$DIR" -f "$DIR/apache2.conf" >/dev/null 2>&1 &
  local tracer=$!
  wait_port
  ab -q -k -n "$1" -c 1 -H "Host: $NAME" "http://127.0.0.1:$PORT/" >/dev/null
  kill -TERM "$(pgrep -P "$tracer" apache2)"
  wait "$tracer" || true
}
run "$N1"
run "$N2"
# Per request: every call, and the ones that differ between configurations.
awk -v n1="$N1" -v n2="$N2" -v f1="$OUT/st.$N1" '
  FNR == NR { if ($NF != "syscall" && $4 ~ /^[0-9]+$/) a[$NF] = $4; next }
  $4 ~ /^[0-9]+$/ { b[$NF] = $4 }
  END {
    printf "syscalls/request %.1f:", (b["total"] - a["total"]) / (n2 - n1);
    for (k in b) if (k != "total") { d = (b[k] - a[k]) / (n2 - n1); if (d >= 0.5) printf " %s %.1f", k, d }
    printf "\n"
  }' "$OUT/st.$N1" "$OUT/st.$N2"
rm -rf "$OUT"
