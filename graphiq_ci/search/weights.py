"""Every number the ranker uses, as data: per-family policies (GraphIQ's table) and feature weights.

`--explain` prints features by the names used here; `.graphiq.yml`'s `weights:` overrides
`FEATURES` by the same names, so tuning never touches code or the index.
"""

from __future__ import annotations

from enum import Enum
from typing import NamedTuple


class Family(str, Enum):
    SYMBOL_EXACT = "SymbolExact"
    SYMBOL_PARTIAL = "SymbolPartial"
    FILE_PATH = "FilePath"
    ERROR_DEBUG = "ErrorDebug"
    NATURAL_DESCRIPTIVE = "NaturalDescriptive"
    NATURAL_ABSTRACT = "NaturalAbstract"
    CROSS_CUTTING = "CrossCuttingSet"
    RELATIONSHIP = "Relationship"


class Policy(NamedTuple):
    """What a family lets downstream signals do (GraphIQ: permission boundaries, not intent)."""

    bm25_w: float
    cov_w: float
    name_w: float
    walk_w: float
    walk: bool
    overlap: bool
    specificity: bool
    per_file: int
    relaxed_fts: bool  # OR-matching for natural language; AND for symbol-like queries
    per_term: bool
    graph_seeds: tuple[str, ...]  # deep edge kinds followed from seeds
    numeric: bool
    source_scan: bool
    overlap_gate: float


_NL_DEEP = ("shares_error_type", "shares_type", "shares_data_shape")

POLICIES: dict[Family, Policy] = {
    Family.SYMBOL_EXACT: Policy(5.0, 0.8, 1.0, 0.5, False, True, False, 3, False, False, (),
                                False, False, 0.5),
    Family.SYMBOL_PARTIAL: Policy(4.5, 1.0, 1.2, 0.8, True, True, False, 3, False, False, (),
                                  False, False, 0.4),
    Family.FILE_PATH: Policy(3.0, 1.5, 0.8, 0.3, False, False, False, 5, False, False, (),
                             False, False, 0.5),
    Family.ERROR_DEBUG: Policy(3.5, 1.5, 1.5, 1.2, True, True, True, 3, True, True,
                               ("shares_error_type",), True, True, 0.3),
    Family.NATURAL_DESCRIPTIVE: Policy(3.0, 1.5, 2.0, 1.0, True, True, True, 3, True, True,
                                       _NL_DEEP, True, False, 0.3),
    Family.NATURAL_ABSTRACT: Policy(2.5, 2.0, 1.5, 1.5, True, True, True, 2, True, True,
                                    _NL_DEEP, True, False, 0.2),
    Family.CROSS_CUTTING: Policy(2.0, 2.0, 1.0, 1.5, True, False, True, 1, True, True,
                                 ("shares_type", "shares_data_shape"), True, False, 0.5),
    Family.RELATIONSHIP: Policy(3.0, 1.5, 1.0, 2.0, True, False, True, 3, True, False,
                                ("shares_type", "shares_error_type"), False, False, 0.5),
}

#: Named features and multipliers; overridable from `.graphiq.yml` (`weights:`).
FEATURES: dict[str, float] = {
    "seed_bonus": 1.15,
    "coverage_exponent": 0.3,
    "walk_coverage": 1.5,
    "walk_name": 2.0,
    "neighbor_gate": 0.1,
    "neighbor_weight": 0.6,
    "overlap_weight": 1.0,
    "test_penalty": 0.5,
    "lock_gap": 1.2,
    "kind_callable": 1.1,
    "kind_type": 1.1,
    "kind_member": 0.85,
    "kind_file": 0.6,
    "kind_import": 0.5,
    "match_exact": 3.0,
    "match_prefix": 1.6,
    "match_abbreviation": 1.2,
    "match_subsequence": 0.6,
    "match_typo": 0.8,
    # with no exact or prefix name match, a name match adds this × its closeness to the query
    # (1 - edit distance / length), so a near miss competes with text matches (rq's rule)
    "near_miss": 6.0,
    "case_match": 0.3,
    "visibility_private": 0.95,
    # git boosts (issue: git awareness), additive and shown by --explain
    "branch": 0.6,
    "branch_dir": 0.15,
    "recency": 0.1,
    "cochange": 0.8,
    "churn": 0.3,
    "impact": 0.5,
}

# Walk limits (GraphIQ): top seeds walked, depth, edges per direction, expansions per seed.
WALK_SEEDS = 8
WALK_DEPTH = 2
WALK_EDGES_PER_DIRECTION = 10
WALK_EXPANSIONS_PER_SEED = 25
FTS_LIMIT = 200
PER_TERM_LIMIT = 50
