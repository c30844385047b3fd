"""Bridges from agent frameworks to hindsight (each behind its own optional extra)."""
