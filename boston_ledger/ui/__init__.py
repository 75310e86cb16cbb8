"""How results look to people: rich tables, text, JSON shapes, charts, guided questions."""
