"""Executing tool calls: the simulator and its backends (seed code in process, recorded answers,
the model simulator, the typed mock; model-written code in the bubblewrap sandbox)."""
