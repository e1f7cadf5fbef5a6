#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Writes the seed corpus in fuzz/corpus/ (run from anywhere; the files are
# in git, this only documents and reproduces how they were made). Each
# binary seed is a program in its harness's encoding: a config byte, then
# opcode bytes with little-endian operands (see the step() functions).
import os
import struct
import shutil

from owcrc import crc8

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def put(core, name, data):
    d = os.path.join(HERE, 'corpus', core)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), 'wb') as f:
        f.write(data)


def u8(*v):
    return bytes(x & 0xff for x in v)


def u16(v):
    return struct.pack('<H', v & 0xffff)


def u32(*v):
    return b''.join(struct.pack('<I', x & 0xffffffff) for x in v)


# ---- onewire: op % 16 selects (fuzz-onewire.c step()) ----
OW_RESET, OW_BYTE, OW_STRING, OW_READ, OW_MATCH, OW_TIME = 0, 2, 3, 4, 6, 12


def ow_bytes(*b):
    return u8(OW_STRING, len(b), *b)


# SKIP ROM, CONVERT T, wait, then MATCH ROM + READ SCRATCHPAD (w1_therm)
put('onewire', 'ds18b20-convert-read',
    u8(0x01) + u8(OW_RESET) + ow_bytes(0xCC, 0x44) + u8(OW_TIME) + u16(8000) +
    u8(OW_MATCH, 0) + u8(OW_BYTE, 0xBE) + u8(OW_READ | 0x80))
# SEARCH ROM: the ROM command, then 64 triplets (op 15 = bit, bit, dir)
put('onewire', 'search',
    u8(0x05) + u8(OW_RESET) + u8(OW_BYTE, 0xF0) + u8(*([0x0F, 0x1F] * 32)))
# ALARM SEARCH after a conversion
put('onewire', 'alarm-search',
    u8(0x01) + u8(OW_RESET) + ow_bytes(0xCC, 0x44) + u8(OW_RESET) +
    u8(OW_BYTE, 0xEC) + u8(*([0x0F] * 64)))
# DS2431: WRITE SCRATCHPAD at 0x0000, READ SCRATCHPAD, COPY with the auth
put('onewire', 'ds2431-write-copy',
    u8(0x01) + u8(OW_MATCH, 2) + ow_bytes(0x0F, 0, 0, *range(8)) +
    u8(OW_READ | 0x10) + u8(OW_MATCH, 2) + ow_bytes(0xAA) +
    u8(OW_READ | 0x20) + u8(OW_MATCH, 2) + ow_bytes(0x55, 0, 0, 0x07) +
    u8(OW_TIME) + u16(200) + u8(OW_READ))
# DS2408: CHANNEL-ACCESS WRITE, then a conditional search on it
put('onewire', 'ds2408-write',
    u8(0x01) + u8(OW_MATCH, 4) + ow_bytes(0x5A, 0x0F, 0xF0) + u8(OW_READ) +
    u8(OW_MATCH, 4) + ow_bytes(0xCC, 0x8B, 0x00, 0x0F, 0x0F) +
    u8(14, 0x0E, 0x01))
# overdrive: OD SKIP, reset at overdrive speed, READ ROM; many DS2401s
put('onewire', 'overdrive-many',
    u8(0x04) + b''.join(u8(10, 7 + i) for i in range(32)) +
    u8(OW_RESET) + u8(OW_BYTE, 0x3C) + u8(7 | 0x30) + u8(OW_RESET) +
    u8(OW_BYTE, 0x33) + u8(OW_READ) + u8(7 | 0x10) + u8(OW_RESET) +
    u8(OW_BYTE, 0xF0) + u8(*([0x0F, 0x1F] * 32)))

# ---- ds2490: op % 12 selects (fuzz-ds2490.c step()) ----
D_COMM, D_OUT, D_CTLMODE, D_IN, D_STATUS, D_EP2, D_EP3, D_TIME, D_TIMER = \
    0, 2, 3, 4, 5, 6, 7, 8, 9
COMM_CODE = {0x0601: 0, 0x0012: 1, 0x0020: 2, 0x0030: 3, 0x0042: 4,
             0x0052: 5, 0x0064: 6, 0x0074: 7, 0x0080: 8, 0x6092: 9,
             0x00A2: 10, 0x00B2: 11, 0x00C4: 12, 0x00D4: 13, 0x21E4: 14,
             0x00F4: 15}


def d_comm(value, index):
    # the harness ORs the flags (value & 0x7f09) onto the table's code
    for c, i in COMM_CODE.items():
        if (c & 0xff) == (value & 0xf6) or (value & 0xff) == (c & 0xff):
            return u8(D_COMM | i << 4) + u16(value & 0x7f09) + u16(index)
    raise ValueError(hex(value))


def d_ctl(value, index):
    return u8(D_CTLMODE) + u8(value) + u16(index)


def d_mode(reg, index):
    return u8(D_CTLMODE | 0x10) + u8(reg) + u16(index)


def d_ep2(data):
    return u8(D_EP2, len(data)) + bytes(data)


def d_status():
    return u8(D_STATUS)


def d_ep3(n):
    return u8(D_EP3, (n - 1) // 2)


# ds2490_probe(): RESET_DEVICE, PULSE_EN SPUE; then a w1 search of up to
# 64 ids with K_COMM_SEARCH (SEARCH_ACCESS|IM|RST|SM|F|RTS), status polls
# and EP3 reads as ds9490r_search() does them
linux_search = (d_ctl(0, 0) + d_mode(0, 2) + d_status() +
                d_ep2([0] * 8) + d_comm(0x49FD, 0xF0 | 64 << 8) +
                (d_status() + d_ep3(128)) * 4 + d_status())
put('ds2490', 'linux-search', u8(0x00) + linux_search)
put('ds2490', 'linux-search-realtime',
    u8(0x01) + d_ctl(0, 0) + d_mode(0, 2) + d_ep2([0] * 8) +
    d_comm(0x49FD, 0xF0 | 64 << 8) +
    (u8(D_TIMER) + d_status() + d_ep3(128)) * 8)
# w1_therm: reset, MATCH ROM as a 9-byte block, CONVERT with SPU, read
rom = bytes([0x28, 0x00, 0x10, 0, 0, 0, 0])
rom += bytes([crc8(rom)])
put('ds2490', 'linux-therm',
    u8(0x00) + d_ctl(0, 0) + d_mode(0, 2) + d_comm(0x0043, 0) + d_status() +
    d_ep2([0x55] + list(rom)) + d_comm(0x0075, 9) + d_status() + d_ep3(9) +
    d_comm(0x0013, 0x30) + d_comm(0x1053, 0x44) + u8(D_TIME) + u16(65535) +
    d_status() + d_ep3(1) + d_comm(0x0043, 0) +
    d_ep2([0x55] + list(rom)) + d_comm(0x0075, 9) + d_ep3(9) +
    d_comm(0x0053, 0xBE) + d_ep3(1) + d_ep2([0xff] * 9) +
    d_comm(0x0075, 9) + d_status() + d_ep3(9))
# bit I/O, byte I/O, READ_STRAIGHT, HALT/RESUME, GET_COMM_CMDS, flushes
put('ds2490', 'mixed-commands',
    u8(0x12) + d_comm(0x0021, 0) + d_comm(0x0029, 0) + d_ep3(2) +
    d_ctl(3, 0) + d_comm(0x0053, 0xff) + d_comm(0x0053, 0x33) +
    u8(D_IN, 16, 10) + d_ctl(2, 0) + d_ctl(1, 0) + d_status() + d_ep3(2) +
    d_ep2([0xCC, 0xBE]) + d_comm(0x0081, 0x0209) + d_ep2([0xff] * 9) +
    d_status() + d_ep3(16) + d_ctl(7, 0) + d_ctl(8, 0) + d_ctl(9, 0) +
    d_mode(2, 2) + d_comm(0x0843, 0) + d_status() + u8(11))

# ---- adreno: op % 12 selects (fuzz-adreno.c step()) ----
A_RING, A_IB, A_RUN, A_KICK, A_IRQ, A_SOFTRESET = 3, 5, 6, 8, 9, 10


def pkt3(op, n):
    return 0xc0000000 | (n - 1) << 16 | op << 8


def pkt0(reg, n):
    return (n - 1) << 16 | reg


def ring(*dw):
    return u8(A_RING, len(dw)) + u32(*dw)


ME_INIT = [pkt3(0x48, 18), 0x3ff, 0, 0, 0, 0x80, 0x100, 0x180, 0x200, 0x280,
           0x300, 0x380, 0x80000180, 1, 0, 0, 0x200001f2, 0, 0,
           pkt3(0x5f, 1), 1]
MEMPTRS = 0x01000000 + 15 * 4096          # VA page 15
SUBMIT = [pkt0(0x578, 1), 0xffffff01, pkt3(0x26, 1), 0,
          pkt3(0x46, 3), 4, MEMPTRS + 4, 0xffffff01,
          pkt3(0x40, 1), 0x80000000]
IB = [pkt0(0x39c, 2), 0xfffffffe, 0xffffffff,       # PM_OVERRIDE1/2
      pkt3(0x2d, 2), 0x00040000 | 0x180, 0x1234,    # SET_CONSTANT type 4
      pkt3(0x3d, 2), MEMPTRS + 8, 0xcafe,           # MEM_WRITE
      pkt3(0x10, 2), 0, 0, 0x80000000]              # NOP, PKT2


def ib(page, dw):
    return u8(A_IB | page << 4, len(dw)) + u32(*dw)


for budget in range(5):
    put('adreno', 'boot-submit-budget%d' % budget,
        u8(budget) + ring(*ME_INIT) + u8(A_KICK | 0xf0) + ib(1, IB) +
        ring(*SUBMIT) + u8(A_KICK | 0xf0) + u8(A_IRQ))
# an IB that calls an IB2 that calls itself (depth error), a page fault,
# an IB tree longer than the hang limit (64), and the recovery
PKT2 = 0x80000000
put('adreno', 'hostile-ib-tree',
    u8(0x03 | 3 << 3) + ring(*ME_INIT) + u8(A_KICK) +
    ib(7, [PKT2] * 63) + u8(A_KICK | 0xf0) +
    ib(6, [PKT2] * 60 + [pkt3(0x37, 2), 0x01000000 + 7 * 4096, 63]) +
    u8(A_KICK | 0xf0) + u8(A_IRQ) + u8(A_SOFTRESET) + ring(*ME_INIT) +
    ib(2, [pkt3(0x37, 2), 0x01000000 + 3 * 4096, 4]) +
    u8(4) + u16((0x40000000 + 0x1c000 - 0x40000000) // 4) + u8(4) +
    u32(pkt3(0x37, 2), 0x01000000 + 3 * 4096, 4, 0) +
    u8(A_KICK | 0xf0) + ib(4, [pkt3(0x3d, 2), 0x00ff0000, 1]) +
    u8(A_KICK | 0x30) + u8(A_IRQ) + u8(A_SOFTRESET) + ring(*ME_INIT) +
    u8(A_KICK | 0x30))
# WAIT_REG_MEM on memory that a later MEM_WRITE satisfies; REG_TO_MEM
put('adreno', 'wait-reg-mem',
    u8(0x02) + ring(*ME_INIT) +
    ring(pkt3(0x3c, 5), 0x13, MEMPTRS + 16, 1, 0xffffffff, 16) +
    u8(A_RUN) + u8(A_RUN) +
    u8(4) + u16((31 - 15) * 4096 // 4 + 4) + u8(1) + u32(1) + ib(5, [pkt3(0x3e, 2), 0x578 | 8 << 18, MEMPTRS + 32]) +
    u8(A_KICK | 0xf0))
# unbooted: the fuzzer's own register writes (fw_strict, no magic)
put('adreno', 'unbooted-regs',
    u8(0xC0) + u8(0, 14) + u32(9) + u8(0, 13) + u32(0x01000000) +
    u8(0, 19) + u32(0) + u8(A_RUN) + u8(2 | 0x10, 27) + u8(11 | 0x30))

# ---- ktap: the unit tests' captured consoles, and hostile snippets ----
data = os.path.join(ROOT, 'lib', 'ktap', 'tests', 'data')
for name in sorted(os.listdir(data)):
    shutil.copyfile(os.path.join(data, name),
                    os.path.join(HERE, 'corpus', 'ktap', name))
put('ktap', 'nested-plans',
    b'KTAP version 1\n1..3\n' + b''.join(
        b'    ' * i + b'KTAP version 1\n' + b'    ' * i + b'1..99999\n'
        for i in range(1, 9)))
put('ktap', 'long-subtest-name',
    b'KTAP version 1\n1..1\n    # Subtest: ' + b'n' * 1100 + b'\n    1..50\n' +
    b''.join(b'    ok %d x\n' % i for i in range(1, 50)))
put('ktap', 'warns-and-marks',
    b'KTAP version 1\n1..1\n<6>[    1.000000] patchbay-ktap: s/p 0\n' +
    b''.join(b'[    1.%06d] WARNING: CPU: 0 PID: 1 at x.c:1 f+0x0/0x4\n'
             b'[    1.%06d] ---[ end trace 0000000000000000 ]---\n'
             b'ok %d t\n' % (i, i, i) for i in range(1, 40)) +
    b'[    2.0000' + b'\r\n7] Kernel panic - not syncing: x\n')
