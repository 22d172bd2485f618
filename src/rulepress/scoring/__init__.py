"""The reference scorer: executes a spec's scoring sequence over a table state."""

from rulepress.scoring.engine import score
from rulepress.scoring.state import load_state

__all__ = ["load_state", "score"]
