"""Chains: nesting shapes, the graph composer, and chains as code."""
