"""One blueprint per area; app.py registers each under /api."""
