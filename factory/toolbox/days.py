"""What seed authors build tools with beyond the registry (`factory.toolbox`): days as the
tools read and write them. Places, distances, time zones, money, phone numbers and names of
the one shared world are in `factory.toolbox.gazetteer`; the person asking is `factory.toolbox.user.USER`."""

from __future__ import annotations

from datetime import date, timedelta

from factory.errors import ToolError
from factory.toolbox.gazetteer import NOW

__all__ = ["day_after", "iso_day"]


def iso_day(text: str) -> date:
    """A day written YYYY-MM-DD; a `ToolError` an agent can act on for anything else."""
    try:
        return date.fromisoformat(text)
    except (TypeError, ValueError):
        raise ToolError(f"date {text!r} is not in YYYY-MM-DD format") from None


def day_after(days: int) -> str:
    """The day `days` after the world's today (before it when negative), as YYYY-MM-DD."""
    return (NOW.date() + timedelta(days=days)).isoformat()
