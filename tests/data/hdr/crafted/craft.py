#!/usr/bin/env python3
"""tests/data/hdr/crafted/craft.py DIR [NAME...]: writes crafted HdrHistogram interval logs (V2 compressed) for the reader's tests.

Each file is one interval whose inflated histogram holds the given ZigZag LEB128 counts
(negative = a run of empty buckets), layout lowest=1, 3 significant digits."""
import base64, struct, sys, zlib

def zz(v):
    u = ((v << 1) ^ (v >> 63)) & 0xFFFFFFFFFFFFFFFF
    out = bytearray()
    for i in range(9):
        if i == 8:
            out.append(u & 0xFF)
            break
        b = u & 0x7F
        u >>= 7
        if u:
            out.append(b | 0x80)
        else:
            out.append(b)
            break
    return bytes(out)

def hist(counts, lowest=1, highest=3600000000000, digits=3):
    pay = b"".join(zz(c) for c in counts)
    head = struct.pack(">IIIIqqd", 0x1c849313, len(pay), 0, digits, lowest, highest, 1.0)
    z = zlib.compress(head + pay, 9)
    return base64.b64encode(struct.pack(">II", 0x1c849314, len(z)) + z).decode()

def log(counts, **kw):
    h = hist(counts, **kw)
    return ("#[StartTime: 1700000000.000 (seconds since epoch)]\n"
            '"StartTimestamp","Interval_Length","Interval_Max","Interval_Compressed_Histogram"\n'
            "0.000,1.000,1.000," + h + "\n")

I64MIN, I64MAX = -(1 << 63), (1 << 63) - 1
cases = {
    # a run of INT64_MIN empty buckets (its negation is undefined), then one count
    "crafted-min-run.hlog": [I64MIN, 1],
    # two runs of INT64_MAX empty buckets: the index overflows, then one count
    "crafted-index-wrap.hlog": [-I64MAX, -I64MAX, 1],
    # an index in bucket 2^31: the bucket does not fit an int (negative shift)
    "crafted-bucket-2e31.hlog": [-((1 << 31) + 1) * 1024, 1],
    # the last sub-bucket of bucket 52: its highest value is 2^63 - 1 + 1 (overflow)
    "crafted-top-value.hlog": [-(53 * 1024 + 1023), 1],
    # one count, then INT64_MAX: the total overflows
    "crafted-huge-count.hlog": [1, I64MAX],
    # 200 million samples at 1.02 ms from one interval: an expansion bomb
    "bomb.hlog": [-1023, 200000000],
}
for name, counts in cases.items():
    if len(sys.argv) > 2 and name not in sys.argv[2:]:
        continue
    with open(sys.argv[1] + "/" + name, "w") as f:
        f.write(log(counts))
