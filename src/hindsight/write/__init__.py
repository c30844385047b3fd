"""The write path."""
