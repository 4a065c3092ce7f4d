#!/usr/bin/env bash
# The release check: builds what a release publishes as the release workflow builds it
# (./mvnw -Prelease -Drevision=VERSION verify, tests skipped: they ran before), signed with a
# throwaway key made here in a temporary GNUPGHOME (passphrase from the environment through
# loopback pinentry, as in the workflow) and deleted at the end, then checks the Central Portal
# bundle that the build left, target/central-publishing/central-bundle.zip (nothing is uploaded):
#   - the jar, the sources and javadoc jars and the POM are there, at their Maven path;
#   - every file has a signature (.asc) that gpg --verify accepts, made by that key;
#   - every file has MD5 and SHA-1 checksums that match (SHA-256 and SHA-512 too, where present);
#   - the POM has the release version and what Central requires: name, description, url,
#     licenses, developers, scm (.ci/ReleasePomCheck.java).
# Then the check is shown failing, as the JMH gate is: tampered copies of the bundle (a file
# unsigned, a file changed after signing, a wrong checksum, a checksum missing, a file missing,
# a POM without scm signed again) must each fail, for its own reason.
#
#   bash .ci/release-check.sh        # as .ci/run runs it
#   bash .ci/release-check.sh -q     # other arguments go to Maven
#
# VERSION is the pom's revision without -SNAPSHOT (RELEASE_CHECK_VERSION overrides it). Needs
# gpg (Debian's gnupg, which .ci/run installs), a JDK and coreutils. Not with -o: the Central
# Portal plugin's publish goal requires online mode, and offline it skips itself and leaves no
# bundle (it contacts no server while it only makes the bundle).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

started=$SECONDS
group_id=io.github.leanscrape
artifact=leanscrape-spring-boot-starter
version=${RELEASE_CHECK_VERSION:-$(sed -n 's:.*<revision>\(.*\)</revision>.*:\1:p' pom.xml | head -n 1)}
version=${version%-SNAPSHOT}
coords="${group_id//.//}/$artifact/$version"
work=target/release-check
bundle=leanscrape-spring-boot-starter/target/central-publishing/central-bundle.zip

if ! command -v gpg >/dev/null 2>&1; then
	echo "gpg not found: install gnupg (apt-get install gnupg)" >&2
	exit 1
fi
gpg --version | sed -n 1p

# The throwaway key, in a GNUPGHOME of its own that is removed with its agent on exit.
GNUPGHOME=$(mktemp -d "${TMPDIR:-/tmp}/leanscrape-gpg.XXXXXX")
export GNUPGHOME
cleanup() {
	gpgconf --kill all >/dev/null 2>&1 || true
	rm -rf "$GNUPGHOME"
}
trap cleanup EXIT
chmod 700 "$GNUPGHOME"
MAVEN_GPG_PASSPHRASE=$(head -c 24 /dev/urandom | base64)
export MAVEN_GPG_PASSPHRASE
gpg --batch --quiet --pinentry-mode loopback --passphrase-fd 0 \
	--quick-generate-key "leanscrape release check (throwaway) <release-check@leanscrape.invalid>" ed25519 sign 1d \
	<<<"$MAVEN_GPG_PASSPHRASE"
fingerprint=$(gpg --batch --with-colons --list-secret-keys | awk -F: '$1 == "fpr" { print $10; exit }')
echo "throwaway key $fingerprint in $GNUPGHOME"
# No passphrase cached: the build must hand it to gpg itself (MAVEN_GPG_PASSPHRASE, loopback).
gpgconf --kill gpg-agent

rm -rf leanscrape-spring-boot-starter/target/central-staging leanscrape-spring-boot-starter/target/central-deferred leanscrape-spring-boot-starter/target/central-publishing "$work"
echo "./mvnw -B -Prelease -DskipTests -Dmaven.test.skip=true -Drevision=$version -Dgpg.keyname=$fingerprint verify $*"
build_started=$SECONDS
./mvnw -B -Prelease -DskipTests -Dmaven.test.skip=true "-Drevision=$version" "-Dgpg.keyname=$fingerprint" verify "$@" </dev/null
echo "release build took $((SECONDS - build_started)) s"

if [ ! -f "$bundle" ]; then
	echo "no bundle at $bundle (offline? the Central Portal plugin's publish goal skips itself with -o)" >&2
	exit 1
fi
mkdir -p "$work/bundle"
(cd "$work/bundle" && jar xf "../../../$bundle")
javac -d "$work/classes" .ci/ReleasePomCheck.java

# check_bundle DIR: prints each problem of the unpacked bundle in DIR; fails when there is any.
check_bundle() {
	local root=$1 problems=0 file rel status algo tool expected actual
	for file in "$artifact-$version.jar" "$artifact-$version-sources.jar" "$artifact-$version-javadoc.jar" "$artifact-$version.pom"; do
		if [ ! -f "$root/$coords/$file" ]; then
			echo "missing: $coords/$file"
			problems=$((problems + 1))
		fi
	done
	while IFS= read -r -d '' file; do
		rel=${file#"$root"/}
		if [ ! -f "$file.asc" ]; then
			echo "unsigned: $rel (no $rel.asc)"
			problems=$((problems + 1))
		elif ! status=$(gpg --batch --status-fd 1 --verify "$file.asc" "$file" 2>/dev/null) ||
			[[ $status != *"[GNUPG:] VALIDSIG $fingerprint "* ]]; then
			echo "signature does not verify: $rel.asc"
			problems=$((problems + 1))
		fi
		for algo in md5 sha1 sha256 sha512; do
			if [ ! -f "$file.$algo" ]; then
				case $algo in
				md5 | sha1)
					echo "no ${algo^^} checksum: $rel (no $rel.$algo)"
					problems=$((problems + 1))
					;;
				esac
				continue
			fi
			tool=${algo}sum
			expected=$(awk '{ print tolower($1); exit }' "$file.$algo")
			actual=$("$tool" "$file" | awk '{ print $1 }')
			if [ "$expected" != "$actual" ]; then
				echo "${algo^^} checksum does not match: $rel.$algo says ${expected:-nothing}, the file's is $actual"
				problems=$((problems + 1))
			fi
		done
	done < <(find "$root" -type f ! -name '*.asc' ! -name '*.md5' ! -name '*.sha1' ! -name '*.sha256' ! -name '*.sha512' -print0 | sort -z)
	if [ -f "$root/$coords/$artifact-$version.pom" ]; then
		if ! java -cp "$work/classes" ReleasePomCheck "$root/$coords/$artifact-$version.pom" "$group_id" "$artifact" "$version"; then
			problems=$((problems + 1))
		fi
	fi
	[ "$problems" -eq 0 ]
}

echo
echo "The bundle, $bundle:"
(cd "$work/bundle" && find . -type f | sed 's:^\./::' | sort | while IFS= read -r f; do printf '  %8d  %s\n' "$(stat -c %s "$f")" "$f"; done)
if ! check_bundle "$work/bundle"; then
	echo "The bundle fails the release check." >&2
	exit 1
fi
echo "The bundle passes: jar, sources, javadoc and POM, each signed by $fingerprint and with matching checksums; the POM is complete."

# The check shown failing: each tampered copy must fail, and for its own reason.
jar_file="$artifact-$version.jar"
sources_file="$artifact-$version-sources.jar"
javadoc_file="$artifact-$version-javadoc.jar"
pom_file="$artifact-$version.pom"
write_checksums() {
	local algo
	for algo in md5 sha1 sha256 sha512; do
		"${algo}sum" "$1" | awk '{ printf "%s", $1 }' >"$1.$algo"
	done
}
sign() {
	gpg --batch --yes --quiet --pinentry-mode loopback --passphrase-fd 0 --local-user "$fingerprint" \
		--armor --detach-sign "$1" <<<"$MAVEN_GPG_PASSPHRASE"
}
unsigned_jar() { rm "$jar_file.asc"; }
changed_after_signing() { printf 'x' >>"$sources_file" && write_checksums "$sources_file"; }
wrong_sha1() { printf '%040d' 0 >"$javadoc_file.sha1"; }
wrong_md5() { printf '%032d' 0 >"$pom_file.md5"; }
no_md5() { rm "$jar_file.md5"; }
missing_sources() { rm "$sources_file" "$sources_file".*; }
pom_without_scm() {
	sed -i '/<scm>/,/<\/scm>/d' "$pom_file" && sign "$pom_file" && write_checksums "$pom_file"
}
tampered=0
expect_failure() {
	local tamper=$1 reason=$2 copy="$work/tampered-$1"
	rm -rf "$copy"
	cp -R "$work/bundle" "$copy"
	(cd "$copy/$coords" && "$tamper")
	if check_bundle "$copy" >"$copy.txt" 2>&1; then
		echo "The check passed a tampered bundle ($tamper): it would not catch one." >&2
		tampered=1
	elif ! grep -qF -- "$reason" "$copy.txt"; then
		echo "The check failed on a tampered bundle ($tamper) but not for '$reason':" >&2
		cat "$copy.txt" >&2
		tampered=1
	else
		echo "  $tamper: fails, $(grep -F -- "$reason" "$copy.txt" | head -n 1)"
	fi
}
echo
echo "Tampered copies of the bundle:"
expect_failure unsigned_jar "unsigned: $coords/$jar_file"
expect_failure changed_after_signing "signature does not verify: $coords/$sources_file.asc"
expect_failure wrong_sha1 "SHA1 checksum does not match: $coords/$javadoc_file.sha1"
expect_failure wrong_md5 "MD5 checksum does not match: $coords/$pom_file.md5"
expect_failure no_md5 "no MD5 checksum: $coords/$jar_file"
expect_failure missing_sources "missing: $coords/$sources_file"
expect_failure pom_without_scm "POM: no scm"
if [ "$tampered" -ne 0 ]; then
	exit 1
fi
echo "The check fails on every tampered copy, as it must."
echo "release check took $((SECONDS - started)) s"
