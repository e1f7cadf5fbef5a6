# SPDX-License-Identifier: GPL-2.0-or-later
"""The 1-Wire CRC8 (x^8 + x^5 + x^4 + 1, LSB first) of a ROM id's first
seven bytes, for the seed writers (fuzz/mkcorpus.py, fuzz/qemu/mkcorpus.py).
"""


def crc8(data):
    crc = 0
    for b in data:
        for _ in range(8):
            mix = (crc ^ b) & 1
            crc >>= 1
            if mix:
                crc ^= 0x8C
            b >>= 1
    return crc
