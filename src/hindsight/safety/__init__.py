"""hindsight.safety"""
