"""hindsight.storage"""
