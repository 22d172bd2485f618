"""Tests of rulepress.operations: the operations as components."""
