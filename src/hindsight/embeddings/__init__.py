"""hindsight.embeddings"""
