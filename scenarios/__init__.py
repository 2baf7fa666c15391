"""Scenario data (YAML) shipped with arbiter: boards, decks, tiles, modes."""
