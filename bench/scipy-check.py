#!/usr/bin/env python3
"""
An independent check of `simeval compare`'s statistics against SciPy (not part of the tests: SciPy is not a
dependency). Writes two results.jsonl files whose evaluators hold random paired scores, runs `compare --json`
on them, and compares each evaluator's p-value and interval with SciPy's on the same pairs:

- exact p (up to 20 non-zero differences): `permutation_test(..., permutation_type="samples", n_resamples=inf)`
  with the mean difference as statistic, and a count of the sign patterns in whole numbers (no rounding at all);
- sampled p (more than 20 non-zero differences): against the exact p for scores on a grid (0/1, tenths, quarters),
  counted by convolution, else SciPy with 200,000 resamples, in units of simeval's Monte-Carlo standard error;
- the 95% interval against `bootstrap(paired=True, method="percentile")`: each end's distance from the mean of
  SciPy's over 5 runs, as a share of the interval's width.

Usage, after `npm run build`: python3 bench/scipy-check.py [CASES] (default 100; needs numpy and scipy).
"""
import json
import math
from fractions import Fraction
import os
import subprocess
import sys
import tempfile

import numpy as np
from scipy import stats

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, "dist", "cli", "bin.js")
rng = np.random.default_rng(7)


def sample(n):
    """A random pair of score columns of n rows, of one of several shapes (continuous, rounded, 0/1, few values)."""
    kind = rng.integers(4)
    if kind == 0:
        return rng.random(n), rng.random(n)
    if kind == 1:
        return np.round(rng.random(n), 1), np.round(rng.random(n), 1)
    if kind == 2:
        return rng.integers(0, 2, n).astype(float), rng.integers(0, 2, n).astype(float)
    return rng.choice([0.0, 0.25, 0.5, 1.0], n), rng.choice([0.0, 0.25, 0.5, 1.0], n)


def compare(columns):
    """simeval compare --json on files holding `columns` (name -> (a, b)); its evaluators by name."""
    n = len(next(iter(columns.values()))[0])
    with tempfile.TemporaryDirectory() as d:
        for side in (0, 1):
            with open(os.path.join(d, f"{side}.jsonl"), "w") as f:
                for i in range(n):
                    results = {name: {"type": "levenshtein", "score": float(c[side][i])} for name, c in columns.items()}
                    f.write(json.dumps({"row": i + 1, "results": results}) + "\n")
        out = subprocess.run(["node", BIN, "compare", os.path.join(d, "0.jsonl"), os.path.join(d, "1.jsonl"), "--json"], capture_output=True, text=True, check=True).stdout
    return {e["name"]: e for e in json.loads(out)["evaluators"]}


def mean_diff(x, y, axis=-1):
    return np.mean(y - x, axis=axis)


def exact_p(a, b):
    res = stats.permutation_test((a, b), mean_diff, permutation_type="samples", n_resamples=np.inf, vectorized=True)
    return res.pvalue


def counted_p(a, b):
    """The exact p counted in whole numbers: each difference as an exact rational, every sign pattern visited in
    Gray-code order (one addition each), a pattern counted when its |sum| reaches the observed one."""
    # Each score as the decimal it is written as in the file (repr gives the shortest that reads back alike), so that
    # 0.3 - 0.1 and 0.5 - 0.3 tie, as the user means them, where their floats' own rationals do not.
    d = [Fraction(repr(float(y))) - Fraction(repr(float(x))) for x, y in zip(a, b) if x != y]
    scale = math.lcm(*(f.denominator for f in d)) if d else 1
    cur = [int(f * scale) for f in d]
    total = sum(cur)
    observed, count = abs(total), 1
    for k in range(1, 1 << len(cur)):
        bit = (k & -k).bit_length() - 1
        total -= 2 * cur[bit]
        cur[bit] = -cur[bit]
        count += abs(total) >= observed
    return count / (1 << len(cur))


def grid_p(d):
    """The exact p of differences on a grid of 1/20 (tenths, quarters, 0/1), however many: the distribution of the
    signed sum built by convolution, in whole numbers, with no sampling."""
    steps = [abs(int(v)) for v in np.round(np.asarray(d) * 20) if v != 0]
    counts = {0: 1}
    for c in steps:
        nxt = {}
        for total, k in counts.items():
            for t in (total + c, total - c):
                nxt[t] = nxt.get(t, 0) + k
        counts = nxt
    observed = abs(int(np.round(np.sum(d) * 20)))
    return sum(k for total, k in counts.items() if abs(total) >= observed) / (1 << len(steps))


def main():
    cases = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    exact, sampled, widths = [], [], []
    columns = {f"e{i}": sample(int(rng.integers(2, 15))) for i in range(cases)}
    # compare needs one row count per file: one file pair per row count.
    by_n = {}
    for name, c in columns.items():
        by_n.setdefault(len(c[0]), {})[name] = c
    for group in by_n.values():
        got = compare(group)
        for name, (a, b) in group.items():
            e = got[name]
            if e["p_method"] == "exact" and np.count_nonzero(b - a) > 0:
                exact.append((abs(e["p_value"] - exact_p(a, b)), abs(e["p_value"] - counted_p(a, b))))
    for n in (30, 300, 2000):
        group = {f"s{n}_{i}": sample(n) for i in range(8)}
        got = compare(group)
        for name, (a, b) in group.items():
            e = got[name]
            if np.all(a == b):
                continue
            if e["p_method"] != "monte_carlo":
                continue  # 20 non-zero differences or fewer: exact, checked above
            d = b - a
            if np.allclose(d * 20, np.round(d * 20), atol=1e-9):
                # Scores on a grid (0/1, tenths, quarters): the exact p, which SciPy's sampling, with many tied sums,
                # missed by several of its standard errors.
                p = grid_p(d)
            else:
                p = stats.permutation_test((a, b), mean_diff, permutation_type="samples", n_resamples=200_000, vectorized=True, batch=5_000, random_state=1).pvalue
            se = math.sqrt(max(p * (1 - p), 1e-4) / 10_000)
            sampled.append((abs(e["p_value"] - p) / se, n, e["p_value"], p))
            runs = [stats.bootstrap((a, b), mean_diff, paired=True, method="percentile", vectorized=True, n_resamples=10_000, batch=2_000, random_state=s).confidence_interval for s in range(5)]
            for end, key in ((0, "low"), (1, "high")):
                values = np.array([r[end] for r in runs])
                widths.append(abs(e["ci"][key] - values.mean()) / max(e["ci"]["high"] - e["ci"]["low"], 1e-12))
    print(f"exact p: {len(exact)} cases; identical to SciPy's in {sum(x == 0 for x, _ in exact)} (max difference {max(x for x, _ in exact):.3g}), "
          f"to a count in whole numbers in {sum(y == 0 for _, y in exact)} (max difference {max(y for _, y in exact):.3g})")
    z, n, mine, theirs = max(sampled)
    print(f"sampled p: {len(sampled)} cases, max |z| = {z:.2f} Monte-Carlo standard errors (n = {n}: {mine:.5f} against {theirs:.5f}), "
          f"{sum(c[0] > 2 for c in sampled)} beyond 2")
    print(f"interval ends: {len(widths)}, max |simeval - SciPy's mean over 5 runs| = {max(widths):.3f} of the interval's width, median {np.median(widths):.4f}")


if __name__ == "__main__":
    main()
