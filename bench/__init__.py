"""Benchmarks printing figures: run each as ``.venv/bin/python -m bench.<name>``."""
