"""Export a group (JSON: everything; CSV: the results), import such a file, import BG Stats."""
