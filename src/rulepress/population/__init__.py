"""Populations of table states: drawn, recorded, and the executor that runs jobs over them."""
