"""The group's play log (issue 44): every play, newest first, filtered from the page's address
(``filters``), read in cursor pages (``selectors``) and exported as filtered (``export``)."""
