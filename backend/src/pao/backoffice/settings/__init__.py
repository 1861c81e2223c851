"""The site settings editor, and the group routes every settings editor shares."""
