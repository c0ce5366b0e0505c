"""Persistence: pynamodb models on the single Tandem table and the key builders they share."""
