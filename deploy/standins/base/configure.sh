#!/bin/sh
# Turns a fresh `debootstrap --variant=minbase` tree (the directory given) into the base of the
# stand-in images, as Debian's own container images are set up: no service starts while a package
# installs, no recommended packages or documentation, and the updates and security suites in the
# sources so every stand-in gets Debian's fixes. bin/standins runs it as root before `docker import`.
set -eu
root=$1
suite=$2
mirror=$3

cat >"$root/usr/sbin/policy-rc.d" <<'POLICY'
#!/bin/sh
# A container has no init system: never start a service from a package's install script.
exit 101
POLICY
chmod 755 "$root/usr/sbin/policy-rc.d"

cat >"$root/etc/apt/apt.conf.d/90standin" <<'APT'
APT::Install-Recommends "false";
APT::Install-Suggests "false";
Acquire::Languages "none";
APT

cat >"$root/etc/dpkg/dpkg.cfg.d/90standin-nodoc" <<'DPKG'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
DPKG

cat >"$root/etc/apt/sources.list" <<SOURCES
deb $mirror $suite main
deb $mirror $suite-updates main
deb ${mirror%/debian}/debian-security $suite-security main
SOURCES

rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin "$root"/var/cache/apt/archives/*.deb \
  "$root"/var/log/*.log "$root"/var/log/apt/* "$root"/tmp/*
