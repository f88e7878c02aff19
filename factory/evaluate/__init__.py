"""Scoring models and reference agents on benchmark splits: static (whole call list) and interactive (tool by tool)."""
