"""The games arbiter referees, one package each."""
