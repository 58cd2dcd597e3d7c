#!/usr/bin/env bash
# Baseline for the cluster benchmark: what the operator does, done by hand with etcd and etcdctl on this
# machine. Prints three lines, "create_seconds N" (a seed plus two members joined one at a time as learners and
# promoted, until all three are healthy), "replace_seconds N" (one member killed with SIGKILL, removed,
# and a fresh member added, started and promoted, until all three are healthy again) and "bootstrap_seconds N"
# (three new members started together with one static --initial-cluster, until all three are healthy).
# Usage: bench/baseline-cluster.sh [STATE_DIR] [IP_PREFIX]   (defaults: a temp dir, 127.201.0)
set -euo pipefail
dir=${1:-$(mktemp -d)}
prefix=${2:-127.201.0}
export ETCDCTL_API=3
pids=()
cleanup() { for p in "${pids[@]:-}"; do kill -9 "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT

now() { date +%s.%N; }
deadline=$(( $(date +%s) + ${BASELINE_TIMEOUT:-180} ))
patience() { if [ "$(date +%s)" -gt "$deadline" ]; then echo "baseline: gave up waiting: $1" >&2; exit 1; fi; }
ctl() { etcdctl --endpoints "http://$prefix.1:2379" --dial-timeout=2s --command-timeout=5s "$@"; }

start_member() { # name ip initial_cluster state
  mkdir -p "$dir/$1"
  etcd --name "$1" --data-dir "$dir/$1/data" --logger=zap --log-outputs="$dir/$1/etcd.log" \
    --listen-client-urls "http://$2:2379" --advertise-client-urls "http://$2:2379" \
    --listen-peer-urls "http://$2:2380" --initial-advertise-peer-urls "http://$2:2380" \
    --initial-cluster "$3" --initial-cluster-state "$4" --initial-cluster-token baseline &
  pids+=($!)
  last_pid=$!
}

wait_healthy() { # endpoints
  until etcdctl --endpoints "$1" --dial-timeout=1s --command-timeout=2s endpoint health >/dev/null 2>&1; do
    patience "health of $1"; sleep 0.05
  done
}

join() { # name ip -> adds as learner, starts, promotes
  local out id members
  until out=$(ctl member add "$1" --learner --peer-urls "http://$2:2380" 2>&1); do patience "member add $1"; sleep 0.2; done
  members=$(echo "$out" | sed -n 's/^ETCD_INITIAL_CLUSTER="\(.*\)"$/\1/p')
  id=$(echo "$out" | sed -n 's/^Member *\([0-9a-f]*\) added.*/\1/p')
  start_member "$1" "$2" "$members" existing
  until ctl member promote "$id" >/dev/null 2>&1; do patience "member promote $1 ($id)"; sleep 0.2; done
}

t0=$(now)
start_member m1 "$prefix.1" "m1=http://$prefix.1:2380" new
wait_healthy "http://$prefix.1:2379"
join m2 "$prefix.2"
join m3 "$prefix.3"
all="http://$prefix.1:2379,http://$prefix.2:2379,http://$prefix.3:2379"
wait_healthy "$all"
t1=$(now)
echo "create_seconds $(awk "BEGIN{print $t1-$t0}")"

victim_pid=$last_pid
t2=$(now)
kill -9 "$victim_pid"
id=$(ctl member list | awk -F', ' '$3=="m3"{print $1}')
until ctl member remove "$id" >/dev/null 2>&1; do patience "member remove m3 ($id)"; sleep 0.2; done
join m4 "$prefix.4"
wait_healthy "http://$prefix.1:2379,http://$prefix.2:2379,http://$prefix.4:2379"
t3=$(now)
echo "replace_seconds $(awk "BEGIN{print $t3-$t2}")"

# the first cluster goes, so that the next one has the machine to itself
for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done
wait 2>/dev/null || true
pids=()
boot="s1=http://$prefix.5:2380,s2=http://$prefix.6:2380,s3=http://$prefix.7:2380"
t4=$(now)
start_member s1 "$prefix.5" "$boot" new
start_member s2 "$prefix.6" "$boot" new
start_member s3 "$prefix.7" "$boot" new
wait_healthy "http://$prefix.5:2379,http://$prefix.6:2379,http://$prefix.7:2379"
t5=$(now)
echo "bootstrap_seconds $(awk "BEGIN{print $t5-$t4}")"
