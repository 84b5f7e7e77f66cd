#!/usr/bin/env bash
# Makes sure the services the tests need are present and running:
#   - PostgreSQL on 127.0.0.1:5432 with trust auth and a database `test`
#   - Chromium at /usr/bin/chromium, and its headless shell at /usr/bin/chromium-headless-shell (Playwright
#     and the browse tool drive the shell, which takes half the CPU; Playwright cannot download its own)
#   - curl (the webhook browser test sends its deliveries with it, as a person would)
# Idempotent: on a machine where all are ready it only checks and says so.
# Works as root (CI on a fresh Debian) or as a user with sudo.
set -euo pipefail

PG_HOST=127.0.0.1
PG_PORT=5432
CHROMIUM=/usr/bin/chromium
HEADLESS_SHELL=/usr/bin/chromium-headless-shell

say() { printf '[ensure-services] %s\n' "$*"; }
fail() {
  printf '[ensure-services] ERROR: %s\n' "$*" >&2
  exit 1
}

# Run a command as root: directly when we are root, through sudo when it is available.
as_root() {
  if [ "$(id -u)" -eq 0 ]; then
    "$@"
  elif command -v sudo >/dev/null 2>&1; then
    sudo -n "$@" || fail "'$*' needs root and 'sudo -n' was refused; run this script as root or allow passwordless sudo."
  else
    fail "'$*' needs root, and this is neither root nor has sudo; install it by hand or run as root."
  fi
}

# Run a command as the postgres system user (peer auth over the local socket).
as_postgres() {
  if [ "$(id -un)" = postgres ]; then
    "$@"
  elif [ "$(id -u)" -eq 0 ] && command -v runuser >/dev/null 2>&1; then
    runuser -u postgres -- "$@"
  elif [ "$(id -u)" -eq 0 ]; then
    su postgres -s /bin/sh -c "$(printf '%q ' "$@")"
  elif command -v sudo >/dev/null 2>&1; then
    sudo -n -u postgres "$@"
  else
    return 1
  fi
}

# dpkg refuses every install when /var/lib/dpkg/statoverride names a user or
# group that no longer exists ("unknown system user 'redis'"). Recreate each
# missing account as a system account so apt can proceed.
repair_dpkg_statoverride() {
  local file=${DPKG_STATOVERRIDE_FILE:-/var/lib/dpkg/statoverride}
  [ -r "$file" ] || return 0
  local user group
  while read -r user group _mode _path; do
    [ -n "${user:-}" ] || continue
    user=${user#\#}
    group=${group#\#}
    if [[ "$group" =~ ^[A-Za-z_][A-Za-z0-9_-]*$ ]] && ! getent group "$group" >/dev/null; then
      say "dpkg statoverride names missing group '$group': creating it"
      as_root groupadd --system "$group"
    fi
    if [[ "$user" =~ ^[A-Za-z_][A-Za-z0-9_-]*$ ]] && ! getent passwd "$user" >/dev/null; then
      say "dpkg statoverride names missing user '$user': creating it"
      if getent group "$group" >/dev/null; then
        as_root useradd --system --no-create-home --shell /usr/sbin/nologin -g "$group" "$user"
      else
        as_root useradd --system --no-create-home --shell /usr/sbin/nologin -U "$user"
      fi
    fi
  done <"$file"
}

APT_UPDATED=0
apt_install() {
  command -v apt-get >/dev/null 2>&1 || fail "apt-get not found: install $* by hand (this script knows Debian only)."
  repair_dpkg_statoverride
  export DEBIAN_FRONTEND=noninteractive
  if [ "$APT_UPDATED" -eq 0 ]; then
    say "apt-get update"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q || fail "apt-get update failed."
    APT_UPDATED=1
  fi
  say "apt-get install -y $*"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$@" \
    || fail "apt-get install $* failed; see the apt output above."
}

postgres_ready() {
  command -v pg_isready >/dev/null 2>&1 && pg_isready -q -h "$PG_HOST" -p "$PG_PORT"
}

wait_for_postgres() {
  local attempt
  for attempt in $(seq 1 30); do
    postgres_ready && return 0
    sleep 1
  done
  return 1
}

# Start every installed cluster version's "main" cluster (normally exactly one).
start_existing_cluster() {
  [ -d /etc/postgresql ] || return 1
  local version started=1
  for version in $(ls /etc/postgresql); do
    [ -d "/etc/postgresql/$version/main" ] || continue
    say "starting PostgreSQL cluster $version/main"
    if as_root pg_ctlcluster --skip-systemctl-redirect "$version" main start; then
      started=0
    fi
  done
  return $started
}

# Configure a fresh cluster: listen on 127.0.0.1:5432, trust local connections.
configure_new_cluster() {
  local version=$1
  local conf="/etc/postgresql/$version/main"
  say "configuring cluster $version/main for 127.0.0.1:$PG_PORT with trust auth"
  as_root sed -i \
    -e "s/^#\?listen_addresses\s*=.*/listen_addresses = '$PG_HOST'/" \
    -e "s/^#\?port\s*=.*/port = $PG_PORT/" \
    "$conf/postgresql.conf"
  as_root tee "$conf/pg_hba.conf" >/dev/null <<HBA
# Written by scripts/ensure-services.sh: a test machine, trusting local connections only.
local   all all                trust
host    all all 127.0.0.1/32   trust
host    all all ::1/128        trust
HBA
}

# psql as the postgres role: over TCP (trust auth), else over the socket as the postgres user.
psql_admin() {
  psql -X -h "$PG_HOST" -p "$PG_PORT" -U postgres -d postgres "$@" 2>/dev/null \
    || as_postgres psql -X -p "$PG_PORT" -d postgres "$@"
}

ensure_database() {
  local name=$1
  if [ "$(psql_admin -tAc "SELECT 1 FROM pg_database WHERE datname = '$name'" || true)" = 1 ]; then
    say "database '$name' exists"
    return 0
  fi
  say "creating database '$name'"
  psql_admin -qc "CREATE DATABASE \"$name\"" \
    || fail "could not create database '$name' (trust auth for 127.0.0.1, or the postgres user, is needed)."
}

ensure_postgres() {
  if postgres_ready; then
    say "PostgreSQL is accepting connections on $PG_HOST:$PG_PORT"
  elif start_existing_cluster && wait_for_postgres; then
    say "PostgreSQL started on $PG_HOST:$PG_PORT"
  elif [ -d /etc/postgresql ] && [ -n "$(ls -A /etc/postgresql 2>/dev/null)" ] && command -v psql >/dev/null 2>&1; then
    fail "PostgreSQL is installed but does not answer on $PG_HOST:$PG_PORT after a start attempt; see /var/log/postgresql/."
  else
    say "PostgreSQL is not installed: installing it"
    apt_install postgresql postgresql-client
    local version
    version=$(ls /etc/postgresql 2>/dev/null | sort -V | tail -n 1)
    if [ -z "$version" ]; then
      version=$(ls /usr/lib/postgresql | sort -V | tail -n 1)
      [ -n "$version" ] || fail "postgresql installed, but no version found under /usr/lib/postgresql."
      say "creating cluster $version/main"
      as_root pg_createcluster "$version" main
    fi
    configure_new_cluster "$version"
    # The package may have started the cluster with its default settings already.
    as_root pg_ctlcluster --skip-systemctl-redirect "$version" main restart \
      || as_root pg_ctlcluster --skip-systemctl-redirect "$version" main start \
      || fail "could not start PostgreSQL cluster $version/main; see /var/log/postgresql/."
    wait_for_postgres || fail "PostgreSQL $version/main started but does not answer on $PG_HOST:$PG_PORT."
    say "PostgreSQL $version started on $PG_HOST:$PG_PORT"
  fi
  command -v psql >/dev/null 2>&1 || apt_install postgresql-client
  ensure_database test
}

# Both from one apt-get install: the shell depends on the very version of chromium-common that chromium does.
ensure_chromium() {
  if [ -x "$CHROMIUM" ] && [ -x "$HEADLESS_SHELL" ]; then
    say "Chromium found at $CHROMIUM, its headless shell at $HEADLESS_SHELL"
    return 0
  fi
  say "Chromium or its headless shell is missing ($CHROMIUM, $HEADLESS_SHELL): installing them"
  apt_install chromium chromium-headless-shell
  [ -x "$CHROMIUM" ] || fail "chromium installed but $CHROMIUM is still missing."
  [ -x "$HEADLESS_SHELL" ] || fail "chromium-headless-shell installed but $HEADLESS_SHELL is still missing."
  say "Chromium installed at $CHROMIUM, its headless shell at $HEADLESS_SHELL"
}

ensure_curl() {
  if command -v curl >/dev/null 2>&1; then
    say "curl found at $(command -v curl)"
    return 0
  fi
  say "curl is missing: installing it"
  apt_install curl
  command -v curl >/dev/null 2>&1 || fail "curl installed but still not on PATH."
  say "curl installed at $(command -v curl)"
}

ensure_postgres
ensure_chromium
ensure_curl
say "all services ready"
