"""Tests of rulepress.editions: diff of two editions, the translator's view."""
