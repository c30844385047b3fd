"""hindsight.retrieval"""
