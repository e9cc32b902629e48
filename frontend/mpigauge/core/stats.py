# SPDX-License-Identifier: BSD-3-Clause
"""Statistics of the front-end: pure functions, tested with exact values in
tests/frontend/test_stats.py and test_paired.py."""
import math


def median(xs):
    s = sorted(xs)
    n = len(s)
    if n == 0:
        raise ValueError("median of no values")
    return s[n // 2] if n % 2 else 0.5 * (s[n // 2 - 1] + s[n // 2])


def quantile(xs, p):
    """Hyndman & Fan type 7 (R's and NumPy's default), as the C side."""
    s = sorted(xs)
    if not s:
        raise ValueError("quantile of no values")
    h = (len(s) - 1) * p
    lo = math.floor(h)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (h - lo) * (s[hi] - s[lo])


def _binom_cdf_half(k, n):
    """P(B <= k) for B ~ Binomial(n, 1/2), exact."""
    if k < 0:
        return 0.0
    return sum(math.comb(n, i) for i in range(0, min(k, n) + 1)) / 2 ** n


EXACT_MAX = 40   # above this many values a side, ranks come from the normal approximation


def _normal_rank(mean, sd, level):
    """The 1-based rank k of the lower CI bound for a statistic with this null
    mean and sd (normal approximation, continuity-corrected), and the
    coverage it gives."""
    from statistics import NormalDist
    nd = NormalDist()
    z = nd.inv_cdf(0.5 + level / 2.0)
    k = max(1, int(math.floor(mean + 0.5 - z * sd)))
    return k, 1.0 - 2.0 * nd.cdf((k - 0.5 - mean) / sd) if sd > 0 else 0.0


def median_ci(xs, level=0.95):
    """Distribution-free CI of the median from order statistics (as the C side):
    [x(r), x(n+1-r)] with the largest r whose coverage is at least `level`;
    [min, max] when no r reaches it. Returns (low, high, coverage)."""
    s = sorted(xs)
    n = len(s)
    if n == 0:
        raise ValueError("median_ci of no values")
    if n > 4 * EXACT_MAX:
        r, cov = _normal_rank(n / 2.0, math.sqrt(n) / 2.0, level)
        return s[r - 1], s[n - r], cov
    best = 1
    for r in range(1, n // 2 + 1):
        if 1.0 - 2.0 * _binom_cdf_half(r - 1, n) >= level:
            best = r
        else:
            break
    cov = 1.0 - 2.0 * _binom_cdf_half(best - 1, n)
    return s[best - 1], s[n - best], cov


def _u_counts(m, n):
    """Number of orderings giving each value of U (0..m*n) for sample sizes
    m, n without ties (Mann & Whitney's recursion)."""
    # table[j][k]: counts for sizes (i, j) built up over i
    prev = [[1] for _ in range(n + 1)]  # i = 0: U = 0 only
    for i in range(1, m + 1):
        cur = [[1]]  # j = 0
        for j in range(1, n + 1):
            size = i * j + 1
            row = [0] * size
            a = prev[j]        # (i-1, j): last element is from x, adds j
            b = cur[j - 1]     # (i, j-1): last element is from y, adds 0
            for k, c in enumerate(a):
                row[k + j] += c
            for k, c in enumerate(b):
                row[k] += c
            cur.append(row)
        prev = cur
    return prev[n]


def mann_whitney(x, y):
    """Two-sided Mann-Whitney U test. Returns (U of x, p-value, method).
    Exact distribution when there are no ties and m + n <= 60, otherwise the
    normal approximation with tie correction and continuity correction."""
    m, n = len(x), len(y)
    if m == 0 or n == 0:
        raise ValueError("Mann-Whitney needs two non-empty samples")
    allv = sorted([(v, 0) for v in x] + [(v, 1) for v in y])
    ranks = [0.0] * len(allv)
    ties = []
    i = 0
    while i < len(allv):
        j = i
        while j + 1 < len(allv) and allv[j + 1][0] == allv[i][0]:
            j += 1
        r = 0.5 * (i + j) + 1.0
        for k in range(i, j + 1):
            ranks[k] = r
        if j > i:
            ties.append(j - i + 1)
        i = j + 1
    rx = sum(r for r, (_, g) in zip(ranks, allv) if g == 0)
    u = rx - m * (m + 1) / 2.0
    if not ties and m + n <= 60:
        counts = _u_counts(m, n)
        total = float(sum(counts))
        k = int(round(u))
        lo = sum(counts[: k + 1]) / total
        hi = sum(counts[k:]) / total
        return u, min(1.0, 2.0 * min(lo, hi)), "exact"
    mu = m * n / 2.0
    nn = m + n
    tie_term = sum(t ** 3 - t for t in ties) / (nn * (nn - 1))
    var = m * n / 12.0 * ((nn + 1) - tie_term)
    if var <= 0:
        return u, 1.0, "normal"
    z = (abs(u - mu) - 0.5) / math.sqrt(var)
    p = math.erfc(max(z, 0.0) / math.sqrt(2.0))
    return u, min(1.0, p), "normal"


def min_p_value(m, n):
    """Smallest two-sided p the exact Mann-Whitney test can give for m, n
    (0.0 where it is below the smallest float: C(2000, 1000) has 600 digits)."""
    try:
        return min(1.0, 2.0 / math.comb(m + n, m))
    except OverflowError:
        return 0.0


PAIRWISE_MAX = 4_000_000   # above this many pairs, order statistics by selection


def _count_le(a, b, t):
    """Pairs (i, j) with b[j] - a[i] <= t, a and b sorted: O(len(a) + len(b))."""
    count, i, m = 0, len(a), len(a)
    for bj in reversed(b):          # b[j] falls: the a[i] >= b[j] - t grow in number
        while i > 0 and bj - a[i - 1] <= t:
            i -= 1
        count += m - i
    return count


def kth_difference(a, b, k):
    """The k-th smallest (1-based) of the len(a) * len(b) differences
    b[j] - a[i] of two sorted lists, exactly, without listing them: bisection
    on the value with a linear count per step, then the largest difference at
    or below the bound found. O((m + n) x 100) time, O(1) extra memory."""
    lo, hi = b[0] - a[-1], b[-1] - a[0]     # count(lo - eps) = 0, count(hi) = m * n
    if _count_le(a, b, lo) >= k:
        return lo
    for _ in range(200):                    # invariant: count(lo) < k <= count(hi)
        mid = lo + (hi - lo) / 2.0
        if mid <= lo or mid >= hi:
            break
        if _count_le(a, b, mid) >= k:
            hi = mid
        else:
            lo = mid
    best, i = -math.inf, len(a)
    for bj in reversed(b):                  # the largest difference <= hi
        while i > 0 and bj - a[i - 1] <= hi:
            i -= 1
        if i < len(a):
            best = max(best, bj - a[i])
    return best


def ratio_ci(base, new, level=0.95):
    """Distribution-free CI for the ratio new/base of two location parameters:
    the order statistics of the m*n pairwise ratios new_i/base_j (Hodges-Lehmann
    / Bauer, the interval that goes with the Mann-Whitney test), with the ranks
    taken from the exact U distribution. Returns (low, high, coverage); with
    too few values for `level` the widest interval (min, max) and its coverage."""
    m, n = len(base), len(new)
    if m == 0 or n == 0:
        raise ValueError("ratio_ci needs two non-empty samples")
    if m * n > PAIRWISE_MAX:
        # not every pairwise ratio in memory (77,000 launches a side: 6e9)
        la, lb = sorted(math.log(a) for a in base), sorted(math.log(b) for b in new)
        k, cov = _normal_rank(m * n / 2.0, math.sqrt(m * n * (m + n + 1) / 12.0), level)
        return (math.exp(kth_difference(la, lb, k)), math.exp(kth_difference(la, lb, m * n + 1 - k)),
                cov)
    logs = sorted(math.log(b) - math.log(a) for b in new for a in base)
    if m + n > 60:
        k, cov = _normal_rank(m * n / 2.0, math.sqrt(m * n * (m + n + 1) / 12.0), level)
        return math.exp(logs[k - 1]), math.exp(logs[m * n - k]), cov
    counts = _u_counts(m, n)
    total = float(sum(counts))
    best, cum = 1, 0.0
    for k in range(1, (m * n) // 2 + 1):
        cum += counts[k - 1]                  # P(U <= k - 1) * total
        if 1.0 - 2.0 * cum / total >= level:
            best = k
        else:
            break
    k = best
    cov = 1.0 - 2.0 * sum(counts[:k]) / total
    return math.exp(logs[k - 1]), math.exp(logs[m * n - k]), cov


# --------------------------------------------------------------------------
# paired launches (interleaved rounds)
# --------------------------------------------------------------------------

def _signed_rank_counts(n):
    """counts[w]: subsets of {1..n} whose sum is w (the null distribution of
    the Wilcoxon signed-rank statistic, times 2^n)."""
    counts = [1] + [0] * (n * (n + 1) // 2)
    top = 0
    for k in range(1, n + 1):
        top += k
        for w in range(top, k - 1, -1):
            counts[w] += counts[w - k]
    return counts


def signed_rank(d):
    """Two-sided Wilcoxon signed-rank test of paired differences d against 0.
    Zeros are dropped (Wilcoxon's rule). Exact null distribution without ties
    and for n <= 40, else the normal approximation with tie and continuity
    corrections. Returns (W+, p, n_used, method)."""
    nz = [x for x in d if x != 0]
    n = len(nz)
    if n == 0:
        return 0.0, 1.0, 0, "none"
    order = sorted(range(n), key=lambda i: abs(nz[i]))
    ranks = [0.0] * n
    ties = []
    i = 0
    while i < n:
        j = i
        while j + 1 < n and abs(nz[order[j + 1]]) == abs(nz[order[i]]):
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = 0.5 * (i + j) + 1.0
        if j > i:
            ties.append(j - i + 1)
        i = j + 1
    wplus = sum(r for r, x in zip(ranks, nz) if x > 0)
    if not ties and n <= EXACT_MAX:
        counts = _signed_rank_counts(n)
        total = 2 ** n
        w = int(round(wplus))
        lo = sum(counts[: w + 1]) / total
        hi = sum(counts[w:]) / total
        return wplus, min(1.0, 2.0 * min(lo, hi)), n, "exact"
    mu = n * (n + 1) / 4.0
    var = n * (n + 1) * (2 * n + 1) / 24.0 - sum(t ** 3 - t for t in ties) / 48.0
    if var <= 0:
        return wplus, 1.0, n, "normal"
    z = (abs(wplus - mu) - 0.5) / math.sqrt(var)
    return wplus, min(1.0, math.erfc(max(z, 0.0) / math.sqrt(2.0))), n, "normal"


def min_signed_rank_p(n):
    """Smallest two-sided p the exact signed-rank test can give with n pairs."""
    return min(1.0, math.ldexp(1.0, 1 - n)) if n > 0 else 1.0


def min_pairs(alpha):
    """The fewest pairs with which the exact signed-rank test can reach p < alpha."""
    n = 1
    while min_signed_rank_p(n) >= alpha:
        n += 1
    return n


def hodges_lehmann(d, level=0.95):
    """The Hodges-Lehmann estimate of the centre of the paired differences d
    (median of the Walsh averages) and its distribution-free CI from the
    order statistics of the Walsh averages, ranks from the exact signed-rank
    distribution (normal approximation above EXACT_MAX pairs). Returns
    (estimate, low, high, coverage); with too few pairs
    for `level`, the widest interval (min, max) and its coverage."""
    est, ((lo, hi, cov),) = hodges_lehmann_levels(d, (level,))
    return est, lo, hi, cov


def hodges_lehmann_levels(d, levels):
    """(estimate, [(low, high, coverage) per level]): hodges_lehmann's
    intervals at several levels from one sort of the Walsh averages."""
    n = len(d)
    if n == 0:
        raise ValueError("hodges_lehmann of no differences")
    walsh = sorted((d[i] + d[j]) / 2.0 for i in range(n) for j in range(i, n))
    m = len(walsh)
    est = median(walsh)
    out = []
    counts = _signed_rank_counts(n) if n <= EXACT_MAX else None
    total = 2 ** n
    for level in levels:
        if counts is None:
            k, cov = _normal_rank(n * (n + 1) / 4.0, math.sqrt(n * (n + 1) * (2 * n + 1) / 24.0),
                                  level)
            out.append((walsh[k - 1], walsh[m - k], cov))
            continue
        best, cum = 1, 0.0
        for k in range(1, m // 2 + 1):
            cum += counts[k - 1]                       # P(T <= k - 1) * 2^n
            if 1.0 - 2.0 * cum / total >= level:
                best = k
            else:
                break
        out.append((walsh[best - 1], walsh[m - best], 1.0 - 2.0 * sum(counts[:best]) / total))
    return est, out


def adjust_pvalues(ps, method="bh"):
    """Adjusted p-values (None entries stay None): "holm" (family-wise error,
    Holm 1979), "bh" (false discovery rate, Benjamini & Hochberg 1995, which
    also bounds the family-wise error when every null is true) or "none".
    A series is significant when its adjusted p is below alpha."""
    idx = [i for i, p in enumerate(ps) if p is not None]
    m = len(idx)
    out = list(ps)
    if method == "none" or m == 0:
        return out
    order = sorted(idx, key=lambda i: ps[i])
    if method == "holm":
        running = 0.0
        for k, i in enumerate(order):
            running = max(running, min(1.0, (m - k) * ps[i]))
            out[i] = running
    elif method == "bh":
        running = 1.0
        for k in range(m - 1, -1, -1):
            i = order[k]
            running = min(running, m * ps[i] / (k + 1))
            out[i] = min(1.0, running)
    else:
        raise ValueError(f"unknown adjustment {method!r}")
    return out


def pairs_needed(sd, effect, alpha, power=0.8):
    """Pairs for a two-sided test at level alpha to detect a shift `effect`
    with the given power when the paired differences have standard deviation
    sd (normal approximation, x 1.05 for the signed-rank test's efficiency),
    never below the count at which the exact test can reach alpha."""
    from statistics import NormalDist
    nd = NormalDist()
    floor = min_pairs(alpha)
    if effect == 0 or sd <= 0:
        return floor if effect != 0 else None
    z = nd.inv_cdf(1 - alpha / 2) + nd.inv_cdf(power)
    return max(floor, math.ceil(1.05 * (z * sd / abs(effect)) ** 2))


def theil_sen(x, y):
    """The Theil-Sen slope of y on x: the median of the pairwise slopes
    (pairs with equal x left out); 0 when there is none."""
    s = [(y[j] - y[i]) / (x[j] - x[i]) for i in range(len(x)) for j in range(i + 1, len(x))
         if x[j] != x[i]]
    return median(s) if s else 0.0


def adjust_for_covariate(d, c):
    """Paired differences d with the part explained by the centred covariate
    c taken out: d_i - b (c_i - mean c), b the Theil-Sen slope. The mean of
    d is unchanged (the covariate's own shift between the sides is not
    removed); its scatter shrinks by what c explains."""
    if len(d) < 3:
        return list(d), 0.0
    cm = sum(c) / len(c)
    b = theil_sen(c, d)
    return [di - b * (ci - cm) for di, ci in zip(d, c)], b
