"""Renderers: the spec and the scorer's results turned into text for readers."""
