"""Pure-Python rule engines for the four Babel games. No Django imports here."""
