"""babel (cuboro cube tower): geometry from data, legal placements, end detection, an exact solver.

Rule ids refer to ``shared/rules/babel-cubes.md`` (BC-1..BC-9).
"""
