"""hindsight.server"""
