"""Use cases: combine domain rules with the store and integrations. Handlers call these."""
