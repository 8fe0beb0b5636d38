"""7 Wonders with the Babel expansion: the end-of-game sheet, science, Great Projects.

Rule ids refer to ``shared/rules/seven-wonders-babel.md``.
"""
