"""The seed's importance formula for memories written after a task.

    importance = 0.4 * success + 0.4 * user_feedback + 0.2 * is_correction

`success` (did the task work, 0..1) and `user_feedback` (how the user rated
it, 0..1) weigh equally; a memory that corrects an earlier mistake gets the
remaining 0.2, because corrections are what an agent most needs to recall.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

DEFAULT_WEIGHTS: tuple[float, float, float] = (0.4, 0.4, 0.2)


def _unit(name: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{name} must be a number between 0 and 1, got {type(value).__name__}")
    number = float(value)
    if not math.isfinite(number) or not 0.0 <= number <= 1.0:
        raise ValueError(f"{name} must be between 0 and 1, got {value}")
    return number


def compute_importance(
    success: float,
    user_feedback: float,
    is_correction: bool,
    weights: Sequence[float] = DEFAULT_WEIGHTS,
) -> float:
    """Importance in [0, 1] from task success, user feedback and whether the memory is a correction.

    Raises ValueError when an input is outside 0..1 (or not a number), when
    `is_correction` is not a bool, or when the weights are not three
    non-negative numbers summing to 1.
    """
    s = _unit("success", success)
    f = _unit("user_feedback", user_feedback)
    if not isinstance(is_correction, bool):
        raise ValueError(f"is_correction must be a bool, got {type(is_correction).__name__}")
    if len(weights) != 3:
        raise ValueError(f"weights must be three numbers (success, feedback, correction), got {len(weights)}")
    w = [_unit(f"weights[{i}]", x) for i, x in enumerate(weights)]
    if not math.isclose(sum(w), 1.0, abs_tol=1e-6):
        raise ValueError(f"weights must sum to 1, got {sum(w):.6f}")
    value = w[0] * s + w[1] * f + w[2] * (1.0 if is_correction else 0.0)
    return round(min(1.0, max(0.0, value)), 6)
