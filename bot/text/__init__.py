"""Words and menus: the catalogue in every language, turn summaries, action labels, the private
panel's menu model, settings parsers. No Discord: the terminal game speaks with the same words.
Imports `core`, `render` (cell codes, pictures) and `engine`."""
