"""Statistics and ratings of a group's finished sessions.

``ratings`` replays sessions through OpenSkill (pure Python, no database); ``services``
keeps the stored rows (ratings, their history, monthly tallies, a game's totals) up to date
after each finished session and rebuilds them from the Results; ``selectors`` reads them
for the pages and the API; ``charts`` gives each chart its figures and the data Chart.js
draws in the browser. ``bands`` gives a rating its uncertainty band, ``chances`` each seat's
chance to win before a game, and ``calibration`` holds those chances to account over the
group's past games.
"""
