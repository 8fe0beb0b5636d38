"""Tower of Babel (Reiner Knizia): the component table, wonder scoring, disc sets, dealing.

Rule ids refer to ``shared/rules/tower-of-babel.md``.
"""
