#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""fake-qemu.py - stands in for qemu-system-x86_64 in t-vm.sh, so make
check exercises `fsprobe vm` (initramfs, cache, per-boot cpio, markers,
timeout, signals) without booting a kernel. It unpacks the initrd it is
given (the gzip'd cached archive, zero padding, the raw per-boot cpio),
lists it into $FAKE_QEMU_LOG/entries (boot/config-* and lib/modules/*
into $FAKE_QEMU_LOG/files/), records its argv, and then acts as
$FAKE_QEMU_MODE says: ok (answer with $FAKE_QEMU_DOC between this boot's
markers on the second serial port), oops (the same after an oops on the
console), hang, panic, rc2 (markers, no JSON). For t-matrix.sh, where
guests of several kernels run at once, $FAKE_QEMU_DOC may be a directory:
the document is DIR/KERNEL.json, the mode DIR/KERNEL.mode if it is there,
KERNEL the -kernel file's name.
"""
import os
import sys
import time
import zlib


def parse_newc(buf):
    """name -> (mode, data) of a newc archive, up to its trailer."""
    out, off = {}, 0
    while off + 110 <= len(buf):
        if buf[off:off + 6] != b"070701":
            raise SystemExit("fake-qemu: bad cpio magic at %d" % off)
        f = [int(buf[off + 6 + 8 * i:off + 14 + 8 * i], 16) for i in range(13)]
        mode, size, namesize = f[1], f[6], f[11]
        name = buf[off + 110:off + 110 + namesize - 1].decode()
        off = (off + 110 + namesize + 3) & ~3
        data = buf[off:off + size]
        off = (off + size + 3) & ~3
        if name == "TRAILER!!!":
            break
        out[name] = (mode, data)
    return out


def main():
    args = sys.argv[1:]
    log = os.environ["FAKE_QEMU_LOG"]
    mode = os.environ.get("FAKE_QEMU_MODE", "ok")
    doc_path = os.environ.get("FAKE_QEMU_DOC", "")
    if os.path.isdir(doc_path):
        name = os.path.basename(args[args.index("-kernel") + 1])
        if os.path.exists(os.path.join(doc_path, name + ".mode")):
            mode = open(os.path.join(doc_path, name + ".mode")).read().strip()
        doc_path = os.path.join(doc_path, name + ".json")
    with open(os.path.join(log, "argv"), "w") as f:
        f.write("\n".join(args) + "\n")
    initrd = open(args[args.index("-initrd") + 1], "rb").read()
    path = args[args.index("-chardev") + 1].split("path=", 1)[1]
    path = path.replace(",,", ",")
    d = zlib.decompressobj(16 + zlib.MAX_WBITS)
    entries = parse_newc(d.decompress(initrd))
    entries.update(parse_newc(d.unused_data.lstrip(b"\0")))
    with open(os.path.join(log, "entries"), "w") as f:
        for name in sorted(entries):
            f.write("%o %s\n" % (entries[name][0], name))
    # The guest kernel's parts, for the layout tests: config and modules.
    for name, (m, data) in entries.items():
        if name.startswith("boot/config-") or name.startswith("lib/modules/"):
            out = os.path.join(log, "files", name)
            os.makedirs(os.path.dirname(out), exist_ok=True)
            with open(out, "wb") as f:
                f.write(data)
    with open(os.path.join(log, "vm-args"), "wb") as f:
        f.write(entries["etc/fsprobe/vm-args"][1])
    with open(os.path.join(log, "pid"), "w") as f:
        f.write("%d\n" % os.getpid())
    nonce = entries["etc/fsprobe/vm-nonce"][1].decode()
    mark = "FSPROBE-VM-RESULT"
    print("fake console: booting", flush=True)
    if mode == "hang":
        time.sleep(3600)
    elif mode == "panic":
        print("Kernel panic - not syncing: fake", flush=True)
    elif mode == "rc2":
        with open(path, "w") as f:
            f.write("%s-BEGIN %s\r\n\r\n%s-END %s rc=2\r\n"
                    % (mark, nonce, mark, nonce))
    else:
        if mode == "oops":
            print("[   41.207713] BUG: kernel NULL pointer dereference, "
                  "address: 0000000000000008\r", flush=True)
            print("[   41.208350] Oops: 0000 [#1] PREEMPT SMP NOPTI\r",
                  flush=True)
            print("[   41.215310] Call Trace:\r", flush=True)
        # The guest's progress lines (TERM=dumb in its init).
        print("fsprobe: [1/1] xfs-default: fault-pmd", flush=True)
        print("fsprobe: 1 of 1 done: xfs-default: pmd", flush=True)
        doc = open(doc_path).read()
        # A stale result of another boot first: it must be ignored.
        with open(path, "w") as f:
            f.write("%s-BEGIN 0000\n{}\n%s-END 0000 rc=0\n" % (mark, mark))
            f.write("%s-BEGIN %s\r\n%s\r\n%s-END %s rc=0\r\n"
                    % (mark, nonce, doc.replace("\n", "\r\n"), mark, nonce))
    print("reboot: Power down", flush=True)


main()
