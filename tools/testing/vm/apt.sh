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
		-o Dir::Etc::sourceparts="$apt_private/sources.list.d" \
		-o Dir::Etc::preferencesparts="$apt_private/preferences.d" \
		-o Dir::State::Lists="$apt_private/lists" \
		-o Dir::Cache="$apt_private/cache" \
		-o Dir::State::status="$apt_private/status"
}

# The Debian archive the host's apt uses for its own release: the other
# suites come from the same mirror.
debian_mirror() {
	local codename
	codename=$(. /etc/os-release && echo "$VERSION_CODENAME")
	apt-get indextargets --format '$(REPO_URI) $(CODENAME)' |
		awk -v c="$codename" '$2 == c { print $1; exit }'
}

private_apt_ready() {
	local keyring=/usr/share/keyrings/debian-archive-keyring.gpg suite mirror
	mkdir -p "$apt_private/lists/partial" "$apt_private/cache/archives/partial" \
		"$apt_private/sources.list.d" "$apt_private/preferences.d"
	touch "$apt_private/status"
	if [ ! -f "$apt_private/sources.list" ]; then
		host_apt_ready
		mirror=$(debian_mirror)
		[ -n "$mirror" ] || { echo "apt: the host's apt names no Debian archive" >&2; return 1; }
		for suite in trixie sid experimental; do
			echo "deb [signed-by=$keyring] $mirror $suite main"
		done >"$apt_private/sources.list"
	fi
	[ -n "$(find "$apt_private/lists" -maxdepth 1 -name '*_Packages' -mtime -1)" ] ||
		apt_in private apt-get update -qq >/dev/null
}
