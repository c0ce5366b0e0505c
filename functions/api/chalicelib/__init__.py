"""The API function's Chalice plumbing: HTTP helpers, auth, and one blueprint per area."""
