"""Assembling an instance around a checked chain: its scenario (category, withheld tools, broken conditions), its milestones, its distractor tools, and the conversation a simulated user holds."""
