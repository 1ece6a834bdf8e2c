"""Compare a regenerated claim record with a stored one at tolerances that follow from what each
number is, so that a correct installation on another CPU agrees and a real change does not.

Another CPU rounds differently in the last bits (numpy's SIMD paths, OpenBLAS kernels), and a
simulation, an ill-conditioned fit or a classifier can carry that to a visible digit. What must
agree, and how closely:

* the words (id, source, quote, statement, note, budget, method, units), the **outcome**, the
  declared tolerance, ``derived_by_varlab`` and the repetitions the check rests on: equal;
* in a row with a standard error ``SE``: every number within ``fraction x SE`` (estimates, both
  sides of an ordering, their difference, the grid's coordinates), ``SE`` itself within
  ``fraction x SE``, ``z`` within ``fraction x (1 + |z|)`` (z = difference / SE moves with
  both), and an exact column (``theory``, a side named "... (exact)") within ``EXACT_RTOL``
  relative (floor: ``EXACT_RTOL x SE`` for a value at 0). ``fraction`` is ``FRACTION[method]``:
  1 % of an SE for a simulation (thousands of repetitions: one repetition more moves a point by
  about SE / sqrt(n), 1.6 % at the test budget), 10 % for few independent trials (each through a
  solver or a fit that carries a last-bit difference further);
* in a row without a standard error (an exact computation): within ``EXACT_RTOL`` of the
  row's largest number (so a value at 0, such as a rounding error, is not compared relative to
  itself), or the absolute accuracy the record declares for that column (``Verdict.accuracy``,
  a bound its claim documents);
* the resolution within ``fraction`` of itself, the budget factor (about the resolution
  squared, through t quantiles for few trials) within ``4 x fraction`` on a log scale;
* the reason, and any text in a row: the same words, and each number within one unit of its
  last printed digit or ``TEXT_RTOL`` of its value (they restate the numbers compared above, or
  quantities derived from them, such as the trials that would resolve a check; a reason that
  prints another quantity, or another comparison, still fails);
* integers (counts, sizes, k), booleans and None: equal.

The machine that wrote a report regenerates it byte for byte; these rules are what holds on any
other (``varlab check --compare``).

Examples
--------
>>> from varlab.claims.compare import differences
>>> old = {"id": "x", "outcome": "confirmed", "method": "simulation", "resolution": 0.02,
...        "reason": "max |z| = 1.23", "rows": [{"k": 4, "estimate": 0.5, "SE": 0.01, "z": 1.23}]}
>>> new = {**old, "reason": "max |z| = 1.24", "rows": [{"k": 4, "estimate": 0.50005, "SE": 0.01,
...                                                      "z": 1.235}]}
>>> differences(new, old)
[]
>>> differences({**new, "rows": [{**new["rows"][0], "estimate": 0.5003}]}, old)
['rows[0].estimate: 0.5003 vs 0.5 (tolerance 0.0001, 1% of SE 0.01)']
"""
from __future__ import annotations

import json
import math
import re
from decimal import Decimal
from pathlib import Path

__all__ = ["differences", "compare_reports", "text_differences", "FRACTION", "EXACT_RTOL", "TEXT_RTOL",
           "WORDS"]

#: fields of a record that must be equal (each where the stored record has it)
WORDS = ("id", "source", "quote", "statement", "note", "budget", "outcome", "method", "units",
         "tolerance", "derived_by_varlab", "n_repetitions")
#: the fraction of a standard error a number may move, by the record's method
FRACTION = {"simulation": 0.01, "trials": 0.1, "exact": 0.01}
#: relative tolerance of an exact value (a Formula, a quadrature, an exact computation's row)
EXACT_RTOL = 1e-12
#: relative tolerance of a number printed in a reason or in a row's text
TEXT_RTOL = 0.05

NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def _is_exact_column(name: str) -> bool:
    """``theory``, or an exact side of an ordering ("name (exact)"; not the difference "b - a")."""
    return name == "theory" or (name.endswith("(exact)") and " - " not in name)


def _last_digit(number: str) -> Decimal:
    """One unit in the last printed digit of ``number`` (0 for an integer)."""
    mantissa, _, exponent = number.lower().partition("e")
    if "." not in mantissa and not exponent:
        return Decimal(0)
    decimals = len(mantissa.partition(".")[2])
    return Decimal(1).scaleb(int(exponent or 0) - decimals)


def text_differences(new: str, old: str, where: str) -> list[str]:
    """``new`` against ``old``: the same words, each number within one unit of its last printed
    digit or ``TEXT_RTOL`` of its value.

    Examples
    --------
    >>> from varlab.claims.compare import text_differences
    >>> text_differences("max |z| = 1.87; about 227 trials", "max |z| = 1.86; about 223 trials", "reason")
    []
    >>> text_differences("max |z| <= 1.86", "max |z| < 1.86", "reason")
    ["reason: words differ: 'max |z| <= 1.86' vs 'max |z| < 1.86'"]
    """
    if NUMBER.sub("#", new) != NUMBER.sub("#", old):
        return [f"{where}: words differ: {new!r} vs {old!r}"]
    found = []
    for a, b in zip(NUMBER.findall(new), NUMBER.findall(old)):
        gap = abs(Decimal(a) - Decimal(b))
        if gap > max(_last_digit(a), _last_digit(b)) and gap > Decimal(TEXT_RTOL) * abs(Decimal(b)):
            found.append(f"{where}: {a} vs {b} in {new!r}")
    return found


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


#: how a record stores a non-finite float (``Verdict.to_json``)
NON_FINITE = ("nan", "inf", "-inf")


def _close(new, old, tolerance: float) -> bool:
    if old in NON_FINITE or new in NON_FINITE:
        return new == old
    return abs(float(new) - float(old)) <= tolerance


def _row_differences(new: dict, old: dict, where: str, fraction: float, accuracy: dict) -> list[str]:
    if list(new) != list(old):
        return [f"{where}: columns {list(new)} vs {list(old)}"]
    se = old.get("SE")
    magnitude = max((abs(v) for v in old.values() if isinstance(v, float) and math.isfinite(v)),
                    default=0.0)
    found = []
    for key, b in old.items():
        a, at = new[key], f"{where}.{key}"
        if isinstance(b, str) and b not in NON_FINITE:
            found += text_differences(a, b, at) if isinstance(a, str) else [f"{at}: {a!r} vs {b!r}"]
            continue
        if not isinstance(b, float) and not isinstance(a, float):
            if a != b:
                found.append(f"{at}: {a!r} vs {b!r}")
            continue
        if not (_number(a) or a in NON_FINITE) or not (_number(b) or b in NON_FINITE):
            found.append(f"{at}: {a!r} vs {b!r}")
            continue
        b_value = float(b)
        if _number(se) and se > 0:
            if key == "z":
                tolerance, why = fraction * (1 + abs(b_value)), f"{fraction:.0%} of 1 + |z|"
            elif _is_exact_column(key):
                tolerance, why = EXACT_RTOL * (abs(b_value) + se), f"{EXACT_RTOL:g} relative"
            else:
                tolerance, why = fraction * se, f"{fraction:.0%} of SE {se:.3g}"
        else:
            tolerance = max(EXACT_RTOL * magnitude, accuracy.get(key, 0.0))
            why = (f"declared accuracy {accuracy[key]:g}" if key in accuracy
                   else f"{EXACT_RTOL:g} relative")
        if not _close(a, b, tolerance):
            found.append(f"{at}: {a!r} vs {b!r} (tolerance {tolerance:.3g}, {why})")
    return found


def differences(new: dict, old: dict) -> list[str]:
    """What of ``new`` (a claim record, ``Verdict.to_json()``) departs from the stored ``old``
    beyond the tolerances of the module docstring; an empty list when it agrees.

    Examples
    --------
    >>> from varlab.claims import Identity
    >>> from varlab.claims.compare import differences
    >>> check = Identity(id="doc.compare", source="s", quote="q", statement="2 + 2 = 4",
    ...                  compute=lambda: (2 + 2 == 4, "exact", [{"value": 4.0}]))
    >>> record = check.run("test").to_json()
    >>> differences(check.run("test").to_json(), record)
    []
    >>> differences({**record, "outcome": "contradicted"}, record)
    ["outcome: 'contradicted' vs 'confirmed'"]
    """
    found = [f"{key}: {new.get(key)!r} vs {old.get(key)!r}" for key in WORDS
             if key in old and new.get(key) != old.get(key)]
    fraction = FRACTION.get(old.get("method"), FRACTION["simulation"])
    if "resolution" in old and not _close(new.get("resolution"), old["resolution"],
                                          fraction * abs(float(old["resolution"]))):
        found.append(f"resolution: {new.get('resolution')!r} vs {old['resolution']!r} "
                     f"(tolerance {fraction:.0%} of itself)")
    a, b = new.get("budget_factor"), old.get("budget_factor")
    if a != b and not (_number(a) and _number(b) and a > 0 and b > 0
                       and abs(math.log(a / b)) <= 4 * fraction):
        found.append(f"budget_factor: {a!r} vs {b!r} (tolerance {4 * fraction:.0%} on a log scale)")
    if "reason" in old:
        found += text_differences(str(new.get("reason")), old["reason"], "reason")
    rows_new, rows_old = new.get("rows", []), old.get("rows", [])
    if len(rows_new) != len(rows_old):
        return found + [f"rows: {len(rows_new)} vs {len(rows_old)}"]
    accuracy = old.get("accuracy") or {}
    for index, (row_new, row_old) in enumerate(zip(rows_new, rows_old)):
        found += _row_differences(row_new, row_old, f"rows[{index}]", fraction, accuracy)
    return found


def compare_reports(new, old, papers=None) -> dict:
    """``{claim id: differences}`` of the ``report.json`` files under directory ``new`` against
    those under ``old`` (one folder per paper; ``papers``: only these), for every claim of
    ``old`` with a difference; a claim or paper missing from ``new`` is a difference, one only in
    ``new`` too.

    Examples
    --------
    >>> import json, tempfile
    >>> from pathlib import Path
    >>> from varlab.claims.compare import compare_reports
    >>> record = {"id": "doc.a", "outcome": "confirmed", "method": "exact", "reason": "ok", "rows": []}
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     for side, outcome in (("new", "contradicted"), ("old", "confirmed")):
    ...         (Path(folder) / side / "000").mkdir(parents=True)
    ...         claims = [{**record, "outcome": outcome}]
    ...         _ = (Path(folder) / side / "000" / "report.json").write_text(json.dumps({"claims": claims}))
    ...     compare_reports(Path(folder) / "new", Path(folder) / "old")
    {'doc.a': ["outcome: 'contradicted' vs 'confirmed'"]}
    """
    new, old = Path(new), Path(old)
    found = {}
    for path in sorted(old.glob("*/report.json")):
        paper = path.parent.name
        if papers is not None and paper not in papers:
            continue
        stored = {record["id"]: record for record in json.loads(path.read_text())["claims"]}
        regenerated_path = new / paper / "report.json"
        if not regenerated_path.exists():
            found[paper] = [f"no {paper}/report.json in {new}"]
            continue
        payload = json.loads(regenerated_path.read_text())
        regenerated = {record["id"]: record for record in payload["claims"]}
        for claim_id, record in stored.items():
            if claim_id not in regenerated:
                found[claim_id] = ["missing from the regenerated report"]
            elif moved := differences(regenerated[claim_id], record):
                found[claim_id] = moved
        for claim_id in regenerated.keys() - stored.keys():
            found[claim_id] = ["not in the stored report"]
    return found
