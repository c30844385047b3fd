"""Reviewed knowledge base: proposals from agents, decided by people (queue, service, web console)."""
