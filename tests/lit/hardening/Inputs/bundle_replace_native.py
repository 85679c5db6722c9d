#!/usr/bin/env python3
"""Rewrites a wmc bundle the way an attacker with write access to shared storage would: the native
section replaced by another shared object, the manifest's native digest and both CRC-32C checksums
recomputed, so that only a pinned whole-file SHA-256 (or not mapping native code) stops it.
Layout: runtime/bundle/format.h.   usage: bundle_replace_native.py IN.wmb NATIVE.so OUT.wmb"""
import hashlib
import json
import struct
import sys


def crc32c(data):
    crc = 0xFFFFFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0x82F63B78 if crc & 1 else crc >> 1
    return crc ^ 0xFFFFFFFF


def main(src, native_path, dst):
    data = open(src, "rb").read()
    count = struct.unpack_from("<I", data, 12)[0]
    sections = []
    for i in range(count):
        kind, _, offset, size = struct.unpack_from("<IIQQ", data, 48 + 24 * i)
        sections.append([kind, data[offset:offset + size]])
    native = open(native_path, "rb").read()
    manifest = json.loads(next(p for k, p in sections if k == 1))
    manifest["digests"]["native"] = hashlib.sha256(native).hexdigest()
    sections = [[k, p] for k, p in sections if k != 3] + [[3, native]]
    for s in sections:
        if s[0] == 1:
            s[1] = json.dumps(manifest, separators=(",", ":")).encode()
    body = b""
    offset = 48 + 24 * len(sections)
    for kind, payload in sections:
        body += struct.pack("<IIQQ", kind, 0, offset, len(payload))
        offset += len(payload)
    body += b"".join(p for _, p in sections)
    header = bytearray(b"WMBUNDLE" + struct.pack("<IIQI", struct.unpack_from("<I", data, 8)[0],
                                                   len(sections), 48 + len(body), crc32c(body)))
    header += b"\0" * (48 - len(header))
    struct.pack_into("<I", header, 28, crc32c(bytes(header)))
    open(dst, "wb").write(bytes(header) + body)


if __name__ == "__main__":
    main(*sys.argv[1:])
