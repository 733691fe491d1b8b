"""The one error type of the scoring core."""


class ScoringError(ValueError):
    """Malformed scoring input; the message names the offending field or token and its position."""
