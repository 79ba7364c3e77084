#!/usr/bin/env bash
# base_image.sh ENGINE... -- make sure the engine has debian:bookworm-slim,
# the base of the Dockerfile, without needing a registry.
#
# ENGINE... is the engine command with its global flags ("podman --runtime
# runc" or "docker").  In order, the first that works:
#   1. the image is already there (a previous run, or a real pull);
#   2. a cached root file system from an earlier debootstrap
#      ($PUZZLED_CACHE_DIR, default ~/.cache/puzzled) is imported;
#   3. a pull from the registry (at most 30 s: a closed network fails fast);
#   4. `debootstrap --variant=minbase bookworm` from the Debian mirror this
#      machine's apt uses, trimmed the way Debian's official slim image is
#      (no docs, man pages, locales or apt lists, dpkg told to keep it so),
#      cached as a tarball, imported and tagged docker.io/library/debian:bookworm-slim.
# Debootstrap needs root (chroot); it takes about a minute, the import a few
# seconds.  Delete the cached tarball to refresh it (security updates reach
# the image anyway: the Dockerfile runs apt-get against bookworm-security).
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 ENGINE [FLAGS...]" >&2; exit 2; }
engine=("$@")
image=docker.io/library/debian:bookworm-slim
cache_dir=${PUZZLED_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/puzzled}
tarball=$cache_dir/debian-bookworm-slim.tar.gz
say() { echo "base_image: $*" >&2; }

have_image() { "${engine[@]}" image inspect "$image" >/dev/null 2>&1; }

import_tarball() {
    "${engine[@]}" import \
        --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
        --change 'CMD ["bash"]' "$tarball" "$image" >/dev/null 2>"$tarball.log" ||
        { cat "$tarball.log" >&2; return 1; }
}

# The mirror apt uses here: the first Debian URI serving bookworm (one-line
# or deb822 sources), and the one serving bookworm-security.
mirror_of() { # $1 = suite
    local files=() f
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
        [ -f "$f" ] && files+=("$f")
    done
    [ ${#files[@]} -gt 0 ] || return 0
    awk -v want="$1" '
        /^deb / { for (i = 2; i <= NF; i++) if ($i !~ /^\[/) break;
                  if ($(i + 1) == want) { print $i; exit } }
        /^URIs:/ { uri = $2 }
        /^Suites:/ { for (i = 2; i <= NF; i++) if ($i == want && uri != "") { print uri; exit } }
        /^$/ { uri = "" }' "${files[@]}" 2>/dev/null | head -n1 || true
}

if have_image; then
    say "$image is there"
    exit 0
fi
if [ -s "$tarball" ]; then
    say "importing the cached root file system $tarball"
    import_tarball && have_image && exit 0
    say "the cached tarball did not import; building it again"
    rm -f "$tarball"
fi
if timeout 30 "${engine[@]}" pull "$image" >/dev/null 2>&1 && have_image; then
    say "pulled $image"
    exit 0
fi
say "no registry reachable: building $image with debootstrap"
command -v debootstrap >/dev/null || { say "debootstrap is missing (make deps-container)"; exit 1; }
[ "$(id -u)" = 0 ] || { say "debootstrap needs root"; exit 1; }

mirror=$(mirror_of bookworm)
mirror=${mirror:-http://deb.debian.org/debian}
security=$(mirror_of bookworm-security)
security=${security:-http://deb.debian.org/debian-security}
work=$(mktemp -d /tmp/puzzled-base.XXXXXX)
trap 'rm -rf "$work"' EXIT
root=$work/root
start=$(date +%s)
if ! debootstrap --variant=minbase bookworm "$root" "$mirror" >"$work/debootstrap.log" 2>&1; then
    tail -n 20 "$work/debootstrap.log" >&2
    say "debootstrap from $mirror failed"
    exit 1
fi

# What Debian's official slim image does on top of debootstrap.
rm -f "$root/etc/apt/sources.list"
cat >"$root/etc/apt/sources.list.d/debian.sources" <<EOF
Types: deb
URIs: $mirror
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: $security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
cat >"$root/etc/dpkg/dpkg.cfg.d/docker" <<'EOF'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/groff/*
path-exclude /usr/share/info/*
path-exclude /usr/share/lintian/*
path-exclude /usr/share/linda/*
path-exclude /usr/share/locale/*
path-include /usr/share/locale/locale.alias
EOF
cat >"$root/etc/apt/apt.conf.d/docker-clean" <<'EOF'
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
EOF
printf 'Acquire::Languages "none";\n' >"$root/etc/apt/apt.conf.d/docker-no-languages"
printf 'APT::AutoRemove::SuggestsImportant "false";\n' >"$root/etc/apt/apt.conf.d/docker-autoremove-suggests"
find "$root/usr/share/doc" -mindepth 2 ! -name copyright ! -type d -delete 2>/dev/null || true
find "$root/usr/share/doc" -mindepth 1 -type d -empty -delete 2>/dev/null || true
rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/cache/apt/*.bin "$root"/var/lib/apt/lists/* \
       "$root"/usr/share/man/* "$root"/usr/share/info/* "$root"/usr/share/groff/* \
       "$root"/usr/share/lintian/* "$root"/var/log/*.log "$root"/var/log/apt/* "$root"/tmp/*
find "$root/usr/share/locale" -mindepth 1 -maxdepth 1 ! -name locale.alias -exec rm -rf {} +

mkdir -p "$cache_dir"
tar --numeric-owner -C "$root" -czf "$tarball.tmp" . && mv "$tarball.tmp" "$tarball"
import_tarball
have_image || { say "the import did not produce $image"; exit 1; }
say "built $image from $mirror in $(($(date +%s) - start)) s (cached: $tarball, $(du -h "$tarball" | cut -f1))"
