#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# r-attrs.sh - the profile key `attributes` on real filesystems. ext4-encrypt:
# the probe files really are under our fscrypt v2 policy (the policy read
# back names the run's key, every file has it, the control directory has
# none), the key is added again after every remount and removed at the
# end (status absent, the names it hid no longer readable), the verdict is
# measured, and no key of ours is left in /proc/keys, also after a
# SIGKILL (the worker's mount namespace takes the superblock and its
# keyring with it). ext4 with `attributes = immutable`: the probes that
# write skip with the attribute as the reason, the flags are cleared
# again. ext4-verity: measured where CONFIG_FS_VERITY is set, else a
# skip that says so.
. "$srcdir/tests/root-lib.sh"
J="$TMPD/run.json"
grep -qw ext4 /proc/filesystems || plan_skip_all "no ext4 in this kernel"
command -v mkfs.ext4 > /dev/null || plan_skip_all "mkfs.ext4 not installed"
kconfig() {
	{ zcat /proc/config.gz 2>/dev/null ||
	  cat "/boot/config-$(uname -r)" 2>/dev/null; } | grep -q "^$1=y"
}
kconfig CONFIG_FS_ENCRYPTION ||
	plan_skip_all "CONFIG_FS_ENCRYPTION is not set in this kernel"

cat > "$TMPD/ext4-immutable.conf" <<'EOF'
fs = ext4
mkfs = mkfs.ext4 -F -q
attributes = immutable
EOF
"$FSPROBE" run -p ext4-encrypt -p ext4-verity -p "$TMPD/ext4-immutable.conf" \
	-f json -o "$J" 2> "$TMPD/err"
rc=$?; [ $rc -eq 0 ] || [ $rc -eq 1 ]
ok $? "run exits 0 or 1 (got $rc: $(head -c 300 "$TMPD/err"))"

E="p['ext4-encrypt']"
A="$E['attribute_evidence']"
json_assert "$J" "$E['verdict'] in ('pmd', 'large', 'base', 'pmd-collapse-only')" \
	"ext4-encrypt: a measured verdict ($(python3 -c "import json; print(next(str(x['verdict']) + ' ' + str(x.get('reason')) for x in json.load(open('$J'))['profiles'] if x['name'] == 'ext4-encrypt'))" 2>/dev/null))"
json_assert "$J" "$E['attributes'] == ['encrypt'] and all(x['result'] != 'error' for x in $E['probes'])" \
	"ext4-encrypt: attributes [encrypt], no probe errors"
json_assert "$J" "$A['policy_version'] == 2 and $A['contents_mode'] == 'AES-256-XTS' and $A['filenames_mode'] == 'AES-256-CTS' and $A['policy_is_our_key'] is True" \
	"the probe directory reads back a v2 policy on the run's key"
json_assert "$J" "$A['files'] >= 10 and $A['files_encrypted'] == $A['files']" \
	"every probe file has the policy ($(python3 -c "import json; print(next(x['attribute_evidence'].get('files_encrypted') for x in json.load(open('$J'))['profiles'] if x['name'] == 'ext4-encrypt'))" 2>/dev/null) files)"
json_assert "$J" "$A['plain_dir_policy'] == 'none' and $A['control']['result'] in ('pass', 'skip')" \
	"the control directory on the same filesystem is not encrypted, its fault-pmd measured"
json_assert "$J" "$A['key_adds'] >= 2" \
	"the key is added again after the cold cycle's remount"
json_assert "$J" "$A['key_removal'] == 'ok' and $A['key_removal_status_flags'] == 0 and $A['key_status_after_removal'] == 'absent'" \
	"the key is removed before the umount: status absent, no file busy"
json_assert "$J" "$A['entries_after_removal'] == $A['files'] and $A['plain_names_after_removal'] == 0 and $A['open_after_removal'] != 'ok'" \
	"without the key the directory shows none of the names the files were written under and cannot open them"
id=$(python3 -c "import json; print(next(x['attribute_evidence']['key_identifier'] for x in json.load(open('$J'))['profiles'] if x['name'] == 'ext4-encrypt'))")
[ ${#id} -eq 32 ] && ! grep -q "$id" /proc/keys
ok $? "no key $id left in /proc/keys"

V="p['ext4-verity']"
if kconfig CONFIG_FS_VERITY; then
	json_assert "$J" "$V['verdict'] not in ('error', 'skip') and $V['attribute_evidence']['files_sealed'] == $V['attribute_evidence']['files']" \
		"ext4-verity: measured, every probe file sealed"
	json_assert "$J" "probe('ext4-verity', 'truncate-split')['result'] == 'skip' and 'fs-verity sealed' in probe('ext4-verity', 'truncate-split')['reason']" \
		"ext4-verity: truncate-split skips: the file is sealed"
else
	json_assert "$J" "$V['verdict'] == 'skip' and 'CONFIG_FS_VERITY is not set' in $V['reason'] and $V['attributes'] == ['verity']" \
		"ext4-verity: skip, CONFIG_FS_VERITY is not set here"
fi

I="p['ext4-immutable']"
json_assert "$J" "$I['verdict'] not in ('error', 'skip') and all(x['result'] != 'error' for x in $I['probes'])" \
	"ext4 + immutable: measured, no probe errors"
for pr in write-open truncate-split punch-split collapse-writable; do
	json_assert "$J" "probe('ext4-immutable', '$pr')['result'] == 'skip' and probe('ext4-immutable', '$pr')['reason'].startswith('the probe file is immutable (profile attribute)')" \
		"ext4 + immutable: $pr skips, the file is immutable"
done
json_assert "$J" "$I['attribute_evidence']['files_sealed'] == $I['attribute_evidence']['files'] == $I['attribute_evidence']['flags_cleared']" \
	"ext4 + immutable: every file sealed, every flag cleared before the umount"

# SIGKILL while the key is in: watch /proc/keys for the run's key, kill.
before=$(grep -c '\.fscrypt' /proc/keys)
"$FSPROBE" run -p ext4-encrypt -f json -o "$TMPD/kill.json" 2> /dev/null &
pid=$!
seen=
i=0
while [ $i -lt 500 ] && [ -z "$seen" ]; do
	seen=$(grep '\.fscrypt' /proc/keys | sed -n 's/.* \([0-9a-f]\{32\}\)\.uid\..*/\1/p' | head -n 1)
	[ -n "$seen" ] || sleep 0.02
	i=$((i + 1))
done
kill -KILL $pid 2> /dev/null
wait $pid 2> /dev/null
if [ -n "$seen" ]; then
	i=0
	while [ $i -lt 50 ] && grep -q "$seen" /proc/keys; do
		sleep 0.1; i=$((i + 1))
	done
	! grep -q "$seen" /proc/keys
	ok $? "SIGKILL with the key $seen in: gone once the worker's namespace is ($((i * 100)) ms)"
	[ "$(grep -c '\.fscrypt' /proc/keys)" -le "$before" ]
	ok $? "no more fscrypt keys than before the run"
else
	skip "the run ended before its key showed in /proc/keys"
	skip "no key seen"
fi
"$FSPROBE" cleanup > "$TMPD/cleanup" 2>&1
ok $? "cleanup after the SIGKILL exits 0 ($(tr '\n' ' ' < "$TMPD/cleanup"))"
check_no_leaks
done_testing
