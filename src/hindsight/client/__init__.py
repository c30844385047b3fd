"""hindsight.client"""
