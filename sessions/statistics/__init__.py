"""Statistics and ratings of a group's finished sessions.

``ratings`` replays sessions through OpenSkill (pure Python, no database); ``services``
keeps the stored rows (ratings, their history, monthly tallies, a game's totals) up to date
after each finished session and rebuilds them from the Results; ``selectors`` reads them
for the pages and the API; ``charts`` draws SVG on the server.
"""
