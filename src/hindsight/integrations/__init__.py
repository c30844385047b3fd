"""hindsight.integrations"""
