"""Static mode: the whole call list at once, scored with NesTools' metrics."""
