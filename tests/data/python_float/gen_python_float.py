#!/usr/bin/python3
"""Makes python_float.tsv for PythonParseTest.FloatAsCPythonReadsIt: texts float() takes, each with the
bits of the double CPython reads from it (struct.pack('<d')), one per line: "TEXT<TAB>HEX". And
python_repr.tsv for PythonFormatTest.FloatReprAsCPythonWritesIt: doubles of every form repr() writes,
"HEX<TAB>repr(v)".

Covers the percent texts the verdicts read back (repr() of every magnitude), 17-digit decimals that
fall between doubles, halfway cases, subnormals, underflow to zero and overflow to infinity, signs,
exponent forms and PEP 515 underscores. Run once with /usr/bin/python3; the output is committed.
Deterministic (fixed seed).
"""
import decimal
import os
import random
import struct

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "python_float.tsv")
rng = random.Random(20261127)
texts = []

# repr() of every magnitude, as the relative-error cells hold them (without their '%')
for _ in range(1500):
    v = rng.gauss(0, 1) * 10.0 ** rng.randint(-300, 300) * 10.0 ** rng.randint(-20, 8)
    texts.append(repr(abs(v)))
    texts.append(repr(v))
# any bit pattern's repr
for _ in range(1000):
    v = struct.unpack("<d", struct.pack("<Q", rng.getrandbits(64)))[0]
    if v == v and abs(v) != float("inf"):
        texts.append(repr(v))
# 17 to 25 significant digits, not a double's shortest form: rounding decides
for _ in range(1000):
    digits = "".join(rng.choice("0123456789") for _ in range(rng.randint(17, 25)))
    point = rng.randint(1, len(digits))
    texts.append(f"{digits[:point]}.{digits[point:]}e{rng.randint(-320, 300)}")
# exactly halfway between two doubles: round half to even
decimal.getcontext().prec = 200
for _ in range(300):
    m = rng.getrandbits(52) | (1 << 52)
    e = rng.randint(-60, 60)
    half = decimal.Decimal(2 * m + 1) * decimal.Decimal(2) ** (e - 1)
    texts.append(format(half, "E"))
# the edges: subnormals, underflow, overflow
texts += ["4.9e-324", "5e-324", "2.4703282292062327e-324", "2.4703282292062328e-324", "1e-400", "-1e-400",
          "2.2250738585072011e-308", "2.2250738585072014e-308", "1.7976931348623157e308",
          "1.7976931348623158e308", "1.7976931348623159e308", "-1e400", "1e309", "0", "-0", "0.0", "-0.0",
          "0e500", "1e-5", "12.5", "1.", ".5", "-.5e-3", "+1E+05", "1_000.000_1", "1e1_0", "9007199254740993",
          "123456789012345678901234567890", "0.1", "0.30000000000000004", "100.0", "inf", "-Infinity"]

with open(OUT, "w") as f:
    for t in texts:
        f.write(f"{t}\t{struct.pack('<d', float(t)).hex()}\n")
print(len(texts), "texts ->", OUT)

values = [-0.0, 0.0, float("inf"), -float("inf"), float("nan"), 5e-324, 1.7976931348623157e308, 1e16, 1e-4, 1e-5,
          9999999999999998.0, 123456789012345680.0, 2.0 ** 53, 2.0 ** 53 + 2]
for _ in range(500):
    values.append(struct.unpack("<d", struct.pack("<Q", rng.getrandbits(64)))[0])  # any bits
    values.append(rng.gauss(0, 1) * 10.0 ** rng.randint(-30, 30))  # every form: "e", "0.000ddd", "ddd.ddd"
    values.append(struct.unpack("<f", struct.pack("<f", rng.gauss(0, 100)))[0])  # float32 statistics
    values.append(round(rng.gauss(0, 1) * 1e6) / 10.0 ** rng.randint(0, 7))  # short decimals, "ddd000.0"
    values.append(float(rng.getrandbits(rng.randint(1, 64))))  # integers, about 2^53 and past it
REPR = os.path.join(os.path.dirname(OUT), "python_repr.tsv")
with open(REPR, "w") as f:
    for v in values:
        f.write(f"{struct.pack('<d', v).hex()}\t{v!r}\n")
print(len(values), "values ->", REPR)
