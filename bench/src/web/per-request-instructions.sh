#!/bin/bash
# What one static request costs an Apache tree in CPU instructions, counted rather than timed (a
# loaded machine moves CPU time per request by ±15 % and more; an instruction count hardly moves):
# `apache2 -X` under valgrind's callgrind, N1 then N2 keep-alive requests from one ab client, the
# difference of the instructions executed ("Collected") divided by N2 - N1 (start-up cancels out).
#   bash bench/src/web/per-request-instructions.sh <apache2 folder> <port> <host name> [N1] [N2]
# The same arguments as per-request-cost.sh (system calls); the environment is passed to Apache
# (a stock tree needs APACHE_RUN_USER and the other APACHE_* variables). Run as root.
set -eu
DIR=$1 PORT=$2 NAME=$3 N1=${4:-50} N2=${5:-250}
OUT=$(mktemp -d)
wait_port() { for _ in $(seq 1 1200); do (exec 3<>/dev/tcp/127.0.0.1/"$PORT") 2>/dev/null && return 0; sleep 0.1; done; return 1; }
run() { # $1 requests -> instructions collected
  valgrind --tool=callgrind --callgrind-out-file=/dev/null apache2 -X -d "$DIR" -f "$DIR/apache2.conf" >"$OUT/vg.$1" 2>&1 &
  local vg=$!
  wait_port
  ab -q -k -n "$1" -c 1 -H "Host: $NAME" "http://127.0.0.1:$PORT/" >"$OUT/ab.$1"
  grep -q "^Complete requests: *$1$" "$OUT/ab.$1" || { cat "$OUT/ab.$1" >&2; exit 1; }
  grep -q "^Non-2xx" "$OUT/ab.$1" && { echo "non-2xx answers" >&2; exit 1; }
  kill -TERM "$vg"
  wait "$vg" || true
  grep -oP 'Collected : \K[0-9]+' "$OUT/vg.$1"
}
A=$(run "$N1")
B=$(run "$N2")
awk -v a="$A" -v b="$B" -v n1="$N1" -v n2="$N2" 'BEGIN { printf "instructions/request %.0f\n", (b - a) / (n2 - n1) }'
rm -rf "$OUT"
