#!/usr/bin/env bash
# Builds one of the parts in this folder (a Go module of ours whose main runs
# upstream commands) into a cache outside target/:
#
#   ${ETCD_OPERATOR_PARTS_CACHE:-$HOME/.cache/etcd-operator/parts}/<name>-<version>/bin/
#
# usage: build.sh <name>               build unless cached; last line of stdout: the bin dir
#        build.sh --print-dir <name>   only print the bin dir
#
# <name> is a folder next to this script (kube, etcd-3.5, etcd-3.6, minio,
# busybox); <version> is its VERSION file. busybox is no Go module: it is
# Debian's statically linked busybox (package busybox-static), unpacked. A cache entry is complete when it has the
# marker file .complete, written after the smoke check passed and before the
# entry is renamed into place, so an entry is either absent or complete.
# Concurrent invocations serialise on a lock file in the cache dir.
# Builds use the committed go.sum (-mod=readonly) and Go's default build and
# module caches (go env GOCACHE GOMODCACHE), which are outside target/.
set -euo pipefail

usage() {
  echo "usage: $0 [--print-dir] {kube|etcd-3.5|etcd-3.6|minio|busybox}" >&2
  exit 2
}

print_only=false
if [[ ${1-} == --print-dir ]]; then
  print_only=true
  shift
fi
[[ $# -eq 1 ]] || usage
name=$1

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$here"
part=$here/$name
[[ $name =~ ^[a-z0-9.-]+$ && -f $part/VERSION && ( -f $part/go.mod || $name == busybox ) ]] || usage
version=$(tr -d '[:space:]' <"$part/VERSION")
[[ -n $version ]] || { echo "$part/VERSION is empty" >&2; exit 1; }

# Per part: the upstream module whose version VERSION names, the links in
# bin/ to the binary (named <name>), the smoke check and the version stamps.
ldflags=(-s -w)
case $name in
  kube)
    upstream=k8s.io/kubernetes
    links=(kube-apiserver kube-controller-manager kube-scheduler kubectl)
    smoke=("kube-apiserver --version" "kube-controller-manager --version"
           "kube-scheduler --version" "kubectl version --client")
    # What upstream's hack/lib/version.sh stamps (buildDate left at its default).
    minor=${version#v1.}
    minor=${minor%%.*}
    for pkg in k8s.io/client-go/pkg/version k8s.io/component-base/version; do
      ldflags+=(-X "$pkg.gitVersion=$version" -X "$pkg.gitMajor=1" -X "$pkg.gitMinor=$minor"
                -X "$pkg.gitTreeState=archive")
    done
    ;;
  etcd-3.*)
    upstream=go.etcd.io/etcd/server/v3
    links=(etcd etcdctl etcdutl)
    smoke=("etcd --version" "etcdctl version" "etcdutl version")
    ;;
  busybox)
    upstream=
    links=()
    smoke=("busybox true")
    ;;
  minio)
    upstream=github.com/minio/minio
    links=()
    smoke=("minio --version")
    # minio's Version is the commit time in its release format; it warns of an
    # old release from it. The pseudo-version carries the time and commit.
    ts=${version#v0.0.0-}
    ts=${ts%%-*}
    commit=${version##*-}
    stamp="${ts:0:4}-${ts:4:2}-${ts:6:2}T${ts:8:2}:${ts:10:2}:${ts:12:2}Z"
    release="DEVELOPMENT.${ts:0:4}-${ts:4:2}-${ts:6:2}T${ts:8:2}-${ts:10:2}-${ts:12:2}Z"
    ldflags+=(-X "github.com/minio/minio/cmd.Version=$stamp"
              -X "github.com/minio/minio/cmd.CopyrightYear=${ts:0:4}"
              -X "github.com/minio/minio/cmd.ReleaseTag=$release"
              -X "github.com/minio/minio/cmd.CommitID=$commit"
              -X "github.com/minio/minio/cmd.ShortCommitID=${commit:0:12}")
    ;;
  *) usage ;;
esac

cache=${ETCD_OPERATOR_PARTS_CACHE:-$HOME/.cache/etcd-operator/parts}
entry=$cache/$name-$version
if $print_only; then
  echo "$entry/bin"
  exit 0
fi
if [[ -f $entry/.complete ]]; then
  echo "$entry/bin"
  exit 0
fi

# The go.mod must pin the upstream release that VERSION names.
if [[ -n $upstream ]] && ! grep -qE "^[[:space:]]*(require[[:space:]]+)?${upstream//./\\.}[[:space:]]+${version//./\\.}([[:space:]]|$)" "$part/go.mod"; then
  echo "$part/go.mod does not require $upstream $version (VERSION)" >&2
  exit 1
fi

mkdir -p "$cache"
exec 9>"$cache/$name-$version.lock"
if ! flock -n 9; then
  echo "waiting for another build of $name-$version ($cache/$name-$version.lock)" >&2
  flock 9
fi
if [[ -f $entry/.complete ]]; then # built meanwhile by the holder of the lock
  echo "$entry/bin"
  exit 0
fi
# Holding the lock: anything left for this entry is from a build that died.
rm -rf "$entry" "$cache/.$name-$version.tmp."*

tmp=$(mktemp -d "$cache/.$name-$version.tmp.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin"

start=$SECONDS
if [[ $name == busybox ]]; then
  gover=none
  echo "fetching Debian's busybox-static into $entry" >&2
  # apt-get download needs the package lists; a fresh machine may have none yet
  if ! (cd "$tmp" && apt-get download -q busybox-static >&2); then
    [[ $(id -u) -eq 0 ]] || { echo "apt-get download busybox-static failed (run apt-get update as root)" >&2; exit 1; }
    apt-get update -q >&2
    (cd "$tmp" && apt-get download -q busybox-static >&2)
  fi
  dpkg-deb -x "$tmp"/busybox-static_*.deb "$tmp/root"
  mv "$tmp/root/bin/busybox" "$tmp/bin/busybox"
  echo "package=$(basename "$tmp"/busybox-static_*.deb)" >"$tmp/versions.txt"
  # read whole (sed, not head): busybox writes its help in pieces, and one after head left would end it with SIGPIPE
  banner=$("$tmp/bin/busybox" --help 2>&1 | sed -n 1p)
  echo "$banner" >>"$tmp/versions.txt"
  rm -rf "$tmp/root" "$tmp"/busybox-static_*.deb
  # the VERSION is busybox's own: a Debian update of another release fails here instead of running unnoticed
  if [[ $banner != "BusyBox v$version "* ]]; then
    echo "Debian's busybox-static is not busybox $version (VERSION): $banner" >&2
    exit 1
  fi
else
  gover=$(go env GOVERSION)
  echo "building $name $version into $entry (go: $gover, build cache: $(go env GOCACHE))" >&2
  (
    cd "$part"
    GOWORK=off CGO_ENABLED=0 go build -mod=readonly -buildvcs=false -trimpath \
      -ldflags "${ldflags[*]}" -o "$tmp/bin/$name" .
  )
fi
for link in "${links[@]}"; do
  ln -s "$name" "$tmp/bin/$link"
done
echo "built in $((SECONDS - start))s, $(du -h "$tmp/bin/$name" | cut -f1)" >&2

for cmd in "${smoke[@]}"; do
  echo "\$ $cmd" >>"$tmp/versions.txt"
  read -ra argv <<<"$cmd"
  if ! timeout 60 "$tmp/bin/${argv[0]}" "${argv[@]:1}" >>"$tmp/versions.txt" 2>&1; then
    echo "smoke check failed: $cmd" >&2
    cat "$tmp/versions.txt" >&2
    exit 1
  fi
done
cat "$tmp/versions.txt" >&2

{
  echo "name=$name"
  echo "version=$version"
  echo "go=$gover"
  echo "built=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "sha256=$(sha256sum "$tmp/bin/$name" | cut -d' ' -f1)"
} >"$tmp/.complete"
chmod 755 "$tmp"
mv -T "$tmp" "$entry"
trap - EXIT
echo "$entry/bin"
