# SPDX-License-Identifier: GPL-2.0
#
# apt for the test kernels, sourced by fetch-kernel:
# the host's own apt (Debian 12 and its security suite), and a private one
# in the cache for the suites the host does not list: trixie, unstable and
# experimental. The private one has its own sources, lists, package cache
# and an empty dpkg status; nothing of the host's apt changes.
#
#   host_apt_ready              the host's lists are there (apt-get update once)
#   private_apt_ready           the private lists are there and less than a
#                               day old
#   apt_in host|private CMD...  run an apt command against that configuration

apt_private=${cache:?}/apt

host_apt_ready() {
	apt-cache show linux-image-amd64 >/dev/null 2>&1 ||
		apt-get update -qq >/dev/null
}

apt_in() {
	local where=$1
	shift
	if [ "$where" = host ]; then
		"$@"
		return
	fi
	"$@" -o Dir::Etc::sourcelist="$apt_private/sources.list" \
		-o Dir::Etc::sourceparts=- \
		-o Dir::Etc::preferencesparts=- \
		-o Dir::State::Lists="$apt_private/lists" \
		-o Dir::Cache="$apt_private/cache" \
		-o Dir::State::status="$apt_private/status"
}

private_apt_ready() {
	local keyring=/usr/share/keyrings/debian-archive-keyring.gpg suite
	mkdir -p "$apt_private/lists/partial" "$apt_private/cache/archives/partial"
	touch "$apt_private/status"
	if [ ! -f "$apt_private/sources.list" ]; then
		for suite in trixie sid experimental; do
			echo "deb [signed-by=$keyring] http://deb.debian.org/debian $suite main"
		done >"$apt_private/sources.list"
	fi
	[ -n "$(find "$apt_private/lists" -maxdepth 1 -name '*_Packages' -mtime -1)" ] ||
		apt_in private apt-get update -qq >/dev/null
}
