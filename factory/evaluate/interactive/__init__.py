"""Interactive mode: tools called one at a time against the simulator, scored by milestones and the final answer."""
