"""hindsight.write"""
