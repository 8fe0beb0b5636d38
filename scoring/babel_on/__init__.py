"""Babel On!: set-up, even/odd turns, tower validation and the perfect tower (BO-1..BO-14)."""
