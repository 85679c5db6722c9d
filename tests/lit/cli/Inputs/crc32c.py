"""Prints the CRC-32C (Castagnoli) of a file as 8 hex digits: the content hash `wmc --version`
shows for the built-in catalog, computed independently of wmc."""
import sys

crc = 0xFFFFFFFF
for byte in open(sys.argv[1], "rb").read():
    crc ^= byte
    for _ in range(8):
        crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
print("%08x" % (crc ^ 0xFFFFFFFF))
